// The counts that the data-dependent ops' output dims are, where their input is known (rules/ops/
// tensor_common.hpp): OpenVINO computes NonZero's and Unique's outputs from a constant input, and ONNX's
// semantics make the count the output's dim.

#include <algorithm>
#include <cmath>
#include <map>

#include "rules/ops/elementwise_util.hpp"
#include "rules/ops/tensor_common.hpp"

namespace irlint::tensor {

std::optional<KnownTensor> known_tensor(const OpContext& ctx, size_t i) {
    auto values = elementwise::input_reals(ctx, i);
    auto dims = elementwise::static_dims(ctx.shape(i));
    // Integers past 2^53 would meet as doubles; a NaN is unequal to itself, which runtimes count differently.
    const auto unsure = [](double x) { return std::isnan(x) || std::fabs(x) > 9007199254740992.0; };
    if (!values || !dims || std::any_of(values->begin(), values->end(), unsure)) return std::nullopt;
    return KnownTensor{std::move(*values), std::move(*dims)};
}

int64_t nonzero_count(const KnownTensor& t) {
    return std::count_if(t.values.begin(), t.values.end(), [](double x) { return x != 0; });
}

std::optional<TensorValue> nonzero_coordinates(const KnownTensor& t) {
    const size_t rank = t.dims.size(), count = static_cast<size_t>(nonzero_count(t));
    if (rank * count > kMaxValueElements) return std::nullopt;
    TensorValue out(rank * count);
    std::vector<int64_t> index(rank, 0);
    size_t found = 0;
    for (const double x : t.values) {
        if (x != 0) {
            for (size_t axis = 0; axis < rank; ++axis) out[axis * count + found] = ValueBounds{index[axis], index[axis]};
            ++found;
        }
        for (size_t axis = rank; axis-- > 0;) {  // the next row-major index
            if (++index[axis] < t.dims[axis]) break;
            index[axis] = 0;
        }
    }
    return out;
}

int64_t distinct_count(const KnownTensor& t, std::optional<size_t> axis) {
    if (!axis) {
        std::vector<double> sorted = t.values;
        std::sort(sorted.begin(), sorted.end());
        // -0.0 and 0.0 are one value, as == has them.
        return std::unique(sorted.begin(), sorted.end()) - sorted.begin();
    }
    size_t outer = 1, inner = 1;
    for (size_t d = 0; d < *axis; ++d) outer *= static_cast<size_t>(t.dims[d]);
    for (size_t d = *axis + 1; d < t.dims.size(); ++d) inner *= static_cast<size_t>(t.dims[d]);
    const auto length = static_cast<size_t>(t.dims[*axis]);
    std::vector<std::vector<double>> slices(length);
    for (size_t o = 0; o < outer; ++o)
        for (size_t k = 0; k < length; ++k)
            for (size_t i = 0; i < inner; ++i) slices[k].push_back(t.values[(o * length + k) * inner + i]);
    std::sort(slices.begin(), slices.end());
    return std::unique(slices.begin(), slices.end()) - slices.begin();
}

}  // namespace irlint::tensor
