#include "rules/structure.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "core/dim.hpp"
#include "core/text.hpp"

namespace irlint {

LayerRef layer_ref(const Layer& layer) { return {layer.id, layer.name, layer.type}; }

namespace {

class StructureChecker {
public:
    StructureChecker(const Graph& graph, Diagnostics& out) : g_(graph), out_(out) {}

    GraphIndex run() {
        index_ports();
        index_.producer_of.resize(g_.layers.size());
        for (size_t i = 0; i < g_.layers.size(); ++i) index_.producer_of[i].resize(g_.layers[i].inputs.size());
        index_layers();
        for (const Edge& e : g_.edges) connect(e);
        report_unconnected_inputs();
        order_topologically();
        report_unreachable();
        return std::move(index_);
    }

private:
    void emit(Severity s, std::string_view rule_id, int line, std::string message, const Layer* layer = nullptr,
              std::string port = {}) {
        Diagnostic d{s, std::string(rule_id), std::move(message), line, layer ? layer_ref(*layer) : LayerRef{}};
        d.port = std::move(port);
        out_.push_back(std::move(d));
    }

    std::string where() const { return g_.owner.empty() ? "" : fmt::format(" in the {}", g_.owner); }

    void index_layers() {
        for (size_t i = 0; i < g_.layers.size(); ++i) {
            const Layer& l = g_.layers[i];
            auto [it, inserted] = index_.layer_by_id.emplace(l.id, i);
            if (!inserted) {
                const Layer& first = g_.layers[it->second];
                emit(Severity::error, rule::ir_structure, l.line,
                     fmt::format("duplicate layer id {}{}: already used by '{}' at line {}; OpenVINO keeps only "
                                 "the last layer with an id",
                                 l.id, where(), first.name, first.line),
                     &l);
            }
            check_port_ids(l);
        }
    }

    void check_port_ids(const Layer& l) {
        std::unordered_map<std::string, int> seen;
        auto visit = [&](const Port& p) {
            auto [it, inserted] = seen.emplace(p.id, p.line);
            if (!inserted)
                emit(Severity::error, rule::ir_structure, p.line,
                     fmt::format("duplicate port id {} in layer {} (first at line {})", p.id, l.id, it->second), &l);
        };
        for (const Port& p : l.inputs) visit(p);
        for (const Port& p : l.outputs) visit(p);
    }

    const Layer* find_layer(const std::string& id, size_t* index) const {
        auto it = index_.layer_by_id.find(id);
        if (it == index_.layer_by_id.end()) return nullptr;
        *index = it->second;
        return &g_.layers[it->second];
    }

    // Port id -> index of its first port, per layer and direction: an edge finds its ports in constant time
    // however many ports a layer declares.
    using PortIds = std::unordered_map<std::string_view, size_t>;

    static PortIds ids_of(const std::vector<Port>& ports) {
        PortIds ids;
        for (size_t i = 0; i < ports.size(); ++i) ids.emplace(ports[i].id, i);
        return ids;
    }

    void index_ports() {
        for (const Layer& l : g_.layers) {
            input_ids_.push_back(ids_of(l.inputs));
            output_ids_.push_back(ids_of(l.outputs));
        }
    }

    static std::optional<size_t> port_index(const PortIds& ids, const std::string& id) {
        const auto it = ids.find(id);
        if (it == ids.end()) return std::nullopt;
        return it->second;
    }

    void connect(const Edge& e) {
        size_t from = 0, to = 0;
        const Layer* src = find_layer(e.from_layer, &from);
        const Layer* dst = find_layer(e.to_layer, &to);
        if (!src || !dst) {
            emit(Severity::error, rule::ir_structure, e.line,
                 fmt::format("edge {}:{} -> {}:{} names layer {}, which does not exist{}", e.from_layer, e.from_port,
                             e.to_layer, e.to_port, src ? e.to_layer : e.from_layer, where()));
            return;
        }
        const auto out_port = port_index(output_ids_[from], e.from_port);
        const auto in_port = port_index(input_ids_[to], e.to_port);
        if (!out_port) {
            const bool is_input = port_index(input_ids_[from], e.from_port).has_value();
            emit(Severity::error, rule::ir_structure, e.line,
                 fmt::format("edge {}:{} -> {}:{}: layer {} ('{}') has {} port {}; an edge must start at an output "
                             "port",
                             e.from_layer, e.from_port, e.to_layer, e.to_port, src->id, src->name,
                             is_input ? "only an input" : "no", e.from_port),
                 src);
            return;
        }
        if (!in_port) {
            const bool is_output = port_index(output_ids_[to], e.to_port).has_value();
            emit(Severity::error, rule::ir_structure, e.line,
                 fmt::format("edge {}:{} -> {}:{}: layer {} ('{}') has {} port {}; an edge must end at an input port",
                             e.from_layer, e.from_port, e.to_layer, e.to_port, dst->id, dst->name,
                             is_output ? "only an output" : "no", e.to_port),
                 dst);
            return;
        }
        auto& slot = index_.producer_of[to][*in_port];
        if (slot) {
            emit(Severity::error, rule::ir_structure, e.line,
                 fmt::format("input port {} of layer {} ('{}') is fed twice: by {}:{} and by {}:{}", e.to_port,
                             dst->id, dst->name, g_.layers[slot->layer].id, g_.layers[slot->layer].outputs[slot->port].id,
                             e.from_layer, e.from_port),
                 dst);
            return;
        }
        slot = PortRef{from, *out_port};
        compare_ports(e, *src, src->outputs[*out_port], *dst, dst->inputs[*in_port]);
    }

    void compare_ports(const Edge& e, const Layer& src, const Port& out, const Layer& dst, const Port& in) {
        if (out.dims_valid && in.dims_valid) {
            const Shape a = shape_from_port_dims(out.dims), b = shape_from_port_dims(in.dims);
            if (!a.compatible(b)) {
                emit(Severity::error, rule::edge_shape_mismatch, e.line,
                     fmt::format("edge {}:{} -> {}:{}: '{}' produces {} but '{}' declares input {}", src.id, out.id,
                                 dst.id, in.id, src.name, a.str(), dst.name, b.str()),
                     &dst, in.id);
            } else if (!(a == b)) {
                emit(Severity::warning, rule::edge_shape_mismatch, e.line,
                     fmt::format("edge {}:{} -> {}:{}: '{}' produces {} but '{}' declares input {} (compatible, "
                                 "but OpenVINO writes both sides alike)",
                                 src.id, out.id, dst.id, in.id, src.name, a.str(), dst.name, b.str()),
                     &dst, in.id);
            }
        }
        if (out.precision && in.precision && *out.precision != *in.precision) {
            emit(Severity::error, rule::edge_type_mismatch, e.line,
                 fmt::format("edge {}:{} -> {}:{}: '{}' produces {} but '{}' declares input {}", src.id, out.id,
                             dst.id, in.id, src.name, element_type_name(*out.precision), dst.name,
                             element_type_name(*in.precision)),
                 &dst, in.id);
        }
    }

    void report_unconnected_inputs() {
        for (size_t i = 0; i < g_.layers.size(); ++i) {
            const Layer& l = g_.layers[i];
            if (index_.layer_by_id.at(l.id) != i) continue;  // a duplicate: already reported
            for (size_t p = 0; p < l.inputs.size(); ++p)
                if (!index_.producer_of[i][p])
                    emit(Severity::error, rule::ir_structure, l.inputs[p].line,
                         fmt::format("input port {} of layer {} ('{}') has no incoming edge; OpenVINO rejects the "
                                     "layer as inconsistent",
                                     l.inputs[p].id, l.id, l.name),
                         &l);
        }
    }

    // Kahn's algorithm: no recursion, so deep graphs cannot exhaust the stack.
    void order_topologically() {
        const size_t n = g_.layers.size();
        std::vector<size_t> pending(n, 0);
        std::vector<std::vector<size_t>> consumers(n);
        for (size_t i = 0; i < n; ++i)
            for (const auto& p : index_.producer_of[i])
                if (p) {
                    ++pending[i];
                    consumers[p->layer].push_back(i);
                }
        std::vector<size_t> ready;
        for (size_t i = n; i-- > 0;)
            if (pending[i] == 0) ready.push_back(i);
        while (!ready.empty()) {
            const size_t i = ready.back();
            ready.pop_back();
            index_.topo_order.push_back(i);
            for (size_t c : consumers[i])
                if (--pending[c] == 0) ready.push_back(c);
        }
        if (index_.topo_order.size() == n) return;
        index_.has_cycle = true;
        std::vector<std::string> ids;
        const Layer* first = nullptr;
        size_t in_cycle = 0;
        for (size_t i = 0; i < n; ++i)
            if (pending[i] > 0) {
                if (!first) first = &g_.layers[i];
                if (ids.size() < 8) ids.push_back(g_.layers[i].id);
                index_.topo_order.push_back(i);
                index_.cyclic.push_back(i);
                ++in_cycle;
            }
        emit(Severity::error, rule::ir_structure, first->line,
             fmt::format("the graph{} has a cycle through layers {}{}", where(), fmt::join(ids, ", "),
                         in_cycle > ids.size() ? ", ..." : ""),
             first);
    }

    // OpenVINO builds the model by walking back from Result and Assign layers; whatever it does not reach is
    // dropped without a word.
    void report_unreachable() {
        const size_t n = g_.layers.size();
        std::vector<char> reached(n, 0);
        std::vector<size_t> stack;
        for (size_t i = 0; i < n; ++i)
            if (iequals(g_.layers[i].type, "Result") || iequals(g_.layers[i].type, "Assign") ||
                iequals(g_.layers[i].type, "Parameter")) {
                reached[i] = 1;
                stack.push_back(i);
            }
        while (!stack.empty()) {
            const size_t i = stack.back();
            stack.pop_back();
            for (const auto& p : index_.producer_of[i])
                if (p && !reached[p->layer]) {
                    reached[p->layer] = 1;
                    stack.push_back(p->layer);
                }
        }
        for (size_t i = 0; i < n; ++i)
            if (!reached[i])
                emit(Severity::warning, rule::ir_structure, g_.layers[i].line,
                     fmt::format("layer {} ('{}') does not lead to any Result; OpenVINO drops it when it reads the "
                                 "model",
                                 g_.layers[i].id, g_.layers[i].name),
                     &g_.layers[i]);
    }

    const Graph& g_;
    Diagnostics& out_;
    GraphIndex index_;
    std::vector<PortIds> input_ids_, output_ids_;  // per layer
};

}  // namespace

GraphIndex check_structure(const Graph& graph, Diagnostics& out) { return StructureChecker(graph, out).run(); }

}  // namespace irlint
