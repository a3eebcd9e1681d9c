#include "rules/fixes.hpp"

#include <algorithm>
#include <string_view>

#include "rules/pool_attrs.hpp"
#include "rules/pool_rules.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

const Diagnostic* reported_finding(const Diagnostics& findings, const Rule& rule, const Layer& layer,
                                   std::string_view port) {
    const auto it = std::find_if(findings.begin(), findings.end(), [&](const Diagnostic& d) {
        return d.rule == rule.id && d.port == port && d.layer.id == layer.id && d.layer.name == layer.name &&
               d.layer.type == layer.type;
    });
    return it == findings.end() ? nullptr : &*it;
}

bool reported(const Diagnostics& findings, const Rule& rule, const Layer& layer, std::string_view port) {
    return reported_finding(findings, rule, layer, port) != nullptr;
}

// A finding whose inferred dims a layer downstream takes and gives its declared outputs anyway: OpenVINO
// runs the model with them, so they are safe to write even where the rank differs.
bool absorbed(const Diagnostic* finding) {
    return finding && finding->consequence && finding->consequence->kind == Consequence::Kind::absorbed;
}

// The inferred dims of another rank, for an absorbed finding: each static dim as it is, the others -1.
std::optional<std::vector<int64_t>> dims_of_other_rank(const Shape& inferred, const Port& port) {
    if (!port.dims_valid || inferred.rank_dynamic || inferred.rank() == port.dims.size()) return std::nullopt;
    std::vector<int64_t> dims;
    for (const Dim& d : inferred.dims) dims.push_back(d.is_static() ? d.length() : -1);
    return dims;
}

// The port's dims with every dim that inference makes static and that the port declares otherwise set to the
// inferred value. A dim inference leaves dynamic: -1 where the port's value conflicts with it, or, for a pooling
// layer, whose rule wants the serializer's spelling of every dynamic dim (`written_form`), anywhere; else the
// port's value stays (a registry op's inference can be less precise than the file, a value it could not read).
// nullopt when the rank differs or nothing changes.
std::optional<std::vector<int64_t>> fixed_dims(const Shape& inferred, const Port& port, bool written_form) {
    if (!port.dims_valid || inferred.rank_dynamic || inferred.rank() != port.dims.size()) return std::nullopt;
    std::vector<int64_t> dims(port.dims.begin(), port.dims.end());
    for (size_t i = 0; i < dims.size(); ++i) {
        const Dim& d = inferred.dims[i];
        const Dim declared = dims[i] < 0 ? Dim::dynamic() : Dim(dims[i]);
        if (d.is_static()) dims[i] = d.length();
        else if (written_form || !d.compatible(declared)) dims[i] = -1;
    }
    if (std::equal(dims.begin(), dims.end(), port.dims.begin(), port.dims.end())) return std::nullopt;
    return dims;
}

// The output element types OpenVINO gives the layer, when its input types and attributes are known.
std::vector<std::optional<ElementType>> output_types(const LayerShapes& s) {
    if (s.op) return s.inferred_types;
    if (!s.pool_op || s.input_types.empty() || !s.input_types[0] || *s.input_types[0] == ElementType::dynamic) return {};
    const ParsedAttrs attrs = parse_pool_attrs(*s.pool_op, s.layer->attrs);
    if (!attrs.usable()) return {};
    const auto types = pool_output_types(*s.pool_op, attrs.desc, *s.input_types[0]);
    return {types.begin(), types.end()};
}

const Port* input_port(const Graph& graph, std::string_view layer_id, std::string_view port_id,
                       const Layer** layer) {
    for (const Layer& l : graph.layers)
        if (l.id == layer_id) {
            *layer = &l;
            return l.find_input(port_id);
        }
    return nullptr;
}

// The same values on every input port an edge from `output` of `layer` feeds, where they differ.
void fix_consumers(const Graph& graph, const Layer& layer, const PortFix& output, FixPlan& plan) {
    for (const Edge& e : graph.edges) {
        if (e.from_layer != layer.id || e.from_port != output.port->id) continue;
        const Layer* consumer = nullptr;
        const Port* in = input_port(graph, e.to_layer, e.to_port, &consumer);
        if (!in) continue;
        PortFix fix{in, consumer, std::nullopt, std::nullopt};
        // A port of another rank is rewritten where it repeats the producer's old dims.
        const bool same_rank = output.dims && in->dims.size() == output.dims->size();
        const bool repeats_producer = std::equal(in->dims.begin(), in->dims.end(), output.port->dims.begin(),
                                                 output.port->dims.end());
        if (output.dims && in->dims_valid && (same_rank || repeats_producer) &&
            !std::equal(in->dims.begin(), in->dims.end(), output.dims->begin(), output.dims->end()))
            fix.dims = output.dims;
        if (output.precision && in->precision && *in->precision != *output.precision) fix.precision = output.precision;
        if (fix.dims || fix.precision) plan.ports.push_back(std::move(fix));
    }
}

bool type_reported(const Layer& layer, const Diagnostics& findings) {
    return std::any_of(layer.outputs.begin(), layer.outputs.end(),
                       [&](const Port& p) { return reported(findings, rule::output_type_mismatch, layer, p.id); });
}

// A layer's outputs often take the element type its producer's output port declares. Where the run reports
// that declaration stale, this fix rewrites it, and a type inferred from it is no safe fix: the next run infers
// it from the new one.
bool input_type_is_stale(const Graph& graph, const Layer& layer, const Diagnostics& findings) {
    if (layer.inputs.empty()) return false;
    for (const Edge& e : graph.edges) {
        if (e.to_layer != layer.id || e.to_port != layer.inputs[0].id) continue;
        for (const Layer& producer : graph.layers)
            if (producer.id == e.from_layer && reported(findings, rule::output_type_mismatch, producer, e.from_port))
                return true;
    }
    return false;
}

void plan_layer(const Model& model, const LayerShapes& s, const Diagnostics& findings, FixPlan& plan) {
    const Layer& layer = *s.layer;
    const Graph& graph = model.graphs[s.graph];
    const bool types_known = type_reported(layer, findings) && !input_type_is_stale(graph, layer, findings);
    const auto types = types_known ? output_types(s) : std::vector<std::optional<ElementType>>{};
    for (size_t k = 0; k < layer.outputs.size(); ++k) {
        const Port& port = layer.outputs[k];
        PortFix fix{&port, &layer, std::nullopt, std::nullopt};
        const Diagnostic* shape_finding = reported_finding(findings, rule::output_shape_mismatch, layer, port.id);
        if (k < s.inferred.size() && shape_finding) {
            fix.dims = fixed_dims(s.inferred[k], port, s.pool_op.has_value());
            if (!fix.dims && absorbed(shape_finding)) fix.dims = dims_of_other_rank(s.inferred[k], port);
        }
        if (k < types.size() && types[k] && port.precision && *port.precision != *types[k] &&
            reported(findings, rule::output_type_mismatch, layer, port.id))
            fix.precision = types[k];
        if (!fix.dims && !fix.precision) continue;
        plan.findings += (fix.dims ? 1 : 0) + (fix.precision ? 1 : 0);
        fix_consumers(graph, layer, fix, plan);
        plan.ports.push_back(std::move(fix));
    }
}

}  // namespace

FixPlan plan_fixes(const Model& model, const ModelReport& report, const Diagnostics& reported_findings) {
    FixPlan plan;
    for (const LayerShapes& s : report.layers)
        if ((s.pool_op || s.op) && !s.inferred.empty() && s.status != LayerStatus::invalid)
            plan_layer(model, s, reported_findings, plan);
    return plan;
}

bool blocks_fixing(const Diagnostics& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
        return d.severity == Severity::error && (d.rule == rule::xml_malformed.id || d.rule == rule::ir_structure.id);
    });
}

}  // namespace irlint
