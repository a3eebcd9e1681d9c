#pragma once
// The ONNX nn family's files (onnx_nn_*.cpp) and the steps they share: each file gives its entries, and
// onnx_nn_ops() (onnx_nn_ops.cpp) joins them.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/checked_int.hpp"
#include "rules/ops/op_registry.hpp"

namespace irlint::onnx_nn {

std::vector<OpEntry>
conv_entries();  // Conv, ConvTranspose, ConvInteger, QLinearConv, DeformConv, CausalConvWithState, ...
std::vector<OpEntry> norm_entries();    // BatchNormalization, LayerNormalization, ... LRN, LpNormalization
std::vector<OpEntry> matmul_entries();  // Gemm, MatMul, MatMulInteger, QLinearMatMul, Einsum
std::vector<OpEntry> reduce_entries();  // Reduce*, ArgMax, ArgMin, TopK, CumSum, CumProd
std::vector<OpEntry> resize_entries();  // Resize, Upsample, GridSample, AffineGrid
std::vector<OpEntry> rnn_entries();     // RNN, GRU, LSTM, Attention, LinearAttention, RotaryEmbedding

std::string type_text(std::optional<ElementType> t);

// ONNX's float types (the schemas' "all float types": f16, f32, f64, bf16).
bool is_onnx_float(ElementType t);
// The narrow float types the newest fused ops take: f16, bf16, f32.
bool is_narrow_float(ElementType t);
// Numeric: a float or an integer type (no bool, no string).
bool is_onnx_numeric(ElementType t);

// Input i's type, when declared, is one `allowed` takes; else records "<what> (input i) is <t>, not <expected>"
// and returns false. (The engine names the op and its version before every message.)
bool check_type(OpContext& ctx, size_t i, std::string_view what, bool (*allowed)(ElementType),
                std::string_view expected);
// Input i, when its type is declared, is a float type (numeric: a float or an integer type) of the node's
// version: bf16 only from the version whose schema added it.
bool check_float(OpContext& ctx, size_t i, std::string_view what);
bool check_numeric(OpContext& ctx, size_t i, std::string_view what);
// Whether the node's op takes bf16 at its version.
bool takes_bf16(const OpContext& ctx);

// Inputs i and j share one type (one type variable of the schema).
bool check_same_type(OpContext& ctx, size_t i, size_t j);

// ONNX's unifyInputShape: input i, when given with a known rank, has expected.size() dims, each merged into
// the one of `expected` (dims several inputs share are one Dim, refined by each). Else records "<what> [..]
// must be n-D" or which dim disagrees with the expected one, and returns false.
bool unify_input(OpContext& ctx, size_t i, std::string_view what, std::span<Dim> expected);
// One dim known two ways merged into `dim`; else records "<what> is <a>, but <b> from <how>".
bool unify_dim(OpContext& ctx, Dim& dim, const Dim& other, std::string_view what, std::string_view how);

// A shape of n dynamic dims.
Shape unknown_dims(size_t n);

// An attribute ONNX reads as an integer flag (keepdims, training_mode, ...): non-zero is true.
std::optional<bool> attr_flag(OpContext& ctx, std::string_view name, bool fallback);

// ConvTranspose's length of one spatial axis: stride * (in - 1) + output_padding + dilated kernel - pads (the
// two pads summed); nullopt on overflow.
std::optional<int64_t> conv_transpose_length(int64_t in, int64_t kernel, int64_t stride, int64_t dilation,
                                             int64_t output_padding, CheckedInt pads);

}  // namespace irlint::onnx_nn
