#include "exec/kernels/plane_runs.hpp"

#include <limits>
#include <type_traits>
#include <vector>

#include "exec/kernels/plane_kernels.hpp"

namespace irlint::kernels {

namespace {

// f16 MaxPool without widening: apart from NaN and -0, f16 values are ordered as these 16-bit keys
// (magnitude bits, negated for negative values), so the integer kernels pick the same element as the
// float ones would and give back its bits unchanged. NaN and -0 (whose key would equal +0's, where the
// float comparison keeps whichever came first) send a slab down the float path.
struct F16Ordered {
    using Stored = uint16_t;
    using Value = int16_t;
    // Both directions without a branch (sign = 0 or -1; (x ^ sign) - sign negates where sign is -1), so
    // that the loops over whole slabs vectorize.
    static int16_t key(uint16_t h) {
        const auto magnitude = static_cast<int16_t>(h & 0x7FFF);
        const auto sign = static_cast<int16_t>(static_cast<int16_t>(h) >> 15);
        return static_cast<int16_t>((magnitude ^ sign) - sign);
    }
    static uint16_t bits(int16_t k) {
        const auto sign = static_cast<int16_t>(k >> 15);
        const auto magnitude = static_cast<uint16_t>((k ^ sign) - sign);
        return static_cast<uint16_t>(magnitude | (static_cast<uint16_t>(sign) & 0x8000));
    }
    static int16_t lowest() { return key(0xFBFF); }  // -65504, f16's own lowest()
    static void store_n(const int16_t* IRLINT_RESTRICT v, uint16_t* IRLINT_RESTRICT s, size_t n) {
        with_best_isa([&] {
            for (size_t i = 0; i < n; ++i) s[i] = bits(v[i]);
        });
    }
    static constexpr bool is_half = true;  // computed in another type than stored
};

// The slab's keys, in one pass with two 16-bit reductions (a maximum and an OR) that vectorize with it;
// false when the slab has NaN or -0.
bool ordered_as_integers(const uint16_t* IRLINT_RESTRICT h, size_t n, int16_t* IRLINT_RESTRICT keys) {
    uint16_t largest_magnitude = 0, negative_zero = 0;
    for (size_t i = 0; i < n; ++i) {
        const auto magnitude = static_cast<uint16_t>(h[i] & 0x7FFF);
        largest_magnitude = magnitude > largest_magnitude ? magnitude : largest_magnitude;
        negative_zero |= static_cast<uint16_t>(h[i] == 0x8000);
        keys[i] = F16Ordered::key(h[i]);
    }
    return largest_magnitude <= 0x7C00 && negative_zero == 0;
}

// Scratch of f16 MaxPool: each slab runs on keys or on floats.
template <class I>
struct F16MaxScratch {
    MaxScratch<int16_t, I> keys;
    MaxScratch<float, I> floats;
    std::vector<float> widened;
};

// The slab values of f16 MaxPool: keys made and checked in one pass, within the threads' own work; a slab
// with NaN or -0 runs on floats instead.
struct F16KeysOrFloats {
    template <class W, class Compute>
    static void run(W& w, const Tensor& input, int64_t in_at, Tensor& output, int64_t out_at, const PlaneGeometry& sg,
                    Compute&& compute) {
        w.copy.resize(static_cast<size_t>(sg.in_size()));
        const uint16_t* stored = input.data<uint16_t>() + in_at;
        if (with_best_isa([&] { return ordered_as_integers(stored, w.copy.size(), w.copy.data()); })) {
            OutputValues<F16Ordered> keys(output);
            compute(static_cast<const int16_t*>(w.copy.data()), w.scratch.keys, keys.target(out_at, sg.out_size()));
            keys.commit(out_at, sg.out_size());
            return;
        }
        OutputValues<F16> floats(output);
        compute(input_values<F16>(input, in_at, sg.in_size(), w.scratch.widened), w.scratch.floats,
                floats.target(out_at, sg.out_size()));
        floats.commit(out_at, sg.out_size());
    }
};

// What MaxPool runs on an element type: the traits of the tensor, the kernels' traits for the values a
// slab comes as, the scratch of a worker, and the slab values policy.
template <class Traits>
struct PlainMax {
    using TensorTraits = Traits;
    template <class V>
    using Kernel = Traits;
    template <class I>
    using Scratch = MaxScratch<typename Traits::Value, I>;
    using Values = SlabValues<Traits>;
};

struct F16Max {
    using TensorTraits = F16Ordered;
    template <class V>
    using Kernel = std::conditional_t<std::is_same_v<V, int16_t>, F16Ordered, F16>;
    template <class I>
    using Scratch = F16MaxScratch<I>;
    using Values = F16KeysOrFloats;
};

template <class Family, class I>
void run_max_indexed(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, OutputSink& sink,
                     int threads) {
    using Scratch = typename Family::template Scratch<I>;
    auto plane = [](const auto* in, const PlaneGeometry& sg, auto& s, auto* out, I* spatial) {
        using V = std::remove_const_t<std::remove_pointer_t<decltype(in)>>;
        using Kernel = typename Family::template Kernel<V>;
        with_plane_kernels([&](auto isa) { max_pool_plane_indexed<Kernel, V, I>(isa, in, sg, s, out, spatial); });
    };
    run_indexed_slabs<typename Family::TensorTraits, Scratch, I, typename Family::Values>(g, input, m, sink, threads, plane);
}

template <class Family>
void run_max(const PlaneGeometry& g, const Tensor& input, const IndexMapping* indices, OutputSink& sink, int threads) {
    if (indices) {
        const IndexMapping& m = *indices;
        // 32-bit positions while a plane allows: half the memory traffic, twice the vector width.
        if (g.in_size() < std::numeric_limits<int32_t>::max())
            run_max_indexed<Family, int32_t>(g, input, m, sink, threads);
        else
            run_max_indexed<Family, int64_t>(g, input, m, sink, threads);
        return;
    }
    using Scratch = typename Family::template Scratch<int32_t>;
    auto plane = [](const auto* in, const PlaneGeometry& sg, auto& s, auto* out) {
        using V = std::remove_const_t<std::remove_pointer_t<decltype(in)>>;
        with_plane_kernels([&](auto isa) { max_pool_plane<typename Family::template Kernel<V>, V>(isa, in, sg, s, out); });
    };
    run_value_slabs<typename Family::TensorTraits, Scratch, typename Family::Values>(g, input, sink, threads, plane);
}

}  // namespace

void run_max_planes(const PlaneGeometry& g, const Tensor& input, const IndexMapping* indices, OutputSink& sink,
                    int threads) {
    if (input.type() == ElementType::f16) return run_max<F16Max>(g, input, indices, sink, threads);
    visit_element_type(input.type(), [&](auto traits) { run_max<PlainMax<decltype(traits)>>(g, input, indices, sink, threads); });
}

}  // namespace irlint::kernels
