// More of ONNX Runtime's contrib operators (com.microsoft, opset 1), with the outputs ONNX Runtime's contrib
// shape inference gives (as ONNX Runtime 1.30 infers them): the quantized, ordered and 8-bit ops, the
// dropouts, the ops whose dims hang on a known value (ExpandDims, Range, Pad, ConvTransposeWithDynamicPads),
// text and hashing ops, and the few transformer ops onnx_microsoft_attention.cpp does not hold. Where ONNX
// Runtime's schema has no inference, or its inference leaves the dims unknown, only the type is given.

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "rules/onnx_pool.hpp"
#include "rules/ops/onnx_microsoft.hpp"
#include "rules/ops/onnx_nn.hpp"
#include "rules/ops/onnx_shape_common.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint {

namespace {

using namespace ms;

constexpr std::string_view kMs = "com.microsoft";

constexpr std::array kBool = {ElementType::boolean};
constexpr std::array kI8 = {ElementType::i8};
constexpr std::array kU8 = {ElementType::u8};
constexpr std::array kF32 = {ElementType::f32};
constexpr std::array kFloats3 = {ElementType::f32, ElementType::f64, ElementType::f16};
constexpr std::array kNumeric = {ElementType::f16, ElementType::f32, ElementType::f64, ElementType::bf16,
                                 ElementType::u8,  ElementType::u16, ElementType::u32, ElementType::u64,
                                 ElementType::i8,  ElementType::i16, ElementType::i32, ElementType::i64};

// The given inputs among `inputs`, which the schema binds to one type parameter, have one element type (ONNX
// Runtime refuses a node whose T is bound to two types).
bool one_type(OpContext& ctx, std::span<const size_t> inputs, std::string_view param) {
    std::optional<size_t> first;
    for (const size_t i : inputs) {
        if (!ctx.has_input(i) || !ctx.type(i)) continue;
        if (!first) {
            first = i;
        } else if (*ctx.type(i) != *ctx.type(*first)) {
            ctx.invalid_input(fmt::format("inputs {} and {} are both of type {}; they are {} and {}", *first, i, param,
                                          element_type_name(*ctx.type(*first)), element_type_name(*ctx.type(i))));
            return false;
        }
    }
    return true;
}
bool one_type(OpContext& ctx, std::initializer_list<size_t> inputs, std::string_view param) {
    return one_type(ctx, std::span<const size_t>(inputs.begin(), inputs.size()), param);
}

// An output type an attribute names by its ONNX data type number (dtype, to). False when the attribute is
// malformed or names no type; `type` stays unknown for a type irlint has no name for (complex).
bool type_attr(OpContext& ctx, std::string_view name, std::optional<int64_t> fallback,
               std::optional<ElementType>& type) {
    const auto code = ctx.attr_int(name, fallback);
    if (!code) return false;
    if (*code < 1 || *code > 26) {
        ctx.invalid_attribute(fmt::format("{} is {}; it names no ONNX data type", name, *code));
        return false;
    }
    type = element_type_from_onnx(*code);
    return true;
}

// A scale or zero point ONNX Runtime's inference reads: once the node lists input i it must be given, and it
// must be a scalar where its shape is known.
bool quant_scalar(OpContext& ctx, size_t i, std::string_view name) {
    if (i >= ctx.input_count()) return true;
    if (!ctx.has_input(i)) {
        ctx.invalid_input(
            fmt::format("input {} ({}) is left out; ONNX Runtime's inference reads all it lists", i, name));
        return false;
    }
    const Shape* s = known_shape(ctx, i);
    if (!s || s->rank() == 0) return true;
    ctx.invalid_input(fmt::format("input {} ({}) must be a scalar; it is {}", i, name, s->str()));
    return false;
}

// Numpy broadcasting of the given shapes; a dynamic rank when one is unknown.
std::optional<Shape> broadcast_all(OpContext& ctx, std::initializer_list<size_t> inputs, std::string_view names) {
    Shape result{false, {}};
    for (const size_t i : inputs) {
        std::string error;
        const auto merged = broadcast_shapes(result, ctx.shape(i), BroadcastKind::numpy, -1, &error);
        if (!merged) {
            ctx.invalid_input(fmt::format("{} do not broadcast: {}", names, error));
            return std::nullopt;
        }
        result = *merged;
    }
    return result;
}

// The first value of a scalar input: its floating-point values, else its integer ones (ONNX Runtime reads the
// first element of the initializer).
std::optional<double> first_value(const OpContext& ctx, size_t i) {
    if (const std::vector<double>* v = ctx.real_values(i); v && !v->empty()) return v->front();
    if (const auto v = ctx.exact_values(i); v && !v->empty()) return static_cast<double>(v->front());
    return std::nullopt;
}

OpOutput type_only(std::optional<ElementType> type) { return OpOutput{Shape::dynamic_rank(), type, {}, {}}; }

// ---- Quantized ops ----------------------------------------------------------------------------------------

// QLinearWhere: condition ? X : Y, requantized; the three broadcast once every input's shape is known.
void infer_qlinear_where(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(9)) return;
    if (!input_type_in(ctx, 0, "condition", kBool)) return;
    for (const size_t i : {1, 3, 4, 6, 8})
        if (!input_type_in(ctx, i, "", kQuant8)) return;
    for (const size_t i : {2, 5, 7})
        if (!input_type_in(ctx, i, "scale", kF32)) return;
    if (!one_type(ctx, {1, 3, 4, 6, 8}, "T")) return;
    OpOutput z = type_only(ctx.type(1));
    bool known = true;
    for (size_t i = 0; i < 9; ++i) known = known && known_shape(ctx, i);
    if (known) {
        const auto shape = broadcast_all(ctx, {0, 1, 4}, "condition, X and Y");
        if (!shape) return;
        z.shape = *shape;
    }
    out.push_back(std::move(z));
}

// QLinearReduceMean: ReduceMean over `axes` (all when empty); keepdims keeps them as 1 only when it is 1.
void infer_qlinear_reduce_mean(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 5)) return;
    if (!input_type_in(ctx, 0, "data", kQuant8) || !input_type_in(ctx, 1, "data_scale", kF32) ||
        !input_type_in(ctx, 2, "data_zero_point", kQuant8) || !input_type_in(ctx, 3, "reduced_scale", kF32) ||
        !input_type_in(ctx, 4, "reduced_zero_point", kQuant8) || !one_type(ctx, {0, 2, 4}, "T"))
        return;
    const auto axes = ctx.attr_ints("axes");
    const auto keepdims = ctx.attr_int("keepdims");
    if (!axes || !keepdims) return;
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* x = known_shape(ctx, 0)) {
        // ONNX Runtime checks the scales and zero points only once the data's shape is known.
        if (!quant_scalar(ctx, 1, "data_scale") || !quant_scalar(ctx, 2, "data_zero_point") ||
            !quant_scalar(ctx, 3, "reduced_scale") || !quant_scalar(ctx, 4, "reduced_zero_point"))
            return;
        const auto rank = static_cast<int64_t>(x->rank());
        std::vector<bool> reduced(x->rank(), axes->empty());
        for (const int64_t a : *axes) {
            if (a < -rank || a >= rank)
                return ctx.invalid_attribute(
                    fmt::format("axis {} is out of range [{}, {}] for data {}", a, -rank, rank - 1, x->str()));
            reduced[static_cast<size_t>(a < 0 ? a + rank : a)] = true;
        }
        std::vector<Dim> dims;
        for (size_t d = 0; d < x->rank(); ++d) {
            if (!reduced[d])
                dims.push_back(x->dims[d]);
            else if (*keepdims == 1)
                dims.emplace_back(1);
        }
        y.shape = dims_of(std::move(dims));
    }
    out.push_back(std::move(y));
}

// ReduceSumInteger: ONNX Runtime's schema has no inference, and its output may be int32 or uint32.
void infer_reduce_sum_integer(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "data", kQuant8)) return;
    if (!ctx.attr_ints("axes") || !ctx.attr_int("keepdims")) return;
    out.push_back(type_only(std::nullopt));
}

// MulInteger: (A - A_zero_point) * (B - B_zero_point) in int32, A and B broadcast.
void infer_mul_integer(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 4)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, "", kQuant8)) return;
    if (!one_type(ctx, {0, 1, 2, 3}, "T")) return;
    // ONNX Runtime's inference reads both zero points, whatever the schema says of them.
    for (const size_t i : {1, 3})
        if (!ctx.has_input(i))
            return ctx.invalid_input(fmt::format("input {} ({}) is left out; ONNX Runtime's inference needs both", i,
                                                 i == 1 ? "A_zero_point" : "B_zero_point"));
    if (!quant_scalar(ctx, 1, "A_zero_point") || !quant_scalar(ctx, 3, "B_zero_point")) return;
    OpOutput c = type_only(ElementType::i32);
    if (known_shape(ctx, 0) && known_shape(ctx, 2)) {
        const auto shape = broadcast_all(ctx, {0, 2}, "A and B");
        if (!shape) return;
        c.shape = *shape;
    }
    out.push_back(std::move(c));
}

// DynamicQuantizeLSTM: ONNX's LSTM outputs (Y, Y_h, Y_c) from X's dims, the direction and hidden_size.
void infer_dynamic_quantize_lstm(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(12)) return;
    for (const size_t i : {0, 3, 5, 6, 7, 8, 10})
        if (!input_type_in(ctx, i, "", kF32)) return;
    for (const size_t i : {1, 2, 9, 11})
        if (!input_type_in(ctx, i, "", kQuant8)) return;
    if (!input_type_in(ctx, 4, "sequence_lens", kI32) || !one_type(ctx, {1, 2, 9, 11}, "T2")) return;
    const auto hidden_size = ctx.attr_int("hidden_size", -1);
    if (!hidden_size || !ctx.attr_int("input_forget", 0) || !ctx.attr_float("clip", 0.0)) return;
    // An unknown direction leaves the number of directions unknown (ONNX Runtime's kernel refuses it).
    Dim directions = Dim::dynamic();
    const std::string_view* direction = ctx.attr("direction");
    if (!direction || *direction == "forward" || *direction == "reverse")
        directions = Dim(1);
    else if (*direction == "bidirectional")
        directions = Dim(2);
    const Dim hidden = *hidden_size > 0 ? Dim(*hidden_size) : Dim::dynamic();
    Dim seq = Dim::dynamic(), batch = Dim::dynamic();
    if (const Shape* x = known_shape(ctx, 0)) {
        if (x->rank() != 3) return ctx.invalid_input(fmt::format("X must have rank 3; it is {}", x->str()));
        seq = x->dims[0];
        batch = x->dims[1];
    }
    out.push_back(OpOutput{dims_of({seq, directions, batch, hidden}), ctx.type(0), {}, {}});
    for (int k = 0; k < 2; ++k) out.push_back(OpOutput{dims_of({directions, batch, hidden}), ctx.type(0), {}, {}});
}

// DequantizeWithOrder: the input's shape, of the type `to` names.
void infer_dequantize_with_order(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "input", kI8) || !input_type_in(ctx, 1, "scale_input", kF32)) return;
    std::optional<ElementType> type;
    if (!ctx.attr_int("order_input") || !ctx.attr_int("order_output") || !type_attr(ctx, "to", std::nullopt, type))
        return;
    out.push_back(OpOutput{ctx.shape(0), type, {}, {}});
}

void infer_quantize_with_order(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "input", kF32F16) || !input_type_in(ctx, 1, "scale_input", kF32)) return;
    if (!ctx.attr_int("order_input") || !ctx.attr_int("order_output")) return;
    out.push_back(OpOutput{ctx.shape(0), ElementType::i8, {}, {}});
}

void infer_qordered_gelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    if (!input_type_in(ctx, 0, "X", kI8) || !input_type_in(ctx, 1, "scale_X", kF32) ||
        !input_type_in(ctx, 2, "scale_Y", kF32))
        return;
    out.push_back(like_input(ctx, 0));
}

void infer_qordered_layer_norm(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5)) return;
    if (!input_type_in(ctx, 0, "X", kI8) || !input_type_in(ctx, 1, "scale_X", kF32) ||
        !input_type_in(ctx, 2, "scale", kF32F16) || !input_type_in(ctx, 3, "B", kF32F16) ||
        !input_type_in(ctx, 4, "scale_Y", kF32) || !one_type(ctx, {2, 3}, "F"))
        return;
    if (!ctx.attr_int("axis", -1) || !ctx.attr_float("epsilon", 1e-5)) return;
    out.push_back(like_input(ctx, 0));
}

// QuantizeBFP: the BFP data (its layout is the hardware's: no dims) and x's shape and strides, [rank] each.
void infer_quantize_bfp(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "x", kHalfFloats)) return;
    if (!ctx.attr_int("bfp_type") || !ctx.attr_int("block_dim", -1)) return;
    Shape dims = Shape::dynamic_rank();
    if (const Shape* x = known_shape(ctx, 0)) dims = dims_of({Dim(static_cast<int64_t>(x->rank()))});
    out.push_back(type_only(ElementType::u8));
    for (int k = 0; k < 2; ++k) out.push_back(OpOutput{dims, ElementType::i64, {}, {}});
}

void infer_dequantize_bfp(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    if (!input_type_in(ctx, 0, "x", kU8) || !input_type_in(ctx, 1, "shape", kI64) ||
        !input_type_in(ctx, 2, "strides", kI64))
        return;
    std::optional<ElementType> type;
    if (!ctx.attr_int("bfp_type") || !ctx.attr_int("block_dim", -1) || !type_attr(ctx, "dtype", 1, type)) return;
    if (const Shape* x = known_shape(ctx, 0); x && x->rank() != 1)
        return ctx.invalid_input(fmt::format("x must be 1-D; it is {}", x->str()));
    out.push_back(type_only(type));
}

// GemmFloat8: (M, N) from 2-D A and B, each transposed as asked, of the type dtype names.
void infer_gemm_float8(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 6)) return;
    static constexpr std::array ab = {ElementType::f8e4m3, ElementType::f8e5m2, ElementType::f16, ElementType::bf16,
                                      ElementType::f32};
    static constexpr std::array c = {ElementType::f16, ElementType::bf16, ElementType::f32};
    if (!input_type_in(ctx, 0, "A", ab) || !input_type_in(ctx, 1, "B", ab) || !input_type_in(ctx, 2, "C", c)) return;
    for (const size_t i : {3, 4, 5})
        if (!input_type_in(ctx, i, "scale", kF32)) return;
    const auto trans_a = ctx.attr_int("transA", 0), trans_b = ctx.attr_int("transB", 0);
    std::optional<ElementType> type;
    if (!trans_a || !trans_b || !ctx.attr_float("alpha", 1.0) || !ctx.attr_float("beta", 0.0) ||
        !type_attr(ctx, "dtype", 1, type))
        return;
    OpOutput y = type_only(type);
    const Shape* a = known_shape(ctx, 0);
    const Shape* b = known_shape(ctx, 1);
    if (a && b) {
        for (const Shape* s : {a, b})
            if (s->rank() != 2)
                return ctx.invalid_input(
                    fmt::format("A and B must have rank 2; {} is {}", s == a ? "A" : "B", s->str()));
        y.shape = dims_of({a->dims[*trans_a ? 1 : 0], b->dims[*trans_b ? 0 : 1]});
    }
    out.push_back(std::move(y));
}

// MatMulBnb4: A's dims with the last (K, or N when transB is 0) replaced by N (or K).
void infer_matmul_bnb4(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    if (!input_type_in(ctx, 0, "A", kHalfFloats) || !input_type_in(ctx, 1, "B", kU8) ||
        !input_type_in(ctx, 2, "absmax", kHalfFloats) || !one_type(ctx, {0, 2}, "T1"))
        return;
    const auto k = ctx.attr_int("K"), n = ctx.attr_int("N"), trans_b = ctx.attr_int("transB", 1);
    if (!k || !n || !trans_b || !ctx.attr_int("block_size") || !ctx.attr_int("quant_type") ||
        !ctx.attr_int("training_mode", 0))
        return;
    // ONNX Runtime's kernel refuses them; a dim from one would be negative.
    if (*k <= 0 || *n <= 0) return ctx.invalid_attribute(fmt::format("K {} and N {} must be > 0", *k, *n));
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* a = known_shape(ctx, 0)) {
        if (a->rank() == 0) return ctx.invalid_input(fmt::format("A must not be a scalar"));
        const int64_t inner = *trans_b ? *k : *n;
        const Dim& last = a->dims.back();
        if (last.is_static() && last.length() != inner)
            return ctx.invalid_input(fmt::format("A {} has {} in its last dim; {} is {}", a->str(), last.length(),
                                                 *trans_b ? "K" : "N", inner));
        y.shape = *a;
        y.shape.dims.back() = Dim(*trans_b ? *n : *k);
    }
    out.push_back(std::move(y));
}

// MoE and QMoE: the input's shape and type.
void infer_moe(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5, 8)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, "", kHalfFloats)) return;
    if (!one_type(ctx, {0, 1, 2, 3, 4, 5, 6, 7}, "T")) return;
    if (!ctx.attr_int("k", 1) || !ctx.attr_int("normalize_routing_weights", 0) ||
        !ctx.attr_int("use_sparse_mixer", 0) || !ctx.attr_int("swiglu_fusion", 0))
        return;
    out.push_back(like_input(ctx, 0));
}

void infer_qmoe(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(7, 14)) return;
    for (const size_t i : {0, 1, 4, 7, 10})
        if (!input_type_in(ctx, i, "", kHalfFloats)) return;
    for (const size_t i : {2, 5, 8, 11, 12, 13})
        if (!input_type_in(ctx, i, "", kU8)) return;
    for (const size_t i : {3, 6, 9})
        if (!input_type_in(ctx, i, "scales", kHalfFloats)) return;
    if (!one_type(ctx, {0, 1, 4, 7, 10}, "T") || !one_type(ctx, {3, 6, 9}, "T2")) return;
    if (!ctx.attr_int("k", 1) || !ctx.attr_int("expert_weight_bits", 4) || !ctx.attr_int("swiglu_fusion", 0)) return;
    out.push_back(like_input(ctx, 0));
}

// ---- Ops whose dims hang on a known value -----------------------------------------------------------------

// ExpandDims: X with a 1 inserted at `axis` (in [-rank-1, rank]); ONNX Runtime reads axis from an initializer.
void infer_expand_dims(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !input_type_in(ctx, 1, "axis", kI32)) return;
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* x = known_shape(ctx, 0)) {
        const auto axis = ctx.exact_values(1);
        if (!axis) {
            ctx.value_unknown("the value of axis (input 1) is unknown");
        } else {
            if (axis->size() != 1)
                return ctx.invalid_input(fmt::format("axis must hold one value; it holds {}", axis->size()));
            const auto rank = static_cast<int64_t>(x->rank());
            const int64_t a = axis->front();
            if (a > rank || a < -rank - 1)
                return ctx.invalid_input(
                    fmt::format("axis {} is out of range [{}, {}] for X {}", a, -rank - 1, rank, x->str()));
            std::vector<Dim> dims = x->dims;
            dims.insert(dims.begin() + (a >= 0 ? a : rank + a + 1), Dim(1));
            y.shape = dims_of(std::move(dims));
        }
    }
    out.push_back(std::move(y));
}

// com.microsoft's Range: [ceil((limit - start) / delta)], at least 0, computed in double from the first value
// of each input; delta defaults to 1.
void infer_ms_range(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    static constexpr std::array types = {ElementType::f32, ElementType::f64, ElementType::i16, ElementType::i32,
                                         ElementType::i64};
    const std::array<std::string_view, 3> names = {"start", "limit", "delta"};
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, names[i], types)) return;
    if (!one_type(ctx, {0, 1, 2}, "T")) return;
    OpOutput y{dims_of({Dim::dynamic()}), ctx.type(0), {}, {}};
    const auto start = first_value(ctx, 0), limit = first_value(ctx, 1);
    const auto delta = ctx.has_input(2) ? first_value(ctx, 2) : std::optional<double>(1.0);
    if (start && limit && delta) {
        if (*delta == 0) return ctx.invalid_input("delta is 0");
        if (const auto n = onnx_shape::real_range_length(*start, *limit, *delta)) y.shape.dims[0] = Dim(*n);
    } else {
        ctx.value_unknown("start, limit or delta is unknown");
    }
    out.push_back(std::move(y));
}

// com.microsoft's Pad: each dim grows by its two pads (the pads padded with 0 or cut to 2 * rank); an unknown
// dim stays as it is when its pads add up to 0. Without the pads' values, only the rank is known.
void infer_ms_pad(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!input_type_in(ctx, 0, "data", kFloats3) || !input_type_in(ctx, 1, "pads", kI64) ||
        !input_type_in(ctx, 2, "value", kFloats3) || !one_type(ctx, {0, 2}, "T"))
        return;
    OpOutput y = type_only(ctx.type(0));
    const Shape* data = known_shape(ctx, 0);
    if (!data) {
        out.push_back(std::move(y));
        return;
    }
    const size_t rank = data->rank();
    y.shape = dims_of(std::vector<Dim>(rank, Dim::dynamic()));
    const auto pads = ctx.exact_values(1);
    if (!pads) {
        ctx.value_unknown("the values of pads (input 1) are unknown");
        out.push_back(std::move(y));
        return;
    }
    if (const Shape* p = known_shape(ctx, 1); p && p->rank() != 1 && !(p->rank() == 2 && p->dims[0] == Dim(1)))
        return ctx.invalid_input(fmt::format("pads must be 1-D, or 2-D of one row; it is {}", p->str()));
    for (size_t d = 0; d < rank; ++d) {
        const int64_t begin = d < pads->size() ? (*pads)[d] : 0;
        const int64_t end = d + rank < pads->size() ? (*pads)[d + rank] : 0;
        const Dim& in = data->dims[d];
        if (in.is_static()) {
            const auto length = (CheckedInt(in.length()) + begin + end).get();
            if (!length || *length < 0)
                return ctx.invalid_input(
                    fmt::format("dim {} would be {} + {} + {}, below 0", d, in.length(), begin, end));
            y.shape.dims[d] = Dim(*length);
        } else if ((CheckedInt(begin) + end).get() == 0) {
            y.shape.dims[d] = in;
        }
    }
    out.push_back(std::move(y));
}

// The kernel's spatial lengths: kernel_shape, else W's spatial dims when they are all known.
std::optional<std::vector<int64_t>> transposed_kernel(OpContext& ctx, size_t n, const Shape& w) {
    if (ctx.attr("kernel_shape")) {
        auto kernel = ctx.attr_ints("kernel_shape");
        if (kernel && kernel->size() != n) return std::nullopt;
        return kernel;
    }
    if (w.rank() != n + 2) return std::nullopt;
    std::vector<int64_t> kernel;
    for (size_t i = 2; i < w.rank(); ++i) {
        if (!w.dims[i].is_static()) return std::nullopt;
        kernel.push_back(w.dims[i].length());
    }
    return kernel;
}

// ConvTranspose's output of X (N, C, D...) and W (C, M/group, k...) with the pads from an input; nullopt when
// it is unknown (a list of the wrong length, unknown pads) or the node is refused.
std::optional<Shape> transposed_shape(OpContext& ctx, const Shape& x, const Shape& w, int64_t group) {
    const size_t n = x.rank() - 2;
    const auto ones = std::vector<int64_t>(n, 1);
    const auto dilations = ctx.attr_ints("dilations", ones), strides = ctx.attr_ints("strides", ones);
    const auto output_padding = ctx.attr_ints("output_padding", std::vector<int64_t>(n, 0));
    if (!dilations || !strides || !output_padding) return std::nullopt;
    // ONNX Runtime gives no shape when a list does not have one value per spatial axis.
    if (dilations->size() != n || strides->size() != n || output_padding->size() != n) return std::nullopt;
    const auto kernel = transposed_kernel(ctx, n, w);
    if (!kernel) return std::nullopt;
    if (!ctx.has_input(2)) {
        ctx.value_unknown("Pads (input 2) is left out");
        return std::nullopt;
    }
    const auto pads = ctx.exact_values(2);
    if (!pads) {
        ctx.value_unknown("the values of Pads (input 2) are unknown");
        return std::nullopt;
    }
    if (const Shape* p = known_shape(ctx, 2); p && p->rank() != 1) {
        ctx.invalid_input(fmt::format("Pads must be 1-D; it is {}", p->str()));
        return std::nullopt;
    }
    if (pads->size() != 2 * n) {
        ctx.invalid_input(fmt::format("Pads holds {} values; X {} takes 2 x {}", pads->size(), x.str(), n));
        return std::nullopt;
    }
    Shape y = dims_of({x.dims[0], w.dims[1] * Dim(group)});
    for (size_t i = 0; i < n; ++i) {
        const Dim& in = x.dims[i + 2];
        if (!in.is_static()) {
            y.dims.push_back(Dim::dynamic());
            continue;
        }
        const auto length = onnx_nn::conv_transpose_length(in.length(), (*kernel)[i], (*strides)[i], (*dilations)[i],
                                                           (*output_padding)[i],
                                                           CheckedInt((*pads)[i]) + (*pads)[i + n]);
        if (!length || *length < 0) {
            ctx.invalid_input(fmt::format("the output length of dim {} is {}", i + 2,
                                          length ? std::to_string(*length) : std::string("an overflow")));
            return std::nullopt;
        }
        y.dims.emplace_back(*length);
    }
    return y;
}

void infer_conv_transpose_dynamic_pads(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 4)) return;
    if (!input_type_in(ctx, 0, "X", kFloats3) || !input_type_in(ctx, 1, "W", kFloats3) ||
        !input_type_in(ctx, 2, "Pads", kI64) || !input_type_in(ctx, 3, "B", kFloats3) || !one_type(ctx, {0, 1, 3}, "T"))
        return;
    const auto group = ctx.attr_int("group", 1);
    if (!group) return;
    if (*group < 1) return ctx.invalid_attribute(fmt::format("group is {}, must be >= 1", *group));
    OpOutput y = type_only(ctx.type(0));
    const Shape* x = known_shape(ctx, 0);
    const Shape* w = known_shape(ctx, 1);
    if (x && w) {
        for (const Shape* s : {x, w})
            if (s->rank() < 3)
                return ctx.invalid_input(fmt::format("{} must have rank >= 3; it is {}", s == x ? "X" : "W", s->str()));
        if (auto shape = transposed_shape(ctx, *x, *w, *group)) y.shape = std::move(*shape);
        if (ctx.failed()) return;
    }
    out.push_back(std::move(y));
}

// ---- Pooling, dropout, signal and embedding ops -----------------------------------------------------------

// MaxpoolWithMask: MaxPool's window (no dilations, no ceil_mode) over X; the mask does not change it.
void infer_maxpool_with_mask(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "X", kF32) || !input_type_in(ctx, 1, "M", kI32)) return;
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* x = known_shape(ctx, 0)) {
        if (x->rank() < 3) return ctx.invalid_input(fmt::format("X must have rank >= 3; it is {}", x->str()));
        static constexpr std::array<std::string_view, 5> kept = {"auto_pad", "kernel_shape", "pads", "strides",
                                                                 "storage_order"};
        std::vector<Attr> attrs;
        for (const Attr& a : ctx.layer().attrs)
            if (std::find(kept.begin(), kept.end(), a.first) != kept.end()) attrs.push_back(a);
        Layer view = ctx.layer();
        view.attrs = attrs;
        view.object_attrs = {};
        const OnnxPoolOp as{OnnxPoolKind::max, 12};
        const OnnxPoolSetup setup = map_onnx_pool(as, view, *x);
        for (const auto& e : setup.errors) ctx.invalid_attribute(e);
        if (!setup.usable()) return;
        const PoolShape shape = infer_onnx_pool_shape(as, setup, *x);
        if (shape.error) return ctx.invalid_attribute(*shape.error);
        y.shape = shape.output;
    }
    out.push_back(std::move(y));
}

// BiasDropout (mask bool, data's shape) and BitmaskBiasDropout (mask uint32 bits, no dims): data, bias,
// residual of one type T, ratio T1, training_mode bool.
void infer_bias_dropout(OpContext& ctx, std::vector<OpOutput>& out, bool bitmask) {
    if (!ctx.expect_inputs(2, 5)) return;
    if (!input_type_in(ctx, 0, "data", kFloats) || !input_type_in(ctx, 1, "bias", kFloats) ||
        !input_type_in(ctx, 2, "residual", kFloats) || !input_type_in(ctx, 3, "ratio", kFloats) ||
        !input_type_in(ctx, 4, "training_mode", kBool) || !one_type(ctx, {0, 1, 2}, "T"))
        return;
    if (!ctx.attr_int("seed", 0)) return;
    out.push_back(like_input(ctx, 0));
    out.push_back(bitmask ? type_only(ElementType::u32) : OpOutput{ctx.shape(0), ElementType::boolean, {}, {}});
}

void infer_bias_dropout_bool(OpContext& ctx, std::vector<OpOutput>& out) { infer_bias_dropout(ctx, out, false); }
void infer_bitmask_bias_dropout(OpContext& ctx, std::vector<OpOutput>& out) { infer_bias_dropout(ctx, out, true); }

void infer_bitmask_dropout(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 3)) return;
    if (!input_type_in(ctx, 0, "data", kFloats) || !input_type_in(ctx, 1, "ratio", kFloats) ||
        !input_type_in(ctx, 2, "training_mode", kBool) || !ctx.attr_int("seed", 0))
        return;
    out.push_back(like_input(ctx, 0));
    out.push_back(type_only(ElementType::u32));
}

// Rfft, Irfft, ComplexMul, ComplexMulConj: ONNX Runtime's schemas have no inference; the output is of the
// inputs' type.
void infer_fft(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "X", kFloats3)) return;
    const bool inverse = ctx.layer().type == "Irfft";
    if (!ctx.attr_int("signal_ndim", inverse ? std::nullopt : std::optional<int64_t>(1)) ||
        !ctx.attr_int("normalized", 0) || !ctx.attr_int("onesided", 1))
        return;
    out.push_back(type_only(ctx.type(0)));
}

void infer_complex_mul(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "A", kFloats3) || !input_type_in(ctx, 1, "B", kFloats3) || !one_type(ctx, {0, 1}, "T"))
        return;
    out.push_back(type_only(ctx.type(0)));
}

// CDist: no inference in ONNX Runtime; a distance matrix of A's type.
void infer_cdist(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array types = {ElementType::f32, ElementType::f64};
    if (!input_type_in(ctx, 0, "A", types) || !input_type_in(ctx, 1, "B", types) || !one_type(ctx, {0, 1}, "T")) return;
    out.push_back(type_only(ctx.type(0)));
}

// CropAndResize: ONNX Runtime checks the ranks (once all four are known) and gives only the type.
void infer_crop_and_resize(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    if (!input_type_in(ctx, 0, "X", kFloats3) || !input_type_in(ctx, 1, "rois", kFloats3) ||
        !input_type_in(ctx, 2, "batch_indices", kI32) || !input_type_in(ctx, 3, "crop_size", kI32) ||
        !one_type(ctx, {0, 1}, "T1") || !ctx.attr_float("extrapolation_value", 0.0))
        return;
    const std::array<const Shape*, 4> shapes = {known_shape(ctx, 0), known_shape(ctx, 1), known_shape(ctx, 2),
                                                known_shape(ctx, 3)};
    if (std::all_of(shapes.begin(), shapes.end(), [](const Shape* s) { return s != nullptr; })) {
        static constexpr std::array<size_t, 4> ranks = {4, 2, 1, 1};
        static constexpr std::array<std::string_view, 4> names = {"X", "rois", "batch_indices", "crop_size"};
        for (size_t i = 0; i < 4; ++i)
            if (shapes[i]->rank() != ranks[i])
                return ctx.invalid_input(
                    fmt::format("{} must have rank {}; it is {}", names[i], ranks[i], shapes[i]->str()));
    }
    out.push_back(type_only(ctx.type(0)));
}

// TorchEmbedding: the indices' dims and the embedding size (the weight's dim 1). ONNX Runtime gives the
// embedding size alone, a 1-D output, when the indices' rank is unknown.
void infer_torch_embedding(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 4)) return;
    if (!input_type_in(ctx, 0, "weight", kNumeric) || !input_type_in(ctx, 1, "indices", kI64) ||
        !input_type_in(ctx, 2, "padding_idx", kI64) || !input_type_in(ctx, 3, "scale_grad_by_freq", kBool))
        return;
    std::vector<Dim> dims;
    if (const Shape* indices = known_shape(ctx, 1)) dims = indices->dims;
    Dim embedding = Dim::dynamic();
    if (const Shape* w = known_shape(ctx, 0)) {
        if (w->rank() < 2) return ctx.invalid_input(fmt::format("weight must have rank >= 2; it is {}", w->str()));
        embedding = w->dims[1];
    }
    dims.push_back(embedding);
    out.push_back(OpOutput{dims_of(std::move(dims)), ctx.type(0), {}, {}});
}

// WordConvEmbedding: no inference in ONNX Runtime; float embeddings.
void infer_word_conv_embedding(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    if (!input_type_in(ctx, 0, "Sequence", kI32)) return;
    for (const size_t i : {1, 2, 3})
        if (!input_type_in(ctx, i, "", kF32)) return;
    if (!ctx.attr_int("embedding_size", 0) || !ctx.attr_int("conv_window_size", 0) ||
        !ctx.attr_int("char_embedding_size", 0))
        return;
    out.push_back(type_only(ElementType::f32));
}

// ---- Text, hashing, generation ----------------------------------------------------------------------------

// Tokenizer: [C] or [N, C] gains a last dim of unknown token count; an empty input gives [0] or [N, 0].
void infer_tokenizer(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "X", {ElementType::string})) return;
    if (!ctx.attr_int("mark") || !ctx.attr_int("mincharnum")) return;
    if (!ctx.attr("pad_value")) return ctx.invalid_attribute(fmt::format("pad_value is missing (a string)"));
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* x = known_shape(ctx, 0)) {
        if (x->rank() < 1 || x->rank() > 2)
            return ctx.invalid_input(fmt::format("X must be [C] or [N, C]; it is {}", x->str()));
        const bool empty = std::any_of(x->dims.begin(), x->dims.end(), [](const Dim& d) { return d == Dim(0); });
        if (!empty) {
            y.shape = *x;
            y.shape.dims.push_back(Dim::dynamic());
        } else {
            y.shape = dims_of({});
            if (x->rank() == 2) y.shape.dims.push_back(x->dims[0]);
            y.shape.dims.emplace_back(0);
        }
    }
    out.push_back(std::move(y));
}

// MurmurHash3: a 32-bit hash per element, unsigned when positive is 1.
void infer_murmur_hash3(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    static constexpr std::array types = {ElementType::u32, ElementType::i32, ElementType::u64,   ElementType::i64,
                                         ElementType::f32, ElementType::f64, ElementType::string};
    if (!input_type_in(ctx, 0, "X", types)) return;
    const auto positive = ctx.attr_int("positive", 1);
    if (!positive || !ctx.attr_int("seed", 0)) return;
    out.push_back(OpOutput{ctx.shape(0), *positive == 1 ? ElementType::u32 : ElementType::i32, {}, {}});
}

// com.microsoft's Unique: y and counts are 1-D of unknown length; idx has x's shape.
void infer_ms_unique(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    out.push_back(OpOutput{dims_of({Dim::dynamic()}), ctx.type(0), {}, {}});
    out.push_back(OpOutput{ctx.shape(0), ElementType::i64, {}, {}});
    out.push_back(OpOutput{dims_of({Dim::dynamic()}), ElementType::i64, {}, {}});
}

void infer_ngram_repeat_block(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "input_ids", kI64) || !input_type_in(ctx, 1, "scores", kF32) ||
        !ctx.attr_int("ngram_size"))
        return;
    out.push_back(like_input(ctx, 1));
}

// BifurcationDetector: tokens of data-dependent length; suffix_match_idx like prev_suffix_match_idx.
void infer_bifurcation_detector(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 4)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, "", kI64)) return;
    if (!ctx.attr_int("min_ngram_size", 1) || !ctx.attr_int("max_ngram_size", 3)) return;
    out.push_back(type_only(ctx.type(1)));
    out.push_back(like_input(ctx, 2));
}

// UnfoldTensor: the slices of `size` along `dim`, `step` apart: that dim becomes (d - size) / step + 1 and a
// last dim of `size` is added. ONNX Runtime gives no shape when that dim is unknown.
void infer_unfold_tensor(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto dim = ctx.attr_int("dim", -1), size = ctx.attr_int("size"), step = ctx.attr_int("step", 1);
    if (!dim || !size || !step) return;
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* x = known_shape(ctx, 0)) {
        std::string error;
        const auto axis = normalize_axis(*dim, static_cast<int64_t>(x->rank()), &error);
        if (!axis) return ctx.invalid_attribute(fmt::format("dim: {}", error));
        const Dim& d = x->dims[*axis];
        if (d.is_static()) {
            if (*step <= 0) return ctx.invalid_attribute(fmt::format("step is {}; it must be > 0", *step));
            if (*size <= 0 || *size > d.length())
                return ctx.invalid_attribute(
                    fmt::format("size is {}; it must be in 1..{}, dim {} of {}", *size, d.length(), *axis, x->str()));
            y.shape = *x;
            y.shape.dims[*axis] = Dim((d.length() - *size) / *step + 1);
            y.shape.dims.emplace_back(*size);
        }
    }
    out.push_back(std::move(y));
}

// IsAllFinite: one bool scalar over all its inputs.
void infer_is_all_finite(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.input_count() < 1) return ctx.invalid_input(fmt::format("takes at least one input"));
    std::vector<size_t> all;
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        if (!input_type_in(ctx, i, "", kFloats)) return;
        all.push_back(i);
    }
    if (!one_type(ctx, all, "V")) return;
    const auto inf_only = ctx.attr_int("isinf_only", 0), nan_only = ctx.attr_int("isnan_only", 0);
    if (!inf_only || !nan_only) return;
    if (*inf_only != 0 && *nan_only != 0)
        return ctx.invalid_attribute(fmt::format("isinf_only and isnan_only are both set"));
    out.push_back(OpOutput{dims_of({}), ElementType::boolean, {}, {}});
}

// SparseToDenseMatMul: A is a sparse tensor, whose dims irlint does not read; the output is of B's type.
void infer_sparse_to_dense_matmul(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array types = {ElementType::f32, ElementType::f64, ElementType::i64,
                                         ElementType::i32, ElementType::u64, ElementType::u32};
    if (ctx.type(0))
        return ctx.invalid_input(
            fmt::format("A must be a sparse tensor; it is a dense {} tensor", element_type_name(*ctx.type(0))));
    if (!input_type_in(ctx, 1, "B", types) || !ctx.attr_int("transA", 0) || !ctx.attr_int("transB", 0) ||
        !ctx.attr_float("alpha", 1.0))
        return;
    out.push_back(type_only(ctx.type(1)));
}

// ---- Transformer ops --------------------------------------------------------------------------------------

// GatedRelativePositionBias: (batch, num_heads, seq, seq), batch and seq from token_offset (batch, seq) when
// its shape is known, else from a 3-D query_layer (batch, seq, hidden).
void infer_gated_relative_position_bias(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(6, 7)) return;
    for (size_t i = 0; i < 6; ++i)
        if (!input_type_in(ctx, i, "", kF32F16)) return;
    if (!input_type_in(ctx, 6, "token_offset", kI32) || !one_type(ctx, {0, 1, 2, 3, 4, 5}, "T")) return;
    const auto heads = ctx.attr_int("num_heads");
    if (!heads) return;
    // ONNX Runtime's inference writes num_heads as a dim as it is; a dim is never negative.
    if (*heads < 0)
        return ctx.invalid_attribute(fmt::format("num_heads is {}; the output's dim 1 would be negative", *heads));
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* offset = known_shape(ctx, 6)) {
        if (offset->rank() < 2)
            return ctx.invalid_input(fmt::format("token_offset must have rank >= 2; it is {}", offset->str()));
        y.shape = dims_of({offset->dims[0], Dim(*heads), offset->dims[1], offset->dims[1]});
    } else if (const Shape* q = known_shape(ctx, 0); q && q->rank() == 3) {
        y.shape = dims_of({q->dims[0], Dim(*heads), q->dims[1], q->dims[1]});
    }
    out.push_back(std::move(y));
}

// DecoderAttention: output like the query; the new caches (batch, heads, ?, head_size) from a 4-D key cache
// whose dims are all known (and a value cache of known shape).
void infer_decoder_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(12)) return;
    for (const size_t i : {0, 1, 2, 3, 4, 6, 7})
        if (!input_type_in(ctx, i, "", kF32F16)) return;
    for (const size_t i : {5, 8, 9, 10, 11})
        if (!input_type_in(ctx, i, "", kBool)) return;
    if (!one_type(ctx, {0, 1, 2, 3, 4, 6, 7}, "T") || !ctx.attr_int("num_heads")) return;
    Shape cache = Shape::dynamic_rank();
    const Shape* key_cache = known_shape(ctx, 6);
    if (key_cache && known_shape(ctx, 7)) {
        if (key_cache->rank() != 4)
            return ctx.invalid_input(fmt::format("key_cache must have rank 4; it is {}", key_cache->str()));
        if (key_cache->is_static())
            cache = dims_of({key_cache->dims[0], key_cache->dims[1], Dim::dynamic(), key_cache->dims[3]});
    }
    out.push_back(like_input(ctx, 0));
    for (int k = 0; k < 2; ++k) out.push_back(OpOutput{cache, ctx.type(0), {}, {}});
}

// PackedMultiHeadAttention: (token_count, v_hidden_size) from query (token_count, hidden) and value, or from a
// packed query (token_count, num_heads, 3, head_size).
void infer_packed_multi_head_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(6, 7)) return;
    for (const size_t i : {0, 1, 2, 3, 6})
        if (!input_type_in(ctx, i, "", kF32F16)) return;
    for (const size_t i : {4, 5})
        if (!input_type_in(ctx, i, "", kI32)) return;
    if (!one_type(ctx, {0, 1, 2, 3, 6}, "T") || !ctx.attr_int("num_heads")) return;
    OpOutput y = type_only(ctx.type(0));
    if (const Shape* q = known_shape(ctx, 0)) {
        if (q->rank() != 2 && q->rank() != 4)
            return ctx.invalid_input(fmt::format("query must have rank 2 or 4; it is {}", q->str()));
        if (q->rank() == 4) {
            y.shape = dims_of({q->dims[0], q->dims[1] * q->dims[3]});
        } else if (const Shape* v = known_shape(ctx, 2)) {
            if (v->rank() != 2) return ctx.invalid_input(fmt::format("value must have rank 2; it is {}", v->str()));
            y.shape = dims_of({q->dims[0], v->dims[1]});
        }
    }
    out.push_back(std::move(y));
}

}  // namespace

std::span<const OpEntry> onnx_microsoft_more_ops() {
    static const std::vector<OpEntry> entries = {
        onnx_op("BiasDropout", 1, infer_bias_dropout_bool, "shape, type (output, mask)", "input types", kMs),
        onnx_op("BifurcationDetector", 1, infer_bifurcation_detector, "shape, type (suffix_match_idx); type (tokens)",
                "input types", kMs),
        onnx_op("BitmaskBiasDropout", 1, infer_bitmask_bias_dropout, "shape, type (output); type (mask)", "input types",
                kMs),
        onnx_op("BitmaskDropout", 1, infer_bitmask_dropout, "shape, type (output); type (mask)", "input types", kMs),
        onnx_op("CDist", 1, infer_cdist, "type", "input types", kMs),
        onnx_op("ComplexMul", 1, infer_complex_mul, "type", "input types", kMs),
        onnx_op("ComplexMulConj", 1, infer_complex_mul, "type", "input types", kMs),
        onnx_op("ConvTransposeWithDynamicPads", 1, infer_conv_transpose_dynamic_pads, "shape (from known Pads), type",
                "X and W rank >= 3; Pads 1-D of 2 per spatial axis; group >= 1; no negative length; input types", kMs),
        onnx_op("CropAndResize", 1, infer_crop_and_resize, "type", "ranks 4, 2, 1, 1 once all are known; input types",
                kMs),
        onnx_op("DecoderAttention", 1, infer_decoder_attention, "shape, type (output, new_key_cache, new_value_cache)",
                "key_cache rank 4; num_heads given; input types", kMs),
        onnx_op("DequantizeBFP", 1, infer_dequantize_bfp, "type",
                "x 1-D; dtype a data type; bfp_type given; input types", kMs),
        onnx_op("DequantizeWithOrder", 1, infer_dequantize_with_order, "shape, type",
                "to a data type; orders given; input types", kMs),
        onnx_op("DynamicQuantizeLSTM", 1, infer_dynamic_quantize_lstm, "shape, type (Y, Y_h, Y_c)",
                "X rank 3; input types", kMs),
        onnx_op("ExpandDims", 1, infer_expand_dims, "shape (from a known axis), type",
                "axis one int32 value in [-rank-1, rank]", kMs),
        onnx_op("GatedRelativePositionBias", 1, infer_gated_relative_position_bias, "shape, type",
                "token_offset rank >= 2; num_heads given, not negative; input types", kMs),
        onnx_op("GemmFloat8", 1, infer_gemm_float8, "shape, type", "A and B rank 2; dtype a data type; input types",
                kMs),
        onnx_op("Irfft", 1, infer_fft, "type", "signal_ndim given; input type", kMs),
        onnx_op("IsAllFinite", 1, infer_is_all_finite, "shape, type", "not both isinf_only and isnan_only; input types",
                kMs),
        onnx_op("MatMulBnb4", 1, infer_matmul_bnb4, "shape, type",
                "A's last dim is K (N when transB is 0); K, N > 0; input types", kMs),
        onnx_op("MaxpoolWithMask", 1, infer_maxpool_with_mask, "shape, type",
                "X rank >= 3; MaxPool's window attributes, kernel_shape given; input types", kMs),
        onnx_op("MoE", 1, infer_moe, "shape, type", "input types", kMs),
        onnx_op("MulInteger", 1, infer_mul_integer, "shape, type",
                "both zero points given, scalars; broadcast; input types", kMs),
        onnx_op("MurmurHash3", 1, infer_murmur_hash3, "shape, type", "input type", kMs),
        onnx_op("NGramRepeatBlock", 1, infer_ngram_repeat_block, "shape, type", "ngram_size given; input types", kMs),
        onnx_op("PackedMultiHeadAttention", 1, infer_packed_multi_head_attention, "shape, type",
                "query rank 2 or 4, value rank 2; num_heads given; input types", kMs),
        onnx_op("Pad", 1, infer_ms_pad, "shape (from known pads), type",
                "pads 1-D or one row; no negative dim; input types", kMs),
        onnx_op("QLinearReduceMean", 1, infer_qlinear_reduce_mean, "shape, type",
                "axes in range, axes and keepdims given; scalar scales and zero points; input types", kMs),
        onnx_op("QLinearWhere", 1, infer_qlinear_where, "shape, type", "broadcast; input types", kMs),
        onnx_op("QMoE", 1, infer_qmoe, "shape, type", "input types", kMs),
        onnx_op("QOrderedGelu", 1, infer_qordered_gelu, "shape, type", "input types", kMs),
        onnx_op("QOrderedLayerNormalization", 1, infer_qordered_layer_norm, "shape, type", "input types", kMs),
        onnx_op("QuantizeBFP", 1, infer_quantize_bfp, "shape, type (shape, strides); type (y)",
                "bfp_type given; input type", kMs),
        onnx_op("QuantizeWithOrder", 1, infer_quantize_with_order, "shape, type", "orders given; input types", kMs),
        onnx_op("Range", 1, infer_ms_range, "shape (from known values), type", "delta not 0; one input type", kMs),
        onnx_op("ReduceSumInteger", 1, infer_reduce_sum_integer, "nothing (no inference in ONNX Runtime)",
                "axes and keepdims given; input type", kMs),
        onnx_op("Rfft", 1, infer_fft, "type", "input type", kMs),
        onnx_op("SparseToDenseMatMul", 1, infer_sparse_to_dense_matmul, "type", "A sparse; B's type", kMs),
        onnx_op("Tokenizer", 1, infer_tokenizer, "shape, type", "X [C] or [N, C]; mark, mincharnum, pad_value given",
                kMs),
        onnx_op("TorchEmbedding", 1, infer_torch_embedding, "shape, type", "weight rank >= 2; input types", kMs),
        onnx_op("UnfoldTensor", 1, infer_unfold_tensor, "shape, type", "dim in range; size in 1..dim; step > 0", kMs),
        onnx_op("Unique", 1, infer_ms_unique, "shape, type (y, idx, counts)", "", kMs),
        onnx_op("WordConvEmbedding", 1, infer_word_conv_embedding, "type", "input types", kMs),
    };
    return entries;
}

}  // namespace irlint
