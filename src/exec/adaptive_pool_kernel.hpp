#pragma once
// AdaptiveAvgPool and AdaptiveMaxPool over one plane. Output cell i of an axis covers input
// [floor(i*in/out), ceil((i+1)*in/out)); neighbouring cells may overlap.

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "exec/kernel_support.hpp"

namespace irlint::kernels {

struct Bins {
    std::vector<int64_t> begin, end;
};

inline Bins adaptive_bins(int64_t in, int64_t out) {
    Bins b;
    for (int64_t i = 0; i < out; ++i) {
        b.begin.push_back(i * in / out);
        b.end.push_back(((i + 1) * in + out - 1) / out);
    }
    return b;
}

struct AdaptiveGeometry {
    std::array<int64_t, 3> in{1, 1, 1};
    std::array<Bins, 3> bins;  // D, H, W
    int64_t out_size() const {
        return static_cast<int64_t>(bins[0].begin.size() * bins[1].begin.size() * bins[2].begin.size());
    }
};

// Visits every output cell with its bin ranges per axis.
template <class Fn>
void for_each_cell(const AdaptiveGeometry& g, Fn&& fn) {
    int64_t i = 0;
    for (size_t od = 0; od < g.bins[0].begin.size(); ++od)
        for (size_t oh = 0; oh < g.bins[1].begin.size(); ++oh)
            for (size_t ow = 0; ow < g.bins[2].begin.size(); ++ow, ++i)
                fn(i, std::array<int64_t, 3>{g.bins[0].begin[od], g.bins[1].begin[oh], g.bins[2].begin[ow]},
                   std::array<int64_t, 3>{g.bins[0].end[od], g.bins[1].end[oh], g.bins[2].end[ow]});
}

// The sum runs in the element type, in D, H, W order; i8 / u8 round the quotient to nearest even.
template <class Traits>
void adaptive_avg_plane(const typename Traits::Value* in, const AdaptiveGeometry& g, typename Traits::Value* out) {
    using V = typename Traits::Value;
    for_each_cell(g, [&](int64_t i, std::array<int64_t, 3> b, std::array<int64_t, 3> e) {
        V sum{0};
        for (int64_t d = b[0]; d < e[0]; ++d)
            for (int64_t h = b[1]; h < e[1]; ++h)
                for (int64_t w = b[2]; w < e[2]; ++w)
                    sum = Traits::round(static_cast<V>(sum + in[(d * g.in[1] + h) * g.in[2] + w]));
        const int64_t n = (e[0] - b[0]) * (e[1] - b[1]) * (e[2] - b[2]);
        if constexpr (std::is_floating_point_v<V>) {
            out[i] = Traits::round(sum / Traits::round(static_cast<V>(n)));
        } else if constexpr (sizeof(V) == 1) {
            out[i] = static_cast<V>(std::nearbyint(static_cast<float>(sum) / static_cast<float>(n)));
        } else {
            out[i] = static_cast<V>(sum / static_cast<V>(n));
        }
    });
}

// Each W line's maximum is its first largest element (a NaN in front stays); across lines a candidate
// replaces the pick only when strictly greater. Indices are flat spatial positions within the plane.
template <class V>
void adaptive_max_plane(const V* in, const AdaptiveGeometry& g, V* out, int64_t* out_idx) {
    for_each_cell(g, [&](int64_t i, std::array<int64_t, 3> b, std::array<int64_t, 3> e) {
        bool have = false;
        int64_t pick = 0;
        for (int64_t d = b[0]; d < e[0]; ++d) {
            for (int64_t h = b[1]; h < e[1]; ++h) {
                const int64_t row = (d * g.in[1] + h) * g.in[2];
                int64_t line_pick = row + b[2];
                for (int64_t w = b[2] + 1; w < e[2]; ++w)
                    if (in[line_pick] < in[row + w]) line_pick = row + w;
                if (!have || in[line_pick] > in[pick]) pick = line_pick;
                have = true;
            }
        }
        out[i] = in[pick];
        out_idx[i] = pick;
    });
}

}  // namespace irlint::kernels
