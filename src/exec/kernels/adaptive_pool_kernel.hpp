// Included once per instruction set, into its namespace, by exec/kernels/plane_kernels.hpp (no include guard).
// AdaptiveAvgPool and AdaptiveMaxPool over one plane, on the bins of adaptive_taps(): output cell i of an
// axis covers input [floor(i*in/out), ceil((i+1)*in/out)); neighbouring cells may overlap. f32 and f64
// averages reuse AvgPool's separable passes; the routes here follow OpenVINO's reference step by step.

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace irlint::kernels::IRLINT_ISA {

// Visits every output cell with its bin per axis: [begin, end) in D, H, W.
template <class Fn>
void for_each_bin(const PlaneGeometry& g, Fn&& fn) {
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    int64_t i = 0;
    for (int64_t od = 0; od < d.out; ++od)
        for (int64_t oh = 0; oh < h.out; ++oh)
            for (int64_t ow = 0; ow < w.out; ++ow, ++i)
                fn(i, std::array<int64_t, 3>{d.start[od], h.start[oh], w.start[ow]},
                   std::array<int64_t, 3>{d.start[od] + d.hi[od], h.start[oh] + h.hi[oh], w.start[ow] + w.hi[ow]});
}

// The sum runs in the element type, in D, H, W order; i8 / u8 round the quotient to nearest even.
// Unlike AvgPool, the divisor is not converted to the element type first.
template <class Traits>
void adaptive_avg_plane(Isa, const typename Traits::Value* in, const PlaneGeometry& g, typename Traits::Value* out) {
    using V = typename Traits::Value;
    const int64_t rows = g.axes[1].in, cols = g.axes[2].in;
    for_each_bin(g, [&](int64_t i, std::array<int64_t, 3> b, std::array<int64_t, 3> e) {
        V sum{0};
        for (int64_t d = b[0]; d < e[0]; ++d)
            for (int64_t h = b[1]; h < e[1]; ++h)
                for (int64_t w = b[2]; w < e[2]; ++w)
                    sum = Traits::round(static_cast<V>(sum + in[(d * rows + h) * cols + w]));
        const int64_t n = (e[0] - b[0]) * (e[1] - b[1]) * (e[2] - b[2]);
        if constexpr (std::is_floating_point_v<V>) {
            out[i] = Traits::round(sum / static_cast<V>(n));  // the count itself, not rounded to the type
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
void adaptive_max_plane(Isa, const V* in, const PlaneGeometry& g, V* out, int64_t* out_idx) {
    const int64_t rows = g.axes[1].in, cols = g.axes[2].in;
    for_each_bin(g, [&](int64_t i, std::array<int64_t, 3> b, std::array<int64_t, 3> e) {
        bool have = false;
        int64_t pick = 0;
        for (int64_t d = b[0]; d < e[0]; ++d) {
            for (int64_t h = b[1]; h < e[1]; ++h) {
                const int64_t row = (d * rows + h) * cols;
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

}  // namespace irlint::kernels::IRLINT_ISA
