#include "rules/structure.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "core/dim.hpp"
#include "core/text.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

// Layer ids to layer indices. Real files number their layers 0, 1, 2, ...: such an id is found in an array;
// any other spelling ("01", "x", a huge number) in a hash map, so ids stay strings compared exactly.
class LayerIds {
public:
    explicit LayerIds(size_t layers) : by_number_(std::min<size_t>(4 * layers + 16, kMaxDense), kNone) {}

    // The index of the layer that had `id` first; `index` is kept when the id is new.
    size_t insert(std::string_view id, int32_t number, size_t index) {
        if (dense(number)) {
            if (by_number_[static_cast<size_t>(number)] == kNone) by_number_[static_cast<size_t>(number)] = index;
            return by_number_[static_cast<size_t>(number)];
        }
        return other_.emplace(id, index).first->second;
    }

    std::optional<size_t> find(std::string_view id, int32_t number) const {
        if (dense(number)) {
            const size_t found = by_number_[static_cast<size_t>(number)];
            return found == kNone ? std::nullopt : std::optional(found);
        }
        const auto it = other_.find(id);
        return it == other_.end() ? std::nullopt : std::optional(it->second);
    }

private:
    static constexpr size_t kNone = static_cast<size_t>(-1);
    static constexpr size_t kMaxDense = size_t{1} << 24;

    bool dense(int32_t number) const { return number >= 0 && static_cast<size_t>(number) < by_number_.size(); }

    std::vector<size_t> by_number_;
    std::unordered_map<std::string_view, size_t> other_;
};

class StructureChecker {
public:
    StructureChecker(const Graph& graph, Diagnostics& out, ModelFormat format)
        : g_(graph), out_(out), format_(format), layer_ids_(graph.layers.size()), duplicate_(graph.layers.size(), 0) {}

    GraphIndex run() {
        index_ports();
        index_.producer_of.resize(g_.layers.size());
        for (size_t i = 0; i < g_.layers.size(); ++i) index_.producer_of[i].resize(g_.layers[i].inputs.size());
        index_layers();
        for (const Edge& e : g_.edges) connect(e);
        report_unconnected_inputs();
        order_topologically();
        if (format_ == ModelFormat::ir) report_unreachable();
        return std::move(index_);
    }

private:
    void emit(Severity s, const Rule& rule, int line, std::string message, const Layer* layer = nullptr,
              std::string_view port = {}) {
        Diagnostic d{s, std::string(rule.id), std::move(message), line, layer ? layer_ref(*layer) : LayerRef{}};
        d.port = std::string(port);
        out_.push_back(std::move(d));
    }

    std::string where() const { return g_.owner.empty() ? "" : fmt::format(" in the {}", g_.owner); }

    void index_layers() {
        for (size_t i = 0; i < g_.layers.size(); ++i) {
            const Layer& l = g_.layers[i];
            const size_t first_index = layer_ids_.insert(l.id, l.id_number, i);
            if (first_index != i) {
                duplicate_[i] = 1;
                const Layer& first = g_.layers[first_index];
                emit(Severity::error, rule::ir_structure, l.line,
                     fmt::format("duplicate layer id {}{}: already used by '{}' at line {}; OpenVINO keeps only "
                                 "the last layer with an id",
                                 l.id, where(), first.name, first.line),
                     &l);
            }
            check_port_ids(l);
        }
    }

    // A layer has a handful of ports: pairs are compared directly; a file with very many ports on one layer
    // gets a hash set, so that no input makes this quadratic.
    void check_port_ids(const Layer& l) {
        const size_t n = l.inputs.size() + l.outputs.size();
        auto port = [&](size_t k) -> const Port& {
            return k < l.inputs.size() ? l.inputs[k] : l.outputs[k - l.inputs.size()];
        };
        auto report = [&](const Port& p, const Port& first) {
            emit(Severity::error, rule::ir_structure, p.line,
                 fmt::format("duplicate port id {} in layer {} (first at line {})", p.id, l.id, first.line), &l);
        };
        if (n <= kLinearPorts) {
            for (size_t i = 1; i < n; ++i)
                for (size_t j = 0; j < i; ++j)
                    if (same_id(port(j).id, port(j).id_number, port(i).id, port(i).id_number)) {
                        report(port(i), port(j));
                        break;
                    }
            return;
        }
        std::unordered_map<std::string_view, const Port*> seen;
        for (size_t k = 0; k < n; ++k) {
            auto [it, inserted] = seen.emplace(port(k).id, &port(k));
            if (!inserted) report(port(k), *it->second);
        }
    }

    const Layer* find_layer(std::string_view id, int32_t number, size_t* index) const {
        const auto found = layer_ids_.find(id, number);
        if (!found) return nullptr;
        *index = *found;
        return &g_.layers[*found];
    }

    static constexpr size_t kLinearPorts = 16;

    // Finds a layer's port by id: by a scan for the usual handful of ports, through a hash index built once
    // for a layer with many, so that an edge finds its port in constant time however many a layer declares.
    class PortIds {
    public:
        explicit PortIds(std::span<const Port> ports) : ports_(ports) {
            if (ports.size() <= kLinearPorts) return;
            by_id_ = std::make_unique<std::unordered_map<std::string_view, size_t>>();
            for (size_t i = 0; i < ports.size(); ++i) by_id_->emplace(ports[i].id, i);
        }
        std::optional<size_t> find(std::string_view id, int32_t number) const {
            if (!by_id_) {
                for (size_t i = 0; i < ports_.size(); ++i)
                    if (same_id(ports_[i].id, ports_[i].id_number, id, number)) return i;
                return std::nullopt;
            }
            const auto it = by_id_->find(id);
            if (it == by_id_->end()) return std::nullopt;
            return it->second;
        }

    private:
        std::span<const Port> ports_;
        std::unique_ptr<std::unordered_map<std::string_view, size_t>> by_id_;  // only for many ports
    };

    void index_ports() {
        input_ids_.reserve(g_.layers.size());
        output_ids_.reserve(g_.layers.size());
        for (const Layer& l : g_.layers) {
            input_ids_.emplace_back(l.inputs);
            output_ids_.emplace_back(l.outputs);
        }
    }

    void connect(const Edge& e) {
        size_t from = 0, to = 0;
        const Layer* src = find_layer(e.from_layer, e.from_layer_number, &from);
        const Layer* dst = find_layer(e.to_layer, e.to_layer_number, &to);
        if (!src || !dst) {
            emit(Severity::error, rule::ir_structure, e.line,
                 fmt::format("edge {}:{} -> {}:{} names layer {}, which does not exist{}", e.from_layer, e.from_port,
                             e.to_layer, e.to_port, src ? e.to_layer : e.from_layer, where()));
            return;
        }
        const auto out_port = output_ids_[from].find(e.from_port, e.from_port_number);
        const auto in_port = input_ids_[to].find(e.to_port, e.to_port_number);
        if (!out_port) {
            const bool is_input = input_ids_[from].find(e.from_port, e.from_port_number).has_value();
            emit(Severity::error, rule::ir_structure, e.line,
                 fmt::format("edge {}:{} -> {}:{}: layer {} ('{}') has {} port {}; an edge must start at an output "
                             "port",
                             e.from_layer, e.from_port, e.to_layer, e.to_port, src->id, src->name,
                             is_input ? "only an input" : "no", e.from_port),
                 src);
            return;
        }
        if (!in_port) {
            const bool is_output = output_ids_[to].find(e.to_port, e.to_port_number).has_value();
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

    // Two lists of port dims are compatible when they have one rank and agree wherever both are static
    // (-1 is dynamic); equal when they are the same list. Compared as written: a Shape for each side of every
    // edge is built only to word a finding.
    static bool dims_compatible(std::span<const int64_t> a, std::span<const int64_t> b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i] && a[i] != -1 && b[i] != -1) return false;
        return true;
    }

    void compare_ports(const Edge& e, const Layer& src, const Port& out, const Layer& dst, const Port& in) {
        const bool equal = std::equal(out.dims.begin(), out.dims.end(), in.dims.begin(), in.dims.end());
        if (out.dims_valid && in.dims_valid && !equal) {
            const Shape a = declared_shape(out), b = declared_shape(in);
            if (!dims_compatible(out.dims, in.dims)) {
                emit(Severity::error, rule::edge_shape_mismatch, e.line,
                     fmt::format("edge {}:{} -> {}:{}: '{}' produces {} but '{}' declares input {}", src.id, out.id,
                                 dst.id, in.id, src.name, a.str(), dst.name, b.str()),
                     &dst, in.id);
            } else {
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
            if (duplicate_[i]) continue;  // already reported
            for (size_t p = 0; p < l.inputs.size(); ++p)
                if (!index_.producer_of[i][p] && !l.inputs[p].omitted)
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
        // Each layer's consumers, side by side in one array: consumers[begin[i] .. begin[i + 1]).
        std::vector<size_t> begin(n + 1, 0);
        for (size_t i = 0; i < n; ++i)
            for (const auto& p : index_.producer_of[i])
                if (p) {
                    ++pending[i];
                    ++begin[p->layer + 1];
                }
        for (size_t i = 0; i < n; ++i) begin[i + 1] += begin[i];
        std::vector<size_t> consumers(begin[n]);
        std::vector<size_t> filled(begin.begin(), begin.end() - 1);
        for (size_t i = 0; i < n; ++i)
            for (const auto& p : index_.producer_of[i])
                if (p) consumers[filled[p->layer]++] = i;
        std::vector<size_t> ready;
        for (size_t i = n; i-- > 0;)
            if (pending[i] == 0) ready.push_back(i);
        if (format_ == ModelFormat::onnx) return order_as_the_file(pending, begin, consumers, ready);
        while (!ready.empty()) {
            const size_t i = ready.back();
            ready.pop_back();
            index_.topo_order.push_back(i);
            for (size_t k = begin[i]; k < begin[i + 1]; ++k)
                if (--pending[consumers[k]] == 0) ready.push_back(consumers[k]);
        }
        report_cycle(pending);
    }

    // ONNX: an If, Loop or Scan body reads values of the graphs around it by name, which no edge shows, and
    // ONNX's rule that nodes come in topological order covers those reads too. So the file's order is kept:
    // first the layers that need nothing (graph inputs, initializers), then the ready node that comes first in
    // the file. A file in topological order is checked in its own order; any other still in one of the edges.
    void order_as_the_file(std::vector<size_t>& pending, const std::vector<size_t>& begin,
                           const std::vector<size_t>& consumers, std::vector<size_t> sources) {
        std::vector<size_t> ready;  // a min-heap of layer indices
        const auto later = std::greater<size_t>{};
        const auto take = [&](size_t i) {
            index_.topo_order.push_back(i);
            for (size_t k = begin[i]; k < begin[i + 1]; ++k)
                if (--pending[consumers[k]] == 0) {
                    ready.push_back(consumers[k]);
                    std::push_heap(ready.begin(), ready.end(), later);
                }
        };
        for (auto it = sources.rbegin(); it != sources.rend(); ++it) take(*it);
        while (!ready.empty()) {
            std::pop_heap(ready.begin(), ready.end(), later);
            const size_t i = ready.back();
            ready.pop_back();
            take(i);
        }
        report_cycle(pending);
    }

    void report_cycle(const std::vector<size_t>& pending) {
        const size_t n = g_.layers.size();
        if (index_.topo_order.size() == n) return;
        index_.has_cycle = true;
        std::vector<std::string_view> ids;
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
            if (const LayerKind k = g_.layers[i].kind;
                k == LayerKind::result || k == LayerKind::assign || k == LayerKind::parameter) {
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
    const ModelFormat format_;
    GraphIndex index_;
    LayerIds layer_ids_;
    std::vector<char> duplicate_;                  // per layer: its id was taken by an earlier layer
    std::vector<PortIds> input_ids_, output_ids_;  // per layer
};

}  // namespace

GraphIndex check_structure(const Graph& graph, Diagnostics& out, ModelFormat format) {
    return StructureChecker(graph, out, format).run();
}

}  // namespace irlint
