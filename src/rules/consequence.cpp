#include "rules/consequence.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

// What a change entering a layer leads to, over every path from it.
struct Reach {
    std::optional<size_t> breaks;    // the first layer (in topological order) that then fails
    std::vector<size_t> outputs;     // the Results whose dims or type change, by layer index, sorted
    size_t depth = 0;                // the most layers the change passes through to one of them
    std::optional<size_t> absorber;  // the first layer that gives its declared outputs anyway
    bool unknown = false;            // a path enters a layer whose outputs irlint cannot infer again

    bool empty() const { return !breaks && outputs.empty() && !absorber && !unknown; }
};

bool mismatch_rule(const Diagnostic& d) {
    return d.rule == rule::output_shape_mismatch.id || d.rule == rule::output_type_mismatch.id;
}

class ConsequencePass {
public:
    ConsequencePass(const CheckedGraph& checked, std::span<Diagnostic> findings)
        : c_(checked), graph_(checked.graph), findings_(findings) {}

    void run() {
        index_findings();
        if (origins_.empty()) return;
        index_consumers();
        position_.resize(graph_.layers.size());
        for (size_t k = 0; k < c_.index.topo_order.size(); ++k) position_[c_.index.topo_order[k]] = k;
        reach_.resize(graph_.layers.size());
        for (auto it = c_.index.topo_order.rbegin(); it != c_.index.topo_order.rend(); ++it) reach_[*it] = entering(*it);
        for (const auto& [finding, origin] : origins_) conclude(findings_[finding], origin.first, origin.second);
    }

private:
    // The error mismatch findings on op layers' ports: where each starts, and which ports each layer has wrong.
    void index_findings() {
        std::unordered_map<std::string_view, size_t> by_id;
        for (size_t i = 0; i < graph_.layers.size(); ++i) by_id.emplace(graph_.layers[i].id, i);
        wrong_ports_.resize(graph_.layers.size());
        for (size_t f = 0; f < findings_.size(); ++f) {
            const Diagnostic& d = findings_[f];
            if (d.severity != Severity::error || !mismatch_rule(d) || d.port.empty()) continue;
            const auto it = by_id.find(d.layer.id);
            if (it == by_id.end() || !c_.rows[it->second] || !c_.rows[it->second]->op) continue;
            const auto port = output_index(graph_.layers[it->second], d.port);
            if (!port) continue;
            wrong_ports_[it->second].push_back(*port);
            origins_.push_back({f, {it->second, *port}});
        }
    }

    static std::optional<size_t> output_index(const Layer& l, std::string_view port) {
        for (size_t k = 0; k < l.outputs.size(); ++k)
            if (l.outputs[k].id == port) return k;
        return std::nullopt;
    }

    void index_consumers() {
        consumers_.resize(graph_.layers.size());
        for (size_t i = 0; i < c_.index.producer_of.size(); ++i)
            for (const auto& src : c_.index.producer_of[i])
                if (src) consumers_[src->layer].push_back({src->port, i});
    }

    // What a change on some input of layer i leads to. Its row is its inference from the inputs the runtime
    // gives it (the check passes a conflicting port's inferred dims on).
    Reach entering(size_t i) {
        const Layer& l = graph_.layers[i];
        const LayerShapes* row = c_.rows[i];
        Reach r;
        if (l.kind == LayerKind::result) {
            if (row && result_changes(*row)) r.outputs = {i};
            return r;
        }
        if (!row) {
            r.unknown = true;
            return r;
        }
        if (row->status == LayerStatus::invalid) {
            r.breaks = i;
            return r;
        }
        if (row->status == LayerStatus::mismatch) return through(i, [&](size_t k) {
            return std::find(wrong_ports_[i].begin(), wrong_ports_[i].end(), k) != wrong_ports_[i].end();
        });
        // A layer whose inference may not see the change: its op is unknown, its values are, or its outputs
        // come from bodies inferred from their declared ports.
        if (row->status != LayerStatus::ok || !row->op || !row->checked || !l.bodies.empty()) {
            r.unknown = true;
            return r;
        }
        // Values (a ShapeOf's dims) may change although their dims do not.
        if (c_.carries_values[i]) {
            r = through(i, [](size_t) { return true; });
            if (!r.empty()) return r;
        }
        r.absorber = i;
        return r;
    }

    // The change passed on from layer i's output ports that `changed` selects.
    template <class Changed>
    Reach through(size_t i, Changed changed) {
        Reach r;
        for (const auto& [port, consumer] : consumers_[i])
            if (changed(port)) merge(r, reach_[consumer]);
        if (!r.outputs.empty()) ++r.depth;
        return r;
    }

    void merge(Reach& into, const Reach& from) const {
        auto earlier = [this](std::optional<size_t> a, std::optional<size_t> b) {
            if (!a) return b;
            if (!b) return a;
            return position_[*a] <= position_[*b] ? a : b;
        };
        into.breaks = earlier(into.breaks, from.breaks);
        into.absorber = earlier(into.absorber, from.absorber);
        into.unknown = into.unknown || from.unknown;
        into.depth = std::max(into.depth, from.depth);
        std::vector<size_t> outputs;
        std::set_union(into.outputs.begin(), into.outputs.end(), from.outputs.begin(), from.outputs.end(),
                       std::back_inserter(outputs));
        into.outputs = std::move(outputs);
    }

    // A Result whose input now differs from the one its port declares: the model returns other dims or type.
    static bool result_changes(const LayerShapes& row) {
        return !row.inputs.empty() && !row.layer->inputs.empty() &&
               (!result_shape_text(row).empty() || !result_type_text(row).empty());
    }

    static std::string result_shape_text(const LayerShapes& row) {
        const Port& port = row.layer->inputs[0];
        const Shape declared = declared_shape(port);
        if (!port.dims_valid || declared.compatible(row.inputs[0])) return "";
        return fmt::format("{} becomes {}", declared.str(), row.inputs[0].str());
    }

    // An IR v10 output of f16 declared f32 is what the runtime hands over anyway (the legacy precision).
    static std::string result_type_text(const LayerShapes& row) {
        const auto& declared = row.layer->inputs[0].precision;
        const auto& given = row.input_types.empty() ? std::nullopt : row.input_types[0];
        if (!declared || !given || *declared == *given || *declared == ElementType::dynamic ||
            *given == ElementType::dynamic)
            return "";
        if (*declared == ElementType::f32 && (*given == ElementType::f16 || *given == ElementType::bf16)) return "";
        return fmt::format("{} becomes {}", element_type_name(*declared), element_type_name(*given));
    }

    void conclude(Diagnostic& d, size_t origin, size_t port) {
        Reach r;
        bool consumed = false;
        for (const auto& [from, consumer] : consumers_[origin])
            if (from == port) {
                merge(r, reach_[consumer]);
                consumed = true;
            }
        // OpenVINO never reads an output port's declaration back: on a port no edge takes it changes nothing.
        if (!consumed) {
            d.severity = Severity::warning;
            return say(d, {Consequence::Kind::absorbed, layer_ref(graph_.layers[origin])},
                       "absorbed: nothing takes this output; the model's outputs are as declared");
        }
        if (r.breaks) return say(d, {Consequence::Kind::breaks, layer_ref(graph_.layers[*r.breaks])}, breaks_text(*r.breaks));
        if (!r.outputs.empty()) {
            Consequence c{Consequence::Kind::reaches};
            for (size_t o : r.outputs) c.outputs.push_back(output_name(o));
            c.layers = r.depth + 1;
            return say(d, c, reaches_text(r, c.layers));
        }
        if (r.unknown || !r.absorber) return;
        d.severity = Severity::warning;
        say(d, {Consequence::Kind::absorbed, layer_ref(graph_.layers[*r.absorber])}, absorbed_text(*r.absorber));
    }

    static void say(Diagnostic& d, Consequence c, const std::string& text) {
        d.message += "; " + text;
        d.consequence = std::move(c);
    }

    static std::string layer_text(const Layer& l) { return fmt::format("layer {} '{}' ({})", l.id, excerpt(l.name), l.type); }

    // A model output by the name an application asks for: the tensor name its producer gives it, else the
    // Result's own.
    std::string output_name(size_t result) const {
        const Layer& l = graph_.layers[result];
        const auto& src = c_.index.producer_of[result].empty() ? std::nullopt : c_.index.producer_of[result][0];
        if (src) {
            const std::string_view names = graph_.layers[src->layer].outputs[src->port].names;
            const std::string_view first = names.substr(0, names.find(','));
            if (!first.empty()) return std::string(first);
        }
        return std::string(l.name);
    }

    std::string reaches_text(const Reach& r, size_t layers) const {
        constexpr size_t kMaxListed = 3;
        std::vector<std::string> parts;
        for (size_t k = 0; k < r.outputs.size() && k < kMaxListed; ++k) {
            const LayerShapes& row = *c_.rows[r.outputs[k]];
            std::vector<std::string> changes;
            for (std::string s : {result_shape_text(row), result_type_text(row)})
                if (!s.empty()) changes.push_back(std::move(s));
            parts.push_back(fmt::format("'{}': {}", excerpt(output_name(r.outputs[k])), fmt::join(changes, ", ")));
        }
        if (r.outputs.size() > kMaxListed) parts.push_back(fmt::format("and {} more", r.outputs.size() - kMaxListed));
        return fmt::format("reaches output{} {} through {}", r.outputs.size() == 1 ? "" : "s", fmt::join(parts, "; "),
                           counted(layers, "layer"));
    }

    std::string breaks_text(size_t layer) const {
        const LayerRef ref = layer_ref(graph_.layers[layer]);
        for (const Diagnostic& d : findings_)
            if (d.severity == Severity::error && d.layer == ref && !mismatch_rule(d))
                return fmt::format("{} then fails: {}", layer_text(graph_.layers[layer]), d.message);
        return fmt::format("{} then fails", layer_text(graph_.layers[layer]));
    }

    std::string absorbed_text(size_t layer) const {
        const LayerShapes& row = *c_.rows[layer];
        std::vector<std::string> inputs;
        for (const Shape& s : row.inputs) inputs.push_back(s.str());
        std::vector<std::string> outputs;
        for (const Shape& s : row.declared) outputs.push_back(s.str());
        const bool broadcasts = row.op->infers.find("auto_broadcast") != std::string_view::npos;
        return fmt::format("absorbed: {} {} {} {} the declared {}; the model's outputs are as declared",
                           layer_text(graph_.layers[layer]), broadcasts ? "broadcasts" : "takes",
                           fmt::join(inputs, " and "), broadcasts ? "to" : "and gives", fmt::join(outputs, " and "));
    }

    const CheckedGraph& c_;
    const Graph& graph_;
    std::span<Diagnostic> findings_;
    std::vector<std::pair<size_t, std::pair<size_t, size_t>>> origins_;  // finding, (layer, output port)
    std::vector<std::vector<size_t>> wrong_ports_;                       // per layer: outputs with an error finding
    std::vector<std::vector<std::pair<size_t, size_t>>> consumers_;      // per layer: (output port, consumer)
    std::vector<size_t> position_;                                       // per layer: its place in topo_order
    std::vector<Reach> reach_;                                           // per layer: entering(layer)
};

}  // namespace

void add_consequences(const CheckedGraph& checked, std::span<Diagnostic> findings) {
    if (checked.index.has_cycle) return;
    ConsequencePass(checked, findings).run();
}

}  // namespace irlint
