#include "exec/diagnosis/mismatch_map.hpp"

#include <algorithm>

#include "core/int_math.hpp"

namespace irlint {

namespace {

// Cell sizes that keep the grid within kMaxMapCells: a line stays a line, anything else is cut into at
// most 256 x 256 blocks.
void choose_blocks(PlaneGrid& g) {
    if (g.rows * g.cols <= kMaxMapCells) return;
    if (g.rows == 1)
        cut_into_blocks(g, 1, ceil_div(g.cols, kMaxMapCells));
    else if (g.cols == 1)
        cut_into_blocks(g, ceil_div(g.rows, kMaxMapCells), 1);
    else
        cut_into_blocks(g, ceil_div(g.rows, 256), ceil_div(g.cols, 256));
}

int64_t dim_or_one(const std::vector<int64_t>& shape, size_t i) {
    return i < shape.size() ? std::max<int64_t>(shape[i], 1) : 1;
}

}  // namespace

double MismatchMap::cell_fraction(int64_t r, int64_t c) const {
    const int64_t cell_rows = std::min(block_rows, rows - r * block_rows);
    const int64_t cell_cols = std::min(block_cols, cols - c * block_cols);
    const double behind = static_cast<double>(cell_rows * cell_cols * elements_per_position);
    return behind > 0 ? static_cast<double>(cell(r, c)) / behind : 0;
}

MismatchMapBuilder::MismatchMapBuilder(const std::vector<int64_t>& shape) {
    spatial_axes_ = shape.size() > 2 ? static_cast<int>(shape.size() - 2) : 0;
    channels_ = dim_or_one(shape, 1);
    for (size_t i = 2; i + 2 < shape.size(); ++i) depth_ *= dim_or_one(shape, i);
    PlaneGrid& grid = map_;
    grid = plane_grid(shape);
    choose_blocks(grid);
    map_.elements_per_position = dim_or_one(shape, 0) * channels_ * depth_;
    map_.channel_block = ceil_div(channels_, kMaxMapCells);
    map_.channels.assign(static_cast<size_t>(ceil_div(channels_, map_.channel_block)), 0);
    if (spatial_axes_ >= 3) {
        map_.depth_block = ceil_div(depth_, kMaxMapCells);
        map_.depths.assign(static_cast<size_t>(ceil_div(depth_, map_.depth_block)), 0);
    }
}

void MismatchMapBuilder::add(size_t flat_index) {
    auto flat = static_cast<int64_t>(flat_index);
    const int64_t w = flat % map_.cols;
    flat /= map_.cols;
    const int64_t h = flat % map_.rows;
    flat /= map_.rows;
    const int64_t d = flat % depth_;
    flat /= depth_;
    const int64_t c = flat % channels_;

    // The cells are made at the first mismatch: a matching output's map costs no memory.
    if (map_.cells.empty()) map_.cells.assign(map_.cell_count(), 0);
    ++map_.mismatches;
    ++map_.cells[map_.cell_of(h, w)];
    ++map_.channels[static_cast<size_t>(c / map_.channel_block)];
    if (!map_.depths.empty()) ++map_.depths[static_cast<size_t>(d / map_.depth_block)];

    BorderBands& b = map_.bands;
    bool border = false;
    // The first band that holds the element counts it, so the bands add up to the border's mismatches.
    auto mark = [&border](bool on, size_t& band) {
        if (!on || border) return;
        ++band;
        border = true;
    };
    mark(spatial_axes_ >= 3 && d == 0, b.first_plane);
    mark(spatial_axes_ >= 3 && d == depth_ - 1, b.last_plane);
    mark(spatial_axes_ >= 2 && h == 0, b.first_row);
    mark(spatial_axes_ >= 2 && h == map_.rows - 1, b.last_row);
    mark(spatial_axes_ >= 1 && w == 0, b.first_column);
    mark(spatial_axes_ >= 1 && w == map_.cols - 1, b.last_column);
    if (!border) ++b.interior;
}

}  // namespace irlint
