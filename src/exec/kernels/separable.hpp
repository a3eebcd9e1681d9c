// Included once per instruction set, into its namespace, by exec/kernels/plane_kernels.hpp (no include guard).
// Separable passes of the pooling kernels. A pass reduces one axis of a block of lines: the taps of
// each output that lie in the data are combined by a Reducer (a sum, or a maximum). Along W the windows
// that lie wholly inside the data are reduced tap by tap across all outputs at once, a loop the compiler
// vectorizes; along H and D the lines are interleaved and the innermost loop runs over contiguous W.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace irlint::kernels::IRLINT_ISA {

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

// out[i] combined with tap runs p0[i], p1[i], ... (the first N of them) in that order; `fresh` starts
// from the identity instead of out[i]. Several taps a sweep keep the running result in a register.
template <class R, int N, class Src, class A>
void combine_taps(A* IRLINT_RESTRICT out, const Src* IRLINT_RESTRICT p0, const Src* IRLINT_RESTRICT p1,
                  const Src* IRLINT_RESTRICT p2, const Src* IRLINT_RESTRICT p3, int64_t n, bool fresh) {
    auto sweep = [&](auto start) {
        for (int64_t i = 0; i < n; ++i) {
            A acc = start(i);
            acc = R::combine(acc, static_cast<A>(p0[i]));
            if constexpr (N > 1) acc = R::combine(acc, static_cast<A>(p1[i]));
            if constexpr (N > 2) acc = R::combine(acc, static_cast<A>(p2[i]));
            if constexpr (N > 3) acc = R::combine(acc, static_cast<A>(p3[i]));
            out[i] = acc;
        }
    };
    if (fresh)
        sweep([](int64_t) { return R::identity(); });
    else
        sweep([out](int64_t i) { return out[i]; });
}

// out[0, n) = the combination of taps [first, end) in order, where run(k) points at tap k's values.
template <class R, class A, class Run>
void combine_tap_runs(A* out, int64_t n, int64_t first, int64_t end, Run&& run) {
    if (first >= end) {
        for (int64_t i = 0; i < n; ++i) out[i] = R::identity();
        return;
    }
    for (int64_t k = first; k < end; k += 4) {
        const bool fresh = k == first;
        const auto p0 = run(k);
        switch (std::min<int64_t>(4, end - k)) {
            case 1:
                combine_taps<R, 1>(out, p0, p0, p0, p0, n, fresh);
                break;
            case 2:
                combine_taps<R, 2>(out, p0, run(k + 1), p0, p0, n, fresh);
                break;
            case 3:
                combine_taps<R, 3>(out, p0, run(k + 1), run(k + 2), p0, n, fresh);
                break;
            default:
                combine_taps<R, 4>(out, p0, run(k + 1), run(k + 2), run(k + 3), n, fresh);
        }
    }
}

// Large undilated windows take a route whose cost per output does not grow with the kernel (van Herk /
// Gil-Werman): the line is cut into blocks of `kernel` elements, each with running results from its
// start (forward) and from its end (backward). A full window spans at most two blocks, so it combines
// backward[first] with forward[last]: only its own taps, in their order, with no subtraction that could
// cancel against values outside the window.
inline bool use_running_route(const AxisTaps& a) { return a.dilation == 1 && a.kernel >= 8; }

template <class R, class A>
void running_pass(const A* src, A* dst, int64_t rows, int64_t inner, const AxisTaps& axis, AxisScratch<A>& s) {
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
            // A window cut by the border: its taps one by one, across the `inner` lines at once.
            combine_tap_runs<R>(out + o * inner, inner, axis.lo[o], axis.hi[o],
                                [&](int64_t t) { return x + (axis.start[o] + t) * inner; });
        }
    }
}

// The block route along W with several lines side by side: each running result depends on the one
// before it, so one line alone is a chain of dependent operations; interleaved, the same operations in
// the same order run on a vector of lines at once. The lines go in and out through a transposed copy.
template <class R, class A>
void running_w_pass(const A* src, A* dst, int64_t rows, const AxisTaps& axis, AxisScratch<A>& s) {
    constexpr int64_t kLines = 16;
    s.across_in.resize(static_cast<size_t>(axis.in * kLines));
    s.across_out.resize(static_cast<size_t>(axis.out * kLines));
    for (int64_t r = 0; r < rows; r += kLines) {
        const int64_t n = std::min(kLines, rows - r);
        A* IRLINT_RESTRICT across = s.across_in.data();
        for (int64_t line = 0; line < n; ++line)
            for (int64_t i = 0; i < axis.in; ++i) across[i * n + line] = src[(r + line) * axis.in + i];
        running_pass<R, A>(across, s.across_out.data(), 1, n, axis, s);
        const A* IRLINT_RESTRICT result = s.across_out.data();
        for (int64_t line = 0; line < n; ++line)
            for (int64_t o = 0; o < axis.out; ++o) dst[(r + line) * axis.out + o] = result[o * n + line];
    }
}

// Splits a line into its `stride` phases: phase p holds line[p], line[p + stride], ... Each phase has
// room for `len` elements (the last ones of a phase may be left unset: no tap reads them).
template <int64_t S, class Src, class A>
void split_phases_by(const Src* IRLINT_RESTRICT line, int64_t in, A* IRLINT_RESTRICT phases, int64_t len) {
    const int64_t groups = in / S;
    for (int64_t j = 0; j < groups; ++j)
        for (int64_t p = 0; p < S; ++p) phases[p * len + j] = static_cast<A>(line[j * S + p]);
    for (int64_t p = 0; groups * S + p < in; ++p) phases[p * len + groups] = static_cast<A>(line[groups * S + p]);
}

template <class Src, class A>
void split_phases(const Src* line, int64_t in, int64_t stride, A* phases, int64_t len) {
    switch (stride) {  // a stride the compiler knows turns the split into vector shuffles
        case 1:
            return split_phases_by<1>(line, in, phases, len);
        case 2:
            return split_phases_by<2>(line, in, phases, len);
        case 3:
            return split_phases_by<3>(line, in, phases, len);
        case 4:
            return split_phases_by<4>(line, in, phases, len);
        default:
            for (int64_t i = 0; i < in; ++i) phases[(i % stride) * len + i / stride] = static_cast<A>(line[i]);
    }
}

// The taps of the interior outputs of one line as contiguous runs: tap k of output `first + i` is
// run(k)[i]. With a stride above 1 the line is split into its phases first, so that no tap gathers
// every stride-th element: the loops over outputs stay contiguous and vectorize.
template <class A>
struct InteriorRuns {
    const A* source = nullptr;
    int64_t base = 0, stride = 1, dilation = 1, len = 0;
    const A* run(int64_t k) const {
        const int64_t at = base + k * dilation;
        return stride == 1 ? source + at : source + (at % stride) * len + at / stride;
    }
};

// Runs over `in` elements of `line` for outputs whose first tap is at `base`.
template <class Src, class A>
InteriorRuns<A> interior_runs(const Src* line, int64_t in, int64_t base, const AxisTaps& axis, std::vector<A>& phases) {
    InteriorRuns<A> runs{nullptr, base, axis.stride, axis.dilation, 0};
    if constexpr (std::is_same_v<Src, A>) {
        if (axis.stride == 1) {
            runs.source = line;
            return runs;
        }
    }
    runs.len = (in + axis.stride - 1) / axis.stride;
    // Only phases that hold an element: a stride beyond the line (2^40 on a line of 32) needs `in` of them.
    phases.resize(static_cast<size_t>(runs.len * std::min(axis.stride, in)));
    split_phases(line, in, axis.stride, phases.data(), runs.len);
    runs.source = phases.data();
    return runs;
}

// Lines whose windows continue each other (each line holds exactly out * stride elements) can be read
// as one long line: the interior outputs of a block of lines, and the border outputs between them, become
// one long vector loop. Short lines, such as an adaptive pool's 28 to 7 or a stride-2 pass's 56 outputs,
// then keep the vector unit busy. The border outputs, which that loop computes over the neighbouring
// line's elements, are computed again afterwards from their own line.
inline bool lines_chain(const AxisTaps& axis) {
    return axis.stride > 0 && axis.in == axis.out * axis.stride && axis.interior.first < axis.interior.last;
}

// Output o of `line`, its taps one by one.
template <class R, class Src, class A>
A border_output(const Src* line, const AxisTaps& axis, int64_t o) {
    A acc = R::identity();
    for (int64_t k = axis.lo[o]; k < axis.hi[o]; ++k)
        acc = R::combine(acc, static_cast<A>(line[axis.start[o] + k * axis.dilation]));
    return acc;
}

template <class R, class Src, class A>
void border_outputs(const Src* line, const AxisTaps& axis, A* out) {
    const InteriorRange inner = axis.interior;
    for (int64_t o = 0; o < inner.first; ++o) out[o] = border_output<R, Src, A>(line, axis, o);
    for (int64_t o = inner.last; o < axis.out; ++o) out[o] = border_output<R, Src, A>(line, axis, o);
}

// `n` chained lines: long output q = r * out + o of line r. From the first line's first interior output to
// the last line's last one, every tap lies in the block.
template <class R, class Src, class A>
void chained_lines(const Src* src, A* dst, int64_t n, const AxisTaps& axis, AxisScratch<A>& s) {
    const InteriorRange inner = axis.interior;
    const int64_t count = (n - 1) * axis.out + inner.last - inner.first;
    const InteriorRuns<A> runs = interior_runs(src, n * axis.in, axis.start[inner.first], axis, s.phases);
    combine_tap_runs<R>(dst + inner.first, count, 0, axis.kernel, [&](int64_t k) { return runs.run(k); });
    for (int64_t r = 0; r < n; ++r) border_outputs<R>(src + r * axis.in, axis, dst + r * axis.out);
}

// Reduces `rows` contiguous lines along W.
template <class R, class Src, class A>
void w_pass(const Src* src, A* dst, int64_t rows, const AxisTaps& axis, AxisScratch<A>& s) {
    if (lines_chain(axis)) {
        const int64_t batch = std::max<int64_t>(1, 4096 / axis.in);  // a batch's phases stay in the L1 cache
        for (int64_t r = 0; r < rows; r += batch)
            chained_lines<R>(src + r * axis.in, dst + r * axis.out, std::min(batch, rows - r), axis, s);
        return;
    }
    const InteriorRange inner = axis.interior;
    const int64_t count = inner.last - inner.first;
    for (int64_t r = 0; r < rows; ++r) {
        const Src* line = src + r * axis.in;
        A* out = dst + r * axis.out;
        border_outputs<R>(line, axis, out);  // every output, when the interior is empty
        if (count <= 0) continue;
        const InteriorRuns<A> runs = interior_runs(line, axis.in, axis.start[inner.first], axis, s.phases);
        combine_tap_runs<R>(out + inner.first, count, 0, axis.kernel, [&](int64_t k) { return runs.run(k); });
    }
}

// Along H or D, windows of at most four taps that tile their block of lines (in == out * stride, every
// output interior): output line q of all the blocks together reads lines first + q * stride + k * dilation.
// One loop then runs over them all, where combine_tap_runs would pay a call and a switch on the taps for
// every output line, and a stack of small planes (an adaptive pool's 28 to 7) has many short ones.
inline bool lines_tile(const AxisTaps& axis) {
    return lines_chain(axis) && axis.interior.first == 0 && axis.interior.last == axis.out && axis.kernel >= 1 &&
           axis.kernel <= 4;
}

template <class R, int N, class Src, class A>
void tiled_lines(const Src* src, A* dst, int64_t lines, int64_t inner, const AxisTaps& axis) {
    const Src* first = src + axis.start[0] * inner;
    const int64_t step = axis.stride * inner, gap = axis.dilation * inner;
    for (int64_t q = 0; q < lines; ++q) {
        const Src* p = first + q * step;
        const Src* p1 = N > 1 ? p + gap : p;
        const Src* p2 = N > 2 ? p + 2 * gap : p;
        const Src* p3 = N > 3 ? p + 3 * gap : p;
        combine_taps<R, N>(dst + q * inner, p, p1, p2, p3, inner, true);
    }
}

// Reduces `rows` blocks of interleaved lines (each element `inner` apart) along H or D.
template <class R, class Src, class A>
void strided_pass(const Src* src, A* dst, int64_t rows, int64_t inner, const AxisTaps& axis) {
    if (lines_tile(axis)) {
        const int64_t lines = rows * axis.out;
        switch (axis.kernel) {
            case 1:
                return tiled_lines<R, 1>(src, dst, lines, inner, axis);
            case 2:
                return tiled_lines<R, 2>(src, dst, lines, inner, axis);
            case 3:
                return tiled_lines<R, 3>(src, dst, lines, inner, axis);
            default:
                return tiled_lines<R, 4>(src, dst, lines, inner, axis);
        }
    }
    for (int64_t r = 0; r < rows; ++r) {
        const Src* block = src + r * axis.in * inner;
        A* out_block = dst + r * axis.out * inner;
        for (int64_t o = 0; o < axis.out; ++o)
            combine_tap_runs<R>(out_block + o * inner, inner, axis.lo[o], axis.hi[o],
                                [&](int64_t k) { return block + (axis.start[o] + k * axis.dilation) * inner; });
    }
}

// One pass along an axis: `rows` blocks of lines `inner` elements apart (inner == 1: contiguous W lines).
template <class R, class Src, class A>
void reduce_axis(const Src* src, A* dst, int64_t rows, int64_t inner, const AxisTaps& axis, AxisScratch<A>& s) {
    if constexpr (std::is_same_v<Src, A>) {
        if (use_running_route(axis))
            return inner == 1 ? running_w_pass<R, A>(src, dst, rows, axis, s)
                              : running_pass<R, A>(src, dst, rows, inner, axis, s);
    }
    if (inner == 1)
        w_pass<R, Src, A>(src, dst, rows, axis, s);
    else
        strided_pass<R, Src, A>(src, dst, rows, inner, axis);
}

}  // namespace irlint::kernels::IRLINT_ISA
