#include "exec/plane_runs.hpp"

#include <limits>

#include "exec/max_pool_kernel.hpp"

namespace irlint::kernels {

namespace {

template <class Traits, class I>
void run_max_indexed(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, std::vector<Tensor>& outputs,
                     int threads) {
    using V = typename Traits::Value;
    auto plane = [](const V* in, const PlaneGeometry& sg, MaxScratch<V, I>& s, V* out, I* spatial) {
        max_pool_plane_indexed<Traits, V, I>(in, sg, s, out, spatial);
    };
    run_indexed_slabs<Traits, MaxScratch<V, I>, I>(g, input, m, outputs, threads, plane);
}

template <class Traits>
void run_max(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, std::vector<Tensor>& outputs,
             int threads) {
    using V = typename Traits::Value;
    if (outputs.size() > 1) {
        // 32-bit positions while a plane allows: half the memory traffic, twice the vector width.
        if (g.in_size() < std::numeric_limits<int32_t>::max())
            run_max_indexed<Traits, int32_t>(g, input, m, outputs, threads);
        else
            run_max_indexed<Traits, int64_t>(g, input, m, outputs, threads);
        return;
    }
    auto plane = [](const V* in, const PlaneGeometry& sg, MaxScratch<V>& s, V* out) {
        max_pool_plane<Traits, V>(in, sg, s, out);
    };
    run_value_slabs<Traits, MaxScratch<V>>(g, input, outputs[0], threads, plane);
}

}  // namespace

void run_max_planes(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, std::vector<Tensor>& outputs,
                    int threads) {
    visit_element_type(input.type(), [&](auto traits) { run_max<decltype(traits)>(g, input, m, outputs, threads); });
}

}  // namespace irlint::kernels
