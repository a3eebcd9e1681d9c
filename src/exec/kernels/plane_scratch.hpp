#pragma once
// What the plane kernels keep between calls and take as parameters: the scratch buffers one worker reuses
// from slab to slab, and AvgPool's divisor. They are common to every instruction set's copy of the
// kernels (exec/kernels/plane_kernels.hpp), so a worker's scratch serves whichever copy runs.

#include <cstdint>
#include <type_traits>
#include <vector>

namespace irlint::kernels {

// Scratch of the passes along one axis: the running results of the block route, a line split into phases.
template <class A>
struct AxisScratch {
    std::vector<A> forward, backward;
    std::vector<A> phases;
    std::vector<A> across_in, across_out;  // lines of W side by side, for the block route along W
};

// Integer sums wrap as the element type's own sum does in the reference; unsigned arithmetic makes the
// wrap well defined, and the conversion to the element type at the end is exact modulo its width.
template <class V>
using SumType = std::conditional_t<std::is_floating_point_v<V>, V, uint64_t>;

// Scratch of the D, H, W passes of a reduction from V into accumulator A.
template <class A>
struct PassScratch {
    std::vector<A> after_d, after_h;
    AxisScratch<A> running;
};

struct AvgDivisor {
    bool pads_in_avg = false;
    // Every tap of the kernel: the divisor when padding counts. A double, because a kernel's tap count can
    // pass 2^63 (a window of 2^32 x 2^32 over a padded input).
    double kernel_taps = 1;
};

template <class V>
struct AvgScratch {
    PassScratch<SumType<V>> passes;
    std::vector<SumType<V>> sums;
    std::vector<double> w_taps, hw_taps;  // in-data taps of each W output and each H x W output
};

template <class V, class I = int32_t>
struct MaxScratch {
    std::vector<V> values[2];
    std::vector<I> indices[2];  // flat spatial index of the pick; -1 while nothing was picked
    std::vector<int32_t> best_tap;
    AxisScratch<V> running;
};

}  // namespace irlint::kernels
