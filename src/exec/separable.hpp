#pragma once
// Separable passes of the pooling kernels. A pass reduces one axis of a block of lines: the taps of
// each output that lie in the data are combined by a Reducer (a sum, or a maximum). Along W the windows
// that lie wholly inside the data are reduced tap by tap across all outputs at once, a loop the compiler
// vectorizes; along H and D the lines are interleaved and the innermost loop runs over contiguous W.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "exec/kernel_support.hpp"

namespace irlint::kernels {

// Large undilated windows take a route whose cost per output does not grow with the kernel (van Herk /
// Gil-Werman): the line is cut into blocks of `kernel` elements, each with running results from its
// start (forward) and from its end (backward). A full window spans at most two blocks, so it combines
// backward[first] with forward[last]: only its own taps, in their order, with no subtraction that could
// cancel against values outside the window.
inline bool use_running_route(const AxisTaps& a) { return a.dilation == 1 && a.kernel >= 8; }

template <class A>
struct RunningScratch {
    std::vector<A> forward, backward;
};

template <class R, class A>
void running_pass(const A* src, A* dst, int64_t rows, int64_t inner, const AxisTaps& axis, RunningScratch<A>& s) {
    const auto size = static_cast<size_t>(axis.in * inner);
    s.forward.resize(size);
    s.backward.resize(size);
    A* IRLINT_RESTRICT fwd = s.forward.data();
    A* IRLINT_RESTRICT bwd = s.backward.data();
    const int64_t k = axis.kernel;
    for (int64_t r = 0; r < rows; ++r) {
        const A* IRLINT_RESTRICT x = src + r * axis.in * inner;
        // Blocks sit at multiples of k on the whole axis, so a slab of a plane groups its sums as the
        // whole plane would: results do not depend on the number of threads.
        for (int64_t b0 = 0, b1 = 0; b0 < axis.in; b0 = b1) {
            b1 = std::min(b0 + k - (axis.origin + b0) % k, axis.in);
            for (int64_t j = 0; j < inner; ++j) fwd[b0 * inner + j] = R::combine(R::identity(), x[b0 * inner + j]);
            for (int64_t i = b0 + 1; i < b1; ++i)
                for (int64_t j = 0; j < inner; ++j)
                    fwd[i * inner + j] = R::combine(fwd[(i - 1) * inner + j], x[i * inner + j]);
            for (int64_t j = 0; j < inner; ++j)
                bwd[(b1 - 1) * inner + j] = R::combine(R::identity(), x[(b1 - 1) * inner + j]);
            for (int64_t i = b1 - 2; i >= b0; --i)
                for (int64_t j = 0; j < inner; ++j)
                    bwd[i * inner + j] = R::combine_before(x[i * inner + j], bwd[(i + 1) * inner + j]);
        }
        A* out = dst + r * axis.out * inner;
        for (int64_t o = 0; o < axis.out; ++o) {
            if (axis.lo[o] == 0 && axis.hi[o] == k) {
                const int64_t first = axis.start[o], last = first + k - 1;
                const bool one_block = (axis.origin + first) % k == 0;
                for (int64_t j = 0; j < inner; ++j)
                    out[o * inner + j] =
                        one_block ? bwd[first * inner + j] : R::combine(bwd[first * inner + j], fwd[last * inner + j]);
                continue;
            }
            for (int64_t j = 0; j < inner; ++j) {  // a window cut by the border: its taps one by one
                A acc = R::identity();
                for (int64_t t = axis.lo[o]; t < axis.hi[o]; ++t)
                    acc = R::combine(acc, x[(axis.start[o] + t) * inner + j]);
                out[o * inner + j] = acc;
            }
        }
    }
}

template <class A>
struct SumReducer {
    static A identity() { return A{0}; }
    static A combine(A acc, A v) { return acc + v; }
    static A combine_before(A v, A later) { return v + later; }
};

// Keeps the earlier value unless the new one is strictly greater: NaN and the element type's lowest()
// never replace it.
template <class Traits>
struct MaxReducer {
    using A = typename Traits::Value;
    static A identity() { return Traits::lowest(); }
    static A combine(A acc, A v) { return v > acc ? v : acc; }

    // v comes before everything `later` holds: on equal values the earlier one stays.
    static A combine_before(A v, A later) { return v >= later ? v : later; }
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
                for (int64_t o = inner.first; o < inner.last; ++o)
                    acc[o] = R::combine(acc[o], static_cast<A>(run[2 * o]));
            } else {
                for (int64_t o = inner.first; o < inner.last; ++o)
                    acc[o] = R::combine(acc[o], static_cast<A>(run[o * stride]));
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

// One pass along an axis: `rows` blocks of lines `inner` elements apart (inner == 1: contiguous W lines).
template <class R, class Src, class A>
void reduce_axis(const Src* src, A* dst, int64_t rows, int64_t inner, const AxisTaps& axis, RunningScratch<A>& s) {
    if constexpr (std::is_same_v<Src, A>) {
        if (use_running_route(axis)) return running_pass<R, A>(src, dst, rows, inner, axis, s);
    }
    if (inner == 1)
        w_pass<R, Src, A>(src, dst, rows, axis);
    else
        strided_pass<R, Src, A>(src, dst, rows, inner, axis);
}

}  // namespace irlint::kernels
