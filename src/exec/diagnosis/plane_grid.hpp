#pragma once
// The plane of an output that the diagnosis draws, and the grid of cells it is drawn in. A plane is the
// spatial part of the output at one batch and channel index (and depth, for a 5D output): H x W, or 1 x W
// for a 3D output. A plane larger than its grid is cut into blocks of positions, one block per cell. The
// mismatch map and the error detail are both drawn on such a grid.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irlint {

struct PlaneGrid {
    int64_t rows = 1, cols = 1;              // the plane: H x W (1 x W for a 3D output)
    int64_t block_rows = 1, block_cols = 1;  // plane positions per cell: 1 x 1 unless the plane is large
    int64_t grid_rows = 1, grid_cols = 1;    // cells
    size_t leading_axes = 0;                 // the axes before the plane: 2 for N, C; 3 for N, C, D

    size_t plane_size() const { return static_cast<size_t>(rows * cols); }
    size_t cell_count() const { return static_cast<size_t>(grid_rows * grid_cols); }
    // The row-major cell that holds plane position (row, col).
    size_t cell_of(int64_t row, int64_t col) const {
        return static_cast<size_t>(row / block_rows * grid_cols + col / block_cols);
    }
    // The row-major cell that holds the element at this C-order index of the output.
    size_t cell_of_element(size_t flat_index) const {
        const auto position = static_cast<int64_t>(flat_index % plane_size());
        return cell_of(position / cols, position % cols);
    }
};

// The plane of an output of `shape` (a dim of length 0 counts as 1), one cell per position. An output of
// rank below 3 has no spatial axes: its plane is a single position.
PlaneGrid plane_grid(const std::vector<int64_t>& shape);

// The grid with blocks of block_rows x block_cols positions per cell.
void cut_into_blocks(PlaneGrid& grid, int64_t block_rows, int64_t block_cols);

}  // namespace irlint
