#include "exec/kernels/plane_runs.hpp"

#include "exec/kernels/plane_kernels.hpp"

namespace irlint::kernels {

namespace {

template <class Traits>
void run_avg(const PlaneGeometry& g, const AvgDivisor& divisor, const Tensor& input, OutputSink& sink, int threads) {
    using V = typename Traits::Value;
    auto plane = [&](const V* in, const PlaneGeometry& sg, AvgScratch<V>& s, V* out) {
        with_plane_kernels([&](auto isa) {
            if constexpr (Traits::is_half)
                avg_pool_plane_rounded<Traits>(isa, in, sg, divisor, out);
            else
                avg_pool_plane<V>(isa, in, sg, divisor, s, out);
        });
    };
    run_value_slabs<Traits, AvgScratch<V>>(g, input, sink, threads, plane);
}

}  // namespace

void run_avg_planes(const PlaneGeometry& g, const AvgDivisor& divisor, const Tensor& input, OutputSink& sink,
                    int threads) {
    visit_element_type(input.type(), [&](auto traits) { run_avg<decltype(traits)>(g, divisor, input, sink, threads); });
}

}  // namespace irlint::kernels
