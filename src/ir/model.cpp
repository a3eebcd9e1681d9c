#include "ir/model.hpp"

#include "core/text.hpp"

namespace irlint {

int32_t canonical_id_number(std::string_view id) {
    if (id.empty() || id.size() > 9 || (id.size() > 1 && id[0] == '0')) return -1;
    int32_t n = 0;
    for (char c : id) {
        if (c < '0' || c > '9') return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

LayerKind layer_kind(std::string_view type) {
    static constexpr std::pair<std::string_view, LayerKind> kKinds[] = {
        {"Parameter", LayerKind::parameter},     {"Const", LayerKind::constant},
        {"Result", LayerKind::result},           {"Assign", LayerKind::assign},
        {"AvgPool", LayerKind::pooling},         {"MaxPool", LayerKind::pooling},
        {"AdaptiveAvgPool", LayerKind::pooling}, {"AdaptiveMaxPool", LayerKind::pooling},
    };
    for (const auto& [name, kind] : kKinds)
        if (iequals(type, name)) return kind;
    return LayerKind::other;
}

std::optional<int> opset_number(std::string_view version) {
    if (version.substr(0, 5) != "opset") return std::nullopt;
    const auto n = parse_int(version.substr(5));
    if (!n || *n < 0 || *n > 1000000) return std::nullopt;
    return static_cast<int>(*n);
}

const std::string_view* Layer::attr(std::string_view key) const {
    for (const auto& [k, v] : attrs)
        if (k == key) return &v;
    return nullptr;
}

const ObjectAttr* Layer::object_attr(std::string_view key) const {
    for (const ObjectAttr& a : object_attrs)
        if (a.name == key) return &a;
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

namespace irlint {

Shape declared_shape(const Port& port) {
    return (port.rank_known ? shape_from_port_dims(port.dims) : Shape::dynamic_rank()).as(port.kind);
}

}  // namespace irlint
