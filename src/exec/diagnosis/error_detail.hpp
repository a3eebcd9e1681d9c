#pragma once
// Where the errors of a mismatching output are and how large, plane by plane (plane_grid.hpp), for the
// heatmaps of the HTML run report. Computed only when a report asks for it, in two passes over
// the mismatching elements.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "exec/compare/compare.hpp"
#include "exec/diagnosis/plane_grid.hpp"
#include "exec/tensor.hpp"

namespace irlint {

// The heatmap grid of a plane has at most this many cells per side; a larger plane is cut into blocks and
// each cell keeps the largest error of its block.
inline constexpr int64_t kErrorGridSide = 64;
// Planes drawn: the one with the most mismatches and the next ones; for a 5D output, the depth planes of the
// batch and channel with the most mismatches, as small multiples.
inline constexpr size_t kErrorPlanesDrawn = 4;
inline constexpr size_t kDepthPlanesDrawn = 8;
// Planes listed by name with their counts.
inline constexpr size_t kErrorPlanesListed = 32;

struct ErrorPlane {
    std::vector<int64_t> index;  // the leading indices that pick the plane: {n, c} or {n, c, d}
    size_t mismatches = 0;
    std::vector<float> max_error;  // grid_rows x grid_cols, row-major; 0 where no element mismatches
};

// On the output's plane grid (plane_grid.hpp), in blocks of at most kErrorGridSide cells per side.
struct ErrorDetail : PlaneGrid {
    size_t worst = 0;  // flat index of the mismatching element with the largest error (the first of equals)
    double worst_actual = 0, worst_expected = 0, worst_error = 0;  // worst_error: inf where one side is NaN
    float min_error = 0, max_error = 0;  // over the finite errors drawn, for the color scale
    bool non_finite_drawn = false;       // some drawn cell holds an infinite error (NaN on one side)
    size_t planes_with_mismatches = 0;
    std::vector<ErrorPlane> listed;  // up to kErrorPlanesListed, most mismatches first (grids left empty)
    std::vector<ErrorPlane> drawn;   // with their grids; the worst element's plane is always among them
    bool depth_multiples = false;    // drawn are depth planes of one (n, c)
};

// Only for an output with mismatches (comparison.mismatches > 0).
ErrorDetail error_detail(const Tensor& computed, const Tensor& expected, const Tolerance& tolerance);

}  // namespace irlint
