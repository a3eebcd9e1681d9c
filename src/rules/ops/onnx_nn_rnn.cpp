// ONNX's recurrent and attention ops: RNN, GRU and LSTM (directions, layout from 14, hidden_size from the
// attribute or R, the parameters' dims held to them as ONNX Runtime's kernels hold them), Attention (3-D and 4-D forms, past and present key/value, qk_matmul_output),
// LinearAttention (packed 3-D heads and a recurrent state) and RotaryEmbedding.

#include <algorithm>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/onnx_nn.hpp"

namespace irlint::onnx_nn {

namespace {

// ---- RNN, GRU, LSTM ------------------------------------------------------------------------------------

size_t gate_count(std::string_view type) { return type == "LSTM" ? 4 : type == "GRU" ? 3 : 1; }

std::optional<int64_t> read_directions(OpContext& ctx) {
    static constexpr std::string_view kDirections[] = {"forward", "reverse", "bidirectional"};
    const auto d = ctx.attr_enum("direction", kDirections, "forward");
    if (!d) return std::nullopt;
    return *d == "bidirectional" ? 2 : 1;
}

// hidden_size: the attribute, else R's last dim ([num_directions, gates*hidden, hidden]).
std::optional<Dim> read_hidden(OpContext& ctx) {
    const auto attr = ctx.attr_int("hidden_size", -1);
    if (!attr) return std::nullopt;
    if (ctx.attr("hidden_size")) {
        if (*attr < 1) {
            ctx.invalid_attribute(fmt::format("hidden_size is {}, must be >= 1", *attr));
            return std::nullopt;
        }
        return Dim(*attr);
    }
    const Shape& r = ctx.shape(2);
    return r.rank_dynamic || r.rank() != 3 ? Dim::dynamic() : r.dims[2];
}

// W [num_directions, gates*hidden, input_size] and R [num_directions, gates*hidden, hidden]: 3-D, of the
// directions. ONNX's inference reads neither; the rows are not held to hidden_size, which it takes as given.
bool check_weights(OpContext& ctx, int64_t directions) {
    for (size_t i : {1, 2}) {
        const Shape& w = ctx.shape(i);
        if (w.rank_dynamic) continue;
        if (w.rank() != 3) return ctx.invalid_input(fmt::format("input {} {} must be 3-D", i, w.str())), false;
        if (!w.dims[0].compatible(Dim(directions)))
            return ctx.invalid_input(
                       fmt::format("input {} {} must have {} direction(s) first", i, w.str(), directions)),
                   false;
    }
    return true;
}

// Input i, when given and of known rank, has the dims `want` (each compatible); `spelled` names them. ONNX's
// inference reads none of these, but ONNX Runtime's kernels and OpenVINO's import refuse other dims.
bool expect_dims(OpContext& ctx, size_t i, std::string_view name, const std::vector<Dim>& want, std::string_view spelled) {
    if (!ctx.has_input(i) || ctx.shape(i).rank_dynamic) return true;
    const Shape& s = ctx.shape(i);
    const Shape expected{false, want};
    if (s.compatible(expected)) return true;
    ctx.invalid_input(fmt::format("{} {} must be {} = {}", name, s.str(), spelled, expected.str()));
    return false;
}

// W, R, B, sequence_lens, initial_h, initial_c and P against the directions, gates, hidden size, X's batch
// and input size.
bool check_parameter_dims(OpContext& ctx, int64_t directions, size_t gates, const Dim& hidden, const Dim& batch,
                          bool batch_first) {
    if (hidden.is_static() && !(CheckedInt(hidden.length()) * static_cast<int64_t>(2 * gates)).get()) {
        ctx.invalid_attribute(fmt::format("hidden_size {} is too large: B's {}*hidden_size overflows 64 bits",
                                          hidden.length(), 2 * gates));
        return false;
    }
    const Shape& x = ctx.shape(0);
    const Dim input_size = x.rank_dynamic ? Dim::dynamic() : x.dims[2];
    const Dim dirs(directions), rows = hidden * Dim(static_cast<int64_t>(gates));
    const std::string g = std::to_string(gates);
    const std::string state = batch_first ? "[batch, num_directions, hidden_size]" : "[num_directions, batch, hidden_size]";
    const std::vector<Dim> state_dims = batch_first ? std::vector<Dim>{batch, dirs, hidden} : std::vector<Dim>{dirs, batch, hidden};
    return expect_dims(ctx, 1, "W", {dirs, rows, input_size}, "[num_directions, " + g + "*hidden_size, input_size]") &&
           expect_dims(ctx, 2, "R", {dirs, rows, hidden}, "[num_directions, " + g + "*hidden_size, hidden_size]") &&
           expect_dims(ctx, 3, "B", {dirs, rows * Dim(2)}, "[num_directions, " + std::to_string(2 * gates) + "*hidden_size]") &&
           expect_dims(ctx, 4, "sequence_lens", {batch}, "[batch]") &&
           expect_dims(ctx, 5, "initial_h", state_dims, state) &&
           (gates != 4 || (expect_dims(ctx, 6, "initial_c", state_dims, state) &&
                           expect_dims(ctx, 7, "P", {dirs, hidden * Dim(3)}, "[num_directions, 3*hidden_size]")));
}

void infer_recurrent(OpContext& ctx, std::vector<OpOutput>& outs) {
    const size_t gates = gate_count(ctx.layer().type);
    if (!ctx.expect_inputs(3, gates == 4 ? 8 : 6)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (i != 4 && (!check_float(ctx, i, i == 0 ? "X" : "a parameter") || !check_same_type(ctx, 0, i))) return;
    if (!check_type(
            ctx, 4, "sequence_lens", [](ElementType t) { return t == ElementType::i32; }, "i32"))
        return;
    const auto directions = read_directions(ctx);
    const auto hidden = read_hidden(ctx);
    const auto layout = ctx.version() >= 14 ? ctx.attr_int("layout", 0) : std::optional<int64_t>(0);
    if (ctx.failed() || !directions || !hidden || !layout) return;
    if (*layout != 0 && *layout != 1)
        return ctx.invalid_attribute(fmt::format("layout is {}, must be 0 or 1", *layout));
    if (!check_weights(ctx, *directions)) return;
    const Shape& x = ctx.shape(0);
    if (!x.rank_dynamic && x.rank() != 3) return ctx.invalid_input(fmt::format("X {} must be 3-D", x.str()));
    const bool batch_first = *layout == 1;
    const Dim seq = x.rank_dynamic ? Dim::dynamic() : x.dims[batch_first ? 1 : 0];
    const Dim batch = x.rank_dynamic ? Dim::dynamic() : x.dims[batch_first ? 0 : 1];
    if (!check_parameter_dims(ctx, *directions, gates, *hidden, batch, batch_first)) return;
    const Dim dirs(*directions);
    OpOutput y{batch_first ? Shape{false, {batch, seq, dirs, *hidden}} : Shape{false, {seq, dirs, batch, *hidden}},
               ctx.type(0),
               {},
               {}};
    OpOutput state{
        batch_first ? Shape{false, {batch, dirs, *hidden}} : Shape{false, {dirs, batch, *hidden}}, ctx.type(0), {}, {}};
    // Version 1 without output_sequence: ONNX leaves the shapes open (which outputs Y_h and Y_c stand at is
    // ambiguous there); the types are X's.
    const auto output_sequence = ctx.version() == 1 ? ctx.attr_int("output_sequence", 0) : 1;
    if (!output_sequence) return;
    if (*output_sequence == 0) y.shape = state.shape = Shape::dynamic_rank();
    outs.push_back(std::move(y));
    outs.push_back(state);
    if (gates == 4) outs.push_back(state);
}

// ---- Attention -----------------------------------------------------------------------------------------

// What Q, K and V say, in the 4-D terms: [batch, heads, sequence, head size].
struct Heads {
    Dim batch, heads, sequence, head_size;
};

// A 3-D [batch, sequence, heads*head_size] input read with its head count, or a 4-D one as it is.
Heads heads_of(const Shape& s, std::optional<int64_t> heads) {
    if (s.rank() == 4) return {s.dims[0], s.dims[1], s.dims[2], s.dims[3]};
    Heads h{s.dims[0], heads ? Dim(*heads) : Dim::dynamic(), s.dims[1], Dim::dynamic()};
    if (heads && s.dims[2].is_static()) h.head_size = Dim(s.dims[2].length() / *heads);
    return h;
}

bool check_attention_rank(OpContext& ctx, size_t i, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || s.rank() == 3 || s.rank() == 4) return true;
    ctx.invalid_input(fmt::format("{} {} must be 3-D or 4-D", name, s.str()));
    return false;
}

std::optional<int64_t> heads_attr(OpContext& ctx, std::string_view name, bool needed) {
    const std::string_view* a = ctx.attr(name);
    if (!a) {
        if (needed) ctx.invalid_attribute(fmt::format("{} is needed with 3-D inputs", name));
        return std::nullopt;
    }
    const auto v = ctx.attr_int(name);
    if (v && *v < 1) {
        ctx.invalid_attribute(fmt::format("{} is {}, must be >= 1", name, *v));
        return std::nullopt;
    }
    return v;
}

// Q, K, V, attn_mask, past_key, past_value (, nonpad_kv_seqlen from 24): Y, present_key, present_value,
// qk_matmul_output.
void infer_attention(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3, ctx.version() >= 24 ? 7 : 6)) return;
    if (!check_float(ctx, 0, "Q") || !check_same_type(ctx, 1, 2)) return;
    if (!check_attention_rank(ctx, 0, "Q") || !check_attention_rank(ctx, 1, "K") || !check_attention_rank(ctx, 2, "V"))
        return;
    const Shape& q = ctx.shape(0);
    const Shape& k = ctx.shape(1);
    const Shape& v = ctx.shape(2);
    const bool three_d = !q.rank_dynamic && q.rank() == 3;
    const auto q_heads = heads_attr(ctx, "q_num_heads", three_d);
    const auto kv_heads = heads_attr(ctx, "kv_num_heads", three_d);
    if (ctx.failed()) return;
    OpOutput y{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    OpOutput present_key{Shape::dynamic_rank(), ctx.has_input(4) ? ctx.type(4) : ctx.type(1), {}, {}};
    OpOutput present_value{Shape::dynamic_rank(), ctx.has_input(5) ? ctx.type(5) : ctx.type(2), {}, {}};
    OpOutput qk{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!q.rank_dynamic && !k.rank_dynamic && !v.rank_dynamic) {
        const Heads hq = heads_of(q, q_heads), hk = heads_of(k, kv_heads), hv = heads_of(v, kv_heads);
        if (three_d && q.dims[2].is_static() && q.dims[2].length() % *q_heads != 0)
            return ctx.invalid_input(
                fmt::format("Q's hidden size {} is not divisible by q_num_heads {}", q.dims[2].length(), *q_heads));
        Dim total = hk.sequence;
        if (ctx.has_input(4)) {
            const Shape& past = ctx.shape(4);
            if (!past.rank_dynamic && past.rank() != 4)
                return ctx.invalid_input(fmt::format("past_key {} must be 4-D", past.str()));
            total = past.rank_dynamic ? Dim::dynamic() : past.dims[2] + hk.sequence;
        }
        if (q.rank() == 4)
            y.shape = Shape{false, {hq.batch, hq.heads, hq.sequence, hv.head_size}};
        else
            y.shape = Shape{false, {hq.batch, hq.sequence, hv.head_size * hq.heads}};
        present_key.shape = Shape{false, {hk.batch, hk.heads, total, hk.head_size}};
        present_value.shape = Shape{false, {hv.batch, hv.heads, total, hv.head_size}};
        qk.shape = Shape{false, {hq.batch, hq.heads, hq.sequence, total}};
    }
    outs.push_back(std::move(y));
    outs.push_back(std::move(present_key));
    outs.push_back(std::move(present_value));
    outs.push_back(std::move(qk));
}

// ---- LinearAttention -----------------------------------------------------------------------------------

// Which of decay (input 4) and beta (input 5) each update rule reads: it needs those and forbids the others.
struct UpdateRule {
    std::string_view name;
    bool decay, beta;
};
constexpr UpdateRule kUpdateRules[] = {
    {"linear", false, false}, {"gated", true, false}, {"delta", false, true}, {"gated_delta", true, true}};

std::optional<UpdateRule> read_update_rule(OpContext& ctx) {
    static constexpr std::string_view kNames[] = {"linear", "gated", "delta", "gated_delta"};
    const auto name = ctx.attr_enum("update_rule", kNames, "gated_delta");
    if (!name) return std::nullopt;
    const UpdateRule rule = *std::find_if(std::begin(kUpdateRules), std::end(kUpdateRules),
                                          [&](const UpdateRule& r) { return r.name == *name; });
    for (const auto& [i, input, needed] : {std::tuple{size_t{4}, "decay", rule.decay}, {size_t{5}, "beta", rule.beta}})
        if (ctx.has_input(i) != needed) {
            ctx.invalid_input(
                fmt::format("update_rule '{}' {} {} (input {})", rule.name, needed ? "needs" : "forbids", input, i));
            return std::nullopt;
        }
    return rule;
}

// A packed [B, T, heads*head_size] input's head size: the packed dim over the head count, when static.
bool unpack_head_size(OpContext& ctx, const Dim& packed, int64_t heads, std::string_view what, Dim& head_size) {
    if (!packed.is_static()) return true;
    if (packed.length() % heads != 0)
        return ctx.invalid_input(
                   fmt::format("{}'s last dim {} is not divisible by its {} heads", what, packed.length(), heads)),
               false;
    return unify_dim(ctx, head_size, Dim(packed.length() / heads), fmt::format("{}'s head size", what),
                     "the other inputs");
}

// decay's last dim is kv_num_heads (a scalar per head) or kv_num_heads*d_k; beta's is 1 or kv_num_heads.
bool check_gate_dims(OpContext& ctx, const Dim& decay, const Dim& beta, int64_t kv_heads, const Dim& key_size) {
    if (ctx.has_input(4) && decay.is_static() && decay.length() != kv_heads) {
        const int64_t n = decay.length();
        const bool per_key = key_size.is_static() ? n == kv_heads * key_size.length() : n % kv_heads == 0;
        if (!per_key)
            return ctx.invalid_input(fmt::format("decay's last dim {} is neither kv_num_heads {} nor kv_num_heads "
                                                 "* d_k ({})",
                                                 n, kv_heads, key_size.str())),
                   false;
    }
    if (ctx.has_input(5) && beta.is_static() && beta.length() != 1 && beta.length() != kv_heads)
        return ctx.invalid_input(
                   fmt::format("beta's last dim {} is neither 1 nor kv_num_heads {}", beta.length(), kv_heads)),
               false;
    return true;
}

// query [B, T, Hq*d_k], key [B, T, Hkv*d_k], value [B, T, Hkv*d_v], past_state [B, Hkv, d_k, d_v], decay,
// beta [B, T, .]: output [B, T, Hq*d_v] of query's type, present_state [B, Hkv, d_k, d_v] of past_state's
// type (query's without it). The heads are Attention's q_num_heads and kv_num_heads, always needed here.
void infer_linear_attention(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3, 6)) return;
    const auto narrow = [&](size_t i) { return check_type(ctx, i, "an input", is_narrow_float, "f16, bf16 or f32"); };
    if (!narrow(0) || !narrow(3)) return;
    for (const size_t i : {1, 2, 4, 5})
        if (!check_same_type(ctx, 0, i)) return;
    const auto q_heads = heads_attr(ctx, "q_num_heads", true);
    const auto kv_heads = heads_attr(ctx, "kv_num_heads", true);
    if (!q_heads || !kv_heads) return;
    if (*q_heads % *kv_heads != 0)
        return ctx.invalid_attribute(
            fmt::format("q_num_heads {} is not a multiple of kv_num_heads {}", *q_heads, *kv_heads));
    const auto rule = read_update_rule(ctx);
    if (!rule || !ctx.attr_float("scale", 0.0) || !ctx.attr_int("chunk_size", 64)) return;
    Dim bt[] = {Dim::dynamic(), Dim::dynamic(), Dim::dynamic()};  // B, T, and each input's packed last dim
    Dim packed[6];
    static constexpr std::string_view kNames[] = {"query", "key", "value", "past_state", "decay", "beta"};
    for (const size_t i : {0, 1, 2, 4, 5}) {
        bt[2] = Dim::dynamic();
        if (!unify_input(ctx, i, kNames[i], bt)) return;
        packed[i] = bt[2];
    }
    Dim state[] = {bt[0], Dim(*kv_heads), Dim::dynamic(), Dim::dynamic()};  // B, Hkv, d_k, d_v
    if (!unify_input(ctx, 3, "past_state", state)) return;
    if (!unpack_head_size(ctx, packed[0], *q_heads, "query", state[2]) ||
        !unpack_head_size(ctx, packed[1], *kv_heads, "key", state[2]) ||
        !unpack_head_size(ctx, packed[2], *kv_heads, "value", state[3]) ||
        !check_gate_dims(ctx, packed[4], packed[5], *kv_heads, state[2]))
        return;
    const Dim out_last = state[3].is_static() ? Dim(*q_heads * state[3].length()) : Dim::dynamic();
    outs.push_back(OpOutput{Shape{false, {state[0], bt[1], out_last}}, ctx.type(0), {}, {}});
    outs.push_back(
        OpOutput{Shape{false, {state[0], state[1], state[2], state[3]}}, ctx.type(ctx.has_input(3) ? 3 : 0), {}, {}});
}

// ---- RotaryEmbedding -----------------------------------------------------------------------------------

// X [batch, seq, hidden] or [batch, heads, seq, head_size], cos_cache, sin_cache, position_ids: Y is X.
void infer_rotary_embedding(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3, 4)) return;
    if (!check_float(ctx, 0, "X") || !check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2) ||
        !check_type(
            ctx, 3, "position_ids", [](ElementType t) { return t == ElementType::i64; }, "i64"))
        return;
    const Shape& x = ctx.shape(0);
    if (!x.rank_dynamic && x.rank() != 3 && x.rank() != 4)
        return ctx.invalid_input(fmt::format("X {} must be 3-D or 4-D", x.str()));
    if (!attr_flag(ctx, "interleaved", false) || !ctx.attr_int("rotary_embedding_dim", 0)) return;
    if (!x.rank_dynamic && x.rank() == 3 && !ctx.attr("num_heads"))
        return ctx.invalid_attribute(fmt::format("num_heads is needed with a 3-D X"));
    outs.push_back(OpOutput{x, ctx.type(0), {}, {}});
}

}  // namespace

std::vector<OpEntry> rnn_entries() {
    std::vector<OpEntry> out;
    constexpr std::string_view kChecks =
        "direction; hidden_size >= 1; layout 0 or 1; X 3-D; W, R, B, sequence_lens, initial_h/c, P of the "
        "directions, gates, hidden size, batch and input size; float types";
    for (int v : {1, 7, 14, 22}) {
        out.push_back(onnx_op("RNN", v, infer_recurrent, "shape, type (Y, Y_h)", kChecks));
        out.push_back(onnx_op("LSTM", v, infer_recurrent, "shape, type (Y, Y_h, Y_c)", kChecks));
    }
    for (int v : {1, 3, 7, 14, 22}) out.push_back(onnx_op("GRU", v, infer_recurrent, "shape, type (Y, Y_h)", kChecks));
    for (int v : {23, 24, 25})
        out.push_back(onnx_op("Attention", v, infer_attention,
                              "shape, type (Y, present_key, present_value, qk_matmul_output)",
                              "Q, K, V 3-D or 4-D; q_num_heads, kv_num_heads with 3-D; past_key 4-D"));
    out.push_back(onnx_op("LinearAttention", 27, infer_linear_attention, "shape, type (output, present_state)",
                          "q_num_heads a multiple of kv_num_heads; update_rule and its decay/beta; B, T, head sizes "
                          "agree; f16, bf16 or f32"));
    out.push_back(onnx_op("RotaryEmbedding", 23, infer_rotary_embedding, "shape, type",
                          "X 3-D (with num_heads) or 4-D; position_ids i64"));
    return out;
}

}  // namespace irlint::onnx_nn
