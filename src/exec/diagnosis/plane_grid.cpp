#include "exec/diagnosis/plane_grid.hpp"

#include <algorithm>

#include "core/int_math.hpp"

namespace irlint {

PlaneGrid plane_grid(const std::vector<int64_t>& shape) {
    PlaneGrid g;
    const size_t rank = shape.size();
    const auto length = [&shape](size_t i) { return std::max<int64_t>(shape[i], 1); };
    if (rank >= 3) g.cols = length(rank - 1);
    if (rank >= 4) g.rows = length(rank - 2);
    g.leading_axes = rank >= 4 ? rank - 2 : rank >= 3 ? rank - 1 : rank;
    cut_into_blocks(g, 1, 1);
    return g;
}

void cut_into_blocks(PlaneGrid& grid, int64_t block_rows, int64_t block_cols) {
    grid.block_rows = block_rows;
    grid.block_cols = block_cols;
    grid.grid_rows = ceil_div(grid.rows, block_rows);
    grid.grid_cols = ceil_div(grid.cols, block_cols);
}

}  // namespace irlint
