// Detection ops: prior boxes, DetectionOutput, NonMaxSuppression, Proposal, as OpenVINO's *_shape_inference.hpp
// and op classes infer and check them; the ROI poolings and YOLO ops are in detection_roi_ops.cpp.

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "rules/ops/detection_util.hpp"
#include "rules/ops/invariants.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint {

namespace {

using namespace detection;

// ---------------------------------------------------------------- PriorBox, PriorBoxClustered

// The distinct aspect ratios PriorBox places around a point: each given ratio (and its inverse with flip),
// rounded to 6 decimals in float as OpenVINO rounds them, and 1.
size_t distinct_aspect_ratios(const std::vector<double>& ratios, bool flip) {
    std::set<float> unique{1.0f};
    for (const double r : ratios) {
        const auto ratio = static_cast<float>(r);
        unique.insert(std::round(ratio * 1e6f) / 1e6f);
        if (flip) unique.insert(std::round(1 / ratio * 1e6f) / 1e6f);
    }
    return unique.size();
}

// PriorBox's number of priors per point (op::v0/v8::PriorBox::number_of_priors); nullopt when it overflows.
std::optional<int64_t> prior_box_count(OpContext& ctx) {
    const auto min_size = ctx.attr_floats("min_size", std::vector<double>{});
    const auto max_size = ctx.attr_floats("max_size", std::vector<double>{});
    const auto aspect_ratio = ctx.attr_floats("aspect_ratio", std::vector<double>{});
    const auto density = ctx.attr_floats("density", std::vector<double>{});
    const auto fixed_ratio = ctx.attr_floats("fixed_ratio", std::vector<double>{});
    const auto fixed_size = ctx.attr_floats("fixed_size", std::vector<double>{});
    const auto flip = ctx.attr_bool("flip", false);
    const auto scale_all_sizes = ctx.attr_bool("scale_all_sizes", true);
    if (ctx.failed()) return std::nullopt;

    const CheckedInt ratios = static_cast<int64_t>(distinct_aspect_ratios(*aspect_ratio, *flip));
    const auto count = [](const std::vector<double>& v) { return CheckedInt(static_cast<int64_t>(v.size())); };
    CheckedInt priors = *scale_all_sizes ? ratios * count(*min_size) + count(*max_size)
                                         : ratios + count(*min_size) - 1;
    if (!fixed_size->empty()) priors = ratios * count(*fixed_size);
    for (const double d : *density) {
        // OpenVINO truncates the float density to an integer.
        const float f = static_cast<float>(d);
        if (!(std::fabs(f) < 9.0e18f)) return std::nullopt;
        const CheckedInt rounded = static_cast<int64_t>(f);
        const CheckedInt density_2d = rounded * rounded - 1;
        priors = priors + (fixed_ratio->empty() ? ratios : count(*fixed_ratio)) * density_2d;
    }
    return priors.get();
}

std::optional<int64_t> prior_box_clustered_count(OpContext& ctx) {
    const auto widths = ctx.attr_floats("width", std::vector<double>{});
    const auto heights = ctx.attr_floats("height", std::vector<double>{});
    if (ctx.failed()) return std::nullopt;
    if (widths->size() != heights->size()) {
        ctx.invalid_attribute(fmt::format("height has {} values and width {}: they must be as many",
                                          heights->size(), widths->size()));
        return std::nullopt;
    }
    return static_cast<int64_t>(widths->size());
}

// Both PriorBox kinds: [2, 4 * H * W * priors] f32, with H, W the values of input 0.
void infer_prior_boxes(OpContext& ctx, std::vector<OpOutput>& out, std::optional<int64_t> priors) {
    constexpr std::array<std::string_view, 2> kNames{"output size", "image"};
    for (size_t i = 0; i < 2; ++i) {
        if (!integral_or_unknown(ctx.type(i))) {
            ctx.invalid_input(fmt::format("{} input must be an integral number, but is {}", kNames[i],
                                          type_str(ctx.type(i))));
            return;
        }
    }
    const Shape& size_shape = ctx.shape(0);
    const Shape& image_shape = ctx.shape(1);
    const bool ranks_match = size_shape.rank_dynamic || image_shape.rank_dynamic || size_shape.rank() == image_shape.rank();
    if (!ranks_match || !rank_is(size_shape, 1)) {
        ctx.invalid_input(fmt::format("output size input rank {} must match image shape input rank {} and both must be 1-D",
                                      rank_str(size_shape), rank_str(image_shape)));
        return;
    }
    if (!priors) {
        if (!ctx.failed()) ctx.invalid_attribute("the number of priors per point overflows int64");
        return;
    }
    OpOutput o{Shape{false, {Dim(2), Dim::dynamic()}}, ElementType::f32, {}, {}};
    const TensorValue* size = ctx.value(0);
    const Dim count = dim_at(size_shape, 0);
    if (!size && count.is_static() && count.length() != 2) {
        // Whatever the value is, it has this many elements; OpenVINO checks the count once it knows the value,
        // at the latest when the plugin infers with the data.
        ctx.invalid_input(fmt::format("Output size must have two elements, input 0 is declared [{}]", count.length()));
        return;
    }
    if (!size) {
        ctx.value_unknown("the output size (input 0) is not known");
        if (const auto factor = (CheckedInt(*priors) * 4).get())
            ctx.invariant(invariants::dim_multiple_of(std::string(ctx.layer().type), 1, *factor,
                                                      fmt::format("4*H*W*{} priors", *priors)));
    } else if (size->size() != 2) {
        ctx.invalid_input(fmt::format("Output size must have two elements, got {}", size->size()));
        return;
    } else {
        const Dim h = dim_from_bounds((*size)[0].lo, (*size)[0].hi);
        const Dim w = dim_from_bounds((*size)[1].lo, (*size)[1].hi);
        o.shape.dims[1] = h * w * ov_dim(*priors) * Dim(4);
        if (ctx.explain() && o.shape.dims[1].is_static())
            o.dim_notes = {"2", fmt::format("4*{}*{}*{} priors", h.str(), w.str(), *priors)};
    }
    out.push_back(std::move(o));
}

void infer_prior_box(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (ctx.version() >= 8) ctx.attr_bool("min_max_aspect_ratios_order", true);
    const auto priors = prior_box_count(ctx);
    if (ctx.failed()) return;
    infer_prior_boxes(ctx, out, priors);
}

void infer_prior_box_clustered(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto priors = prior_box_clustered_count(ctx);
    if (ctx.failed()) return;
    infer_prior_boxes(ctx, out, priors);
}

// ---------------------------------------------------------------- DetectionOutput

struct DetectionAttrs {
    int64_t num_classes = -1;  // v8 deduces it
    std::vector<int64_t> keep_top_k;
    int64_t top_k = -1;
    bool share_location = true;
    bool normalized = false;
    bool variance_encoded_in_target = false;
};

std::optional<DetectionAttrs> detection_attrs(OpContext& ctx) {
    DetectionAttrs a;
    if (ctx.version() == 0) {
        const auto n = ctx.attr_int("num_classes");
        if (n) a.num_classes = *n;
    }
    const auto keep = ctx.attr_ints("keep_top_k");
    const auto top_k = ctx.attr_int("top_k", -1);
    const auto share = ctx.attr_bool("share_location", true);
    const auto normalized = ctx.attr_bool("normalized", false);
    const auto variance = ctx.attr_bool("variance_encoded_in_target", false);
    constexpr std::array<std::string_view, 2> kCodeTypes{"caffe.PriorBoxParameter.CORNER",
                                                         "caffe.PriorBoxParameter.CENTER_SIZE"};
    ctx.attr_enum("code_type", kCodeTypes, kCodeTypes[0]);
    ctx.attr_float("nms_threshold", 0.0);
    if (ctx.failed()) return std::nullopt;
    if (ctx.version() == 0 && a.num_classes <= 0) {
        ctx.invalid_attribute(fmt::format("num_classes must be greater than 0, got {}", a.num_classes));
        return std::nullopt;
    }
    if (keep->empty()) {
        ctx.invalid_attribute("keep_top_k is empty: it needs at least one value");
        return std::nullopt;
    }
    a.keep_top_k = *keep;
    a.top_k = *top_k;
    a.share_location = *share;
    a.normalized = *normalized;
    a.variance_encoded_in_target = *variance;
    return a;
}

bool detection_types(OpContext& ctx) {
    constexpr std::array<std::string_view, 5> kNames{"box logits", "class predictions", "proposals",
                                                     "additional class predictions", "additional box predictions"};
    // Box logits and proposals are of a float type; class predictions follow box logits, and the two
    // additional inputs follow their own kind.
    for (const size_t i : {size_t{0}, size_t{2}}) {
        if (!real_or_unknown(ctx.type(i))) {
            ctx.invalid_input(fmt::format("{}' data type must be floating point, got {}", kNames[i], type_str(ctx.type(i))));
            return false;
        }
    }
    constexpr std::array<std::pair<size_t, size_t>, 3> kFollows{{{1, 0}, {3, 1}, {4, 0}}};
    for (const auto& [i, like] : kFollows) {
        if (i >= ctx.input_count()) continue;
        const auto want = ctx.type(like);
        if (ctx.type(i) && want && *ctx.type(i) != *want) {
            ctx.invalid_input(fmt::format("{}' data type {} must be the same as {}' {}", kNames[i],
                                          type_str(ctx.type(i)), kNames[like], type_str(want)));
            return false;
        }
    }
    return true;
}

// A dim's length when static, 0 otherwise (OpenVINO's "not deduced yet").
int64_t static_len(const Shape& s, size_t i) {
    const Dim d = dim_at(s, i);
    return d.is_static() ? d.length() : -1;
}

// DetectionOutput-8 deduces the number of classes (and of prior boxes) from the input shapes.
bool deduce_classes(OpContext& ctx, const DetectionAttrs& a, int64_t& num_classes, int64_t& num_priors) {
    const Shape& box = ctx.shape(0);
    const Shape& cls = ctx.shape(1);
    const Shape& prop = ctx.shape(2);
    const bool five = ctx.input_count() == 5;
    constexpr std::array<size_t, 5> kRanks{2, 2, 3, 2, 2};
    constexpr std::array<std::string_view, 5> kNames{"Box logits", "Class predictions", "Proposals",
                                                     "Additional class predictions", "Additional box predictions"};
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        if (!rank_is(ctx.shape(i), kRanks[i])) {
            ctx.invalid_input(fmt::format("{} rank must be {}, got {}", kNames[i], kRanks[i], ctx.shape(i).rank()));
            return false;
        }
    }
    const int64_t prior_size = a.normalized ? 4 : 5;
    auto divide = [&](int64_t value, int64_t by, std::string_view what) {
        if (value % by != 0) {
            ctx.invalid_input(fmt::format("{} must be a multiple of {}, got {}", what, by, value));
            return false;
        }
        return true;
    };
    if (const int64_t d = static_len(prop, 2); num_priors == 0 && d >= 0) {
        if (!divide(d, prior_size, "proposals' third dimension")) return false;
        num_priors = d / prior_size;
        if (num_priors <= 0) {
            ctx.invalid_input(fmt::format("the number of prior boxes must be greater than 0, got {}", num_priors));
            return false;
        }
    }
    if (const int64_t d = five ? static_len(ctx.shape(3), 1) : -1; num_priors == 0 && d >= 0) {
        if (!divide(d, 2, "additional class predictions' second dimension")) return false;
        num_priors = d / 2;
        if (num_priors <= 0) {
            ctx.invalid_input(fmt::format("the number of prior boxes must be greater than 0, got {}", num_priors));
            return false;
        }
    }
    if (const int64_t d = static_len(cls, 1); num_classes == 0 && num_priors > 0 && d >= 0) {
        if (!divide(d, num_priors, "class predictions' second dimension (by num_prior_boxes)")) return false;
        num_classes = d / num_priors;
    }
    const auto by4 = (CheckedInt(num_priors) * 4).get();
    if (!by4) return true;
    if (const int64_t d = static_len(box, 1); num_classes == 0 && num_priors > 0 && d >= 0 && !a.share_location) {
        if (!divide(d, *by4, "box logits' second dimension (by num_prior_boxes * 4)")) return false;
        num_classes = d / *by4;
    }
    if (const int64_t d = five ? static_len(ctx.shape(4), 1) : -1;
        num_classes == 0 && num_priors > 0 && d >= 0 && !a.share_location) {
        if (!divide(d, *by4, "additional box predictions' second dimension (by num_prior_boxes * 4)")) return false;
        num_classes = d / *by4;
    }
    return true;
}

void infer_detection_output(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 5)) return;
    if (ctx.input_count() == 4) {
        ctx.invalid_input("DetectionOutput takes 3 or 5 inputs, the layer has 4");
        return;
    }
    const auto a = detection_attrs(ctx);
    if (!a || !detection_types(ctx)) return;
    const Shape& box = ctx.shape(0);
    const Shape& cls = ctx.shape(1);
    const Shape& prop = ctx.shape(2);

    int64_t num_classes = 0;
    int64_t num_priors = 0;
    if (a->num_classes == -1) {
        if (!deduce_classes(ctx, *a, num_classes, num_priors)) return;
    } else {
        num_classes = a->num_classes;
    }
    const int64_t loc_classes = a->share_location ? 1 : num_classes;
    const int64_t prior_size = a->normalized ? 4 : 5;
    Dim images = Dim::dynamic();
    bool images_set = false;

    if (!box.rank_dynamic) {
        if (box.rank() != 2) {
            ctx.invalid_input(fmt::format("Box logits rank must be 2, got {}", box.rank()));
            return;
        }
        images = box.dims[0];
        images_set = true;
        const auto loc4 = (CheckedInt(loc_classes) * 4).get();
        if (num_priors == 0 && box.dims[1].is_static()) {
            if (!loc4 || *loc4 == 0 || box.dims[1].length() % *loc4 != 0) {
                ctx.invalid_input(fmt::format("box logits' second dimension {} must be a multiple of num_loc_classes * 4 ({})",
                                              box.dims[1].length(), loc4.value_or(0)));
                return;
            }
            num_priors = box.dims[1].length() / *loc4;
        }
        if (num_priors > 0 && loc_classes > 0) {
            const auto want = (CheckedInt(num_priors) * loc_classes * 4).get();
            if (want && !box.dims[1].compatible(Dim(*want))) {
                ctx.invalid_input(fmt::format("box logits' second dimension {} is not compatible with num_prior_boxes * num_loc_classes * 4 = {}",
                                              box.dims[1].str(), *want));
                return;
            }
        }
    }
    if (!cls.rank_dynamic) {
        if (cls.rank() != 2) {
            ctx.invalid_input(fmt::format("Class predictions rank must be 2, got {}", cls.rank()));
            return;
        }
        if ((!images_set || images.is_dynamic()) && cls.dims[0].is_static()) {
            images = cls.dims[0];
            images_set = true;
        } else if (!cls.dims[0].compatible(images)) {
            ctx.invalid_input(fmt::format("class predictions' first dimension {} is not compatible with the batch size {}",
                                          cls.dims[0].str(), images.str()));
            return;
        }
        if (cls.dims[1].is_static() && num_classes != 0) {
            const int64_t d = cls.dims[1].length();
            if (num_priors == 0) {
                if (d % num_classes != 0) {
                    ctx.invalid_input(fmt::format("class predictions' second dimension {} must be a multiple of num_classes ({})",
                                                  d, num_classes));
                    return;
                }
                num_priors = d / num_classes;
            } else if (const auto want = (CheckedInt(num_priors) * num_classes).get(); !want || d != *want) {
                ctx.invalid_input(fmt::format("class predictions' second dimension {} must be num_prior_boxes * num_classes ({})",
                                              d, want.value_or(0)));
                return;
            }
        }
    }
    if (!prop.rank_dynamic) {
        if (prop.rank() != 3) {
            ctx.invalid_input(fmt::format("Proposals rank must be 3, got {}", prop.rank()));
            return;
        }
        if (!prop.dims[0].compatible(Dim(1)) && !prop.dims[0].compatible(images)) {
            ctx.invalid_input(fmt::format("proposals' first dimension {} must be the batch size ({}) or 1",
                                          prop.dims[0].str(), images.str()));
            return;
        }
        const int64_t second = a->variance_encoded_in_target ? 1 : 2;
        if (!prop.dims[1].compatible(Dim(second))) {
            ctx.invalid_input(fmt::format("proposals' second dimension {} must be {} (variance_encoded_in_target={})",
                                          prop.dims[1].str(), second, a->variance_encoded_in_target));
            return;
        }
        if (prop.dims[2].is_static()) {
            const int64_t d = prop.dims[2].length();
            if (num_priors == 0) {
                if (d % prior_size != 0) {
                    ctx.invalid_input(fmt::format("proposals' third dimension {} must be a multiple of prior_box_size ({})",
                                                  d, prior_size));
                    return;
                }
                num_priors = d / prior_size;
            } else if (const auto want = (CheckedInt(num_priors) * prior_size).get(); !want || d != *want) {
                ctx.invalid_input(fmt::format("proposals' third dimension {} must be num_prior_boxes * prior_box_size ({})",
                                              d, want.value_or(0)));
                return;
            }
        }
    }
    if (ctx.input_count() == 5) {
        const Shape& aux_cls = ctx.shape(3);
        const Shape& aux_box = ctx.shape(4);
        if (!aux_cls.rank_dynamic) {
            if (aux_cls.rank() != 2) {
                ctx.invalid_input(fmt::format("additional class predictions rank must be 2, got {}", aux_cls.rank()));
                return;
            }
            if (!aux_cls.dims[0].compatible(images)) {
                ctx.invalid_input(fmt::format("additional class predictions' first dimension {} is not compatible with the batch size {}",
                                              aux_cls.dims[0].str(), images.str()));
                return;
            }
            if (num_priors != 0) {
                const auto want = (CheckedInt(num_priors) * 2).get();
                if (want && !aux_cls.dims[1].compatible(Dim(*want))) {
                    ctx.invalid_input(fmt::format("additional class predictions' second dimension {} is not compatible with num_prior_boxes * 2 = {}",
                                                  aux_cls.dims[1].str(), *want));
                    return;
                }
            }
            if (aux_cls.dims[1].is_static()) num_priors = aux_cls.dims[1].length() / 2;
        }
        if (!aux_box.compatible(box)) {
            ctx.invalid_input(fmt::format("additional box predictions' shape {} is not compatible with box logits' {}",
                                          aux_box.str(), box.str()));
            return;
        }
    }

    const Dim priors = num_priors != 0 ? Dim(num_priors) : Dim::dynamic();
    const Dim classes = num_classes != 0 ? Dim(num_classes) : Dim::dynamic();
    Dim boxes;
    if (a->keep_top_k[0] > 0) {
        boxes = images * Dim(a->keep_top_k[0]);
    } else if (a->keep_top_k[0] == -1 && a->top_k > 0) {
        boxes = images * Dim(a->top_k) * classes;
    } else {
        boxes = images * priors * classes;
    }
    out.push_back({Shape{false, {Dim(1), Dim(1), boxes, Dim(7)}}, ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- NonMaxSuppression

constexpr std::array<std::string_view, 6> kNmsInputs{"boxes", "scores", "max_output_boxes_per_class",
                                                     "iou_threshold", "score_threshold", "soft_nms_sigma"};

bool nms_scalar(const Shape& s, bool allow_1d) {
    if (s.rank_dynamic || s.rank() == 0) return true;
    return allow_1d && s.rank() == 1 && s.dims[0].compatible(Dim(1));
}

// The checks every version makes on boxes [batch, boxes, 4] and scores [batch, classes, boxes].
bool nms_shapes(OpContext& ctx, bool allow_1d, int64_t box_size = 4) {
    const Shape& boxes = ctx.shape(0);
    const Shape& scores = ctx.shape(1);
    if (!rank_is(boxes, 3)) {
        ctx.invalid_input(fmt::format("Expected a 3D tensor for the 'boxes' input, got {}", boxes.str()));
        return false;
    }
    if (!rank_is(scores, 3)) {
        ctx.invalid_input(fmt::format("Expected a 3D tensor for the 'scores' input, got {}", scores.str()));
        return false;
    }
    for (size_t i = 2; i < ctx.input_count(); ++i) {
        if (!nms_scalar(ctx.shape(i), allow_1d)) {
            ctx.invalid_input(fmt::format("Expected a {} for the '{}' input, got {}",
                                          allow_1d ? "0D or 1D tensor of one element" : "scalar", kNmsInputs[i],
                                          ctx.shape(i).str()));
            return false;
        }
    }
    if (boxes.rank_dynamic) return true;
    if (!scores.rank_dynamic) {
        if (!boxes.dims[0].compatible(scores.dims[0])) {
            ctx.invalid_input(fmt::format("the first dimension of 'boxes' {} and 'scores' {} must match",
                                          boxes.str(), scores.str()));
            return false;
        }
        if (!boxes.dims[1].compatible(scores.dims[2])) {
            ctx.invalid_input(fmt::format("'boxes' {} and 'scores' {} must match at the second and third dimension respectively",
                                          boxes.str(), scores.str()));
            return false;
        }
    }
    if (!boxes.dims[2].compatible(Dim(box_size))) {
        ctx.invalid_input(fmt::format("the last dimension of the 'boxes' input {} must be {}", boxes.str(), box_size));
        return false;
    }
    return true;
}

// max_output_boxes_per_class when the layer has that input and its value is known.
std::optional<int64_t> nms_max_boxes(OpContext& ctx) {
    if (ctx.input_count() < 3) return std::nullopt;
    const auto v = ctx.exact_values(2);
    if (!v || v->empty()) {
        ctx.value_unknown("max_output_boxes_per_class (input 2) is not known");
        return std::nullopt;
    }
    return v->front();
}

std::optional<ElementType> nms_output_type(OpContext& ctx) {
    const auto t = ctx.attr_type("output_type", ElementType::i64);
    if (!t) return std::nullopt;
    if (*t != ElementType::i64 && *t != ElementType::i32) {
        ctx.invalid_attribute(fmt::format("output_type={} must be i32 or i64", element_type_name(*t)));
        return std::nullopt;
    }
    return t;
}

bool nms_box_encoding(OpContext& ctx) {
    constexpr std::array<std::string_view, 2> kEncodings{"corner", "center"};
    return ctx.attr_enum("box_encoding", kEncodings, kEncodings[0]).has_value();
}

// Versions 1 and 3: [min(boxes, max * classes), 3], dynamic unless both are static.
void infer_nms_v1_v3(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 5)) return;
    if (!nms_box_encoding(ctx)) return;
    ctx.attr_bool("sort_result_descending", true);
    std::optional<ElementType> type = ElementType::i64;
    if (ctx.version() >= 3) type = nms_output_type(ctx);
    if (ctx.failed() || !nms_shapes(ctx, false)) return;
    const Shape& boxes = ctx.shape(0);
    const Shape& scores = ctx.shape(1);
    Dim selected = Dim::dynamic();
    if (!boxes.rank_dynamic) {
        const auto max_boxes = nms_max_boxes(ctx);
        Dim per_class = max_boxes ? ov_dim(*max_boxes) : Dim::dynamic();
        if (!scores.rank_dynamic) per_class = per_class * scores.dims[1];
        if (boxes.dims[1].is_static() && per_class.is_static())
            selected = Dim(std::min(boxes.dims[1].length(), per_class.length()));
    }
    out.push_back({Shape{false, {selected, Dim(3)}}, type, {}, {}});
}

// Version 4: [min(boxes, max) * batch * classes, 3] with the batch and classes at their upper bounds.
void infer_nms_v4(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 5)) return;
    if (!nms_box_encoding(ctx)) return;
    ctx.attr_bool("sort_result_descending", true);
    const auto type = nms_output_type(ctx);
    if (ctx.failed() || !nms_shapes(ctx, false)) return;
    const Shape& boxes = ctx.shape(0);
    const Shape& scores = ctx.shape(1);
    Dim selected = Dim::dynamic();
    if (!boxes.rank_dynamic && !scores.rank_dynamic && boxes.dims[1].is_static()) {
        const int64_t max_boxes = nms_max_boxes(ctx).value_or(-1);
        selected = ov_dim(std::min(boxes.dims[1].length(), max_boxes)) * max_length_dim(scores.dims[0]) *
                   max_length_dim(scores.dims[1]);
    }
    out.push_back({Shape{false, {selected, Dim(3)}}, type, {}, {}});
}

bool nms_float_input(std::optional<ElementType> t) {
    return !t || *t == ElementType::bf16 || *t == ElementType::f16 || *t == ElementType::f32;
}

// Versions 5 and 9: indices [0..min(boxes, max) * batch * classes, 3] with every dim at its upper bound,
// scores f32 of the same shape, and the count [1].
void infer_nms_selected(OpContext& ctx, std::vector<OpOutput>& out, int64_t box_size) {
    if (!nms_box_encoding(ctx)) return;
    ctx.attr_bool("sort_result_descending", true);
    const auto type = nms_output_type(ctx);
    if (ctx.failed() || !nms_shapes(ctx, true, box_size)) return;
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const auto t = ctx.type(i) == ElementType::dynamic ? std::nullopt : ctx.type(i);
        const bool ok = i == 2 ? integral_or_unknown(t) : nms_float_input(t);
        if (!ok) {
            ctx.invalid_input(fmt::format("Expected {} as element type for the '{}' input, got {}",
                                          i == 2 ? "an integer type" : "bf16, f16 or f32", kNmsInputs[i],
                                          type_str(ctx.type(i))));
            return;
        }
    }
    const Shape& boxes = ctx.shape(0);
    const Shape& scores = ctx.shape(1);
    Dim selected = Dim::dynamic();
    if (!boxes.rank_dynamic && !scores.rank_dynamic) {
        const int64_t max_boxes = nms_max_boxes(ctx).value_or(-1);
        // At most the boxes there may be, and max_output_boxes_per_class; OpenVINO's Dimension(0, -1) is
        // unbounded, other negative bounds clip to 0.
        const int64_t most = std::min(boxes.dims[1].has_upper_bound() ? boxes.dims[1].max() : -1, max_boxes);
        selected = most == -1 ? Dim::dynamic() : Dim(0, std::max<int64_t>(most, 0));
        selected = selected * max_length_dim(scores.dims[0]) * max_length_dim(scores.dims[1]);
    }
    const Shape shape{false, {selected, Dim(3)}};
    out.push_back({shape, type, {}, {}});
    out.push_back({shape, ElementType::f32, {}, {}});
    out.push_back({Shape{false, {Dim(1)}}, type, {}, {}});
}

void infer_nms_v5_v9(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.expect_inputs(2, 6)) infer_nms_selected(ctx, out, 4);
}

// NMSRotated-13: five inputs, boxes of five numbers (center, size and angle), clockwise.
void infer_nms_rotated(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.expect_inputs(5) && ctx.attr_bool("clockwise", true)) infer_nms_selected(ctx, out, 5);
}

// ---------------------------------------------------------------- Proposal

void infer_proposal(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const auto post_nms_topn = ctx.attr_int("post_nms_topn");
    if (ctx.failed()) return;
    const Shape& probs = ctx.shape(0);
    const Shape& deltas = ctx.shape(1);
    const Shape& image = ctx.shape(2);
    constexpr std::array<std::string_view, 3> kNames{"class_probs", "bbox_deltas", "image_shape"};
    for (size_t i = 0; i < 3; ++i) {
        if (!real_or_unknown(ctx.type(i))) {
            ctx.invalid_input(fmt::format("Proposal's {} must be of a floating point type, got {}", kNames[i],
                                          type_str(ctx.type(i))));
            return;
        }
    }
    const auto type = ctx.type(0);
    if (!rank_is(probs, 4) || !rank_is(deltas, 4) || !rank_is(image, 1)) {
        ctx.invalid_input(fmt::format("class_probs {} and bbox_deltas {} must be 4-D and image_shape {} 1-D",
                                      probs.str(), deltas.str(), image.str()));
        return;
    }
    Dim batch = Dim::dynamic();
    if (!probs.rank_dynamic && !deltas.rank_dynamic) {
        const Dim anchors2 = probs.dims[1] * Dim(2);
        if (!deltas.dims[1].compatible(anchors2)) {
            ctx.invalid_input(fmt::format("anchor number inconsistent between class_probs ({} * 2 = {}) and bbox_deltas ({})",
                                          probs.dims[1].str(), anchors2.str(), deltas.dims[1].str()));
            return;
        }
        const auto merged = Dim::merge(probs.dims[0], deltas.dims[0]);
        if (!merged) {
            ctx.invalid_input(fmt::format("batch size inconsistent between class_probs ({}) and bbox_deltas ({})",
                                          probs.dims[0].str(), deltas.dims[0].str()));
            return;
        }
        batch = *merged;
    } else if (!probs.rank_dynamic) {
        batch = probs.dims[0];
    } else if (!deltas.rank_dynamic) {
        batch = deltas.dims[0];
    }
    if (!image.rank_dynamic && !image.dims[0].compatible(Dim(3, 4))) {
        ctx.invalid_input(fmt::format("image_shape must have 3 or 4 elements, got {}", image.dims[0].str()));
        return;
    }
    const Dim rois = batch * Dim(*post_nms_topn);
    out.push_back({Shape{false, {rois, Dim(5)}}, type, {}, {}});
    if (ctx.version() >= 4) out.push_back({Shape{false, {rois}}, type, {}, {}});
}

constexpr std::string_view kPriorChecks =
    "integral inputs; rank-1 output size and image shape; output size has 2 values";

constexpr OpEntry kDetectionOps[] = {
    {"CTCGreedyDecoder", 0, 1, infer_ctc_greedy_decoder, "shape, type", "logits rank 3, mask rank 2; T and N agree"},
    {"CTCGreedyDecoderSeqLen", 6, 6, infer_ctc_greedy_decoder_seq_len, "shape, type",
     "logits rank 3, sequence lengths rank 1, N agrees; blank index integer, one value"},
    {"DeformablePSROIPooling", 1, 1, infer_deformable_psroi_pooling, "shape, type",
     "output_dim, group_size > 0; mode; data and offsets 4-D, ROIs 2-D"},
    {"DetectionOutput", 0, 1, infer_detection_output, "shape, type",
     "num_classes > 0; keep_top_k; code_type; input ranks, dims and types against num_classes/num_prior_boxes"},
    {"DetectionOutput", 8, 8, infer_detection_output, "shape, type",
     "keep_top_k; code_type; input ranks, dims and types; num_classes deduced from the inputs"},
    {"ExperimentalDetectronDetectionOutput", 6, 6, infer_ed_detection_output, "shape, type",
     "input ranks; rois [?,4], deltas [?,num_classes*4], scores [?,num_classes], im_info [1,3]; batches agree"},
    {"ExperimentalDetectronGenerateProposalsSingleImage", 6, 6, infer_ed_generate_proposals, "shape, type",
     "im_info [3], anchors [?,4], deltas and scores 3-D with equal height and width"},
    {"ExperimentalDetectronPriorGridGenerator", 6, 6, infer_ed_prior_grid_generator, "shape, type",
     "priors [?,4]; feature map and image 4-D with equal batch"},
    {"ExperimentalDetectronROIFeatureExtractor", 6, 6, infer_ed_roi_feature_extractor, "shape, type",
     "rois [?,4]; pyramid levels 4-D, batch 1, equal channels"},
    {"ExperimentalDetectronTopKROIs", 6, 6, infer_ed_topk_rois, "shape, type", "rois [?,4]; probabilities 1-D, as many"},
    {"GenerateProposals", 9, 9, infer_generate_proposals, "shape, type",
     "pre/post_nms_count > 0; im_info [batch, 3|4], anchors [H, W, A, 4], deltas [batch, 4A, H, W], scores [batch, A, H, W]"},
    {"GatherTree", 1, 1, infer_gather_tree, "shape, type",
     "one numeric type; step_ids and parent_idx of one rank-3 shape; max_seq_len [batch]; end_token scalar"},
    {"MatrixNms", 8, 8, infer_matrix_nms, "shape, type",
     "top-k and background_class >= -1; output_type i32/i64; sort and decay kinds; boxes and scores ranks and dims"},
    {"MulticlassNms", 8, 8, infer_multiclass_nms, "shape, type",
     "top-k and background_class >= -1; output_type i32/i64; sort kind; boxes and scores ranks and dims"},
    {"MulticlassNms", 9, 9, infer_multiclass_nms, "shape, type",
     "top-k and background_class >= -1; output_type i32/i64; sort kind; boxes, scores (and roisnum) ranks and dims"},
    {"NonMaxSuppression", 1, 1, infer_nms_v1_v3, "shape, type", "box_encoding; boxes/scores ranks and dims; scalars"},
    {"NonMaxSuppression", 3, 3, infer_nms_v1_v3, "shape, type", "box_encoding; output_type i32/i64; boxes/scores ranks and dims"},
    {"NonMaxSuppression", 4, 4, infer_nms_v4, "shape, type", "box_encoding; output_type i32/i64; boxes/scores ranks and dims"},
    {"NonMaxSuppression", 5, 5, infer_nms_v5_v9, "shape, type",
     "box_encoding; output_type i32/i64; boxes/scores ranks, dims and float types; scalar inputs"},
    {"NonMaxSuppression", 9, 9, infer_nms_v5_v9, "shape, type",
     "box_encoding; output_type i32/i64; boxes/scores ranks, dims and float types; scalar inputs"},
    {"NMSRotated", 13, 13, infer_nms_rotated, "shape, type",
     "box_encoding; output_type i32/i64; boxes [batch, boxes, 5], scores ranks, dims and float types; scalar inputs"},
    {"PSROIPooling", 0, 1, infer_psroi_pooling, "shape, type",
     "mode; group_size, spatial bins > 0; spatial_scale > 0; channels = output_dim * group area; ROIs [?,5]"},
    {"PriorBox", 0, 1, infer_prior_box, "shape, type", kPriorChecks},
    {"PriorBox", 8, 8, infer_prior_box, "shape, type", kPriorChecks},
    {"PriorBoxClustered", 0, 1, infer_prior_box_clustered, "shape, type",
     "width and height as many; integral inputs; rank-1 output size and image shape"},
    {"Proposal", 0, 1, infer_proposal, "shape, type", "input ranks 4, 4, 1; anchors and batch agree; image_shape 3..4"},
    {"Proposal", 4, 4, infer_proposal, "shape, type", "input ranks 4, 4, 1; anchors and batch agree; image_shape 3..4"},
    {"ROIAlign", 3, 3, infer_roi_align, "shape, type",
     "pooled_h/w > 0; sampling_ratio >= 0; spatial_scale > 0; mode; input ranks, ROIs [?,4], types"},
    {"ROIAlign", 9, 9, infer_roi_align, "shape, type",
     "pooled_h/w > 0; sampling_ratio >= 0; spatial_scale > 0; mode, aligned_mode; input ranks, ROIs [?,4], types"},
    {"ROIAlignRotated", 15, 15, infer_roi_align_rotated, "shape, type",
     "pooled_h/w, sampling_ratio, spatial_scale, clockwise_mode; input ranks, ROIs [?,5], types"},
    {"ROIPooling", 0, 2, infer_roi_pooling, "shape, type",
     "pooled_h, pooled_w (over output_size) positive; spatial_scale > 0; method; 4-D features; ROIs [?,5]"},
    {"RegionYolo", 0, 1, infer_region_yolo, "shape, type", "rank 4; axis, end_axis in range"},
    {"ReorgYolo", 0, 2, infer_reorg_yolo, "shape, type", "stride > 0; rank 4; C >= stride^2; H, W divisible by stride"},
};

}  // namespace

std::span<const OpEntry> detection_ops() { return kDetectionOps; }

}  // namespace irlint
