// The ExperimentalDetectron* ops of opset6, as OpenVINO's experimental_detectron_*_shape_inference.hpp infer and
// check them. Their output sizes are attributes; the inputs are only checked.

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "rules/ops/detection_util.hpp"

namespace irlint::detection {

namespace {

// rank r (when static) and dim `d` compatible with `want`; records `what` otherwise.
bool check_input(OpContext& ctx, size_t i, size_t r, std::string_view what, std::optional<size_t> d = std::nullopt,
                 int64_t want = 0) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic) return true;
    if (s.rank() != r) {
        ctx.invalid_input(fmt::format("the '{}' input must have rank {}, got {}", what, r, s.str()));
        return false;
    }
    if (d && !s.dims[*d].compatible(Dim(want))) {
        ctx.invalid_input(fmt::format("dim {} of the '{}' input {} must be {}", *d, what, s.str(), want));
        return false;
    }
    return true;
}

}  // namespace

// boxes [max_detections, 4], classes [max_detections] i32, scores [max_detections].
void infer_ed_detection_output(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    const auto classes = ctx.attr_int("num_classes");
    const auto max_det = ctx.attr_int("max_detections_per_image");
    if (ctx.failed()) return;
    const auto deltas4 = (CheckedInt(*classes) * 4).get();
    if (!deltas4) {
        ctx.invalid_attribute(fmt::format("num_classes={} * 4 overflows int64", *classes));
        return;
    }
    if (!check_input(ctx, 0, 2, "input_rois", 1, 4) || !check_input(ctx, 1, 2, "input_deltas", 1, *deltas4) ||
        !check_input(ctx, 2, 2, "input_scores", 1, *classes))
        return;
    if (!ctx.shape(3).compatible(static_shape(std::vector<int64_t>{1, 3}))) {
        ctx.invalid_input(fmt::format("the image info shape {} must be compatible with [1,3]", ctx.shape(3).str()));
        return;
    }
    if (!ctx.shape(0).rank_dynamic && !ctx.shape(1).rank_dynamic && !ctx.shape(2).rank_dynamic) {
        const auto m = Dim::merge(ctx.shape(0).dims[0], ctx.shape(1).dims[0]);
        if (!m || !Dim::merge(*m, ctx.shape(2).dims[0])) {
            ctx.invalid_input(fmt::format("the first dims of input_rois {}, input_deltas {} and input_scores {} must agree",
                                          ctx.shape(0).str(), ctx.shape(1).str(), ctx.shape(2).str()));
            return;
        }
    }
    const Dim n = ov_dim(*max_det);
    out.push_back({Shape{false, {n, Dim(4)}}, ctx.type(0), {}, {}});
    out.push_back({Shape{false, {n}}, ElementType::i32, {}, {}});
    out.push_back({Shape{false, {n}}, ctx.type(0), {}, {}});
}

// rois [post_nms_count, 4] and scores [post_nms_count].
void infer_ed_generate_proposals(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    const auto post_nms = ctx.attr_int("post_nms_count");
    if (ctx.failed()) return;
    if (!check_input(ctx, 0, 1, "input_im_info", 0, 3) || !check_input(ctx, 1, 2, "input_anchors", 1, 4) ||
        !check_input(ctx, 2, 3, "input_deltas") || !check_input(ctx, 3, 3, "input_scores"))
        return;
    const Shape& deltas = ctx.shape(2);
    const Shape& scores = ctx.shape(3);
    if (!deltas.rank_dynamic && !scores.rank_dynamic &&
        (!deltas.dims[1].compatible(scores.dims[1]) || !deltas.dims[2].compatible(scores.dims[2]))) {
        ctx.invalid_input(fmt::format("input_deltas {} and input_scores {} must have the same height and width",
                                      deltas.str(), scores.str()));
        return;
    }
    const Dim n = ov_dim(*post_nms);
    out.push_back({Shape{false, {n, Dim(4)}}, ctx.type(0), {}, {}});
    out.push_back({Shape{false, {n}}, ctx.type(0), {}, {}});
}

// flatten: [H * W * priors, 4]; else [H, W, priors, 4], from the feature map and the priors.
void infer_ed_prior_grid_generator(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const auto flatten = ctx.attr_bool("flatten", true);
    if (!flatten) return;
    if (!check_input(ctx, 0, 2, "priors", 1, 4) || !check_input(ctx, 1, 4, "feature_map") ||
        !check_input(ctx, 2, 4, "im_data"))
        return;
    const Shape& priors = ctx.shape(0);
    const Shape& featmap = ctx.shape(1);
    const Shape& image = ctx.shape(2);
    if (!featmap.rank_dynamic && !image.rank_dynamic && !featmap.dims[0].compatible(image.dims[0])) {
        ctx.invalid_input(fmt::format("the first dims of feature_map {} and im_data {} must match", featmap.str(),
                                      image.str()));
        return;
    }
    Shape shape;
    if (*flatten) {
        Dim n = Dim::dynamic();
        if (!priors.rank_dynamic && !featmap.rank_dynamic) n = featmap.dims[2] * featmap.dims[3] * priors.dims[0];
        shape.dims = {n, Dim(4)};
    } else {
        shape.dims = {dim_at(featmap, 2), dim_at(featmap, 3), dim_at(priors, 0), Dim(4)};
    }
    out.push_back({shape, ctx.type(0), {}, {}});
}

// features [rois, channels, output_size, output_size] and the rois [rois, 4].
void infer_ed_roi_feature_extractor(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.input_count() < 2) {
        ctx.invalid_input(fmt::format("{} takes the rois and at least one pyramid level, the layer has {} inputs",
                                      ctx.layer().type, ctx.input_count()));
        return;
    }
    const auto size = ctx.attr_int("output_size");
    if (!size) return;
    const Shape& rois = ctx.shape(0);
    if (!check_input(ctx, 0, 2, "input_rois", 1, 4)) return;
    Dim channels = Dim::dynamic();
    bool channels_set = false;
    for (size_t i = 1; i < ctx.input_count(); ++i) {
        const Shape& level = ctx.shape(i);
        if (!check_input(ctx, i, 4, "pyramid level", 0, 1)) return;
        if (level.rank_dynamic) continue;
        const auto m = channels_set ? Dim::merge(channels, level.dims[1]) : std::optional<Dim>(level.dims[1]);
        if (!m) {
            ctx.invalid_input(fmt::format("the pyramid levels differ in their channels: {} against {}", level.str(),
                                          channels.str()));
            return;
        }
        channels = *m;
        channels_set = true;
    }
    const Dim n = dim_at(rois, 0);
    out.push_back({Shape{false, {n, channels, ov_dim(*size), ov_dim(*size)}}, ctx.type(0), {}, {}});
    out.push_back({Shape{false, {n, Dim(4)}}, ctx.type(0), {}, {}});
}

// [max_rois, 4].
void infer_ed_topk_rois(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto max_rois = ctx.attr_int("max_rois");
    if (!max_rois) return;
    if (!check_input(ctx, 0, 2, "input_rois", 1, 4) || !check_input(ctx, 1, 1, "rois_probs")) return;
    const Shape& rois = ctx.shape(0);
    const Shape& probs = ctx.shape(1);
    if (!rois.rank_dynamic && !probs.rank_dynamic && !rois.dims[0].compatible(probs.dims[0])) {
        ctx.invalid_input(fmt::format("the number of rois {} and of probabilities {} must be equal",
                                      rois.dims[0].str(), probs.dims[0].str()));
        return;
    }
    out.push_back({Shape{false, {ov_dim(*max_rois), Dim(4)}}, ctx.type(0), {}, {}});
}

}  // namespace irlint::detection
