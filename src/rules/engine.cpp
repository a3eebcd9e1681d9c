#include "rules/engine.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "core/deadline.hpp"
#include "core/text.hpp"
#include "ir/const_data.hpp"
#include "rules/consequence.hpp"
#include "rules/op_rules.hpp"
#include "rules/registry.hpp"
#include "rules/structure.hpp"

namespace irlint {

std::string_view layer_status_name(LayerStatus s) {
    switch (s) {
        case LayerStatus::ok: return "ok";
        case LayerStatus::mismatch: return "mismatch";
        case LayerStatus::invalid: return "invalid";
        case LayerStatus::unsupported: return "unsupported";
    }
    return "unsupported";
}

std::string_view layer_status_name(const LayerShapes& row) {
    if (row.status == LayerStatus::ok && row.checked_by_invariants) return "invariants";
    return layer_status_name(row.status);
}

namespace {

// Parameter, Const, Result, the pooling types and the registry's ops have rules; every other layer is only
// counted.
bool has_rules(const Layer& l) { return l.kind != LayerKind::other || op_type_known(l.type); }

// Why the values a layer needed are unknown ("Const data not available: ..."), said once per op type in its
// values-unknown note.
constexpr size_t kMaxValueUnknownCauses = 3;

// The layers of one op type whose dims depend on values irlint does not know: its values-unknown note.
struct ValuesUnknown {
    size_t count = 0, by_invariants = 0;
    const Layer* example = nullptr;  // the first such layer in the file
    std::string example_reason;
    std::vector<std::string> causes;  // why the values are unknown, each once
    size_t more_causes = 0;
};

class ModelChecker {
public:
    ModelChecker(const Model& model, LayerRows rows, ModelReport& report,
                 const std::map<std::string, Shape, std::less<>>* new_inputs = nullptr)
        : model_(model), rows_(rows), r_(report), new_inputs_(new_inputs) {}

    void run() {
        // An ONNX body (If, Loop, Scan, a function) is inferred from its node's inputs, when the node is.
        const size_t graphs = onnx() ? std::min<size_t>(model_.graphs.size(), 1) : model_.graphs.size();
        for (size_t g = 0; g < graphs; ++g) check_graph(g);
        report_unsupported();
        report_values_unknown();
        report_missing_bin();
        std::stable_sort(r_.diagnostics.begin(), r_.diagnostics.end(),
                         [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    }

private:
    // What an output port carries to its consumers. The shape is the LayerShapes' own (declared, or inferred
    // once known), not a copy: a large model has one per port. A layer without rows has none until a
    // consumer asks (shape_of).
    struct Produced {
        const Port* port;
        const Shape* shape;
        std::optional<ElementType> type;
        bool consumed = false;  // some edge takes it
        bool to_results_only = true;  // no edge takes it to a layer other than a Result
        bool to_result = false;       // some edge takes it to a Result: it is an output of its graph
    };

    // The values an output port carries, where some op may need them (a Const's integers, a ShapeOf's dims,
    // what arithmetic on them gives): filled when the producer runs, or on demand for a Const.
    struct ValueSlot {
        // dropped: computed, but past the budget of values a check holds (kMaxHeldValues)
        enum class State : uint8_t { unset, known, unknown, dropped } state = State::unset;
        TensorValue value;
    };

    void emit(Severity s, const Rule& rule, int line, std::string message, const Layer* layer = nullptr) {
        r_.diagnostics.push_back(
            Diagnostic{s, std::string(rule.id), std::move(message), line, layer ? layer_ref(*layer) : LayerRef{}});
    }

    static std::vector<Shape> port_shapes(std::span<const Port> ports) {
        std::vector<Shape> out;
        out.reserve(ports.size());
        for (const Port& p : ports) out.push_back(declared_shape(p));
        return out;
    }

    bool has_row(const Layer& l) const { return rows_ == LayerRows::all || has_rules(l); }

    // The outputs of layer i: produced_[first_output_[i] .. first_output_[i + 1]).
    Produced& produced(size_t layer, size_t port) { return produced_[first_output_[layer] + port]; }

    const Shape& shape_of(Produced& p) {
        if (!p.shape) p.shape = &unrowed_shapes_.emplace_back(declared_shape(*p.port));
        return *p.shape;
    }

    void check_graph(size_t g) {
        const Graph& graph = model_.graphs[g];
        const size_t first_finding = r_.diagnostics.size();
        const GraphIndex index = check_structure(graph, r_.diagnostics, model_.format);
        constexpr size_t kNoRow = static_cast<size_t>(-1);
        std::vector<LayerShapes> rows;  // the layers that have one, in file order
        std::vector<size_t> row_of(graph.layers.size(), kNoRow);
        produced_.clear();
        value_by_name_.clear();
        values_.clear();
        reals_.clear();
        first_output_.assign(1, 0);
        rows.reserve(graph.layers.size());
        first_output_.reserve(graph.layers.size() + 1);
        produced_.reserve(graph.layers.size());
        for (size_t i = 0; i < graph.layers.size(); ++i) {
            const Layer& l = graph.layers[i];
            const Shape* declared = nullptr;  // of the first output; the others follow it
            if (has_row(l)) {
                row_of[i] = rows.size();
                LayerShapes& row = rows.emplace_back();
                row.layer = &l;
                row.graph = g;
                row.declared = port_shapes(l.outputs);
                declared = row.declared.data();  // the vector's buffer: it stays when `rows` grows
            }
            for (size_t k = 0; k < l.outputs.size(); ++k)
                produced_.push_back({&l.outputs[k], declared ? declared + k : nullptr, l.outputs[k].precision});
            first_output_.push_back(produced_.size());
        }
        values_.resize(produced_.size());
        for (const auto& inputs : index.producer_of)
            for (const auto& src : inputs)
                if (src) produced(src->layer, src->port).consumed = true;
        for (size_t i = 0; i < index.producer_of.size(); ++i)
            for (const auto& src : index.producer_of[i])
                if (src) {
                    const bool result = graph.layers[i].kind == LayerKind::result;
                    produced(src->layer, src->port).to_results_only &= result;
                    produced(src->layer, src->port).to_result |= result;
                }
        for (size_t i : index.topo_order) {
            if (row_of[i] != kNoRow) {
                check_layer(graph, index, i, rows[row_of[i]]);
                if (reinferring()) pass_on_unknown_outputs(i, rows[row_of[i]]);
            }
            else if (opset_named(graph.layers[i]))
                ++unsupported_[graph.layers[i].type];
        }
        if (g == 0 && !onnx() && !reinferring()) add_graph_consequences(graph, index, rows, row_of, first_finding);
        for (size_t i : index.cyclic)
            if (row_of[i] != kNoRow && rows[row_of[i]].status != LayerStatus::mismatch) {
                rows[row_of[i]].status = LayerStatus::invalid;
                rows[row_of[i]].checked = false;
                rows[row_of[i]].checked_by_invariants = false;
            }
        for (const LayerShapes& row : rows) {
            r_.checked += row.checked;
            r_.checked_by_invariants += row.checked_by_invariants;
        }
        if (r_.layers.empty())
            r_.layers = std::move(rows);
        else
            r_.layers.insert(r_.layers.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
    }

    // What each shape or type mismatch of the model's own graph changes downstream (rules/consequence.hpp).
    void add_graph_consequences(const Graph& graph, const GraphIndex& index, const std::vector<LayerShapes>& rows,
                                const std::vector<size_t>& row_of, size_t first_finding) {
        const std::span<Diagnostic> findings(r_.diagnostics.begin() + static_cast<std::ptrdiff_t>(first_finding),
                                             r_.diagnostics.end());
        if (std::none_of(findings.begin(), findings.end(), [](const Diagnostic& d) {
                return d.severity == Severity::error && !d.port.empty() &&
                       (d.rule == rule::output_shape_mismatch.id || d.rule == rule::output_type_mismatch.id);
            }))
            return;
        std::vector<const LayerShapes*> row_at(graph.layers.size(), nullptr);
        std::vector<uint8_t> carries_values(graph.layers.size(), 0);
        for (size_t i = 0; i < graph.layers.size(); ++i) {
            if (row_of[i] < rows.size()) row_at[i] = &rows[row_of[i]];
            for (size_t k = first_output_[i]; k < first_output_[i + 1]; ++k)
                if (values_[k].state == ValueSlot::State::known) carries_values[i] = 1;
        }
        add_consequences(CheckedGraph{graph, index, row_at, carries_values}, findings);
    }

    // "opset0" names no opset: an error on any layer. Other versions are judged where they matter.
    bool opset_named(const Layer& l) {
        if (!l.opset || *l.opset != 0) return true;
        emit(Severity::error, rule::ir_structure, l.line,
             fmt::format("version=\"{}\" names no opset: OpenVINO's opsets are opset1 to opset{}", l.version,
                         kNewestOpset),
             &l);
        return false;
    }

    void check_layer(const Graph& graph, const GraphIndex& index, size_t i, LayerShapes& shapes) {
        check_deadline();
        const Layer& l = graph.layers[i];
        shapes.inputs.reserve(l.inputs.size());
        shapes.input_types.reserve(l.inputs.size());
        for (size_t p = 0; p < l.inputs.size(); ++p) {
            if (const auto& src = index.producer_of[i][p]) {
                Produced& from = produced(src->layer, src->port);
                shapes.inputs.push_back(shape_of(from));
                shapes.input_types.push_back(from.type);
            } else {
                shapes.inputs.push_back(declared_shape(l.inputs[p]));
                shapes.input_types.push_back(l.inputs[p].precision);
            }
        }
        if (l.kind == LayerKind::parameter) {
            check_parameter(l, i, shapes);
            shapes.checked = shapes.status == LayerStatus::ok || shapes.status == LayerStatus::mismatch;
            return;
        }
        if (l.kind == LayerKind::constant) {
            check_const(l, shapes);
            shapes.checked = shapes.status != LayerStatus::invalid;
            return;
        }
        if (l.kind == LayerKind::result) {
            shapes.status = LayerStatus::ok;
            shapes.checked = true;
            if (body_parameters_) keep_result_value(index, i, l);
            return;
        }
        if (onnx()) return check_onnx_node(graph, index, i, shapes);
        // Any opset that has the type tells a pooling layer; which version it is comes later.
        shapes.pooling = l.kind == LayerKind::pooling;
        if (!opset_named(l)) {
            shapes.status = LayerStatus::invalid;
            return;
        }
        if (!l.opset) {
            ++unsupported_[l.type];
            return;
        }
        check_op(graph, index, i, find_op(l.type, std::min(*l.opset, kNewestOpset)), shapes);
        if (shapes.pooling && shapes.op) pooling_step(graph, index, i, std::min(*l.opset, kNewestOpset), shapes);
    }

    // An ONNX node: the registry's entry for its domain, type and the model's opset import, or the body of the
    // model-local function it calls.
    void check_onnx_node(const Graph& graph, const GraphIndex& index, size_t i, LayerShapes& shapes) {
        const Layer& l = graph.layers[i];
        if (!l.opset) {
            emit(Severity::error, rule::ir_structure, l.line,
                 fmt::format("node {} ({}) is of domain '{}', which the model does not import (opset_import); ONNX "
                             "Runtime refuses the model",
                             l.id, l.type, l.domain),
                 &l);
            shapes.status = LayerStatus::invalid;
            return;
        }
        if (l.kind == LayerKind::function_call) return check_op(graph, index, i, OpLookup{&onnx_function_call_op(), 1}, shapes);
        check_op(graph, index, i, find_onnx_op(l.domain, l.type, *l.opset), shapes);
    }

    void check_op(const Graph& graph, const GraphIndex& index, size_t i, const std::optional<OpLookup>& lookup,
                  LayerShapes& shapes) {
        const Layer& l = graph.layers[i];
        if (!lookup) {
            ++unsupported_[l.type];
            return;
        }
        if (!lookup->entry) {
            emit(Severity::error, rule::ir_structure, l.line,
                 fmt::format("{} does not exist in {}: it was introduced in opset{}", l.type, l.version,
                             lookup->first_opset),
                 &l);
            shapes.status = LayerStatus::invalid;
            return;
        }
        shapes.op = lookup->entry;
        shapes.pooling = lookup->entry->format == OpFormat::ir && l.kind == LayerKind::pooling;
        OpLayerInput in{&l, lookup->entry, &model_, {}, {}, {}, {}, {}, {}, !reinferring(), {}};
        if ((reinferring() || onnx()) && !l.bodies.empty() && depth_ < kMaxBodyDepth)
            in.bodies = [this](size_t g, const BodyPorts& parameters) { return reinfer_body(g, parameters); };
        // The shapes move to the op and back, through buffers kept from layer to layer: a large model has one
        // per input port.
        op_inputs_.clear();
        for (size_t p = 0; p < shapes.inputs.size(); ++p)
            op_inputs_.push_back({std::move(shapes.inputs[p]), shapes.input_types[p], !l.inputs[p].omitted,
                                  reads_bin(graph, index, i, p)});
        in.inputs = op_inputs_;
        value_miss_.clear();
        graph_ = &graph;
        index_ = &index;
        // Two words each, which std::function holds without allocating.
        in.values = [this, i](size_t p) { return value_of(*graph_, *index_, i, p); };
        in.reals = [this, i](size_t p) { return reals_of(*graph_, *index_, i, p); };
        consumed_.clear();
        legacy_f32_.clear();
        to_result_.clear();
        for (size_t k = first_output_[i]; k < first_output_[i + 1]; ++k) {
            consumed_.push_back(produced_[k].consumed);
            legacy_f32_.push_back(!onnx() && model_.ir_version == 10 && produced_[k].to_results_only);
            to_result_.push_back(produced_[k].to_result);
        }
        in.outputs_consumed = consumed_;
        in.outputs_legacy_f32 = legacy_f32_;
        in.outputs_to_result = to_result_;
        auto values = check_op_layer(in, shapes, r_.diagnostics);
        for (size_t p = 0; p < op_inputs_.size(); ++p) shapes.inputs[p] = std::move(op_inputs_[p].shape);
        pass_on_conflicting_outputs(i, shapes);
        for (size_t k = 0; k < values.size() && k < l.outputs.size(); ++k) keep_values(first_output_[i] + k, values[k]);
        if (shapes.not_checked) {
            // A value computed from Const data (a Concat of Consts, say) is unknown for the same reason as the
            // Const's own, which the op that needed it cannot see.
            if (value_miss_.empty() && !model_.bin_present && !onnx())
                value_miss_ = "Const data not available: no .bin beside the .xml";
            note_values_unknown(l, *shapes.not_checked, shapes.checked_by_invariants);
            if (!value_miss_.empty()) shapes.not_checked = fmt::format("{} ({})", *shapes.not_checked, value_miss_);
        }
    }

    // Consumers see a layer's declared outputs (OpenVINO wrote them with everything it knew), except where
    // they conflict with the inferred ones: then the inferred, so that one wrong port is one finding, on its
    // layer, and not one more on every layer downstream.
    // In a re-inference, a layer without inferred outputs (an op irlint does not know, one that rejects its
    // new inputs) hands a dynamic rank on: its old declared dims would be a guess.
    void pass_on_unknown_outputs(size_t i, const LayerShapes& shapes) {
        const Layer& l = *shapes.layer;
        if (l.kind == LayerKind::parameter || l.kind == LayerKind::constant || !shapes.inferred.empty()) return;
        for (size_t k = first_output_[i]; k < first_output_[i + 1]; ++k) produced_[k].shape = &dynamic_rank_;
    }

    // In a re-inference consumers see every inferred output.
    // The declared outputs they see take the symbols of the inferred dims (the same dim as the input's).
    // Declared outputs that break an invariant are wrong in some dim the invariant does not name: consumers see
    // what is inferred without the value.
    void pass_on_conflicting_outputs(size_t i, LayerShapes& shapes) {
        const bool broken_invariant = shapes.checked_by_invariants && shapes.status == LayerStatus::mismatch;
        for (size_t k = 0; k < shapes.inferred.size() && k < shapes.declared.size(); ++k) {
            Produced& p = produced(i, k);
            if (reinferring() || broken_invariant || !shapes.declared[k].compatible(shapes.inferred[k]))
                p.shape = &shapes.inferred[k];
            else if (onnx()) p.shape = &refined_.emplace_back(refined(shapes.declared[k], shapes.inferred[k]));
            else carry_symbols(shapes.inferred[k], shapes.declared[k]);
            if (k < shapes.inferred_types.size() && shapes.inferred_types[k]) p.type = shapes.inferred_types[k];
        }
    }

    // What both say of a value whose declaration (an ONNX value_info) and inference agree: each dim as the
    // narrower of the two. A producer's value_info is often partial or missing; the inferred dims fill it in.
    static Shape refined(const Shape& declared, const Shape& inferred) {
        if (declared.rank_dynamic) return inferred;
        if (inferred.rank_dynamic || inferred.rank() != declared.rank()) return declared;
        Shape out = declared;
        for (size_t d = 0; d < out.rank(); ++d)
            if (auto merged = Dim::merge(declared.dims[d], inferred.dims[d]))
                out.dims[d] = merged->with_symbol(inferred.dims[d].symbol());
        return out;
    }

    static void carry_symbols(const Shape& from, Shape& to) {
        if (from.rank_dynamic || to.rank_dynamic || from.rank() != to.rank()) return;
        for (size_t d = 0; d < to.rank(); ++d)
            if (!to.dims[d].is_static() && to.dims[d].symbol() == 0) to.dims[d] = to.dims[d].with_symbol(from.dims[d].symbol());
    }

    // A fresh symbol for each dynamic dim of an input (a Parameter's), which no op can tell from another one.
    // Per thread: a model and its bodies are checked on one thread.
    static void name_dynamic_dims(Shape& shape) {
        thread_local uint32_t next = 0;
        for (Dim& d : shape.dims) {
            if (d.is_static() || d.symbol() != 0) continue;
            if (++next == 0) ++next;
            d = d.with_symbol(next);
        }
    }

    // `reason` is the op's (what it needed); value_miss_ why that value is unknown, said once per type.
    void note_values_unknown(const Layer& l, const std::string& reason, bool by_invariants) {
        ValuesUnknown& v = values_unknown_[std::string(l.type)];
        ++v.count;
        v.by_invariants += by_invariants;
        if (!v.example || l.line < v.example->line) {  // the first in the file, whatever the order of inference
            v.example = &l;
            v.example_reason = reason;
        }
        if (value_miss_.empty() || std::find(v.causes.begin(), v.causes.end(), value_miss_) != v.causes.end()) return;
        if (v.causes.size() < kMaxValueUnknownCauses) v.causes.push_back(value_miss_);
        else ++v.more_causes;
    }

    // Whether input p of layer i is an IR Const's output, whose data is in the .bin.
    static bool reads_bin(const Graph& graph, const GraphIndex& index, size_t i, size_t p) {
        if (p >= index.producer_of[i].size() || !index.producer_of[i][p]) return false;
        const Layer& from = graph.layers[index.producer_of[i][p]->layer];
        return from.kind == LayerKind::constant && from.tensor < 0;
    }

    // Each value tensor is small (kMaxValueElements), but a file of many ops on one such tensor would hold a
    // copy per op: past kMaxHeldValues elements in all, what ops compute is dropped (their consumers see it as
    // unknown, and say why), so that memory stays in proportion to the file.
    static constexpr size_t kMaxHeldValues = size_t{1} << 22;

    ModelChecker& outermost() {
        ModelChecker* c = this;
        while (c->enclosing_) c = c->enclosing_;
        return *c;
    }

    void keep_values(size_t at, OutputValues& v) {
        ValueSlot& slot = values_[at];
        const size_t n = v.ints ? v.ints->size() : v.reals.size();
        size_t& held = outermost().held_values_;  // one budget for a graph and the bodies inferred in it
        if (held + n > kMaxHeldValues) {
            slot.state = ValueSlot::State::dropped;
            return;
        }
        held += n;
        slot.state = v.ints ? ValueSlot::State::known : ValueSlot::State::unknown;
        if (v.ints) slot.value = std::move(*v.ints);
        if (!v.reals.empty()) reals_[at] = std::move(v.reals);
    }

    // The values of input p of layer i, when an op can know them: the producer's propagated values, or a
    // small integer Const's data.
    const TensorValue* value_of(const Graph& graph, const GraphIndex& index, size_t i, size_t p) {
        if (p >= index.producer_of[i].size() || !index.producer_of[i][p]) return nullptr;
        const PortRef src = *index.producer_of[i][p];
        ValueSlot& slot = values_[first_output_[src.layer] + src.port];
        const Layer& from = graph.layers[src.layer];
        if (slot.state == ValueSlot::State::unset && from.tensor >= 0) read_inline_value(from, slot);
        else if (slot.state == ValueSlot::State::unset && from.kind == LayerKind::constant) read_const_value(from, slot);
        if (slot.state == ValueSlot::State::dropped)
            value_miss_ = fmt::format("the model computes more than {} values, the most irlint keeps", kMaxHeldValues);
        return slot.state == ValueSlot::State::known ? &slot.value : nullptr;
    }

    const std::vector<double>* reals_of(const Graph& graph, const GraphIndex& index, size_t i, size_t p) {
        if (p >= index.producer_of[i].size() || !index.producer_of[i][p]) return nullptr;
        const PortRef src = *index.producer_of[i][p];
        const Layer& c = graph.layers[src.layer];
        if (c.tensor >= 0) return inline_reals(c);
        const size_t key = first_output_[src.layer] + src.port;
        if (const auto it = reals_.find(key); it != reals_.end()) return it->second ? &*it->second : nullptr;
        if (c.kind != LayerKind::constant) return nullptr;
        auto& slot = reals_[key];
        std::string error;
        const auto info = parse_const(c, &error);
        if (!info || !small_const(*info)) return nullptr;
        if (!model_.bin_present) {
            value_miss_ = "Const data not available: no .bin beside the .xml";
            return nullptr;
        }
        slot = read_const_reals(model_, *info, &error);
        return slot ? &*slot : nullptr;
    }

    static bool small_const(const ConstInfo& info) {
        return capped_element_count(info.shape, kMaxValueElements).has_value();
    }

    const InlineTensor& tensor_of(const Layer& c) const { return model_.tensors[static_cast<size_t>(c.tensor)]; }

    // A tensor the model file holds (an ONNX initializer or Constant): its integers, when small.
    void read_inline_value(const Layer& c, ValueSlot& slot) {
        const InlineTensor& t = tensor_of(c);
        slot.state = ValueSlot::State::unknown;
        if (!t.has_data || (!is_integer_type(t.type) && t.type != ElementType::boolean)) return;
        slot.value.reserve(t.ints.size());
        for (const int64_t v : t.ints) slot.value.push_back({v, v});
        slot.state = ValueSlot::State::known;
    }

    const std::vector<double>* inline_reals(const Layer& c) {
        const InlineTensor& t = tensor_of(c);
        if (!t.has_data) return nullptr;
        if (!t.reals.empty() || t.ints.empty()) return &t.reals;
        auto& slot = inline_reals_[c.tensor];
        if (slot.empty()) slot.assign(t.ints.begin(), t.ints.end());
        return &slot;
    }

    void read_const_value(const Layer& c, ValueSlot& slot) {
        slot.state = ValueSlot::State::unknown;
        std::string error;
        const auto info = parse_const(c, &error);
        if (!info || !is_integer_type(info->type) || !small_const(*info)) return;
        if (!model_.bin_present) {
            value_miss_ = "Const data not available: no .bin beside the .xml";
            return;
        }
        const auto ints = read_const_ints(model_, *info, &error);
        if (!ints) {
            value_miss_ = fmt::format("Const {} cannot be read: {}", c.id, error);
            return;
        }
        slot.value.reserve(ints->size());
        for (const int64_t v : *ints) slot.value.push_back({v, v});
        slot.state = ValueSlot::State::known;
    }


    // What `run` and the reports keep of a pooling layer after its inference: its op, and an adaptive pool's
    // output_size values.
    void pooling_step(const Graph& graph, const GraphIndex& index, size_t i, int opset, LayerShapes& shapes) {
        const Layer& l = graph.layers[i];
        shapes.pool_op = pool_op_for(l.type, opset);
        if (!shapes.pool_op) return;
        if (shapes.pool_op->is_adaptive() && l.inputs.size() == 2) shapes.output_size = output_size_of(graph, index, i);
        ++r_.pooling_checked;
        shapes.pooling_checked = true;
    }

    std::optional<std::vector<int64_t>> output_size_of(const Graph& graph, const GraphIndex& index, size_t i) {
        const auto& src = index.producer_of[i][1];
        if (!src) return std::nullopt;
        const Layer& c = graph.layers[src->layer];
        if (c.kind != LayerKind::constant) return std::nullopt;
        std::string error;
        const auto info = parse_const(c, &error);
        if (!info) return std::nullopt;  // reported by the Const's own check
        if (!model_.bin_present) {
            ++skipped_for_bin_;
            return std::nullopt;
        }
        auto values = read_const_ints(model_, *info, &error);
        if (!values)
            emit(Severity::warning, rule::const_data_invalid, graph.layers[i].line,
                 fmt::format("output_size comes from Const {} ('{}'), which cannot be read: {}; the spatial output "
                             "dims are taken as dynamic",
                             c.id, c.name, error),
                 &graph.layers[i]);
        return values;
    }

    void check_parameter(const Layer& l, size_t i, LayerShapes& shapes) {
        shapes.status = LayerStatus::ok;
        const int at = l.has_data ? l.data_line : l.line;
        if (const std::string_view* et = l.attr("element_type")) {
            const auto type = parse_element_type_attr(*et);
            if (!type) emit(Severity::error, rule::attr_invalid, at,
                            fmt::format("Parameter element_type=\"{}\" is not an element type", excerpt(*et)), &l);
            else if (!l.outputs.empty() && produced(i, 0).type && *produced(i, 0).type != *type)
                emit(Severity::error, rule::output_type_mismatch, l.outputs[0].line,
                     fmt::format("Parameter element_type={} but its output port declares {}", element_type_name(*type),
                                 element_type_name(*produced(i, 0).type)),
                     &l);
            if (type && !l.outputs.empty()) produced(i, 0).type = type;
            if (type) shapes.inferred_types = {*type};
        }
        if (new_inputs_) {
            const auto it = new_inputs_->find(l.name);
            if (it != new_inputs_->end()) {
                shapes.inferred = {it->second};
                name_dynamic_dims(shapes.inferred[0]);
                if (!l.outputs.empty()) produced(i, 0).shape = &shapes.inferred[0];
                return;
            }
        }
        if (body_parameters_) {
            const auto it = body_parameters_->find(&l);
            if (it != body_parameters_->end()) {
                shapes.inferred = {it->second.shape};
                name_dynamic_dims(shapes.inferred[0]);
                if (it->second.type) shapes.inferred_types = {*it->second.type};
                if (l.outputs.empty()) return;
                produced(i, 0).shape = &shapes.inferred[0];
                if (it->second.type) produced(i, 0).type = it->second.type;
                if (it->second.value) values_[first_output_[i]] = {ValueSlot::State::known, *it->second.value};
                return;
            }
        }
        if (!shapes.declared.empty()) name_dynamic_dims(shapes.declared[0]);
        const std::string_view* text = l.attr("shape");
        if (!text) return;
        std::string error;
        const auto shape = parse_shape(*text, &error);
        if (!shape) {
            emit(Severity::error, rule::attr_invalid, at,
                 fmt::format("Parameter shape=\"{}\": {}", excerpt(*text), error), &l);
            shapes.status = LayerStatus::invalid;
            return;
        }
        shapes.inferred = {*shape};
        name_dynamic_dims(shapes.inferred[0]);
        if (l.outputs.empty()) return;
        const Shape& declared = shapes.declared[0];
        if (!shape->compatible(declared)) {
            emit(Severity::error, rule::output_shape_mismatch, l.outputs[0].line,
                 fmt::format("Parameter shape={} but its output port declares {}", shape->str(), declared.str()), &l);
            shapes.status = LayerStatus::mismatch;
            return;
        }
        produced(i, 0).shape = &shapes.inferred[0];  // the more precise form: intervals are written only here
    }

    void check_const(const Layer& l, LayerShapes& shapes) {
        shapes.status = LayerStatus::ok;
        if (l.tensor >= 0) return check_inline_const(l, shapes);
        ++const_count_;
        const int at = l.has_data ? l.data_line : l.line;
        std::string error;
        const auto info = parse_const(l, &error);
        if (!info) {
            emit(Severity::error, rule::const_data_invalid, at, error, &l);
            shapes.status = LayerStatus::invalid;
            return;
        }
        shapes.inferred = {shape_from_port_dims(info->shape)};
        if (!l.outputs.empty() && !(shapes.inferred[0] == shapes.declared[0]) && l.outputs[0].dims_valid) {
            emit(Severity::error, rule::output_shape_mismatch, l.outputs[0].line,
                 fmt::format("Const shape={} but its output port declares {}", shapes.inferred[0].str(),
                             shapes.declared[0].str()),
                 &l);
            shapes.status = LayerStatus::mismatch;
        }
        if (!model_.bin_present) return;
        if (auto problem = check_const_range(*info, model_.bin_size)) {
            emit(Severity::error, rule::const_data_invalid, at, *problem, &l);
            shapes.status = LayerStatus::invalid;
        }
    }

    // An initializer: its dims are the tensor's; a declaration of other dims (an IR 3 graph input that repeats
    // it) is what the tensor contradicts.
    void check_inline_const(const Layer& l, LayerShapes& shapes) {
        shapes.inferred = {shape_from_port_dims(tensor_of(l).dims)};
        shapes.inferred_types = {tensor_of(l).type};
        if (l.outputs.empty() || shapes.declared[0].compatible(shapes.inferred[0])) return;
        emit(Severity::error, rule::output_shape_mismatch, 0,
             fmt::format("initializer '{}' holds a tensor of dims {}, but the graph declares it {}", excerpt(l.name),
                         shapes.inferred[0].str(), shapes.declared[0].str()),
             &l);
        shapes.status = LayerStatus::mismatch;
    }

    void report_unsupported() {
        if (unsupported_.empty()) return;
        std::vector<std::pair<std::string, size_t>> counts(unsupported_.begin(), unsupported_.end());
        std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        std::vector<std::string> parts;
        size_t total = 0;
        for (const auto& [type, n] : counts) {
            parts.push_back(fmt::format("{} x{}", type.empty() ? "(no type)" : type, n));
            total += n;
        }
        emit(Severity::note, rule::unsupported_op, 0,
             fmt::format("{} of {} without rules {} not checked: {}", counted(total, "layer"),
                         counted(counts.size(), "type"), total == 1 ? "was" : "were", fmt::join(parts, ", ")));
    }

    // One note per op type, on the line of its first such layer; the layer ref holds the type alone, so that
    // each type's note has its own fingerprint.
    void report_values_unknown() {
        for (const auto& [type, v] : values_unknown_) {
            const Layer& e = *v.example;
            r_.diagnostics.push_back(Diagnostic{Severity::note, std::string(rule::values_unknown.id),
                                                values_unknown_message(type, v), e.line, LayerRef{"", "", type}});
        }
    }

    static std::string values_unknown_message(const std::string& type, const ValuesUnknown& v) {
        const size_t not_checked = v.count - v.by_invariants;
        const std::string how = not_checked == 0 ? "checked by invariants only"
                          : v.by_invariants == 0
                              ? "not checked"
                              : fmt::format("{} checked by invariants only, {} not checked", v.by_invariants, not_checked);
        std::string causes = fmt::format("{}", fmt::join(v.causes, "; "));
        if (v.more_causes) causes += fmt::format("; {} more", counted(v.more_causes, "reason"));
        if (!causes.empty()) causes = " (" + causes + ")";
        return fmt::format("{} {}: {} dims depend on values irlint does not know{}; e.g. layer {} '{}': {}",
                           counted(v.count, type + " layer"), how, v.count == 1 ? "its" : "their", causes,
                           v.example->id, v.example->name, v.example_reason);
    }

    void report_missing_bin() {
        if (model_.bin_present || const_count_ == 0) return;
        std::string what = fmt::format("{} was not found: the data of {} Const layer{} was not checked",
                                       model_.bin_path, const_count_, const_count_ == 1 ? "" : "s");
        if (skipped_for_bin_)
            what += fmt::format(", and {} adaptive pooling output_size{} could not be read (those output dims are "
                                "taken as dynamic)",
                                skipped_for_bin_, skipped_for_bin_ == 1 ? "" : "s");
        emit(Severity::note, rule::const_data_invalid, 0, what);
    }

    const Model& model_;
    const LayerRows rows_;
    ModelReport& r_;
    const std::map<std::string, Shape, std::less<>>* new_inputs_;  // a re-inference: the Parameters' new shapes
    // A body inferred again (reinfer_body): its Parameters' shapes, and how deep in bodies it is.
    const BodyPorts* body_parameters_ = nullptr;
    ModelChecker* enclosing_ = nullptr;  // a body inferred again: the checker of the graph around it
    int depth_ = 0;
    static constexpr int kMaxBodyDepth = 16;

    bool reinferring() const { return new_inputs_ || body_parameters_; }
    bool onnx() const { return model_.format == ModelFormat::onnx; }

    // Body graph g inferred again from new Parameter shapes (a TensorIterator's, Loop's or If's, as OpenVINO
    // infers it again when the layer's inputs change): what each of its Results is given. What the body
    // rejects is the reshape's finding too.
    BodyPorts reinfer_body(size_t g, const BodyPorts& given) {
        BodyPorts parameters = given;
        if (onnx()) add_outer_values(model_.graphs[g], parameters);
        ModelReport body;
        ModelChecker nested(model_, LayerRows::all, body);
        nested.body_parameters_ = &parameters;
        nested.enclosing_ = this;
        nested.depth_ = depth_ + 1;
        nested.check_graph(g);
        BodyPorts results;
        for (const LayerShapes& s : body.layers)
            if (s.layer->kind == LayerKind::result && !s.inputs.empty()) {
                results[s.layer] = {s.inputs[0], s.input_types.empty() ? std::nullopt : s.input_types[0]};
                if (const auto v = nested.result_values_.find(s.layer); v != nested.result_values_.end())
                    results[s.layer].value = std::move(v->second);
            }
        for (Diagnostic& d : body.diagnostics)
            if (d.severity == Severity::error) r_.diagnostics.push_back(std::move(d));
        return results;
    }
    // In a body inferred again, the values a Result hands out (an If's branch, a function's output), so that
    // the node owning the body carries them on as any op carries its values.
    void keep_result_value(const GraphIndex& index, size_t i, const Layer& result) {
        if (index.producer_of[i].empty() || !index.producer_of[i][0]) return;
        const auto& src = *index.producer_of[i][0];
        if (const TensorValue* value = value_at(first_output_[src.layer] + src.port)) result_values_[&result] = *value;
    }
    // An ONNX body reads values of the graphs around it by name (the adapter made a Parameter of the body for
    // each): they take the shapes, types and values those values have where they are made, here or in a graph
    // around this one (a body nested in a body reads the main graph's values through it).
    void add_outer_values(const Graph& body, BodyPorts& parameters) {
        for (const Layer& l : body.layers) {
            if (l.kind != LayerKind::parameter || parameters.count(&l)) continue;
            for (ModelChecker* graph = this; graph; graph = graph->enclosing_)
                if (auto port = graph->outer_value(l.name)) {
                    parameters[&l] = std::move(*port);
                    break;
                }
        }
    }
    // What this graph gives value `name`, as a body reading it sees it; nullopt when no layer here makes it.
    std::optional<BodyPort> outer_value(std::string_view name) {
        if (value_by_name_.empty())
            for (size_t k = 0; k < produced_.size(); ++k)
                if (!produced_[k].port->names.empty()) value_by_name_.emplace(produced_[k].port->names, k);
        const auto it = value_by_name_.find(name);
        if (it == value_by_name_.end()) return std::nullopt;
        Produced& p = produced_[it->second];
        const TensorValue* value = value_at(it->second);
        return BodyPort{shape_of(p), p.type, value ? std::optional(*value) : std::nullopt};
    }
    // The values of the current graph's output port k (produced_'s index), read from its Const when unset.
    const TensorValue* value_at(size_t k) {
        ValueSlot& slot = values_[k];
        if (slot.state == ValueSlot::State::unset && graph_) {
            // The producer: the last layer whose outputs start at or before k (layers without outputs skipped).
            const auto after = std::upper_bound(first_output_.begin(), first_output_.end(), k);
            const Layer& from = graph_->layers[static_cast<size_t>(after - first_output_.begin()) - 1];
            if (from.tensor >= 0) read_inline_value(from, slot);
            else if (from.kind == LayerKind::constant) read_const_value(from, slot);
        }
        return slot.state == ValueSlot::State::known ? &slot.value : nullptr;
    }

    const Shape dynamic_rank_ = Shape::dynamic_rank();
    std::map<const Layer*, TensorValue> result_values_;  // a body inferred again: what its Results hand out
    std::unordered_map<std::string_view, size_t> value_by_name_;  // ONNX: produced_ by value name, when a body asks
    std::vector<Produced> produced_;      // the current graph's output ports, layer by layer
    std::vector<size_t> first_output_;    // per layer of the current graph, and one past the last
    std::deque<Shape> unrowed_shapes_;    // the declared shapes of layers without rows that a consumer needed
    std::deque<Shape> refined_;           // ONNX: declared dims narrowed by the inferred ones, as consumers see them
    std::unordered_map<int32_t, std::vector<double>> inline_reals_;  // integer inline tensors read as reals
    std::map<std::string_view, size_t> unsupported_;  // views of the model's text
    std::map<std::string, ValuesUnknown> values_unknown_;  // per layer type
    std::vector<ValueSlot> values_;                   // parallel to produced_
    // Floating-point values by index into produced_: a Const's, read on demand, or what an op computed.
    std::unordered_map<size_t, std::optional<std::vector<double>>> reals_;
    std::string value_miss_;                          // why the last value an op asked for is unknown
    size_t held_values_ = 0;                          // value elements kept from ops (kMaxHeldValues)
    const Graph* graph_ = nullptr;                    // the graph and index check_op works in
    std::vector<OpInput> op_inputs_;                  // check_op's buffers, kept from layer to layer
    std::vector<uint8_t> consumed_, legacy_f32_, to_result_;
    const GraphIndex* index_ = nullptr;
    size_t const_count_ = 0;
    size_t skipped_for_bin_ = 0;
};

}  // namespace

ModelReport reinfer_model(const Model& model, const std::map<std::string, Shape, std::less<>>& new_inputs) {
    ModelReport report;
    ModelChecker(model, LayerRows::all, report, &new_inputs).run();
    // The declared dims are the old ones: that they differ from the new is the point, not a finding.
    std::erase_if(report.diagnostics, [](const Diagnostic& d) {
        return d.rule == rule::output_shape_mismatch.id || d.rule == rule::output_type_mismatch.id ||
               d.rule == rule::edge_shape_mismatch.id;
    });
    // A body inferred again more than once (a Loop's second pass, the body's own check) says the same twice.
    std::set<std::tuple<int, std::string, std::string, std::string>> seen;
    std::erase_if(report.diagnostics, [&seen](const Diagnostic& d) {
        return !seen.insert({d.line, d.rule, d.layer.id, d.message}).second;
    });
    mark_layers_with_errors(report);
    return report;
}

ModelReport check_model(const Model& model, LayerRows rows) {
    ModelReport report;
    ModelChecker(model, rows, report).run();
    mark_layers_with_errors(report);
    return report;
}

void mark_layers_with_errors(ModelReport& report) {
    auto key = [](const LayerRef& l) { return l.id + '\0' + l.name + '\0' + l.type; };
    std::set<std::string> named;
    for (const Diagnostic& d : report.diagnostics)
        if (d.severity == Severity::error && !(d.layer == LayerRef{})) named.insert(key(d.layer));
    if (named.empty()) return;
    for (LayerShapes& s : report.layers) {
        if (s.status == LayerStatus::mismatch || !named.count(key(layer_ref(*s.layer)))) continue;
        s.status = LayerStatus::invalid;
        // An invalid layer's row is untrustworthy: it does not count as checked.
        if (s.checked) --report.checked;
        if (s.checked_by_invariants) --report.checked_by_invariants;
        s.checked = false;
        s.checked_by_invariants = false;
    }
}

}  // namespace irlint
