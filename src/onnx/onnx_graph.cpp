#include "onnx/onnx_graph.hpp"

#include <cstring>
#include <map>
#include <set>
#include <iterator>
#include <span>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <google/protobuf/unknown_field_set.h>
#include <onnx/onnx_pb.h>

#include "core/half.hpp"
#include "core/text.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

// Bounds on what a hostile model can make the adapter build: bodies nested deeper than any real model nests
// them, and a total of layers that function calls (each call is a copy of its function's body) may not pass.
constexpr int kMaxGraphDepth = 64;
constexpr size_t kMaxLayers = 2'000'000;

// A value as a graph describes it (graph input, initializer, value_info or graph output).
struct ValueDecl {
    std::optional<ElementType> type;
    std::optional<std::span<const int64_t>> dims;  // in the Model's arena; nullopt: no shape; -1: a dim without a value
    ValueKind kind = ValueKind::tensor;             // a sequence's or optional's: type and dims are its tensors'
};

// The tensor type a value holds, and what kind of value holds it: a tensor, a sequence of tensors, an optional
// tensor or an optional sequence of tensors; nullptr for anything else (maps, sequences of sequences).
const onnx::TypeProto_Tensor* tensor_or_sequence(const onnx::TypeProto& t, ValueKind tensor, ValueKind sequence,
                                                  ValueKind& kind) {
    if (t.has_tensor_type()) {
        kind = tensor;
        return &t.tensor_type();
    }
    if (!t.has_sequence_type() || !t.sequence_type().elem_type().has_tensor_type()) return nullptr;
    kind = sequence;
    return &t.sequence_type().elem_type().tensor_type();
}

const onnx::TypeProto_Tensor* held_tensor(const onnx::TypeProto& t, ValueKind& kind) {
    if (t.has_optional_type())
        return tensor_or_sequence(t.optional_type().elem_type(), ValueKind::optional, ValueKind::optional_sequence, kind);
    return tensor_or_sequence(t, ValueKind::tensor, ValueKind::sequence, kind);
}

ValueDecl value_decl(const onnx::TypeProto& t, Model& m, std::vector<int64_t>& scratch) {
    ValueDecl v;
    const onnx::TypeProto_Tensor* held = held_tensor(t, v.kind);
    if (!held) return v;
    const auto& tt = *held;
    if (tt.elem_type() != 0) v.type = element_type_from_onnx(tt.elem_type());
    if (!tt.has_shape()) return v;
    scratch.clear();
    for (const auto& d : tt.shape().dim()) scratch.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
    v.dims = m.store(std::span<const int64_t>(scratch));
    return v;
}

void merge_decl(ValueDecl& into, const ValueDecl& from) {
    if (!into.type && !into.dims) into.kind = from.kind;
    if (into.kind != from.kind) return;
    if (!into.type) into.type = from.type;
    if (!into.dims) into.dims = from.dims;
}

// The integer elements of a small tensor, exactly (a Slice end of INT64_MAX must stay that).
std::optional<std::vector<int64_t>> tensor_ints(const onnx::TensorProto& t, size_t count, ElementType type) {
    using T = onnx::TensorProto;
    std::vector<int64_t> out;
    out.reserve(count);
    if (t.has_raw_data()) {
        const std::string& raw = t.raw_data();
        const size_t bytes = static_cast<size_t>(element_type_bits(type)) / 8;
        if (bytes == 0 || raw.size() != count * bytes) return std::nullopt;
        for (size_t i = 0; i < count; ++i) {
            const unsigned char* p = reinterpret_cast<const unsigned char*>(raw.data()) + i * bytes;
            uint64_t u = 0;
            for (size_t b = 0; b < bytes; ++b) u |= static_cast<uint64_t>(p[b]) << (8 * b);
            const bool is_signed = type == ElementType::i8 || type == ElementType::i16 || type == ElementType::i32 ||
                                   type == ElementType::i64;
            if (is_signed && bytes < 8 && (u >> (8 * bytes - 1)) & 1) u |= ~uint64_t{0} << (8 * bytes);
            out.push_back(static_cast<int64_t>(u));
        }
        return out;
    }
    switch (t.data_type()) {
        case T::INT64:
            if (static_cast<size_t>(t.int64_data_size()) != count) return std::nullopt;
            out.assign(t.int64_data().begin(), t.int64_data().end());
            return out;
        case T::UINT64:
            if (static_cast<size_t>(t.uint64_data_size()) != count) return std::nullopt;
            for (uint64_t v : t.uint64_data()) out.push_back(static_cast<int64_t>(v));
            return out;
        default:
            if (static_cast<size_t>(t.int32_data_size()) != count) return std::nullopt;
            out.assign(t.int32_data().begin(), t.int32_data().end());
            return out;
    }
}

std::optional<std::vector<double>> tensor_reals(const onnx::TensorProto& t, size_t count, ElementType type) {
    using T = onnx::TensorProto;
    std::vector<double> out;
    out.reserve(count);
    if (t.has_raw_data()) {
        const std::string& raw = t.raw_data();
        if (type == ElementType::f32 && raw.size() == count * 4) {
            for (size_t i = 0; i < count; ++i) {
                float f;
                std::memcpy(&f, raw.data() + i * 4, 4);
                out.push_back(f);
            }
            return out;
        }
        if (type == ElementType::f64 && raw.size() == count * 8) {
            for (size_t i = 0; i < count; ++i) {
                double d;
                std::memcpy(&d, raw.data() + i * 8, 8);
                out.push_back(d);
            }
            return out;
        }
        if ((type == ElementType::f16 || type == ElementType::bf16) && raw.size() == count * 2) {
            for (size_t i = 0; i < count; ++i) {
                uint16_t bits;
                std::memcpy(&bits, raw.data() + i * 2, 2);
                out.push_back(half_to_double(type, bits));
            }
            return out;
        }
        return std::nullopt;
    }
    if (t.data_type() == T::FLOAT && static_cast<size_t>(t.float_data_size()) == count) {
        out.assign(t.float_data().begin(), t.float_data().end());
        return out;
    }
    if (t.data_type() == T::DOUBLE && static_cast<size_t>(t.double_data_size()) == count) {
        out.assign(t.double_data().begin(), t.double_data().end());
        return out;
    }
    // ONNX keeps f16 and bf16 values' bits in int32_data, one value each.
    if ((type == ElementType::f16 || type == ElementType::bf16) && static_cast<size_t>(t.int32_data_size()) == count) {
        for (const int32_t bits : t.int32_data()) out.push_back(half_to_double(type, static_cast<uint16_t>(bits)));
        return out;
    }
    return std::nullopt;
}

InlineTensor inline_tensor(const onnx::TensorProto& t) {
    InlineTensor out;
    out.type = element_type_from_onnx(t.data_type()).value_or(ElementType::dynamic);
    out.dims.assign(t.dims().begin(), t.dims().end());
    const auto count = capped_element_count(out.dims, InlineTensor::kMaxInlineElements);
    if (!count || t.data_location() == onnx::TensorProto::EXTERNAL) return out;
    if (is_integer_type(out.type) || out.type == ElementType::boolean) {
        if (auto ints = tensor_ints(t, *count, out.type)) {
            out.ints = std::move(*ints);
            out.has_data = true;
        }
    } else if (is_real_type(out.type)) {
        if (auto reals = tensor_reals(t, *count, out.type)) {
            out.reals = std::move(*reals);
            out.has_data = true;
        }
    }
    return out;
}

// A function's attribute defaults (FunctionProto.attribute_proto, field 11, ONNX IR 9): the protobuf schema of
// the ONNX library irlint is built with predates them, so protobuf keeps them as unknown fields, read here.
std::vector<onnx::AttributeProto> attribute_defaults(const onnx::FunctionProto& f) {
    constexpr int kAttributeProtoField = 11;
    std::vector<onnx::AttributeProto> out;
    const google::protobuf::UnknownFieldSet& unknown = f.unknown_fields();
    for (int i = 0; i < unknown.field_count(); ++i) {
        const google::protobuf::UnknownField& field = unknown.field(i);
        if (field.number() != kAttributeProtoField ||
            field.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
            continue;
        onnx::AttributeProto a;
        if (a.ParseFromString(field.length_delimited())) out.push_back(std::move(a));
    }
    return out;
}

void append_joined(fmt::memory_buffer& out, const auto& items) {
    bool first = true;
    for (const auto& v : items) {
        if (!first) out.push_back(',');
        first = false;
        fmt::format_to(std::back_inserter(out), "{}", v);
    }
}

class Builder {
public:
    Builder(const OnnxModel& onnx, OnnxGraphModel& out) : onnx_(onnx), m_(out.model), findings_(out.findings) {
        for (const auto& f : onnx.proto->functions()) functions_[{f.domain(), f.name()}] = &f;
    }

    void build_main() {
        m_.format = ModelFormat::onnx;
        m_.ir_version = onnx_.ir_version;
        m_.xml_path = onnx_.path;
        m_.name = onnx_.proto->graph().name();
        Scope scope{nullptr, {}};
        build_graph(onnx_.proto->graph(), "", onnx_.opsets, scope, {}, 0);
    }

private:
    // A value of a graph: as the graph declares it, and the layer output that produces it (one table for
    // both: a large model's names are looked up a few times each, and each table entry is an allocation).
    struct Value {
        static constexpr size_t kNone = SIZE_MAX;
        ValueDecl decl;
        bool initializer = false;
        size_t layer = kNone;  // the producing layer's index in the graph, kNone until one is found
        size_t port = 0;       // its output index
        bool produced() const { return layer != kNone; }
    };

    // What a graph sees: its own values, then its enclosing graphs' (ONNX bodies read outer values by name).
    struct Scope {
        const Scope* outer = nullptr;
        std::unordered_map<std::string_view, Value> values;  // views into the graph's proto or the Model's arena
        bool defines(std::string_view name) const {
            for (const Scope* s = this; s; s = s->outer)
                if (s->values.count(name)) return true;
            return false;
        }
        const ValueDecl* find(std::string_view name) const {
            for (const Scope* s = this; s; s = s->outer)
                if (const auto it = s->values.find(name); it != s->values.end()) return &it->second.decl;
            return nullptr;
        }
        const Value* local(std::string_view name) const {
            const auto it = values.find(name);
            return it == values.end() ? nullptr : &it->second;
        }
        Value* local(std::string_view name) {
            const auto it = values.find(name);
            return it == values.end() ? nullptr : &it->second;
        }
        bool sees_nothing_outside() const {
            for (const Scope* s = outer; s; s = s->outer)
                if (!s->values.empty()) return false;
            return true;
        }
    };
    // The local value each port names, found once when the port is made (nullptr: none in this graph then),
    // so that recording producers and drawing edges look no name up again: on a large model the lookups were
    // cache misses, a sixth of a check. A table entry never moves, so the pointers stay valid.
    struct PortValues {
        std::vector<Value*> inputs;   // every layer's inputs, layer after layer
        std::vector<Value*> outputs;  // the nodes' outputs, node after node
    };
    using Opsets = std::map<std::string, int64_t>;
    // A function's attributes at one call: the call's attributes by name (ref_attr_name refers to them).
    using CallAttrs = std::map<std::string, const onnx::AttributeProto*>;

    // A copy of `s` in the Model's arena.
    std::string_view text(std::string_view s) {
        const auto kept = m_.store(std::span<const char>(s));
        return {kept.data(), kept.size()};
    }

    std::string_view text(const fmt::memory_buffer& b) { return text(std::string_view(b.data(), b.size())); }

    // Layer and port ids, "0", "1", ..., each stored once.
    std::string_view id_text(size_t k) {
        while (ids_.size() <= k) ids_.push_back(text(std::to_string(ids_.size())));
        return ids_[k];
    }

    void finding(const Rule& rule, std::string message, const Layer* layer = nullptr) {
        findings_.push_back(make_finding(rule, std::move(message), 0, layer ? layer_ref(*layer) : LayerRef{}));
    }

    Port make_port(size_t k, std::string_view value, Scope& scope, Value** local = nullptr) {
        Port p;
        p.id = id_text(k);
        p.id_number = canonical_id_number(p.id);
        p.names = text(value);
        p.rank_known = false;
        if (value.empty()) {
            p.omitted = true;
            return p;
        }
        Value* here = scope.local(value);
        if (local) *local = here;
        const ValueDecl* d = here ? &here->decl : scope.outer ? scope.outer->find(value) : nullptr;
        if (!d) return p;
        p.kind = d->kind;
        if (d->type) {
            p.precision = d->type;
            p.precision_text = element_type_name(*d->type);
        }
        if (d->dims) {
            p.rank_known = true;
            p.dims = *d->dims;
        }
        return p;
    }

    Layer base_layer(size_t id, std::string_view name, std::string_view type) {
        Layer l;
        l.id = id_text(id);
        l.id_number = canonical_id_number(l.id);
        l.name = name;
        l.type = type;
        return l;
    }

    static std::string domain_of(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

    size_t build_graph(const onnx::GraphProto& g, std::string owner, const Opsets& opsets, const Scope& outer,
                       const CallAttrs& call, int depth) {
        const size_t index = m_.graphs.size();  // into Model::graphs, which may grow while the bodies are built
        layers_built_ += static_cast<size_t>(g.node_size());
        m_.graphs.push_back(Graph{std::move(owner), {}, {}});
        Scope scope{&outer, {}};
        check_value_names(g);
        declare_values(g, scope);
        std::vector<Layer> layers;
        // Sized by what the file holds (its lists are parsed), not by a number it states.
        layers.reserve(static_cast<size_t>(g.node_size() + g.input_size() + g.initializer_size() + g.output_size()));
        PortValues values;
        for (int i = 0; i < g.node_size(); ++i)
            layers.push_back(node_layer(g.node(i), i, opsets, scope, values, call, depth));
        add_inputs_and_constants(g, scope, layers);
        note_outputs(layers, static_cast<size_t>(g.node_size()), values.outputs, scope);
        add_outer_values(layers, scope);
        add_results(g, scope, layers, values.inputs);
        Graph& graph = m_.graphs[index];
        graph.layers = std::move(layers);
        connect(graph, scope, values.inputs);
        return index;
    }

    // ONNX's checker refuses a graph input, output or initializer without a name: nothing could refer to it.
    void check_value_names(const onnx::GraphProto& g) {
        size_t unnamed = 0;
        for (const auto* list : {&g.input(), &g.output()})
            for (const auto& vi : *list) unnamed += vi.name().empty();
        for (const auto& init : g.initializer()) unnamed += init.name().empty();
        if (unnamed)
            finding(rule::ir_structure,
                    fmt::format("{} graph input{}, output{} or initializer{} ha{} an empty name; ONNX's checker and ONNX "
                                "Runtime refuse the model",
                                unnamed, unnamed == 1 ? "" : "s", unnamed == 1 ? "" : "s", unnamed == 1 ? "" : "s",
                                unnamed == 1 ? "s" : "ve"));
    }

    void declare_values(const onnx::GraphProto& g, Scope& scope) {
        scope.values.reserve(static_cast<size_t>(g.initializer_size() + g.input_size() + g.value_info_size() +
                                                 g.output_size() + g.node_size()));
        for (const auto& init : g.initializer()) {
            Value& v = scope.values[init.name()];
            v.decl.type = element_type_from_onnx(init.data_type());
            v.decl.dims = m_.store(std::span<const int64_t>(init.dims().data(), static_cast<size_t>(init.dims_size())));
            v.initializer = true;
        }
        std::vector<int64_t> scratch;
        for (const auto* list : {&g.input(), &g.value_info(), &g.output()})
            for (const auto& vi : *list) merge_decl(scope.values[vi.name()].decl, value_decl(vi.type(), m_, scratch));
        for (const auto& n : g.node())
            for (const auto& o : n.output())
                if (!o.empty()) scope.values.try_emplace(o);
    }

    Layer node_layer(const onnx::NodeProto& n, int index, const Opsets& opsets, Scope& scope, PortValues& values,
                     const CallAttrs& call, int depth) {
        Layer l = base_layer(static_cast<size_t>(index), text(n.name().empty() && n.output_size() ? n.output(0) : n.name()),
                             text(n.op_type()));
        const std::string domain = domain_of(n.domain());
        const auto opset = opsets.find(domain);
        l.domain = text(domain);
        l.version = domain.empty() ? version_text(opset == opsets.end() ? 0 : opset->second) : l.domain;
        if (opset != opsets.end()) l.opset = known_opset(domain, opset->second, l);
        l.kind = LayerKind::other;
        ports_.clear();
        for (int k = 0; k < n.input_size(); ++k)
            ports_.push_back(make_port(static_cast<size_t>(k), n.input(k), scope, &values.inputs.emplace_back()));
        l.inputs = m_.store(std::span<const Port>(ports_));
        // Port ids are unique across a layer's inputs and outputs, as in an IR.
        ports_.clear();
        for (int k = 0; k < n.output_size(); ++k)
            ports_.push_back(
                make_port(static_cast<size_t>(n.input_size() + k), n.output(k), scope, &values.outputs.emplace_back()));
        l.outputs = m_.store(std::span<const Port>(ports_));
        read_attributes(n, l, opsets, scope, call, depth);
        if (const auto* f = function_of(n)) expand_function(n, *f, l, scope, depth);
        return l;
    }

    const onnx::FunctionProto* function_of(const onnx::NodeProto& n) const {
        if (functions_.empty()) return nullptr;  // most models have none: no key to build
        const auto f = functions_.find({n.domain(), n.op_type()});
        return f == functions_.end() ? nullptr : f->second;
    }

    // "opset<N>", stored once per N.
    std::string_view version_text(int64_t opset) {
        auto [it, added] = version_texts_.try_emplace(opset);
        if (added) it->second = text(fmt::format("opset{}", opset));
        return it->second;
    }

    // The attribute a node gives, or the one its function's call gives for a reference (ref_attr_name).
    static const onnx::AttributeProto* resolve(const onnx::AttributeProto& a, const CallAttrs& call) {
        if (a.ref_attr_name().empty()) return &a;
        const auto it = call.find(a.ref_attr_name());
        return it == call.end() ? nullptr : it->second;
    }

    void read_attributes(const onnx::NodeProto& n, Layer& l, const Opsets& opsets, const Scope& scope,
                         const CallAttrs& call, int depth) {
        std::vector<Attr> attrs;
        std::vector<ObjectAttr> objects;
        std::vector<size_t> bodies;
        for (const auto& given : n.attribute()) {
            const onnx::AttributeProto* a = resolve(given, call);
            if (!a) continue;  // a reference the call leaves unset: the attribute is absent
            const std::string_view name = text(given.name());
            using A = onnx::AttributeProto;
            fmt::memory_buffer value;
            switch (a->type()) {
                case A::INT: fmt::format_to(std::back_inserter(value), "{}", a->i()); attrs.emplace_back(name, text(value)); break;
                case A::INTS: append_joined(value, a->ints()); attrs.emplace_back(name, text(value)); break;
                case A::FLOAT: fmt::format_to(std::back_inserter(value), "{}", a->f()); attrs.emplace_back(name, text(value)); break;
                case A::FLOATS: append_joined(value, a->floats()); attrs.emplace_back(name, text(value)); break;
                case A::STRING: attrs.emplace_back(name, text(a->s())); break;
                case A::STRINGS:
                    append_joined(value, a->strings());
                    attrs.emplace_back(name, text(value));
                    objects.push_back({name, ObjectAttr::Kind::strings, static_cast<size_t>(a->strings_size())});
                    break;
                case A::TENSOR:
                    objects.push_back({name, ObjectAttr::Kind::tensor, m_.tensors.size()});
                    m_.tensors.push_back(inline_tensor(a->t()));
                    break;
                case A::GRAPH: {
                    if (depth >= kMaxGraphDepth || layer_budget_exhausted()) {
                        too_deep(l);
                        break;
                    }
                    const size_t body = build_graph(a->g(), fmt::format("{} of node {}", given.name(), l.id), opsets,
                                                    scope, call, depth + 1);
                    objects.push_back({name, ObjectAttr::Kind::graph, body});
                    bodies.push_back(body);
                    break;
                }
                default: attrs.emplace_back(name, std::string_view()); break;
            }
        }
        if (n.op_type() == "Constant" && domain_of(n.domain()).empty())
            for (const ObjectAttr& o : objects)
                if (o.kind == ObjectAttr::Kind::tensor && (o.name == "value" || o.name == "sparse_value"))
                    l.tensor = static_cast<int32_t>(o.index);
        l.attrs = m_.store(std::span<const Attr>(attrs));
        l.object_attrs = m_.store(std::span<const ObjectAttr>(objects));
        l.bodies = m_.store(std::span<const size_t>(bodies));
    }

    // The opset a node is checked under: the import, or the newest irlint knows of a domain it knows when the
    // import is newer (said once per domain).
    int known_opset(const std::string& domain, int64_t imported, const Layer& l) {
        const int newest = newest_opset_known(domain).value_or(INT32_MAX);
        if (imported < 1) imported = 1;
        if (imported <= newest) return static_cast<int>(imported);
        if (newer_opset_said_.insert(domain).second)
            finding(rule::unsupported_op,
                    fmt::format("the model imports opset {} of {}; irlint knows {} up to opset {}: its nodes are checked "
                                "as of opset {}",
                                imported, domain.empty() ? "ai.onnx" : excerpt(domain),
                                domain.empty() ? "ai.onnx" : excerpt(domain), newest, newest),
                    &l);
        return newest;
    }

    void too_deep(const Layer& l) {
        if (reported_depth_) return;
        reported_depth_ = true;
        finding(rule::ir_structure,
                fmt::format("graphs nested deeper than {} levels (or more than {} nodes with function bodies "
                            "expanded): the deeper bodies are not checked",
                            kMaxGraphDepth, kMaxLayers),
                &l);
    }

    bool layer_budget_exhausted() const { return layers_built_ > kMaxLayers; }

    // A call of a model-local function: its body, with the call's attributes, becomes the layer's body graph.
    void expand_function(const onnx::NodeProto& n, const onnx::FunctionProto& f, Layer& l, const Scope& scope,
                         int depth) {
        const std::pair<std::string, std::string> key{n.domain(), n.op_type()};
        if (calling_.count(key)) {
            finding(rule::ir_structure,
                    fmt::format("function {} calls itself (directly or through other functions); ONNX functions "
                                "cannot recurse",
                                excerpt(n.op_type())),
                    &l);
            return;
        }
        if (depth >= kMaxGraphDepth || layer_budget_exhausted()) return too_deep(l);
        onnx::GraphProto body;
        for (const auto& i : f.input()) body.add_input()->set_name(i);
        for (const auto& o : f.output()) body.add_output()->set_name(o);
        for (const auto& node : f.node()) *body.add_node() = node;
        Opsets opsets;
        for (const auto& op : f.opset_import()) opsets[domain_of(op.domain())] = op.version();
        CallAttrs call;
        for (const auto& a : n.attribute()) call[a.name()] = &a;
        const std::vector<onnx::AttributeProto> defaults = attribute_defaults(f);
        for (const auto& a : defaults) call.try_emplace(a.name(), &a);
        calling_.insert(key);
        Scope none{nullptr, {}};
        const size_t g = build_graph(body, fmt::format("function {} of node {}", excerpt(n.op_type()), l.id), opsets,
                                     none, call, depth + 1);
        calling_.erase(key);
        (void)scope;
        l.kind = LayerKind::function_call;
        const size_t bodies[] = {g};
        l.bodies = m_.store(std::span<const size_t>(bodies));
    }

    void add_inputs_and_constants(const onnx::GraphProto& g, Scope& scope, std::vector<Layer>& layers) {
        for (const auto& vi : g.input()) {
            Value& v = scope.values[vi.name()];
            if (v.initializer || v.produced()) continue;
            Layer l = base_layer(layers.size(), text(vi.name()), "Parameter");
            l.kind = LayerKind::parameter;
            const Port out[] = {make_port(0, vi.name(), scope)};
            l.outputs = m_.store(std::span<const Port>(out));
            v.layer = layers.size();
            v.port = 0;
            layers.push_back(l);
        }
        for (const auto& init : g.initializer()) {
            Value& v = scope.values[init.name()];
            if (v.produced()) {
                finding(rule::ir_structure, fmt::format("initializer '{}' is given twice", excerpt(init.name())));
                continue;
            }
            Layer l = base_layer(layers.size(), text(init.name()), "Const");
            l.kind = LayerKind::constant;
            l.tensor = static_cast<int32_t>(m_.tensors.size());
            m_.tensors.push_back(inline_tensor(init));
            const Port out[] = {make_port(0, init.name(), scope)};
            l.outputs = m_.store(std::span<const Port>(out));
            v.layer = layers.size();
            v.port = 0;
            layers.push_back(l);
        }
    }

    // `values`: the nodes' outputs' entries, as make_port found them (every node output was declared).
    void note_outputs(const std::vector<Layer>& layers, size_t nodes, std::span<Value* const> values, Scope& scope) {
        size_t next = 0;
        for (size_t i = 0; i < nodes; ++i) {
            const Layer& l = layers[i];
            for (size_t k = 0; k < l.outputs.size(); ++k, ++next) {
                const std::string_view name = l.outputs[k].names;
                if (name.empty()) continue;
                Value& v = values[next] ? *values[next] : scope.values[name];
                if (!v.produced()) {
                    v.layer = i;
                    v.port = k;
                } else
                    finding(rule::ir_structure,
                            fmt::format("value '{}' is produced twice (node {} and an earlier node, input or "
                                        "initializer); ONNX requires each name to be assigned once",
                                        excerpt(name), l.id),
                            &l);
            }
        }
    }

    // A body reads values of the graphs around it by name: each becomes a Parameter of the body, declared as
    // the outer graph declares it.
    void add_outer_values(std::vector<Layer>& layers, Scope& scope) {
        if (scope.sees_nothing_outside()) return;  // the main graph, a function body
        std::vector<std::string_view> wanted;
        for (const Layer& l : layers)
            for (const Port& p : l.inputs)
                if (!p.omitted && !produced_here(scope, p.names) && scope.outer->defines(p.names))
                    wanted.push_back(p.names);
        for (const std::string_view name : wanted) {
            if (produced_here(scope, name)) continue;
            Layer l = base_layer(layers.size(), name, "Parameter");
            l.kind = LayerKind::parameter;
            const Port out[] = {make_port(0, name, scope)};
            l.outputs = m_.store(std::span<const Port>(out));
            Value& v = scope.values[name];
            v.layer = layers.size();
            v.port = 0;
            layers.push_back(l);
        }
    }

    static bool produced_here(const Scope& scope, std::string_view name) {
        const Value* v = scope.local(name);
        return v && v->produced();
    }

    void add_results(const onnx::GraphProto& g, Scope& scope, std::vector<Layer>& layers,
                     std::vector<Value*>& input_values) {
        for (const auto& vi : g.output()) {
            Layer l = base_layer(layers.size(), text(vi.name()), "Result");
            l.kind = LayerKind::result;
            const Port in[] = {make_port(0, vi.name(), scope, &input_values.emplace_back())};  // no output port
            l.inputs = m_.store(std::span<const Port>(in));
            layers.push_back(l);
        }
    }

    // `values`: every layer's inputs' entries, as make_port found them; a name found only outside then (an
    // outer value, since made a Parameter here) is looked up again.
    void connect(Graph& graph, const Scope& scope, std::span<Value* const> values) {
        graph.edges.reserve(values.size());  // an edge per input at most
        size_t next = 0;
        for (size_t i = 0; i < graph.layers.size(); ++i) {
            Layer& l = graph.layers[i];
            for (size_t p = 0; p < l.inputs.size(); ++p, ++next) {
                const Port& in = l.inputs[p];
                if (in.omitted) continue;
                const Value* src = next < values.size() && values[next] ? values[next] : scope.local(in.names);
                if (!src || !src->produced()) {
                    undefined_input(l, p);
                    continue;
                }
                const Layer& from = graph.layers[src->layer];
                Edge e;
                e.from_layer = from.id;
                e.from_layer_number = from.id_number;
                e.from_port = from.outputs[src->port].id;
                e.from_port_number = from.outputs[src->port].id_number;
                e.to_layer = l.id;
                e.to_layer_number = l.id_number;
                e.to_port = in.id;
                e.to_port_number = in.id_number;
                graph.edges.push_back(e);
            }
        }
    }

    // A name nothing defines: ONNX Runtime refuses the model. The input is left out of the graph, so that the
    // node's rules see it as absent.
    void undefined_input(Layer& l, size_t p) {
        finding(rule::ir_structure,
                fmt::format("input {} '{}' of node {} is not a graph input, an initializer or any node's output; "
                            "ONNX Runtime refuses the model",
                            p, excerpt(l.inputs[p].names), l.id),
                &l);
        std::vector<Port> inputs(l.inputs.begin(), l.inputs.end());
        inputs[p].omitted = true;
        l.inputs = m_.store(std::span<const Port>(inputs));
    }

    const OnnxModel& onnx_;
    Model& m_;
    Diagnostics& findings_;
    std::map<std::pair<std::string, std::string>, const onnx::FunctionProto*> functions_;
    std::set<std::pair<std::string, std::string>> calling_;
    bool reported_depth_ = false;
    std::set<std::string> newer_opset_said_;
    std::vector<std::string_view> ids_;
    std::vector<Port> ports_;  // node_layer's scratch, stored before anything recurses
    std::map<int64_t, std::string_view> version_texts_;
    size_t layers_built_ = 0;
};

}  // namespace

OnnxGraphModel onnx_graph_model(const OnnxModel& onnx) {
    OnnxGraphModel out;
    Builder(onnx, out).build_main();
    return out;
}

}  // namespace irlint
