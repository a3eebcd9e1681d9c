#pragma once
// What the com.microsoft family's files share (onnx_microsoft_ops.cpp, onnx_microsoft_attention.cpp,
// onnx_microsoft_more.cpp): the steps every contrib op takes (its type constraints, an output like an input,
// ONNX Runtime's integer division of a dim) and the attention ops' entry points. The ai.onnx.ml family
// (onnx_ml_ops.cpp) takes the same first steps. The truth is ONNX Runtime's contrib schemas and their shape
// inference (onnxruntime/core/graph/contrib_ops/*_defs.cc).

#include <cstdint>
#include <array>
#include <initializer_list>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/ops/op_context.hpp"
#include "rules/ops/op_registry.hpp"

namespace irlint {

// The more specialised contrib operators (onnx_microsoft_more.cpp): quantized, ordered and 8-bit ops,
// dropouts, text ops; onnx_ops() joins them to onnx_microsoft_ops().
std::span<const OpEntry> onnx_microsoft_more_ops();

}  // namespace irlint

namespace irlint::ms {

using Types = std::span<const ElementType>;
inline constexpr std::array kHalfFloats = {ElementType::f32, ElementType::f16, ElementType::bf16};
inline constexpr std::array kFloats = {ElementType::f32, ElementType::f64, ElementType::f16, ElementType::bf16};
inline constexpr std::array kF32F16 = {ElementType::f32, ElementType::f16};
inline constexpr std::array kQuant8 = {ElementType::i8, ElementType::u8};
inline constexpr std::array kI32 = {ElementType::i32};
inline constexpr std::array kI64 = {ElementType::i64};

// Input i (called `name` in the schema; "" leaves the name out of the message) is one of `allowed` when given
// and typed; records an input problem otherwise (ONNX Runtime refuses a node whose types are outside its
// schema's constraints).
bool input_type_in(OpContext& ctx, size_t i, std::string_view name, Types allowed);
inline bool input_type_in(OpContext& ctx, size_t i, std::string_view name, std::initializer_list<ElementType> allowed) {
    return input_type_in(ctx, i, name, Types(allowed.begin(), allowed.size()));
}

// Output with input i's shape (its dims' symbols kept) and type.
OpOutput like_input(const OpContext& ctx, size_t i);

// ONNX Runtime divides a known dim in C++ (truncating); an unknown dim stays unknown.
Dim truncated_div(const Dim& d, int64_t divisor);

// A shape of known rank with these dims.
inline Shape dims_of(std::vector<Dim> dims) { return Shape{false, std::move(dims)}; }

// Input i's shape when it is given and of known rank, else nullptr.
const Shape* known_shape(const OpContext& ctx, size_t i);

// The transformer ops (onnx_microsoft_attention.cpp).
void infer_attention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_qattention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_multi_head_attention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_group_query_attention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_packed_attention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_embed_layer_normalization(OpContext& ctx, std::vector<OpOutput>& out);
void infer_rotary_embedding(OpContext& ctx, std::vector<OpOutput>& out);
void infer_decoder_masked_mha(OpContext& ctx, std::vector<OpOutput>& out);
void infer_sparse_attention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_mrotary_embedding(OpContext& ctx, std::vector<OpOutput>& out);
void infer_gemma_rotary_embedding(OpContext& ctx, std::vector<OpOutput>& out);
void infer_relative_position_bias(OpContext& ctx, std::vector<OpOutput>& out);
void infer_longformer_attention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_decoder_masked_self_attention(OpContext& ctx, std::vector<OpOutput>& out);
void infer_remove_padding(OpContext& ctx, std::vector<OpOutput>& out);
void infer_restore_padding(OpContext& ctx, std::vector<OpOutput>& out);

}  // namespace irlint::ms
