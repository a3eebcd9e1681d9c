#include "rules/pool_rules.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/pool_attrs.hpp"

namespace irlint {

std::vector<ElementType> pool_output_types(const PoolOp& op, const PoolingDesc& desc, ElementType input_type) {
    if (op.has_index_output()) return {input_type, desc.index_type};
    return {input_type};
}

namespace {

// The search tries values up to about twice the current one, a hint being for a slip of a few units;
// past this current value the range stops growing, or a stride of 10^12 would mean 10^12 trials.
constexpr int64_t kMaxSearchFrom = 1024;

struct Candidate {
    std::string label;
    PoolingDesc desc;
};

bool matches_declared(const PoolOp& op, const PoolingDesc& d, const Shape& input, const Shape& declared) {
    const PoolShape s = infer_pool_shape(op, d, input);
    return !s.error && s.output == declared;
}

// Per-axis search of one list attribute: the smallest value at each mismatching axis that gives the
// declared length, other axes unchanged.
std::optional<Candidate> search_list(const PoolOp& op, const PoolingDesc& base, const Shape& input,
                                     const Shape& declared, const char* name, std::vector<int64_t> PoolingDesc::*field,
                                     int64_t lo, int64_t fill) {
    PoolingDesc d = base;
    const size_t n = d.kernel.size();
    auto& list = d.*field;
    if (list.empty()) list.assign(n, fill);
    if (list.size() != n) return std::nullopt;
    const PoolShape now = infer_pool_shape(op, base, input);
    if (now.error || now.output.rank() != declared.rank()) return std::nullopt;
    for (size_t i = 0; i < n; ++i) {
        if (now.output.dims[i + 2] == declared.dims[i + 2]) continue;
        bool found = false;
        const int64_t hi = std::max<int64_t>(16, 2 * std::clamp<int64_t>(list[i], 0, kMaxSearchFrom) + 8);
        for (int64_t v = lo; v <= hi && !found; ++v) {
            PoolingDesc trial = d;
            (trial.*field)[i] = v;
            const PoolShape s = infer_pool_shape(op, trial, input);
            if (!s.error && s.output.dims[i + 2] == declared.dims[i + 2]) {
                list[i] = v;
                found = true;
            }
        }
        if (!found) return std::nullopt;
    }
    if (!matches_declared(op, d, input, declared)) return std::nullopt;
    return Candidate{fmt::format("{}={}", name, join_ints(list)), d};
}

}  // namespace

std::optional<std::string> suggest_attribute_change(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                                    const Shape& declared) {
    if (!input.is_static() || !declared.is_static() || declared.rank() != input.rank()) return std::nullopt;
    for (RoundingType r : {RoundingType::floor, RoundingType::ceil, RoundingType::ceil_torch}) {
        if (r == desc.rounding || (r == RoundingType::ceil_torch && !op.has_ceil_torch())) continue;
        PoolingDesc d = desc;
        d.rounding = r;
        if (matches_declared(op, d, input, declared)) return fmt::format("rounding_type={}", rounding_type_name(r));
    }
    for (PadType p : {PadType::explicit_pads, PadType::same_upper, PadType::same_lower, PadType::valid}) {
        if (p == desc.auto_pad) continue;
        PoolingDesc d = desc;
        d.auto_pad = p;
        if (matches_declared(op, d, input, declared)) return fmt::format("auto_pad={}", pad_type_name(p));
    }
    if (desc.auto_pad == PadType::explicit_pads) {
        if (auto c = search_list(op, desc, input, declared, "pads_end", &PoolingDesc::pads_end, 0, 0)) return c->label;
        if (auto c = search_list(op, desc, input, declared, "pads_begin", &PoolingDesc::pads_begin, 0, 0))
            return c->label;
    }
    if (auto c = search_list(op, desc, input, declared, "strides", &PoolingDesc::strides, 1, 1)) return c->label;
    if (auto c = search_list(op, desc, input, declared, "kernel", &PoolingDesc::kernel, 1, 1)) return c->label;
    if (op.has_dilations())
        if (auto c = search_list(op, desc, input, declared, "dilations", &PoolingDesc::dilations, 1, 1))
            return c->label;
    return std::nullopt;
}

namespace {

// Attribute values that are another framework's convention, named in the hint so that whoever converted the
// model recognises where the declared dims came from.
constexpr std::pair<std::string_view, std::string_view> kConventionNames[] = {
    {"rounding_type=ceil_torch", "PyTorch's ceil_mode=True"},
    {"auto_pad=same_upper", "TensorFlow's SAME padding, ONNX's SAME_UPPER"},
    {"auto_pad=same_lower", "ONNX's SAME_LOWER"},
    {"auto_pad=valid", "TensorFlow's and ONNX's VALID"},
};

}  // namespace

std::string convention_note(std::string_view change) {
    for (const auto& [value, name] : kConventionNames)
        if (value == change) return fmt::format(" ({})", name);
    return "";
}

std::optional<std::string> suggest_convention(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                              const Shape& declared) {
    if (!input.is_static() || !declared.is_static() || op.is_adaptive() || op.has_ceil_torch()) return std::nullopt;
    PoolOp newer = op;
    newer.version = 14;
    PoolingDesc d = desc;
    d.rounding = RoundingType::ceil_torch;
    if (!matches_declared(newer, d, input, declared)) return std::nullopt;
    return fmt::format("rounding_type=ceil_torch{} would give the declared dims; it needs {}-14 (opset14 and later)",
                       convention_note("rounding_type=ceil_torch"), op.type_name());
}

namespace {

// A rounding or padding mode is a framework's convention and the likelier slip, so it is named first; a
// convention only a newer op version has comes before a changed pad, stride or kernel value.
std::optional<std::string> shape_hint(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                      const Shape& declared) {
    const auto fix = suggest_attribute_change(op, desc, input, declared);
    const bool mode = fix && (fix->starts_with("rounding_type=") || fix->starts_with("auto_pad="));
    if (mode) return fmt::format("{} gives the declared dims{}", *fix, convention_note(*fix));
    if (auto convention = suggest_convention(op, desc, input, declared)) return convention;
    if (fix) return fmt::format("{} gives the declared dims", *fix);
    return std::nullopt;
}

}  // namespace

std::optional<std::string> pool_shape_hint(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                           const Shape& declared) {
    return shape_hint(op, desc, input, declared);
}

}  // namespace irlint
