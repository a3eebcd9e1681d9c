// ONNX's operators that fit no other family: quantization, NonMaxSuppression and RoiAlign, the signal ops (DFT,
// STFT, windows, MelWeightMatrix), random generators, the string ops, ImageDecoder, Det and the two losses, at
// each schema version, as the current ONNX's shape and type inference gives their outputs.

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "rules/ops/elementwise_util.hpp"
#include "rules/ops/onnx_families.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/tensor_common.hpp"

namespace irlint {

namespace {

using shape_ops::dynamic_dims;
using shape_ops::single_exact;

// ---------------------------------------------------------------- shared steps


// The largest TensorProto data type number the current ONNX defines (UINT2 .. INT2 are 25, 26).
constexpr int64_t kLastOnnxDataType = 26;

// A data type attribute: the element type it names (nullopt when irlint has no name for it, or after recording
// a problem for a number that names no ONNX type).
std::optional<ElementType> dtype_attr(OpContext& ctx, std::string_view name, int64_t fallback) {
    const auto t = ctx.attr_int(name, fallback);
    if (!t) return std::nullopt;
    if (*t < 1 || *t > kLastOnnxDataType) {
        ctx.invalid_attribute(fmt::format("{} {} is not an ONNX data type (1 to {})", name, *t, kLastOnnxDataType));
        return std::nullopt;
    }
    return element_type_from_onnx(*t);
}

// Input i, when its type is known, must be one of `allowed` (the schema's type constraint).
bool takes(OpContext& ctx, size_t i, std::initializer_list<ElementType> allowed, std::string_view what) {
    const auto t = ctx.type(i);
    if (!t || std::find(allowed.begin(), allowed.end(), *t) != allowed.end()) return true;
    ctx.invalid_input(
        fmt::format("{} (input {}) is {}, which the schema does not take", what, i, element_type_name(*t)));
    return false;
}

bool takes_float(OpContext& ctx, size_t i, std::string_view what, bool bf16 = true) {
    if (bf16) return takes(ctx, i, {ElementType::f16, ElementType::f32, ElementType::f64, ElementType::bf16}, what);
    return takes(ctx, i, {ElementType::f16, ElementType::f32, ElementType::f64}, what);
}

// The rank of input i must be `rank` when it is known.
bool rank_is(OpContext& ctx, size_t i, size_t rank, std::string_view what) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || s.rank() == rank) return true;
    ctx.invalid_input(fmt::format("{} (input {}) has rank {}; it must be {}", what, i, s.rank(), rank));
    return false;
}

bool rank_at_least(OpContext& ctx, size_t i, size_t rank, std::string_view what) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || s.rank() >= rank) return true;
    ctx.invalid_input(fmt::format("{} (input {}) has rank {}; it must be at least {}", what, i, s.rank(), rank));
    return false;
}

Dim dim_or_dynamic(const Shape& s, size_t i) { return !s.rank_dynamic && i < s.rank() ? s.dims[i] : Dim::dynamic(); }

OpOutput tensor(Shape shape, std::optional<ElementType> type) { return OpOutput{std::move(shape), type, {}, {}}; }

// A shape given as the value of a scalar input: one dim of that length, dynamic when the value is unknown.
Dim length_from_value(OpContext& ctx, size_t i, std::string_view what) {
    const auto v = single_exact(ctx, i);
    if (!v) {
        ctx.value_unknown(fmt::format("the {} (input {}) is unknown", what, i));
        return Dim::dynamic();
    }
    if (*v < 0) {
        ctx.invalid_input(fmt::format("the {} (input {}) is {}; it must be >= 0", what, i, *v));
        return Dim::dynamic();
    }
    return Dim(*v);
}

// ---------------------------------------------------------------- quantization

// QuantizeLinear: y has x's dims; its type is y_zero_point's, else output_dtype's (21+), else u8.
void infer_quantize_linear(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    const int v = ctx.version();
    if (v >= 19)
        takes(ctx, 0, {ElementType::f32, ElementType::f16, ElementType::bf16, ElementType::i32}, "x");
    else
        takes(ctx, 0, {ElementType::f32, ElementType::i32}, "x");
    if (v >= 21 && ctx.attr_int("block_size", 0).value_or(0) < 0) ctx.invalid_attribute("block_size must be >= 0");
    std::optional<ElementType> dtype;
    const bool has_dtype = v >= 21 && ctx.attr("output_dtype") && ctx.attr_int("output_dtype", 0).value_or(0) != 0;
    if (has_dtype) dtype = dtype_attr(ctx, "output_dtype", 0);
    if (ctx.failed()) return;
    std::optional<ElementType> type = ElementType::u8;
    if (ctx.has_input(2)) {
        type = ctx.type(2);
        if (type && has_dtype && dtype && *type != *dtype)
            return ctx.invalid_attribute(fmt::format("output_dtype {} does not match y_zero_point's type {}",
                                                     element_type_name(*dtype), element_type_name(*type)));
        if (!type && has_dtype) type = dtype;
    } else if (has_dtype) {
        type = dtype;
    }
    out.push_back(tensor(ctx.shape(0), type));
}

// DequantizeLinear: y has x's dims; f32 up to 13, then x_scale's type (or output_dtype's, 23+).
void infer_dequantize_linear(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    const int v = ctx.version();
    if (v < 19) takes(ctx, 0, {ElementType::i8, ElementType::u8, ElementType::i32}, "x");
    if (v >= 19) takes_float(ctx, 1, "x_scale");
    if (ctx.has_input(2) && ctx.type(0) && ctx.type(2) && *ctx.type(0) != *ctx.type(2))
        return ctx.invalid_input(fmt::format("x is {} and x_zero_point {}; they must be equal",
                                             element_type_name(*ctx.type(0)), element_type_name(*ctx.type(2))));
    std::optional<ElementType> type = v < 19 ? std::optional(ElementType::f32) : ctx.type(1);
    if (v >= 23 && ctx.attr("output_dtype") && ctx.attr_int("output_dtype", 0).value_or(0) != 0)
        type = dtype_attr(ctx, "output_dtype", 0);
    if (ctx.failed()) return;
    out.push_back(tensor(ctx.shape(0), type));
}

// DynamicQuantizeLinear: y (u8, x's dims), y_scale (f32 scalar), y_zero_point (u8 scalar).
void infer_dynamic_quantize_linear(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes(ctx, 0, {ElementType::f32}, "x")) return;
    out.push_back(tensor(ctx.shape(0), ElementType::u8));
    out.push_back(tensor(Shape{}, ElementType::f32));
    out.push_back(tensor(Shape{}, ElementType::u8));
}

// ---------------------------------------------------------------- detection

// NonMaxSuppression: [selected, 3] i64. ONNX leaves `selected` open; it is at most batches * classes *
// min(max_output_boxes_per_class, boxes), which irlint gives as the dim's upper bound. As ONNX's inference,
// nothing about the inputs is rejected here (ONNX Runtime checks boxes and scores when it runs the node).
// ---- NonMaxSuppression on known inputs: ONNX's reference algorithm, in f32 as it computes ----

struct Box {
    float x_min, x_max, y_min, y_max;
};

Box box_at(const std::vector<double>& boxes, size_t at, bool center_point) {
    const auto v = [&](size_t k) { return static_cast<float>(boxes[at + k]); };
    if (center_point) {  // [x_center, y_center, width, height]
        const float half_w = v(2) / 2, half_h = v(3) / 2;
        return {v(0) - half_w, v(0) + half_w, v(1) - half_h, v(1) + half_h};
    }
    // [y1, x1, y2, x2], either corner first
    return {std::min(v(1), v(3)), std::max(v(1), v(3)), std::min(v(0), v(2)), std::max(v(0), v(2))};
}

// Whether b suppresses a: their intersection over union is above the threshold.
bool suppresses(const Box& a, const Box& b, float iou_threshold) {
    const float ix_min = std::max(a.x_min, b.x_min), ix_max = std::min(a.x_max, b.x_max);
    const float iy_min = std::max(a.y_min, b.y_min), iy_max = std::min(a.y_max, b.y_max);
    if (ix_max <= ix_min || iy_max <= iy_min) return false;
    const float intersection = (ix_max - ix_min) * (iy_max - iy_min);
    const float area_a = (a.x_max - a.x_min) * (a.y_max - a.y_min), area_b = (b.x_max - b.x_min) * (b.y_max - b.y_min);
    const float union_area = area_a + area_b - intersection;
    if (intersection <= 0 || area_a <= 0 || area_b <= 0 || union_area <= 0) return false;
    return intersection / union_area > iou_threshold;
}

// A scalar input's one known value (absent: `fallback`); nullopt when it is given and unknown.
std::optional<std::optional<double>> optional_scalar(const OpContext& ctx, size_t i, std::optional<double> fallback) {
    if (!ctx.has_input(i)) return std::optional<std::optional<double>>(fallback);
    const auto v = elementwise::input_reals(ctx, i);
    if (!v || v->size() != 1) return std::nullopt;
    return std::optional<std::optional<double>>(v->front());
}

// How many boxes the op selects from known f32 boxes and scores and known limits; nullopt when something
// it needs is unknown.
std::optional<int64_t> nms_selected_count(OpContext& ctx) {
    if (ctx.type(0) != ElementType::f32 || ctx.type(1) != ElementType::f32) return std::nullopt;
    const auto center_point = ctx.attr_int("center_point_box", 0);
    const auto boxes = tensor::known_tensor(ctx, 0), scores = tensor::known_tensor(ctx, 1);
    const auto max_per_class = optional_scalar(ctx, 2, 0.0), iou = optional_scalar(ctx, 3, 0.0);
    const auto score_threshold = optional_scalar(ctx, 4, std::nullopt);
    if (!center_point || !boxes || !scores || !max_per_class || !iou || !score_threshold) return std::nullopt;
    const auto &bd = boxes->dims, &sd = scores->dims;
    if (bd.size() != 3 || sd.size() != 3 || bd[2] != 4 || bd[0] != sd[0] || bd[1] != sd[2]) return std::nullopt;
    const auto limit = static_cast<size_t>(std::max(0.0, **max_per_class));
    const auto n = static_cast<size_t>(bd[1]);
    int64_t count = 0;
    for (size_t b = 0; b < static_cast<size_t>(bd[0]); ++b)
        for (size_t c = 0; c < static_cast<size_t>(sd[1]); ++c) {
            std::vector<std::pair<float, size_t>> candidates;  // score, box index
            for (size_t k = 0; k < n; ++k) {
                const auto score = static_cast<float>(scores->values[(b * static_cast<size_t>(sd[1]) + c) * n + k]);
                if (!*score_threshold || score > static_cast<float>(**score_threshold)) candidates.emplace_back(score, k);
            }
            // Highest score first; of equal scores the lower index.
            std::stable_sort(candidates.begin(), candidates.end(),
                             [](const auto& x, const auto& y) { return x.first > y.first; });
            std::vector<Box> kept;
            for (const auto& [score, k] : candidates) {
                if (kept.size() >= limit) break;
                const Box box = box_at(boxes->values, (b * n + k) * 4, *center_point == 1);
                if (std::none_of(kept.begin(), kept.end(),
                                 [&](const Box& s) { return suppresses(box, s, static_cast<float>(**iou)); }))
                    kept.push_back(box);
            }
            count += static_cast<int64_t>(kept.size());
        }
    return count;
}

void infer_non_max_suppression(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 5)) return;
    if (const auto count = nms_selected_count(ctx)) {
        out.push_back(tensor(Shape{false, {Dim(*count), Dim(3)}}, ElementType::i64));
        return;
    }
    const Shape& boxes = ctx.shape(0);
    const Shape& scores = ctx.shape(1);
    Dim selected = Dim::dynamic();
    if (!boxes.rank_dynamic && !scores.rank_dynamic && boxes.rank() == 3 && scores.rank() == 3) {
        const Dim spatial = boxes.dims[1];
        Dim per_class = spatial;
        if (!ctx.has_input(2))
            per_class = Dim(0);  // no max_output_boxes_per_class: no box is selected
        else if (const auto m = single_exact(ctx, 2); m && spatial.has_upper_bound())
            per_class = Dim(std::clamp<int64_t>(*m, 0, spatial.max()));
        const Dim batches = Dim::merge(boxes.dims[0], scores.dims[0]).value_or(boxes.dims[0]);
        const Dim bound = batches * scores.dims[1] * per_class;
        if (bound.has_upper_bound()) selected = Dim(0, bound.max());
    }
    out.push_back(tensor(Shape{false, {selected, Dim(3)}}, ElementType::i64));
}

// RoiAlign: [num_rois, C, output_height, output_width] in X's type.
void infer_roi_align(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const int v = ctx.version();
    if (!takes_float(ctx, 0, "X", v >= 22) || !takes(ctx, 2, {ElementType::i64}, "batch_indices")) return;
    if (!rank_is(ctx, 0, 4, "X") || !rank_is(ctx, 1, 2, "rois") || !rank_is(ctx, 2, 1, "batch_indices")) return;
    const auto height = ctx.attr_int("output_height", 1);
    const auto width = ctx.attr_int("output_width", 1);
    if (!height || !width) return;
    if (*height < 1 || *width < 1)
        return ctx.invalid_attribute(fmt::format("output_height {} and output_width {} must be >= 1", *height, *width));
    if (v >= 16) {
        static constexpr std::string_view kModes[] = {"half_pixel", "output_half_pixel"};
        if (!ctx.attr_enum("coordinate_transformation_mode", kModes, "half_pixel")) return;
    }
    static constexpr std::string_view kPooling[] = {"avg", "max"};
    if (!ctx.attr_enum("mode", kPooling, "avg")) return;
    const auto rois = Dim::merge(dim_or_dynamic(ctx.shape(1), 0), dim_or_dynamic(ctx.shape(2), 0));
    if (!rois)
        return ctx.invalid_input(fmt::format("rois {} and batch_indices {} disagree on the number of rois",
                                             ctx.shape(1).str(), ctx.shape(2).str()));
    if (!ctx.shape(1).rank_dynamic && ctx.shape(1).dims[1].is_static() && ctx.shape(1).dims[1].length() != 4)
        return ctx.invalid_input(fmt::format("rois' second dim is {}; it must be 4", ctx.shape(1).dims[1].length()));
    out.push_back(
        tensor(Shape{false, {*rois, dim_or_dynamic(ctx.shape(0), 1), Dim(*height), Dim(*width)}}, ctx.type(0)));
}

// ---------------------------------------------------------------- signal

// DFT: the input's dims with the last one 2 (complex), or 1 for an inverse one-sided transform (irfft); along
// the axis, dft_length (onesided: dft_length/2 + 1), or the one-sided size of the axis' own length.
void infer_dft(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 3)) return;
    const int v = ctx.version();
    if (!takes_float(ctx, 0, "input")) return;
    const auto onesided = ctx.attr_int("onesided", 0);
    const auto inverse = ctx.attr_int("inverse", 0);
    if (!onesided || !inverse) return;
    const Shape& input = ctx.shape(0);
    if (!rank_at_least(ctx, 0, 2, "input")) return;
    if (input.rank_dynamic) return out.push_back(tensor(input, ctx.type(0)));
    const auto rank = static_cast<int64_t>(input.rank());
    const Dim& last = input.dims.back();
    const int64_t wanted_last = *inverse ? 2 : 1;
    if (*onesided && last.is_static() && last.length() != wanted_last)
        return ctx.invalid_input(fmt::format("a {}one-sided DFT takes a last dim of {}; the input's is {}",
                                             *inverse ? "inverse " : "", wanted_last, last.length()));
    const bool irfft = *onesided && *inverse;
    Shape shape = input;
    shape.dims.back() = Dim(irfft ? 1 : 2);
    std::optional<int64_t> axis;
    if (v < 20) {
        axis = ctx.attr_int("axis", 1);
        if (!axis) return;
    } else if (!ctx.has_input(2)) {
        axis = -2;
    } else {
        axis = single_exact(ctx, 2);
        if (!axis) {
            // Without the axis, the transformed dim is not known; ONNX keeps the other dims only when neither
            // onesided nor dft_length changes a dim.
            if (*onesided || ctx.has_input(1)) {
                shape = dynamic_dims(input.rank());
                shape.dims.back() = Dim(irfft ? 1 : 2);
            }
            ctx.value_unknown("DFT's axis (input 2) is unknown");
            return out.push_back(tensor(shape, ctx.type(0)));
        }
    }
    if (*axis < -rank || *axis == -1 || *axis >= rank - 1)
        return ctx.invalid_input(fmt::format("axis {} is out of range [{}, {}] (and not -1) for an input of rank {}",
                                             *axis, -rank, rank - 2, rank));
    Dim& dim = shape.dims[static_cast<size_t>(*axis < 0 ? *axis + rank : *axis)];
    if (ctx.has_input(1)) {
        const Dim length = length_from_value(ctx, 1, "dft_length");
        if (length.is_static())
            dim = *onesided && !*inverse ? Dim(length.length() / 2 + 1) : length;
        else
            dim = Dim::dynamic();
    } else if (*onesided) {
        if (!dim.is_static())
            dim = Dim::dynamic();
        else
            dim = *inverse ? Dim(std::max<int64_t>(0, 2 * (dim.length() - 1))) : Dim(dim.length() / 2 + 1);
    }
    out.push_back(tensor(std::move(shape), ctx.type(0)));
}

// STFT: [batch, frames, bins, 2] with frames = (signal_length - frame_length) / frame_step + 1 and bins
// frame_length / 2 + 1 when onesided (the schema's default), frame_length otherwise; frame_length is the
// input's, or the window's length.
void infer_stft(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 4)) return;
    if (!takes_float(ctx, 0, "signal") || !rank_at_least(ctx, 0, 2, "signal")) return;
    const auto onesided = ctx.attr_int("onesided", 1);
    if (!onesided) return;
    const Shape& signal = ctx.shape(0);
    const bool has_window = ctx.has_input(2);
    if (has_window && !rank_is(ctx, 2, 1, "window")) return;
    Dim frame_length = has_window ? dim_or_dynamic(ctx.shape(2), 0) : Dim::dynamic();
    if (ctx.has_input(3)) {
        const Dim given = length_from_value(ctx, 3, "frame_length");
        const auto both = Dim::merge(frame_length, given);
        if (!both)
            return ctx.invalid_input(
                fmt::format("the window's length {} is not frame_length {}", frame_length.str(), given.str()));
        frame_length = *both;
    } else if (!has_window) {
        ctx.value_unknown("STFT has neither a window nor a frame_length: the frame length is unknown");
    }
    const auto step = single_exact(ctx, 1);
    if (!step) ctx.value_unknown("STFT's frame_step (input 1) is unknown");
    if (step && *step < 1) return ctx.invalid_input(fmt::format("frame_step {} must be >= 1", *step));
    const Dim length = dim_or_dynamic(signal, 1);
    Dim frames = Dim::dynamic();
    Dim bins = Dim::dynamic();
    if (frame_length.is_static()) {
        bins = *onesided ? Dim(frame_length.length() / 2 + 1) : frame_length;
        if (step && length.is_static()) {
            if (frame_length.length() > length.length())
                return ctx.invalid_input(fmt::format("the frame length {} exceeds the signal's length {}",
                                                     frame_length.length(), length.length()));
            frames = Dim((length.length() - frame_length.length()) / *step + 1);
        }
    }
    out.push_back(tensor(Shape{false, {dim_or_dynamic(signal, 0), frames, bins, Dim(2)}}, ctx.type(0)));
}

// HannWindow, HammingWindow, BlackmanWindow: [size] of output_datatype (f32 by default).
void infer_window(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes(ctx, 0, {ElementType::i32, ElementType::i64}, "size") || !rank_is(ctx, 0, 0, "size")) return;
    const auto type = dtype_attr(ctx, "output_datatype", 1);
    if (ctx.failed()) return;
    const auto size = single_exact(ctx, 0);
    if (size && *size <= 0) return ctx.invalid_input(fmt::format("size {} must be > 0", *size));
    if (!size) ctx.value_unknown("the window's size (input 0) is unknown");
    out.push_back(tensor(Shape{false, {size ? Dim(*size) : Dim::dynamic()}}, type));
}

// MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins] of output_datatype (f32 by default).
void infer_mel_weight_matrix(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5)) return;
    const auto type = dtype_attr(ctx, "output_datatype", 1);
    if (ctx.failed()) return;
    const Dim bins = length_from_value(ctx, 0, "num_mel_bins");
    const Dim dft = length_from_value(ctx, 1, "dft_length");
    if (ctx.failed()) return;
    out.push_back(tensor(Shape{false, {dft.is_static() ? Dim(dft.length() / 2 + 1) : Dim::dynamic(), bins}}, type));
}

// ---------------------------------------------------------------- random

// A random op's dtype must be a float type (bf16 from 22 on).
bool float_dtype(OpContext& ctx, std::optional<ElementType> type) {
    if (!type) return true;
    const bool ok = *type == ElementType::f16 || *type == ElementType::f32 || *type == ElementType::f64 ||
                    (*type == ElementType::bf16 && ctx.version() >= 22);
    if (!ok)
        ctx.invalid_attribute(fmt::format("dtype {} is not a float type the schema takes", element_type_name(*type)));
    return ok;
}

// RandomNormal, RandomUniform: the shape attribute's dims, of dtype (f32 by default).
void infer_random_from_shape(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(0)) return;
    const auto dims = ctx.attr_ints("shape");
    const auto type = dtype_attr(ctx, "dtype", 1);
    if (!dims || ctx.failed() || !float_dtype(ctx, type)) return;
    for (const int64_t d : *dims)
        if (d < 0) return ctx.invalid_attribute(fmt::format("shape has a negative dim {}", d));
    out.push_back(tensor(static_shape(*dims), type));
}

// RandomNormalLike, RandomUniformLike: the input's dims, of dtype or the input's type.
void infer_random_like(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    std::optional<ElementType> type = ctx.type(0);
    if (ctx.attr("dtype")) type = dtype_attr(ctx, "dtype", 1);
    if (ctx.failed() || !float_dtype(ctx, type)) return;
    out.push_back(tensor(ctx.shape(0), type));
}

// Bernoulli: the input's dims (probabilities, a float type), of dtype or the input's type.
void infer_bernoulli(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes_float(ctx, 0, "input", ctx.version() >= 22)) return;
    std::optional<ElementType> type = ctx.type(0);
    if (ctx.attr("dtype")) type = dtype_attr(ctx, "dtype", 1);
    if (ctx.failed()) return;
    using E = ElementType;
    static constexpr ElementType kOutputs[] = {E::f16, E::f32, E::f64, E::bf16, E::u8,  E::u16,    E::u32,
                                               E::u64, E::i8,  E::i16, E::i32,  E::i64, E::boolean};
    if (type && std::find(std::begin(kOutputs), std::end(kOutputs), *type) == std::end(kOutputs))
        return ctx.invalid_attribute(
            fmt::format("dtype {} is not a numeric or bool type the schema takes", element_type_name(*type)));
    out.push_back(tensor(ctx.shape(0), type));
}

// Multinomial: [batch_size, sample_size] of dtype (i32 by default).
void infer_multinomial(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes_float(ctx, 0, "input", ctx.version() >= 22) || !rank_is(ctx, 0, 2, "input")) return;
    const auto samples = ctx.attr_int("sample_size", 1);
    const auto type = dtype_attr(ctx, "dtype", 6);
    if (!samples || ctx.failed()) return;
    if (type && *type != ElementType::i32 && *type != ElementType::i64)
        return ctx.invalid_attribute(fmt::format("dtype {} is not int32 or int64", element_type_name(*type)));
    if (*samples < 1) return ctx.invalid_attribute(fmt::format("sample_size {} must be >= 1", *samples));
    out.push_back(tensor(Shape{false, {dim_or_dynamic(ctx.shape(0), 0), Dim(*samples)}}, type));
}

// ---------------------------------------------------------------- strings

// StringNormalizer: [C] or [1, C]; stopwords may drop elements, so the kept count is at most C (ONNX leaves it
// open, and keeps C when there are no stopwords).
void infer_string_normalizer(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes(ctx, 0, {ElementType::string}, "X")) return;
    static constexpr std::string_view kActions[] = {"NONE", "LOWER", "UPPER"};
    if (!ctx.attr_enum("case_change_action", kActions, "NONE")) return;
    const Shape& x = ctx.shape(0);
    if (x.rank_dynamic) return out.push_back(tensor(x, ElementType::string));
    if (x.rank() != 1 && !(x.rank() == 2 && Dim::merge(x.dims[0], Dim(1))))
        return ctx.invalid_input(fmt::format("X is {}; it must be [C] or [1, C]", x.str()));
    const std::string_view* stopwords = ctx.attr("stopwords");
    Dim kept = x.dims.back();
    if (stopwords && !stopwords->empty()) kept = kept.has_upper_bound() ? Dim(0, kept.max()) : Dim::dynamic();
    Shape shape = x;
    shape.dims.back() = kept;
    if (x.rank() == 2) shape.dims[0] = Dim(1);
    out.push_back(tensor(std::move(shape), ElementType::string));
}

// TfIdfVectorizer: [max(ngram_indexes) + 1] or [N, max(ngram_indexes) + 1] of f32.
void infer_tfidf_vectorizer(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes(ctx, 0, {ElementType::string, ElementType::i32, ElementType::i64}, "X")) return;
    const auto indexes = ctx.attr_ints("ngram_indexes");
    if (!indexes) return;
    if (indexes->empty()) return ctx.invalid_attribute("ngram_indexes is empty");
    const int64_t top = *std::max_element(indexes->begin(), indexes->end());
    if (*std::min_element(indexes->begin(), indexes->end()) < 0)
        return ctx.invalid_attribute("ngram_indexes holds a negative index");
    const Shape& x = ctx.shape(0);
    if (x.rank_dynamic) return out.push_back(tensor(Shape::dynamic_rank(), ElementType::f32));
    if (x.rank() == 0 || x.rank() > 2)
        return ctx.invalid_input(fmt::format("X has rank {}; it must be 1 or 2", x.rank()));
    Shape shape;
    if (x.rank() == 2) shape.dims.push_back(x.dims[0]);
    shape.dims.push_back(Dim(top + 1));
    out.push_back(tensor(std::move(shape), ElementType::f32));
}

void infer_regex_full_match(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes(ctx, 0, {ElementType::string}, "X")) return;
    out.push_back(tensor(ctx.shape(0), ElementType::boolean));
}

// StringSplit: the substrings, [X's dims, the most substrings of an element] (the last dim depends on the
// data), and the count of each element's substrings, X's dims, i64.
void infer_string_split(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes(ctx, 0, {ElementType::string}, "X")) return;
    if (ctx.attr_int("maxsplit", 0).value_or(0) < 0 && ctx.attr("maxsplit"))
        return ctx.invalid_attribute("maxsplit must be >= 0");
    Shape parts = ctx.shape(0);
    if (!parts.rank_dynamic) parts.dims.push_back(Dim::dynamic());
    out.push_back(tensor(std::move(parts), ElementType::string));
    out.push_back(tensor(ctx.shape(0), ElementType::i64));
}

// StringConcat: numpy broadcasting, as the arithmetic ops.
void infer_string_concat(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!takes(ctx, 0, {ElementType::string}, "X") || !takes(ctx, 1, {ElementType::string}, "Y")) return;
    std::string error;
    const auto shape = broadcast_shapes(ctx.shape(0), ctx.shape(1), BroadcastKind::numpy, -1, &error);
    if (!shape) return ctx.invalid_input(fmt::format("{}", error));
    out.push_back(tensor(*shape, ElementType::string));
}

// ImageDecoder: [H, W, channels] u8; the height and width are the image's, channels 1 for Grayscale.
void infer_image_decoder(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes(ctx, 0, {ElementType::u8}, "encoded_stream") || !rank_is(ctx, 0, 1, "encoded_stream")) return;
    static constexpr std::string_view kFormats[] = {"RGB", "BGR", "Grayscale"};
    const auto format = ctx.attr_enum("pixel_format", kFormats, "RGB");
    if (!format) return;
    ctx.value_unknown("ImageDecoder's height and width are the encoded image's");
    out.push_back(
        tensor(Shape{false, {Dim::dynamic(), Dim::dynamic(), Dim(*format == "Grayscale" ? 1 : 3)}}, ElementType::u8));
}

// ---------------------------------------------------------------- math and losses

// Det: [*, M, M] -> [*].
void infer_det(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (!takes_float(ctx, 0, "X", ctx.version() >= 22) || !rank_at_least(ctx, 0, 2, "X")) return;
    const Shape& x = ctx.shape(0);
    if (x.rank_dynamic) return out.push_back(tensor(x, ctx.type(0)));
    const size_t r = x.rank();
    if (!Dim::merge(x.dims[r - 2], x.dims[r - 1]))
        return ctx.invalid_input(fmt::format("X is {}; its last two dims must be equal", x.str()));
    Shape shape = x;
    shape.dims.resize(r - 2);
    out.push_back(tensor(std::move(shape), ctx.type(0)));
}

// What a loss reduces to: none keeps [N, d1, ..., dk] (the input's dims without the class dim), mean and sum
// give a scalar.
std::optional<Shape> loss_shape(OpContext& ctx, const Shape& input, const Shape& target) {
    static constexpr std::string_view kReductions[] = {"none", "sum", "mean"};
    const auto reduction = ctx.attr_enum("reduction", kReductions, "mean");
    if (!reduction) return std::nullopt;
    if (!input.rank_dynamic && !target.rank_dynamic) {
        if (target.rank() + 1 != input.rank()) {
            ctx.invalid_input(
                fmt::format("the target's rank {} must be the input's {} minus 1", target.rank(), input.rank()));
            return std::nullopt;
        }
        for (size_t i = 0; i < target.rank(); ++i)
            if (!Dim::merge(target.dims[i], input.dims[i == 0 ? 0 : i + 1])) {
                ctx.invalid_input(
                    fmt::format("the target {} does not match the input {} (its dims without the class dim)",
                                target.str(), input.str()));
                return std::nullopt;
            }
    }
    if (*reduction != "none") return Shape{};
    if (input.rank_dynamic) {
        if (target.rank_dynamic) return Shape::dynamic_rank();
        return target;
    }
    Shape shape = input;
    shape.dims.erase(shape.dims.begin() + 1);
    return shape;
}

// NegativeLogLikelihoodLoss: input [N, C, d1..dk], target [N, d1..dk], optional weight [C].
void infer_nll_loss(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!takes_float(ctx, 0, "input", ctx.version() >= 22) ||
        !takes(ctx, 1, {ElementType::i32, ElementType::i64}, "target"))
        return;
    if (!rank_at_least(ctx, 0, 2, "input")) return;
    if (ctx.has_input(2) && !rank_is(ctx, 2, 1, "weight")) return;
    const auto shape = loss_shape(ctx, ctx.shape(0), ctx.shape(1));
    if (!shape) return;
    out.push_back(tensor(*shape, ctx.type(0)));
}

// SoftmaxCrossEntropyLoss: the loss, and log_prob with the scores' dims.
void infer_softmax_cross_entropy_loss(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!takes_float(ctx, 0, "scores", ctx.version() >= 13) ||
        !takes(ctx, 1, {ElementType::i32, ElementType::i64}, "labels"))
        return;
    if (!rank_at_least(ctx, 0, 2, "scores")) return;
    if (ctx.has_input(2) && !rank_is(ctx, 2, 1, "weights")) return;
    const auto shape = loss_shape(ctx, ctx.shape(0), ctx.shape(1));
    if (!shape) return;
    out.push_back(tensor(*shape, ctx.type(0)));
    out.push_back(tensor(ctx.shape(0), ctx.type(0)));
}

// ---------------------------------------------------------------- the table

constexpr std::string_view kQuantizeChecks =
    "x type; block_size >= 0; output_dtype a data type, equal to y_zero_point's type";

}  // namespace

std::span<const OpEntry> onnx_misc_ops() {
    static const std::vector<OpEntry> entries = [] {
        std::vector<OpEntry> out;
        for (int v : {10, 13, 19, 21, 23, 24, 25}) {
            out.push_back(onnx_op("QuantizeLinear", v, infer_quantize_linear, "shape, type", kQuantizeChecks));
            out.push_back(onnx_op("DequantizeLinear", v, infer_dequantize_linear, "shape, type",
                                  "x type, equal to x_zero_point's; x_scale type; output_dtype"));
        }
        out.push_back(onnx_op("DynamicQuantizeLinear", 11, infer_dynamic_quantize_linear, "shape, type", "x is f32"));
        for (int v : {10, 11})
            out.push_back(onnx_op("NonMaxSuppression", v, infer_non_max_suppression, "shape (upper bound), type"));
        for (int v : {10, 16, 22})
            out.push_back(onnx_op("RoiAlign", v, infer_roi_align, "shape, type",
                                  "ranks 4, 2, 1; rois agree; output sizes >= 1; modes; types"));
        for (int v : {17, 20})
            out.push_back(onnx_op("DFT", v, infer_dft, "shape, type",
                                  "rank >= 2; axis in range, not the last; one-sided last dim; type"));
        out.push_back(onnx_op("STFT", 17, infer_stft, "shape, type",
                              "signal rank >= 2; window rank 1, its length frame_length; frame_step >= 1"));
        for (const char* w : {"HannWindow", "HammingWindow", "BlackmanWindow"})
            out.push_back(onnx_op(w, 17, infer_window, "shape, type", "size a scalar > 0; output_datatype"));
        out.push_back(onnx_op("MelWeightMatrix", 17, infer_mel_weight_matrix, "shape, type", "output_datatype"));
        for (int v : {1, 22}) {
            for (const char* r : {"RandomNormal", "RandomUniform"})
                out.push_back(onnx_op(r, v, infer_random_from_shape, "shape, type",
                                      "shape given, dims >= 0; dtype a float type"));
            for (const char* r : {"RandomNormalLike", "RandomUniformLike"})
                out.push_back(onnx_op(r, v, infer_random_like, "shape, type", "dtype a float type"));
            out.push_back(onnx_op("Multinomial", v == 1 ? 7 : v, infer_multinomial, "shape, type",
                                  "input rank 2; sample_size >= 1; dtype int32 or int64"));
        }
        for (int v : {15, 22})
            out.push_back(onnx_op("Bernoulli", v, infer_bernoulli, "shape, type", "input type; dtype"));
        out.push_back(onnx_op("StringNormalizer", 10, infer_string_normalizer, "shape (upper bound), type",
                              "X [C] or [1, C] of strings; case_change_action"));
        out.push_back(onnx_op("TfIdfVectorizer", 9, infer_tfidf_vectorizer, "shape, type",
                              "X rank 1 or 2; ngram_indexes given, >= 0"));
        out.push_back(onnx_op("RegexFullMatch", 20, infer_regex_full_match, "shape, type", "X strings"));
        out.push_back(onnx_op("StringSplit", 20, infer_string_split, "shape, type", "X strings; maxsplit >= 0"));
        out.push_back(onnx_op("StringConcat", 20, infer_string_concat, "shape, type", "strings; broadcastable"));
        out.push_back(onnx_op("ImageDecoder", 20, infer_image_decoder, "shape (channels), type",
                              "encoded_stream u8 rank 1; pixel_format"));
        for (int v : {11, 22}) out.push_back(onnx_op("Det", v, infer_det, "shape, type", "rank >= 2, square; type"));
        for (int v : {12, 13, 22})
            out.push_back(onnx_op("NegativeLogLikelihoodLoss", v, infer_nll_loss, "shape, type",
                                  "target rank = input rank - 1, matching dims; weight rank 1; reduction; types"));
        for (int v : {12, 13})
            out.push_back(onnx_op("SoftmaxCrossEntropyLoss", v, infer_softmax_cross_entropy_loss, "shape, type",
                                  "labels rank = scores rank - 1, matching dims; weights rank 1; reduction; types"));
        return out;
    }();
    return entries;
}

}  // namespace irlint
