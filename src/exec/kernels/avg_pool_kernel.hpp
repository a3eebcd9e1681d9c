// Included once per instruction set, into its namespace, by exec/kernels/plane_kernels.hpp (no include guard).
// AvgPool over one plane. The box of in-data taps is separable, so the sums run as passes over D, H and
// W, and the divisor is the product of the per-axis tap counts, or every kernel tap when padding counts
// (OpenVINO: exclude-pad=false with a non-zero pad). f16 and bf16 take a direct route instead, because
// OpenVINO's reference rounds the running sum to the element type after every tap, in D, H, W order.

#include <cstdint>
#include <type_traits>
#include <vector>

namespace irlint::kernels::IRLINT_ISA {

// Reduces the plane along D, then H, then W into `out` (out_size elements), skipping axes that pass through.
template <class R, class V, class A>
void reduce_dhw(const V* in, const PlaneGeometry& g, PassScratch<A>& s, A* out) {
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    auto h_then_w = [&](const auto* src, int64_t depth) {
        using Src = std::remove_cv_t<std::remove_pointer_t<decltype(src)>>;
        if (h.passes_through()) return reduce_axis<R, Src, A>(src, out, depth * h.in, 1, w, s.running);
        s.after_h.resize(static_cast<size_t>(depth * h.out * w.in));
        reduce_axis<R, Src, A>(src, s.after_h.data(), depth, w.in, h, s.running);
        reduce_axis<R, A, A>(s.after_h.data(), out, depth * h.out, 1, w, s.running);
    };
    if (d.passes_through()) return h_then_w(in, d.in);
    s.after_d.resize(static_cast<size_t>(d.out * h.in * w.in));
    reduce_axis<R, V, A>(in, s.after_d.data(), 1, h.in * w.in, d, s.running);
    h_then_w(static_cast<const A*>(s.after_d.data()), d.out);
}

// The average as OpenVINO's reference forms it: floats divide, integers divide in integer arithmetic
// (truncating), and a window without a divisor yields 0.
template <class V, class A>
V average(A sum, double count) {
    if constexpr (std::is_floating_point_v<V>) {
        return count == 0 ? V{0} : static_cast<V>(sum) / static_cast<V>(count);
    } else {
        if (count == 0 || count >= 0x1p63) return V{0};  // no integer sum reaches such a divisor
        const auto divisor = static_cast<int64_t>(count);
        const V wrapped = static_cast<V>(sum);  // the sum as the element type holds it, wrapped
        if constexpr (std::is_signed_v<V>)
            return static_cast<V>(static_cast<int64_t>(wrapped) / divisor);
        else
            return static_cast<V>(static_cast<uint64_t>(wrapped) / static_cast<uint64_t>(divisor));
    }
}

// Divides n sums by their counts, d_taps * hw_taps[i]. Floats divide by the count rounded to the element
// type, as the reference does. A window with no tap in the data has a sum of 0 and gives 0: for floats its
// count is taken as 1 (the factors are never 0 here), which keeps the loop free of branches, so it vectorizes.
template <class V, class A>
void divide_block(const A* IRLINT_RESTRICT sum, const double* IRLINT_RESTRICT hw_taps, double d_taps, int64_t n,
                  V* IRLINT_RESTRICT out) {
    if constexpr (std::is_floating_point_v<V>) {
        for (int64_t i = 0; i < n; ++i) out[i] = sum[i] / static_cast<V>(d_taps * hw_taps[i]);
    } else {
        for (int64_t i = 0; i < n; ++i) out[i] = average<V, A>(sum[i], d_taps * hw_taps[i]);
    }
}

inline void scale_row(const double* IRLINT_RESTRICT row, double factor, int64_t n, double* IRLINT_RESTRICT out) {
    for (int64_t i = 0; i < n; ++i) out[i] = factor * row[i];
}

template <class V>
void avg_pool_plane(Isa, const V* in, const PlaneGeometry& g, const AvgDivisor& divisor, AvgScratch<V>& s, V* out) {
    using A = SumType<V>;
    s.sums.resize(static_cast<size_t>(g.out_size()));
    reduce_dhw<SumReducer<A>, V, A>(in, g, s.passes, s.sums.data());
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    // Padding that counts makes every divisor the whole kernel: one D factor, H x W factors of 1.
    constexpr bool is_float = std::is_floating_point_v<V>;
    auto factor = [&](int64_t taps) { return is_float && taps == 0 ? 1.0 : static_cast<double>(taps); };
    s.w_taps.resize(static_cast<size_t>(w.out));
    for (int64_t ow = 0; ow < w.out; ++ow)
        s.w_taps[static_cast<size_t>(ow)] = divisor.pads_in_avg ? 1.0 : factor(w.taps(ow));
    // Short rows (small planes, stacks of them) divide a whole H x W block per loop, long rows one row.
    const int64_t block = h.out * w.out;
    const bool by_block = block <= 1024;
    if (by_block) {
        s.hw_taps.assign(static_cast<size_t>(block), 1.0);
        for (int64_t oh = 0; oh < h.out && !divisor.pads_in_avg; ++oh)
            scale_row(s.w_taps.data(), factor(h.taps(oh)), w.out, s.hw_taps.data() + oh * w.out);
    }
    // Whole-number factors: their product is the exact count while it stays below 2^53.
    const A* sum = s.sums.data();
    for (int64_t od = 0; od < d.out; ++od, sum += block, out += block) {
        const double d_taps = divisor.pads_in_avg ? divisor.kernel_taps : factor(d.taps(od));
        if (by_block) {
            divide_block<V, A>(sum, s.hw_taps.data(), d_taps, block, out);
            continue;
        }
        for (int64_t oh = 0; oh < h.out; ++oh) {
            const double rows = divisor.pads_in_avg ? d_taps : d_taps * factor(h.taps(oh));
            divide_block<V, A>(sum + oh * w.out, s.w_taps.data(), rows, w.out, out + oh * w.out);
        }
    }
}

// The direct route for f16 / bf16: Traits::round() after every add, as the element type would.
template <class Traits>
void avg_pool_plane_rounded(Isa, const float* in, const PlaneGeometry& g, const AvgDivisor& divisor, float* out) {
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    int64_t i = 0;
    for (int64_t od = 0; od < d.out; ++od) {
        for (int64_t oh = 0; oh < h.out; ++oh) {
            for (int64_t ow = 0; ow < w.out; ++ow, ++i) {
                float sum = 0;
                for (int64_t kd = d.lo[od]; kd < d.hi[od]; ++kd) {
                    const int64_t pd = d.start[od] + kd * d.dilation;
                    for (int64_t kh = h.lo[oh]; kh < h.hi[oh]; ++kh) {
                        const float* row = in + (pd * h.in + h.start[oh] + kh * h.dilation) * w.in;
                        for (int64_t kw = w.lo[ow]; kw < w.hi[ow]; ++kw)
                            sum = Traits::round(sum + row[w.start[ow] + kw * w.dilation]);
                    }
                }
                const double count = divisor.pads_in_avg ? divisor.kernel_taps
                                                         : static_cast<double>(d.taps(od) * h.taps(oh) * w.taps(ow));
                out[i] = count == 0 ? 0.0f : Traits::round(sum / Traits::round(static_cast<float>(count)));
            }
        }
    }
}

}  // namespace irlint::kernels::IRLINT_ISA
