#include "ir/model.hpp"

namespace irlint {

const std::string_view* Layer::attr(std::string_view key) const {
    for (const auto& [k, v] : attrs)
        if (k == key) return &v;
    return nullptr;
}

const Port* Layer::find_input(std::string_view port_id) const {
    for (const auto& p : inputs)
        if (p.id == port_id) return &p;
    return nullptr;
}

const Port* Layer::find_output(std::string_view port_id) const {
    for (const auto& p : outputs)
        if (p.id == port_id) return &p;
    return nullptr;
}

std::string_view Model::keep(std::string s) { return kept.emplace_back(std::move(s)); }

LayerRef layer_ref(const Layer& layer) {
    return {std::string(layer.id), std::string(layer.name), std::string(layer.type)};
}

size_t Model::layer_count() const {
    size_t n = 0;
    for (const auto& g : graphs) n += g.layers.size();
    return n;
}

}  // namespace irlint
