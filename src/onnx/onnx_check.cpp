#include "onnx/onnx_check.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/exit_keep.hpp"
#include "onnx/onnx_divergence.hpp"
#include "onnx/onnx_graph.hpp"
#include "rules/registry.hpp"

namespace irlint {

const OnnxPoolNode* OnnxCheck::pool_for(size_t node) const {
    for (const auto& p : pools)
        if (p.node == node) return &p;
    return nullptr;
}

namespace {

// Which ONNX pooling op a node's registry entry is, for the steps after inference (divergences, run).
std::optional<OnnxPoolOp> pool_op_of(const LayerShapes& ls) {
    if (!ls.op || ls.op->format != OpFormat::onnx || !ls.op->domain.empty()) return std::nullopt;
    for (const auto& [type, kind] : {std::pair{"AveragePool", OnnxPoolKind::average}, std::pair{"MaxPool", OnnxPoolKind::max},
                                     std::pair{"GlobalAveragePool", OnnxPoolKind::global_average},
                                     std::pair{"GlobalMaxPool", OnnxPoolKind::global_max}})
        if (ls.op->type == type) return OnnxPoolOp{kind, ls.op->version};
    return std::nullopt;
}

// The step after inference for a pooling node: what other runtimes do differently with it (a warning each),
// and the setup `run` executes it with.
void pooling_step(OnnxCheck& c, size_t node, LayerShapes& ls) {
    const auto op = pool_op_of(ls);
    if (!op || ls.inputs.empty()) return;
    const Layer& l = *ls.layer;
    OnnxPoolNode pool{node, *op, map_onnx_pool(*op, l, ls.inputs[0])};
    ls.pooling = true;
    const bool indices_used = l.outputs.size() > 1 && !l.outputs[1].names.empty();
    const PoolShape shape =
        pool.setup.usable() ? infer_onnx_pool_shape(*op, pool.setup, ls.inputs[0]) : PoolShape{};
    const OnnxPoolUse use{*op, pool.setup, ls.inputs[0], indices_used};
    for (auto& message : runtime_divergences(use, shape))
        c.report.diagnostics.push_back(make_finding(rule::runtime_divergence, fmt::format("{}: {}", op->name(), message),
                                                    0, layer_ref(l)));
    if (!ls.checked || !pool.setup.usable() || shape.error) return;
    ls.pool_op = pool.setup.kernel_op;
    ls.pooling_checked = true;
    ++c.report.pooling_checked;
    c.pools.push_back(std::move(pool));
}

// The rows of the main graph's nodes (the adapter puts them first, in graph order), with their findings and
// the adapter's.
void keep_node_rows(OnnxCheck& c, ModelReport&& full, Diagnostics&& adapter_findings) {
    const size_t nodes = c.onnx.node_count();
    c.report.diagnostics = std::move(full.diagnostics);
    c.report.diagnostics.insert(c.report.diagnostics.end(), std::make_move_iterator(adapter_findings.begin()),
                                std::make_move_iterator(adapter_findings.end()));
    full.layers.resize(std::min(full.layers.size(), nodes));
    c.report.layers = std::move(full.layers);
    for (const LayerShapes& ls : c.report.layers) {
        c.report.checked += ls.checked;
        c.report.checked_by_invariants += ls.checked_by_invariants;
    }
}

}  // namespace

std::unique_ptr<OnnxCheck> check_onnx(OnnxModel model, ProtoAfterAdapting proto) {
    auto c = std::make_unique<OnnxCheck>();
    c->onnx = std::move(model);
    OnnxGraphModel adapted = onnx_graph_model(c->onnx);
    c->model = std::move(adapted.model);
    // The Model holds copies of all it needs: the messages' memory goes back to the allocator, and the
    // engine's rows reuse it instead of pages the kernel would have to clear.
    if (proto == ProtoAfterAdapting::release) c->onnx.proto.reset();
    keep_node_rows(*c, check_model(c->model, LayerRows::all), std::move(adapted.findings));
    for (size_t i = 0; i < c->report.layers.size(); ++i) pooling_step(*c, i, c->report.layers[i]);
    std::stable_sort(c->report.diagnostics.begin(), c->report.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    mark_layers_with_errors(c->report);
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

namespace {

// The layers checked (fully or by invariants) and the coverage per op type, as the IR path lists them.
void list_layers(const OnnxCheck& c, FileResult& out) {
    for (const auto& ls : c.report.layers)
        if (ls.checked || ls.checked_by_invariants)
            out.checked_layers.push_back({layer_ref(*ls.layer), 0, !ls.checked});
    std::map<std::string, OpTypeCoverage> by_type;
    for (const auto& ls : c.report.layers) {
        OpTypeCoverage& t = by_type[std::string(ls.layer->type)];
        ++t.layers;
        t.checked += ls.checked;
        t.checked_by_invariants += ls.checked_by_invariants && !ls.checked;
    }
    for (auto& [type, t] : by_type) {
        t.type = type;
        out.op_types.push_back(std::move(t));
    }
}

}  // namespace

FileResult check_onnx_file(const std::string& path, bool keep, bool list_checked_layers) {
    FileResult out;
    out.path = path;
    OnnxRead read = read_onnx(path, OnnxParts::header);
    if (!read.model) {
        out.diagnostics.push_back(make_finding(rule::ir_structure, read.error));
        return out;
    }
    std::unique_ptr<OnnxCheck> c =
        check_onnx(std::move(*read.model), ProtoAfterAdapting::release);
    out.layers = c->onnx.node_count();
    out.checked = c->report.checked;
    out.checked_by_invariants = c->report.checked_by_invariants;
    if (list_checked_layers) list_layers(*c, out);
    out.diagnostics = keep ? c->report.diagnostics : std::move(c->report.diagnostics);
    if (keep) keep_until_exit(std::move(c));
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
