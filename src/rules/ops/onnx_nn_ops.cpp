// The ONNX nn family: its files' tables joined, and the steps they share (onnx_nn.hpp).

#include <fmt/format.h>

#include "rules/ops/onnx_families.hpp"
#include "rules/ops/onnx_nn.hpp"

namespace irlint {

namespace onnx_nn {

std::string type_text(std::optional<ElementType> t) {
    return t ? std::string(element_type_name(*t)) : std::string("(undeclared)");
}

bool is_onnx_float(ElementType t) {
    return t == ElementType::f16 || t == ElementType::f32 || t == ElementType::f64 || t == ElementType::bf16;
}

bool is_onnx_numeric(ElementType t) { return t != ElementType::boolean && t != ElementType::string; }

bool check_type(OpContext& ctx, size_t i, std::string_view what, bool (*allowed)(ElementType),
                std::string_view expected) {
    const auto t = ctx.has_input(i) ? ctx.type(i) : std::nullopt;
    if (!t || *t == ElementType::dynamic || allowed(*t)) return true;
    ctx.invalid_input(fmt::format("{} (input {}) is {}, not {}", what, i, type_text(t), expected));
    return false;
}

bool check_same_type(OpContext& ctx, size_t i, size_t j) {
    if (!ctx.has_input(i) || !ctx.has_input(j)) return true;
    const auto a = ctx.type(i), b = ctx.type(j);
    if (!a || !b || *a == ElementType::dynamic || *b == ElementType::dynamic || *a == *b) return true;
    ctx.invalid_input(
        fmt::format("inputs {} ({}) and {} ({}) must have one element type", i, type_text(a), j, type_text(b)));
    return false;
}

Shape unknown_dims(size_t n) {
    Shape s;
    s.dims.assign(n, Dim::dynamic());
    return s;
}

std::optional<bool> attr_flag(OpContext& ctx, std::string_view name, bool fallback) {
    const auto v = ctx.attr_int(name, fallback ? 1 : 0);
    if (!v) return std::nullopt;
    return *v != 0;
}

}  // namespace onnx_nn

std::span<const OpEntry> onnx_nn_ops() {
    static const std::vector<OpEntry> entries = [] {
        std::vector<OpEntry> out;
        for (const auto family : {onnx_nn::conv_entries, onnx_nn::norm_entries, onnx_nn::matmul_entries,
                                  onnx_nn::reduce_entries, onnx_nn::resize_entries, onnx_nn::rnn_entries})
            for (const OpEntry& e : family()) out.push_back(e);
        return out;
    }();
    return entries;
}

}  // namespace irlint
