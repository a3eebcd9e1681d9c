#include "exec/diagnosis/error_detail.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace irlint {

namespace {

// An element's error: |actual - expected|, infinite where exactly one of them is NaN.
double error_of(double actual, double expected) {
    const double e = std::fabs(actual - expected);
    return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

struct Geometry {
    int64_t rows = 1, cols = 1;
    size_t plane_size = 1;
    size_t leading_axes = 0;  // the axes before the plane: 2 for N, C; 3 for N, C, D
};

Geometry geometry_of(const std::vector<int64_t>& shape) {
    Geometry g;
    const size_t rank = shape.size();
    if (rank == 0) return g;
    g.cols = shape[rank - 1];
    if (rank >= 4) g.rows = shape[rank - 2];
    g.plane_size = static_cast<size_t>(std::max<int64_t>(g.rows * g.cols, 1));
    g.leading_axes = rank >= 4 ? rank - 2 : rank - 1;
    return g;
}

std::vector<int64_t> plane_index(size_t plane, const std::vector<int64_t>& shape, size_t leading_axes) {
    std::vector<int64_t> index(leading_axes);
    for (size_t k = leading_axes; k-- > 0;) {
        const auto extent = static_cast<size_t>(std::max<int64_t>(shape[k], 1));
        index[k] = static_cast<int64_t>(plane % extent);
        plane /= extent;
    }
    return index;
}

// The planes to draw: the most mismatching, then the next ones; for a 5D output the depth planes of the
// most mismatching (n, c), in depth order.
std::vector<size_t> planes_to_draw(const std::vector<std::pair<size_t, size_t>>& by_count,
                                   const std::vector<int64_t>& shape, bool depth) {
    std::vector<size_t> out;
    if (by_count.empty()) return out;
    if (!depth) {
        for (size_t i = 0; i < by_count.size() && i < kErrorPlanesDrawn; ++i) out.push_back(by_count[i].first);
        return out;
    }
    const auto depths = static_cast<size_t>(std::max<int64_t>(shape[2], 1));
    const size_t first = by_count[0].first / depths * depths;  // depth 0 of the same (n, c)
    for (const auto& [plane, count] : by_count)
        if (plane >= first && plane < first + depths) out.push_back(plane);
    std::sort(out.begin(), out.end());
    if (out.size() > kDepthPlanesDrawn) out.resize(kDepthPlanesDrawn);
    return out;
}

}  // namespace

ErrorDetail error_detail(const Tensor& computed, const Tensor& expected, const Tolerance& tolerance) {
    ErrorDetail d;
    const Geometry g = geometry_of(computed.shape());
    d.rows = g.rows;
    d.cols = g.cols;
    d.block_rows = (g.rows + kErrorGridSide - 1) / kErrorGridSide;
    d.block_cols = (g.cols + kErrorGridSide - 1) / kErrorGridSide;
    d.grid_rows = (g.rows + d.block_rows - 1) / d.block_rows;
    d.grid_cols = (g.cols + d.block_cols - 1) / d.block_cols;

    std::map<size_t, size_t> counts;  // plane -> mismatches
    bool any = false;
    for_each_mismatch(computed, expected, tolerance, [&](size_t i) {
        ++counts[i / g.plane_size];
        const double a = computed.value_as_double(i), e = expected.value_as_double(i);
        const double err = error_of(a, e);
        if (!any || err > d.worst_error) {
            d.worst = i, d.worst_actual = a, d.worst_expected = e, d.worst_error = err;
            any = true;
        }
    });
    std::vector<std::pair<size_t, size_t>> by_count(counts.begin(), counts.end());
    std::stable_sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    d.planes_with_mismatches = by_count.size();
    for (size_t i = 0; i < by_count.size() && i < kErrorPlanesListed; ++i)
        d.listed.push_back({plane_index(by_count[i].first, computed.shape(), g.leading_axes), by_count[i].second, {}});

    d.depth_multiples = g.leading_axes == 3;
    std::vector<size_t> drawn = planes_to_draw(by_count, computed.shape(), d.depth_multiples);
    if (any && std::find(drawn.begin(), drawn.end(), d.worst / g.plane_size) == drawn.end())
        drawn.push_back(d.worst / g.plane_size);
    const auto cells = static_cast<size_t>(d.grid_rows * d.grid_cols);
    for (size_t plane : drawn)
        d.drawn.push_back({plane_index(plane, computed.shape(), g.leading_axes), counts[plane],
                           std::vector<float>(cells, 0.0f)});
    bool seen = false;
    for_each_mismatch(computed, expected, tolerance, [&](size_t i) {
        const auto at = std::find(drawn.begin(), drawn.end(), i / g.plane_size);
        if (at == drawn.end()) return;
        const auto position = static_cast<int64_t>(i % g.plane_size);
        const int64_t r = position / g.cols / d.block_rows, c = position % g.cols / d.block_cols;
        // Kept above 0, which marks a cell without mismatches; an infinite error stays infinite.
        const auto err = std::max(static_cast<float>(error_of(computed.value_as_double(i), expected.value_as_double(i))),
                                  std::numeric_limits<float>::denorm_min());
        float& cell = d.drawn[static_cast<size_t>(at - drawn.begin())].max_error[static_cast<size_t>(r * d.grid_cols + c)];
        cell = std::max(cell, err);
        if (std::isinf(err)) {
            d.non_finite_drawn = true;
            return;
        }
        d.min_error = seen ? std::min(d.min_error, err) : err;
        d.max_error = seen ? std::max(d.max_error, err) : err;
        seen = true;
    });
    return d;
}

}  // namespace irlint
