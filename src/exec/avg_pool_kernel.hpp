#pragma once
// AvgPool over one plane. The box of in-data taps is separable, so the sums run as three passes (W, H,
// D) and the divisor is the product of the per-axis tap counts, or every kernel tap when padding counts
// (OpenVINO: exclude-pad=false with a non-zero pad). f16 and bf16 take the direct route instead, because
// OpenVINO's reference rounds the running sum to the element type after every tap, in D, H, W order.

#include <cstdint>
#include <type_traits>
#include <vector>

#include "exec/kernel_support.hpp"

namespace irlint::kernels {

template <class A>
void sum_pass(const A* src, A* dst, int64_t rows, int64_t inner, const AxisTaps& axis) {
    for (int64_t r = 0; r < rows; ++r) {
        const A* line = src + r * axis.in * inner;
        A* out = dst + r * axis.out * inner;
        for (int64_t o = 0; o < axis.out; ++o) {
            A* acc = out + o * inner;
            for (int64_t i = 0; i < inner; ++i) acc[i] = A{0};
            for (int64_t k = axis.lo[o]; k < axis.hi[o]; ++k) {
                const A* v = line + (axis.start[o] + k * axis.dilation) * inner;
                for (int64_t i = 0; i < inner; ++i) acc[i] += v[i];
            }
        }
    }
}

template <class V, class A>
void sum_pass_w(const V* src, A* dst, int64_t rows, const AxisTaps& axis) {
    for (int64_t r = 0; r < rows; ++r) {
        const V* line = src + r * axis.in;
        for (int64_t o = 0; o < axis.out; ++o) {
            A acc{0};
            for (int64_t k = axis.lo[o], pos = axis.start[o] + k * axis.dilation; k < axis.hi[o];
                 ++k, pos += axis.dilation)
                acc += static_cast<A>(line[pos]);
            dst[r * axis.out + o] = acc;
        }
    }
}

struct AvgDivisor {
    bool pads_in_avg = false;
    int64_t kernel_taps = 1;  // every tap of the kernel: the divisor when padding counts
    int64_t at(const PlaneGeometry& g, int64_t od, int64_t oh, int64_t ow) const {
        if (pads_in_avg) return kernel_taps;
        return g.axes[0].taps(od) * g.axes[1].taps(oh) * g.axes[2].taps(ow);
    }
};

// The average as OpenVINO's reference forms it: floats divide, integers divide in integer arithmetic
// (truncating), and a window without a divisor yields 0.
template <class V, class A>
V average(A sum, int64_t count) {
    if (count == 0) return V{0};
    if constexpr (std::is_floating_point_v<V>) {
        return static_cast<V>(sum) / static_cast<V>(count);
    } else {
        const V wrapped = static_cast<V>(sum);  // the sum as the element type holds it, wrapped
        if constexpr (std::is_signed_v<V>) return static_cast<V>(static_cast<int64_t>(wrapped) / count);
        else return static_cast<V>(static_cast<uint64_t>(wrapped) / static_cast<uint64_t>(count));
    }
}

template <class V>
using SumType = std::conditional_t<std::is_floating_point_v<V>, V,
                                   std::conditional_t<std::is_signed_v<V>, int64_t, uint64_t>>;

template <class V>
struct AvgScratch {
    std::vector<SumType<V>> sums[2];
};

template <class V>
void avg_pool_plane(const V* in, const PlaneGeometry& g, const AvgDivisor& divisor, AvgScratch<V>& s, V* out) {
    using A = SumType<V>;
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    s.sums[0].resize(static_cast<size_t>(d.in * h.in * w.out));
    sum_pass_w<V, A>(in, s.sums[0].data(), d.in * h.in, w);
    s.sums[1].resize(static_cast<size_t>(d.in * h.out * w.out));
    sum_pass(s.sums[0].data(), s.sums[1].data(), d.in, w.out, h);
    std::vector<A>& totals = s.sums[0];
    totals.resize(static_cast<size_t>(g.out_size()));
    sum_pass(s.sums[1].data(), totals.data(), 1, h.out * w.out, d);
    int64_t i = 0;
    for (int64_t od = 0; od < d.out; ++od)
        for (int64_t oh = 0; oh < h.out; ++oh)
            for (int64_t ow = 0; ow < w.out; ++ow, ++i) out[i] = average<V, A>(totals[i], divisor.at(g, od, oh, ow));
}

// The direct route for f16 / bf16: Traits::round() after every add, as the element type would.
template <class Traits>
void avg_pool_plane_rounded(const float* in, const PlaneGeometry& g, const AvgDivisor& divisor, float* out) {
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
                const int64_t count = divisor.at(g, od, oh, ow);
                out[i] = count == 0 ? 0.0f : Traits::round(sum / Traits::round(static_cast<float>(count)));
            }
        }
    }
}

}  // namespace irlint::kernels
