#pragma once
// Where the elements of a compared output disagree: counts per position of the output's spatial plane
// (summed over batch, channels and, for 5D outputs, depth), per channel, per depth plane, and per border
// band. The reporters draw it as a block map (text) or a heatmap (PNG) and write it into the JSON report.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "exec/diagnosis/plane_grid.hpp"

namespace irlint {

// Mismatches on each border of the output. Each element counts once, in the first band it lies on, in the
// order planes, rows, columns (a corner counts in its row); `interior` counts the elements on none. So the
// bands and the interior add up to the mismatches. Row bands exist for 4D and 5D outputs, plane bands for 5D
// outputs only; the others stay 0.
struct BorderBands {
    size_t first_row = 0, last_row = 0;
    size_t first_column = 0, last_column = 0;
    size_t first_plane = 0, last_plane = 0;
    size_t interior = 0;
};

// On the output's plane grid (plane_grid.hpp): 1 x 1 blocks unless the plane is huge.
struct MismatchMap : PlaneGrid {
    int64_t elements_per_position = 1;           // N x C x D: the elements that share one plane position
    std::vector<size_t> cells;                   // grid_rows x grid_cols, row-major; empty: all 0
    std::vector<size_t> channels;                // per channel (dim 1), or per block of channel_block channels
    std::vector<size_t> depths;                  // per depth plane of a 5D output (or block); empty otherwise
    int64_t channel_block = 1, depth_block = 1;  // 1 unless there are more than kMaxMapCells of them
    BorderBands bands;
    size_t mismatches = 0;

    size_t cell(int64_t r, int64_t c) const { return cells.empty() ? 0 : cells[static_cast<size_t>(r * grid_cols + c)]; }
    // The share of the elements behind cell (r, c) that mismatch, from 0 to 1.
    double cell_fraction(int64_t r, int64_t c) const;
};

// A plane of more positions than this, or more channels or depth planes, is summed into blocks, so that a
// report stays small whatever the output.
inline constexpr int64_t kMaxMapCells = 65536;

class MismatchMapBuilder {
public:
    explicit MismatchMapBuilder(const std::vector<int64_t>& output_shape);
    void add(size_t flat_index);  // one mismatching element, by its C-order index in the output
    const MismatchMap& map() const& { return map_; }
    MismatchMap map() && { return std::move(map_); }

private:
    int64_t channels_ = 1, depth_ = 1;
    int spatial_axes_ = 0;
    MismatchMap map_;
};

}  // namespace irlint
