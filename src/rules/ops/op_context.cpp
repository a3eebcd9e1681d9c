#include "rules/ops/op_context.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.hpp"

namespace irlint {

namespace {

std::optional<double> parse_double(std::string_view s) {
    s = trim(s);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || std::isnan(v)) return std::nullopt;  // Clamp writes max="inf"
    return v;
}

// A comma-separated list as OpenVINO writes one ("1,2,3"; "" is the empty list). Read in place: a large
// model has a few lists on every layer.
template <class T, class Parse>
std::optional<std::vector<T>> parse_list(std::string_view text, Parse parse) {
    std::vector<T> out;
    if (trim(text).empty()) return out;
    out.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), ',')) + 1);
    for (size_t start = 0;;) {
        const size_t comma = text.find(',', start);
        const auto v = parse(trim(text.substr(start, comma == std::string_view::npos ? comma : comma - start)));
        if (!v) return std::nullopt;
        out.push_back(*v);
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

}  // namespace

const TensorValue* OpContext::value(size_t i) const { return i < inputs_.size() && values_ ? values_(i) : nullptr; }

std::optional<std::vector<int64_t>> OpContext::exact_values(size_t i) const {
    const TensorValue* v = value(i);
    if (!v) return std::nullopt;
    std::vector<int64_t> out;
    out.reserve(v->size());
    for (const ValueBounds& b : *v) {
        if (!b.exact()) return std::nullopt;
        out.push_back(b.lo);
    }
    return out;
}

bool OpContext::expect_inputs(size_t min, size_t max) {
    if (inputs_.size() < min || inputs_.size() > max) {
        const std::string wanted = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
        invalid_input(fmt::format("takes {} inputs, the layer has {}", wanted, inputs_.size()));
        return false;
    }
    return true;
}

std::optional<int64_t> OpContext::attr_int(std::string_view name, std::optional<int64_t> fallback) {
    const std::string_view* text = attr(name);
    if (!text) {
        if (!fallback) invalid_attribute(fmt::format("{} is missing (an integer)", name));
        return fallback;
    }
    const auto v = parse_int(trim(*text));
    if (!v) invalid_attribute(fmt::format("{}=\"{}\" is not an integer", name, excerpt(*text)));
    return v;
}

std::optional<std::vector<int64_t>> OpContext::attr_ints(std::string_view name,
                                                         std::optional<std::vector<int64_t>> fallback) {
    const std::string_view* text = attr(name);
    if (!text) {
        if (!fallback) invalid_attribute(fmt::format("{} is missing (a list of integers)", name));
        return fallback;
    }
    auto v = parse_list<int64_t>(*text, [](std::string_view s) { return parse_int(s); });
    if (!v) invalid_attribute(fmt::format("{}=\"{}\" is not a list of integers", name, excerpt(*text)));
    return v;
}

std::optional<double> OpContext::attr_float(std::string_view name, std::optional<double> fallback) {
    const std::string_view* text = attr(name);
    if (!text) {
        if (!fallback) invalid_attribute(fmt::format("{} is missing (a number)", name));
        return fallback;
    }
    const auto v = parse_double(*text);
    if (!v) invalid_attribute(fmt::format("{}=\"{}\" is not a number", name, excerpt(*text)));
    return v;
}

std::optional<std::vector<double>> OpContext::attr_floats(std::string_view name,
                                                          std::optional<std::vector<double>> fallback) {
    const std::string_view* text = attr(name);
    if (!text) {
        if (!fallback) invalid_attribute(fmt::format("{} is missing (a list of numbers)", name));
        return fallback;
    }
    auto v = parse_list<double>(*text, parse_double);
    if (!v) invalid_attribute(fmt::format("{}=\"{}\" is not a list of numbers", name, excerpt(*text)));
    return v;
}

std::optional<bool> OpContext::attr_bool(std::string_view name, std::optional<bool> fallback) {
    const std::string_view* text = attr(name);
    if (!text) {
        if (!fallback) invalid_attribute(fmt::format("{} is missing (true or false)", name));
        return fallback;
    }
    const std::string_view t = trim(*text);
    if (iequals(t, "true") || t == "1") return true;
    if (iequals(t, "false") || t == "0") return false;
    invalid_attribute(fmt::format("{}=\"{}\" is not true or false", name, excerpt(*text)));
    return std::nullopt;
}

std::optional<std::string_view> OpContext::attr_enum(std::string_view name, std::span<const std::string_view> allowed,
                                                     std::optional<std::string_view> fallback) {
    const std::string_view* text = attr(name);
    if (!text) {
        if (!fallback) invalid_attribute(fmt::format("{} is missing (one of {})", name, fmt::join(allowed, ", ")));
        return fallback;
    }
    for (const std::string_view a : allowed)
        if (iequals(trim(*text), a)) return a;
    invalid_attribute(fmt::format("{}=\"{}\" is not one of {}", name, excerpt(*text), fmt::join(allowed, ", ")));
    return std::nullopt;
}

std::optional<ElementType> OpContext::attr_type(std::string_view name, std::optional<ElementType> fallback) {
    const std::string_view* text = attr(name);
    if (!text) {
        if (!fallback) invalid_attribute(fmt::format("{} is missing (an element type)", name));
        return fallback;
    }
    const auto t = parse_element_type_attr(trim(*text));
    if (!t) invalid_attribute(fmt::format("{}=\"{}\" is not an element type", name, excerpt(*text)));
    return t;
}

const InlineTensor* OpContext::attr_tensor(std::string_view name) const {
    const ObjectAttr* a = layer_.object_attr(name);
    if (!a || a->kind != ObjectAttr::Kind::tensor || !model_ || a->index >= model_->tensors.size()) return nullptr;
    return &model_->tensors[a->index];
}

std::optional<size_t> OpContext::attr_graph(std::string_view name) const {
    const ObjectAttr* a = layer_.object_attr(name);
    if (!a || a->kind != ObjectAttr::Kind::graph || !model_ || a->index >= model_->graphs.size()) return std::nullopt;
    return a->index;
}

}  // namespace irlint
