// ONNX's control flow and its sequence and optional operators: If, Loop and Scan, each inferred from its bodies
// (graph attributes) as the body is inferred again from the node's inputs, and the sequence/optional ops at each
// schema version. A body's Parameters are its formal inputs in order, then one per outer value it reads (the
// engine gives those what the enclosing graph inferred for the value); its Results are its outputs in order.
//
// irlint's element types have no sequence or optional type: a sequence- or optional-valued output is left
// unknown (dynamic rank, no type, the layer not counted as checked), and the ops that take one infer what the
// schema gives without the element (SequenceLength, OptionalHasElement) or leave their outputs unknown.

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "rules/ops/onnx_families.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/subgraph_util.hpp"

namespace irlint {

namespace {

using shape_ops::single_exact;

OpOutput tensor(Shape shape, std::optional<ElementType> type) { return OpOutput{std::move(shape), type, {}, {}}; }
OpOutput unknown_output() { return tensor(Shape::dynamic_rank(), std::nullopt); }

// ---------------------------------------------------------------- the bodies

struct Body {
    size_t index = 0;  // into the model's graphs
    const Graph* graph = nullptr;
    std::vector<const Layer*> parameters;  // formal inputs, then the outer values the body reads
    std::vector<const Layer*> results;     // the body's outputs in order
};

// The body held by graph attribute `name`; nullopt after recording why there is none.
std::optional<Body> body_of(OpContext& ctx, std::string_view name) {
    const auto g = ctx.attr_graph(name);
    if (!g) {
        if (ctx.model() && !ctx.layer().object_attr(name))
            ctx.invalid_attribute(fmt::format("the graph attribute {} is missing", name));
        else
            ctx.value_unknown(fmt::format("the body {} is not available", name));
        return std::nullopt;
    }
    Body b;
    b.index = *g;
    b.graph = &ctx.model()->graphs[*g];
    for (const Layer& l : b.graph->layers) {
        if (l.kind == LayerKind::parameter) b.parameters.push_back(&l);
        if (l.kind == LayerKind::result) b.results.push_back(&l);
    }
    return b;
}

// What the body declares for Result r (the port that feeds it).
BodyPort declared_result(const Layer& r) {
    if (r.inputs.empty()) return {Shape::dynamic_rank(), std::nullopt};
    return {declared_shape(r.inputs.front()), r.inputs.front().precision};
}

// The inferred dims narrowed by what the body declares for its output, as ONNX merges a graph's declared output
// types into the inferred ones; where they conflict the inferred dims stay (the body's check reports it).
Shape narrowed(const Shape& inferred, const Shape& declared) {
    if (inferred.rank_dynamic) return declared;
    if (declared.rank_dynamic || declared.rank() != inferred.rank()) return inferred;
    Shape out = inferred;
    for (size_t i = 0; i < out.rank(); ++i)
        if (const auto both = Dim::merge(inferred.dims[i], declared.dims[i])) out.dims[i] = *both;
    return out;
}

// The body inferred again with its formal inputs given `formal` (the outer values are the engine's to give);
// the Results in order, narrowed by what the body declares for them.
std::vector<BodyPort> infer_body(const OpContext& ctx, const Body& body, const std::vector<BodyPort>& formal) {
    BodyPorts parameters;
    for (size_t i = 0; i < formal.size() && i < body.parameters.size(); ++i) parameters[body.parameters[i]] = formal[i];
    const auto again = ctx.reinfer_body(body.index, parameters);
    std::vector<BodyPort> out;
    for (const Layer* r : body.results) {
        BodyPort declared = declared_result(*r);
        const auto it = again ? again->find(r) : BodyPorts::const_iterator{};
        if (!again || it == again->end()) {
            out.push_back(std::move(declared));
            continue;
        }
        out.push_back({narrowed(it->second.shape, declared.shape), it->second.type ? it->second.type : declared.type,
                       it->second.value});
    }
    return out;
}

// The body must have at least `wanted` Parameters: its formal inputs (the outer values' Parameters follow).
bool formal_inputs_are(OpContext& ctx, const Body& body, size_t wanted, std::string_view what) {
    if (body.parameters.size() >= wanted) return true;
    ctx.invalid_attribute(
        fmt::format("the body has {} inputs; it needs {} ({})", body.parameters.size(), wanted, what));
    return false;
}

// ---------------------------------------------------------------- If

// The union of two branches' outputs as ONNX takes it: equal dims stay; dims that differ, or are not both
// known, become dynamic (OpenVINO's If spans both lengths with an interval instead); ranks that differ give a
// dynamic rank.
Shape branch_union(const Shape& a, const Shape& b) {
    if (a.kind != b.kind) return Shape::dynamic_rank();
    if (a.rank_dynamic || b.rank_dynamic || a.rank() != b.rank()) return Shape::dynamic_rank().as(a.kind);
    Shape out;
    out.kind = a.kind;
    for (size_t i = 0; i < a.rank(); ++i) out.dims.push_back(a.dims[i] == b.dims[i] ? a.dims[i] : Dim::dynamic());
    return out;
}

void infer_if(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto then_body = body_of(ctx, "then_branch");
    if (!then_body) return;
    const auto else_body = body_of(ctx, "else_branch");
    if (!else_body) return;
    if (const auto t = ctx.type(0); t && *t != ElementType::boolean)
        return ctx.invalid_input(fmt::format("cond is {}; it must be bool", element_type_name(*t)));
    if (const Shape& c = ctx.shape(0); !c.rank_dynamic && capped_element_count(c, kMaxValueElements).value_or(1) != 1)
        return ctx.invalid_input(fmt::format("cond is {}; it must hold one element", c.str()));
    if (then_body->results.size() != else_body->results.size())
        return ctx.invalid_attribute(fmt::format("then_branch has {} outputs and else_branch {}; they must be equal",
                                                 then_body->results.size(), else_body->results.size()));
    const auto cond = single_exact(ctx, 0);
    const std::vector<BodyPort> then_out = infer_body(ctx, *then_body, {});
    const std::vector<BodyPort> else_out = infer_body(ctx, *else_body, {});
    for (size_t k = 0; k < then_out.size(); ++k) {
        const BodyPort& t = then_out[k];
        const BodyPort& e = else_out[k];
        if (t.type && e.type && *t.type != *e.type)
            return ctx.invalid_input(
                fmt::format("output {} is {} in then_branch and {} in else_branch; the types must be equal", k,
                            element_type_name(*t.type), element_type_name(*e.type)));
        if (cond) {
            const BodyPort& taken = *cond ? t : e;
            out.push_back(OpOutput{taken.shape, taken.type, taken.value, {}});
            continue;
        }
        out.push_back(tensor(branch_union(t.shape, e.shape), t.type ? t.type : e.type));
    }
}

// ---------------------------------------------------------------- Loop

// The body layer that gives value `name` (ONNX's ports carry their value's name), else null.
const Layer* producer_of(const Graph& body, std::string_view name) {
    for (const Layer& l : body.layers)
        for (const Port& p : l.outputs)
            if (p.names == name) return &l;
    return nullptr;
}

// Whether the body hands its condition back true whenever it gets it true: the condition Parameter itself (or
// an Identity of it), or a true constant, as exported for-loops do.
bool keeps_condition(const OpContext& ctx, const Body& body) {
    if (body.results.empty() || body.results[0]->inputs.empty()) return false;
    const Layer* from = producer_of(*body.graph, body.results[0]->inputs[0].names);
    if (from && from->type == "Identity" && from->inputs.size() == 1)
        from = producer_of(*body.graph, from->inputs[0].names);
    if (!from) return false;
    if (from == body.parameters[1]) return true;
    if (from->tensor < 0) return false;
    const InlineTensor& t = ctx.model()->tensors[static_cast<size_t>(from->tensor)];
    return t.has_data && t.ints.size() == 1 && t.ints[0] != 0;
}

// The number of iterations as far as the inputs tell: none when the condition starts false; M when there is no
// condition, or it starts true and the body keeps it; else at most M (dynamic without M).
Dim loop_iterations(const OpContext& ctx, const Body& body) {
    const auto cond = ctx.has_input(1) ? single_exact(ctx, 1) : std::nullopt;
    if (cond == 0) return Dim(0);
    const auto m = ctx.has_input(0) ? single_exact(ctx, 0) : std::nullopt;
    if (!m) return Dim::dynamic();
    const int64_t count = std::max<int64_t>(*m, 0);
    if (!ctx.has_input(1) || (cond && keeps_condition(ctx, body))) return Dim(count);
    return Dim(0, count);
}

// Loop: the body runs with (iteration number, condition, carried values) and gives (condition, carried values,
// scan outputs). The final carried values: the body inferred again from the initial ones, again with the dims
// the body changes made dynamic when it changes some (as OpenVINO's Loop; ONNX keeps only their types). The scan
// outputs: the body's per-iteration value stacked along a new first dim of the iteration count.
void infer_loop(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, SIZE_MAX)) return;
    const auto body = body_of(ctx, "body");
    if (!body) return;
    const size_t carried = ctx.input_count() - 2;
    if (!formal_inputs_are(ctx, *body, carried + 2, "iteration number, condition, the carried values")) return;
    if (body->results.size() < carried + 1)
        return ctx.invalid_attribute(
            fmt::format("the body has {} outputs; it needs at least {} (the condition and the carried values)",
                        body->results.size(), carried + 1));
    if (ctx.has_input(0) && ctx.type(0) && *ctx.type(0) != ElementType::i64)
        return ctx.invalid_input(fmt::format("M is {}; it must be int64", element_type_name(*ctx.type(0))));
    if (ctx.has_input(1) && ctx.type(1) && *ctx.type(1) != ElementType::boolean)
        return ctx.invalid_input(fmt::format("cond is {}; it must be bool", element_type_name(*ctx.type(1))));
    std::vector<BodyPort> formal;
    formal.push_back({Shape{}, ElementType::i64});
    formal.push_back(ctx.has_input(1) ? BodyPort{ctx.shape(1), ctx.type(1)} : BodyPort{Shape{}, ElementType::boolean});
    for (size_t i = 0; i < carried; ++i) formal.push_back({ctx.shape(2 + i), ctx.type(2 + i)});
    std::vector<BodyPort> results = infer_body(ctx, *body, formal);
    bool changed = false;
    for (size_t i = 0; i < carried; ++i) {
        Shape wider = relaxed(formal[2 + i].shape, results[1 + i].shape);
        if (wider == formal[2 + i].shape) continue;
        formal[2 + i].shape = std::move(wider);
        changed = true;
    }
    if (changed) results = infer_body(ctx, *body, formal);
    for (size_t i = 0; i < carried; ++i) {
        const BodyPort& back = results[1 + i];
        if (formal[2 + i].type && back.type && *formal[2 + i].type != *back.type)
            return ctx.invalid_input(fmt::format("carried value {} enters the body as {} and leaves it as {}", i,
                                                 element_type_name(*formal[2 + i].type),
                                                 element_type_name(*back.type)));
        out.push_back(
            tensor(relaxed(formal[2 + i].shape, back.shape), formal[2 + i].type ? formal[2 + i].type : back.type));
    }
    const Dim iterations = loop_iterations(ctx, *body);
    if (!iterations.is_static()) ctx.value_unknown("the Loop's iteration count is unknown");
    for (size_t k = 1 + carried; k < results.size(); ++k) {
        Shape stacked = results[k].shape;
        if (!stacked.rank_dynamic) stacked.dims.insert(stacked.dims.begin(), iterations);
        out.push_back(tensor(std::move(stacked), results[k].type));
    }
}

// ---------------------------------------------------------------- Scan

// An axis list attribute of `count` entries (0s when absent), each in [-rank, rank) of its tensor.
std::optional<std::vector<int64_t>> scan_axes(OpContext& ctx, std::string_view name, size_t count) {
    const auto axes = ctx.attr_ints(name, std::vector<int64_t>(count, 0));
    if (!axes) return std::nullopt;
    if (axes->size() != count) {
        ctx.invalid_attribute(fmt::format("{} has {} entries; there are {}", name, axes->size(), count));
        return std::nullopt;
    }
    return axes;
}

bool directions_valid(OpContext& ctx, std::string_view name, size_t count) {
    const auto d = ctx.attr_ints(name, std::vector<int64_t>(count, 0));
    if (!d) return false;
    if (d->size() != count) {
        ctx.invalid_attribute(fmt::format("{} has {} entries; there are {}", name, d->size(), count));
        return false;
    }
    if (std::any_of(d->begin(), d->end(), [](int64_t v) { return v != 0 && v != 1; })) {
        ctx.invalid_attribute(fmt::format("{} holds a value other than 0 and 1", name));
        return false;
    }
    return true;
}

// Where Scan's inputs are: the states, then the scan inputs. Scan-8 has a leading sequence_lens input and a
// batch dim on every input and output, its scan axis 1; Scan-9 on has neither.
struct ScanLayout {
    size_t first = 0;  // the first state input (1 at Scan-8: sequence_lens comes first)
    size_t states = 0;
    size_t scans = 0;
    bool batched = false;
};

// Scan: the body runs once per slice of the scan inputs along their axes, with the states. Final states:
// the states merged with what the body gives back; scan outputs: the body's per-slice value stacked along
// scan_output_axes with the scanned length.
void infer_scan(OpContext& ctx, std::vector<OpOutput>& out) {
    const int v = ctx.version();
    const auto num_scan = ctx.attr_int("num_scan_inputs");
    if (!num_scan) return;
    ScanLayout layout;
    layout.batched = v == 8;
    layout.first = layout.batched ? 1 : 0;
    if (*num_scan < 1 || static_cast<uint64_t>(*num_scan) + layout.first > ctx.input_count())
        return ctx.invalid_attribute(
            fmt::format("num_scan_inputs {} is not in [1, {}]", *num_scan, ctx.input_count() - layout.first));
    layout.scans = static_cast<size_t>(*num_scan);
    layout.states = ctx.input_count() - layout.first - layout.scans;
    const auto body = body_of(ctx, "body");
    if (!body) return;
    if (!formal_inputs_are(ctx, *body, layout.states + layout.scans, "the states, then a slice of each scan input"))
        return;
    if (body->results.size() < layout.states)
        return ctx.invalid_attribute(fmt::format("the body has {} outputs; it needs at least the {} states",
                                                 body->results.size(), layout.states));
    const size_t scan_outputs = body->results.size() - layout.states;
    if (!directions_valid(ctx, v >= 9 ? "scan_input_directions" : "directions", layout.scans)) return;
    std::vector<int64_t> in_axes(layout.scans, 0), out_axes(scan_outputs, 0);
    if (v >= 9) {
        const auto a = scan_axes(ctx, "scan_input_axes", layout.scans);
        const auto o = scan_axes(ctx, "scan_output_axes", scan_outputs);
        if (!a || !o || !directions_valid(ctx, "scan_output_directions", scan_outputs)) return;
        in_axes = *a;
        out_axes = *o;
    }
    Dim batch = Dim::dynamic();
    std::vector<BodyPort> formal;
    for (size_t i = 0; i < layout.states; ++i) {
        BodyPort p{ctx.shape(layout.first + i), ctx.type(layout.first + i)};
        if (layout.batched && !p.shape.rank_dynamic) {
            if (p.shape.rank() == 0)
                return ctx.invalid_input(fmt::format("state {} is a scalar; it needs the batch dim", i));
            batch = Dim::merge(batch, p.shape.dims[0]).value_or(batch);
            p.shape.dims.erase(p.shape.dims.begin());
        }
        formal.push_back(std::move(p));
    }
    Dim length = Dim::dynamic();
    for (size_t j = 0; j < layout.scans; ++j) {
        const size_t input = layout.first + layout.states + j;
        BodyPort p{ctx.shape(input), ctx.type(input)};
        if (!p.shape.rank_dynamic) {
            std::string error;
            const auto axis =
                normalize_axis(in_axes[j] + (layout.batched ? 1 : 0), static_cast<int64_t>(p.shape.rank()), &error);
            if (!axis) return ctx.invalid_input(fmt::format("scan input {} is {}: {}", j, p.shape.str(), error));
            const auto merged = Dim::merge(length, p.shape.dims[*axis]);
            if (!merged)
                return ctx.invalid_input(fmt::format("the scan inputs' lengths differ ({} and {})", length.str(),
                                                     p.shape.dims[*axis].str()));
            length = *merged;
            p.shape.dims.erase(p.shape.dims.begin() + static_cast<std::ptrdiff_t>(*axis));
            if (layout.batched) {
                batch = Dim::merge(batch, p.shape.dims[0]).value_or(batch);
                p.shape.dims.erase(p.shape.dims.begin());
            }
        }
        formal.push_back(std::move(p));
    }
    const std::vector<BodyPort> results = infer_body(ctx, *body, formal);
    for (size_t i = 0; i < layout.states; ++i) {
        Shape state = relaxed(formal[i].shape, results[i].shape);
        if (layout.batched && !state.rank_dynamic) state.dims.insert(state.dims.begin(), batch);
        out.push_back(tensor(std::move(state), formal[i].type ? formal[i].type : results[i].type));
    }
    for (size_t k = 0; k < scan_outputs; ++k) {
        Shape stacked = results[layout.states + k].shape;
        if (!stacked.rank_dynamic) {
            std::string error;
            const auto axis = normalize_axis(out_axes[k], static_cast<int64_t>(stacked.rank()) + 1, &error);
            if (!axis) return ctx.invalid_attribute(fmt::format("scan_output_axes[{}]: {}", k, error));
            stacked.dims.insert(stacked.dims.begin() + static_cast<std::ptrdiff_t>(*axis), length);
            if (layout.batched) stacked.dims.insert(stacked.dims.begin(), batch);
        }
        out.push_back(tensor(std::move(stacked), results[layout.states + k].type));
    }
}

// ---------------------------------------------------------------- sequences and optionals
// ONNX's inference of these ops gives a sequence the dims its tensors have in common, and an optional its
// tensor's: Shape::kind says which the value is.

bool position_valid(OpContext& ctx, size_t i) {
    if (!ctx.has_input(i)) return true;
    if (const auto t = ctx.type(i); t && *t != ElementType::i32 && *t != ElementType::i64) {
        ctx.invalid_input(fmt::format("position is {}; it must be int32 or int64", element_type_name(*t)));
        return false;
    }
    if (const Shape& s = ctx.shape(i); !s.rank_dynamic && s.rank() > 1) {
        ctx.invalid_input(fmt::format("position is {}; it must be a scalar", s.str()));
        return false;
    }
    return true;
}

// Input i as the sequence an op takes: its tensors' dims, else (a value nothing is known of) a sequence of
// unknown tensors. nullopt after recording a problem when it is known to be something else.
std::optional<Shape> sequence_input(OpContext& ctx, size_t i) {
    const Shape& s = ctx.shape(i);
    if (s.kind == ValueKind::sequence) return s;
    if (s.kind == ValueKind::tensor && s.rank_dynamic && !ctx.type(i)) return Shape::dynamic_rank().as(ValueKind::sequence);
    ctx.invalid_input(fmt::format("input {} is {} {}; it must be a sequence of tensors", i,
                                  value_kind_name(s.kind), s.str()));
    return std::nullopt;
}

// Whether tensor input i may join a sequence of `type` (ONNX refuses another element type).
bool same_type_as_sequence(OpContext& ctx, size_t i, std::optional<ElementType> type) {
    const auto t = ctx.type(i);
    if (!type || !t || *type == *t) return true;
    ctx.invalid_input(fmt::format("input {} is {}; the sequence holds {}", i, element_type_name(*t), element_type_name(*type)));
    return false;
}

void infer_sequence_construct(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, SIZE_MAX)) return;
    std::optional<ElementType> type;
    Shape element = ctx.shape(0);
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const auto t = ctx.type(i);
        if (type && t && *type != *t)
            return ctx.invalid_input(fmt::format("inputs 0 and {} are {} and {}; a sequence holds one type", i,
                                                 element_type_name(*type), element_type_name(*t)));
        if (!type) type = t;
        element = branch_union(element, ctx.shape(i));
    }
    out.push_back(tensor(element.as(ValueKind::sequence), type));
}

void infer_sequence_empty(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(0)) return;
    const auto dtype = ctx.attr_int("dtype", 1);
    if (!dtype) return;
    const auto type = element_type_from_onnx(*dtype);
    if (!type) return ctx.invalid_attribute(fmt::format("dtype {} is not a tensor type irlint knows", *dtype));
    out.push_back(tensor(Shape::dynamic_rank().as(ValueKind::sequence), type));
}

void infer_sequence_insert(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3) || !position_valid(ctx, 2)) return;
    const auto sequence = sequence_input(ctx, 0);
    if (!sequence || !same_type_as_sequence(ctx, 1, ctx.type(0))) return;
    const Shape element = branch_union(sequence->as(ValueKind::tensor), ctx.shape(1));
    out.push_back(tensor(element.as(ValueKind::sequence), ctx.type(0) ? ctx.type(0) : ctx.type(1)));
}

void infer_sequence_erase(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2) || !position_valid(ctx, 1)) return;
    const auto sequence = sequence_input(ctx, 0);
    if (!sequence) return;
    out.push_back(tensor(*sequence, ctx.type(0)));
}

// SequenceAt: one of the sequence's tensors.
void infer_sequence_at(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !position_valid(ctx, 1)) return;
    const auto sequence = sequence_input(ctx, 0);
    if (!sequence) return;
    out.push_back(tensor(sequence->as(ValueKind::tensor), ctx.type(0)));
}

// SequenceLength: a scalar int64.
void infer_sequence_length(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!sequence_input(ctx, 0)) return;
    out.push_back(tensor(Shape{}, ElementType::i64));
}

// ConcatFromSequence: the tensors joined along axis (new_axis: stacked along a new one); the joined dim is the
// sequence's length or a sum over it, unknown.
void infer_concat_from_sequence(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto axis = ctx.attr_int("axis");
    if (!axis) return;
    const auto new_axis = ctx.attr_int("new_axis", 0);
    if (!new_axis) return;
    if (*new_axis != 0 && *new_axis != 1)
        return ctx.invalid_attribute(fmt::format("new_axis {} must be 0 or 1", *new_axis));
    const auto sequence = sequence_input(ctx, 0);
    if (!sequence) return;
    Shape joined = sequence->as(ValueKind::tensor);
    if (!joined.rank_dynamic) {
        std::string error;
        const auto at = normalize_axis(*axis, static_cast<int64_t>(joined.rank()) + *new_axis, &error);
        if (!at) return ctx.invalid_attribute(error);
        if (*new_axis) joined.dims.insert(joined.dims.begin() + static_cast<std::ptrdiff_t>(*at), Dim::dynamic());
        else joined.dims[*at] = Dim::dynamic();
    }
    out.push_back(tensor(std::move(joined), ctx.type(0)));
}

// SplitToSequence's part length on the axis when every part has it: 1 without split, a scalar split that
// divides the dim, or a list of equal lengths that add up to it; nullopt when parts differ or are unknown.
std::optional<int64_t> equal_part(OpContext& ctx, const Dim& dim) {
    if (!ctx.has_input(1)) return 1;
    const auto split = ctx.exact_values(1);
    if (!split || split->empty() || !dim.is_static()) return std::nullopt;
    const Shape& s = ctx.shape(1);
    if (!s.rank_dynamic && s.rank() == 0) {
        if ((*split)[0] <= 0 || dim.min() % (*split)[0] != 0) return std::nullopt;
        return (*split)[0];
    }
    const bool equal = std::adjacent_find(split->begin(), split->end(), std::not_equal_to<>()) == split->end();
    return equal ? std::optional<int64_t>((*split)[0]) : std::nullopt;
}

// SplitToSequence: a sequence of parts of the input along axis; without split, parts of 1 (keepdims 0: the
// axis dropped).
void infer_split_to_sequence(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2)) return;
    const auto axis = ctx.attr_int("axis", 0);
    const auto keepdims = ctx.attr_int("keepdims", 1);
    if (!axis || !keepdims) return;
    const Shape& input = ctx.shape(0);
    std::optional<size_t> at;
    if (!input.rank_dynamic) {
        std::string error;
        at = normalize_axis(*axis, static_cast<int64_t>(input.rank()), &error);
        if (!at) return ctx.invalid_attribute(error);
    }
    if (ctx.has_input(1)) {
        if (const auto t = ctx.type(1); t && *t != ElementType::i32 && *t != ElementType::i64)
            return ctx.invalid_input(fmt::format("split is {}; it must be int32 or int64", element_type_name(*t)));
        if (const Shape& s = ctx.shape(1); !s.rank_dynamic && s.rank() > 1)
            return ctx.invalid_input(fmt::format("split is {}; it must be a scalar or 1-D", s.str()));
    }
    Shape part = input;
    if (at) {
        if (!ctx.has_input(1) && *keepdims == 0) {
            part.dims.erase(part.dims.begin() + static_cast<std::ptrdiff_t>(*at));
        } else {
            const auto length = equal_part(ctx, input.dims[*at]);
            part.dims[*at] = length ? Dim(*length) : Dim::dynamic();
        }
    }
    out.push_back(tensor(part.as(ValueKind::sequence), ctx.type(0)));
}

// SequenceMap: a sequence per body output, of what the body makes of one element of each sequence input (the
// other inputs are given whole).
void infer_sequence_map(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, SIZE_MAX)) return;
    const auto body = body_of(ctx, "body");
    if (!body) return;
    if (!formal_inputs_are(ctx, *body, ctx.input_count(), "one per input")) return;
    if (body->results.empty()) return ctx.invalid_attribute("the body has no outputs");
    std::vector<BodyPort> formal;
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const Shape& s = ctx.shape(i);
        formal.push_back({s.kind == ValueKind::sequence ? s.as(ValueKind::tensor) : s, ctx.type(i)});
    }
    for (const BodyPort& r : infer_body(ctx, *body, formal))
        out.push_back(tensor(r.shape.kind == ValueKind::tensor ? r.shape.as(ValueKind::sequence) : Shape::dynamic_rank(),
                             r.type));
}

// Optional: the input wrapped; without one, an empty optional of the type attribute (a TypeProto irlint does
// not read: its dims and type are left open).
void infer_optional(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(0, 1)) return;
    if (!ctx.has_input(0) && !ctx.attr("type"))
        return ctx.invalid_attribute("without an input, the type attribute is needed");
    if (!ctx.has_input(0)) return out.push_back(tensor(Shape::dynamic_rank().as(ValueKind::optional), std::nullopt));
    const Shape& in = ctx.shape(0);
    if (in.kind == ValueKind::tensor && in.rank_dynamic && !ctx.type(0)) return out.push_back(unknown_output());
    if (in.kind != ValueKind::tensor && in.kind != ValueKind::sequence)
        return ctx.invalid_input(fmt::format("input is {} {}; an optional holds a tensor or a sequence",
                                             value_kind_name(in.kind), in.str()));
    out.push_back(tensor(in.as(in.kind == ValueKind::sequence ? ValueKind::optional_sequence : ValueKind::optional),
                         ctx.type(0)));
}

// OptionalHasElement: a scalar bool (its input may be left out from 18 on).
void infer_optional_has_element(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(ctx.version() >= 18 ? 0 : 1, 1)) return;
    out.push_back(tensor(Shape{}, ElementType::boolean));
}

// OptionalGetElement: the element; from 18 a tensor or a sequence input is its own element.
void infer_optional_get_element(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const Shape& in = ctx.shape(0);
    if (in.kind == ValueKind::optional) return out.push_back(tensor(in.as(ValueKind::tensor), ctx.type(0)));
    if (in.kind == ValueKind::optional_sequence) return out.push_back(tensor(in.as(ValueKind::sequence), ctx.type(0)));
    if (ctx.version() >= 18 && (ctx.type(0) || !in.rank_dynamic || in.kind == ValueKind::sequence))
        return out.push_back(tensor(in, ctx.type(0)));
    ctx.value_unknown("the optional's element is not known");
    out.push_back(unknown_output());
}

}  // namespace

std::span<const OpEntry> onnx_control_ops() {
    static const std::vector<OpEntry> entries = [] {
        std::vector<OpEntry> out;
        for (int v : {1, 11, 13, 16, 19, 21, 23, 24, 25}) {
            out.push_back(onnx_op("If", v, infer_if, "shape, type",
                                  "cond bool, one element; branches with equal output counts and types"));
            out.push_back(onnx_op("Loop", v, infer_loop, "shape, type",
                                  "M int64, cond bool; body inputs and outputs; carried types kept"));
        }
        for (int v : {8, 9, 11, 16, 19, 21, 23, 24, 25})
            out.push_back(onnx_op("Scan", v, infer_scan, "shape, type",
                                  "num_scan_inputs in range; axes and directions per input/output, in range; scan "
                                  "lengths equal; body inputs and outputs"));
        out.push_back(
            onnx_op("SequenceConstruct", 11, infer_sequence_construct, "(sequence: unknown)", "inputs of one type"));
        out.push_back(onnx_op("SequenceEmpty", 11, infer_sequence_empty, "(sequence: unknown)"));
        out.push_back(
            onnx_op("SequenceInsert", 11, infer_sequence_insert, "(sequence: unknown)", "position type, rank"));
        out.push_back(onnx_op("SequenceErase", 11, infer_sequence_erase, "(sequence: unknown)", "position type, rank"));
        out.push_back(onnx_op("SequenceAt", 11, infer_sequence_at, "(element: unknown)", "position type, rank"));
        out.push_back(onnx_op("SequenceLength", 11, infer_sequence_length, "shape, type"));
        out.push_back(onnx_op("ConcatFromSequence", 11, infer_concat_from_sequence, "(element: unknown)",
                              "axis given; new_axis 0 or 1"));
        for (int v : {11, 24})
            out.push_back(onnx_op("SplitToSequence", v, infer_split_to_sequence, "(sequence: unknown)",
                                  "axis in range; split type and rank"));
        out.push_back(
            onnx_op("SequenceMap", 17, infer_sequence_map, "(sequences: unknown)", "a body input per input; outputs"));
        out.push_back(onnx_op("Optional", 15, infer_optional, "(optional: unknown)", "an input or the type attribute"));
        for (int v : {15, 18}) {
            out.push_back(onnx_op("OptionalHasElement", v, infer_optional_has_element, "shape, type"));
            out.push_back(onnx_op("OptionalGetElement", v, infer_optional_get_element, "shape, type (a tensor input)"));
        }
        return out;
    }();
    return entries;
}

}  // namespace irlint
