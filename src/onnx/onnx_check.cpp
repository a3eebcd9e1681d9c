#include "onnx/onnx_check.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "onnx/onnx_divergence.hpp"
#include "onnx/onnx_infer_cross.hpp"
#include "onnx/onnx_isolated_inference.hpp"
#include "rules/registry.hpp"

namespace irlint {

const OnnxPoolNode* OnnxCheck::pool_for(size_t node) const {
    for (const auto& p : pools)
        if (p.node == node) return &p;
    return nullptr;
}

namespace {

// `value` lives in the OnnxModel, which the OnnxCheck keeps beside the Model.
Port port_for(const std::string& value, const OnnxModel& m, size_t index, Model& model) {
    Port p;
    p.id = model.keep(std::to_string(index));
    p.id_number = canonical_id_number(p.id);
    p.names = value;
    const auto it = m.values.find(value);
    if (it == m.values.end()) return p;
    if (it->second.type) {
        p.precision = it->second.type;
        p.precision_text = element_type_name(*it->second.type);
    }
    if (it->second.shape && !it->second.shape->rank_dynamic) {
        std::vector<int64_t> dims;
        for (const Dim& d : it->second.shape->dims) dims.push_back(d.is_static() ? d.length() : -1);
        p.dims = model.store(std::span<const int64_t>(dims));
    }
    return p;
}

Layer layer_for(const OnnxNode& n, const OnnxModel& m, Model& model) {
    Layer l;
    l.id = model.keep(std::to_string(n.index));
    l.id_number = canonical_id_number(l.id);
    l.name = model.keep(n.display_name());
    l.type = n.op_type;
    l.kind = layer_kind(l.type);
    l.version = n.domain.empty() ? model.keep(fmt::format("opset{}", m.default_opset())) : std::string_view(n.domain);
    l.opset = opset_number(l.version);
    std::vector<Port> inputs, outputs;
    for (size_t i = 0; i < n.inputs.size(); ++i) inputs.push_back(port_for(n.inputs[i], m, i, model));
    for (size_t i = 0; i < n.outputs.size(); ++i) outputs.push_back(port_for(n.outputs[i], m, i, model));
    l.inputs = model.store(std::span<const Port>(inputs));
    l.outputs = model.store(std::span<const Port>(outputs));
    return l;
}

std::vector<ElementType> allowed_types(const OnnxPoolOp& op) {
    std::vector<ElementType> t{ElementType::f16, ElementType::f32, ElementType::f64};
    if (op.version >= 22) t.push_back(ElementType::bf16);
    if (op.kind == OnnxPoolKind::max && op.version >= 12) {
        t.push_back(ElementType::i8);
        t.push_back(ElementType::u8);
    }
    return t;
}

std::string type_list(const std::vector<ElementType>& types) {
    std::vector<std::string_view> names;
    for (ElementType t : types) names.push_back(element_type_name(t));
    return fmt::format("{}", fmt::join(names, ", "));
}

class Checker {
public:
    explicit Checker(OnnxCheck& c) : c_(c) {
        for (const auto& [name, value] : c.onnx.values)
            if (value.shape) known_[name] = *value.shape;
        for (const auto& n : c.onnx.nodes) produced_.insert(n.outputs.begin(), n.outputs.end());
    }

    void run(bool cross_check, LibraryErrors errors) {
        const auto& nodes = c_.onnx.nodes;
        std::optional<LibraryShapes> lib;
        if (cross_check && !nodes.empty()) lib = isolated_library_shape_inference(c_.onnx, {}, errors);
        if (lib && !lib->skipped) learn_undeclared(*lib);
        for (size_t i = 0; i < nodes.size(); ++i) c_.report.layers.push_back(check_node(nodes[i], i));
        if (lib) use_library(*lib);
        std::stable_sort(c_.report.diagnostics.begin(), c_.report.diagnostics.end(),
                         [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    }

private:
    const Layer& layer(size_t i) const { return c_.model.graphs[0].layers[i]; }

    // A pooling node whose input the file leaves undeclared takes it from the library's inference.
    void learn_undeclared(const LibraryShapes& lib) {
        for (const auto& [name, shape] : lib.shapes) known_.emplace(name, shape);
    }

    void emit(Severity s, const Rule& rule, size_t node, std::string message) {
        const Layer& l = layer(node);
        c_.report.diagnostics.push_back({s, std::string(rule.id), std::move(message), 0, layer_ref(l)});
    }

    Shape input_shape(const OnnxNode& n) const {
        if (n.inputs.empty()) return Shape::dynamic_rank();
        const auto it = known_.find(n.inputs[0]);
        return it == known_.end() ? Shape::dynamic_rank() : it->second;
    }

    std::optional<ElementType> value_type(const std::string& name) const {
        const auto it = c_.onnx.values.find(name);
        return it == c_.onnx.values.end() ? std::nullopt : it->second.type;
    }

    LayerShapes check_node(const OnnxNode& n, size_t i) {
        LayerShapes ls;
        ls.layer = &layer(i);
        const auto op = n.domain.empty() ? onnx_pool_op_for(n.op_type, c_.onnx.default_opset()) : std::nullopt;
        if (!op) {
            if (n.domain.empty() && onnx_pool_op_for(n.op_type, 1000))
                emit(Severity::note, rule::unsupported_op, i,
                     fmt::format("{} does not exist in opset {}: not checked", n.op_type, c_.onnx.default_opset()));
            return ls;
        }
        ls.pooling = true;
        const Shape input = input_shape(n);
        ls.inputs.push_back(input);
        OnnxPoolNode pool{i, *op, map_onnx_pool(*op, n, input)};
        for (size_t k = 0; k < n.outputs.size(); ++k) ls.declared.push_back(declared_shape(n.outputs[k]));
        ls.status = LayerStatus::ok;
        if (n.inputs.size() != 1 || n.outputs.empty() || n.outputs.size() > op->max_outputs() || n.outputs[0].empty()) {
            emit(Severity::error, rule::ir_structure, i,
                 fmt::format("{} takes 1 input and gives 1 to {} outputs; the node has {} and {}", op->name(),
                             op->max_outputs(), n.inputs.size(), n.outputs.size()));
            ls.status = LayerStatus::invalid;
            return ls;
        }
        for (const auto& e : pool.setup.errors) emit(Severity::error, rule::attr_invalid, i, fmt::format("{}: {}", op->name(), e));
        const bool indices_used = n.outputs.size() > 1 && !n.outputs[1].empty();
        if (!pool.setup.usable()) {
            warn_divergences(i, *op, pool.setup, input, PoolShape{}, indices_used);
            ls.status = LayerStatus::invalid;
            return ls;
        }
        const PoolShape shape = infer_onnx_pool_shape(*op, pool.setup, input);
        if (shape.error) {
            emit(Severity::error, rule::attr_invalid, i, fmt::format("{}: {}", op->name(), *shape.error));
            ls.status = LayerStatus::invalid;
            return ls;
        }
        warn_divergences(i, *op, pool.setup, input, shape, indices_used);
        ls.pool_op = pool.setup.kernel_op;
        ls.pooling_checked = true;
        ls.checked = true;
        ++c_.report.pooling_checked;
        ++c_.report.checked;
        for (size_t k = 0; k < n.outputs.size(); ++k) {
            ls.inferred.push_back(shape.output);
            compare_output(n, i, *op, k, shape, ls);
        }
        check_types(n, i, *op, ls);
        c_.pools.push_back(std::move(pool));
        return ls;
    }

    void warn_divergences(size_t i, const OnnxPoolOp& op, const OnnxPoolSetup& setup, const Shape& input,
                          const PoolShape& shape, bool indices_used) {
        const OnnxPoolUse use{op, setup, input, indices_used};
        for (auto& message : runtime_divergences(use, shape))
            emit(Severity::warning, rule::runtime_divergence, i, fmt::format("{}: {}", op.name(), message));
    }

    Shape declared_shape(const std::string& value) const {
        const auto it = c_.onnx.values.find(value);
        return it != c_.onnx.values.end() && it->second.shape ? *it->second.shape : Shape::dynamic_rank();
    }

    void compare_output(const OnnxNode& n, size_t i, const OnnxPoolOp& op, size_t k, const PoolShape& shape,
                        LayerShapes& ls) {
        const std::string& value = n.outputs[k];
        if (value.empty()) return;
        const Shape& declared = ls.declared[k];
        if (declared.rank_dynamic) known_[value] = shape.output;
        if (declared.compatible(shape.output)) return;
        emit(Severity::error, rule::output_shape_mismatch, i,
             fmt::format("{} output {} '{}' is declared {}, ONNX infers {}{}{}", op.name(), k, value, declared.str(),
                         shape.output.str(), shape.axis_formulas.empty() ? "" : ": ",
                         fmt::join(shape.axis_formulas, "; ")));
        ls.status = LayerStatus::mismatch;
    }

    void check_types(const OnnxNode& n, size_t i, const OnnxPoolOp& op, LayerShapes& ls) {
        const auto in = value_type(n.inputs[0]);
        const auto allowed = allowed_types(op);
        if (in && std::find(allowed.begin(), allowed.end(), *in) == allowed.end()) {
            emit(Severity::error, rule::output_type_mismatch, i,
                 fmt::format("{} takes {}; the input is {}", op.name(), type_list(allowed), element_type_name(*in)));
            ls.status = LayerStatus::invalid;
        }
        for (size_t k = 0; k < n.outputs.size(); ++k) {
            const auto declared = value_type(n.outputs[k]);
            const std::optional<ElementType> want = k == 1 ? std::optional(ElementType::i64) : in;
            if (!declared || !want || *declared == *want) continue;
            emit(Severity::error, rule::output_type_mismatch, i,
                 fmt::format("{} output {} '{}' is declared {}, ONNX gives {}", op.name(), k, n.outputs[k],
                             element_type_name(*declared), element_type_name(*want)));
            ls.status = LayerStatus::mismatch;
        }
    }

    // Static dims that irlint and the library both know and that differ.
    static bool disagree(const Shape& ours, const Shape& theirs) {
        if (ours.rank_dynamic || theirs.rank_dynamic) return false;
        if (ours.rank() != theirs.rank()) return true;
        for (size_t d = 0; d < ours.rank(); ++d)
            if (ours.dims[d].is_static() && theirs.dims[d].is_static() && ours.dims[d] != theirs.dims[d]) return true;
        return false;
    }

    // AveragePool, MaxPool and the global pools of the default domain are irlint's to infer, in any opset.
    bool irlint_infers(const OnnxNode& n) const { return n.domain.empty() && onnx_pool_op_for(n.op_type, 1000); }

    void use_library(const LibraryShapes& lib) {
        std::vector<size_t> others;
        for (const auto& n : c_.onnx.nodes)
            if (!irlint_infers(n)) others.push_back(n.index);
        if (lib.skipped) {
            if (!others.empty())
                emit(Severity::note, rule::unsupported_op, others[0],
                     fmt::format("{}: {} of {} nodes are not checked", *lib.skipped, others.size(), c_.onnx.nodes.size()));
            return;
        }
        cross_check_pools(lib);
        for (size_t i : others) check_with_library(c_.onnx.nodes[i], lib);
        for (const auto& [i, message] : lib.node_errors)
            if (i < c_.onnx.nodes.size()) library_rejects(c_.onnx.nodes[i], message, lib);
        for (const auto& [i, why] : lib.withheld)
            if (i < c_.onnx.nodes.size() && !irlint_infers(c_.onnx.nodes[i]))
                emit(Severity::note, rule::unsupported_op, i,
                     fmt::format("{} '{}' is not given to ONNX's shape inference: {}", c_.onnx.nodes[i].op_type,
                                 c_.onnx.nodes[i].display_name(), why));
    }

    // A value the library had to start from: a graph input or an initializer, or an output it inferred.
    bool reached(const std::string& value, const LibraryShapes& lib) const {
        return value.empty() || lib.elem_types.count(value) || c_.onnx.graph_inputs.count(value) ||
               (c_.onnx.values.count(value) && !produced_.count(value));
    }

    // The strict library's rejection of a node, which ONNX Runtime refuses to load: an error of its own
    // (attr-invalid when the library's reason names an attribute), unless an input is missing because an
    // earlier node was rejected (the library then rejects every node after it; the first one is the finding).
    // A pooling node is irlint's: the library's rejection is a cross-check note unless irlint rejects it too.
    void library_rejects(const OnnxNode& n, const std::string& message, const LibraryShapes& lib) {
        LayerShapes& ls = c_.report.layers[n.index];
        if (irlint_infers(n)) {
            if (ls.status != LayerStatus::invalid)
                emit(Severity::note, rule::onnx_shape_inference_mismatch, n.index,
                     fmt::format("{} '{}': irlint infers it, ONNX's shape inference rejects it: {}", n.op_type,
                                 n.display_name(), message));
            return;
        }
        if (!std::all_of(n.inputs.begin(), n.inputs.end(), [&](const std::string& v) { return reached(v, lib); })) {
            ls.not_checked = "an input is missing: ONNX's shape inference rejected a node before it";
            return;
        }
        const bool attribute = message.find("ttribute") != std::string::npos;
        emit(Severity::error, attribute ? rule::attr_invalid : rule::input_invalid, n.index,
             fmt::format("{} '{}': ONNX's shape inference rejects it: {}", n.op_type, n.display_name(), message));
        ls.status = LayerStatus::invalid;
        ls.not_checked = "ONNX's shape inference rejects it";
    }

    // Reshape's inference takes a target without a -1 as it is: the element counts are irlint's to compare.
    void check_reshape_count(const OnnxNode& n, const LayerShapes& ls) {
        if (!n.domain.empty() || n.op_type != "Reshape" || ls.inputs.empty() || ls.inferred.empty()) return;
        const Shape& in = ls.inputs[0];
        const Shape& out = ls.inferred[0];
        if (in.rank_dynamic || out.rank_dynamic || !in.is_static() || !out.is_static()) return;
        const Dim from = element_count(in), to = element_count(out);
        if (!from.is_static() || !to.is_static() || from == to) return;
        emit(Severity::error, rule::input_invalid, n.index,
             fmt::format("Reshape '{}': the input {} holds {} elements, the target shape {} holds {}",
                         n.display_name(), in.str(), from.length(), out.str(), to.length()));
        c_.report.layers[n.index].status = LayerStatus::invalid;
    }

    static Dim element_count(const Shape& s) {
        Dim count(1);
        for (const Dim& d : s.dims) count = count * d;
        return count;
    }

    void cross_check_pools(const LibraryShapes& lib) {
        for (const auto& pool : c_.pools) {
            const OnnxNode& n = c_.onnx.nodes[pool.node];
            const LayerShapes& ls = c_.report.layers[pool.node];
            for (size_t k = 0; k < ls.inferred.size() && k < n.outputs.size(); ++k) {
                const auto it = lib.shapes.find(n.outputs[k]);
                if (it == lib.shapes.end() || !disagree(ls.inferred[k], it->second)) continue;
                emit(Severity::note, rule::onnx_shape_inference_mismatch, pool.node,
                     fmt::format("{} output {} '{}': irlint infers {}, ONNX's own shape inference {}", pool.op.name(),
                                 k, n.outputs[k], ls.inferred[k].str(), it->second.str()));
            }
        }
    }

    // A value as the library infers it, else as the file declares it.
    Shape library_or_declared(const LibraryShapes& lib, const std::string& value) const {
        const auto it = lib.shapes.find(value);
        return it != lib.shapes.end() ? it->second : declared_shape(value);
    }

    static std::optional<ElementType> library_type(const LibraryShapes& lib, const std::string& value) {
        const auto it = lib.elem_types.find(value);
        return it == lib.elem_types.end() ? std::nullopt : element_type_from_onnx(it->second);
    }

    // The library's outputs of a node irlint does not infer, against the declared ones.
    void check_with_library(const OnnxNode& n, const LibraryShapes& lib) {
        LayerShapes& ls = c_.report.layers[n.index];
        for (const auto& value : n.inputs) {
            ls.inputs.push_back(value.empty() ? Shape::dynamic_rank() : library_or_declared(lib, value));
            ls.input_types.push_back(value.empty() ? std::nullopt : value_type(value));
        }
        size_t inferred = 0, named = 0;
        bool mismatch = false;
        for (size_t k = 0; k < n.outputs.size(); ++k) {
            const std::string& value = n.outputs[k];
            ls.declared.push_back(declared_shape(value));
            const auto shape = value.empty() ? lib.shapes.end() : lib.shapes.find(value);
            const bool typed = !value.empty() && lib.elem_types.count(value);
            ls.inferred.push_back(shape != lib.shapes.end() ? shape->second : Shape::dynamic_rank());
            ls.inferred_types.push_back(value.empty() ? std::nullopt : library_type(lib, value));
            if (value.empty()) continue;
            ++named;
            if (shape == lib.shapes.end() && !typed) continue;
            // A type alone is compared, but only an output whose rank is known counts as inferred.
            if (shape != lib.shapes.end() && !shape->second.rank_dynamic) ++inferred;
            mismatch |= compare_with_library(n, k, ls.declared[k], ls.inferred[k], ls.inferred_types[k]);
        }
        ls.checked = named > 0 && inferred == named;
        ls.status = mismatch ? LayerStatus::mismatch : ls.checked ? LayerStatus::ok : LayerStatus::unsupported;
        check_reshape_count(n, ls);
        if (ls.checked) ++c_.report.checked;
        else ls.not_checked = fmt::format("ONNX's shape inference infers the shape of {} of its {} outputs", inferred, named);
    }

    // True on a finding.
    bool compare_with_library(const OnnxNode& n, size_t k, const Shape& declared, const Shape& inferred,
                              std::optional<ElementType> inferred_type) {
        const std::string& value = n.outputs[k];
        bool found = false;
        if (disagree(declared, inferred)) {
            emit(Severity::error, rule::output_shape_mismatch, n.index,
                 fmt::format("{} '{}' output {} '{}' is declared {}, ONNX infers {}", n.op_type, n.display_name(), k,
                             value, declared.str(), inferred.str()));
            found = true;
        }
        const auto declared_type = value_type(value);
        if (declared_type && inferred_type && *declared_type != *inferred_type) {
            emit(Severity::error, rule::output_type_mismatch, n.index,
                 fmt::format("{} '{}' output {} '{}' is declared {}, ONNX infers {}", n.op_type, n.display_name(), k,
                             value, element_type_name(*declared_type), element_type_name(*inferred_type)));
            found = true;
        }
        return found;
    }

    OnnxCheck& c_;
    std::map<std::string, Shape> known_;
    std::set<std::string> produced_;  // every value a node writes
};

}  // namespace

std::unique_ptr<OnnxCheck> check_onnx(OnnxModel model, bool cross_check, LibraryErrors errors) {
    auto c = std::make_unique<OnnxCheck>();
    c->onnx = std::move(model);
    c->model.xml_path = c->onnx.path;
    c->model.ir_version = c->onnx.ir_version;
    c->model.graphs.resize(1);
    for (const auto& n : c->onnx.nodes) c->model.graphs[0].layers.push_back(layer_for(n, c->onnx, c->model));
    Checker(*c).run(cross_check, errors);
    return c;
}

std::optional<size_t> find_onnx_node(const OnnxModel& model, const std::string& wanted, std::string* error) {
    std::vector<size_t> hits;
    for (const auto& n : model.nodes)
        if (n.name == wanted) hits.push_back(n.index);
    // An index comes before output names: exporters often name values "0", "1", ...
    if (hits.empty() && !wanted.empty() && wanted.size() < 19 && std::all_of(wanted.begin(), wanted.end(), ::isdigit)) {
        const auto index = std::stoull(wanted);
        if (index < model.nodes.size()) return index;
    }
    if (hits.empty())
        for (const auto& n : model.nodes)
            if (!n.outputs.empty() && n.outputs[0] == wanted) hits.push_back(n.index);
    if (hits.size() == 1) return hits[0];
    if (hits.empty()) {
        std::vector<std::string> pools;
        for (const auto& n : model.nodes)
            if (onnx_pool_op_for(n.op_type, 1000)) pools.push_back(fmt::format("{} '{}' ({})", n.index, n.display_name(), n.op_type));
        *error = fmt::format("no node with index, name or first output '{}'{}{}", wanted,
                             pools.empty() ? "" : "; pooling nodes: ", fmt::join(pools, ", "));
    } else {
        *error = fmt::format("'{}' names {} nodes (indices {}): give the index", wanted, hits.size(), fmt::join(hits, ", "));
    }
    return std::nullopt;
}

FileResult check_onnx_file(const std::string& path) {
    FileResult out;
    out.path = path;
    OnnxRead read = read_onnx(path);
    if (!read.model) {
        out.diagnostics.push_back(make_finding(rule::ir_structure, read.error));
        return out;
    }
    const auto c = check_onnx(std::move(*read.model));
    out.layers = c->onnx.nodes.size();
    out.checked = c->report.checked;
    for (const auto& ls : c->report.layers)
        if (ls.checked) out.checked_layers.push_back({layer_ref(*ls.layer), 0});
    out.diagnostics = c->report.diagnostics;
    return out;
}

namespace {

// A value as the file declares it, else as the node that writes it is inferred.
OnnxSummary::Value summary_value(const OnnxCheck& c, std::string_view kind, const std::string& name) {
    OnnxSummary::Value v{kind, name, Shape::dynamic_rank(), std::nullopt};
    if (const auto it = c.onnx.values.find(name); it != c.onnx.values.end()) {
        v.type = it->second.type;
        if (it->second.shape) v.shape = *it->second.shape;
    }
    if (!v.shape.rank_dynamic) return v;
    for (const OnnxNode& n : c.onnx.nodes)
        for (size_t k = 0; k < n.outputs.size(); ++k) {
            const LayerShapes& ls = c.report.layers[n.index];
            if (n.outputs[k] != name) continue;
            if (k < ls.inferred.size()) v.shape = ls.inferred[k];
            if (!v.type && k < ls.inferred_types.size()) v.type = ls.inferred_types[k];
        }
    return v;
}

}  // namespace

OnnxSummary summarize_onnx(const OnnxCheck& c) {
    OnnxSummary s;
    s.ir_version = c.onnx.ir_version;
    s.producer_name = c.onnx.producer_name;
    s.producer_version = c.onnx.producer_version;
    s.opsets.assign(c.onnx.opsets.begin(), c.onnx.opsets.end());
    for (const std::string& name : c.onnx.input_order) s.values.push_back(summary_value(c, "input", name));
    for (const std::string& name : c.onnx.outputs) s.values.push_back(summary_value(c, "output", name));
    return s;
}

}  // namespace irlint
