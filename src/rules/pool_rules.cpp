#include "rules/pool_rules.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/pool_attrs.hpp"
#include "rules/registry.hpp"
#include "rules/structure.hpp"

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

// How the serializer writes a shape into port <dim>s: intervals lose their bounds and become -1.
Shape port_form(const Shape& s) {
    Shape out = s;
    for (Dim& d : out.dims)
        if (!d.is_static()) d = Dim::dynamic();
    return out;
}

class PoolChecker {
public:
    PoolChecker(const PoolLayerInput& in, LayerShapes& shapes, Diagnostics& out)
        : in_(in), l_(*in.layer), shapes_(shapes), out_(out) {}

    void run() {
        shapes_.status = LayerStatus::ok;
        if (!check_port_counts()) return invalid();
        const ParsedAttrs attrs = parse_pool_attrs(in_.op, l_.attrs);
        for (const AttrIssue& issue : attrs.issues)
            emit(issue.severity, rule::attr_invalid, l_.has_data ? l_.data_line : l_.line, issue.message);
        if (!attrs.usable()) return invalid();
        desc_ = attrs.desc;

        const Shape& input = in_.input_shapes[0];
        const PoolShape result = in_.op.is_adaptive()
                                     ? infer_adaptive_shape(input, in_.input_shapes[1], in_.output_size)
                                     : infer_pool_shape(in_.op, desc_, input, Formulas::skipped);
        if (result.error) {
            emit(Severity::error, rule::attr_invalid, l_.line, fmt::format("{}-{}: {}", in_.op.type_name(),
                                                                        in_.op.version, *result.error));
            return invalid();
        }
        shapes_.inferred.assign(in_.op.output_count(), result.output);
        for (size_t k = 0; k < shapes_.declared.size() && k < shapes_.inferred.size(); ++k)
            compare_output(k, result);
        check_output_types();
    }

private:
    void emit(Severity s, const Rule& rule, int line, std::string message, std::string_view port = {}) {
        out_.push_back(
            Diagnostic{s, std::string(rule.id), std::move(message), line, layer_ref(l_), {}, std::string(port)});
    }

    void invalid() {
        shapes_.status = LayerStatus::invalid;
        shapes_.inferred.clear();
    }

    std::string op_label() const { return fmt::format("{}-{}", in_.op.type_name(), in_.op.version); }

    bool check_port_counts() {
        const size_t want_in = in_.op.is_adaptive() ? 2 : 1;
        const size_t want_out = in_.op.output_count();
        if (l_.inputs.size() == want_in && l_.outputs.size() == want_out) return true;
        emit(Severity::error, rule::ir_structure, l_.line,
             fmt::format("{} has {} input{} and {} output{}; the layer declares {} and {}", op_label(), want_in,
                         want_in == 1 ? "" : "s", want_out, want_out == 1 ? "" : "s", l_.inputs.size(),
                         l_.outputs.size()));
        return false;
    }

    static std::string dim_detail(size_t i, const Dim& inferred, const Dim& declared,
                                  const std::vector<std::string>& formulas) {
        if (i < 2)
            return fmt::format("dim {} ({}): the input has {}, declared {}", i, i == 0 ? "batch" : "channels",
                               inferred.str(), declared.str());
        if (i - 2 < formulas.size()) return fmt::format("dim {}: {}, declared {}", i, formulas[i - 2], declared.str());
        return fmt::format("dim {}: {}, declared {}", i, inferred.str(), declared.str());
    }

    // The inference's arithmetic in words, worked out again only when a finding shows it.
    const std::vector<std::string>& axis_formulas(const PoolShape& result) {
        if (in_.op.is_adaptive()) return result.axis_formulas;
        if (!formulas_) formulas_ = infer_pool_shape(in_.op, desc_, in_.input_shapes[0]).axis_formulas;
        return *formulas_;
    }

    void compare_output(size_t k, const PoolShape& result) {
        const Port& port = l_.outputs[k];
        if (!port.dims_valid) return;  // the reader has reported the port
        const Shape& declared = shapes_.declared[k];
        const Shape& inferred = shapes_.inferred[k];
        const Shape written = port_form(inferred);
        if (declared == written) return;  // ports spell every dynamic dim -1
        const bool conflict = !declared.compatible(inferred);
        // Without the output_size values an adaptive pool's spatial dims are unknown, not wrong.
        if (!conflict && in_.op.is_adaptive() && !in_.output_size) return;
        std::vector<std::string> details;
        if (declared.rank() != inferred.rank()) {
            details.push_back(fmt::format("rank {}, declared {}", inferred.rank(), declared.rank()));
        } else {
            for (size_t i = 0; i < declared.rank(); ++i) {
                if (declared.dims[i] == written.dims[i]) continue;
                details.push_back(dim_detail(i, inferred.dims[i], declared.dims[i], axis_formulas(result)));
            }
        }
        std::string message = fmt::format("{} output {} is declared {}, OpenVINO infers {}: {}", op_label(), port.id,
                                          declared.str(), inferred.str(), fmt::join(details, "; "));
        if (conflict && k == 0 && !in_.op.is_adaptive()) {
            if (auto hint = shape_hint(in_.op, desc_, in_.input_shapes[0], declared))
                message += fmt::format("; {}", *hint);
        }
        if (!conflict)
            message += declared.is_static() ? " (the declared dims are more precise than the input allows)"
                                            : " (the declared dims are less precise than OpenVINO's)";
        emit(conflict ? Severity::error : Severity::warning, rule::output_shape_mismatch, port.line, message, port.id);
        if (conflict) shapes_.status = LayerStatus::mismatch;
    }

    void check_output_types() {
        const auto& input_type = in_.input_types.empty() ? std::nullopt : in_.input_types[0];
        if (!input_type || *input_type == ElementType::dynamic) return;
        const auto types = pool_output_types(in_.op, desc_, *input_type);
        shapes_.inferred_types.assign(types.begin(), types.end());
        for (size_t k = 0; k < types.size() && k < l_.outputs.size(); ++k) {
            const Port& port = l_.outputs[k];
            if (!port.precision || *port.precision == types[k] || *port.precision == ElementType::dynamic) continue;
            const bool is_index = k == 1;
            std::string message = fmt::format(
                "{} output {} ({}) is declared {}, OpenVINO gives {}{}", op_label(), port.id,
                is_index ? "indices" : "values", element_type_name(*port.precision), element_type_name(types[k]),
                is_index ? fmt::format(" (index_element_type={})", element_type_name(types[k]))
                         : " (the input element type)");
            // OpenVINO builds each op from its inputs and attributes and never reads an output port's
            // precision back: a port no edge takes is stale metadata, not a different computation.
            const bool consumed = k >= in_.outputs_consumed.size() || in_.outputs_consumed[k];
            if (consumed) {
                emit(Severity::error, rule::output_type_mismatch, port.line, message, port.id);
                if (shapes_.status == LayerStatus::ok) shapes_.status = LayerStatus::mismatch;
                continue;
            }
            message += fmt::format("; nothing consumes this port and OpenVINO does not check a declared output "
                                   "precision, so the model loads and runs with {} here{}",
                                   element_type_name(types[k]), producer_note(is_index));
            emit(Severity::warning, rule::output_type_mismatch, port.line, message, port.id);
        }
    }

    // Who wrote the stale precision, when the file says. Model Optimizer's Python graph (which POT also
    // saves through) gives each output of an op without a type rule of its own the first input's type.
    std::string producer_note(bool is_index) const {
        if (!in_.producer || !in_.producer->known()) return "";
        const Producer& p = *in_.producer;
        const bool python_graph = p.legacy_model_optimizer() || p.quantized_by == "POT";
        return fmt::format(" (written by {}, per its <{}>{})", p.describe(), p.section,
                           is_index && python_graph ? "; Model Optimizer's Python graph, which POT saves through, "
                                                      "gives an unconnected indices port the input's type"
                                                    : "");
    }

    const PoolLayerInput& in_;
    const Layer& l_;
    LayerShapes& shapes_;
    Diagnostics& out_;
    PoolingDesc desc_;
    std::optional<std::vector<std::string>> formulas_;  // axis_formulas(), once asked for
};

}  // namespace

void check_pool_layer(const PoolLayerInput& in, LayerShapes& shapes, Diagnostics& out) {
    PoolChecker(in, shapes, out).run();
}

}  // namespace irlint
