// com.microsoft's transformer ops: Attention and QAttention (merged QKV weights), MultiHeadAttention,
// GroupQueryAttention, PackedAttention, EmbedLayerNormalization and RotaryEmbedding, as ONNX Runtime's
// contrib shape inference gives their outputs (bert_defs.cc, quantization_defs.cc,
// shape_inference_functions.cc). Where that inference leaves a KV cache output unknown (no past input), the
// output is the one the kernels write: (batch, heads, sequence, head size).

#include <fmt/format.h>

#include "rules/ops/onnx_microsoft.hpp"

namespace irlint::ms {

namespace {

bool rank_is(const Shape* s, std::initializer_list<size_t> ranks) {
    if (!s) return true;
    for (size_t r : ranks)
        if (s->rank() == r) return true;
    return false;
}

bool expect_rank(OpContext& ctx, size_t i, std::string_view name, std::initializer_list<size_t> ranks) {
    const Shape* s = known_shape(ctx, i);
    if (rank_is(s, ranks)) return true;
    std::string allowed;
    for (size_t r : ranks) allowed += (allowed.empty() ? "" : " or ") + std::to_string(r);
    ctx.invalid_input(fmt::format("input {} ({}) must have rank {}; it is {}", i, name, allowed,
                                  s->str()));
    return false;
}

// ---- Attention, QAttention ---------------------------------------------------------------------------------

struct MergedQkv {
    size_t past_index;
    std::optional<ElementType> type;  // of the output and present
};

// The hidden sizes of Q and V: qkv_hidden_sizes when given (3 of them), else a third of the bias (or, without
// a bias, of the weights' columns) each.
std::optional<std::pair<Dim, Dim>> merged_hidden_sizes(OpContext& ctx) {
    const auto sizes = ctx.attr_ints("qkv_hidden_sizes", std::vector<int64_t>{});
    if (!sizes) return std::nullopt;
    if (!sizes->empty()) {
        if (sizes->size() != 3) {
            ctx.invalid_attribute(fmt::format("qkv_hidden_sizes has {} values; it takes 3",
                                              sizes->size()));
            return std::nullopt;
        }
        return std::pair{Dim((*sizes)[0]), Dim((*sizes)[2])};
    }
    Dim merged = Dim::dynamic();
    if (const Shape* bias = known_shape(ctx, 2)) merged = bias->dims[0];
    else if (const Shape* w = known_shape(ctx, 1); w && w->rank() == 2) merged = w->dims[1];
    const Dim third = truncated_div(merged, 3);
    return std::pair{third, third};
}

void infer_merged_qkv_attention(OpContext& ctx, std::vector<OpOutput>& out, const MergedQkv& op) {
    if (!expect_rank(ctx, 0, "input", {3}) || !expect_rank(ctx, 2, "bias", {1}) ||
        !expect_rank(ctx, op.past_index, "past", {5}))
        return;
    const auto heads = ctx.attr_int("num_heads");
    const auto share_buffer = ctx.attr_int("past_present_share_buffer", 0);
    const auto hidden = merged_hidden_sizes(ctx);
    if (!heads || !share_buffer || !hidden) return;
    if (*heads <= 0) return ctx.invalid_attribute(fmt::format("num_heads is {}; it must be > 0", *heads));
    const Shape* input = known_shape(ctx, 0);
    OpOutput output{Shape::dynamic_rank(), op.type, {}, {}};
    OpOutput present{Shape::dynamic_rank(), op.type, {}, {}};
    if (input) output.shape = dims_of({input->dims[0], input->dims[1], hidden->second});
    if (const Shape* past = known_shape(ctx, op.past_index)) {
        present.shape = *past;
        if (!*share_buffer && input) present.shape.dims[3] = input->dims[1] + past->dims[3];
    } else if (input) {
        present.shape = dims_of({Dim(2), input->dims[0], Dim(*heads), input->dims[1], truncated_div(hidden->first, *heads)});
    }
    out.push_back(std::move(output));
    out.push_back(std::move(present));
}

}  // namespace

void infer_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 7)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "input"}, {1, "weights"}, {2, "bias"}, {4, "past"},
                           {5, "attention_bias"}})
        if (!input_type_in(ctx, i, name, kHalfFloats)) return;
    if (!input_type_in(ctx, 3, "mask_index", kI32) || !input_type_in(ctx, 6, "past_sequence_length", kI32)) return;
    // The output's type is the bias's (the schema's inference); all of them are T.
    const auto type = ctx.has_input(2) && ctx.type(2) ? ctx.type(2) : ctx.type(0);
    infer_merged_qkv_attention(ctx, out, {4, type});
}

void infer_qattention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5, 9)) return;
    if (!input_type_in(ctx, 0, "input", kQuant8) || !input_type_in(ctx, 1, "weight", kQuant8) ||
        !input_type_in(ctx, 2, "bias", kF32F16) || !input_type_in(ctx, 3, "input_scale", kF32F16) ||
        !input_type_in(ctx, 4, "weight_scale", kF32F16) || !input_type_in(ctx, 5, "mask_index", kI32) ||
        !input_type_in(ctx, 6, "input_zero_point", kQuant8) || !input_type_in(ctx, 7, "weight_zero_point", kQuant8) ||
        !input_type_in(ctx, 8, "past", kF32F16))
        return;
    infer_merged_qkv_attention(ctx, out, {8, ctx.type(2)});
}

// DecoderMaskedSelfAttention: Attention's inference for one new token, past and present in one buffer or not.
void infer_decoder_masked_self_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(7, 9)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "input"}, {1, "weights"}, {2, "bias"}, {4, "past"},
                           {5, "attention_bias"}})
        if (!input_type_in(ctx, i, name, kF32F16)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{3, "mask_index"}, {6, "past_sequence_length"},
                           {7, "beam_width"}, {8, "cache_indirection"}})
        if (!input_type_in(ctx, i, name, kI32)) return;
    infer_merged_qkv_attention(ctx, out, {4, ctx.type(2)});
}

// ---- MultiHeadAttention ------------------------------------------------------------------------------------

namespace {

// The output's last dim: packed QKV (B, S, N, 3, H) gives N*H; else the value's hidden size, (B, L, Hv) or
// (B, N, L, H) (cross attention with the cache as key and value).
Shape mha_output_shape(const OpContext& ctx) {
    const Shape* query = known_shape(ctx, 0);
    if (!query) return Shape::dynamic_rank();
    if (query->rank() == 5) return dims_of({query->dims[0], query->dims[1], query->dims[2] * query->dims[4]});
    if (const Shape* value = known_shape(ctx, 2)) {
        const Dim hidden = value->rank() == 3 ? value->dims[2] : value->dims[1] * value->dims[3];
        return dims_of({query->dims[0], query->dims[1], hidden});
    }
    if (const Shape* key = known_shape(ctx, 1); key && key->rank() == 5) return *query;  // packed KV
    return dims_of({query->dims[0], query->dims[1], Dim::dynamic()});
}

// present_key or present_value without a past: the projected key or value split into heads, or the cache
// itself when the input is one (rank 4).
Shape present_without_past(const OpContext& ctx, size_t input, int64_t heads) {
    const Shape* kv = known_shape(ctx, input);
    const Shape* query = known_shape(ctx, 0);
    if (kv && kv->rank() == 4) return *kv;
    if (kv && kv->rank() == 3 && query)
        return dims_of({query->dims[0], Dim(heads), kv->dims[1], truncated_div(kv->dims[2], heads)});
    Shape s;
    s.dims.assign(4, Dim::dynamic());
    return s;
}

}  // namespace

namespace {

// The attention scores Q*K' (qk, output_qk): (B, N, S, total length), the total being the present key's
// length; of `type` (GroupQueryAttention's is the query's; the others' QK type is their own).
OpOutput attention_scores(const OpContext& ctx, int64_t heads, const Shape& present_key, std::optional<ElementType> type) {
    const Shape* query = known_shape(ctx, 0);
    if (!query || query->rank() < 2) return OpOutput{Shape::dynamic_rank(), type, {}, {}};
    const Dim total = !present_key.rank_dynamic && present_key.rank() == 4 ? present_key.dims[2] : Dim::dynamic();
    return OpOutput{dims_of({query->dims[0], Dim(heads), query->dims[1], total}), type, {}, {}};
}

// The present key and value after the past (B, N, P, H): P grows by the new key/value length, or stays when
// past and present share one buffer.
void infer_mha_outputs(OpContext& ctx, std::vector<OpOutput>& out, size_t past_key_index, bool shares_buffer) {
    const auto heads = ctx.attr_int("num_heads");
    if (!heads) return;
    if (*heads <= 0) return ctx.invalid_attribute(fmt::format("num_heads is {}; it must be > 0", *heads));
    const auto type = ctx.type(0);
    out.push_back(OpOutput{mha_output_shape(ctx), type, {}, {}});
    const Shape* value = known_shape(ctx, 2);
    for (size_t k = 0; k < 2; ++k) {
        const Shape* past = known_shape(ctx, past_key_index + k);
        OpOutput present{Shape::dynamic_rank(), type, {}, {}};
        if (past) {
            present.shape = *past;
            if (!shares_buffer && value && value->rank() == 3 && past->rank() == 4)
                present.shape.dims[2] = value->dims[1] + past->dims[2];
            else if (!shares_buffer)
                present.shape.dims[2] = Dim::dynamic();
        } else if (!ctx.has_input(past_key_index)) {
            present.shape = present_without_past(ctx, k == 0 ? 1 : 2, *heads);
        }
        out.push_back(std::move(present));
    }
    out.push_back(attention_scores(ctx, *heads, out[1].shape, std::nullopt));
}

}  // namespace

void infer_multi_head_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 10)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "query"}, {1, "key"}, {2, "value"}, {3, "bias"},
                           {5, "attention_bias"}, {6, "past_key"}, {7, "past_value"}})
        if (!input_type_in(ctx, i, name, kHalfFloats)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{4, "key_padding_mask"}, {8, "past_sequence_length"},
                           {9, "cache_indirection"}})
        if (!input_type_in(ctx, i, name, kI32)) return;
    if (!expect_rank(ctx, 0, "query", {3, 5}) || !expect_rank(ctx, 2, "value", {3, 4}) ||
        !expect_rank(ctx, 6, "past_key", {4}))
        return;
    // past_sequence_length given with the past: one buffer holds both (max_sequence_length long).
    infer_mha_outputs(ctx, out, 6, ctx.has_input(6) && ctx.has_input(8));
}

void infer_decoder_masked_mha(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 11)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "query"}, {1, "key"}, {2, "value"}, {4, "attention_bias"},
                           {5, "past_key"}, {6, "past_value"}, {10, "bias"}})
        if (!input_type_in(ctx, i, name, kF32F16)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{3, "mask_index"}, {7, "past_sequence_length"},
                           {8, "beam_width"}, {9, "cache_indirection"}})
        if (!input_type_in(ctx, i, name, kI32)) return;
    if (!expect_rank(ctx, 0, "query", {3, 5}) || !expect_rank(ctx, 2, "value", {3, 4}) ||
        !expect_rank(ctx, 5, "past_key", {4}))
        return;
    const auto share_buffer = ctx.attr_int("past_present_share_buffer", 0);
    if (!share_buffer) return;
    // ONNX Runtime's inference also reads inputs 6 and 8 given together as a shared buffer.
    infer_mha_outputs(ctx, out, 5, *share_buffer != 0 || (ctx.has_input(6) && ctx.has_input(8)));
}

// ---- GroupQueryAttention -----------------------------------------------------------------------------------

namespace {

struct GqaHeads {
    int64_t heads = 0;
    int64_t kv_heads = 0;
};

// The query's head size: D / N, or D / (N + 2*Nkv) when Q, K and V come packed in the query.
Dim gqa_head_size(const Dim& d, const GqaHeads& h, bool packed) {
    return truncated_div(d, packed ? h.heads + 2 * h.kv_heads : h.heads);
}

// The output: the query's shape, or (B, S, N*H) from packed QKV; `kv_length` the new keys' length when known.
OpOutput gqa_output(const OpContext& ctx, const GqaHeads& h, Dim& kv_length) {
    const Shape* query = known_shape(ctx, 0);
    OpOutput output{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!query) return output;
    if (ctx.has_input(2)) {
        output.shape = *query;
        if (const Shape* value = known_shape(ctx, 2); value && value->rank() == 3) kv_length = value->dims[1];
    } else {
        output.shape = dims_of({query->dims[0], query->dims[1], gqa_head_size(query->dims[2], h, true) * Dim(h.heads)});
        kv_length = query->dims[1];
    }
    return output;
}

bool gqa_heads(OpContext& ctx, GqaHeads& h) {
    const auto heads = ctx.attr_int("num_heads");
    const auto kv_heads = ctx.attr_int("kv_num_heads");
    if (!heads || !kv_heads) return false;
    if (*heads <= 0 || *kv_heads <= 0) {
        ctx.invalid_attribute(fmt::format("num_heads {} and kv_num_heads {} must be > 0", *heads, *kv_heads));
        return false;
    }
    h = {*heads, *kv_heads};
    return true;
}

// The present cache's length: ONNX Runtime's kernel makes it max(past, total_sequence_length). Its shape
// inference says `past` when the total is unknown; the kernel may make it longer, so a static past is a lower
// bound then (a file that declares the longer length is right).
Dim gqa_present_length(const Dim& past_length, std::optional<int64_t> total, bool has_total_input) {
    if (total && *total > 0 && past_length.is_static()) return Dim(std::max(*total, past_length.length()));
    // A past of length 0 grows to the total length, which is not known here.
    if (has_total_input && past_length.is_static() && past_length.length() == 0) return Dim::dynamic();
    if (has_total_input && past_length.is_static()) return Dim(past_length.length(), Dim::kInf);
    return past_length;
}

}  // namespace

void infer_group_query_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(7, 16)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "query"}, {1, "key"}, {2, "value"}, {7, "cos_cache"},
                           {8, "sin_cache"}, {10, "attention_bias"}, {11, "head_sink"}, {14, "q_norm_weight"},
                           {15, "k_norm_weight"}})
        if (!input_type_in(ctx, i, name, kHalfFloats)) return;
    static constexpr std::array cache_types = {ElementType::f32, ElementType::f16, ElementType::bf16,
                                   ElementType::u8,  ElementType::i8,  ElementType::f8e4m3};
    if (!input_type_in(ctx, 3, "past_key", cache_types) || !input_type_in(ctx, 4, "past_value", cache_types) ||
        !input_type_in(ctx, 5, "seqlens_k", kI32) || !input_type_in(ctx, 6, "total_sequence_length", kI32) ||
        !input_type_in(ctx, 9, "position_ids", kI64) ||
        !input_type_in(ctx, 12, "k_scale", {ElementType::f32}) || !input_type_in(ctx, 13, "v_scale", {ElementType::f32}))
        return;
    if (!expect_rank(ctx, 0, "query", {3}) || !expect_rank(ctx, 3, "past_key", {4})) return;
    GqaHeads h;
    const auto sliding_window_cache = ctx.attr_int("sliding_window_cache", 0);
    if (!gqa_heads(ctx, h) || !sliding_window_cache) return;
    const Shape* query = known_shape(ctx, 0);
    const bool packed = !ctx.has_input(2);
    Dim kv_length = Dim::dynamic();
    out.push_back(gqa_output(ctx, h, kv_length));

    std::optional<int64_t> total;
    if (const auto v = ctx.exact_values(6); v && v->size() == 1) total = (*v)[0];
    const auto cache_type = ctx.has_input(3) && ctx.type(3) ? ctx.type(3) : ctx.type(0);
    for (size_t k = 0; k < 2; ++k) {
        OpOutput present{Shape::dynamic_rank(), k == 0 ? cache_type : (ctx.has_input(4) && ctx.type(4) ? ctx.type(4) : cache_type), {}, {}};
        if (const Shape* past = known_shape(ctx, 3 + k); past && past->rank() == 4) {
            present.shape = *past;
            if (*sliding_window_cache != 1) present.shape.dims[2] = gqa_present_length(past->dims[2], total, true);
        } else if (!ctx.has_input(3) && query) {
            Dim length = query->dims[1];
            if (total && *total > 0) length = Dim(*total);
            else if (kv_length.is_static() && kv_length.length() > 0) length = kv_length;
            present.shape = dims_of({query->dims[0], Dim(h.kv_heads), length, gqa_head_size(query->dims[2], h, packed)});
        }
        out.push_back(std::move(present));
    }
    // output_qk: ONNX Runtime gives its last dim from the total_sequence_length input alone.
    Shape total_only = Shape::dynamic_rank();
    if (total && *total > 0) total_only = dims_of({Dim::dynamic(), Dim::dynamic(), Dim(*total), Dim::dynamic()});
    out.push_back(attention_scores(ctx, h.heads, total_only, ctx.type(0)));
}

// SparseAttention: GroupQueryAttention's output; the KV cache is one buffer of the maximum length, so the
// present key and value are the past's shapes.
void infer_sparse_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(9, 11)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "query"}, {1, "key"}, {2, "value"}, {3, "past_key"},
                           {4, "past_value"}, {9, "cos_cache"}, {10, "sin_cache"}})
        if (!input_type_in(ctx, i, name, kHalfFloats)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{5, "block_row_indices"}, {6, "block_col_indices"},
                           {7, "total_sequence_length"}, {8, "key_total_sequence_lengths"}})
        if (!input_type_in(ctx, i, name, kI32)) return;
    if (!expect_rank(ctx, 0, "query", {3}) || !expect_rank(ctx, 3, "past_key", {4})) return;
    GqaHeads h;
    if (!gqa_heads(ctx, h) || !ctx.attr_int("sparse_block_size")) return;
    Dim kv_length;
    out.push_back(gqa_output(ctx, h, kv_length));
    for (size_t k = 0; k < 2; ++k) out.push_back(OpOutput{ctx.shape(3 + k), ctx.type(3 + k), {}, {}});
}

// ---- PackedAttention ---------------------------------------------------------------------------------------

void infer_packed_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5, 6)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "input"}, {1, "weights"}, {2, "bias"},
                           {5, "attention_bias"}})
        if (!input_type_in(ctx, i, name, kF32F16)) return;
    if (!input_type_in(ctx, 3, "token_offset", kI32) || !input_type_in(ctx, 4, "cumulative_sequence_length", kI32))
        return;
    if (!expect_rank(ctx, 0, "input", {2}) || !expect_rank(ctx, 2, "bias", {1})) return;
    if (!ctx.attr_int("num_heads")) return;
    const auto hidden = merged_hidden_sizes(ctx);
    if (!hidden) return;
    OpOutput output{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (const Shape* input = known_shape(ctx, 0)) output.shape = dims_of({input->dims[0], hidden->second});
    out.push_back(std::move(output));
}

// RemovePadding: (B, S, H) -> the tokens without padding (T, H), their offsets (B, S), the cumulated sequence
// lengths (B + 1) and the longest sequence (1).
void infer_remove_padding(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "input", kF32F16) || !input_type_in(ctx, 1, "sequence_token_count", kI32)) return;
    if (!expect_rank(ctx, 0, "input", {3})) return;
    const Shape* input = known_shape(ctx, 0);
    auto shaped = [&](std::vector<Dim> dims) { return input ? dims_of(std::move(dims)) : Shape::dynamic_rank(); };
    const Dim b = input ? input->dims[0] : Dim::dynamic();
    out.push_back(OpOutput{shaped({Dim::dynamic(), input ? input->dims[2] : Dim::dynamic()}), ctx.type(0), {}, {}});
    out.push_back(OpOutput{shaped({b, input ? input->dims[1] : Dim::dynamic()}), ctx.type(1), {}, {}});
    out.push_back(OpOutput{shaped({b + Dim(1)}), ElementType::i32, {}, {}});
    out.push_back(OpOutput{dims_of({Dim(1)}), ElementType::i32, {}, {}});
}

// RestorePadding: the tokens (T, H) back to (B, S, H) by their offsets (B, S).
void infer_restore_padding(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!input_type_in(ctx, 0, "input", kF32F16) || !input_type_in(ctx, 1, "token_offset", kI32)) return;
    if (!expect_rank(ctx, 0, "input", {2}) || !expect_rank(ctx, 1, "token_offset", {2})) return;
    const Shape* input = known_shape(ctx, 0);
    const Shape* offsets = known_shape(ctx, 1);
    OpOutput y{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (input && offsets) y.shape = dims_of({offsets->dims[0], offsets->dims[1], input->dims[1]});
    out.push_back(std::move(y));
}

// ---- EmbedLayerNormalization -------------------------------------------------------------------------------

namespace {

// ONNX Runtime's inference refuses an embedding whose hidden size is not known, or differs from the word
// embedding's.
bool embedding_hidden(OpContext& ctx, size_t i, std::string_view name, size_t rank, std::optional<int64_t>& hidden) {
    const Shape* s = known_shape(ctx, i);
    if (!s) return true;
    const Dim* last = s->rank() == rank ? &s->dims.back() : nullptr;
    const bool known = last && last->is_static() && last->length() > 0;
    if (known && (!hidden || *hidden == last->length())) {
        if (!hidden) hidden = last->length();
        return true;
    }
    ctx.invalid_input(fmt::format("input {} ({}) must have rank {} and a known hidden size{}; it is {}",
                                  i, name, rank, hidden ? fmt::format(" of {}", *hidden) : "", s->str()));
    return false;
}

}  // namespace

void infer_embed_layer_normalization(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(7, 9)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{0, "input_ids"}, {1, "segment_ids"}, {7, "mask"},
                           {8, "position_ids"}})
        if (!input_type_in(ctx, i, name, kI32)) return;
    for (auto [i, name] : {std::pair<size_t, std::string_view>{2, "word_embedding"}, {3, "position_embedding"},
                           {4, "segment_embedding"}, {5, "gamma"}, {6, "beta"}})
        if (!input_type_in(ctx, i, name, kF32F16)) return;
    if (!expect_rank(ctx, 0, "input_ids", {2}) || !expect_rank(ctx, 1, "segment_ids", {2})) return;
    std::optional<int64_t> hidden;
    if (!embedding_hidden(ctx, 2, "word_embedding", 2, hidden) ||
        !embedding_hidden(ctx, 3, "position_embedding", 2, hidden) ||
        (ctx.has_input(1) && !embedding_hidden(ctx, 4, "segment_embedding", 2, hidden)) ||
        !embedding_hidden(ctx, 5, "gamma", 1, hidden) || !embedding_hidden(ctx, 6, "beta", 1, hidden))
        return;
    const Shape* ids = known_shape(ctx, 0);
    const auto type = ctx.type(2);
    OpOutput output{Shape::dynamic_rank(), type, {}, {}};
    OpOutput mask_index{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (ids) {
        output.shape = dims_of({ids->dims[0], ids->dims[1], hidden ? Dim(*hidden) : Dim::dynamic()});
        mask_index.shape = dims_of({ids->dims[0]});
    }
    // embedding_sum is T in the schema (ONNX Runtime's inference gives it input_ids' type, which the schema's
    // constraint T refuses).
    OpOutput embedding_sum = output;
    out.push_back(std::move(output));
    out.push_back(std::move(mask_index));
    out.push_back(std::move(embedding_sum));
}

// ---- RotaryEmbedding ---------------------------------------------------------------------------------------

void infer_rotary_embedding(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    if (!input_type_in(ctx, 0, "input", kHalfFloats) || !input_type_in(ctx, 1, "position_ids", kI64) ||
        !input_type_in(ctx, 2, "cos_cache", kHalfFloats) || !input_type_in(ctx, 3, "sin_cache", kHalfFloats))
        return;
    // The kernel takes (B, S, hidden) or (B, N, S, head).
    if (!expect_rank(ctx, 0, "input", {3, 4})) return;
    out.push_back(like_input(ctx, 0));
}

// MRotaryEmbedding: RotaryEmbedding with three position streams (3, B, S) and mrope_section.
void infer_mrotary_embedding(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    if (!input_type_in(ctx, 0, "input", kHalfFloats) || !input_type_in(ctx, 1, "position_ids", kI64) ||
        !input_type_in(ctx, 2, "cos_cache", kHalfFloats) || !input_type_in(ctx, 3, "sin_cache", kHalfFloats))
        return;
    const auto section = ctx.attr_ints("mrope_section");
    if (!section) return;
    if (section->size() != 3)
        return ctx.invalid_attribute(fmt::format("mrope_section has {} values; it takes 3", section->size()));
    out.push_back(like_input(ctx, 0));
}

// GemmaRotaryEmbedding: both outputs are q's shape and type.
void infer_gemma_rotary_embedding(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5)) return;
    if (!input_type_in(ctx, 0, "emb", {ElementType::f32})) return;
    for (size_t i = 1; i < 5; ++i)
        if (!input_type_in(ctx, i, i <= 2 ? "q" : "k", {ElementType::f16})) return;
    out.push_back(like_input(ctx, 1));
    out.push_back(like_input(ctx, 1));
}

// RelativePositionBias: (1, num_heads, query_length, key_length); the lengths are input values (ONNX Runtime's
// inference leaves them unknown).
void infer_relative_position_bias(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    if (!input_type_in(ctx, 0, "bias_table", kF32F16) || !input_type_in(ctx, 1, "query_length", kI64) ||
        !input_type_in(ctx, 2, "key_length", kI64) || !ctx.attr_int("max_distance") || !ctx.attr_int("is_bidirectional", 0))
        return;
    const Shape* table = known_shape(ctx, 0);
    if (table && table->rank() < 2)
        return ctx.invalid_input(fmt::format("bias_table must have rank >= 2; it is {}", table->str()));
    auto length = [&](size_t i) {
        const auto v = ctx.exact_values(i);
        return v && v->size() == 1 && (*v)[0] >= 0 ? Dim((*v)[0]) : Dim::dynamic();
    };
    OpOutput y{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (table) y.shape = dims_of({Dim(1), table->dims[1], length(1), length(2)});
    out.push_back(std::move(y));
}

void infer_longformer_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(7)) return;
    for (size_t i = 0; i < 6; ++i)
        if (!input_type_in(ctx, i, "input", kF32F16)) return;
    if (!input_type_in(ctx, 6, "global", kI32) || !ctx.attr_int("num_heads") || !ctx.attr_int("window")) return;
    out.push_back(like_input(ctx, 0));
}

}  // namespace irlint::ms
