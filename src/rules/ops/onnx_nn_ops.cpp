// The ONNX nn family: its files' tables joined, and the steps they share (onnx_nn.hpp).

#include <map>

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

bool is_narrow_float(ElementType t) { return t == ElementType::f16 || t == ElementType::bf16 || t == ElementType::f32; }

bool is_onnx_numeric(ElementType t) { return t != ElementType::boolean && t != ElementType::string; }

bool check_type(OpContext& ctx, size_t i, std::string_view what, bool (*allowed)(ElementType),
                std::string_view expected) {
    const auto t = ctx.has_input(i) ? ctx.type(i) : std::nullopt;
    if (!t || *t == ElementType::dynamic || allowed(*t)) return true;
    ctx.invalid_input(fmt::format("{} (input {}) is {}, not {}", what, i, type_text(t), expected));
    return false;
}

bool takes_bf16(const OpContext& ctx) {
    // The first version of each op whose type constraints hold bf16 (the Reduce* ops all at 13).
    static const std::map<std::string_view, int, std::less<>> since{
        {"AffineGrid", 20},
        {"ArgMax", 13},
        {"ArgMin", 13},
        {"Attention", 23},
        {"BatchNormalization", 14},
        {"Conv", 22},
        {"ConvTranspose", 22},
        {"CumProd", 26},
        {"CumSum", 14},
        {"DeformConv", 22},
        {"Gemm", 13},
        {"GlobalLpPool", 22},
        {"GridSample", 22},
        {"GroupNormalization", 21},
        {"GRU", 22},
        {"InstanceNormalization", 22},
        {"LayerNormalization", 17},
        {"LpNormalization", 22},
        {"LpPool", 22},
        {"LRN", 13},
        {"LSTM", 22},
        {"MatMul", 13},
        {"MaxRoiPool", 22},
        {"MaxUnpool", 22},
        {"MeanVarianceNormalization", 13},
        {"RMSNormalization", 23},
        {"RNN", 22},
        {"RotaryEmbedding", 23},
        {"TopK", 24},
    };
    const std::string_view type = ctx.layer().type;
    if (type.starts_with("Reduce")) return ctx.version() >= 13;
    const auto it = since.find(type);
    return it != since.end() && ctx.version() >= it->second;
}

namespace {

bool check_kind(OpContext& ctx, size_t i, std::string_view what, bool numeric) {
    const auto t = ctx.has_input(i) ? ctx.type(i) : std::nullopt;
    if (!t || *t == ElementType::dynamic) return true;
    const bool ok = *t == ElementType::bf16 ? takes_bf16(ctx) : numeric ? is_onnx_numeric(*t) : is_onnx_float(*t);
    if (ok) return true;
    ctx.invalid_input(fmt::format("{} (input {}) is {}, not {} this version takes", what, i, type_text(t),
                                  numeric ? "a numeric type" : "a float type"));
    return false;
}

}  // namespace

bool check_float(OpContext& ctx, size_t i, std::string_view what) { return check_kind(ctx, i, what, false); }
bool check_numeric(OpContext& ctx, size_t i, std::string_view what) { return check_kind(ctx, i, what, true); }

bool check_same_type(OpContext& ctx, size_t i, size_t j) {
    if (!ctx.has_input(i) || !ctx.has_input(j)) return true;
    const auto a = ctx.type(i), b = ctx.type(j);
    if (!a || !b || *a == ElementType::dynamic || *b == ElementType::dynamic || *a == *b) return true;
    ctx.invalid_input(
        fmt::format("inputs {} ({}) and {} ({}) must have one element type", i, type_text(a), j, type_text(b)));
    return false;
}

bool unify_input(OpContext& ctx, size_t i, std::string_view what, std::span<Dim> expected) {
    if (!ctx.has_input(i) || ctx.shape(i).rank_dynamic) return true;
    const Shape& s = ctx.shape(i);
    if (s.rank() != expected.size())
        return ctx.invalid_input(fmt::format("{} {} must be {}-D", what, s.str(), expected.size())), false;
    for (size_t d = 0; d < expected.size(); ++d) {
        const auto merged = Dim::merge(expected[d], s.dims[d]);
        if (!merged)
            return ctx.invalid_input(fmt::format("{} {}: dim {} is {}, where {} is expected", what, s.str(), d,
                                                 s.dims[d].str(), expected[d].str())),
                   false;
        expected[d] = *merged;
    }
    return true;
}

bool unify_dim(OpContext& ctx, Dim& dim, const Dim& other, std::string_view what, std::string_view how) {
    const auto merged = Dim::merge(dim, other);
    if (!merged)
        return ctx.invalid_input(fmt::format("{} is {}, but {} from {}", what, dim.str(), other.str(), how)), false;
    dim = *merged;
    return true;
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
