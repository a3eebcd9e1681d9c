// MulticlassNms (8, 9), MatrixNms (8) and GenerateProposals (9), as OpenVINO's multiclass_nms, matrix_nms and
// generate_proposals shape inference bound their outputs: a count of selected boxes from 0 to the most there
// may be, from the box counts, the classes and the top-k attributes.

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "rules/ops/detection_util.hpp"

namespace irlint::detection {

namespace {

// The attributes both NMS ops share, checked as their validate() does; nullopt after a problem.
struct NmsAttrs {
    int64_t nms_top_k = -1, keep_top_k = -1, background_class = -1;
    std::optional<ElementType> output_type;
};
std::optional<NmsAttrs> nms_attrs(OpContext& ctx, std::span<const std::string_view> sort_types) {
    NmsAttrs a;
    const auto top_k = ctx.attr_int("nms_top_k", -1), keep = ctx.attr_int("keep_top_k", -1),
               background = ctx.attr_int("background_class", -1);
    const auto type = ctx.attr_type("output_type", ElementType::i64);
    if (!top_k || !keep || !background || !type || !ctx.attr_enum("sort_result_type", sort_types, "none") ||
        !ctx.attr_bool("sort_result_across_batch", false) || !ctx.attr_bool("normalized", true))
        return std::nullopt;
    for (const auto& [name, value] : {std::pair{"nms_top_k", *top_k}, {"keep_top_k", *keep},
                                      {"background_class", *background}})
        if (value < -1) {
            ctx.invalid_attribute(fmt::format("{}={} must be -1 or more", name, value));
            return std::nullopt;
        }
    if (*type != ElementType::i32 && *type != ElementType::i64) {
        ctx.invalid_attribute(fmt::format("output_type={} must be i32 or i64", element_type_name(*type)));
        return std::nullopt;
    }
    a.nms_top_k = *top_k;
    a.keep_top_k = *keep;
    a.background_class = *background;
    a.output_type = type;
    return a;
}

// boxes [batch, boxes, 4] and scores [batch, classes, boxes] (or, with roisnum, boxes [classes, boxes, 4] and
// scores [classes, boxes]).
bool nms_inputs(OpContext& ctx, bool with_rois_num) {
    const Shape &boxes = ctx.shape(0), &scores = ctx.shape(1);
    const size_t scores_rank = with_rois_num ? 2 : 3;
    std::string problem;
    if (!rank_is(boxes, 3))
        problem = fmt::format("expected a 3D tensor for the 'boxes' input, got {}", boxes.str());
    else if (!rank_is(scores, scores_rank))
        problem = fmt::format("expected a {}D tensor for the 'scores' input, got {}", scores_rank, scores.str());
    else if (with_rois_num && !rank_is(ctx.shape(2), 1))
        problem = fmt::format("expected a 1D tensor for the 'roisnum' input, got {}", ctx.shape(2).str());
    else if (!boxes.rank_dynamic && !boxes.dims[2].compatible(Dim(4)))
        problem = fmt::format("the last dimension of the 'boxes' input {} must be 4", boxes.str());
    else if (!boxes.rank_dynamic && !scores.rank_dynamic) {
        const size_t box_dim = with_rois_num ? 1 : 2;
        if (!boxes.dims[0].compatible(scores.dims[0]))
            problem = fmt::format("the first dimension of 'boxes' {} and 'scores' {} must match", boxes.str(),
                                  scores.str());
        else if (!boxes.dims[1].compatible(scores.dims[box_dim]))
            problem = fmt::format("'boxes' {} and 'scores' {} must agree on the number of boxes", boxes.str(),
                                  scores.str());
    }
    if (problem.empty()) return true;
    ctx.invalid_input(std::move(problem));
    return false;
}

// selected_outputs [n, 6] of the boxes' type, selected_indices [n, 1] and valid_outputs [batch] of output_type.
void nms_outputs(OpContext& ctx, std::vector<OpOutput>& out, const Dim& selected, const Dim& batch,
                 std::optional<ElementType> type) {
    out.push_back({Shape{false, {selected, Dim(6)}}, ctx.type(0), {}, {}});
    out.push_back({Shape{false, {selected, Dim(1)}}, type, {}, {}});
    out.push_back({Shape{false, {batch}}, type, {}, {}});
}

}  // namespace

void infer_multiclass_nms(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, ctx.version() >= 9 ? 3 : 2)) return;
    static constexpr std::array<std::string_view, 3> kSort{"classid", "score", "none"};
    const auto attrs = nms_attrs(ctx, kSort);
    if (!attrs || !ctx.attr_float("nms_eta", 1.0) || !ctx.attr_float("iou_threshold", 0.0) ||
        !ctx.attr_float("score_threshold", 0.0))
        return;
    const bool with_rois_num = ctx.input_count() == 3;
    if (!nms_inputs(ctx, with_rois_num)) return;
    const Shape &boxes = ctx.shape(0), &scores = ctx.shape(1);
    Dim selected = Dim::dynamic(), batch = Dim::dynamic();
    const bool known = !boxes.rank_dynamic && !scores.rank_dynamic && (!with_rois_num || !ctx.shape(2).rank_dynamic);
    if (known) {
        const Dim& classes = with_rois_num ? boxes.dims[0] : scores.dims[1];
        const Dim& images = with_rois_num ? ctx.shape(2).dims[0] : scores.dims[0];
        Dim n = attrs->nms_top_k > -1 ? ov_dim(std::min(max_length(boxes.dims[1]), attrs->nms_top_k)) : boxes.dims[1];
        n = n * classes;
        if (attrs->keep_top_k > -1 && attrs->keep_top_k < max_length(n)) n = Dim(attrs->keep_top_k);
        n = n * images;
        selected = n.has_upper_bound() ? Dim(0, n.max()) : Dim::dynamic();
        batch = with_rois_num ? ctx.shape(2).dims[0] : boxes.dims[0];
    }
    nms_outputs(ctx, out, selected, batch, attrs->output_type);
}

void infer_matrix_nms(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array<std::string_view, 3> kSort{"classid", "score", "none"};
    static constexpr std::array<std::string_view, 2> kDecay{"gaussian", "linear"};
    const auto attrs = nms_attrs(ctx, kSort);
    if (!attrs || !ctx.attr_enum("decay_function", kDecay, "linear") || !ctx.attr_float("gaussian_sigma", 2.0) ||
        !ctx.attr_float("post_threshold", 0.0) || !ctx.attr_float("score_threshold", 0.0))
        return;
    if (!nms_inputs(ctx, false)) return;
    const Shape &boxes = ctx.shape(0), &scores = ctx.shape(1);
    Dim selected = Dim::dynamic(), batch = Dim::dynamic();
    if (!boxes.rank_dynamic) {
        batch = boxes.dims[0];
        if (!scores.rank_dynamic) {
            Dim n = attrs->nms_top_k > -1 ? ov_dim(std::min(max_length(boxes.dims[1]), attrs->nms_top_k))
                                          : boxes.dims[1];
            n = n * scores.dims[1];
            if (attrs->keep_top_k > -1) n = ov_dim(std::min(max_length(n), attrs->keep_top_k));
            n = n * scores.dims[0];
            selected = n.has_upper_bound() ? Dim(0, n.max()) : Dim::dynamic();
        }
    }
    nms_outputs(ctx, out, selected, batch, attrs->output_type);
}

// rois [0..batch * post_nms_count, 4], scores [same], roisnum [batch] of roi_num_type.
void infer_generate_proposals(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    const auto post = ctx.attr_int("post_nms_count"), pre = ctx.attr_int("pre_nms_count");
    const auto roi_type = ctx.attr_type("roi_num_type", ElementType::i64);
    if (!post || !pre || !roi_type || !ctx.attr_float("min_size", 0.0) || !ctx.attr_float("nms_threshold", 0.5) ||
        !ctx.attr_bool("normalized", true) || !ctx.attr_float("nms_eta", 1.0))
        return;
    if (*post <= 0 || *pre <= 0)
        return ctx.invalid_attribute(fmt::format("pre_nms_count={} and post_nms_count={} must be positive", *pre, *post));
    const Shape &info = ctx.shape(0), &anchors = ctx.shape(1), &deltas = ctx.shape(2), &scores = ctx.shape(3);
    constexpr std::array<size_t, 4> kRanks{2, 4, 4, 4};
    constexpr std::array<std::string_view, 4> kNames{"input_im_info", "input_anchors", "input_deltas", "input_scores"};
    if (!inputs_of_ranks(ctx, kRanks, kNames)) return;
    if (!info.rank_dynamic && !info.dims[1].compatible(Dim(3)) && !info.dims[1].compatible(Dim(4)))
        return ctx.invalid_input(fmt::format("'input_im_info' {} must be [batch, 3] or [batch, 4]", info.str()));
    if (!anchors.rank_dynamic && !anchors.dims[3].compatible(Dim(4)))
        return ctx.invalid_input(fmt::format("the last dim of 'input_anchors' {} must be 4", anchors.str()));
    if (!deltas.rank_dynamic && !scores.rank_dynamic) {
        const bool agree = deltas.dims[0].compatible(scores.dims[0]) &&
                           deltas.dims[1].compatible(scores.dims[1] * Dim(4)) &&
                           deltas.dims[2].compatible(scores.dims[2]) && deltas.dims[3].compatible(scores.dims[3]) &&
                           deltas.dims[0].compatible(dim_at(info, 0));
        if (!agree)
            return ctx.invalid_input(fmt::format("'input_deltas' {} must be [batch, 4*anchors, H, W] of 'input_scores' "
                                                 "{} and 'input_im_info' {}",
                                                 deltas.str(), scores.str(), info.str()));
    }
    if (!scores.rank_dynamic && !anchors.rank_dynamic &&
        !(anchors.dims[0].compatible(scores.dims[2]) && anchors.dims[1].compatible(scores.dims[3]) &&
          anchors.dims[2].compatible(scores.dims[1])))
        return ctx.invalid_input(fmt::format("'input_anchors' {} must be [H, W, anchors, 4] of 'input_scores' {}",
                                             anchors.str(), scores.str()));
    Dim batch = Dim::dynamic();
    for (const Dim& d : {dim_at(info, 0), dim_at(deltas, 0), dim_at(scores, 0)})
        if (const auto merged = Dim::merge(batch, d)) batch = *merged;
    const Dim most = batch * Dim(*post);
    const Dim rois = most.has_upper_bound() ? Dim(0, most.max()) : Dim::dynamic();
    out.push_back({Shape{false, {rois, Dim(4)}}, ctx.type(0), {}, {}});
    out.push_back({Shape{false, {rois}}, ctx.type(0), {}, {}});
    out.push_back({Shape{false, {batch}}, roi_type, {}, {}});
}

}  // namespace irlint::detection
