// ONNX Runtime's contrib operators (com.microsoft, opset 1), as the transformer optimizer, the quantization
// tools and onnxruntime-genai write them, with the outputs ONNX Runtime's contrib shape inference gives
// (onnxruntime/core/graph/contrib_ops/*_defs.cc): activations and normalizations, the fused and quantized
// MatMuls, the QLinear ops, and the NHWC and fused convolution and pooling ops. ORT registers its contrib
// LayerNormalization and SimplifiedLayerNormalization in the ai.onnx domain at version 1; they are here too.
// The attention ops are in onnx_microsoft_attention.cpp.

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/onnx_pool.hpp"
#include "rules/ops/onnx_families.hpp"
#include "rules/ops/onnx_microsoft.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint {

namespace ms {

bool input_type_in(OpContext& ctx, size_t i, std::string_view name, Types allowed) {
    if (!ctx.has_input(i) || !ctx.type(i)) return true;
    const ElementType t = *ctx.type(i);
    if (std::find(allowed.begin(), allowed.end(), t) != allowed.end()) return true;
    std::string names;
    for (ElementType a : allowed) names += (names.empty() ? "" : ", ") + std::string(element_type_name(a));
    const std::string named = name.empty() ? std::string() : fmt::format(" ({})", name);
    ctx.invalid_input(fmt::format("input {}{} is {}; it takes {}", i, named, element_type_name(t), names));
    return false;
}

OpOutput like_input(const OpContext& ctx, size_t i) { return OpOutput{ctx.shape(i), ctx.type(i), {}, {}}; }

Dim truncated_div(const Dim& d, int64_t divisor) {
    if (divisor <= 0 || !d.is_static()) return Dim::dynamic();
    return Dim(d.length() / divisor);
}

const Shape* known_shape(const OpContext& ctx, size_t i) {
    if (!ctx.has_input(i) || ctx.shape(i).rank_dynamic) return nullptr;
    return &ctx.shape(i);
}

}  // namespace ms

namespace {

using namespace ms;

bool expect_min_rank(OpContext& ctx, size_t i, std::string_view name, size_t rank) {
    const Shape* s = known_shape(ctx, i);
    if (!s || s->rank() >= rank) return true;
    ctx.invalid_input(fmt::format("input {} ({}) must have rank >= {}; it is {}", i, name, rank, s->str()));
    return false;
}

// ---- Activations and elementwise fusions: the first input's shape and type ---------------------------------

void infer_unary_float(OpContext& ctx, std::vector<OpOutput>& out, size_t inputs, Types types) {
    if (!ctx.expect_inputs(1, inputs)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, i == 0 ? "X" : "bias", types)) return;
    out.push_back(like_input(ctx, 0));
}

void infer_gelu(OpContext& ctx, std::vector<OpOutput>& out) { infer_unary_float(ctx, out, 1, kFloats); }
void infer_fast_gelu(OpContext& ctx, std::vector<OpOutput>& out) { infer_unary_float(ctx, out, 2, kFloats); }

void infer_quick_gelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.attr_float("alpha", 1.702)) return;
    infer_unary_float(ctx, out, 1, kFloats);
}

void infer_bias_gelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    infer_unary_float(ctx, out, 2, kFloats);
}

void infer_bias_add(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    if (!input_type_in(ctx, 0, "X", kF32F16) || !input_type_in(ctx, 1, "bias", kF32F16) ||
        !input_type_in(ctx, 2, "skip", kF32F16))
        return;
    out.push_back(like_input(ctx, 0));
}

// (N, S, D) -> (N, S, D/2): the input plus the bias (D) is split in halves along D and one gates the other;
// ONNX Runtime takes D from the bias.
void infer_bias_split_gelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "X", kF32F16) || !input_type_in(ctx, 1, "bias", kF32F16)) return;
    const Shape* x = known_shape(ctx, 0);
    const Shape* bias = known_shape(ctx, 1);
    if (x && x->rank() != 3)
        return ctx.invalid_input(fmt::format("input 0 (X) must have rank 3; it is {}", x->str()));
    if (bias && bias->rank() != 1)
        return ctx.invalid_input(fmt::format("input 1 (bias) must have rank 1; it is {}", bias->str()));
    OpOutput y{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (x) y.shape = dims_of({x->dims[0], x->dims[1], bias ? truncated_div(bias->dims[0], 2) : Dim::dynamic()});
    out.push_back(std::move(y));
}

void infer_inverse(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!input_type_in(ctx, 0, "X", {ElementType::f16, ElementType::f32, ElementType::f64})) return;
    if (!expect_min_rank(ctx, 0, "X", 2)) return;
    if (const Shape* x = known_shape(ctx, 0)) {
        const Dim& rows = x->dims[x->rank() - 2];
        const Dim& cols = x->dims.back();
        if (rows.is_static() && cols.is_static() && rows.length() != cols.length())
            return ctx.invalid_input(fmt::format("the matrices must be square; X is {}", x->str()));
    }
    out.push_back(like_input(ctx, 0));
}

void infer_trilu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2)) return;
    if (!ctx.attr_int("upper", 1)) return;
    static constexpr std::array types = {ElementType::f16, ElementType::f32, ElementType::f64, ElementType::bf16,
                                         ElementType::u8,  ElementType::u16, ElementType::u32, ElementType::u64,
                                         ElementType::i8,  ElementType::i16, ElementType::i32, ElementType::i64,
                                         ElementType::boolean};
    if (!input_type_in(ctx, 0, "X", types) || !input_type_in(ctx, 1, "k", kI64) || !expect_min_rank(ctx, 0, "X", 2))
        return;
    out.push_back(like_input(ctx, 0));
}

// ---- Normalizations --------------------------------------------------------------------------------------

// The statistics' type: stash_type is an ONNX TensorProto data type, float (1) or double (11).
std::optional<ElementType> stash_element_type(OpContext& ctx) {
    const auto stash = ctx.attr_int("stash_type", 1);
    if (!stash) return std::nullopt;
    if (*stash == 1) return ElementType::f32;
    if (*stash == 11) return ElementType::f64;
    ctx.invalid_attribute(fmt::format("stash_type {} is neither float (1) nor double (11)", *stash));
    return std::nullopt;
}

// ONNX Runtime's contrib LayerNormalization and SimplifiedLayerNormalization (ai.onnx, version 1): Y has X's
// shape and the scale's type; LayerNormalization's Mean and InvStdDev are X's dims with those from `axis` on
// set to 1, SimplifiedLayerNormalization's inv_std_var X's dims with the one at `axis` set to 1 (ONNX
// Runtime's inference sets that dim alone).
void infer_contrib_layer_norm(OpContext& ctx, std::vector<OpOutput>& out, bool simplified) {
    if (!ctx.expect_inputs(2, simplified ? 2 : 3)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, i == 0 ? "X" : i == 1 ? "scale" : "B", kFloats)) return;
    const auto axis = ctx.attr_int("axis", -1);
    const auto stash = stash_element_type(ctx);
    if (!axis || !ctx.attr_float("epsilon", 1e-5) || !stash) return;
    Shape stats = Shape::dynamic_rank();
    if (const Shape* x = known_shape(ctx, 0)) {
        std::string error;
        const auto first = normalize_axis(*axis, static_cast<int64_t>(x->rank()), &error);
        if (!first) return ctx.invalid_attribute(error);
        stats = *x;
        const size_t end = simplified ? *first + 1 : stats.rank();
        for (size_t d = *first; d < end; ++d) stats.dims[d] = Dim(1);
    }
    out.push_back(OpOutput{ctx.shape(0), ctx.type(1), {}, {}});
    for (int k = 0; k < (simplified ? 1 : 2); ++k) out.push_back(OpOutput{stats, stash, {}, {}});
}

void infer_layer_norm_v1(OpContext& ctx, std::vector<OpOutput>& out) { infer_contrib_layer_norm(ctx, out, false); }
void infer_simplified_layer_norm(OpContext& ctx, std::vector<OpOutput>& out) { infer_contrib_layer_norm(ctx, out, true); }

// input + skip (+ bias), normalized over the hidden (last) dim: output and input_skip_bias_sum like the
// input, mean and inv_std_var (f32) the input's dims with the last set to 1.
void infer_skip_layer_norm(OpContext& ctx, std::vector<OpOutput>& out, bool simplified) {
    if (!ctx.expect_inputs(3, simplified ? 4 : 5)) return;
    const std::array<std::string_view, 5> names = {"input", "skip", "gamma", simplified ? "bias" : "beta", "bias"};
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, names[i], kHalfFloats)) return;
    if (!ctx.attr_float("epsilon", 1e-12)) return;
    const Shape* input = known_shape(ctx, 0);
    const Shape* gamma = known_shape(ctx, 2);
    if (input && input->rank() != 2 && input->rank() != 3)
        return ctx.invalid_input(fmt::format("input 0 (input) must have rank 2 or 3; it is {}", input->str()));
    if (gamma && gamma->rank() != 1)
        return ctx.invalid_input(fmt::format("input 2 (gamma) must have rank 1; it is {}", gamma->str()));
    if (input && gamma && !input->dims.back().compatible(gamma->dims[0]))
        return ctx.invalid_input(fmt::format("gamma {} does not match the hidden size of input {}",
                                             gamma->str(), input->str()));
    Shape stats = Shape::dynamic_rank();
    if (input) {
        stats = *input;
        stats.dims.back() = Dim(1);
    }
    out.push_back(like_input(ctx, 0));
    out.push_back(OpOutput{stats, ElementType::f32, {}, {}});
    out.push_back(OpOutput{stats, ElementType::f32, {}, {}});
    out.push_back(like_input(ctx, 0));
}

void infer_skip_layer_norm_full(OpContext& ctx, std::vector<OpOutput>& out) { infer_skip_layer_norm(ctx, out, false); }
void infer_skip_simplified_layer_norm(OpContext& ctx, std::vector<OpOutput>& out) { infer_skip_layer_norm(ctx, out, true); }

// GroupNorm (Y) and SkipGroupNorm (Y and the sum S): like X; groups and activation are required.
void infer_group_norm(OpContext& ctx, std::vector<OpOutput>& out, bool with_skip) {
    if (!ctx.expect_inputs(3, with_skip ? 5 : 3)) return;
    const std::array<std::string_view, 5> names = {"X", "gamma", "beta", "skip", "bias"};
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, names[i], kF32F16)) return;
    const auto groups = ctx.attr_int("groups");
    if (!groups || !ctx.attr_int("activation") || !ctx.attr_int("channels_last", 1) || !ctx.attr_float("epsilon", 1e-5))
        return;
    if (*groups <= 0) return ctx.invalid_attribute(fmt::format("groups is {}; it must be > 0", *groups));
    out.push_back(like_input(ctx, 0));
    if (with_skip) out.push_back(like_input(ctx, 0));
}

void infer_group_norm_plain(OpContext& ctx, std::vector<OpOutput>& out) { infer_group_norm(ctx, out, false); }
void infer_skip_group_norm(OpContext& ctx, std::vector<OpOutput>& out) { infer_group_norm(ctx, out, true); }

// BiasSoftmax: softmax(data + bias) like data.
void infer_bias_softmax(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array types = {ElementType::f16, ElementType::f32, ElementType::f64};
    if (!input_type_in(ctx, 0, "data", types) || !input_type_in(ctx, 1, "bias", types)) return;
    if (!ctx.attr_int("axis", 1) || !ctx.attr_int("is_inner_broadcast")) return;
    out.push_back(like_input(ctx, 0));
}

// ---- MatMuls ---------------------------------------------------------------------------------------------

// ONNX's MatMul of two shapes (already transposed as the op asks): a 1-D A is a row and a 1-D B a column,
// dropped again from the result; the batch dims broadcast as numpy's. Differs from OpenVINO's MatMul in
// refusing a K mismatch only between known dims (ONNX's matmulShapeInference).
std::optional<Shape> onnx_matmul(OpContext& ctx, std::vector<Dim> a, std::vector<Dim> b) {
    const size_t rank_a = a.size(), rank_b = b.size();
    if (rank_a == 0 || rank_b == 0) {
        ctx.invalid_input(fmt::format("MatMul takes no scalars"));
        return std::nullopt;
    }
    if (rank_a == 1) a.insert(a.begin(), Dim(1));
    if (rank_b == 1) b.push_back(Dim(1));
    const Dim& k_a = a.back();
    const Dim& k_b = b[b.size() - 2];
    if (k_a.is_static() && k_b.is_static() && k_a.length() != k_b.length()) {
        ctx.invalid_input(fmt::format("the K dims differ: {} (A) against {} (B)", k_a.str(), k_b.str()));
        return std::nullopt;
    }
    std::string error;
    const auto batch = broadcast_shapes(dims_of({a.begin(), a.end() - 2}), dims_of({b.begin(), b.end() - 2}),
                                        BroadcastKind::numpy, -1, &error);
    if (!batch) {
        ctx.invalid_input(fmt::format("the batch dims do not broadcast: {}", error));
        return std::nullopt;
    }
    Shape result = *batch;
    if (rank_a != 1) result.dims.push_back(a[a.size() - 2]);
    if (rank_b != 1) result.dims.push_back(b.back());
    return result;
}

// FusedMatMul's view of an operand: transBatch moves the first (batch) dim to just before the matrix's two,
// trans swaps those; a 1-D operand is left as it is.
std::vector<Dim> fused_matmul_operand(const Shape& s, bool trans, bool trans_batch) {
    const size_t r = s.rank();
    if (r <= 1) return s.dims;
    std::vector<Dim> dims;
    const size_t start = trans_batch ? 1 : 0, end = trans_batch ? r - 1 : r - 2;
    for (size_t i = start; i < end; ++i) dims.push_back(s.dims[i]);
    const Dim row = trans_batch ? s.dims[0] : s.dims[r - 2];
    const Dim col = s.dims[r - 1];
    dims.push_back(trans ? col : row);
    dims.push_back(trans ? row : col);
    return dims;
}

void infer_fused_matmul(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "A", kFloats) || !input_type_in(ctx, 1, "B", kFloats)) return;
    const auto trans_a = ctx.attr_int("transA", 0), trans_b = ctx.attr_int("transB", 0);
    const auto batch_a = ctx.attr_int("transBatchA", 0), batch_b = ctx.attr_int("transBatchB", 0);
    if (!trans_a || !trans_b || !batch_a || !batch_b || !ctx.attr_float("alpha", 1.0)) return;
    OpOutput y{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!ctx.shape(0).rank_dynamic && !ctx.shape(1).rank_dynamic) {
        const auto shape = onnx_matmul(ctx, fused_matmul_operand(ctx.shape(0), *trans_a, *batch_a),
                                       fused_matmul_operand(ctx.shape(1), *trans_b, *batch_b));
        if (!shape) return;
        y.shape = *shape;
    }
    out.push_back(std::move(y));
}

// FusedMatMulActivation: FusedMatMul and an activation, which it requires.
void infer_fused_matmul_activation(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.attr("activation")) return ctx.invalid_attribute(fmt::format("activation is missing"));
    infer_fused_matmul(ctx, out);
}

// A plain MatMul of inputs 0 and 1 whose output has `type`.
void infer_plain_matmul(OpContext& ctx, std::vector<OpOutput>& out, std::optional<ElementType> type) {
    OpOutput y{Shape::dynamic_rank(), type, {}, {}};
    if (!ctx.shape(0).rank_dynamic && !ctx.shape(1).rank_dynamic) {
        const auto shape = onnx_matmul(ctx, ctx.shape(0).dims, ctx.shape(1).dims);
        if (!shape) return;
        y.shape = *shape;
    }
    out.push_back(std::move(y));
}

// MatMulInteger16: 16-bit A and B; ONNX Runtime's inference makes the output i32.
void infer_matmul_integer16(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array types = {ElementType::i16, ElementType::u16};
    if (!input_type_in(ctx, 0, "A", types) || !input_type_in(ctx, 1, "B", types)) return;
    infer_plain_matmul(ctx, out, ElementType::i32);
}

// QOrderedMatMul: int8 A (0) and B (2) in cuBLASLt orders; Y like A.
void infer_qordered_matmul(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5)) return;
    if (!input_type_in(ctx, 0, "A", {ElementType::i8}) || !input_type_in(ctx, 2, "B", {ElementType::i8})) return;
    for (size_t i : {1, 3, 4})
        if (!input_type_in(ctx, i, "scale", {ElementType::f32})) return;
    if (!ctx.attr_int("order_A") || !ctx.attr_int("order_B") || !ctx.attr_int("order_Y")) return;
    OpOutput y{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!ctx.shape(0).rank_dynamic && !ctx.shape(2).rank_dynamic) {
        const auto shape = onnx_matmul(ctx, ctx.shape(0).dims, ctx.shape(2).dims);
        if (!shape) return;
        y.shape = *shape;
    }
    out.push_back(std::move(y));
}

void infer_matmul_integer_to_float(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 7)) return;
    if (!input_type_in(ctx, 0, "A", kQuant8) || !input_type_in(ctx, 1, "B", kQuant8) ||
        !input_type_in(ctx, 2, "a_scale", kF32F16) || !input_type_in(ctx, 3, "b_scale", kF32F16) ||
        !input_type_in(ctx, 4, "a_zero_point", kQuant8) || !input_type_in(ctx, 5, "b_zero_point", kQuant8) ||
        !input_type_in(ctx, 6, "bias", kF32F16))
        return;
    infer_plain_matmul(ctx, out, ctx.type(2));
}

void infer_dynamic_quantize_matmul(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 5)) return;
    if (!input_type_in(ctx, 0, "A", {ElementType::f32}) || !input_type_in(ctx, 1, "B", kQuant8) ||
        !input_type_in(ctx, 2, "b_scale", {ElementType::f32}) || !input_type_in(ctx, 3, "b_zero_point", kQuant8) ||
        !input_type_in(ctx, 4, "bias", {ElementType::f32}))
        return;
    infer_plain_matmul(ctx, out, ctx.type(0));
}

void infer_gemm_fast_gelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, i == 0 ? "X" : i == 1 ? "W" : "bias", kHalfFloats)) return;
    infer_plain_matmul(ctx, out, ctx.type(0));
}

// MatMulNBits: B holds N rows of K weights quantized to `bits` bits in blocks of block_size, packed as
// (N, k_blocks, blob_size); the output is A's dims with K replaced by N. The problem with the attributes or
// with B's packing, if any.
std::optional<std::pair<OpProblem::Kind, std::string>> matmul_nbits_problem(const OpContext& ctx, int64_t k, int64_t n,
                                                                             int64_t bits, int64_t block_size) {
    using Kind = OpProblem::Kind;
    if (bits < 1 || bits > 8) return std::pair{Kind::attribute, fmt::format("bits is {}; it must be 1..8", bits)};
    if (block_size < 16 || (block_size & (block_size - 1)) != 0)
        return std::pair{Kind::attribute, fmt::format("block_size is {}; it must be a power of 2 and >= 16", block_size)};
    if (k <= 0 || n <= 0) return std::pair{Kind::attribute, fmt::format("K {} and N {} must be > 0", k, n)};
    const Shape* b = known_shape(ctx, 1);
    if (!b || b->rank() != 3 || ctx.type(1) != ElementType::u8) return std::nullopt;
    const int64_t blocks = (k + block_size - 1) / block_size;
    const int64_t blob = block_size * bits / 8;
    const std::array<int64_t, 3> expected = {n, blocks, blob};
    for (size_t d = 0; d < 3; ++d)
        if (b->dims[d].is_static() && b->dims[d].length() != expected[d])
            return std::pair{Kind::input, fmt::format("B is {}; K {}, N {}, bits {} and block_size {} pack it as [{},{},{}]",
                                                      b->str(), k, n, bits, block_size, n, blocks, blob)};
    return std::nullopt;
}

void infer_matmul_nbits(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 6)) return;
    if (!input_type_in(ctx, 0, "A", kHalfFloats) || !input_type_in(ctx, 1, "B", {ElementType::u8, ElementType::i32}) ||
        !input_type_in(ctx, 2, "scales", kHalfFloats) ||
        !input_type_in(ctx, 3, "zero_points", {ElementType::u8, ElementType::i32, ElementType::f16, ElementType::f32, ElementType::bf16}) ||
        !input_type_in(ctx, 4, "g_idx", kI32) || !input_type_in(ctx, 5, "bias", kHalfFloats))
        return;
    const auto k = ctx.attr_int("K"), n = ctx.attr_int("N"), block_size = ctx.attr_int("block_size");
    const auto bits = ctx.attr_int("bits", 4);
    if (!k || !n || !block_size || !bits || !ctx.attr_int("accuracy_level", 0)) return;
    if (const auto problem = matmul_nbits_problem(ctx, *k, *n, *bits, *block_size)) {
        const std::string message = problem->second;
        return problem->first == OpProblem::Kind::attribute ? ctx.invalid_attribute(message) : ctx.invalid_input(message);
    }
    OpOutput y{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (const Shape* a = known_shape(ctx, 0)) {
        if (a->rank() == 0) return ctx.invalid_input(fmt::format("A must not be a scalar"));
        const Dim& last = a->dims.back();
        if (last.is_static() && last.length() != *k)
            return ctx.invalid_input(fmt::format("A {} has {} in its last dim; K is {}", a->str(),
                                                 last.length(), *k));
        y.shape = *a;
        y.shape.dims.back() = Dim(*n);
    }
    out.push_back(std::move(y));
}

// Gemm's (M, N) from 2-D A and B, each transposed as asked.
std::optional<Shape> gemm_shape(OpContext& ctx, size_t a_index, size_t b_index) {
    const auto trans_a = ctx.attr_int("transA", 0), trans_b = ctx.attr_int("transB", 0);
    if (!trans_a || !trans_b || !ctx.attr_float("alpha", 1.0)) return std::nullopt;
    const Shape* a = known_shape(ctx, a_index);
    const Shape* b = known_shape(ctx, b_index);
    for (const Shape* s : {a, b})
        if (s && s->rank() != 2) {
            ctx.invalid_input(fmt::format("A and B must have rank 2; {} has {}",
                                          s == a ? "A" : "B", s->str()));
            return std::nullopt;
        }
    return dims_of({a ? a->dims[*trans_a ? 1 : 0] : Dim::dynamic(), b ? b->dims[*trans_b ? 0 : 1] : Dim::dynamic()});
}

void infer_fused_gemm(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    static constexpr std::array types = {ElementType::f32, ElementType::f64, ElementType::f16, ElementType::i32,
                                         ElementType::i64, ElementType::u32, ElementType::u64};
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, i == 0 ? "A" : i == 1 ? "B" : "C", types)) return;
    if (!ctx.attr_float("beta", 1.0)) return;
    const auto shape = gemm_shape(ctx, 0, 1);
    if (!shape) return;
    out.push_back(OpOutput{*shape, ctx.type(0), {}, {}});
}

// ---- Quantized ops (QLinear*, QGemm, QuantizeLinear, DequantizeLinear, GatherBlockQuantized) -------------

// Whether a per-tensor scale or zero point must be a scalar (rank 0): QLinearAdd's and QLinearMul's inference
// checks it; the others' kernels read the first element.
enum class ParamRank { scalar, unchecked };

// A scale (f32) or zero point (the quantized tensor's type) of a per-tensor quantization.
bool quant_param_fits(OpContext& ctx, size_t i, std::string_view name, std::optional<ElementType> type,
                      ParamRank rank = ParamRank::unchecked) {
    if (!ctx.has_input(i)) return true;
    if (type && ctx.type(i) && *ctx.type(i) != *type) {
        ctx.invalid_input(fmt::format("input {} ({}) is {}; it must be {}", i, name,
                                      element_type_name(*ctx.type(i)), element_type_name(*type)));
        return false;
    }
    const Shape* s = known_shape(ctx, i);
    if (rank == ParamRank::unchecked || !s || s->rank() == 0) return true;
    ctx.invalid_input(fmt::format("input {} ({}) must be a scalar; it is {}", i, name, s->str()));
    return false;
}

// The scales and zero points at `params` of the quantized input `data`: a name ending in "zero_point" is one.
bool quant_params_fit(OpContext& ctx, size_t data, std::initializer_list<std::pair<size_t, std::string_view>> params,
                      ParamRank rank = ParamRank::unchecked) {
    for (const auto& [i, name] : params) {
        const bool is_zero_point = name.ends_with("zero_point");
        const auto type = is_zero_point ? (ctx.has_input(data) ? ctx.type(data) : std::nullopt) : ElementType::f32;
        if (!quant_param_fits(ctx, i, name, type, rank)) return false;
    }
    return true;
}

// QLinearAdd, QLinearMul: A (0) and B (3) broadcast as numpy's.
void infer_qlinear_binary(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(7, 8)) return;
    if (!input_type_in(ctx, 0, "A", kQuant8) || !input_type_in(ctx, 3, "B", kQuant8)) return;
    if (!quant_params_fit(ctx, 0, {{1, "A_scale"}, {2, "A_zero_point"}, {6, "C_scale"}, {7, "C_zero_point"}},
                          ParamRank::scalar) ||
        !quant_params_fit(ctx, 3, {{4, "B_scale"}, {5, "B_zero_point"}}, ParamRank::scalar))
        return;
    std::string error;
    const auto shape = broadcast_shapes(ctx.shape(0), ctx.shape(3), BroadcastKind::numpy, -1, &error);
    if (!shape) return ctx.invalid_input(fmt::format("A and B do not broadcast: {}", error));
    out.push_back(OpOutput{*shape, ctx.type(0), {}, {}});
}

// QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax: X, X_scale, X_zero_point, Y_scale, Y_zero_point; Y like X.
void infer_qlinear_unary(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 5)) return;
    if (!input_type_in(ctx, 0, "X", kQuant8)) return;
    if (!quant_params_fit(ctx, 0, {{1, "X_scale"}, {2, "X_zero_point"}, {3, "Y_scale"}, {4, "Y_zero_point"}})) return;
    out.push_back(like_input(ctx, 0));
}

void infer_qlinear_leaky_relu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.attr_float("alpha", 0.01)) return;
    infer_qlinear_unary(ctx, out);
}

void infer_qlinear_softmax(OpContext& ctx, std::vector<OpOutput>& out) {
    const auto axis = ctx.attr_int("axis", -1);
    if (!axis || !ctx.attr_int("opset")) return;
    if (const Shape* x = known_shape(ctx, 0)) {
        std::string error;
        if (!normalize_axis(*axis, static_cast<int64_t>(x->rank()), &error))
            return ctx.invalid_attribute(error);
    }
    infer_qlinear_unary(ctx, out);
}

// NHWC <-> NCHW: the channel dim moves between last and second.
Shape nhwc_to_nchw(const Shape& s) {
    if (s.rank_dynamic || s.rank() < 2) return s;
    Shape t = s;
    t.dims.erase(t.dims.end() - 1);
    t.dims.insert(t.dims.begin() + 1, s.dims.back());
    return t;
}

Shape nchw_to_nhwc(const Shape& s) {
    if (s.rank_dynamic || s.rank() < 2) return s;
    Shape t = s;
    t.dims.erase(t.dims.begin() + 1);
    t.dims.push_back(s.dims[1]);
    return t;
}

// A windowed op's output (NCHW) through ONNX's pooling description of `as`: the node's attributes except
// `ignored` (those the pool does not have), plus `extra` (Conv's kernel_shape from its weights).
std::optional<Shape> pooled_nchw(OpContext& ctx, OnnxPoolOp as, const Shape& input,
                                 std::span<const std::string_view> ignored, const std::vector<Attr>& extra = {}) {
    std::vector<Attr> attrs;
    for (const Attr& a : ctx.layer().attrs)
        if (std::find(ignored.begin(), ignored.end(), a.first) == ignored.end()) attrs.push_back(a);
    attrs.insert(attrs.end(), extra.begin(), extra.end());
    Layer view = ctx.layer();
    view.attrs = attrs;
    view.object_attrs = {};
    const OnnxPoolSetup setup = map_onnx_pool(as, view, input);
    for (const auto& e : setup.errors) ctx.invalid_attribute(e);
    if (!setup.usable()) return std::nullopt;
    const PoolShape shape = infer_onnx_pool_shape(as, setup, input);
    if (shape.error) {
        ctx.invalid_attribute(*shape.error);
        return std::nullopt;
    }
    return shape.output;
}

std::optional<bool> channels_last(OpContext& ctx) {
    const auto v = ctx.attr_int("channels_last", 0);
    if (!v) return std::nullopt;
    return *v != 0;
}

void infer_qlinear_average_pool(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 5)) return;
    if (!input_type_in(ctx, 0, "X", kQuant8)) return;
    if (!quant_params_fit(ctx, 0, {{1, "x_scale"}, {2, "x_zero_point"}, {3, "y_scale"}, {4, "y_zero_point"}})) return;
    const auto nhwc = channels_last(ctx);
    if (!nhwc) return;
    const Shape input = *nhwc ? nhwc_to_nchw(ctx.shape(0)) : ctx.shape(0);
    constexpr std::array<std::string_view, 1> ignored = {"channels_last"};
    const auto pooled = pooled_nchw(ctx, OnnxPoolOp{OnnxPoolKind::average, 11}, input, ignored);
    if (!pooled) return;
    out.push_back(OpOutput{*nhwc ? nchw_to_nhwc(*pooled) : *pooled, ctx.type(0), {}, {}});
}

void infer_qlinear_global_average_pool(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5)) return;
    if (!input_type_in(ctx, 0, "X", kQuant8)) return;
    if (!quant_params_fit(ctx, 0, {{1, "x_scale"}, {2, "x_zero_point"}, {3, "y_scale"}, {4, "y_zero_point"}})) return;
    const auto nhwc = channels_last(ctx);
    if (!nhwc) return;
    // (N, C, 1, ..., 1) or (N, 1, ..., 1, C); ONNX Runtime leaves a rank below 2 unknown.
    Shape y = ctx.shape(0);
    if (!y.rank_dynamic && y.rank() < 2) y = Shape::dynamic_rank();
    if (!y.rank_dynamic)
        for (size_t d = *nhwc ? 1 : 2, n = 0; n + 2 < y.rank(); ++d, ++n) y.dims[d] = Dim(1);
    out.push_back(OpOutput{y, ctx.type(0), {}, {}});
}

// QLinearConcat: Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) per input, joined along axis.
void infer_qlinear_concat(OpContext& ctx, std::vector<OpOutput>& out) {
    const size_t n = ctx.input_count();
    if (n < 5 || (n - 2) % 3 != 0)
        return ctx.invalid_input(fmt::format("it takes Y_scale, Y_zero_point and a (X, X_scale, X_zero_point) triple "
                                             "per input; the node has {} inputs",
                                             n));
    const auto axis = ctx.attr_int("axis");
    if (!axis) return;
    if (!input_type_in(ctx, 1, "Y_zero_point", kQuant8) || !quant_params_fit(ctx, 1, {{0, "Y_scale"}})) return;
    Shape y = Shape::dynamic_rank();
    std::optional<size_t> along;
    for (size_t i = 2; i < n; i += 3) {
        if (!input_type_in(ctx, i, "X", kQuant8) || !quant_params_fit(ctx, i, {{i + 1, "X_scale"}, {i + 2, "X_zero_point"}}))
            return;
        const Shape& x = ctx.shape(i);
        if (x.rank_dynamic) continue;
        if (!along) {
            std::string error;
            along = normalize_axis(*axis, static_cast<int64_t>(x.rank()), &error);
            if (!along) return ctx.invalid_attribute(error);
            y = x;
            continue;
        }
        if (x.rank() != y.rank())
            return ctx.invalid_input(fmt::format("the inputs' ranks differ: {} and {}", y.str(), x.str()));
        for (size_t d = 0; d < x.rank(); ++d) {
            if (d == *along) {
                y.dims[d] = y.dims[d] + x.dims[d];
                continue;
            }
            const auto merged = Dim::merge(y.dims[d], x.dims[d]);
            if (!merged)
                return ctx.invalid_input(fmt::format("dim {} differs between inputs {} and {}", d,
                                                     y.str(), x.str()));
            y.dims[d] = *merged;
        }
    }
    out.push_back(OpOutput{y, ctx.type(2), {}, {}});
}

// QGemm: the output is y_zero_point's type when the node quantizes it, else f32.
void infer_qgemm(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(6, 9)) return;
    if (!input_type_in(ctx, 0, "A", kQuant8) || !input_type_in(ctx, 3, "B", kQuant8) ||
        !input_type_in(ctx, 6, "C", kI32) || !input_type_in(ctx, 8, "y_zero_point", kQuant8))
        return;
    if (!quant_params_fit(ctx, 0, {{1, "a_scale"}, {2, "a_zero_point"}}) || !quant_param_fits(ctx, 7, "y_scale", ElementType::f32))
        return;
    const auto shape = gemm_shape(ctx, 0, 3);
    if (!shape) return;
    const auto type = ctx.has_input(8) ? ctx.type(8) : std::optional<ElementType>(ElementType::f32);
    out.push_back(OpOutput{*shape, type, {}, {}});
}

void infer_dequantize_linear(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    static constexpr std::array quantized = {ElementType::i8, ElementType::u8, ElementType::i16, ElementType::u16,
                                 ElementType::i32, ElementType::i4, ElementType::u4};
    if (!input_type_in(ctx, 0, "x", quantized) || !input_type_in(ctx, 1, "x_scale", kHalfFloats) ||
        !input_type_in(ctx, 2, "x_zero_point", quantized) || !ctx.attr_int("axis", 1))
        return;
    out.push_back(OpOutput{ctx.shape(0), ctx.type(1), {}, {}});
}

void infer_quantize_linear(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    static constexpr std::array quantized = {ElementType::i8, ElementType::u8, ElementType::i16, ElementType::u16, ElementType::i4, ElementType::u4};
    if (!input_type_in(ctx, 0, "x", kHalfFloats) || !input_type_in(ctx, 1, "y_scale", kHalfFloats) ||
        !input_type_in(ctx, 2, "y_zero_point", quantized) || !ctx.attr_int("axis", 1))
        return;
    const auto type = ctx.has_input(2) ? ctx.type(2) : std::optional<ElementType>(ElementType::u8);
    out.push_back(OpOutput{ctx.shape(0), type, {}, {}});
}

// GatherBlockQuantized: Gather of `data` along gather_axis, dequantized to the scales' type; u8 data packs
// 8/bits values in a byte, which the output's last dim unpacks.
void infer_gather_block_quantized(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 4)) return;
    if (!input_type_in(ctx, 0, "data", {ElementType::i4, ElementType::u4, ElementType::u8}) ||
        !input_type_in(ctx, 1, "indices", {ElementType::i32, ElementType::i64}) ||
        !input_type_in(ctx, 2, "scales", kHalfFloats))
        return;
    const auto gather_axis = ctx.attr_int("gather_axis", 0);
    const auto bits = ctx.attr_int("bits", 4);
    if (!gather_axis || !bits || !ctx.attr_int("quantize_axis", 1) || !ctx.attr_int("block_size", 128)) return;
    if (*bits != 4 && *bits != 8)
        return ctx.invalid_attribute(fmt::format("bits is {}; it takes 4 or 8", *bits));
    OpOutput y{Shape::dynamic_rank(), ctx.type(2), {}, {}};
    const Shape* data = known_shape(ctx, 0);
    const Shape* indices = known_shape(ctx, 1);
    if (data && data->rank() < 1) return ctx.invalid_input(fmt::format("data must have rank >= 1"));
    if (data && indices) {
        std::string error;
        const auto axis = normalize_axis(*gather_axis, static_cast<int64_t>(data->rank()), &error);
        if (!axis) return ctx.invalid_attribute(fmt::format("gather_axis: {}", error));
        std::vector<Dim> dims(data->dims.begin(), data->dims.begin() + static_cast<std::ptrdiff_t>(*axis));
        dims.insert(dims.end(), indices->dims.begin(), indices->dims.end());
        dims.insert(dims.end(), data->dims.begin() + static_cast<std::ptrdiff_t>(*axis) + 1, data->dims.end());
        const int64_t components = ctx.type(0) == ElementType::u8 ? 8 / *bits : 1;
        if (components > 1 && !dims.empty()) dims.back() = dims.back() * Dim(components);
        y.shape = dims_of(std::move(dims));
    }
    out.push_back(std::move(y));
}

// ---- Convolutions and pools -----------------------------------------------------------------------------

// Conv's output (NCHW) for input X and weights W (M, C/group, k...): ONNX's convolution output length is the
// dilated window's, as MaxPool-12 counts it without ceil_mode; kernel_shape defaults to W's spatial dims.
std::optional<Shape> conv_nchw(OpContext& ctx, const Shape& x, const Shape* w, std::span<const std::string_view> ignored) {
    if (!ctx.attr_int("group", 1)) return std::nullopt;
    std::string kernel_text;
    if (!ctx.attr("kernel_shape")) {
        const bool kernel_known = w && w->rank() >= 3 &&
                                  std::all_of(w->dims.begin() + 2, w->dims.end(), [](const Dim& d) { return d.is_static(); });
        if (!kernel_known) {
            if (x.rank_dynamic) return Shape::dynamic_rank();
            Shape s;
            s.dims.assign(x.rank(), Dim::dynamic());
            if (x.rank() > 0) s.dims[0] = x.dims[0];
            if (x.rank() > 1 && w) s.dims[1] = w->dims[0];
            return s;
        }
        std::vector<int64_t> kernel;
        for (size_t d = 2; d < w->rank(); ++d) kernel.push_back(w->dims[d].length());
        kernel_text = join_ints(kernel);
    }
    std::vector<Attr> extra;
    if (!kernel_text.empty()) extra.emplace_back("kernel_shape", kernel_text);
    auto shape = pooled_nchw(ctx, OnnxPoolOp{OnnxPoolKind::max, 12}, x, ignored, extra);
    if (!shape) return std::nullopt;
    if (w && shape->rank() > 1) shape->dims[1] = w->dims[0];
    return shape;
}

constexpr std::array<std::string_view, 3> kFusedConvOnly = {"group", "activation", "activation_params"};

void infer_fused_conv(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 4)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, i == 0 ? "X" : i == 1 ? "W" : i == 2 ? "B" : "Z",
                           {ElementType::f16, ElementType::f32, ElementType::f64}))
            return;
    if (!expect_min_rank(ctx, 0, "X", 3)) return;
    const auto shape = conv_nchw(ctx, ctx.shape(0), known_shape(ctx, 1), kFusedConvOnly);
    if (!shape) return;
    out.push_back(OpOutput{*shape, ctx.type(0), {}, {}});
}

// NhwcConv: X and Y are NHWC; W is (M, C/group, k...) as Conv's.
void infer_nhwc_conv(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!input_type_in(ctx, i, i == 0 ? "X" : i == 1 ? "W" : "B", kF32F16)) return;
    if (!expect_min_rank(ctx, 0, "X", 3)) return;
    const auto shape = conv_nchw(ctx, nhwc_to_nchw(ctx.shape(0)), known_shape(ctx, 1), kFusedConvOnly);
    if (!shape) return;
    out.push_back(OpOutput{nchw_to_nhwc(*shape), ctx.type(0), {}, {}});
}

// com.microsoft's QLinearConv: ai.onnx's with channels_last; the output is y_zero_point's type.
void infer_qlinear_conv(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(8, 9)) return;
    if (!input_type_in(ctx, 0, "x", kQuant8) || !input_type_in(ctx, 3, "w", kQuant8) ||
        !input_type_in(ctx, 7, "y_zero_point", kQuant8) || !input_type_in(ctx, 8, "B", kI32))
        return;
    if (!quant_params_fit(ctx, 0, {{1, "x_scale"}, {2, "x_zero_point"}}) ||
        !quant_params_fit(ctx, 3, {{4, "w_scale"}, {5, "w_zero_point"}}) ||
        !quant_param_fits(ctx, 6, "y_scale", ElementType::f32))
        return;
    const auto nhwc = channels_last(ctx);
    if (!nhwc || !expect_min_rank(ctx, 0, "x", 3)) return;
    static constexpr std::array<std::string_view, 2> conv_only = {"group", "channels_last"};
    const Shape x = *nhwc ? nhwc_to_nchw(ctx.shape(0)) : ctx.shape(0);
    const auto shape = conv_nchw(ctx, x, known_shape(ctx, 3), conv_only);
    if (!shape) return;
    out.push_back(OpOutput{*nhwc ? nchw_to_nhwc(*shape) : *shape, ctx.type(7), {}, {}});
}

void infer_nhwc_max_pool(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!input_type_in(ctx, 0, "x", kQuant8) || !expect_min_rank(ctx, 0, "x", 3)) return;
    const auto pooled = pooled_nchw(ctx, OnnxPoolOp{OnnxPoolKind::max, 12}, nhwc_to_nchw(ctx.shape(0)), {});
    if (!pooled) return;
    out.push_back(OpOutput{nchw_to_nhwc(*pooled), ctx.type(0), {}, {}});
}

// GridSample: X (N, C, H, W) sampled at Grid (N, H_out, W_out, 2) gives (N, C, H_out, W_out), of X's type.
void infer_grid_sample(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    constexpr std::array<std::string_view, 3> modes = {"bilinear", "nearest", "bicubic"};
    constexpr std::array<std::string_view, 3> padding = {"zeros", "border", "reflection"};
    if (!ctx.attr_int("align_corners", 0) || !ctx.attr_enum("mode", modes, "bilinear") ||
        !ctx.attr_enum("padding_mode", padding, "zeros"))
        return;
    const Shape* x = known_shape(ctx, 0);
    const Shape* grid = known_shape(ctx, 1);
    for (const Shape* s : {x, grid})
        if (s && s->rank() != 4)
            return ctx.invalid_input(fmt::format("X and Grid must have rank 4; {} is {}",
                                                 s == x ? "X" : "Grid", s->str()));
    // N and C come from X alone, H_out and W_out from Grid (ONNX Runtime's inference does not compare the
    // batches).
    std::vector<Dim> dims(4, Dim::dynamic());
    if (x) dims[0] = x->dims[0], dims[1] = x->dims[1];
    if (grid) dims[2] = grid->dims[1], dims[3] = grid->dims[2];
    out.push_back(OpOutput{dims_of(std::move(dims)), ctx.type(0), {}, {}});
}

constexpr std::string_view kMs = "com.microsoft";

}  // namespace

std::span<const OpEntry> onnx_microsoft_ops() {
    using namespace ms;
    static const std::vector<OpEntry> entries = {
        // ai.onnx: ONNX Runtime's contrib normalizations, registered at version 1 (ONNX's own
        // LayerNormalization, from 17, is in onnx_nn_ops.cpp).
        onnx_op("LayerNormalization", 1, infer_layer_norm_v1, "shape, type (Y, Mean, InvStdDev)",
                "axis in range; stash_type a float type; input types"),
        onnx_op("SimplifiedLayerNormalization", 1, infer_simplified_layer_norm, "shape, type (Y, inv_std_var)",
                "axis in range; stash_type a float type; input types"),
        // com.microsoft
        onnx_op("Attention", 1, infer_attention, "shape, type (output, present)",
                "input rank 3, bias rank 1, past rank 5; qkv_hidden_sizes 3 values; num_heads > 0; input types", kMs),
        onnx_op("BiasAdd", 1, infer_bias_add, "shape, type", "input types", kMs),
        onnx_op("BiasGelu", 1, infer_bias_gelu, "shape, type", "input types", kMs),
        onnx_op("BiasSplitGelu", 1, infer_bias_split_gelu, "shape, type", "input rank 3; input types", kMs),
        onnx_op("BiasSoftmax", 1, infer_bias_softmax, "shape, type", "is_inner_broadcast given; input types", kMs),
        onnx_op("DecoderMaskedMultiHeadAttention", 1, infer_decoder_masked_mha,
                "shape, type (output, present_key, present_value)",
                "query rank 3 or 5, value rank 3 or 4, past rank 4; num_heads > 0; input types", kMs),
        onnx_op("DecoderMaskedSelfAttention", 1, infer_decoder_masked_self_attention, "shape, type (output, present)",
                "input rank 3, bias rank 1, past rank 5; num_heads > 0; input types", kMs),
        onnx_op("DequantizeLinear", 1, infer_dequantize_linear, "shape, type", "input types", kMs),
        onnx_op("DynamicQuantizeMatMul", 1, infer_dynamic_quantize_matmul, "shape, type", "K dims; batch broadcast; input types", kMs),
        onnx_op("EmbedLayerNormalization", 1, infer_embed_layer_normalization, "shape, type (output, mask_index, embedding_sum)",
                "ids rank 2; embeddings rank 2 with one known hidden size, gamma and beta of it; input types", kMs),
        onnx_op("FastGelu", 1, infer_fast_gelu, "shape, type", "input types", kMs),
        onnx_op("FusedConv", 1, infer_fused_conv, "shape, type", "Conv's window attributes; input types", kMs),
        onnx_op("FusedGemm", 1, infer_fused_gemm, "shape, type", "A and B rank 2; input types", kMs),
        onnx_op("FusedMatMul", 1, infer_fused_matmul, "shape, type", "K dims; batch broadcast; input types", kMs),
        onnx_op("FusedMatMulActivation", 1, infer_fused_matmul_activation, "shape, type",
                "activation given; K dims; batch broadcast; input types", kMs),
        onnx_op("GatherBlockQuantized", 1, infer_gather_block_quantized, "shape, type",
                "gather_axis in range; bits 4 or 8; input types", kMs),
        onnx_op("Gelu", 1, infer_gelu, "shape, type", "input types", kMs),
        onnx_op("GemmaRotaryEmbedding", 1, infer_gemma_rotary_embedding, "shape, type (output1, output2)", "input types", kMs),
        onnx_op("GemmFastGelu", 1, infer_gemm_fast_gelu, "shape, type", "K dims; batch broadcast; input types", kMs),
        onnx_op("GroupNorm", 1, infer_group_norm_plain, "shape, type", "groups > 0, activation given; input types", kMs),
        onnx_op("GridSample", 1, infer_grid_sample, "shape, type", "X and Grid rank 4, same batch; mode; padding_mode", kMs),
        onnx_op("GroupQueryAttention", 1, infer_group_query_attention, "shape, type (output, present_key, present_value)",
                "query rank 3, past rank 4; num_heads, kv_num_heads > 0; input types", kMs),
        onnx_op("Inverse", 1, infer_inverse, "shape, type", "rank >= 2, square matrices; input type", kMs),
        onnx_op("LongformerAttention", 1, infer_longformer_attention, "shape, type", "num_heads, window given; input types", kMs),
        onnx_op("MatMulInteger16", 1, infer_matmul_integer16, "shape, type", "K dims; batch broadcast; input types", kMs),
        onnx_op("MatMulIntegerToFloat", 1, infer_matmul_integer_to_float, "shape, type", "K dims; batch broadcast; input types", kMs),
        onnx_op("MatMulNBits", 1, infer_matmul_nbits, "shape, type",
                "A's last dim is K; B packed as [N, k_blocks, blob_size]; bits, block_size; input types", kMs),
        onnx_op("MRotaryEmbedding", 1, infer_mrotary_embedding, "shape, type", "mrope_section of 3; input types", kMs),
        onnx_op("MultiHeadAttention", 1, infer_multi_head_attention, "shape, type (output, present_key, present_value)",
                "query rank 3 or 5, value rank 3 or 4, past rank 4; num_heads > 0; input types", kMs),
        onnx_op("NhwcConv", 1, infer_nhwc_conv, "shape, type", "Conv's window attributes; input types", kMs),
        onnx_op("NhwcMaxPool", 1, infer_nhwc_max_pool, "shape, type", "MaxPool's window attributes; input type", kMs),
        onnx_op("PackedAttention", 1, infer_packed_attention, "shape, type", "input rank 2, bias rank 1; input types", kMs),
        onnx_op("QAttention", 1, infer_qattention, "shape, type (output, present)",
                "input rank 3, bias rank 1, past rank 5; num_heads > 0; input types", kMs),
        onnx_op("QGemm", 1, infer_qgemm, "shape, type", "A and B rank 2; scalar scales and zero points; input types", kMs),
        onnx_op("QLinearAdd", 1, infer_qlinear_binary, "shape, type", "broadcast; scalar scales and zero points; input types", kMs),
        onnx_op("QLinearAveragePool", 1, infer_qlinear_average_pool, "shape, type",
                "AveragePool-11's window attributes; scalar scales and zero points; input types", kMs),
        onnx_op("QLinearConcat", 1, infer_qlinear_concat, "shape, type",
                "input triples; axis in range; ranks and other dims agree; input types", kMs),
        onnx_op("QLinearConv", 1, infer_qlinear_conv, "shape, type", "Conv's window attributes; channels_last; input types", kMs),
        onnx_op("QLinearGlobalAveragePool", 1, infer_qlinear_global_average_pool, "shape, type",
                "rank >= 3; scalar scales and zero points; input types", kMs),
        onnx_op("QLinearLeakyRelu", 1, infer_qlinear_leaky_relu, "shape, type", "scalar scales and zero points; input types", kMs),
        onnx_op("QLinearMul", 1, infer_qlinear_binary, "shape, type", "broadcast; scalar scales and zero points; input types", kMs),
        onnx_op("QLinearSigmoid", 1, infer_qlinear_unary, "shape, type", "scalar scales and zero points; input types", kMs),
        onnx_op("QLinearSoftmax", 1, infer_qlinear_softmax, "shape, type", "axis in range; scalar scales and zero points; input types", kMs),
        onnx_op("QOrderedMatMul", 1, infer_qordered_matmul, "shape, type", "orders given; K dims; batch broadcast; input types", kMs),
        onnx_op("QuantizeLinear", 1, infer_quantize_linear, "shape, type", "input types", kMs),
        onnx_op("QuickGelu", 1, infer_quick_gelu, "shape, type", "input types", kMs),
        onnx_op("RelativePositionBias", 1, infer_relative_position_bias, "shape, type",
                "bias_table rank >= 2; max_distance given; input types", kMs),
        onnx_op("RemovePadding", 1, infer_remove_padding, "shape, type (output, token_offset, cumulated_seq_len, max_seq_len)",
                "input rank 3; input types", kMs),
        onnx_op("RestorePadding", 1, infer_restore_padding, "shape, type", "input and token_offset rank 2; input types", kMs),
        onnx_op("RotaryEmbedding", 1, infer_rotary_embedding, "shape, type", "input rank 3 or 4; input types", kMs),
        onnx_op("SkipGroupNorm", 1, infer_skip_group_norm, "shape, type (Y, S)", "groups > 0, activation given; input types", kMs),
        onnx_op("SkipLayerNormalization", 1, infer_skip_layer_norm_full, "shape, type (output, mean, inv_std_var, sum)",
                "input rank 2 or 3; gamma rank 1 of the hidden size; input types", kMs),
        onnx_op("SkipSimplifiedLayerNormalization", 1, infer_skip_simplified_layer_norm,
                "shape, type (output, mean, inv_std_var, sum)", "input rank 2 or 3; gamma rank 1 of the hidden size; input types", kMs),
        onnx_op("SparseAttention", 1, infer_sparse_attention, "shape, type (output, present_key, present_value)",
                "query rank 3, past rank 4; num_heads, kv_num_heads > 0; input types", kMs),
        onnx_op("TransposeMatMul", 1, infer_fused_matmul, "shape, type", "K dims; batch broadcast; input types", kMs),
        onnx_op("Trilu", 1, infer_trilu, "shape, type", "rank >= 2; k type", kMs),
    };
    return entries;
}

}  // namespace irlint
