#pragma once
// What the pooling kernels share: how each element type is loaded, computed and stored, the geometry of
// a pooled plane (which kernel taps of each window fall inside the data), and the split over threads.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/element_type.hpp"
#include "core/cpu_features.hpp"
#include "core/half.hpp"

// The inner loops promise the compiler their buffers do not overlap, so that it vectorizes them.
#define IRLINT_RESTRICT __restrict

namespace irlint::kernels {

// with_best_isa(f) runs f compiled twice, for AVX2 and for the baseline x86-64, picked by the CPU; flatten
// inlines everything f calls, so the AVX2 copy is AVX2 all the way down. (Not target_clones: its resolver runs
// libgcc's CPU detection at every start, see core/cpu_features.hpp.)
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
template <class F>
__attribute__((flatten, target("avx2"))) decltype(auto) call_with_avx2(const F& f) {
    return f();
}

template <class F>
__attribute__((flatten)) decltype(auto) call_with_baseline(const F& f) {
    return f();
}

template <class F>
decltype(auto) with_best_isa(const F& f) {
    return cpu::has_avx2() ? call_with_avx2(f) : call_with_baseline(f);
}
#else
template <class F>
decltype(auto) with_best_isa(const F& f) {
    return f();
}
#endif

}  // namespace irlint::kernels

namespace irlint::kernels {

// Storage type S as held in the tensor, value type V the kernels compute with. Halves compute in float
// and are rounded back to their own precision where OpenVINO's reference rounds (after every add).
template <class S, class V>
struct Plain {
    using Stored = S;
    using Value = V;
    static V load(S s) { return static_cast<V>(s); }
    static S store(V v) { return static_cast<S>(v); }
    static V round(V v) { return v; }
    static V lowest() { return std::numeric_limits<S>::lowest(); }
    static constexpr bool is_half = false;
};
struct F16 {
    using Stored = uint16_t;
    using Value = float;
    static float load(uint16_t s) { return f16_to_float(s); }
    static uint16_t store(float v) { return float_to_f16(v); }
    static float round(float v) { return f16_to_float(float_to_f16(v)); }
    static float lowest() { return static_cast<float>(lowest_value(ElementType::f16)); }
    static void load_n(const uint16_t* s, float* v, size_t n) { f16_to_float_n(s, v, n); }
    static void store_n(const float* v, uint16_t* s, size_t n) { float_to_f16_n(v, s, n); }
    static constexpr bool is_half = true;
};
struct BF16 {
    using Stored = uint16_t;
    using Value = float;
    static float load(uint16_t s) { return bf16_to_float(s); }
    static uint16_t store(float v) { return float_to_bf16_openvino(v); }
    static float round(float v) { return bf16_to_float(float_to_bf16_openvino(v)); }
    static float lowest() { return static_cast<float>(lowest_value(ElementType::bf16)); }
    static void load_n(const uint16_t* s, float* v, size_t n) {
        for (size_t i = 0; i < n; ++i) v[i] = bf16_to_float(s[i]);
    }
    static void store_n(const float* v, uint16_t* s, size_t n) {
        for (size_t i = 0; i < n; ++i) s[i] = float_to_bf16_openvino(v[i]);
    }
    static constexpr bool is_half = true;
};

// Calls fn(Traits{}) for the element type; returns false for types the kernels do not run.
template <class Fn>
bool visit_element_type(ElementType t, Fn&& fn) {
    switch (t) {
        case ElementType::f16:
            fn(F16{});
            return true;
        case ElementType::bf16:
            fn(BF16{});
            return true;
        case ElementType::f32:
            fn(Plain<float, float>{});
            return true;
        case ElementType::f64:
            fn(Plain<double, double>{});
            return true;
        case ElementType::i8:
            fn(Plain<int8_t, int8_t>{});
            return true;
        case ElementType::i16:
            fn(Plain<int16_t, int16_t>{});
            return true;
        case ElementType::i32:
            fn(Plain<int32_t, int32_t>{});
            return true;
        case ElementType::i64:
            fn(Plain<int64_t, int64_t>{});
            return true;
        case ElementType::u8:
            fn(Plain<uint8_t, uint8_t>{});
            return true;
        case ElementType::u16:
            fn(Plain<uint16_t, uint16_t>{});
            return true;
        case ElementType::u32:
            fn(Plain<uint32_t, uint32_t>{});
            return true;
        case ElementType::u64:
            fn(Plain<uint64_t, uint64_t>{});
            return true;
        case ElementType::boolean:
            fn(Plain<uint8_t, uint8_t>{});
            return true;
        default:
            return false;
    }
}

// Outputs [first, last) of an axis, whose windows lie wholly inside the data.
struct InteriorRange {
    int64_t first = 0, last = 0;
};

// One spatial axis of a plane: for each output position, where its window starts in the input (possibly
// in the padding) and the range [lo, hi) of kernel taps that land inside the data.
struct AxisTaps {
    int64_t in = 1, out = 1, kernel = 1, dilation = 1;
    int64_t stride = 1;  // start[o] = start[0] + o * stride; 0 when the starts are not evenly spaced
    int64_t origin = 0;  // where input position 0 lies on the whole axis (a slab of a plane starts later)
    std::vector<int64_t> start;
    std::vector<int64_t> lo, hi;
    // The evenly spaced outputs with every tap in the data, when they are one run; empty otherwise.
    InteriorRange interior;
    int64_t taps(int64_t o) const { return hi[o] - lo[o]; }
    // Every output is the input at its own position: the axis needs no pass.
    bool passes_through() const { return in == out && kernel == 1 && (stride == 1 || out == 1) && start[0] == 0; }
    bool trivial() const { return in == 1 && passes_through(); }
};

AxisTaps axis_taps(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t dilation, int64_t pad_begin);
// The bins of an adaptive pool as taps: output o covers [floor(o*in/out), ceil((o+1)*in/out)).
AxisTaps adaptive_taps(int64_t in, int64_t out);

// Spatial axes padded in front to three (D, H, W), as the reference does for 1D and 2D pooling.
struct PlaneGeometry {
    std::array<AxisTaps, 3> axes;
    int64_t in_size() const { return axes[0].in * axes[1].in * axes[2].in; }
    int64_t out_size() const { return axes[0].out * axes[1].out * axes[2].out; }
};

// A piece of work: the part of one plane, or of consecutive planes, that one kernel call computes, with
// the offsets of its first input and output elements from the start of its first plane.
struct Slab {
    PlaneGeometry geometry;
    int64_t in_offset = 0;
    int64_t out_offset = 0;
};

// How the planes of a tensor are cut into units of work for the threads. Small planes of 1D and 2D
// pooling are stacked: a unit of consecutive planes is one plane whose D axis runs over them unpooled,
// so the per-call costs of a kernel are paid once per stack. When there are fewer planes than threads,
// each plane is cut into slabs of output rows along its outermost pooled axis instead.
class PlaneWork {
public:
    PlaneWork(const PlaneGeometry& g, int64_t planes, int threads);
    int64_t units() const;
    int64_t first_plane(int64_t unit) const;
    const Slab& slab(int64_t unit) const;
    // The output elements [output_begin, output_end) of a unit; the units follow each other in the output.
    int64_t output_begin(int64_t unit) const;
    int64_t output_end(int64_t unit) const;
    // The unit after the last of a batch that starts at `first`: as many units as write at most `elements`
    // output elements together, and at least one.
    int64_t batch_end(int64_t first, int64_t elements) const;

private:
    std::vector<Slab> shapes_;  // the slabs of one plane, or a full stack and the shorter last one
    int64_t planes_ = 0;
    int64_t plane_outputs_ = 1;
    int64_t stack_ = 1;  // planes per unit
};

// Runs fn(part, begin, end) over [0, count) split into contiguous chunks on up to `threads` threads, telling
// fn which part (0 .. threads - 1) it runs: parts that keep state from call to call.
void parallel_parts(int64_t count, int threads, const std::function<void(int part, int64_t, int64_t)>& fn);

// 0 means every hardware thread.
int resolve_threads(int threads);

// The threads worth waking for `planes` planes of geometry g: at most `threads`, and one for every
// kMinElementsPerThread input and output elements, so a small layer runs on the calling thread alone.
inline constexpr int64_t kMinElementsPerThread = 32768;
int threads_for(const PlaneGeometry& g, int64_t planes, int threads);

}  // namespace irlint::kernels
