#include "exec/plane_runs.hpp"

#include <algorithm>
#include <atomic>
#include <limits>

#include "exec/max_pool_kernel.hpp"

namespace irlint::kernels {

namespace {

// f16 MaxPool without widening: apart from NaN and -0, f16 values are ordered as these 16-bit keys
// (magnitude bits, negated for negative values), so the integer kernels pick the same element as the
// float ones would and give back its bits unchanged. NaN and -0 (whose key would equal +0's, where the
// float comparison keeps whichever came first) send a slab (values only) or the whole tensor (with
// indices) down the float path.
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
    static void load_n(const uint16_t* IRLINT_RESTRICT s, int16_t* IRLINT_RESTRICT v, size_t n) {
        with_best_isa([&] {
            for (size_t i = 0; i < n; ++i) v[i] = key(s[i]);
        });
    }
    static void store_n(const int16_t* IRLINT_RESTRICT v, uint16_t* IRLINT_RESTRICT s, size_t n) {
        with_best_isa([&] {
            for (size_t i = 0; i < n; ++i) s[i] = bits(v[i]);
        });
    }
    static constexpr bool is_half = true;  // computed in another type than stored
};

// One pass with two 16-bit reductions (a maximum and an OR), which vectorize together; keys into `keys`
// when it is given.
bool ordered_as_integers(const uint16_t* IRLINT_RESTRICT h, size_t n, int16_t* IRLINT_RESTRICT keys = nullptr) {
    uint16_t largest_magnitude = 0, negative_zero = 0;
    const auto check = [&](size_t i) {
        const auto magnitude = static_cast<uint16_t>(h[i] & 0x7FFF);
        largest_magnitude = magnitude > largest_magnitude ? magnitude : largest_magnitude;
        negative_zero |= static_cast<uint16_t>(h[i] == 0x8000);
    };
    if (keys)
        for (size_t i = 0; i < n; ++i) check(i), keys[i] = F16Ordered::key(h[i]);
    else
        for (size_t i = 0; i < n; ++i) check(i);
    return largest_magnitude <= 0x7C00 && negative_zero == 0;
}

bool ordered_as_integers(const Tensor& f16, int threads) {
    std::atomic<bool> ordered{true};
    const auto n = static_cast<int64_t>(f16.size());
    const int workers = static_cast<int>(std::clamp<int64_t>(n / kMinElementsPerThread, 1, threads));
    parallel_for(n, workers, [&](int64_t begin, int64_t end) {
        const uint16_t* h = f16.data<uint16_t>() + begin;
        if (!with_best_isa([&] { return ordered_as_integers(h, static_cast<size_t>(end - begin)); })) ordered = false;
    });
    return ordered;
}

// f16 MaxPool values: each slab is checked while it becomes keys, in one pass and within the threads' own
// work; a slab with NaN or -0 runs on floats instead.
struct F16MaxScratch {
    MaxScratch<int16_t> keys;
    MaxScratch<float> floats;
    std::vector<float> widened;
};

void run_f16_max(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads) {
    using W = Worker<F16Ordered, F16MaxScratch>;
    for_each_slab<W>(input, g, threads, sink, [&](W& w, int64_t p, const Slab& slab, const OutputSink::Window& out) {
        const PlaneGeometry& sg = slab.geometry;
        const int64_t in_at = p * g.in_size() + slab.in_offset, out_at = p * g.out_size() + slab.out_offset - out.origin;
        const uint16_t* stored = input.data<uint16_t>() + in_at;
        w.copy.resize(static_cast<size_t>(sg.in_size()));
        Tensor& output = (*out.tensors)[0];
        if (with_best_isa([&] { return ordered_as_integers(stored, w.copy.size(), w.copy.data()); })) {
            OutputValues<F16Ordered> keys(output);
            int16_t* target = keys.target(out_at, sg.out_size());
            with_best_isa([&] { max_pool_plane<F16Ordered>(w.copy.data(), sg, w.scratch.keys, target); });
            keys.commit(out_at, sg.out_size());
            return;
        }
        OutputValues<F16> values(output);
        const float* in = input_values<F16>(input, in_at, sg.in_size(), w.scratch.widened);
        float* target = values.target(out_at, sg.out_size());
        with_best_isa([&] { max_pool_plane<F16>(in, sg, w.scratch.floats, target); });
        values.commit(out_at, sg.out_size());
    });
}

template <class Traits, class I>
void run_max_indexed(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, OutputSink& sink,
                     int threads) {
    using V = typename Traits::Value;
    auto plane = [](const V* in, const PlaneGeometry& sg, MaxScratch<V, I>& s, V* out, I* spatial) {
        with_best_isa([&] { max_pool_plane_indexed<Traits, V, I>(in, sg, s, out, spatial); });
    };
    run_indexed_slabs<Traits, MaxScratch<V, I>, I>(g, input, m, sink, threads, plane);
}

template <class Traits>
void run_max(const PlaneGeometry& g, const Tensor& input, const IndexMapping* indices, OutputSink& sink, int threads) {
    using V = typename Traits::Value;
    if (indices) {
        const IndexMapping& m = *indices;
        // 32-bit positions while a plane allows: half the memory traffic, twice the vector width.
        if (g.in_size() < std::numeric_limits<int32_t>::max())
            run_max_indexed<Traits, int32_t>(g, input, m, sink, threads);
        else
            run_max_indexed<Traits, int64_t>(g, input, m, sink, threads);
        return;
    }
    auto plane = [](const V* in, const PlaneGeometry& sg, MaxScratch<V>& s, V* out) {
        with_best_isa([&] { max_pool_plane<Traits, V>(in, sg, s, out); });
    };
    run_value_slabs<Traits, MaxScratch<V>>(g, input, sink, threads, plane);
}

}  // namespace

void run_max_planes(const PlaneGeometry& g, const Tensor& input, const IndexMapping* indices, OutputSink& sink,
                    int threads) {
    if (input.type() == ElementType::f16 && !indices) return run_f16_max(g, input, sink, threads);
    if (input.type() == ElementType::f16 && ordered_as_integers(input, threads))
        return run_max<F16Ordered>(g, input, indices, sink, threads);
    visit_element_type(input.type(), [&](auto traits) { run_max<decltype(traits)>(g, input, indices, sink, threads); });
}

}  // namespace irlint::kernels
