// ONNX's other domains: ai.onnx.ml (the classic machine-learning operators that skl2onnx, onnxmltools and
// Hummingbird write), ai.onnx.preview (FlexAttention) and ai.onnx.preview.training (Adagrad, Adam, Momentum).
// Where ONNX's schema infers the outputs (onnx/defs/traditionalml/defs.cc, preview/defs.cc,
// training/defs.cc) they are inferred as it does; where the schema infers only the element type, or nothing,
// the dims are the ones ONNX Runtime's kernels give, and only where they follow from the input dims and the
// attributes (a batch of N rows: [N] labels, [N, classes] scores).
//
// A map or a sequence of maps (DictVectorizer's and CastMap's input, ZipMap's output) has no irlint type: those
// values are left unknown.

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "rules/ops/onnx_families.hpp"
#include "rules/ops/onnx_microsoft.hpp"

namespace irlint {

namespace {

constexpr std::string_view kMl = "ai.onnx.ml";
constexpr std::string_view kPreview = "ai.onnx.preview";
constexpr std::string_view kTraining = "ai.onnx.preview.training";

using ms::input_type_in;
using ms::like_input;

OpOutput output(Shape shape, std::optional<ElementType> type) { return OpOutput{std::move(shape), type, {}, {}}; }
OpOutput unknown_output(std::optional<ElementType> type = std::nullopt) { return output(Shape::dynamic_rank(), type); }

constexpr std::array kNumeric = {ElementType::f32, ElementType::f64, ElementType::i64, ElementType::i32};

// The rows of a batch: a 2-D input's first dim, 1 for a 1-D input (one sample), as the runtimes read X.
std::optional<Dim> batch_rows(OpContext& ctx, size_t i = 0) {
    const Shape& x = ctx.shape(i);
    if (x.rank_dynamic) return Dim::dynamic();
    if (x.rank() == 1) return Dim(1);
    if (x.rank() == 2) return x.dims[0];
    ctx.invalid_input(fmt::format("X must be 1-D or 2-D; it is {}", x.str()));
    return std::nullopt;
}

// A STRINGS attribute's length: the adapter's count; without one (`shape --attr`, text only), the
// comma-separated items.
size_t strings_count(const OpContext& ctx, std::string_view name) {
    if (const ObjectAttr* a = ctx.layer().object_attr(name); a && a->kind == ObjectAttr::Kind::strings) return a->index;
    const std::string_view* text = ctx.attr(name);
    if (!text || text->empty()) return 0;
    return static_cast<size_t>(std::count(text->begin(), text->end(), ',')) + 1;
}

bool has_strings(const OpContext& ctx, std::string_view name) { return strings_count(ctx, name) > 0; }

size_t ints_count(OpContext& ctx, std::string_view name) {
    const auto v = ctx.attr_ints(name, std::vector<int64_t>{});
    return v ? v->size() : 0;
}

// The class labels' element type: string when classlabels_strings is given, else int64.
ElementType label_type(const OpContext& ctx) {
    return has_strings(ctx, "classlabels_strings") ? ElementType::string : ElementType::i64;
}

// ---------------------------------------------------------------- element-wise and per-row ops

void infer_same_shape_and_type(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "", kNumeric)) return;
    out.push_back(like_input(ctx, 0));
}

// Normalizer and Scaler: the input's dims, as float.
void infer_same_shape_float(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "", kNumeric)) return;
    out.push_back(output(ctx.shape(0), ElementType::f32));
}

void infer_array_feature_extractor(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const Shape& x = ctx.shape(0);
    if (x.rank_dynamic || x.rank() < 2) return out.push_back(unknown_output(ctx.type(0)));
    Shape y = x;
    const Shape& indices = ctx.shape(1);
    constexpr size_t kMaxCount = size_t{1} << 62;
    const auto count = indices.rank_dynamic || indices.rank() == 0 ? std::nullopt
                                                                   : capped_element_count(indices, kMaxCount);
    y.dims.back() = count ? Dim(static_cast<int64_t>(*count)) : Dim::dynamic();
    out.push_back(output(std::move(y), ctx.type(0)));
}

void infer_category_mapper(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const size_t ints = ints_count(ctx, "cats_int64s");
    const size_t strings = strings_count(ctx, "cats_strings");
    if (!ctx.attr("cats_int64s") || !ctx.attr("cats_strings"))
        return ctx.invalid_attribute("CategoryMapper needs both cats_int64s and cats_strings");
    if (ints != strings)
        return ctx.invalid_attribute(
            fmt::format("cats_int64s has {} values and cats_strings {}: they must be as many", ints, strings));
    std::optional<ElementType> type;
    if (ctx.type(0) == ElementType::string) type = ElementType::i64;
    if (ctx.type(0) == ElementType::i64) type = ElementType::string;
    out.push_back(output(ctx.shape(0), type));
}

// [N, sum of inputdimensions] float: the inputs side by side, each taken as [N, C]. ONNX Runtime's kernel takes
// an input of more dims too (a OneHotEncoder's [N, 1, C]): dim 0 is N, the rest its features.
void infer_feature_vectorizer(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.input_count() == 0) return ctx.invalid_input("FeatureVectorizer needs at least one input");
    const auto widths = ctx.attr_ints("inputdimensions", std::vector<int64_t>{});
    if (!widths) return;
    const Shape& x = ctx.shape(0);
    const Dim rows = x.rank_dynamic || x.rank() == 0 ? Dim::dynamic() : x.rank() == 1 ? Dim(1) : x.dims[0];
    CheckedInt total = 0;
    for (const int64_t w : *widths) total = total + CheckedInt(w);
    const bool known = !widths->empty() && total.get() && *total.get() >= 0;
    out.push_back(output(Shape{false, {rows, known ? Dim(*total.get()) : Dim::dynamic()}}, ElementType::f32));
}

// LabelEncoder: one value for one value. Version 1 maps strings to int64 and back; from version 2 the keys_*
// attribute must be of the input's type, and the output takes the values_* attribute's type.
struct EncoderList {
    std::string name;
    ElementType type = ElementType::dynamic;
    size_t length = 0;
};

// The first of prefix+"tensor" (from version 4), "strings", "int64s", "floats" that the node has, as ONNX reads
// a keys_* or values_* list.
std::optional<EncoderList> encoder_list(OpContext& ctx, std::string_view prefix) {
    const auto named = [&](std::string_view kind) { return fmt::format("{}{}", prefix, kind); };
    if (ctx.version() >= 4)
        if (const InlineTensor* t = ctx.attr_tensor(named("tensor"))) {
            const auto count = capped_element_count(t->dims, size_t{1} << 62);
            return EncoderList{named("tensor"), t->type, count.value_or(0)};
        }
    if (ctx.attr(named("strings"))) return EncoderList{named("strings"), ElementType::string, strings_count(ctx, named("strings"))};
    if (ctx.attr(named("int64s"))) return EncoderList{named("int64s"), ElementType::i64, ints_count(ctx, named("int64s"))};
    if (ctx.attr(named("floats"))) {
        const auto floats = ctx.attr_floats(named("floats"), std::vector<double>{});
        return EncoderList{named("floats"), ElementType::f32, floats ? floats->size() : 0};
    }
    return std::nullopt;
}

// Version 2 takes exactly one list of each kind.
bool one_list_given(OpContext& ctx, std::string_view prefix) {
    int given = 0;
    for (const std::string_view kind : {"strings", "int64s", "floats"}) given += ctx.attr(fmt::format("{}{}", prefix, kind)) != nullptr;
    if (given == 1) return true;
    ctx.invalid_attribute(fmt::format("{} of {}strings, {}int64s, {}floats are given; LabelEncoder-2 takes exactly one",
                                      given, prefix, prefix, prefix));
    return false;
}

std::optional<ElementType> label_encoder_type(OpContext& ctx) {
    if (ctx.version() == 1) {
        if (ctx.type(0) == ElementType::string) return ElementType::i64;
        if (ctx.type(0) == ElementType::i64) return ElementType::string;
        return std::nullopt;
    }
    if (ctx.version() < 4 && (!one_list_given(ctx, "keys_") || !one_list_given(ctx, "values_"))) return std::nullopt;
    const auto keys = encoder_list(ctx, "keys_");
    const auto values = encoder_list(ctx, "values_");
    if (!keys || !values)
        return ctx.invalid_attribute(fmt::format("LabelEncoder-{} needs a keys_* and a values_* attribute", ctx.version())),
               std::nullopt;
    if (ctx.type(0) && *ctx.type(0) != keys->type)
        return ctx.invalid_input(fmt::format("the input is {} but {} holds {}", element_type_name(*ctx.type(0)),
                                             keys->name, element_type_name(keys->type))),
               std::nullopt;
    if (ctx.version() >= 4) {
        if (keys->length != values->length)
            return ctx.invalid_attribute(fmt::format("{} has {} entries and {} {}: they must be as many", keys->name,
                                                     keys->length, values->name, values->length)),
                   std::nullopt;
        if (const InlineTensor* d = ctx.attr_tensor("default_tensor"); d && d->type != ElementType::dynamic) {
            if (d->type != values->type)
                return ctx.invalid_attribute(fmt::format("default_tensor is {} but {} holds {}", element_type_name(d->type),
                                                         values->name, element_type_name(values->type))),
                       std::nullopt;
            if (d->dims != std::vector<int64_t>{1})
                return ctx.invalid_attribute("default_tensor must be a 1-D tensor of one element"), std::nullopt;
        }
    }
    return values->type;
}

void infer_label_encoder(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto type = label_encoder_type(ctx);
    if (ctx.failed()) return;
    out.push_back(output(ctx.shape(0), type));
}

void infer_one_hot_encoder(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const bool ints = ctx.attr("cats_int64s") != nullptr;
    const bool strings = ctx.attr("cats_strings") != nullptr;
    if (ints == strings) return ctx.invalid_attribute("OneHotEncoder needs exactly one of cats_int64s and cats_strings");
    const size_t categories = ints ? ints_count(ctx, "cats_int64s") : strings_count(ctx, "cats_strings");
    Shape y = ctx.shape(0);
    if (!y.rank_dynamic) y.dims.push_back(Dim(static_cast<int64_t>(categories)));
    out.push_back(output(std::move(y), ElementType::f32));
}

// ---------------------------------------------------------------- classifiers and regressors

// Y: the label of each row; Z: a score per row and class (`classes`, dynamic when the attributes do not say).
void classifier_outputs(OpContext& ctx, std::vector<OpOutput>& out, Dim classes) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "", kNumeric)) return;
    const auto rows = batch_rows(ctx);
    if (!rows) return;
    out.push_back(output(Shape{false, {*rows}}, label_type(ctx)));
    out.push_back(output(Shape{false, {*rows, classes}}, ElementType::f32));
}

// As ONNX infers it: one class per intercept, two for a binary model that has one intercept and two labels.
void infer_linear_classifier(OpContext& ctx, std::vector<OpOutput>& out) {
    const auto intercepts = ctx.attr_floats("intercepts", std::vector<double>{});
    if (!intercepts) return;
    const size_t labels = has_strings(ctx, "classlabels_strings") ? strings_count(ctx, "classlabels_strings")
                                                                   : ints_count(ctx, "classlabels_ints");
    const size_t classes = intercepts->size() == 1 && labels == 2 ? 2 : intercepts->size();
    classifier_outputs(ctx, out, Dim(static_cast<int64_t>(classes)));
}

// SVMClassifier's score columns depend on ONNX Runtime's pairwise and binary-case rules: they stay dynamic.
void infer_svm_classifier(OpContext& ctx, std::vector<OpOutput>& out) { classifier_outputs(ctx, out, Dim::dynamic()); }

// [N, targets] float (LinearRegressor: targets, the tree regressors: n_targets; SVMRegressor: one).
void regressor_output(OpContext& ctx, std::vector<OpOutput>& out, std::string_view targets_attr, int64_t fallback) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "", kNumeric)) return;
    const auto targets = targets_attr.empty() ? std::optional<int64_t>(fallback) : ctx.attr_int(targets_attr, fallback);
    if (!targets) return;
    if (*targets < 1) return ctx.invalid_attribute(fmt::format("{}={} must be at least 1", targets_attr, *targets));
    const auto rows = batch_rows(ctx);
    if (!rows) return;
    out.push_back(output(Shape{false, {*rows, Dim(*targets)}}, ElementType::f32));
}

void infer_linear_regressor(OpContext& ctx, std::vector<OpOutput>& out) { regressor_output(ctx, out, "targets", 1); }
void infer_svm_regressor(OpContext& ctx, std::vector<OpOutput>& out) { regressor_output(ctx, out, {}, 1); }

// The tree ensembles from version 3: an attribute and its _as_tensor twin are one or the other, and X is [N, F].
bool tree_ensemble_v3_valid(OpContext& ctx, std::initializer_list<std::string_view> paired) {
    for (const std::string_view name : paired)
        if (ctx.attr(name) && ctx.attr_tensor(fmt::format("{}_as_tensor", name)))
            return ctx.invalid_attribute(fmt::format("{} and {}_as_tensor are both given; only one may be", name, name)),
                   false;
    const Shape& x = ctx.shape(0);
    if (!x.rank_dynamic && x.rank() != 2)
        return ctx.invalid_input(fmt::format("X must be 2-D; it is {}", x.str())), false;
    return true;
}

void infer_tree_regressor(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.version() >= 3 &&
        !tree_ensemble_v3_valid(ctx, {"nodes_values", "nodes_hitrates", "target_weights", "base_values"}))
        return;
    regressor_output(ctx, out, "n_targets", 1);
}

// One score column per class label (version 3 requires the labels).
void infer_tree_classifier(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.version() >= 3 &&
        !tree_ensemble_v3_valid(ctx, {"nodes_values", "nodes_hitrates", "class_weights", "base_values"}))
        return;
    const size_t labels = has_strings(ctx, "classlabels_strings") ? strings_count(ctx, "classlabels_strings")
                                                                   : ints_count(ctx, "classlabels_int64s");
    if (labels == 0 && ctx.version() >= 3)
        return ctx.invalid_attribute("neither classlabels_int64s nor classlabels_strings is given");
    classifier_outputs(ctx, out, labels ? Dim(static_cast<int64_t>(labels)) : Dim::dynamic());
}

// TreeEnsemble-5: X [N, F] of the splits' type; Y [N, n_targets] of X's type.
void infer_tree_ensemble(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !input_type_in(ctx, 0, "", {ElementType::f32, ElementType::f64, ElementType::f16})) return;
    const Shape& x = ctx.shape(0);
    if (!x.rank_dynamic && x.rank() != 2)
        return ctx.invalid_input(fmt::format("X must be 2-D; it is {}", x.str()));
    const InlineTensor* splits = ctx.attr_tensor("nodes_splits");
    if (!splits) return ctx.invalid_attribute("TreeEnsemble-5 needs nodes_splits");
    if (ctx.type(0) && splits->type != *ctx.type(0))
        return ctx.invalid_attribute(fmt::format("nodes_splits is {} and X {}: they must be of one type",
                                                 element_type_name(splits->type), element_type_name(*ctx.type(0))));
    const auto targets = ctx.attr_int("n_targets", std::nullopt);
    out.push_back(output(Shape{false, {x.rank_dynamic ? Dim::dynamic() : x.dims[0], targets ? Dim(*targets) : Dim::dynamic()}},
                         ctx.type(0)));
}

// CastMap: a map becomes a tensor of the cast_to type; its length depends on the map.
void infer_cast_map(OpContext& ctx, std::vector<OpOutput>& out) {
    static constexpr std::array<std::string_view, 3> kCasts{"TO_FLOAT", "TO_STRING", "TO_INT64"};
    const auto cast = ctx.attr_enum("cast_to", kCasts, "TO_FLOAT");
    if (!cast) return;
    const ElementType type = *cast == "TO_FLOAT" ? ElementType::f32 : *cast == "TO_STRING" ? ElementType::string : ElementType::i64;
    ctx.value_unknown("the output's length depends on the map's keys");
    out.push_back(unknown_output(type));
}

void infer_map_consumer(OpContext& ctx, std::vector<OpOutput>& out) {
    ctx.value_unknown("the input is a map, which irlint does not type");
    out.push_back(unknown_output());
}

// ZipMap: a sequence of maps, which irlint does not type; its input must be 1-D or 2-D.
void infer_zip_map(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const Shape& x = ctx.shape(0);
    if (!x.rank_dynamic && x.rank() != 1 && x.rank() != 2)
        return ctx.invalid_input(fmt::format("the input must be 1-D or 2-D; it is {}", x.str()));
    ctx.value_unknown("the output is a sequence of maps, which irlint does not type");
    out.push_back(unknown_output());
}

// ---------------------------------------------------------------- ai.onnx.preview

// FlexAttention: Q [B, Hq, L, E], K [B, Hkv, S, E], V [B, Hkv, S, Ev] of one type -> [B, Hq, L, Ev].
void infer_flex_attention(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    if (ctx.type(0) && ((ctx.type(1) && *ctx.type(1) != *ctx.type(0)) || (ctx.type(2) && *ctx.type(2) != *ctx.type(0))))
        return ctx.invalid_input("Q, K and V must have one element type");
    const Shape &q = ctx.shape(0), &k = ctx.shape(1), &v = ctx.shape(2);
    for (const Shape* s : {&q, &k, &v})
        if (!s->rank_dynamic && s->rank() != 4)
            return ctx.invalid_input(fmt::format("Q, K and V must be 4-D; they are {}, {}, {}",
                                                 q.str(), k.str(), v.str()));
    const auto differ = [](const Shape& a, const Shape& b, size_t d) {
        return !a.rank_dynamic && !b.rank_dynamic && a.dims[d].is_static() && b.dims[d].is_static() &&
               a.dims[d].length() != b.dims[d].length();
    };
    if (differ(k, v, 1) || differ(k, v, 2))
        return ctx.invalid_input(fmt::format("K {} and V {} must share heads and sequence length",
                                             k.str(), v.str()));
    if (differ(q, k, 3))
        return ctx.invalid_input(fmt::format("Q {} and K {} must share the head size", q.str(), k.str()));
    if (!q.rank_dynamic && !k.rank_dynamic && q.dims[1].is_static() && k.dims[1].is_static()) {
        const int64_t hq = q.dims[1].length(), hkv = k.dims[1].length();
        if (hq != hkv && (hkv <= 0 || hq % hkv != 0))
            return ctx.invalid_input(
                fmt::format("{} query heads are not a multiple of {} key/value heads", hq, hkv));
    }
    if (q.rank_dynamic || v.rank_dynamic)
        return out.push_back(output(Shape{false, std::vector<Dim>(4, Dim::dynamic())}, ctx.type(0)));
    out.push_back(output(Shape{false, {q.dims[0], q.dims[1], q.dims[2], v.dims[3]}}, ctx.type(0)));
}

// ---------------------------------------------------------------- ai.onnx.preview.training

// The optimizers: R, T, then `groups` lists of n tensors (X, G, and the per-optimizer state); the outputs are
// the new X and the new state, each as its input. The gradients G (the second list) have no output.
template <size_t Groups>
void infer_optimizer(OpContext& ctx, std::vector<OpOutput>& out) {
    const size_t tensors = ctx.input_count() < 2 ? 0 : ctx.input_count() - 2;
    if (tensors == 0 || tensors % Groups != 0)
        return ctx.invalid_input(fmt::format("after R and T it takes {} lists of as many tensors; it has {} inputs", Groups, ctx.input_count()));
    const size_t n = tensors / Groups;
    for (size_t group = 0; group < Groups; ++group) {
        if (group == 1) continue;
        for (size_t i = 0; i < n; ++i) out.push_back(like_input(ctx, 2 + group * n + i));
    }
}

// Gradient: the inputs are the values of the tensors xs, then zs, name; output i is the gradient of y with
// respect to xs[i], of that input's dims and (floating-point) type. ONNX's schema states no inference; the
// dims are the derivative's.
void infer_gradient(OpContext& ctx, std::vector<OpOutput>& out) {
    const size_t xs = strings_count(ctx, "xs"), zs = strings_count(ctx, "zs");
    if (xs == 0) return ctx.invalid_attribute("xs names no tensor");
    if (!ctx.attr("y")) return ctx.invalid_attribute("y is missing");
    if (ctx.input_count() != xs + zs)
        return ctx.invalid_input(fmt::format("it takes a value for each of the {} xs and {} zs; it has {} inputs",
                                             xs, zs, ctx.input_count()));
    for (size_t i = 0; i < std::min(xs, ctx.layer().outputs.size()); ++i) {
        if (!input_type_in(ctx, i, "", {ElementType::f16, ElementType::f32, ElementType::f64})) return;
        out.push_back(like_input(ctx, i));
    }
}

}  // namespace

std::span<const OpEntry> onnx_ml_ops() {
    static const std::vector<OpEntry> entries = {
        onnx_op("ArrayFeatureExtractor", 1, infer_array_feature_extractor, "shape, type",
                "X of rank >= 2: the last dim is the indices' count", kMl),
        onnx_op("Binarizer", 1, infer_same_shape_and_type, "shape, type", "input type", kMl),
        onnx_op("CastMap", 1, infer_cast_map, "type", "cast_to", kMl),
        onnx_op("CategoryMapper", 1, infer_category_mapper, "shape, type", "cats_int64s and cats_strings as many", kMl),
        onnx_op("DictVectorizer", 1, infer_map_consumer, "-", "-", kMl),
        onnx_op("FeatureVectorizer", 1, infer_feature_vectorizer, "shape, type", "-", kMl),
        onnx_op("Imputer", 1, infer_same_shape_and_type, "shape, type", "input type", kMl),
        onnx_op("LabelEncoder", 1, infer_label_encoder, "shape, type", "-", kMl),
        onnx_op("LabelEncoder", 2, infer_label_encoder, "shape, type",
                "one keys_* and one values_* attribute; keys of the input's type", kMl),
        onnx_op("LabelEncoder", 4, infer_label_encoder, "shape, type",
                "keys_* of the input's type; as many values; default_tensor of one value of their type", kMl),
        onnx_op("LinearClassifier", 1, infer_linear_classifier, "shape, type (Y, Z)", "X 1-D or 2-D; input type", kMl),
        onnx_op("LinearRegressor", 1, infer_linear_regressor, "shape, type", "X 1-D or 2-D; targets >= 1", kMl),
        onnx_op("Normalizer", 1, infer_same_shape_float, "shape, type", "input type", kMl),
        onnx_op("OneHotEncoder", 1, infer_one_hot_encoder, "shape, type", "exactly one cats_* attribute", kMl),
        onnx_op("SVMClassifier", 1, infer_svm_classifier, "shape, type (Y; Z's rows)", "X 1-D or 2-D; input type", kMl),
        onnx_op("SVMRegressor", 1, infer_svm_regressor, "shape, type", "X 1-D or 2-D; input type", kMl),
        onnx_op("Scaler", 1, infer_same_shape_float, "shape, type", "input type", kMl),
        onnx_op("TreeEnsemble", 5, infer_tree_ensemble, "shape, type", "X 2-D; nodes_splits of X's type", kMl),
        onnx_op("TreeEnsembleClassifier", 1, infer_tree_classifier, "shape, type (Y, Z)", "X 1-D or 2-D", kMl),
        onnx_op("TreeEnsembleClassifier", 3, infer_tree_classifier, "shape, type (Y, Z)",
                "X 2-D; class labels given; no attribute beside its _as_tensor twin", kMl),
        onnx_op("TreeEnsembleRegressor", 1, infer_tree_regressor, "shape, type", "X 1-D or 2-D; n_targets >= 1", kMl),
        onnx_op("TreeEnsembleRegressor", 3, infer_tree_regressor, "shape, type",
                "X 2-D; n_targets >= 1; no attribute beside its _as_tensor twin", kMl),
        onnx_op("ZipMap", 1, infer_zip_map, "-", "input 1-D or 2-D", kMl),
        onnx_op("FlexAttention", 1, infer_flex_attention, "shape, type",
                "Q, K, V 4-D of one type; K, V heads and length equal; Q, K head size equal; heads grouped", kPreview),
        onnx_op("Adagrad", 1, infer_optimizer<3>, "shape, type", "R, T, then X, G, H lists of one length", kTraining),
        onnx_op("Adam", 1, infer_optimizer<4>, "shape, type", "R, T, then X, G, V, H lists of one length", kTraining),
        onnx_op("Gradient", 1, infer_gradient, "shape, type (each xs value's)",
                "xs given; y given; a value per xs and zs name; xs values of a float type", kTraining),
        onnx_op("Momentum", 1, infer_optimizer<3>, "shape, type", "R, T, then X, G, V lists of one length", kTraining),
    };
    return entries;
}

}  // namespace irlint
