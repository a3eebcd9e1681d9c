#include "rules/reshape.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

bool is_rejection(const Diagnostic& d) {
    return d.severity == Severity::error &&
           (d.rule == rule::attr_invalid.id || d.rule == rule::input_invalid.id || d.rule == rule::ir_structure.id);
}

std::string rejection_key(const Diagnostic& d, SameRejection same) {
    return d.layer.id + '\0' + d.layer.name + '\0' + (same == SameRejection::layer_and_rule ? d.rule : d.message);
}

}  // namespace

Diagnostics new_rejections(const ModelReport& before, const ModelReport& after, SameRejection same) {
    std::set<std::string> known;
    for (const Diagnostic& d : before.diagnostics)
        if (is_rejection(d)) known.insert(rejection_key(d, same));
    Diagnostics out;
    for (const Diagnostic& d : after.diagnostics) {
        if (!is_rejection(d) || known.count(rejection_key(d, same))) continue;
        Diagnostic f = d;
        f.rule = std::string(rule::reshape_incompatible.id);
        out.push_back(std::move(f));
    }
    return out;
}

namespace {

// `wide` allows every shape `narrow` allows, and more: an inference less precise than the declaration.
bool strictly_relaxes(const Shape& wide, const Shape& narrow) {
    if (wide == narrow) return false;
    if (wide.rank_dynamic) return true;
    if (narrow.rank_dynamic || wide.rank() != narrow.rank()) return false;
    for (size_t i = 0; i < wide.rank(); ++i)
        if (wide.dims[i].min() > narrow.dims[i].min() || wide.dims[i].max() < narrow.dims[i].max()) return false;
    return true;
}

// New outputs irlint cannot tell: none (an op it does not infer), a dynamic rank after a failing layer, or,
// when no input became less static, less precise than the declared ones where OpenVINO would know more (it
// tracks which dims are the same dim, irlint only their bounds). New inputs with dynamic dims make outputs
// with dynamic dims: a change, not an unknown.
bool outputs_unknown(const LayerShapes& s, bool inputs_relaxed) {
    if (s.layer->kind == LayerKind::result) return false;
    if (s.inferred.size() != s.declared.size()) return true;
    for (size_t k = 0; k < s.inferred.size(); ++k) {
        if (s.inferred[k].rank_dynamic && !s.declared[k].rank_dynamic) return true;
        if (!inputs_relaxed && strictly_relaxes(s.inferred[k], s.declared[k])) return true;
    }
    return false;
}

// Whether some new input shape allows more than the Parameter's declared one ("?" for a batch of 1).
bool relaxes_an_input(const ModelReport& before, const NewInputs& new_inputs) {
    for (const LayerShapes& s : before.layers) {
        if (s.layer->kind != LayerKind::parameter || s.graph != 0 || s.inferred.empty()) continue;
        const auto it = new_inputs.find(s.layer->name);
        if (it != new_inputs.end() && strictly_relaxes(it->second, s.inferred[0])) return true;
    }
    return false;
}

const Layer* parameter_named(const Model& model, std::string_view name) {
    for (const Layer& l : model.graphs.front().layers)
        if (l.kind == LayerKind::parameter && l.name == name) return &l;
    return nullptr;
}

std::vector<const Layer*> parameters(const Model& model) {
    std::vector<const Layer*> out;
    if (model.graphs.empty()) return out;
    for (const Layer& l : model.graphs.front().layers)
        if (l.kind == LayerKind::parameter) out.push_back(&l);
    return out;
}

// A shape as port dims: static dims as numbers, any other as -1 (the serializer's spelling).
std::vector<int64_t> port_dims(const Shape& s) {
    std::vector<int64_t> out;
    for (const Dim& d : s.dims) out.push_back(d.is_static() ? d.length() : -1);
    return out;
}

// A shape as a Parameter's shape attribute: OpenVINO's spelling of each dim ("1,3,?,16..64").
std::string shape_attribute(const Shape& s) {
    std::vector<std::string> dims;
    for (const Dim& d : s.dims) dims.push_back(d.str());
    return fmt::format("{}", fmt::join(dims, ","));
}

}  // namespace

bool outputs_change(const std::vector<Shape>& before, const std::vector<Shape>& after) {
    return after.size() == before.size() && after != before;
}

ReshapeResult reshape_model(const Model& model, const NewInputs& new_inputs) {
    ReshapeResult r;
    r.before = check_model(model);
    r.after = reinfer_model(model, new_inputs);
    r.incompatible = new_rejections(r.before, r.after, SameRejection::layer_and_message);
    const bool inputs_relaxed = relaxes_an_input(r.before, new_inputs);
    for (const LayerShapes& s : r.after.layers) {
        const bool unknown = outputs_unknown(s, inputs_relaxed);
        r.unknown_layers += unknown;
        r.changed_layers += !unknown && outputs_change(s.declared, s.inferred);
    }
    return r;
}

std::optional<NewInputs> parse_reshape_arguments(const Model& model, const std::vector<std::string>& arguments,
                                                 std::string& error) {
    std::vector<std::string> names;
    for (const Layer* p : parameters(model)) names.emplace_back(p->name);
    return parse_reshape_arguments(names, "input (Parameter)", arguments, error);
}

std::optional<NewInputs> parse_reshape_arguments(const std::vector<std::string>& input_names, std::string_view what,
                                                 const std::vector<std::string>& arguments, std::string& error) {
    NewInputs out;
    for (const std::string& a : arguments) {
        const size_t eq = a.rfind('=');
        const std::string_view dims_text = eq == std::string::npos ? std::string_view(a) : std::string_view(a).substr(eq + 1);
        std::string name;
        if (eq == std::string::npos) {
            if (input_names.size() != 1) {
                error = fmt::format("--reshape {}: the model has {} inputs; name the one to reshape (NAME=DIMS)",
                                    printable(a), input_names.size());
                return std::nullopt;
            }
            name = input_names.front();
        } else {
            name = a.substr(0, eq);
            if (std::find(input_names.begin(), input_names.end(), name) == input_names.end()) {
                std::vector<std::string> names;
                for (const std::string& n : input_names) names.push_back(printable(n));
                error = fmt::format("--reshape {}: the model has no {} named '{}'; its inputs: {}", printable(a), what,
                                    printable(name), fmt::join(names, ", "));
                return std::nullopt;
            }
        }
        std::string why;
        const auto shape = parse_shape(dims_text, &why);
        if (!shape) {
            error = fmt::format("--reshape {}: {}", printable(a), why);
            return std::nullopt;
        }
        if (!out.emplace(name, *shape).second) {
            error = fmt::format("--reshape names input '{}' twice", printable(name));
            return std::nullopt;
        }
    }
    return out;
}

std::optional<std::vector<TextEdit>> plan_reshape_edits(const Model& model, std::string_view text,
                                                        const ReshapeResult& result, const NewInputs& new_inputs,
                                                        std::string& error) {
    if (!result.incompatible.empty()) {
        error = fmt::format("{} cannot take the new shapes", counted(result.incompatible.size(), "layer"));
        return std::nullopt;
    }
    // Every output port gets its layer's new dims; the input ports its edges feed, the same.
    std::unordered_map<const Port*, std::vector<int64_t>> new_dims;
    for (const LayerShapes& s : result.after.layers) {
        if (s.graph != 0) continue;  // bodies keep their own shapes
        const Layer& l = *s.layer;
        for (size_t k = 0; k < s.inferred.size() && k < l.outputs.size(); ++k) {
            if (s.inferred[k].rank_dynamic || s.inferred[k].rank() != l.outputs[k].dims.size()) {
                error = fmt::format("layer {} '{}' ({}) output {}: the new shape {} has another rank than the "
                                    "declared {} dims, which cannot be rewritten in place",
                                    printable(l.id), printable(l.name), printable(l.type), printable(l.outputs[k].id),
                                    s.inferred[k].str(), l.outputs[k].dims.size());
                return std::nullopt;
            }
            new_dims[&l.outputs[k]] = port_dims(s.inferred[k]);
        }
    }
    const Graph& graph = model.graphs.front();
    std::unordered_map<std::string_view, const Layer*> by_id;
    for (const Layer& l : graph.layers) by_id.emplace(l.id, &l);
    std::vector<PortRewrite> ports;
    for (const auto& [port, dims] : new_dims)
        if (!std::equal(dims.begin(), dims.end(), port->dims.begin(), port->dims.end())) ports.push_back({port, dims, {}});
    for (const Edge& e : graph.edges) {
        const auto from = by_id.find(e.from_layer), to = by_id.find(e.to_layer);
        if (from == by_id.end() || to == by_id.end()) continue;
        const Port* out = from->second->find_output(e.from_port);
        const Port* in = to->second->find_input(e.to_port);
        const auto dims = out ? new_dims.find(out) : new_dims.end();
        if (!in || dims == new_dims.end() || in->dims.size() != dims->second.size()) continue;
        if (!std::equal(in->dims.begin(), in->dims.end(), dims->second.begin())) ports.push_back({in, dims->second, {}});
    }
    auto edits = plan_text_edits(model, text, ports, error);
    if (!edits) return std::nullopt;
    for (const auto& [name, shape] : new_inputs) {
        const Layer* p = parameter_named(model, name);
        const std::string_view* value = p ? p->attr("shape") : nullptr;
        if (!value) continue;
        auto edit = plan_attribute_edit(model, text, *value, shape_attribute(shape), error);
        if (!edit) return std::nullopt;
        edits->push_back(std::move(*edit));
    }
    return edits;
}

}  // namespace irlint
