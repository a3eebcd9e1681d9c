#pragma once
// Small shape checks the detection and recurrent ops share (ranks that may be dynamic, dims of a shape whose
// rank may be unknown).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "rules/ops/op_context.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::detection {

// OpenVINO's rank().compatible(r): a dynamic rank is compatible with every rank.
inline bool rank_is(const Shape& s, size_t r) { return s.rank_dynamic || s.rank() == r; }


// Dim i of a shape, or a dynamic dim when the rank is unknown (the caller checked the rank).
inline Dim dim_at(const Shape& s, size_t i) { return s.rank_dynamic || i >= s.rank() ? Dim::dynamic() : s.dims[i]; }

// An integer as OpenVINO's Dimension(value): -1 is dynamic, other negatives clip to 0.
inline Dim ov_dim(int64_t v) { return v == -1 ? Dim::dynamic() : Dim(v < 0 ? 0 : v); }
// An upper bound as OpenVINO's get_max_length() gives it: -1 when there is none; as a dim, a dynamic one.
inline int64_t max_length(const Dim& d) { return d.has_upper_bound() ? d.max() : -1; }
inline Dim max_length_dim(const Dim& d) { return ov_dim(max_length(d)); }

// A value's bounds as a dim, as OpenVINO reads a shape from bounds: an unbounded upper bound is open.
inline Dim dim_from_bounds(int64_t lo, int64_t hi) {
    if (lo == hi) return Dim(lo);
    return Dim(lo < 0 ? 0 : lo, hi == Dim::kInf ? -1 : hi);
}

// OpenVINO's element::Type::is_integral_number(); an undeclared type passes.
inline bool integral_or_unknown(std::optional<ElementType> t) {
    return !t || (is_integer_type(*t) && *t != ElementType::boolean);
}
inline bool real_or_unknown(std::optional<ElementType> t) { return !t || is_float_type(*t); }


// OpenVINO's element::Type::merge: an unknown type takes the other; nullopt (outer) when both are known
// and differ.
inline std::optional<std::optional<ElementType>> merge_types(std::optional<ElementType> a,
                                                             std::optional<ElementType> b) {
    if (!a) return std::optional<std::optional<ElementType>>(b);
    if (!b || *a == *b) return std::optional<std::optional<ElementType>>(a);
    return std::nullopt;
}

// Each input i has rank ranks[i] (when its rank is known); records an input problem naming names[i] otherwise.
inline bool inputs_of_ranks(OpContext& ctx, std::span<const size_t> ranks, std::span<const std::string_view> names) {
    for (size_t i = 0; i < ranks.size() && i < names.size(); ++i) {
        if (rank_is(ctx.shape(i), ranks[i])) continue;
        ctx.invalid_input(fmt::format("the '{}' input must be {}-D, got {}", names[i], ranks[i], ctx.shape(i).str()));
        return false;
    }
    return true;
}

// The infer functions of detection_roi_ops.cpp.
void infer_roi_pooling(OpContext& ctx, std::vector<OpOutput>& out);
void infer_psroi_pooling(OpContext& ctx, std::vector<OpOutput>& out);
void infer_roi_align(OpContext& ctx, std::vector<OpOutput>& out);
void infer_roi_align_rotated(OpContext& ctx, std::vector<OpOutput>& out);
void infer_deformable_psroi_pooling(OpContext& ctx, std::vector<OpOutput>& out);
void infer_region_yolo(OpContext& ctx, std::vector<OpOutput>& out);
void infer_reorg_yolo(OpContext& ctx, std::vector<OpOutput>& out);
void infer_ctc_greedy_decoder(OpContext& ctx, std::vector<OpOutput>& out);
void infer_ctc_greedy_decoder_seq_len(OpContext& ctx, std::vector<OpOutput>& out);
void infer_gather_tree(OpContext& ctx, std::vector<OpOutput>& out);
// The infer functions of detection_experimental_ops.cpp.
void infer_ed_detection_output(OpContext& ctx, std::vector<OpOutput>& out);
void infer_multiclass_nms(OpContext& ctx, std::vector<OpOutput>& out);
void infer_matrix_nms(OpContext& ctx, std::vector<OpOutput>& out);
void infer_generate_proposals(OpContext& ctx, std::vector<OpOutput>& out);
void infer_ed_generate_proposals(OpContext& ctx, std::vector<OpOutput>& out);
void infer_ed_prior_grid_generator(OpContext& ctx, std::vector<OpOutput>& out);
void infer_ed_roi_feature_extractor(OpContext& ctx, std::vector<OpOutput>& out);
void infer_ed_topk_rois(OpContext& ctx, std::vector<OpOutput>& out);

}  // namespace irlint::detection
