#include "rules/op_rules.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

class OpChecker {
public:
    OpChecker(const OpLayerInput& in, LayerShapes& shapes, Diagnostics& out)
        : in_(in), l_(*in.layer), shapes_(shapes), out_(out) {}

    std::vector<OutputValues> run() {
        shapes_.status = LayerStatus::ok;
        OpContext ctx(l_, in_.entry->version, in_.inputs, in_.values, in_.reals);
        ctx.set_model(in_.model);
        ctx.set_body_reinferrer(in_.bodies);
        std::vector<OpOutput> outputs;
        in_.entry->infer(ctx, outputs);
        report_warnings(ctx);
        if (ctx.failed()) {
            report_problems(ctx);
            shapes_.status = LayerStatus::invalid;
            return {};
        }
        if (!check_output_count(outputs)) return {};
        std::vector<OutputValues> values;  // left empty when no output has values
        shapes_.inferred.reserve(outputs.size());
        shapes_.inferred_types.reserve(outputs.size());
        for (size_t k = 0; k < outputs.size(); ++k) {
            shapes_.inferred.push_back(std::move(outputs[k].shape));
            shapes_.inferred_types.push_back(outputs[k].type);
            if (!outputs[k].value && outputs[k].reals.empty()) continue;
            values.resize(outputs.size());
            values[k] = {std::move(outputs[k].value), std::move(outputs[k].reals)};
        }
        if (!in_.compare_declared) {
            shapes_.checked = !ctx.unknown_reason();
            shapes_.not_checked = ctx.unknown_reason();
            return values;
        }
        if (any_conflict()) outputs = explained_outputs(outputs);
        values_known_ = !ctx.unknown_reason();
        for (size_t k = 0; k < outputs.size(); ++k) {
            compare_shape(k, outputs[k]);
            compare_type(k, outputs[k]);
        }
        shapes_.not_checked = ctx.unknown_reason();
        shapes_.checked = !shapes_.not_checked;
        if (shapes_.not_checked && check_invariants(ctx)) {
            shapes_.not_checked.reset();
            shapes_.checked_by_invariants = true;
        }
        return values;
    }

private:
    bool any_conflict() const {
        for (size_t k = 0; k < shapes_.inferred.size(); ++k)
            if (l_.outputs[k].dims_valid && !shapes_.declared[k].compatible(shapes_.inferred[k])) return true;
        return false;
    }

    // The op run again, wording its arithmetic for the finding's message.
    std::vector<OpOutput> explained_outputs(std::vector<OpOutput>& first) {
        OpContext ctx(l_, in_.entry->version, in_.inputs, in_.values, in_.reals);
        ctx.set_model(in_.model);
        ctx.set_explain(true);
        std::vector<OpOutput> outputs;
        in_.entry->infer(ctx, outputs);
        if (ctx.failed() || outputs.size() < first.size()) return std::move(first);
        outputs.resize(first.size());
        return outputs;
    }

    // A layer whose values are unknown is checked by the invariants its op states, when it states any and
    // every declared port was read: the first one its declared outputs break is the finding.
    bool check_invariants(const OpContext& ctx) {
        if (ctx.invariants().empty()) return false;
        for (const Port& port : l_.outputs)
            if (!port.dims_valid) return false;
        if (shapes_.status != LayerStatus::ok) return true;  // the inferred dims conflict already
        for (const Invariant& invariant : ctx.invariants()) {
            auto violation = invariant(shapes_.declared);
            if (!violation || violation->output >= l_.outputs.size()) continue;
            const Port& port = l_.outputs[violation->output];
            emit(Severity::error, rule::output_shape_mismatch, port.line,
                 fmt::format("{} output {}: {} ({})", op_label(), port_label(violation->output, port),
                             violation->message, *ctx.unknown_reason()),
                 port.id);
            shapes_.status = LayerStatus::mismatch;
            break;
        }
        return true;
    }

    std::string op_label() const { return fmt::format("{}-{}", in_.entry->type, in_.entry->version); }
    bool onnx() const { return in_.entry->format == OpFormat::onnx; }
    // Whose inference the declared ports are held to.
    std::string_view inferrer() const { return onnx() ? "ONNX" : "OpenVINO"; }

    void emit(Severity s, const Rule& rule, int line, std::string message, std::string_view port = {}) {
        out_.push_back(Diagnostic{s, std::string(rule.id), std::move(message), line, layer_ref(l_), {}, std::string(port)});
    }

    void report_warnings(const OpContext& ctx) {
        for (const std::string& w : ctx.warnings())
            emit(Severity::warning, rule::attr_invalid, l_.has_data ? l_.data_line : l_.line, w);
    }

    void report_problems(const OpContext& ctx) {
        for (const OpProblem& p : ctx.problems()) {
            const bool attribute = p.kind == OpProblem::Kind::attribute;
            emit(Severity::error, attribute ? rule::attr_invalid : rule::input_invalid,
                 attribute && l_.has_data ? l_.data_line : l_.line, fmt::format("{}: {}", op_label(), p.message));
        }
    }

    // OpenVINO's op has as many outputs as its inference gives. A layer may declare fewer (the serializer
    // leaves out Assign's, which nothing can take), but a port beyond the op's outputs is rejected when the
    // IR is read.
    bool check_output_count(std::vector<OpOutput>& outputs) {
        if (outputs.size() >= l_.outputs.size()) {
            outputs.resize(l_.outputs.size());
            return true;
        }
        emit(Severity::error, rule::ir_structure, l_.line,
             fmt::format("{} has {} output{}; the layer declares {}", op_label(), outputs.size(),
                         outputs.size() == 1 ? "" : "s", l_.outputs.size()));
        shapes_.status = LayerStatus::invalid;
        shapes_.inferred.clear();
        return false;
    }

    // An IR output by its port id; an ONNX output by its index and value name: "0 'logits'".
    std::string port_label(size_t k, const Port& port) const {
        if (!onnx()) return std::string(port.id);
        return fmt::format("{} '{}'", k, excerpt(port.names));
    }

    static std::string dim_detail(size_t i, const Dim& inferred, const Dim& declared, const OpOutput& o) {
        if (i < o.dim_notes.size() && !o.dim_notes[i].empty())
            return fmt::format("dim {}: {}, declared {}", i, o.dim_notes[i], declared.str());
        return fmt::format("dim {}: {}, declared {}", i, inferred.str(), declared.str());
    }

    // Only a conflict is a finding: the declared dims are OpenVINO's own inference in a file it wrote, and
    // where irlint's is less precise (a value it could not know) the two are merely compatible. A declared
    // dynamic dim that OpenVINO infers as static is stale but harmless: OpenVINO replaces it on load.
    void compare_shape(size_t k, const OpOutput& o) {
        const Port& port = l_.outputs[k];
        if (!port.dims_valid) return;  // the reader has reported the port
        const Shape& declared = shapes_.declared[k];
        const Shape& inferred = shapes_.inferred[k];
        if (declared.compatible(inferred)) return compare_written_form(k, o);
        std::vector<std::string> details;
        if (declared.rank() != inferred.rank()) {
            details.push_back(fmt::format("rank {}, declared {}", inferred.rank(), declared.rank()));
        } else {
            for (size_t i = 0; i < declared.rank(); ++i)
                if (!declared.dims[i].compatible(inferred.dims[i]))
                    details.push_back(dim_detail(i, inferred.dims[i], declared.dims[i], o));
        }
        std::string message = fmt::format("{} output {} is declared {}, {} infers {}: {}", op_label(),
                                          port_label(k, port), declared.str(), inferrer(), inferred.str(),
                                          fmt::join(details, "; "));
        if (const auto hint = shape_hint(k, declared)) message += fmt::format("; {}", *hint);
        const bool absorbed = declaration_absorbed(k);
        if (absorbed)
            message += "; the value is no output of the graph, and ONNX Runtime drops the declaration (value_info) "
                       "for the inferred dims";
        emit(absorbed ? Severity::warning : Severity::error, rule::output_shape_mismatch, port.line, message, port.id);
        shapes_.status = LayerStatus::mismatch;
    }

    // An ONNX value that no edge takes to a Result: ONNX Runtime merges a declaration its inference contradicts
    // leniently (a warning in its log) and computes what it infers; a model output's declared dims, which its
    // users read, stay an error.
    bool declaration_absorbed(size_t k) const {
        return in_.entry->format == OpFormat::onnx && k < in_.outputs_to_result.size() && !in_.outputs_to_result[k];
    }

    // The family's hint for a conflict: the change of the layer that gives the declared dims.
    std::optional<std::string> shape_hint(size_t k, const Shape& declared) const {
        const OpFindingSteps* steps = in_.entry->steps;
        if (!steps || !steps->shape_hint) return std::nullopt;
        OpContext ctx(l_, in_.entry->version, in_.inputs, in_.values, in_.reals);
        ctx.set_model(in_.model);
        return steps->shape_hint(ctx, k, declared);
    }

    // How the serializer writes a shape into port <dim>s: intervals lose their bounds and become -1.
    static Shape port_form(const Shape& s) {
        Shape out = s;
        for (Dim& d : out.dims)
            if (!d.is_static()) d = Dim::dynamic();
        return out;
    }

    // Where the op's inference is exact (OpFindingSteps::exact) and its values known, a declared port that
    // agrees with it but is written otherwise is stale: more precise than the input allows, or less precise
    // than OpenVINO writes it.
    void compare_written_form(size_t k, const OpOutput& o) {
        if (!in_.entry->steps || !in_.entry->steps->exact || !values_known_) return;
        const Port& port = l_.outputs[k];
        const Shape& declared = shapes_.declared[k];
        const Shape& inferred = shapes_.inferred[k];
        const Shape written = port_form(inferred);
        if (declared == written || declared.rank() != inferred.rank()) return;
        std::vector<std::string> details;
        for (size_t i = 0; i < declared.rank(); ++i)
            if (!(declared.dims[i] == written.dims[i])) details.push_back(dim_detail(i, inferred.dims[i], declared.dims[i], o));
        emit(Severity::warning, rule::output_shape_mismatch, port.line,
             fmt::format("{} output {} is declared {}, {} infers {}: {}{}", op_label(), port_label(k, port),
                         declared.str(), inferrer(), inferred.str(), fmt::join(details, "; "),
                         declared.is_static() ? " (the declared dims are more precise than the input allows)"
                                              : " (the declared dims are less precise than OpenVINO's)"),
             port.id);
    }

    void compare_type(size_t k, const OpOutput& o) {
        const Port& port = l_.outputs[k];
        if (!o.type || *o.type == ElementType::dynamic || !port.precision || *port.precision == ElementType::dynamic ||
            *port.precision == *o.type)
            return;
        const bool legacy_output = k < in_.outputs_legacy_f32.size() && in_.outputs_legacy_f32[k];
        if (legacy_output && *port.precision == ElementType::f32 && (*o.type == ElementType::f16 || *o.type == ElementType::bf16))
            return;
        const OpFindingSteps::TypeWords words = type_words(k, *o.type);
        std::string message = fmt::format("{} output {}{} is declared {}, {} gives {}{}", op_label(), port_label(k, port),
                                          words.role.empty() ? "" : fmt::format(" ({})", words.role),
                                          element_type_name(*port.precision), inferrer(), element_type_name(*o.type),
                                          words.reason.empty() ? "" : fmt::format(" ({})", words.reason));
        // ONNX Runtime's own type inference refuses a value declared with another type.
        if (onnx()) {
            emit(Severity::error, rule::output_type_mismatch, port.line, message, port.id);
            if (shapes_.status == LayerStatus::ok) shapes_.status = LayerStatus::mismatch;
            return;
        }
        // OpenVINO never reads an output port's precision back: on a port no edge takes it is stale metadata.
        const bool consumed = k >= in_.outputs_consumed.size() || in_.outputs_consumed[k];
        if (!consumed) {
            message += fmt::format("; nothing consumes this port and OpenVINO does not check a declared output "
                                   "precision, so the model loads and runs with {} here{}",
                                   element_type_name(*o.type), producer_note(words.legacy_writer));
            emit(Severity::warning, rule::output_type_mismatch, port.line, message, port.id);
            return;
        }
        emit(Severity::error, rule::output_type_mismatch, port.line, message, port.id);
        if (shapes_.status == LayerStatus::ok) shapes_.status = LayerStatus::mismatch;
    }

    OpFindingSteps::TypeWords type_words(size_t k, ElementType inferred) const {
        const OpFindingSteps* steps = in_.entry->steps;
        if (!steps || !steps->type_words) return {};
        OpContext ctx(l_, in_.entry->version, in_.inputs, in_.values, in_.reals);
        ctx.set_model(in_.model);
        return steps->type_words(ctx, k, inferred);
    }

    // Who wrote a stale precision, when the file says; with what a legacy writer is known to do with such a
    // port (Model Optimizer's Python graph, which POT also saves through).
    std::string producer_note(const std::string& legacy_writer) const {
        if (!in_.model || !in_.model->producer.known()) return "";
        const Producer& p = in_.model->producer;
        const bool python_graph = p.legacy_model_optimizer() || p.quantized_by == "POT";
        return fmt::format(" (written by {}, per its <{}>{})", p.describe(), p.section,
                           python_graph && !legacy_writer.empty() ? "; " + legacy_writer : "");
    }

    const OpLayerInput& in_;
    const Layer& l_;
    bool values_known_ = true;
    LayerShapes& shapes_;
    Diagnostics& out_;
};

}  // namespace

std::vector<OutputValues> check_op_layer(const OpLayerInput& in, LayerShapes& shapes, Diagnostics& out) {
    return OpChecker(in, shapes, out).run();
}

}  // namespace irlint
