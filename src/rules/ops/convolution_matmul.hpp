#pragma once
// MatMul, Einsum, Col2Im and ScaledDotProductAttention's inference, registered with the convolution family's
// table (convolution_ops.cpp).

#include <vector>

#include "rules/ops/op_context.hpp"

namespace irlint {

void infer_matmul(OpContext& ctx, std::vector<OpOutput>& out);
void infer_einsum(OpContext& ctx, std::vector<OpOutput>& out);
void infer_col2im(OpContext& ctx, std::vector<OpOutput>& out);
void infer_scaled_dot_product_attention(OpContext& ctx, std::vector<OpOutput>& out);

}  // namespace irlint
