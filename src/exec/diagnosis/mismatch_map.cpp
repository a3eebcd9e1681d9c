#include "exec/diagnosis/mismatch_map.hpp"

#include <algorithm>

namespace irlint {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Cell sizes that keep the grid within kMaxMapCells: a line stays a line, anything else is cut into at
// most 256 x 256 blocks.
void choose_blocks(MismatchMap& m) {
    if (m.rows * m.cols <= kMaxMapCells) return;
    if (m.rows == 1) {
        m.block_cols = ceil_div(m.cols, kMaxMapCells);
    } else if (m.cols == 1) {
        m.block_rows = ceil_div(m.rows, kMaxMapCells);
    } else {
        m.block_rows = ceil_div(m.rows, 256);
        m.block_cols = ceil_div(m.cols, 256);
    }
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
    const size_t rank = shape.size();
    if (spatial_axes_ >= 1) map_.cols = dim_or_one(shape, rank - 1);
    if (spatial_axes_ >= 2) map_.rows = dim_or_one(shape, rank - 2);
    for (size_t i = 2; i + 2 < rank; ++i) depth_ *= dim_or_one(shape, i);
    map_.elements_per_position = dim_or_one(shape, 0) * channels_ * depth_;
    choose_blocks(map_);
    map_.grid_rows = ceil_div(map_.rows, map_.block_rows);
    map_.grid_cols = ceil_div(map_.cols, map_.block_cols);
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
    if (map_.cells.empty()) map_.cells.assign(static_cast<size_t>(map_.grid_rows * map_.grid_cols), 0);
    ++map_.mismatches;
    ++map_.cells[static_cast<size_t>(h / map_.block_rows * map_.grid_cols + w / map_.block_cols)];
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
