#include "exec/diagnosis/conventions.hpp"

#include <array>

namespace irlint {

namespace {

bool is_avg(const LayerSetup& l) { return l.op.kind == PoolKind::avg_pool; }
bool is_max(const LayerSetup& l) { return l.op.kind == PoolKind::max_pool; }
bool is_windowed(const LayerSetup& l) { return is_avg(l) || is_max(l); }

bool has_float_data(const LayerSetup& l) {
    const ElementType t = l.input->type();
    return t == ElementType::f16 || t == ElementType::bf16 || t == ElementType::f32 || t == ElementType::f64;
}
bool has_half_data(const LayerSetup& l) {
    return l.input->type() == ElementType::f16 || l.input->type() == ElementType::bf16;
}

Alternative same_as(const LayerSetup& l) { return Alternative{l.op, l.desc, Arithmetic::openvino}; }

// A producer is not bound to the IR's op version: ceil_torch is tried on AvgPool-1 and MaxPool-1/8 too, as
// their version 14 would compute it.
std::optional<Alternative> with_rounding(const LayerSetup& l, RoundingType r) {
    if (!is_windowed(l) || l.desc.rounding == r) return std::nullopt;
    Alternative a = same_as(l);
    a.desc.rounding = r;
    if (r == RoundingType::ceil_torch && !a.op.has_ceil_torch()) a.op.version = 14;
    return a;
}

std::optional<Alternative> with_exclude_pad(const LayerSetup& l, bool exclude) {
    if (!is_avg(l) || l.desc.exclude_pad == exclude) return std::nullopt;
    Alternative a = same_as(l);
    a.desc.exclude_pad = exclude;
    return a;
}

// Only between the two same_* modes: the other auto_pad values are not a convention, but another layer.
std::optional<Alternative> with_auto_pad(const LayerSetup& l, PadType p) {
    const bool same = l.desc.auto_pad == PadType::same_upper || l.desc.auto_pad == PadType::same_lower;
    if (!is_windowed(l) || !same || l.desc.auto_pad == p) return std::nullopt;
    Alternative a = same_as(l);
    a.desc.auto_pad = p;
    return a;
}

std::optional<Alternative> with_swapped_pads(const LayerSetup& l) {
    if (!is_windowed(l) || l.desc.auto_pad != PadType::explicit_pads) return std::nullopt;
    Alternative a = same_as(l);
    const size_t n = a.desc.kernel.size();
    if (a.desc.pads_begin.empty()) a.desc.pads_begin.assign(n, 0);
    if (a.desc.pads_end.empty()) a.desc.pads_end.assign(n, 0);
    if (a.desc.pads_begin == a.desc.pads_end) return std::nullopt;
    std::swap(a.desc.pads_begin, a.desc.pads_end);
    return a;
}

int64_t normalized_axis(const LayerSetup& l) {
    const auto rank = static_cast<int64_t>(l.input->rank());
    return l.desc.axis < 0 ? l.desc.axis + rank : l.desc.axis;
}

// MaxPool's indices are numbered from the dims at `axis` on: 0 is the whole tensor, 2 one (N, C) plane.
std::optional<Alternative> with_index_axis(const LayerSetup& l, int64_t axis) {
    if (!is_max(l) || !l.op.has_index_output() || normalized_axis(l) == axis) return std::nullopt;
    Alternative a = same_as(l);
    a.desc.axis = axis;
    return a;
}

std::optional<Alternative> with_arithmetic(const LayerSetup& l, Arithmetic arithmetic, bool applies) {
    if (!applies) return std::nullopt;
    Alternative a = same_as(l);
    a.arithmetic = arithmetic;
    return a;
}

const std::array<Convention, 14> kCatalog{{
    {"rounding-floor",
     "rounding_type=floor: the producer drops the last window when it does not fit (PyTorch, TensorFlow and ONNX "
     "by default)",
     [](const LayerSetup& l) { return with_rounding(l, RoundingType::floor); }},
    {"rounding-ceil",
     "rounding_type=ceil: the producer keeps a last window even when it starts in the end padding (ONNX "
     "ceil_mode=1, Caffe)",
     [](const LayerSetup& l) { return with_rounding(l, RoundingType::ceil); }},
    {"rounding-ceil-torch",
     "rounding_type=ceil_torch: the producer rounds up but drops a last window that would start in the end "
     "padding (PyTorch's ceil_mode=True)",
     [](const LayerSetup& l) { return with_rounding(l, RoundingType::ceil_torch); }},
    {"exclude-pad-true",
     "exclude-pad=true: the producer divides each window by its taps on input elements only (PyTorch "
     "count_include_pad=False, ONNX count_include_pad=0)",
     [](const LayerSetup& l) { return with_exclude_pad(l, true); }},
    {"exclude-pad-false",
     "exclude-pad=false: the producer counts the padding in every window's divisor (PyTorch "
     "count_include_pad=True, ONNX count_include_pad=1)",
     [](const LayerSetup& l) { return with_exclude_pad(l, false); }},
    {"avg-divisor-clipped",
     "exclude-pad=false semantics with the divisor clipped at the padded border (PyTorch's convention, and ONNX "
     "Runtime's from opset 19): the producer divides each window by its taps on the input and on the padding, "
     "leaving out any taps beyond the end padding",
     [](const LayerSetup& l) { return with_arithmetic(l, Arithmetic::avg_divisor_clipped, is_avg(l)); }},
    {"auto-pad-same-upper",
     "auto_pad=same_upper: the producer puts the odd padding element at the end (TensorFlow SAME, ONNX "
     "SAME_UPPER)",
     [](const LayerSetup& l) { return with_auto_pad(l, PadType::same_upper); }},
    {"auto-pad-same-lower",
     "auto_pad=same_lower: the producer puts the odd padding element at the beginning (ONNX SAME_LOWER)",
     [](const LayerSetup& l) { return with_auto_pad(l, PadType::same_lower); }},
    {"pads-swapped",
     "pads_begin and pads_end exchanged: the producer pads the other side (a same_upper / same_lower mix-up "
     "written as explicit pads)",
     [](const LayerSetup& l) { return with_swapped_pads(l); }},
    {"indices-whole-tensor",
     "MaxPool indices flattened over the whole input tensor (axis=0; ONNX MaxPool's Indices output)",
     [](const LayerSetup& l) { return with_index_axis(l, 0); }},
    {"indices-per-plane",
     "MaxPool indices flattened within each (batch, channel) plane (axis=2; PyTorch's return_indices)",
     [](const LayerSetup& l) { return with_index_axis(l, 2); }},
    {"max-pad-neg-inf",
     "MaxPool windows start at -inf instead of the element type's lowest(): a window with no input element, or "
     "only -inf ones, gives -inf (PyTorch's convention)",
     [](const LayerSetup& l) {
         return with_arithmetic(l, Arithmetic::max_neg_inf_start, is_max(l) && has_float_data(l));
     }},
    {"max-nan-propagates",
     "NaN propagation: a MaxPool window holding a NaN gives NaN (PyTorch, NumPy), where OpenVINO's reference "
     "never picks a NaN",
     [](const LayerSetup& l) {
         return with_arithmetic(l, Arithmetic::max_nan_propagates, is_max(l) && has_float_data(l));
     }},
    {"avg-f32-accumulation",
     "f16/bf16 AvgPool accumulated in f32 and rounded once (GPU and optimized CPU kernels), where OpenVINO's "
     "reference rounds the running sum to the element type after every tap",
     [](const LayerSetup& l) {
         return with_arithmetic(l, Arithmetic::avg_f32_accumulation, is_avg(l) && has_half_data(l));
     }},
}};

// The alternative explains the output when the expected tensor matches it and irlint's output does not.
bool explains(const PoolRunResult& alternative, const MismatchedOutput& o) {
    if (o.index >= alternative.outputs.size()) return false;
    const Tensor& t = alternative.outputs[o.index];
    if (!compare_tensors(t, *o.expected, o.tolerance).matches()) return false;
    return !compare_tensors(t, *o.computed, o.tolerance).matches();
}

}  // namespace

std::span<const Convention> convention_catalog() { return kCatalog; }

std::vector<std::vector<Explanation>> explain_mismatches(const LayerSetup& layer,
                                                         const std::vector<MismatchedOutput>& outputs,
                                                         const KernelOptions& options) {
    std::vector<std::vector<Explanation>> found(outputs.size());
    if (outputs.empty() || layer.input == nullptr) return found;
    for (const Convention& c : kCatalog) {
        const std::optional<Alternative> a = c.alternative(layer);
        if (!a) continue;
        const PoolRunResult result = run_pool_with(a->arithmetic, a->op, a->desc, *layer.input, options);
        if (!result.ok()) continue;
        for (size_t k = 0; k < outputs.size(); ++k)
            if (explains(result, outputs[k])) found[k].push_back({std::string(c.id), std::string(c.description)});
    }
    return found;
}

}  // namespace irlint
