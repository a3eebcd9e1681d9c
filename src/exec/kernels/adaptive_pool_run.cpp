#include "exec/kernels/plane_runs.hpp"

#include <type_traits>

#include "exec/kernels/plane_kernels.hpp"

namespace irlint::kernels {

namespace {

template <class Traits>
void run_adaptive_avg(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads) {
    using V = typename Traits::Value;
    constexpr bool separable = std::is_floating_point_v<typename Traits::Stored>;  // f32, f64
    auto plane = [](const V* in, const PlaneGeometry& sg, AvgScratch<V>& s, V* out) {
        with_plane_kernels([&](auto isa) {
            if constexpr (separable)
                avg_pool_plane<V>(isa, in, sg, AvgDivisor{}, s, out);
            else
                adaptive_avg_plane<Traits>(isa, in, sg, out);
        });
    };
    run_value_slabs<Traits, AvgScratch<V>>(g, input, sink, threads, plane);
}

// AdaptiveMaxPool indices carry no batch or channel offset: positions within the plane (a stack's run on
// across its planes, hence the modulus).
template <class Traits>
void run_adaptive_max(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads) {
    using V = typename Traits::Value;
    const IndexMapping within_plane{g.in_size(), g.in_size()};
    auto plane = [](const V* in, const PlaneGeometry& sg, NoScratch&, V* out, int64_t* spatial) {
        with_plane_kernels([&](auto isa) { adaptive_max_plane<V>(isa, in, sg, out, spatial); });
    };
    run_indexed_slabs<Traits, NoScratch, int64_t>(g, input, within_plane, sink, threads, plane);
}

}  // namespace

void run_adaptive_avg_planes(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads) {
    visit_element_type(input.type(), [&](auto traits) { run_adaptive_avg<decltype(traits)>(g, input, sink, threads); });
}

void run_adaptive_max_planes(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads) {
    visit_element_type(input.type(), [&](auto traits) { run_adaptive_max<decltype(traits)>(g, input, sink, threads); });
}

}  // namespace irlint::kernels
