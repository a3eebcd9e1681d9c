// MatMul, Einsum, Col2Im and ScaledDotProductAttention, following OpenVINO's matmul, einsum, col2im and
// scaled_dot_product_attention shape inference.

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/convolution_matmul.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint {

namespace {

std::string type_text(std::optional<ElementType> t) {
    return t ? std::string(element_type_name(*t)) : std::string("(undeclared)");
}

// ---- MatMul --------------------------------------------------------------------------------------------

std::optional<ElementType> matmul_type(OpContext& ctx) {
    const auto a = ctx.type(0), b = ctx.type(1);
    const bool a_known = a && *a != ElementType::dynamic, b_known = b && *b != ElementType::dynamic;
    if (a_known && b_known && *a != *b) {
        ctx.invalid_input(fmt::format("element types of A ({}) and B ({}) differ", type_text(a), type_text(b)));
        return std::nullopt;
    }
    return a_known ? a : b;
}

}  // namespace

// A and B are matrices (or stacks of them): transposes swap the last two dims, a 1D A is a row [1,K] and a 1D
// B a column [K,1] (the added dims leave the output again), the K dims must match unless one is dynamic, and
// the batch dims broadcast as numpy's.
void infer_matmul(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    const auto type = matmul_type(ctx);
    if (ctx.failed()) return;
    const auto transpose_a = ctx.attr_bool("transpose_a", false);
    const auto transpose_b = ctx.attr_bool("transpose_b", false);
    if (!transpose_a || !transpose_b) return;
    const Shape& a = ctx.shape(0);
    const Shape& b = ctx.shape(1);
    OpOutput out;
    out.type = type;
    if (a.rank_dynamic || b.rank_dynamic) {
        out.shape = Shape::dynamic_rank();
        outs.push_back(std::move(out));
        return;
    }
    if (a.rank() == 0 || b.rank() == 0) {
        ctx.invalid_input(fmt::format("MatMul takes no scalars: A {}, B {}", a.str(), b.str()));
        return;
    }
    std::vector<Dim> da = a.dims, db = b.dims;
    if (*transpose_a && da.size() > 1) std::swap(da[da.size() - 2], da[da.size() - 1]);
    if (*transpose_b && db.size() > 1) std::swap(db[db.size() - 2], db[db.size() - 1]);
    if (da.size() == 1) da.insert(da.begin(), Dim(1));
    if (db.size() == 1) db.push_back(Dim(1));

    const Dim& k_a = da.back();
    const Dim& k_b = db[db.size() - 2];
    if (!Dim::merge(k_a, k_b) && k_a.is_static() && k_b.is_static()) {
        ctx.invalid_input(fmt::format("the K dims differ: A {} has {} at dim {}, B {} has {} at dim {} (after "
                                      "transposes and 1D promotion)",
                                      a.str(), k_a.str(), da.size() - 1, b.str(), k_b.str(), db.size() - 2));
        return;
    }
    if (da.size() < db.size()) da.insert(da.begin(), db.size() - da.size(), Dim(1));
    if (db.size() < da.size()) db.insert(db.begin(), da.size() - db.size(), Dim(1));
    const size_t rank = da.size();
    std::vector<Dim> dims(rank);
    for (size_t i = 0; i + 2 < rank; ++i) {
        const auto merged = Dim::broadcast_merge(da[i], db[i]);
        if (merged) {
            dims[i] = *merged;
        } else if (da[i].is_static() && db[i].is_static()) {
            ctx.invalid_input(fmt::format("batch dim {} does not broadcast: {} against {} (A {}, B {})", i,
                                          da[i].str(), db[i].str(), a.str(), b.str()));
            return;
        }
        // Dynamic dims that cannot broadcast pass in OpenVINO, leaving the dim dynamic.
    }
    dims[rank - 2] = da[rank - 2];
    dims[rank - 1] = db[rank - 1];
    if (a.rank() == 1) dims.erase(dims.end() - 2);
    if (b.rank() == 1) dims.pop_back();
    out.shape.dims = std::move(dims);
    outs.push_back(std::move(out));
}

namespace {

// ---- Einsum --------------------------------------------------------------------------------------------

constexpr std::string_view kEllipsis = "...";

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A subscript's labels: single letters and at most one "..."; nullopt when it has anything else.
std::optional<std::vector<std::string>> subscript_labels(std::string_view s, bool& has_ellipsis) {
    has_ellipsis = false;
    std::vector<std::string> labels;
    for (size_t i = 0; i < s.size(); ++i) {
        if (!has_ellipsis && s.substr(i, 3) == kEllipsis) {
            has_ellipsis = true;
            labels.emplace_back(kEllipsis);
            i += 2;
        } else if (is_letter(s[i])) {
            labels.emplace_back(1, s[i]);
        } else {
            return std::nullopt;
        }
    }
    return labels;
}

struct Equation {
    std::vector<std::string> inputs;
    std::vector<std::vector<std::string>> input_labels;
    std::vector<std::string> output_labels;
};

// The input subscripts as std::getline splits at ',': a trailing empty one is not a subscript.
std::vector<std::string> split_subscripts(std::string_view text) {
    std::vector<std::string> out;
    for (const std::string_view part : split(text, ',')) out.emplace_back(part);
    if (!out.empty() && out.back().empty()) out.pop_back();
    return out;
}

// Implicit mode: the labels that occur in no other subscript, sorted, after "..." when some input has one.
std::vector<std::string> implicit_output(const Equation& e, bool ellipsis) {
    std::string letters;
    for (size_t i = 0; i < e.inputs.size(); ++i)
        for (const std::string& label : e.input_labels[i]) {
            if (label == kEllipsis) continue;
            bool elsewhere = false;
            for (size_t j = 0; j < e.inputs.size() && !elsewhere; ++j)
                elsewhere = j != i && e.inputs[j].find(label) != std::string::npos;
            if (!elsewhere) letters += label;
        }
    std::sort(letters.begin(), letters.end());
    std::vector<std::string> out;
    if (ellipsis) out.emplace_back(kEllipsis);
    for (const char c : letters) out.emplace_back(1, c);
    return out;
}

std::optional<Equation> parse_equation(OpContext& ctx, std::string_view text) {
    Equation e;
    const size_t arrow = text.find("->");
    e.inputs = split_subscripts(text.substr(0, arrow));
    bool any_ellipsis = false;
    for (const std::string& s : e.inputs) {
        bool ellipsis = false;
        auto labels = subscript_labels(s, ellipsis);
        if (!labels) {
            ctx.invalid_attribute(fmt::format("equation=\"{}\": input subscript \"{}\" must be letters with at most "
                                              "one ellipsis",
                                              excerpt(text), excerpt(s)));
            return std::nullopt;
        }
        any_ellipsis = any_ellipsis || ellipsis;
        e.input_labels.push_back(std::move(*labels));
    }
    if (arrow == std::string_view::npos) {
        e.output_labels = implicit_output(e, any_ellipsis);
        return e;
    }
    const std::string_view output = text.substr(arrow + 2);
    bool out_ellipsis = false;
    auto labels = subscript_labels(output, out_ellipsis);
    if (!labels) {
        ctx.invalid_attribute(fmt::format("equation=\"{}\": output subscript \"{}\" must be letters with at most one "
                                          "ellipsis",
                                          excerpt(text), excerpt(output)));
        return std::nullopt;
    }
    if (out_ellipsis != any_ellipsis) {
        ctx.invalid_attribute(fmt::format("equation=\"{}\": the output subscript must have an ellipsis exactly when "
                                          "an input subscript has one",
                                          excerpt(text)));
        return std::nullopt;
    }
    e.output_labels = std::move(*labels);
    return e;
}

using LabelDims = std::map<std::string, std::vector<Dim>>;

// Records input i's dims under its labels; false (with the problem) when they clash with earlier ones.
bool bind_labels(OpContext& ctx, const Shape& shape, const std::vector<std::string>& labels, size_t input,
                 LabelDims& bound) {
    if (shape.rank_dynamic) {
        for (const std::string& label : labels) {
            if (label == kEllipsis) {
                ctx.invalid_input(fmt::format("input {} has a dynamic rank, its subscript must not have an ellipsis",
                                              input));
                return false;
            }
            bound.try_emplace(label, std::vector<Dim>{Dim::dynamic()});
        }
        return true;
    }
    const size_t rank = shape.rank();
    if (rank < labels.size()) {
        ctx.invalid_input(fmt::format("input {} {} has rank {}, fewer dims than its {} labels", input, shape.str(),
                                      rank, labels.size()));
        return false;
    }
    for (size_t li = 0, di = 0; li < labels.size() && di < rank; ++li) {
        const std::string& label = labels[li];
        const auto it = bound.find(label);
        if (label == kEllipsis) {
            const size_t count = rank - labels.size() + 1;
            std::vector<Dim> dims(shape.dims.begin() + static_cast<std::ptrdiff_t>(di),
                                  shape.dims.begin() + static_cast<std::ptrdiff_t>(di + count));
            if (it == bound.end()) {
                bound.emplace(label, std::move(dims));
            } else {
                std::string error;
                const auto merged = broadcast_shapes(Shape{false, it->second}, Shape{false, dims},
                                                     BroadcastKind::numpy, -1, &error);
                if (!merged) {
                    ctx.invalid_input(fmt::format("the ellipsis dims of input {} do not broadcast with earlier ones: {}",
                                                  input, error));
                    return false;
                }
                it->second = merged->dims;
            }
            di += count;
            continue;
        }
        if (it == bound.end()) {
            bound.emplace(label, std::vector<Dim>{shape.dims[di]});
        } else {
            // OpenVINO checks compatibility against the dim at the label's index (not the dim's, which an
            // ellipsis before it moves), then merges with the dim's.
            const Dim& first = it->second.front();
            const auto merged = Dim::merge(first, shape.dims[di]);
            if (!first.compatible(shape.dims[li]) || !merged) {
                ctx.invalid_input(fmt::format("label {} has dim {} in input {} {}, incompatible with {} before", label,
                                              shape.dims[di].str(), input, shape.str(), first.str()));
                return false;
            }
            it->second = {*merged};
        }
        ++di;
    }
    return true;
}

bool einsum_types(OpContext& ctx) {
    const auto t0 = ctx.type(0);
    if (t0 && (*t0 == ElementType::boolean || *t0 == ElementType::string)) {
        ctx.invalid_input(fmt::format("element type {} is not numeric", type_text(t0)));
        return false;
    }
    for (size_t i = 1; i < ctx.input_count(); ++i)
        if (t0 && ctx.type(i) && *ctx.type(i) != *t0) {
            ctx.invalid_input(fmt::format("input {} has element type {}, input 0 {}: Einsum's inputs share one type", i,
                                          type_text(ctx.type(i)), type_text(t0)));
            return false;
        }
    return true;
}

}  // namespace

void infer_einsum(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (ctx.input_count() == 0) {
        ctx.invalid_input("Einsum takes at least one input, the layer has none");
        return;
    }
    if (!einsum_types(ctx)) return;
    const std::string_view* text = ctx.attr("equation");
    if (!text) {
        ctx.invalid_attribute("equation is missing (an einsum equation such as \"ij,jk->ik\")");
        return;
    }
    const auto e = parse_equation(ctx, *text);
    if (!e) return;
    if (e->inputs.size() != ctx.input_count()) {
        ctx.invalid_attribute(fmt::format("equation=\"{}\" has {} input subscripts for {} inputs", excerpt(*text),
                                          e->inputs.size(), ctx.input_count()));
        return;
    }
    LabelDims bound;
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!bind_labels(ctx, ctx.shape(i), e->input_labels[i], i, bound)) return;
    OpOutput out;
    out.type = ctx.type(0);
    for (const std::string& label : e->output_labels) {
        const auto it = bound.find(label);
        if (it == bound.end()) {
            ctx.invalid_attribute(fmt::format("equation=\"{}\": output label {} is in no input subscript",
                                              excerpt(*text), label));
            return;
        }
        out.shape.dims.insert(out.shape.dims.end(), it->second.begin(), it->second.end());
    }
    outs.push_back(std::move(out));
}

namespace {

// ---- Col2Im --------------------------------------------------------------------------------------------

bool is_index_type(std::optional<ElementType> t) {
    return !t || *t == ElementType::i32 || *t == ElementType::i64;
}

// output_size and kernel_size are 1D of two elements (or of a dynamic rank).
bool check_pair_input(OpContext& ctx, size_t i, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || (s.rank() == 1 && s.dims[0].is_static() && s.dims[0].length() == 2)) return true;
    ctx.invalid_input(fmt::format("{} (input {}) must have the shape [2], it has {}", name, i, s.str()));
    return false;
}

std::optional<std::vector<int64_t>> pair_attr(OpContext& ctx, std::string_view name, int64_t fallback) {
    auto v = ctx.attr_ints(name, std::vector<int64_t>{fallback, fallback});
    if (v && v->size() < 2) {
        ctx.invalid_attribute(fmt::format("{} ({}) needs a value for each of the 2 spatial dims", name, join_ints(*v)));
        return std::nullopt;
    }
    return v;
}

// The number of blocks the window yields over output_size: prod_d (out_d + pads - dilation*(k_d-1) - 1)/stride + 1,
// in int64 as OpenVINO computes it; nullopt on overflow.
std::optional<int64_t> col2im_blocks(const std::vector<int64_t>& out, const std::vector<int64_t>& k,
                                     const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                                     const std::vector<int64_t>& pb, const std::vector<int64_t>& pe) {
    CheckedInt blocks = 1;
    for (size_t d = 0; d < 2; ++d)
        blocks = blocks * ((CheckedInt(out[d]) + pb[d] + pe[d] - CheckedInt(dilations[d]) * (CheckedInt(k[d]) - 1) - 1) /
                               strides[d] +
                           1);
    return blocks.get();
}

}  // namespace

// Col2Im: data [N, C*kh*kw, L] (or unbatched) to [N, C, H, W] with H, W the output_size values; the number of
// blocks L must be the count the window yields.
void infer_col2im(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3)) return;
    for (const auto& [i, name] : {std::pair<size_t, std::string_view>{1, "output_size"}, {2, "kernel_size"}})
        if (!is_index_type(ctx.type(i))) {
            ctx.invalid_input(fmt::format("{} (input {}) must be i32 or i64, not {}", name, i, type_text(ctx.type(i))));
            return;
        }
    const auto strides = pair_attr(ctx, "strides", 1);
    const auto dilations = pair_attr(ctx, "dilations", 1);
    const auto pads_begin = pair_attr(ctx, "pads_begin", 0);
    const auto pads_end = pair_attr(ctx, "pads_end", 0);
    if (!strides || !dilations || !pads_begin || !pads_end) return;
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && data.rank() != 2 && data.rank() != 3) {
        ctx.invalid_input(fmt::format("data {} must be 2D (unbatched) or 3D (batched), it has rank {}", data.str(),
                                      data.rank()));
        return;
    }
    if (!check_pair_input(ctx, 1, "output_size") || !check_pair_input(ctx, 2, "kernel_size")) return;
    OpOutput out;
    out.type = ctx.type(0);
    if (data.rank_dynamic) {
        out.shape = Shape::dynamic_rank();
        outs.push_back(std::move(out));
        return;
    }
    const bool batched = data.rank() == 3;
    out.shape.dims.assign(batched ? 4 : 3, Dim::dynamic());
    if (batched) out.shape.dims[0] = data.dims[0];
    const size_t c = batched ? 1 : 0;
    std::optional<std::vector<int64_t>> kernel;
    if (data.dims[c].is_static() || data.dims[c + 1].is_static()) {
        kernel = ctx.exact_values(2);
        if (!kernel) ctx.value_unknown("the values of kernel_size (input 2) are unknown");
    }
    if (kernel && kernel->size() != 2) kernel.reset();
    if (kernel && data.dims[c].is_static()) {
        const auto product = (CheckedInt((*kernel)[0]) * (*kernel)[1]).get();
        const int64_t channels = data.dims[c].length();
        if (!product || *product <= 0 || channels % *product != 0) {
            ctx.invalid_input(fmt::format("data dim {} ({}) is not divisible by the kernel size {}*{}", c, channels,
                                          (*kernel)[0], (*kernel)[1]));
            return;
        }
        out.shape.dims[c] = Dim(channels / *product);
    }
    const TensorValue* size = ctx.value(1);
    if (!size || size->size() != 2) {
        ctx.value_unknown("the values of output_size (input 1) are unknown");
        outs.push_back(std::move(out));
        return;
    }
    std::vector<int64_t> exact;
    for (size_t d = 0; d < 2; ++d) {
        const ValueBounds& b = (*size)[d];
        out.shape.dims[c + 1 + d] = value_as_dim(b);
        if (b.exact()) exact.push_back(b.lo);
    }
    const Dim& blocks_dim = data.dims[c + 1];
    if (kernel && exact.size() == 2 && blocks_dim.is_static()) {
        const auto blocks = col2im_blocks(exact, *kernel, *strides, *dilations, *pads_begin, *pads_end);
        if (!blocks || *blocks != blocks_dim.length()) {
            ctx.invalid_input(fmt::format("data dim {} holds {} blocks, the window over output_size {},{} yields {}",
                                          c + 1, blocks_dim.length(), exact[0], exact[1],
                                          blocks ? std::to_string(*blocks) : std::string("(overflow)")));
            return;
        }
    }
    outs.push_back(std::move(out));
}

// ---- ScaledDotProductAttention -------------------------------------------------------------------------

namespace {

constexpr std::array<std::string_view, 5> kSdpaInputs{"query", "key", "value", "attention_mask", "scale"};

bool known_type(std::optional<ElementType> t) { return t && *t != ElementType::dynamic; }

// Whether the attention mask is read: there is one, and `causal` is not set (which makes its own).
bool sdpa_mask_counts(const OpContext& ctx, bool causal) { return ctx.input_count() > 3 && !causal; }

// The output type: the one type of the inputs, floating-point. A mask that is read is floating-point or
// boolean; a boolean or unread one has a type of its own.
std::optional<ElementType> sdpa_type(OpContext& ctx, bool causal) {
    const auto mask = ctx.input_count() > 3 ? ctx.type(3) : std::nullopt;
    if (sdpa_mask_counts(ctx, causal) && known_type(mask) && !is_float_type(*mask) && *mask != ElementType::boolean) {
        ctx.invalid_input(fmt::format("attention_mask is {}; it must be floating-point or boolean", type_text(mask)));
        return std::nullopt;
    }
    std::optional<ElementType> type = known_type(ctx.type(0)) ? ctx.type(0) : std::nullopt;
    size_t typed_by = 0;
    for (size_t i = 1; i < ctx.input_count(); ++i) {
        const auto t = ctx.type(i);
        if ((i == 3 && (causal || t == ElementType::boolean)) || !known_type(t)) continue;
        if (type && *type != *t) {
            ctx.invalid_input(fmt::format("element types differ: {} is {}, {} is {}", kSdpaInputs[typed_by],
                                          type_text(type), kSdpaInputs[i], type_text(t)));
            return std::nullopt;
        }
        if (!type) typed_by = i;
        type = t;
    }
    if (type && !is_float_type(*type)) {
        ctx.invalid_input(fmt::format("the inputs are {}; they must be floating-point", type_text(type)));
        return std::nullopt;
    }
    return type;
}

// What the inputs say so far of the dims: the batch dims (numpy-broadcast across the inputs), L and E of the
// query, S of the key, Ev of the value.
struct Attention {
    Shape batch = Shape::dynamic_rank();
    Dim l, e, s, ev;
};

std::vector<Dim> leading_dims(const Shape& s) { return {s.dims.begin(), s.dims.end() - 2}; }

bool has_rank_3(OpContext& ctx, size_t i, std::string_view layout) {
    const Shape& s = ctx.shape(i);
    if (s.rank() >= 3) return true;
    ctx.invalid_input(
        fmt::format("{} {} has rank {}; it needs at least 3 ({})", kSdpaInputs[i], s.str(), s.rank(), layout));
    return false;
}

// Broadcasts the batch dims with input i's dims before its last two.
bool fit_batch(OpContext& ctx, Attention& a, size_t i) {
    const Shape& s = ctx.shape(i);
    const Shape leading{false, leading_dims(s)};
    std::string error;
    auto merged = broadcast_shapes(a.batch, leading, BroadcastKind::numpy, -1, &error);
    if (!merged) {
        ctx.invalid_input(fmt::format("{} {}: its batch dims {} do not broadcast with {}", kSdpaInputs[i], s.str(),
                                      leading.str(), a.batch.str()));
        return false;
    }
    a.batch = std::move(*merged);
    return true;
}

// Merges `dim` (called `name` in the message) with input i's dim `from_end` places from its end; the mask's
// dims broadcast to it instead.
bool fit_dim(OpContext& ctx, Dim& dim, size_t i, size_t from_end, std::string_view name, bool broadcast) {
    const Shape& s = ctx.shape(i);
    const Dim& other = s.dims[s.rank() - from_end];
    const auto merged = broadcast ? Dim::broadcast_merge(dim, other) : Dim::merge(dim, other);
    if (!merged) {
        ctx.invalid_input(fmt::format("{} {}: its dim {} is {}, {} is {}", kSdpaInputs[i], s.str(), s.rank() - from_end,
                                      other.str(), name, dim.str()));
        return false;
    }
    dim = *merged;
    return true;
}

bool fit_query(OpContext& ctx, Attention& a) {
    const Shape& q = ctx.shape(0);
    if (q.rank_dynamic) return true;
    if (!has_rank_3(ctx, 0, "[..., L, E]")) return false;
    a.batch = Shape{false, leading_dims(q)};
    a.l = q.dims[q.rank() - 2];
    a.e = q.dims.back();
    return true;
}

bool fit_key(OpContext& ctx, Attention& a) {
    const Shape& k = ctx.shape(1);
    if (k.rank_dynamic) return true;
    if (!has_rank_3(ctx, 1, "[..., S, E]") || !fit_batch(ctx, a, 1) || !fit_dim(ctx, a.e, 1, 1, "query's E", false))
        return false;
    a.s = k.dims[k.rank() - 2];
    return true;
}

bool fit_value(OpContext& ctx, Attention& a) {
    const Shape& v = ctx.shape(2);
    if (v.rank_dynamic) return true;
    if (!has_rank_3(ctx, 2, "[..., S, Ev]") || !fit_batch(ctx, a, 2) || !fit_dim(ctx, a.s, 2, 2, "key's S", false))
        return false;
    a.ev = v.dims.back();
    return true;
}

// The mask broadcasts to [..., L, S]; a scalar one to anything.
bool fit_mask(OpContext& ctx, Attention& a) {
    const Shape& m = ctx.shape(3);
    if (m.rank_dynamic || m.rank() == 0) return true;
    if (m.rank() == 1) {
        ctx.invalid_input(fmt::format("attention_mask {} has rank 1; it needs 0 or at least 2 ([..., L, S])", m.str()));
        return false;
    }
    return fit_dim(ctx, a.l, 3, 2, "query's L", true) && fit_dim(ctx, a.s, 3, 1, "key's S", true) &&
           (m.rank() < 3 || fit_batch(ctx, a, 3));
}

bool check_scale(OpContext& ctx) {
    const Shape& s = ctx.shape(4);
    if (s.rank_dynamic || s.rank() == 0 || (s.rank() == 1 && s.dims[0].compatible(Dim(1)))) return true;
    ctx.invalid_input(fmt::format("scale {} must be a scalar or have 1 element", s.str()));
    return false;
}

}  // namespace

// Query [..., L, E], key [..., S, E], value [..., S, Ev] and an optional mask broadcasting to [..., L, S] give
// [..., L, Ev]; the batch dims of all of them broadcast (numpy).
void infer_scaled_dot_product_attention(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3, 5)) return;
    const auto causal = ctx.attr_bool("causal", false);
    if (!causal) return;
    const auto type = sdpa_type(ctx, *causal);
    if (ctx.failed()) return;
    Attention a;
    if (!fit_query(ctx, a) || !fit_key(ctx, a) || !fit_value(ctx, a)) return;
    if (sdpa_mask_counts(ctx, *causal) && !fit_mask(ctx, a)) return;
    if (ctx.input_count() > 4 && !check_scale(ctx)) return;
    OpOutput out;
    out.type = type;
    out.shape = a.batch;
    if (!out.shape.rank_dynamic) out.shape.dims.insert(out.shape.dims.end(), {a.l, a.ev});
    outs.push_back(std::move(out));
}

}  // namespace irlint
