#include "exec/plane_runs.hpp"

#include <type_traits>

#include "exec/adaptive_pool_kernel.hpp"
#include "exec/avg_pool_kernel.hpp"

namespace irlint::kernels {

namespace {

template <class Traits>
void run_adaptive_avg(const PlaneGeometry& g, const Tensor& input, Tensor& output, int threads) {
    using V = typename Traits::Value;
    constexpr bool separable = std::is_floating_point_v<typename Traits::Stored>;  // f32, f64
    auto plane = [](const V* in, const PlaneGeometry& sg, AvgScratch<V>& s, V* out) {
        if constexpr (separable)
            avg_pool_plane<V>(in, sg, AvgDivisor{}, s, out);
        else
            adaptive_avg_plane<Traits>(in, sg, out);
    };
    run_value_slabs<Traits, AvgScratch<V>>(g, input, output, threads, plane);
}

// AdaptiveMaxPool indices carry no batch or channel offset: positions within the plane.
template <class Traits>
void run_adaptive_max(const PlaneGeometry& g, const Tensor& input, std::vector<Tensor>& outputs, int threads) {
    using V = typename Traits::Value;
    using W = Worker<Traits, NoScratch>;
    const IndexMapping within_plane{g.in_size(), g.in_size(), g.out_size()};  // a stack's positions run on
    for_each_slab<W>(input, g, threads, [&](W& w, int64_t p, const Slab& slab) {
        const PlaneGeometry& sg = slab.geometry;
        OutputValues<Traits> values(outputs[0]);
        const int64_t out_at = p * g.out_size() + slab.out_offset;
        const V* in = input_values<Traits>(input, p * g.in_size() + slab.in_offset, sg.in_size(), w.copy);
        w.spatial.resize(static_cast<size_t>(sg.out_size()));
        adaptive_max_plane<V>(in, sg, values.target(out_at, sg.out_size()), w.spatial.data());
        values.commit(out_at, sg.out_size());
        write_indices(outputs[1], static_cast<size_t>(out_at), w.spatial, p, slab.in_offset, within_plane);
    });
}

}  // namespace

void run_adaptive_avg_planes(const PlaneGeometry& g, const Tensor& input, Tensor& output, int threads) {
    visit_element_type(input.type(),
                       [&](auto traits) { run_adaptive_avg<decltype(traits)>(g, input, output, threads); });
}

void run_adaptive_max_planes(const PlaneGeometry& g, const Tensor& input, std::vector<Tensor>& outputs, int threads) {
    visit_element_type(input.type(),
                       [&](auto traits) { run_adaptive_max<decltype(traits)>(g, input, outputs, threads); });
}

}  // namespace irlint::kernels
