#pragma once
// MaxPool over one plane as three separable passes (W, then H, then D). Each pass keeps the first
// maximum of its window in scan order, so the combined pick is the first maximum in D, H, W order:
// exactly the element OpenVINO's reference picks, with the same strict comparison (NaN never wins).

#include <cstdint>
#include <limits>
#include <vector>

#include "exec/kernel_support.hpp"

namespace irlint::kernels {

template <class V>
struct MaxScratch {
    std::vector<V> values[2];
    std::vector<int64_t> indices[2];  // flat spatial index of the pick; -1 while nothing was picked
};

// One pass along an axis. `rows` independent lines of `in` elements spaced `inner` apart become lines of
// `out` elements; inner == 1 is the W pass, otherwise lines are interleaved and the loop over `inner`
// is innermost and contiguous.
template <class V, bool WithIndex>
void max_pass(const V* src, const int64_t* src_idx, V* dst, int64_t* dst_idx, int64_t rows, int64_t inner,
              const AxisTaps& axis) {
    const V lowest = std::numeric_limits<V>::lowest();
    for (int64_t r = 0; r < rows; ++r) {
        const V* line = src + r * axis.in * inner;
        const int64_t* line_idx = WithIndex ? src_idx + r * axis.in * inner : nullptr;
        V* out = dst + r * axis.out * inner;
        int64_t* out_idx = WithIndex ? dst_idx + r * axis.out * inner : nullptr;
        for (int64_t o = 0; o < axis.out; ++o) {
            V* best = out + o * inner;
            int64_t* best_idx = WithIndex ? out_idx + o * inner : nullptr;
            for (int64_t i = 0; i < inner; ++i) best[i] = lowest;
            if (WithIndex)
                for (int64_t i = 0; i < inner; ++i) best_idx[i] = -1;
            for (int64_t k = axis.lo[o]; k < axis.hi[o]; ++k) {
                const int64_t pos = axis.start[o] + k * axis.dilation;
                const V* v = line + pos * inner;
                if constexpr (WithIndex) {
                    const int64_t* vi = line_idx + pos * inner;
                    for (int64_t i = 0; i < inner; ++i) {
                        const bool greater = v[i] > best[i];
                        best[i] = greater ? v[i] : best[i];
                        best_idx[i] = greater ? vi[i] : best_idx[i];
                    }
                } else {
                    for (int64_t i = 0; i < inner; ++i) best[i] = v[i] > best[i] ? v[i] : best[i];
                }
            }
        }
    }
}

// The W pass seeds the indices: a W line's element w of row r has flat spatial index r * W + w.
template <class V, bool WithIndex>
void max_pass_w(const V* src, V* dst, int64_t* dst_idx, int64_t rows, const AxisTaps& axis) {
    const V lowest = std::numeric_limits<V>::lowest();
    for (int64_t r = 0; r < rows; ++r) {
        const V* line = src + r * axis.in;
        for (int64_t o = 0; o < axis.out; ++o) {
            V best = lowest;
            int64_t best_pos = -1;
            for (int64_t k = axis.lo[o], pos = axis.start[o] + k * axis.dilation; k < axis.hi[o];
                 ++k, pos += axis.dilation) {
                if (line[pos] > best) {
                    best = line[pos];
                    best_pos = pos;
                }
            }
            dst[r * axis.out + o] = best;
            if constexpr (WithIndex) dst_idx[r * axis.out + o] = best_pos < 0 ? -1 : r * axis.in + best_pos;
        }
    }
}

// Pools one plane: `in` holds the plane's values, results land in `out_values` / `out_indices`
// (indices as flat spatial positions; 0 when no tap of the window held a value above lowest()).
template <class V, bool WithIndex>
void max_pool_plane(const V* in, const PlaneGeometry& g, MaxScratch<V>& s, V* out_values, int64_t* out_indices) {
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    s.values[0].resize(static_cast<size_t>(d.in * h.in * w.out));
    s.indices[0].resize(WithIndex ? s.values[0].size() : 0);
    max_pass_w<V, WithIndex>(in, s.values[0].data(), s.indices[0].data(), d.in * h.in, w);

    s.values[1].resize(static_cast<size_t>(d.in * h.out * w.out));
    s.indices[1].resize(WithIndex ? s.values[1].size() : 0);
    max_pass<V, WithIndex>(s.values[0].data(), s.indices[0].data(), s.values[1].data(), s.indices[1].data(), d.in,
                           w.out, h);

    max_pass<V, WithIndex>(s.values[1].data(), s.indices[1].data(), out_values, out_indices, 1, h.out * w.out, d);
    if constexpr (WithIndex) {
        for (int64_t i = 0, n = g.out_size(); i < n; ++i) out_indices[i] = std::max<int64_t>(out_indices[i], 0);
    }
}

}  // namespace irlint::kernels
