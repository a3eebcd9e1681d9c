// The ROI poolings (ROIPooling, PSROIPooling, ROIAlign) and the YOLO reshapes (RegionYolo, ReorgYolo), as
// OpenVINO's *_shape_inference.hpp and op classes infer and check them.

#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "rules/ops/detection_util.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::detection {

namespace {

// ---------------------------------------------------------------- ROIPooling, PSROIPooling, ROIAlign

bool rois_input(OpContext& ctx, const Shape& rois) {
    if (rois.rank_dynamic) return true;
    if (rois.rank() != 2) {
        ctx.invalid_input(fmt::format("Expected a 2D tensor for the ROIs input with box coordinates, got {}", rois.str()));
        return false;
    }
    if (!rois.dims[1].compatible(Dim(5))) {
        ctx.invalid_input(fmt::format("the second dimension of the ROIs input {} must be 5 (batch id and box coordinates)",
                                      rois.dims[1].str()));
        return false;
    }
    return true;
}

bool positive_scale(OpContext& ctx) {
    const auto scale = ctx.attr_float("spatial_scale");
    if (!scale) return false;
    if (!std::isnormal(static_cast<float>(*scale)) || *scale < 0) {
        ctx.invalid_attribute(fmt::format("spatial_scale={} must be a positive floating point number", *scale));
        return false;
    }
    return true;
}

bool feature_maps(OpContext& ctx, const Shape& feat) {
    if (rank_is(feat, 4)) return true;
    ctx.invalid_input(fmt::format("Expected a 4D tensor for the feature maps input, got {}", feat.str()));
    return false;
}

bool same_float_types(OpContext& ctx, std::string_view what) {
    const auto merged = merge_types(ctx.type(0), ctx.type(1));
    if (!merged || !real_or_unknown(*merged)) {
        ctx.invalid_input(fmt::format("{}: the data type for input and ROIs must be a same floating point type, got {} and {}",
                                      what, type_str(ctx.type(0)), type_str(ctx.type(1))));
        return false;
    }
    return true;
}

}  // namespace

void infer_roi_pooling(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const Shape& feat = ctx.shape(0);
    const Shape& rois = ctx.shape(1);
    if (!feature_maps(ctx, feat) || !rois_input(ctx, rois)) return;
    // OpenVINO reads output_size, then pooled_h and pooled_w over its two values.
    auto pooled = ctx.attr_ints("output_size", std::vector<int64_t>{0, 0});
    const auto pooled_h = ctx.attr_int("pooled_h", -1);
    const auto pooled_w = ctx.attr_int("pooled_w", -1);
    if (ctx.failed()) return;
    if (pooled->size() != 2) {
        ctx.invalid_attribute(fmt::format("output_size has {} values: the pooled size must have 2", pooled->size()));
        return;
    }
    if (ctx.attr("pooled_h")) (*pooled)[0] = *pooled_h;
    if (ctx.attr("pooled_w")) (*pooled)[1] = *pooled_w;
    if ((*pooled)[0] < 1 || (*pooled)[1] < 1) {
        ctx.invalid_attribute(fmt::format("pooled_h={} and pooled_w={} must be positive integers", (*pooled)[0],
                                          (*pooled)[1]));
        return;
    }
    if (!positive_scale(ctx)) return;
    constexpr std::array<std::string_view, 2> kMethods{"max", "bilinear"};
    if (!ctx.attr_enum("method", kMethods, kMethods[0])) return;
    if (!same_float_types(ctx, "ROIPooling")) return;
    const auto type = merge_types(ctx.type(0), ctx.type(1)).value_or(std::nullopt);
    out.push_back({Shape{false, {dim_at(rois, 0), dim_at(feat, 1), Dim((*pooled)[0]), Dim((*pooled)[1])}}, type, {}, {}});
}

void infer_psroi_pooling(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    constexpr std::array<std::string_view, 2> kModes{"average", "bilinear"};
    const auto mode = ctx.attr_enum("mode", kModes, kModes[0]);
    const auto output_dim = ctx.attr_int("output_dim");
    const auto group_size = ctx.attr_int("group_size", 1);
    const auto bins_x = ctx.attr_int("spatial_bins_x", 1);
    const auto bins_y = ctx.attr_int("spatial_bins_y", 1);
    if (ctx.failed()) return;
    if (*group_size <= 0) {
        ctx.invalid_attribute(fmt::format("group_size={} must be greater than 0", *group_size));
        return;
    }
    if (*mode == "bilinear" && (*bins_x <= 0 || *bins_y <= 0)) {
        ctx.invalid_attribute(fmt::format("spatial_bins_x={} and spatial_bins_y={} must be greater than 0", *bins_x, *bins_y));
        return;
    }
    if (!positive_scale(ctx)) return;
    const Shape& feat = ctx.shape(0);
    const Shape& rois = ctx.shape(1);
    if (!feature_maps(ctx, feat)) return;
    if (!feat.rank_dynamic) {
        const bool average = *mode == "average";
        const auto channels = average ? (CheckedInt(*group_size) * *group_size * *output_dim).get()
                                      : (CheckedInt(*bins_x) * *bins_y * *output_dim).get();
        if (!channels || !feat.dims[1].compatible(Dim(*channels))) {
            ctx.invalid_input(fmt::format("the input's channels {} must be output_dim * {} = {}", feat.dims[1].str(),
                                          average ? "group_size * group_size" : "spatial_bins_x * spatial_bins_y",
                                          channels.value_or(-1)));
            return;
        }
    }
    if (!rois_input(ctx, rois)) return;
    for (size_t i = 0; i < 2; ++i) {
        if (!real_or_unknown(ctx.type(i))) {
            ctx.invalid_input(fmt::format("{}' data type must be floating point, got {}", i == 0 ? "feature maps" : "coords",
                                          type_str(ctx.type(i))));
            return;
        }
    }
    out.push_back({Shape{false, {dim_at(rois, 0), ov_dim(*output_dim), ov_dim(*group_size), ov_dim(*group_size)}},
                   ctx.type(0), {}, {}});
}

namespace {

// [ROIs, C, pooled_h, pooled_w] of the data's type, for ROIs [n, roi_size] and batch indices [n].
void roi_align_output(OpContext& ctx, std::vector<OpOutput>& out, int64_t pooled_h, int64_t pooled_w,
                      int64_t roi_size) {
    const auto type = merge_types(ctx.type(0), ctx.type(1));
    if (!type || !real_or_unknown(*type)) {
        ctx.invalid_input(fmt::format("the data type for input and ROIs must be a same floating point type, got {} and {}",
                                      type_str(ctx.type(0)), type_str(ctx.type(1))));
        return;
    }
    if (!integral_or_unknown(ctx.type(2))) {
        ctx.invalid_input(fmt::format("the data type for batch indices must be an integer, got {}", type_str(ctx.type(2))));
        return;
    }
    const Shape& data = ctx.shape(0);
    const Shape& rois = ctx.shape(1);
    const Shape& indices = ctx.shape(2);
    if (!rank_is(data, 4) || !rank_is(rois, 2) || !rank_is(indices, 1)) {
        ctx.invalid_input(fmt::format("expected a 4D data, 2D ROIs and 1D batch indices, got {}, {} and {}",
                                      data.str(), rois.str(), indices.str()));
        return;
    }
    Dim count = Dim::dynamic();
    if (!rois.rank_dynamic) {
        if (!rois.dims[1].compatible(Dim(roi_size))) {
            ctx.invalid_input(fmt::format("the second dimension of the ROIs input {} must be {} (box coordinates)",
                                          rois.dims[1].str(), roi_size));
            return;
        }
        count = rois.dims[0];
    }
    if (!indices.rank_dynamic) {
        const auto merged = Dim::merge(count, indices.dims[0]);
        if (!merged) {
            ctx.invalid_input(fmt::format("the first dimension of ROIs {} must equal that of the batch indices {}",
                                          count.str(), indices.dims[0].str()));
            return;
        }
        count = *merged;
    }
    out.push_back({Shape{false, {count, dim_at(data, 1), ov_dim(pooled_h), ov_dim(pooled_w)}}, *type, {}, {}});
}

// pooled_h and pooled_w; sampling_ratio and spatial_scale are read too. OpenVINO takes all four as they are.
std::pair<std::optional<int64_t>, std::optional<int64_t>> roi_align_pooled(OpContext& ctx) {
    auto size = std::pair(ctx.attr_int("pooled_h"), ctx.attr_int("pooled_w"));
    ctx.attr_int("sampling_ratio");
    ctx.attr_float("spatial_scale");
    return size;
}

}  // namespace

void infer_roi_align(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const auto [pooled_h, pooled_w] = roi_align_pooled(ctx);
    constexpr std::array<std::string_view, 2> kModes{"avg", "max"};
    ctx.attr_enum("mode", kModes);
    if (ctx.version() >= 9) {
        constexpr std::array<std::string_view, 3> kAligned{"asymmetric", "half_pixel_for_nn", "half_pixel"};
        ctx.attr_enum("aligned_mode", kAligned, kAligned[0]);
    }
    if (ctx.failed()) return;
    roi_align_output(ctx, out, *pooled_h, *pooled_w, 4);
}

// ROIAlignRotated-15: ROIs of five numbers (center, size, angle).
void infer_roi_align_rotated(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const auto [pooled_h, pooled_w] = roi_align_pooled(ctx);
    ctx.attr_bool("clockwise_mode", false);
    if (ctx.failed()) return;
    roi_align_output(ctx, out, *pooled_h, *pooled_w, 5);
}

// DeformablePSROIPooling-1: [ROIs, output_dim, group_size, group_size].
void infer_deformable_psroi_pooling(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    const auto output_dim = ctx.attr_int("output_dim");
    const auto group_size = ctx.attr_int("group_size", 1);
    constexpr std::array<std::string_view, 1> kModes{"bilinear_deformable"};
    if (!output_dim || !group_size || !ctx.attr_float("spatial_scale") ||
        !ctx.attr_enum("mode", kModes, kModes[0]) || !ctx.attr_int("spatial_bins_x", 1) ||
        !ctx.attr_int("spatial_bins_y", 1) || !ctx.attr_float("trans_std", 1.0) || !ctx.attr_int("part_size", 1))
        return;
    const Shape &data = ctx.shape(0), &rois = ctx.shape(1);
    if (!rank_is(data, 4)) return ctx.invalid_input(fmt::format("the first input {} must be 4-D", data.str()));
    if (!rank_is(rois, 2)) return ctx.invalid_input(fmt::format("the second input {} must be 2-D", rois.str()));
    if (ctx.input_count() == 3 && !rank_is(ctx.shape(2), 4))
        return ctx.invalid_input(fmt::format("the offsets {} must be 4-D", ctx.shape(2).str()));
    if (*output_dim <= 0) return ctx.invalid_attribute(fmt::format("output_dim={} must be greater than 0", *output_dim));
    if (*group_size <= 0) return ctx.invalid_attribute(fmt::format("group_size={} must be greater than 0", *group_size));
    out.push_back({Shape{false, {dim_at(rois, 0), Dim(*output_dim), Dim(*group_size), Dim(*group_size)}},
                   ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- RegionYolo, ReorgYolo

void infer_region_yolo(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto classes = ctx.attr_int("classes");
    const auto coords = ctx.attr_int("coords");
    const auto softmax = ctx.attr_bool("do_softmax");
    const auto mask = ctx.attr_ints("mask", std::vector<int64_t>{});
    const auto axis = ctx.attr_int("axis", 1);
    const auto end_axis = ctx.attr_int("end_axis", 1);
    ctx.attr_int("num", 0);
    if (ctx.failed()) return;
    const Shape& in = ctx.shape(0);
    if (!real_or_unknown(ctx.type(0))) {
        ctx.invalid_input(fmt::format("RegionYolo's input must be of a floating point type, got {}", type_str(ctx.type(0))));
        return;
    }
    if (!rank_is(in, 4)) {
        ctx.invalid_input(fmt::format("Input must be a tensor of rank 4, got {}", in.str()));
        return;
    }
    if (in.rank_dynamic) {
        out.push_back({Shape::dynamic_rank(), ctx.type(0), {}, {}});
        return;
    }
    Shape shape;
    if (*softmax) {
        std::string error;
        const auto a = normalize_axis(*axis, 4, &error);
        const auto e = a ? normalize_axis(*end_axis, 4, &error) : std::nullopt;
        if (!a || !e) {
            ctx.invalid_attribute(error);
            return;
        }
        // Dims axis..end_axis collapse into one.
        for (size_t i = 0; i <= *a; ++i) shape.dims.push_back(in.dims[i]);
        for (size_t i = *a + 1; i <= *e; ++i) shape.dims[*a] = shape.dims[*a] * in.dims[i];
        for (size_t i = std::max(*a + 1, *e + 1); i < 4; ++i) shape.dims.push_back(in.dims[i]);
    } else {
        const auto channels = ((CheckedInt(*classes) + *coords + 1) * static_cast<int64_t>(mask->size())).get();
        if (!channels) {
            ctx.invalid_attribute("(classes + coords + 1) * mask size overflows int64");
            return;
        }
        shape = in;
        shape.dims[1] = ov_dim(*channels);
    }
    out.push_back({shape, ctx.type(0), {}, {}});
}

void infer_reorg_yolo(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto strides = ctx.attr_ints("stride");
    if (!strides) return;
    if (strides->empty()) {
        ctx.invalid_attribute("stride is empty: it needs a value");
        return;
    }
    const int64_t stride = strides->front();
    const auto stride_sq = (CheckedInt(stride) * stride).get();
    if (stride <= 0 || !stride_sq) {
        ctx.invalid_attribute(fmt::format("stride={} must be positive", stride));
        return;
    }
    const Shape& in = ctx.shape(0);
    if (in.rank_dynamic) {
        out.push_back({in, ctx.type(0), {}, {}});
        return;
    }
    if (in.rank() != 4) {
        ctx.invalid_input(fmt::format("[N, C, H, W] input shape is required, got {}", in.str()));
        return;
    }
    if (in.dims[1].is_static() && in.dims[1].length() < *stride_sq) {
        ctx.invalid_input(fmt::format("C {} must be at least stride*stride = {}", in.dims[1].length(), *stride_sq));
        return;
    }
    Shape shape = in;
    for (size_t i = 2; i < 4; ++i) {
        shape.dims[i] = in.dims[i].divided_by(stride);
        if (shape.dims[i].is_empty()) {
            ctx.invalid_input(fmt::format("H and W of {} must be divisible by stride {}", in.str(), stride));
            return;
        }
    }
    shape.dims[1] = in.dims[1] * Dim(*stride_sq);
    out.push_back({shape, ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- CTCGreedyDecoder

// logits [T, N, C] and the sequence mask [T, N] give [N, T, 1, 1] in the logits' type.
void infer_ctc_greedy_decoder(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!ctx.attr_bool("ctc_merge_repeated", true)) return;
    const Shape& logits = ctx.shape(0);
    const Shape& mask = ctx.shape(1);
    Dim time = dim_at(logits, 0);
    Dim batch = dim_at(logits, 1);
    if (!rank_is(logits, 3)) {
        ctx.invalid_input(fmt::format("the rank of logits {} must be 3", logits.str()));
        return;
    }
    if (!mask.rank_dynamic) {
        if (mask.rank() != 2) {
            ctx.invalid_input(fmt::format("the rank of the sequence mask {} must be 2", mask.str()));
            return;
        }
        const auto t = Dim::merge(time, mask.dims[0]);
        const auto n = Dim::merge(batch, mask.dims[1]);
        if (!t || !n) {
            ctx.invalid_input(fmt::format("logits {} and the sequence mask {} differ in their {} dimension",
                                          logits.str(), mask.str(), !t ? "first" : "second"));
            return;
        }
        time = *t;
        batch = *n;
    }
    out.push_back({Shape{false, {batch, time, Dim(1), Dim(1)}}, ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- CTCGreedyDecoderSeqLen

namespace {

// A blank index of known shape holds one value: a scalar or [1].
bool blank_index_input(OpContext& ctx) {
    if (ctx.input_count() < 3) return true;
    if (!integral_or_unknown(ctx.type(2))) {
        ctx.invalid_input(fmt::format("the blank index is {}; it must be an integer type", type_str(ctx.type(2))));
        return false;
    }
    const Shape& blank = ctx.shape(2);
    if (!blank.is_static() || blank.rank() == 0 || (blank.rank() == 1 && blank.dims[0] == Dim(1))) return true;
    ctx.invalid_input(fmt::format("the blank index {} must be a scalar or hold one value", blank.str()));
    return false;
}

}  // namespace

// logits [N, T, C] and the sequence lengths [N] give the decoded classes [N, T] and their lengths [N], in the
// types the attributes name.
void infer_ctc_greedy_decoder_seq_len(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    const auto classes_type = ctx.attr_type("classes_index_type", ElementType::i32);
    const auto lengths_type = ctx.attr_type("sequence_length_type", ElementType::i32);
    if (!ctx.attr_bool("merge_repeated", true) || !classes_type || !lengths_type || !blank_index_input(ctx)) return;
    const Shape& logits = ctx.shape(0);
    const Shape& lengths = ctx.shape(1);
    if (!rank_is(logits, 3)) {
        ctx.invalid_input(fmt::format("the rank of logits {} must be 3", logits.str()));
        return;
    }
    if (!rank_is(lengths, 1)) {
        ctx.invalid_input(fmt::format("the rank of the sequence lengths {} must be 1", lengths.str()));
        return;
    }
    const auto batch = Dim::merge(dim_at(logits, 0), dim_at(lengths, 0));
    if (!batch) {
        ctx.invalid_input(fmt::format("logits {} and the sequence lengths {} differ in their first dimension",
                                      logits.str(), lengths.str()));
        return;
    }
    out.push_back({Shape{false, {*batch, dim_at(logits, 1)}}, *classes_type, {}, {}});
    out.push_back({Shape{false, {*batch}}, *lengths_type, {}, {}});
}

// ---------------------------------------------------------------- GatherTree

namespace {

// OpenVINO's PartialShape::merge_into: same rank where both are known, every dim merged.
std::optional<Shape> merge_shapes(const Shape& a, const Shape& b) {
    if (a.rank_dynamic) return b;
    if (b.rank_dynamic) return a;
    if (a.rank() != b.rank()) return std::nullopt;
    Shape merged = a;
    for (size_t i = 0; i < a.rank(); ++i) {
        const auto d = Dim::merge(a.dims[i], b.dims[i]);
        if (!d) return std::nullopt;
        merged.dims[i] = *d;
    }
    return merged;
}

// The one numeric element type of all four inputs.
std::optional<std::optional<ElementType>> gather_tree_type(OpContext& ctx) {
    std::optional<ElementType> type;
    for (size_t i = 0; i < 4; ++i) {
        const auto merged = merge_types(type, ctx.type(i));
        if (!merged) {
            ctx.invalid_input(fmt::format("the inputs must have one element type: {} and {}", type_str(type),
                                          type_str(ctx.type(i))));
            return std::nullopt;
        }
        type = *merged;
    }
    if (type && *type == ElementType::boolean) {
        ctx.invalid_input("the element type of the inputs must be numeric, it is boolean");
        return std::nullopt;
    }
    return type;
}

}  // namespace

// step_ids and parent_idx [T, B, W] of one shape, max_seq_len [B] and a scalar end_token give step_ids' shape.
void infer_gather_tree(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    const auto type = gather_tree_type(ctx);
    if (!type) return;
    auto shape = merge_shapes(ctx.shape(0), ctx.shape(1));
    if (!shape || !rank_is(*shape, 3)) {
        ctx.invalid_input(fmt::format("step_ids {} and parent_idx {} must have one shape of rank 3",
                                      ctx.shape(0).str(), ctx.shape(1).str()));
        return;
    }
    const Shape& max_seq_len = ctx.shape(2);
    if (!rank_is(max_seq_len, 1)) {
        ctx.invalid_input(fmt::format("max_seq_len {} must have rank 1", max_seq_len.str()));
        return;
    }
    if (!shape->rank_dynamic && !max_seq_len.rank_dynamic) {
        const auto batch = Dim::merge(shape->dims[1], max_seq_len.dims[0]);
        if (!batch) {
            ctx.invalid_input(fmt::format("max_seq_len {} must have as many elements as the batch {} of step_ids",
                                          max_seq_len.str(), shape->dims[1].str()));
            return;
        }
        shape->dims[1] = *batch;
    }
    if (!rank_is(ctx.shape(3), 0)) {
        ctx.invalid_input(fmt::format("end_token {} must be a scalar", ctx.shape(3).str()));
        return;
    }
    out.push_back({*shape, *type, {}, {}});
}

}  // namespace irlint::detection
