#include "exec/diagnosis/error_detail.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/int_math.hpp"

namespace irlint {

namespace {

// An element's error: |actual - expected|, infinite where exactly one of them is NaN.
double error_of(double actual, double expected) {
    const double e = std::fabs(actual - expected);
    return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

double error_at(const Tensor& computed, const Tensor& expected, size_t i) {
    return error_of(computed.value_as_double(i), expected.value_as_double(i));
}

PlaneGrid grid_of(const std::vector<int64_t>& shape) {
    PlaneGrid g = plane_grid(shape);
    cut_into_blocks(g, ceil_div(g.rows, kErrorGridSide), ceil_div(g.cols, kErrorGridSide));
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

using PlaneCounts = std::map<size_t, size_t>;  // plane -> mismatches

// The first pass: the mismatches of every plane, and the worst element (the first of equal errors).
PlaneCounts count_mismatches(const Tensor& computed, const Tensor& expected, const Tolerance& tolerance,
                             ErrorDetail& d) {
    PlaneCounts counts;
    bool any = false;
    for_each_mismatch(computed, expected, tolerance, [&](size_t i) {
        ++counts[i / d.plane_size()];
        const double a = computed.value_as_double(i), e = expected.value_as_double(i);
        const double err = error_of(a, e);
        if (!any || err > d.worst_error) {
            d.worst = i, d.worst_actual = a, d.worst_expected = e, d.worst_error = err;
            any = true;
        }
    });
    return counts;
}

// The planes with mismatches, most mismatches first (in plane order among equals).
std::vector<std::pair<size_t, size_t>> by_mismatches(const PlaneCounts& counts) {
    std::vector<std::pair<size_t, size_t>> planes(counts.begin(), counts.end());
    std::stable_sort(planes.begin(), planes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return planes;
}

// The planes to draw: the most mismatching, then the next ones; for a 5D output the depth planes of the
// most mismatching (n, c), in depth order. The worst element's plane is always drawn.
std::vector<size_t> planes_to_draw(const std::vector<std::pair<size_t, size_t>>& by_count,
                                   const std::vector<int64_t>& shape, const ErrorDetail& d) {
    std::vector<size_t> out;
    if (by_count.empty()) return out;
    if (!d.depth_multiples) {
        for (size_t i = 0; i < by_count.size() && i < kErrorPlanesDrawn; ++i) out.push_back(by_count[i].first);
    } else {
        const auto depths = static_cast<size_t>(std::max<int64_t>(shape[2], 1));
        const size_t first = by_count[0].first / depths * depths;  // depth 0 of the same (n, c)
        for (const auto& [plane, count] : by_count)
            if (plane >= first && plane < first + depths) out.push_back(plane);
        std::sort(out.begin(), out.end());
        if (out.size() > kDepthPlanesDrawn) out.resize(kDepthPlanesDrawn);
    }
    const size_t worst_plane = d.worst / d.plane_size();
    if (std::find(out.begin(), out.end(), worst_plane) == out.end()) out.push_back(worst_plane);
    return out;
}

// The second pass: each drawn cell keeps the largest error of its block, and the color scale spans the
// finite errors drawn.
void draw_errors(const Tensor& computed, const Tensor& expected, const Tolerance& tolerance,
                 const std::vector<size_t>& drawn, ErrorDetail& d) {
    bool seen = false;
    for_each_mismatch(computed, expected, tolerance, [&](size_t i) {
        const auto at = std::find(drawn.begin(), drawn.end(), i / d.plane_size());
        if (at == drawn.end()) return;
        // Kept above 0, which marks a cell without mismatches; an infinite error stays infinite.
        const auto err =
            std::max(static_cast<float>(error_at(computed, expected, i)), std::numeric_limits<float>::denorm_min());
        float& cell = d.drawn[static_cast<size_t>(at - drawn.begin())].max_error[d.cell_of_element(i)];
        cell = std::max(cell, err);
        if (std::isinf(err)) {
            d.non_finite_drawn = true;
            return;
        }
        d.min_error = seen ? std::min(d.min_error, err) : err;
        d.max_error = seen ? std::max(d.max_error, err) : err;
        seen = true;
    });
}

}  // namespace

ErrorDetail error_detail(const Tensor& computed, const Tensor& expected, const Tolerance& tolerance) {
    const std::vector<int64_t>& shape = computed.shape();
    ErrorDetail d;
    static_cast<PlaneGrid&>(d) = grid_of(shape);
    d.depth_multiples = d.leading_axes == 3;

    PlaneCounts counts = count_mismatches(computed, expected, tolerance, d);
    const auto ranked = by_mismatches(counts);
    d.planes_with_mismatches = ranked.size();
    for (size_t i = 0; i < ranked.size() && i < kErrorPlanesListed; ++i)
        d.listed.push_back({plane_index(ranked[i].first, shape, d.leading_axes), ranked[i].second, {}});

    const std::vector<size_t> drawn = planes_to_draw(ranked, shape, d);
    for (size_t plane : drawn)
        d.drawn.push_back(
            {plane_index(plane, shape, d.leading_axes), counts[plane], std::vector<float>(d.cell_count(), 0.0f)});
    draw_errors(computed, expected, tolerance, drawn, d);
    return d;
}

}  // namespace irlint
