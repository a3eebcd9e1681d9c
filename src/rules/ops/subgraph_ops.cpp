// The ops with bodies: TensorIterator, Loop and If, as OpenVINO's tensor_iterator.cpp, loop.cpp and if.cpp
// infer them from their port maps and the shapes their bodies declare (the layers inside a body are checked
// on their own, as graphs of their own); in a re-inference, from their bodies inferred again from the new
// inputs.

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "ir/const_data.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/ops/shape_util.hpp"
#include "rules/ops/subgraph_util.hpp"

namespace irlint {

Shape relaxed(const Shape& fed, const Shape& back) {
    if (fed.kind != back.kind) return Shape::dynamic_rank().as(back.kind);  // the value is what leaves the body
    if (fed.rank_dynamic) return fed;
    if (back.rank_dynamic || back.rank() != fed.rank()) return Shape::dynamic_rank().as(fed.kind);
    Shape out = fed;
    for (size_t i = 0; i < out.rank(); ++i)
        if (!Dim::merge(fed.dims[i], back.dims[i])) out.dims[i] = Dim::dynamic();
    return out;
}

namespace {

// ---------------------------------------------------------------- the bodies

// What a body Result gives: the dims its input port declares, and its element type (the port's, or when the
// port declares none, the type of the port that feeds it).
struct BodyValue {
    Shape shape = Shape::dynamic_rank();
    std::optional<ElementType> type;
};

const Layer* layer_with_id(const Graph& graph, int64_t id) {
    for (const Layer& l : graph.layers)
        if (l.id_number >= 0 && l.id_number == id) return &l;
    return nullptr;
}

const Layer* body_layer(const Graph& graph, int64_t id, LayerKind kind) {
    const Layer* l = layer_with_id(graph, id);
    return l && l->kind == kind ? l : nullptr;
}

// The layer whose output feeds the Result's input.
const Layer* source_of(const Graph& graph, const Layer& result, const Port** port) {
    if (result.inputs.empty()) return nullptr;
    const Port& in = result.inputs.front();
    for (const Edge& e : graph.edges) {
        if (!same_id(e.to_layer, e.to_layer_number, result.id, result.id_number) ||
            !same_id(e.to_port, e.to_port_number, in.id, in.id_number))
            continue;
        for (const Layer& l : graph.layers) {
            if (!same_id(e.from_layer, e.from_layer_number, l.id, l.id_number)) continue;
            for (const Port& p : l.outputs)
                if (same_id(e.from_port, e.from_port_number, p.id, p.id_number)) {
                    *port = &p;
                    return &l;
                }
        }
    }
    return nullptr;
}

BodyValue result_value(const Graph& graph, const Layer& result) {
    BodyValue v;
    if (result.inputs.empty()) return v;
    const Port& in = result.inputs.front();
    v.shape = declared_shape(in);
    v.type = in.precision;
    const Port* from = nullptr;
    if (!v.type && source_of(graph, result, &from)) v.type = from->precision;
    return v;
}

Shape parameter_shape(const Layer& parameter) {
    if (parameter.outputs.empty()) return Shape::dynamic_rank();
    return declared_shape(parameter.outputs.front());
}

// The port map of one body as OpenVINO's deserializer turns it into input and output descriptions.
struct InputDesc {
    enum class Kind { sliced, merged, invariant } kind = Kind::invariant;
    const PortMapEntry* entry = nullptr;
    const Layer* parameter = nullptr;
    const Layer* result = nullptr;  // merged: the Result that feeds the Parameter in the next iteration
    size_t input = 0;               // the layer's input
};

struct OutputDesc {
    const PortMapEntry* entry = nullptr;
    const Layer* result = nullptr;
    size_t output = 0;  // the layer's output: the entries with an external_port_id >= 0, by that id
};

struct Descriptions {
    const Graph* body = nullptr;
    std::vector<InputDesc> inputs;
    std::vector<OutputDesc> outputs;
};

const char* port_map_name(const OpContext& ctx, uint8_t body) {
    if (iequals(ctx.layer().type, "If")) return body == 0 ? "then_port_map" : "else_port_map";
    return "port_map";
}

std::string entry_label(const OpContext& ctx, const PortMapEntry& e) {
    return fmt::format("{} {} (line {})", port_map_name(ctx, e.body), e.output ? "output" : "input", e.line);
}

// The entries of one kind, by external_port_id; of equal ids the first in the file, as the deserializer's map.
std::vector<const PortMapEntry*> entries_by_port(const Layer& layer, uint8_t body, bool output) {
    std::vector<const PortMapEntry*> out;
    for (const PortMapEntry& e : layer.port_map)
        if (e.body == body && e.output == output) out.push_back(&e);
    std::stable_sort(out.begin(), out.end(), [](const PortMapEntry* a, const PortMapEntry* b) {
        return a->external_port_id < b->external_port_id;
    });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const PortMapEntry* a, const PortMapEntry* b) {
                              return a->external_port_id == b->external_port_id;
                          }),
              out.end());
    return out;
}

bool well_formed(OpContext& ctx, const Layer& layer) {
    for (const PortMapEntry& e : layer.port_map)
        if (!e.malformed.empty()) {
            ctx.invalid_attribute(fmt::format("{}: {} is missing or not an integer", entry_label(ctx, e), e.malformed));
            return false;
        }
    for (const BackEdge& e : layer.back_edges)
        if (!e.malformed.empty()) {
            ctx.invalid_attribute(
                fmt::format("back_edges edge (line {}): {} is missing or not an integer", e.line, e.malformed));
            return false;
        }
    return true;
}

std::optional<InputDesc> input_description(OpContext& ctx, const Graph& body, const PortMapEntry& e) {
    InputDesc d;
    d.entry = &e;
    d.parameter = body_layer(body, e.internal_layer_id, LayerKind::parameter);
    if (!d.parameter) {
        ctx.invalid_attribute(fmt::format("{}: internal_layer_id {} is not a Parameter of the body", entry_label(ctx, e),
                                          e.internal_layer_id));
        return std::nullopt;
    }
    if (e.has_axis) {
        d.kind = InputDesc::Kind::sliced;
        if (e.axis < 0) {  // OpenVINO's deserializer reads a sliced input's axis as unsigned
            ctx.invalid_attribute(fmt::format("{}: axis {} must be >= 0", entry_label(ctx, e), e.axis));
            return std::nullopt;
        }
    } else {
        for (const BackEdge& b : ctx.layer().back_edges) {
            if (b.to_layer != e.internal_layer_id) continue;
            d.kind = InputDesc::Kind::merged;
            d.result = body_layer(body, b.from_layer, LayerKind::result);
            if (!d.result) {
                ctx.invalid_attribute(fmt::format("back_edges edge (line {}): from-layer {} is not a Result of the body",
                                                  b.line, b.from_layer));
                return std::nullopt;
            }
            break;
        }
        if (d.kind != InputDesc::Kind::merged && e.external_port_id < 0) return InputDesc{};  // internal only
    }
    if (e.external_port_id < 0 || static_cast<uint64_t>(e.external_port_id) >= ctx.input_count()) {
        ctx.invalid_attribute(fmt::format("{}: external_port_id {} is not an input of the layer, which has {}",
                                          entry_label(ctx, e), e.external_port_id, ctx.input_count()));
        return std::nullopt;
    }
    d.input = static_cast<size_t>(e.external_port_id);
    return d;
}

// The descriptions of body `b` (an index into the layer's bodies); nullopt after recording a problem.
std::optional<Descriptions> describe(OpContext& ctx, uint8_t b) {
    const Layer& layer = ctx.layer();
    Descriptions d;
    d.body = &ctx.model()->graphs[layer.bodies[b]];
    for (const PortMapEntry* e : entries_by_port(layer, b, false)) {
        auto in = input_description(ctx, *d.body, *e);
        if (!in) return std::nullopt;
        if (in->entry) d.inputs.push_back(*in);
    }
    for (const PortMapEntry* e : entries_by_port(layer, b, true)) {
        if (e->external_port_id < 0) continue;  // a body Result for the body's own needs
        OutputDesc o;
        o.entry = e;
        o.output = d.outputs.size();
        o.result = body_layer(*d.body, e->internal_layer_id, LayerKind::result);
        if (!o.result) {
            ctx.invalid_attribute(fmt::format("{}: internal_layer_id {} is not a Result of the body",
                                              entry_label(ctx, *e), e->internal_layer_id));
            return std::nullopt;
        }
        d.outputs.push_back(o);
    }
    return d;
}

// Checks that the layer has the `n` bodies it needs and the model holds them; without the model the outputs
// are dynamic and the layer unchecked.
bool bodies_available(OpContext& ctx, std::vector<OpOutput>& out, size_t n, std::string_view names) {
    const Model* model = ctx.model();
    if (!model) {
        out.assign(ctx.layer().outputs.size(), OpOutput{Shape::dynamic_rank(), std::nullopt, {}, {}});
        ctx.value_unknown("the bodies are not available");
        return false;
    }
    if (ctx.layer().bodies.size() != n) {
        ctx.invalid_attribute(fmt::format("the layer has {} bodies; {} needs {}", ctx.layer().bodies.size(),
                                          ctx.layer().type, names));
        return false;
    }
    for (const size_t g : ctx.layer().bodies)
        if (g >= model->graphs.size()) {
            out.assign(ctx.layer().outputs.size(), OpOutput{Shape::dynamic_rank(), std::nullopt, {}, {}});
            ctx.value_unknown("the bodies are not available");
            return false;
        }
    return well_formed(ctx, ctx.layer());
}

bool output_count_matches(OpContext& ctx, size_t described) {
    if (ctx.layer().outputs.size() == described) return true;
    ctx.invalid_attribute(fmt::format("the port map describes {} outputs, the layer has {} (the numbers must be equal)",
                                      described, ctx.layer().outputs.size()));
    return false;
}

// A rank that must be 0 or 1 (conditions, trip counts, the current iteration).
bool scalar_or_1d(OpContext& ctx, const Shape& shape, std::string_view what) {
    if (shape.rank_dynamic || shape.rank() <= 1) return true;
    ctx.invalid_input(fmt::format("the rank of {} is {}; it must be 0 or 1", what, shape.rank()));
    return false;
}

std::optional<int64_t> absolute(int64_t v) {
    return v < 0 ? (CheckedInt(0) - CheckedInt(v)).get() : std::optional<int64_t>(v);
}

// ---------------------------------------------------------------- a body inferred again

// The shape a body Parameter takes from the layer's input: one part of part_size along a sliced input's axis,
// the whole input otherwise (an invariant input, or a merged one's first value).
BodyPort parameter_port(const OpContext& ctx, const InputDesc& in) {
    BodyPort p{ctx.shape(in.input), ctx.type(in.input)};
    if (in.kind != InputDesc::Kind::sliced || p.shape.rank_dynamic) return p;
    const auto axis = static_cast<uint64_t>(in.entry->axis);
    if (axis < p.shape.rank()) p.shape.dims[axis] = in.entry->part_size > 0 ? Dim(in.entry->part_size) : Dim::dynamic();
    return p;
}

// In a re-inference, body b inferred again from the layer's inputs. A Loop's body runs again when what it
// hands back disagrees with what it was fed, with the disagreeing dims made dynamic, as OpenVINO's does.
std::optional<BodyPorts> reinferred_body(const OpContext& ctx, const Descriptions& d, uint8_t b, bool loop) {
    BodyPorts parameters;
    for (const InputDesc& in : d.inputs) parameters[in.parameter] = parameter_port(ctx, in);
    const size_t graph = ctx.layer().bodies[b];
    auto results = ctx.reinfer_body(graph, parameters);
    if (!results || !loop) return results;
    bool fed_again = false;
    for (const InputDesc& in : d.inputs) {
        const auto back = in.kind == InputDesc::Kind::merged ? results->find(in.result) : results->end();
        if (back == results->end()) continue;
        Shape& fed = parameters[in.parameter].shape;
        Shape wider = relaxed(fed, back->second.shape);
        if (wider == fed) continue;
        fed = std::move(wider);
        fed_again = true;
    }
    return fed_again ? ctx.reinfer_body(graph, parameters) : results;
}

// What a body Result gives: what the body inferred again gives it, else what the body declares.
BodyValue body_result(const std::optional<BodyPorts>& again, const Graph& graph, const Layer& result) {
    BodyValue declared = result_value(graph, result);
    if (!again) return declared;
    const auto it = again->find(&result);
    if (it == again->end()) return {Shape::dynamic_rank(), declared.type};
    return {it->second.shape, it->second.type ? it->second.type : declared.type};
}

// ---------------------------------------------------------------- TensorIterator

// OpenVINO counts a negative start or end from the end of the sliced dim.
int64_t from_end(int64_t value, int64_t dim) { return value < 0 ? dim + value : value; }

// The number of iterations a sliced input gives: its [start, end] holds both ends. -1: unknown (a dynamic dim).
std::optional<int64_t> sliced_iterations(OpContext& ctx, const InputDesc& in) {
    const PortMapEntry& e = *in.entry;
    if (e.part_size <= 0) {
        ctx.invalid_attribute(fmt::format("{}: part_size {} must be positive", entry_label(ctx, e), e.part_size));
        return std::nullopt;
    }
    const Shape& shape = ctx.shape(in.input);
    if (shape.rank_dynamic) return -1;
    if (static_cast<uint64_t>(e.axis) >= shape.rank()) {
        ctx.invalid_attribute(fmt::format("{}: axis {} is out of range [0, {}] for input {} of rank {}",
                                          entry_label(ctx, e), e.axis, static_cast<int64_t>(shape.rank()) - 1,
                                          in.input, shape.rank()));
        return std::nullopt;
    }
    const Dim& dim = shape.dims[static_cast<size_t>(e.axis)];
    if (!dim.is_static()) return -1;
    const int64_t start = from_end(e.start, dim.length());
    const int64_t end = from_end(e.end, dim.length());
    const auto span = absolute((CheckedInt(end) - CheckedInt(start)).get().value_or(Dim::kInf));
    const auto n = ((CheckedInt(span.value_or(Dim::kInf)) + 1) / CheckedInt(e.part_size)).get();
    if (!n || !span) {
        ctx.invalid_attribute(fmt::format("{}: start {} and end {} overflow", entry_label(ctx, e), e.start, e.end));
        return std::nullopt;
    }
    return n;
}

// Without a sliced input, OpenVINO takes the number from the first concatenated output's start and end.
std::optional<int64_t> concat_iterations(OpContext& ctx, const Descriptions& d) {
    for (const OutputDesc& o : d.outputs) {
        const PortMapEntry& e = *o.entry;
        if (!e.has_axis) continue;
        if (e.part_size <= 0) {
            ctx.invalid_attribute(fmt::format("{}: part_size {} must be positive", entry_label(ctx, e), e.part_size));
            return std::nullopt;
        }
        const auto span = absolute((CheckedInt(e.end) - CheckedInt(e.start)).get().value_or(Dim::kInf));
        if (!span) {
            ctx.invalid_attribute(fmt::format("{}: start {} and end {} overflow", entry_label(ctx, e), e.start, e.end));
            return std::nullopt;
        }
        return *span / e.part_size;
    }
    return -1;
}

std::optional<Shape> ti_concat_shape(OpContext& ctx, const OutputDesc& o, Shape shape, int64_t iterations) {
    const PortMapEntry& e = *o.entry;
    if (shape.rank_dynamic) return shape;
    if (shape.rank() == 0) {
        if (e.axis != 0) {
            ctx.invalid_attribute(fmt::format("{}: axis {} must be 0: the concatenated slices are scalars",
                                              entry_label(ctx, e), e.axis));
            return std::nullopt;
        }
        shape.dims.assign(1, Dim::dynamic());
    }
    if (e.axis < 0 || static_cast<uint64_t>(e.axis) >= shape.rank()) {
        ctx.invalid_attribute(fmt::format("{}: axis {} is out of range [0, {}] for the body's output of rank {}",
                                          entry_label(ctx, e), e.axis, static_cast<int64_t>(shape.rank()) - 1,
                                          shape.rank()));
        return std::nullopt;
    }
    Dim& dim = shape.dims[static_cast<size_t>(e.axis)];
    if (iterations == -1) {
        dim = Dim::dynamic();
        return shape;
    }
    const auto length = (CheckedInt(iterations) * CheckedInt(e.part_size)).get();
    if (!length || *length < 0 || *length == Dim::kInf) {
        ctx.invalid_attribute(fmt::format("{}: {} iterations of part_size {} make no dim", entry_label(ctx, e),
                                          iterations, e.part_size));
        return std::nullopt;
    }
    dim = Dim(*length);
    return shape;
}

void infer_tensor_iterator(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!bodies_available(ctx, out, 1, "one <body>")) return;
    const auto d = describe(ctx, 0);
    if (!d) return;
    if (d->inputs.size() != ctx.input_count()) {
        ctx.invalid_attribute(fmt::format("the port map describes {} inputs, the layer has {} (the numbers must be equal)",
                                          d->inputs.size(), ctx.input_count()));
        return;
    }
    int64_t iterations = -1;
    bool sliced = false;
    for (const InputDesc& in : d->inputs) {
        if (in.kind != InputDesc::Kind::sliced) continue;
        sliced = true;
        const auto n = sliced_iterations(ctx, in);
        if (!n) return;
        if (*n != -1) iterations = *n;
    }
    if (!sliced) {
        const auto n = concat_iterations(ctx, *d);
        if (!n) return;
        iterations = *n;
    }
    if (!output_count_matches(ctx, d->outputs.size())) return;
    const auto again = reinferred_body(ctx, *d, 0, false);
    out.resize(d->outputs.size());
    for (const OutputDesc& o : d->outputs) {
        BodyValue v = body_result(again, *d->body, *o.result);
        out[o.output].type = v.type;
        if (!o.entry->has_axis) {
            out[o.output].shape = std::move(v.shape);
            continue;
        }
        auto shape = ti_concat_shape(ctx, o, std::move(v.shape), iterations);
        if (!shape) return;
        out[o.output].shape = std::move(*shape);
    }
}

// ---------------------------------------------------------------- Loop

// A condition's value: true, false, or unknown (nullopt); a problem recorded when it holds more than one value.
struct Condition {
    std::optional<bool> value;
    bool failed = false;
};

Condition condition_of(OpContext& ctx, const TensorValue* v, std::string_view what) {
    if (!v) return {};
    if (v->size() != 1) {
        ctx.invalid_input(fmt::format("{} holds {} values; it must hold one", what, v->size()));
        return {std::nullopt, true};
    }
    if (!v->front().exact()) return {};
    return {v->front().lo != 0, false};
}

// A body Const's one boolean or integer value, read from the .bin; nullopt when it cannot be read.
std::optional<int64_t> body_const_value(OpContext& ctx, const Layer& constant, bool& too_many) {
    std::string error;
    auto info = parse_const(constant, &error);
    if (!info) return std::nullopt;
    CheckedInt count = 1;
    for (const int64_t d : info->shape) count = count * CheckedInt(d);
    if (count.get().value_or(2) != 1) {
        too_many = true;
        return std::nullopt;
    }
    if (info->type == ElementType::boolean) info->type = ElementType::u8;  // a byte per boolean
    const auto values = read_const_ints(*ctx.model(), *info, &error);
    if (!values || values->size() != 1) return std::nullopt;
    return values->front();
}

// The body's execution condition, as OpenVINO tells it: a Const in the body, or a Parameter fed by a
// known input. `unknown` is set when OpenVINO may know it and irlint does not.
Condition body_condition(OpContext& ctx, const Descriptions& d, const Layer& result, bool& unknown) {
    const Port* port = nullptr;
    const Layer* source = source_of(*d.body, result, &port);
    if (!source) return {};
    if (source->kind == LayerKind::constant) {
        bool too_many = false;
        const auto v = body_const_value(ctx, *source, too_many);
        if (too_many) {
            ctx.invalid_input("the body's condition Const holds more than one value; it must hold one");
            return {std::nullopt, true};
        }
        if (!v) unknown = true;
        return {v ? std::optional<bool>(*v != 0) : std::nullopt, false};
    }
    if (source->kind != LayerKind::parameter) return {};
    Condition c;
    for (const InputDesc& in : d.inputs) {
        if (in.parameter != source) continue;
        const TensorValue* v = ctx.value(in.input);
        if (!v) unknown = true;
        const Condition found = condition_of(ctx, v, "the condition input of the body");
        if (found.failed) return found;
        if (found.value) c = found;
    }
    return c;
}

// The special body ports: the last entries whose purpose names them.
const PortMapEntry* purpose_entry(const Layer& layer, bool output, std::string_view purpose) {
    const PortMapEntry* found = nullptr;
    for (const PortMapEntry* e : entries_by_port(layer, 0, output))
        if (e->purpose == purpose) found = e;
    return found;
}

std::optional<Shape> loop_concat_shape(OpContext& ctx, const PortMapEntry& e, Shape shape, int64_t iterations,
                                       bool no_iterations) {
    if (no_iterations) return Shape{false, {Dim(0)}};
    if (shape.rank_dynamic) return shape;
    std::string error;
    const auto axis = normalize_axis(e.axis, shape.rank() == 0 ? 1 : static_cast<int64_t>(shape.rank()), &error);
    if (!axis) {
        ctx.invalid_attribute(fmt::format("{}: {}", entry_label(ctx, e), error));
        return std::nullopt;
    }
    if (shape.rank() == 0) shape.dims.assign(1, Dim(1));
    Dim& dim = shape.dims[*axis];
    const auto length = (CheckedInt(dim.length()) * CheckedInt(iterations)).get();
    if (dim.is_static() && iterations != -1 && length && *length != Dim::kInf)
        dim = Dim(*length);
    else
        dim = Dim::dynamic();
    return shape;
}

// A body output. OpenVINO infers the body again while a fed-back output and the Loop's input it replaces
// disagree, with the Parameter's disagreeing dims made dynamic (all of them when the ranks differ); the
// declared body reflects one inference, so the dims in which they disagree are made dynamic here.
Shape loop_body_shape(OpContext& ctx, const Descriptions& d, const OutputDesc& o, Shape shape, bool no_iterations) {
    const InputDesc* back = nullptr;
    for (const InputDesc& in : d.inputs)
        if (in.kind == InputDesc::Kind::merged && in.result == o.result) back = &in;
    const Shape* fed = back ? &ctx.shape(back->input) : nullptr;
    if (fed && !fed->rank_dynamic && !shape.rank_dynamic) {
        if (fed->rank() != shape.rank()) return Shape::dynamic_rank();
        for (size_t i = 0; i < shape.rank(); ++i)
            if (!Dim::merge(shape.dims[i], fed->dims[i])) shape.dims[i] = Dim::dynamic();
    }
    if (shape.is_static() && no_iterations && !shape.dims.empty()) shape.dims[0] = Dim(0);
    return shape;
}

void infer_loop(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, SIZE_MAX)) return;
    if (!bodies_available(ctx, out, 1, "one <body>")) return;
    const auto d = describe(ctx, 0);
    if (!d) return;
    const Layer& layer = ctx.layer();
    if (const PortMapEntry* e = purpose_entry(layer, false, "current_iteration")) {
        const Layer* p = body_layer(*d->body, e->internal_layer_id, LayerKind::parameter);
        if (!p || !scalar_or_1d(ctx, parameter_shape(*p), "the current_iteration Parameter")) {
            if (!p)
                ctx.invalid_attribute(fmt::format("{}: internal_layer_id {} is not a Parameter of the body",
                                                  entry_label(ctx, *e), e->internal_layer_id));
            return;
        }
    }
    if (!scalar_or_1d(ctx, ctx.shape(1), "the execution condition (input 1)")) return;
    bool unknown = false;
    const TensorValue* first = ctx.value(1);
    const Condition first_condition = condition_of(ctx, first, "the execution condition (input 1)");
    if (first_condition.failed) return;
    const bool no_iterations = first_condition.value == false;
    const PortMapEntry* condition_entry = purpose_entry(layer, true, "execution_condition");
    if (!condition_entry) {
        // OpenVINO infers nothing without the body's condition.
        out.assign(layer.outputs.size(), OpOutput{Shape::dynamic_rank(), std::nullopt, {}, {}});
        ctx.value_unknown("no port map output has purpose=\"execution_condition\": OpenVINO infers no output");
        return;
    }
    const Layer* condition_result = body_layer(*d->body, condition_entry->internal_layer_id, LayerKind::result);
    if (!condition_result) {
        ctx.invalid_attribute(fmt::format("{}: internal_layer_id {} is not a Result of the body",
                                          entry_label(ctx, *condition_entry), condition_entry->internal_layer_id));
        return;
    }
    if (!scalar_or_1d(ctx, result_value(*d->body, *condition_result).shape, "the body's execution condition")) return;
    const Condition body = body_condition(ctx, *d, *condition_result, unknown);
    if (body.failed) return;
    int64_t iterations = body.value == false ? 1 : -1;  // a false condition: one pass, as do-while
    if (!scalar_or_1d(ctx, ctx.shape(0), "the trip count (input 0)")) return;
    if (body.value == true) {
        const TensorValue* trip = ctx.value(0);
        if (!trip) unknown = true;
        if (trip && trip->size() != 1) {
            ctx.invalid_input(fmt::format("the trip count (input 0) holds {} values; it must hold one", trip->size()));
            return;
        }
        if (trip && trip->front().exact() && trip->front().lo >= 0) iterations = trip->front().lo;
    }
    int64_t offset = 2;  // inputs 0 and 1 need no description, unless the port map names them
    for (const InputDesc& in : d->inputs) offset -= in.input <= 1;
    if (offset < 0) {
        ctx.invalid_attribute("external_port_id 0 or 1 is given to more than one input of the port map");
        return;
    }
    if (ctx.input_count() != d->inputs.size() + static_cast<size_t>(offset)) {
        ctx.invalid_attribute(fmt::format("the port map describes {} inputs besides the trip count and condition, the "
                                          "layer has {} inputs (the numbers must agree)",
                                          d->inputs.size(), ctx.input_count()));
        return;
    }
    for (const InputDesc& in : d->inputs) {
        if (in.kind != InputDesc::Kind::sliced || ctx.shape(in.input).rank_dynamic) continue;
        std::string error;
        if (!normalize_axis(in.entry->axis, static_cast<int64_t>(ctx.shape(in.input).rank()), &error)) {
            ctx.invalid_attribute(fmt::format("{}: {}", entry_label(ctx, *in.entry), error));
            return;
        }
    }
    if (!output_count_matches(ctx, d->outputs.size())) return;
    const auto again = reinferred_body(ctx, *d, 0, true);
    out.resize(d->outputs.size());
    for (const OutputDesc& o : d->outputs) {
        BodyValue v = body_result(again, *d->body, *o.result);
        out[o.output].type = v.type;
        if (!o.entry->has_axis) {
            out[o.output].shape = loop_body_shape(ctx, *d, o, std::move(v.shape), no_iterations);
            continue;
        }
        auto shape = loop_concat_shape(ctx, *o.entry, std::move(v.shape), iterations, no_iterations);
        if (!shape) return;
        out[o.output].shape = std::move(*shape);
    }
    if (unknown) ctx.value_unknown("the Loop's condition or trip count is unknown");
}

// ---------------------------------------------------------------- If

// The union of the two bodies' shapes: equal static dims stay, other static dims span both, a dynamic dim
// stays dynamic; ranks that differ give a dynamic rank (of 1 when both are at most 1).
Shape united(const Shape& a, const Shape& b) {
    if (a.rank_dynamic || b.rank_dynamic) return Shape::dynamic_rank();
    if (a.rank() != b.rank()) {
        if (a.rank() <= 1 && b.rank() <= 1) return Shape{false, {Dim::dynamic()}};
        return Shape::dynamic_rank();
    }
    Shape out;
    for (size_t i = 0; i < a.rank(); ++i) {
        const Dim& x = a.dims[i];
        const Dim& y = b.dims[i];
        if (!x.is_static() || !y.is_static())
            out.dims.push_back(Dim::dynamic());
        else
            out.dims.push_back(Dim(std::min(x.length(), y.length()), std::max(x.length(), y.length())));
    }
    return out;
}

const OutputDesc* output_at(const Descriptions& d, size_t output) {
    for (const OutputDesc& o : d.outputs)
        if (o.output == output) return &o;
    return nullptr;
}

void infer_if(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, SIZE_MAX)) return;
    if (!bodies_available(ctx, out, 2, "a <then_body> and an <else_body>")) return;
    const auto then_d = describe(ctx, 0);
    if (!then_d) return;
    const auto else_d = describe(ctx, 1);
    if (!else_d) return;
    if (!scalar_or_1d(ctx, ctx.shape(0), "the condition (input 0)")) return;
    const Condition condition = condition_of(ctx, ctx.value(0), "the condition (input 0)");
    if (condition.failed) return;
    const size_t outputs = ctx.layer().outputs.size();
    out.assign(outputs, OpOutput{Shape::dynamic_rank(), std::nullopt, {}, {}});
    const auto then_again = reinferred_body(ctx, *then_d, 0, false);
    const auto else_again = reinferred_body(ctx, *else_d, 1, false);
    if (condition.value) {
        const Descriptions& d = *condition.value ? *then_d : *else_d;
        for (const OutputDesc& o : d.outputs) {
            if (o.output >= outputs) continue;
            BodyValue v = body_result(*condition.value ? then_again : else_again, *d.body, *o.result);
            out[o.output] = OpOutput{std::move(v.shape), v.type, {}, {}};
        }
        return;
    }
    for (size_t k = 0; k < outputs; ++k) {
        const OutputDesc* t = output_at(*then_d, k);
        const OutputDesc* e = output_at(*else_d, k);
        if (!t || !e) {
            ctx.invalid_attribute(fmt::format("output {} is not associated with a Result of the {}", k,
                                              t ? "else_body" : "then_body"));
            return;
        }
        const BodyValue tv = body_result(then_again, *then_d->body, *t->result);
        const BodyValue ev = body_result(else_again, *else_d->body, *e->result);
        if (tv.type && ev.type && *tv.type != *ev.type && *tv.type != ElementType::dynamic &&
            *ev.type != ElementType::dynamic) {
            ctx.invalid_input(fmt::format("output {}: the then_body gives {} and the else_body {}; the types must be "
                                          "equal",
                                          k, element_type_name(*tv.type), element_type_name(*ev.type)));
            return;
        }
        out[k].shape = united(tv.shape, ev.shape);
        out[k].type = tv.type && *tv.type != ElementType::dynamic ? tv.type : ev.type;
    }
}

constexpr std::string_view kBodyChecks =
    "port map: internal_layer_id names a body Parameter/Result, external_port_id a port; axis in range; "
    "part_size > 0; as many outputs as described";

const OpEntry kSubgraphOps[] = {
    {"If", 8, 8, infer_if, "shape, type",
     "condition rank 0 or 1; each output from a Result of both bodies; equal types"},
    {"Loop", 5, 5, infer_loop, "shape, type",
     "trip count, conditions rank 0 or 1, one value; special body ports; port map as TensorIterator's; axis in "
     "range"},
    {"TensorIterator", 0, 1, infer_tensor_iterator, "shape, type", kBodyChecks},
};

}  // namespace

std::span<const OpEntry> subgraph_ops() { return kSubgraphOps; }

}  // namespace irlint
