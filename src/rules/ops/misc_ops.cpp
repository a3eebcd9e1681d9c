// Stateful and recurrent ops: ReadValue, Assign, the RNN/GRU/LSTM cells and sequences, as OpenVINO's op
// classes and rnn_base_shape_inference.hpp infer and check them.

#include <array>
#include <string>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/detection_util.hpp"
#include "rules/ops/op_registry.hpp"

namespace irlint {

namespace {

using namespace detection;

// ---------------------------------------------------------------- ReadValue, Assign

// OpenVINO's PartialShape::relaxes: every shape `narrow` may be is one `wide` may be.
bool relaxes(const Shape& wide, const Shape& narrow) {
    if (wide.rank_dynamic) return true;
    if (narrow.rank_dynamic || wide.rank() != narrow.rank()) return false;
    for (size_t i = 0; i < wide.rank(); ++i)
        if (wide.dims[i].min() > narrow.dims[i].min() || wide.dims[i].max() < narrow.dims[i].max()) return false;
    return true;
}

std::optional<Shape> variable_shape(OpContext& ctx) {
    const std::string_view* text = ctx.attr("variable_shape");
    if (!text) return Shape::dynamic_rank();
    std::string_view t = trim(*text);
    if (t.size() >= 2 && t.front() == '[' && t.back() == ']') t = t.substr(1, t.size() - 2);
    std::string error;
    auto shape = parse_shape(t, &error);
    if (!shape) ctx.invalid_attribute(fmt::format("variable_shape=\"{}\" is not a shape: {}", *text, error));
    return shape;
}

void infer_read_value(OpContext& ctx, std::vector<OpOutput>& out) {
    const std::string_view* id = ctx.attr("variable_id");
    if (!id) {
        ctx.invalid_attribute("variable_id is missing (the variable's name)");
        return;
    }
    if (ctx.version() < 6) {
        if (!ctx.expect_inputs(1)) return;
        out.push_back({ctx.shape(0), ctx.type(0), {}, {}});
        return;
    }
    if (!ctx.expect_inputs(0, 1)) return;
    const auto shape = variable_shape(ctx);
    auto type = ctx.attr_type("variable_type", ElementType::dynamic);
    if (!shape || !type) return;
    const std::optional<ElementType> var_type = *type == ElementType::dynamic ? std::nullopt : type;
    if (ctx.input_count() == 1) {
        if (var_type && ctx.type(0) && *ctx.type(0) != *var_type) {
            ctx.invalid_input(fmt::format("the type {} of the initial value is not the variable's type {}",
                                          type_str(ctx.type(0)), type_str(var_type)));
            return;
        }
        if (!relaxes(*shape, ctx.shape(0))) {
            ctx.invalid_input(fmt::format("the shape {} of the initial value is not within the variable's shape {}",
                                          ctx.shape(0).str(), shape->str()));
            return;
        }
    }
    // A variable the IR leaves without variable_shape/variable_type (IR v10, or written before they existed)
    // is built from the initial value's shape and type when the model is read.
    const bool from_initial = ctx.input_count() == 1 && !ctx.attr("variable_shape") && !ctx.attr("variable_type");
    if (from_initial) return out.push_back({ctx.shape(0), ctx.type(0), {}, {}});
    out.push_back({*shape, var_type, {}, {}});
}

void infer_assign(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!ctx.attr("variable_id")) {
        ctx.invalid_attribute("variable_id is missing (the variable's name)");
        return;
    }
    out.push_back({ctx.shape(0), ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- RNN cells and sequences

struct RnnKind {
    std::string_view name;
    int64_t gates;
    size_t states;  // hidden state, and the cell state for LSTM
};

constexpr RnnKind kRnn{"RNN", 1, 1};
constexpr RnnKind kGru{"GRU", 3, 1};
constexpr RnnKind kLstm{"LSTM", 4, 2};

// The merged element type of the data inputs (every input but the sequence lengths).
std::optional<std::optional<ElementType>> rnn_type(OpContext& ctx, std::span<const size_t> data_inputs) {
    std::optional<ElementType> type;
    for (const size_t i : data_inputs) {
        if (i >= ctx.input_count()) continue;
        const auto merged = merge_types(type, ctx.type(i));
        if (!merged) {
            ctx.invalid_input(fmt::format("element types of the inputs do not match: input {} is {}, earlier ones {}", i,
                                          type_str(ctx.type(i)), type_str(type)));
            return std::nullopt;
        }
        type = *merged;
    }
    return type;
}

bool check_ranks(OpContext& ctx, std::span<const Shape> shapes, std::span<const size_t> ranks) {
    for (size_t i = 0; i < ranks.size() && i < shapes.size(); ++i) {
        if (!rank_is(shapes[i], ranks[i])) {
            ctx.invalid_input(fmt::format("input {} must have rank {}, got {}", i, ranks[i], shapes[i].str()));
            return false;
        }
    }
    return true;
}

// Merges `d` into `into`; records `what` does not match otherwise.
bool merge_into(OpContext& ctx, Dim& into, const Dim& d, std::string_view what) {
    const auto merged = d.is_empty() ? std::nullopt : Dim::merge(into, d);
    if (!merged) {
        ctx.invalid_input(fmt::format("dimension `{}` does not match between inputs: {} and {}", what, into.str(),
                                      d.is_empty() ? "a dim not divisible by the gate count" : d.str()));
        return false;
    }
    into = *merged;
    return true;
}

// hidden * factor must be compatible with dim `d` of `s`.
bool gate_dim(OpContext& ctx, const Shape& s, size_t d, const Dim& hidden, int64_t factor, std::string_view what) {
    if (s.rank_dynamic) return true;
    const auto want = (CheckedInt(hidden.length()) * factor).get();
    const Dim& got = s.dims[d];
    if (want && got.compatible(Dim(*want))) return true;
    ctx.invalid_input(fmt::format("dim {} of {} ({}) must be hidden_size * {} = {}", d, what, got.str(), factor,
                                  want ? std::to_string(*want) : std::string("overflow")));
    return false;
}

// The hidden size when no state gives it: W's and R's gate dim divided by the gate count, where their dim 0 is
// static (OpenVINO's condition, also for the sequences' dim 1).
bool hidden_from_weights(OpContext& ctx, std::span<const Shape> shapes, Dim& hidden, size_t w, size_t d,
                         int64_t gates) {
    for (size_t i = w; i < w + 2; ++i) {
        const Shape& s = shapes[i];
        if (s.rank_dynamic || !s.dims[0].is_static()) continue;
        if (!merge_into(ctx, hidden, s.dims[d].divided_by(gates), "hidden_size")) return false;
    }
    return true;
}

std::vector<Shape> input_shapes(const OpContext& ctx) {
    std::vector<Shape> shapes;
    for (size_t i = 0; i < ctx.input_count(); ++i) shapes.push_back(ctx.shape(i));
    return shapes;
}

// LSTMCell-0 fills a missing B ([4 * hidden_size]) and P ([3 * hidden_size]) from the attribute.
bool lstm_v0_defaults(OpContext& ctx, std::vector<Shape>& shapes, int64_t hidden_size) {
    for (const int64_t factor : {int64_t{4}, int64_t{3}}) {
        if (shapes.size() >= (factor == 4 ? 6u : 7u)) continue;
        const auto n = (CheckedInt(hidden_size) * factor).get();
        if (!n) {
            ctx.invalid_attribute(fmt::format("hidden_size={} * {} overflows int64", hidden_size, factor));
            return false;
        }
        shapes.push_back(Shape{false, {ov_dim(*n)}});
    }
    return true;
}

// Cells: X [batch, input], H (and C) [batch, hidden], W [gates*hidden, input], R [gates*hidden, hidden],
// B [gates*hidden] (one more hidden for GRU's linear_before_reset). Outputs: one [batch, hidden] per state.
void infer_cell(OpContext& ctx, std::vector<OpOutput>& out, const RnnKind& kind) {
    const size_t n = 4 + kind.states;
    const bool lstm_v0 = kind.states == 2 && ctx.version() == 0;
    if (!ctx.expect_inputs(lstm_v0 ? n - 1 : n, lstm_v0 ? n + 1 : n)) return;
    const auto hidden_size = ctx.attr_int("hidden_size");
    const auto lbr = kind.gates == 3 ? ctx.attr_bool("linear_before_reset", false) : std::optional<bool>(false);
    if (ctx.failed()) return;
    std::vector<Shape> shapes = input_shapes(ctx);
    if (lstm_v0 && !lstm_v0_defaults(ctx, shapes, *hidden_size)) return;
    std::vector<size_t> ranks(1 + kind.states, 2);
    ranks.insert(ranks.end(), {2, 2, 1});
    if (!check_ranks(ctx, shapes, ranks)) return;
    std::vector<size_t> data(ctx.input_count());
    for (size_t i = 0; i < data.size(); ++i) data[i] = i;
    const auto type = rnn_type(ctx, data);
    if (!type) return;

    Dim batch = dim_at(shapes[0], 0);
    for (size_t i = 1; i <= kind.states; ++i)
        if (!merge_into(ctx, batch, dim_at(shapes[i], 0), "batch_size")) return;
    Dim hidden = dim_at(shapes[1], 1);
    for (size_t i = 2; i <= kind.states; ++i)
        if (!merge_into(ctx, hidden, dim_at(shapes[i], 1), "hidden_size")) return;
    const size_t w = 1 + kind.states;
    if (!merge_into(ctx, hidden, dim_at(shapes[w + 1], 1), "hidden_size")) return;
    if (hidden.is_static()) {
        if (!gate_dim(ctx, shapes[w], 0, hidden, kind.gates, "W") ||
            !gate_dim(ctx, shapes[w + 1], 0, hidden, kind.gates, "R") ||
            !gate_dim(ctx, shapes[w + 2], 0, hidden, kind.gates + (*lbr ? 1 : 0), "B"))
            return;
    } else if (!hidden_from_weights(ctx, shapes, hidden, w, 0, kind.gates)) {
        return;
    }
    // LSTM cells (only they) fall back on the hidden_size attribute.
    if (kind.states == 2 && hidden.is_dynamic()) hidden = ov_dim(*hidden_size);
    if (lstm_v0) {
        const Shape& p = shapes[n];
        if (!rank_is(p, 1)) {
            ctx.invalid_input(fmt::format("LSTMCell input P {} must be 1-D", p.str()));
            return;
        }
        if (!p.rank_dynamic && p.dims[0].is_static() && hidden.is_static() && !gate_dim(ctx, p, 0, hidden, 3, "P"))
            return;
    }
    for (size_t i = 0; i < kind.states; ++i) out.push_back({Shape{false, {batch, hidden}}, *type, {}, {}});
}

// Sequences: X [batch, seq, input], H (and C) [batch, dirs, hidden], seq_lengths [batch],
// W [dirs, gates*hidden, input], R [dirs, gates*hidden, hidden], B [dirs, gates*hidden].
// Outputs: Y [batch, dirs, seq, hidden] and one [batch, dirs, hidden] per state.
void infer_sequence(OpContext& ctx, std::vector<OpOutput>& out, const RnnKind& kind) {
    const size_t n = 5 + kind.states;
    const bool peepholes = kind.states == 2 && ctx.version() == 0;
    if (!ctx.expect_inputs(n, peepholes ? n + 1 : n)) return;
    ctx.attr_int("hidden_size");
    constexpr std::array<std::string_view, 3> kDirections{"forward", "reverse", "bidirectional"};
    const auto direction = ctx.attr_enum("direction", kDirections);
    const auto lbr = kind.gates == 3 ? ctx.attr_bool("linear_before_reset", false) : std::optional<bool>(false);
    if (ctx.failed()) return;
    const std::vector<Shape> shapes = input_shapes(ctx);
    std::vector<size_t> ranks(1 + kind.states, 3);
    ranks.insert(ranks.end(), {1, 3, 3, 2});
    if (!check_ranks(ctx, shapes, ranks)) return;
    const size_t lengths = 1 + kind.states;
    std::vector<size_t> data;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (i != lengths) data.push_back(i);
    const auto type = rnn_type(ctx, data);
    if (!type) return;
    if (!integral_or_unknown(ctx.type(lengths))) {
        ctx.invalid_input(fmt::format("sequence_lengths must be of an integer type, got {}", type_str(ctx.type(lengths))));
        return;
    }

    Dim batch = dim_at(shapes[0], 0);
    for (size_t i = 1; i <= lengths; ++i)
        if (!merge_into(ctx, batch, dim_at(shapes[i], 0), "batch_size")) return;
    Dim hidden = dim_at(shapes[1], 2);
    for (size_t i = 2; i <= kind.states; ++i)
        if (!merge_into(ctx, hidden, dim_at(shapes[i], 2), "hidden_size")) return;
    const size_t w = lengths + 1;
    if (!merge_into(ctx, hidden, dim_at(shapes[w + 1], 2), "hidden_size")) return;

    Dim dirs(*direction == "bidirectional" ? 2 : 1);
    bool dirs_ok = true;
    const auto merge_dirs = [&](const Dim& d) {
        const auto m = Dim::merge(dirs, d);
        dirs_ok = dirs_ok && m;
        if (m) dirs = *m;
    };
    for (size_t i = 1; i <= kind.states; ++i) merge_dirs(dim_at(shapes[i], 1));
    for (size_t i = w; i < n; ++i) merge_dirs(dim_at(shapes[i], 0));
    if (!dirs_ok) {
        ctx.invalid_input(fmt::format("dimension `num_directions` does not match between the inputs and direction={}",
                                      *direction));
        return;
    }
    if (hidden.is_static()) {
        if (!gate_dim(ctx, shapes[w], 1, hidden, kind.gates, "W") ||
            !gate_dim(ctx, shapes[w + 1], 1, hidden, kind.gates, "R") ||
            !gate_dim(ctx, shapes[w + 2], 1, hidden, kind.gates + (*lbr ? 1 : 0), "B"))
            return;
    } else if (!hidden_from_weights(ctx, shapes, hidden, w, 1, kind.gates)) {
        return;
    }
    // LSTMSequence-0's peepholes P [dirs, 3 * hidden], checked when P and the hidden size are static.
    if (peepholes && shapes.size() > n && shapes[n].is_static() && hidden.is_static()) {
        const Shape& p = shapes[n];
        if (p.rank() != 2) {
            ctx.invalid_input(fmt::format("LSTMSequence input P {} must have rank 2", p.str()));
            return;
        }
        if (!gate_dim(ctx, p, 1, hidden, 3, "P")) return;
    }
    out.push_back({Shape{false, {batch, dirs, dim_at(shapes[0], 1), hidden}}, *type, {}, {}});
    for (size_t i = 0; i < kind.states; ++i) out.push_back({Shape{false, {batch, dirs, hidden}}, *type, {}, {}});
}

void infer_rnn_cell(OpContext& ctx, std::vector<OpOutput>& out) { infer_cell(ctx, out, kRnn); }
void infer_gru_cell(OpContext& ctx, std::vector<OpOutput>& out) { infer_cell(ctx, out, kGru); }
void infer_lstm_cell(OpContext& ctx, std::vector<OpOutput>& out) { infer_cell(ctx, out, kLstm); }
void infer_rnn_sequence(OpContext& ctx, std::vector<OpOutput>& out) { infer_sequence(ctx, out, kRnn); }
void infer_gru_sequence(OpContext& ctx, std::vector<OpOutput>& out) { infer_sequence(ctx, out, kGru); }
void infer_lstm_sequence(OpContext& ctx, std::vector<OpOutput>& out) { infer_sequence(ctx, out, kLstm); }

constexpr std::string_view kCellChecks =
    "input ranks; batch and hidden_size agree; W, R, B gate dims; element types agree";
constexpr std::string_view kSequenceChecks =
    "direction; input ranks; batch, hidden_size and num_directions agree; W, R, B gate dims; element types";

constexpr OpEntry kMiscOps[] = {
    {"Assign", 3, 3, infer_assign, "shape, type", "variable_id"},
    {"Assign", 6, 6, infer_assign, "shape, type", "variable_id"},
    {"GRUCell", 3, 3, infer_gru_cell, "shape, type", kCellChecks},
    {"GRUSequence", 5, 5, infer_gru_sequence, "shape, type", kSequenceChecks},
    {"LSTMCell", 0, 1, infer_lstm_cell, "shape, type", kCellChecks},
    {"LSTMCell", 4, 4, infer_lstm_cell, "shape, type", kCellChecks},
    {"LSTMSequence", 0, 1, infer_lstm_sequence, "shape, type", kSequenceChecks},
    {"LSTMSequence", 5, 5, infer_lstm_sequence, "shape, type", kSequenceChecks},
    {"RNNCell", 0, 1, infer_rnn_cell, "shape, type", kCellChecks},
    {"RNNSequence", 5, 5, infer_rnn_sequence, "shape, type", kSequenceChecks},
    {"ReadValue", 3, 3, infer_read_value, "shape, type", "variable_id"},
    {"ReadValue", 6, 6, infer_read_value, "shape, type",
     "variable_id; variable_shape, variable_type; the initial value within them"},
};

}  // namespace

std::span<const OpEntry> misc_ops() { return kMiscOps; }

}  // namespace irlint
