#pragma once
// Separable passes of the pooling kernels. A pass reduces one axis of a block of lines: the taps of
// each output that lie in the data are combined by a Reducer (a sum, or a maximum). Along W the windows
// that lie wholly inside the data are reduced tap by tap across all outputs at once, a loop the compiler
// vectorizes; along H and D the lines are interleaved and the innermost loop runs over contiguous W.

#include <cstdint>
#include <limits>
#include <vector>

#include "exec/kernel_support.hpp"

namespace irlint::kernels {

template <class A>
struct SumReducer {
    static A identity() { return A{0}; }
    static A combine(A acc, A v) { return acc + v; }
};

// Keeps the earlier value unless the new one is strictly greater: NaN and the element type's lowest()
// never replace it.
template <class Traits>
struct MaxReducer {
    using A = typename Traits::Value;
    static A identity() { return Traits::lowest(); }
    static A combine(A acc, A v) { return v > acc ? v : acc; }
};

// The outputs whose windows lie wholly inside the data: [first, last).
struct InteriorRange {
    int64_t first = 0, last = 0;
};
inline InteriorRange interior(const AxisTaps& a) {
    InteriorRange r;
    if (a.stride == 0) return r;
    while (r.first < a.out && (a.lo[r.first] != 0 || a.hi[r.first] != a.kernel)) ++r.first;
    r.last = a.out;
    while (r.last > r.first && (a.lo[r.last - 1] != 0 || a.hi[r.last - 1] != a.kernel)) --r.last;
    for (int64_t o = r.first; o < r.last; ++o)
        if (a.lo[o] != 0 || a.hi[o] != a.kernel) return {0, 0};  // not contiguous: treat all as border
    return r;
}

// Reduces `rows` contiguous lines along W.
template <class R, class Src, class A>
void w_pass(const Src* src, A* dst, int64_t rows, const AxisTaps& axis) {
    const InteriorRange inner = interior(axis);
    const int64_t stride = axis.stride;
    for (int64_t r = 0; r < rows; ++r) {
        const Src* line = src + r * axis.in;
        A* out = dst + r * axis.out;
        for (int64_t o = 0; o < axis.out; ++o) {
            if (o == inner.first && inner.last > inner.first) o = inner.last;
            if (o >= axis.out) break;
            A acc = R::identity();
            for (int64_t k = axis.lo[o]; k < axis.hi[o]; ++k)
                acc = R::combine(acc, static_cast<A>(line[axis.start[o] + k * axis.dilation]));
            out[o] = acc;
        }
        if (inner.last <= inner.first) continue;
        A* IRLINT_RESTRICT acc = out;
        for (int64_t k = 0; k < axis.kernel; ++k) {
            const int64_t offset = axis.start[0] + k * axis.dilation;  // tap k of output o: o*stride + offset
            const Src* IRLINT_RESTRICT run = line + offset;
            if (k == 0) {
                for (int64_t o = inner.first; o < inner.last; ++o)
                    acc[o] = R::combine(R::identity(), static_cast<A>(run[o * stride]));
            } else if (stride == 1) {
                for (int64_t o = inner.first; o < inner.last; ++o) acc[o] = R::combine(acc[o], static_cast<A>(run[o]));
            } else if (stride == 2) {
                for (int64_t o = inner.first; o < inner.last; ++o) acc[o] = R::combine(acc[o], static_cast<A>(run[2 * o]));
            } else {
                for (int64_t o = inner.first; o < inner.last; ++o) acc[o] = R::combine(acc[o], static_cast<A>(run[o * stride]));
            }
        }
    }
}

// Reduces `rows` blocks of interleaved lines (each element `inner` apart) along H or D.
template <class R, class Src, class A>
void strided_pass(const Src* src, A* dst, int64_t rows, int64_t inner, const AxisTaps& axis) {
    for (int64_t r = 0; r < rows; ++r) {
        const Src* block = src + r * axis.in * inner;
        A* out_block = dst + r * axis.out * inner;
        for (int64_t o = 0; o < axis.out; ++o) {
            A* IRLINT_RESTRICT out = out_block + o * inner;
            for (int64_t i = 0; i < inner; ++i) out[i] = R::identity();
            for (int64_t k = axis.lo[o]; k < axis.hi[o]; ++k) {
                const Src* IRLINT_RESTRICT v = block + (axis.start[o] + k * axis.dilation) * inner;
                for (int64_t i = 0; i < inner; ++i) out[i] = R::combine(out[i], static_cast<A>(v[i]));
            }
        }
    }
}

}  // namespace irlint::kernels
