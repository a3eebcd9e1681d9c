// Ops of OpenVINO's opsets 1-17 that no other family holds, as their shape inference (the
// *_shape_inference.hpp of each) infers and checks them:
// - the colour conversions NV12toRGB/BGR, I420toRGB/BGR, RGBtoNV12/BGRtoNV12;
// - GridSample and GroupNormalization;
// - the generators whose dims are input values: Eye, RandomUniform, Multinomial;
// - the Fourier transforms DFT, IDFT, RDFT, IRDFT, STFT, ISTFT;
// - ReverseSequence, CTCLoss, SearchSorted, Inverse, the string, segment and sparse ops of opsets 15-16;
// - the ops whose output is their data input's shape: Identity, FakeConvert, SliceScatter, MOE.

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>

#include "rules/ops/detection_util.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint {

namespace {

using detection::dim_at;
using shape_ops::dynamic_dims;
using detection::ov_dim;
using detection::rank_is;

// Some length of the interval is a multiple of k (OpenVINO's dim::is_divisible).
bool may_divide(const Dim& d, int64_t k) {
    if (!d.has_upper_bound()) return true;
    const int64_t first = (d.min() + k - 1) / k * k;
    return first <= d.max();
}

// A scalar or a one-element 1-D input (RandomUniform's min and max, Multinomial's sample count).
bool scalar_or_one(const Shape& s) {
    return s.rank_dynamic || s.rank() == 0 || (s.rank() == 1 && s.dims[0].compatible(Dim(1)));
}

// ---------------------------------------------------------------- NV12toRGB/BGR, I420toRGB/BGR

// Y [N,H,W,1] (single plane: [N,H*3/2,W,1]); the output is [N,H,W,3] of Y's type.
bool y_plane(OpContext& ctx, Shape& out) {
    const Shape& y = ctx.shape(0);
    if (!rank_is(y, 4)) {
        ctx.invalid_input(fmt::format("Y input shall have 4 dimensions (N, H, W, C); it is {}", y.str()));
        return false;
    }
    if (!y.rank_dynamic && !y.dims[3].compatible(Dim(1))) {
        ctx.invalid_input(fmt::format("Y input number of channels should be equal to 1; it is {}", y.str()));
        return false;
    }
    out = y.rank_dynamic ? dynamic_dims(4) : y;
    return true;
}

// A chroma plane at half the luma's height and width, `channels` deep, merged into the output.
bool merge_chroma(OpContext& ctx, Shape& out, const Shape& chroma, int64_t channels, std::string_view name) {
    if (chroma.rank_dynamic) return true;
    if (chroma.rank() != 4 || !chroma.dims[3].compatible(Dim(channels))) {
        ctx.invalid_input(fmt::format("{} input must be [N,H/2,W/2,{}]; it is {}", name, channels, chroma.str()));
        return false;
    }
    const std::array<Dim, 3> full{chroma.dims[0], chroma.dims[1] * Dim(2), chroma.dims[2] * Dim(2)};
    for (size_t i = 0; i < full.size(); ++i) {
        const auto merged = Dim::merge(out.dims[i], full[i]);
        if (!merged) {
            ctx.invalid_input(fmt::format("Y shape {} is inconsistent with {} {}", ctx.shape(0).str(), name,
                                          chroma.str()));
            return false;
        }
        out.dims[i] = *merged;
    }
    return true;
}

bool single_plane_height(OpContext& ctx, Shape& out) {
    const Dim h = (out.dims[1] * Dim(2)).divided_by(3);
    if (h.is_empty() || h.min() > h.max()) {
        ctx.invalid_input(fmt::format("image height {} shall be divisible by 3 (a single plane is H*3/2 high)",
                                      out.dims[1].str()));
        return false;
    }
    out.dims[1] = h;
    return true;
}

void finish_color_conversion(OpContext& ctx, Shape& out, std::vector<OpOutput>& result) {
    out.dims[3] = Dim(3);
    if (!may_divide(out.dims[1], 2)) return ctx.invalid_input(fmt::format("image height {} must be even", out.dims[1].str()));
    if (!may_divide(out.dims[2], 2)) return ctx.invalid_input(fmt::format("image width {} must be even", out.dims[2].str()));
    result.push_back({out, ctx.type(0), {}, {}});
}

void infer_nv12(OpContext& ctx, std::vector<OpOutput>& result) {
    if (!ctx.expect_inputs(1, 2)) return;
    Shape out;
    if (!y_plane(ctx, out)) return;
    if (ctx.input_count() == 1 ? !single_plane_height(ctx, out) : !merge_chroma(ctx, out, ctx.shape(1), 2, "UV"))
        return;
    finish_color_conversion(ctx, out, result);
}

void infer_i420(OpContext& ctx, std::vector<OpOutput>& result) {
    if (ctx.input_count() == 2)
        return ctx.invalid_input("I420 takes one plane (Y) or three (Y, U, V), not 2 inputs");
    if (!ctx.expect_inputs(1, 3)) return;
    Shape out;
    if (!y_plane(ctx, out)) return;
    if (ctx.input_count() == 1) {
        if (!single_plane_height(ctx, out)) return;
    } else if (!merge_chroma(ctx, out, ctx.shape(1), 1, "U") || !merge_chroma(ctx, out, ctx.shape(2), 1, "V")) {
        return;
    }
    finish_color_conversion(ctx, out, result);
}

// RGBtoNV12, BGRtoNV12 (17): [N,H,W,3] to one plane [N,H*3/2,W,1] or to Y [N,H,W,1] and UV [N,H/2,W/2,2].
void infer_to_nv12(OpContext& ctx, std::vector<OpOutput>& result) {
    if (!ctx.expect_inputs(1)) return;
    const auto single = ctx.attr_bool("single_plane", true);
    if (!single) return;
    const Shape& image = ctx.shape(0);
    if (!rank_is(image, 4) || (!image.rank_dynamic && !image.dims[3].compatible(Dim(3))))
        return ctx.invalid_input(fmt::format("the image {} must be [N,H,W,3]", image.str()));
    const Shape in = image.rank_dynamic ? dynamic_dims(4) : image;
    if (!may_divide(in.dims[1], 2)) return ctx.invalid_input(fmt::format("image height {} must be even", in.dims[1].str()));
    if (!may_divide(in.dims[2], 2)) return ctx.invalid_input(fmt::format("image width {} must be even", in.dims[2].str()));
    if (*single) {
        result.push_back({Shape{false, {in.dims[0], (in.dims[1] * Dim(3)).divided_by(2), in.dims[2], Dim(1)}},
                          ctx.type(0), {}, {}});
        return;
    }
    result.push_back({Shape{false, {in.dims[0], in.dims[1], in.dims[2], Dim(1)}}, ctx.type(0), {}, {}});
    result.push_back({Shape{false, {in.dims[0], in.dims[1].divided_by(2), in.dims[2].divided_by(2), Dim(2)}},
                      ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- GridSample

void infer_grid_sample(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array<std::string_view, 3> kModes{"bilinear", "bicubic", "nearest"};
    static constexpr std::array<std::string_view, 3> kPadding{"zeros", "border", "reflection"};
    if (!ctx.attr_bool("align_corners", false) || !ctx.attr_enum("mode", kModes, "bilinear") ||
        !ctx.attr_enum("padding_mode", kPadding, "zeros"))
        return;
    const Shape &data = ctx.shape(0), &grid = ctx.shape(1);
    if (!rank_is(data, 4)) return ctx.invalid_input(fmt::format("the data {} must be 4-D", data.str()));
    if (!rank_is(grid, 4)) return ctx.invalid_input(fmt::format("the grid {} must be 4-D", grid.str()));
    Shape o = dynamic_dims(4);
    if (!data.rank_dynamic) o.dims[1] = data.dims[1];
    if (!grid.rank_dynamic) {
        if (!grid.dims[3].compatible(Dim(2)))
            return ctx.invalid_input(fmt::format("the grid's last dim must be 2; the grid is {}", grid.str()));
        o.dims[2] = grid.dims[1];
        o.dims[3] = grid.dims[2];
    }
    const auto batch = Dim::merge(dim_at(data, 0), dim_at(grid, 0));
    if (!batch)
        return ctx.invalid_input(fmt::format("the data's batch {} differs from the grid's {}", data.dims[0].str(),
                                             grid.dims[0].str()));
    o.dims[0] = *batch;
    out.push_back({o, ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- GroupNormalization

void infer_group_normalization(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const auto groups = ctx.attr_int("num_groups");
    if (!groups || !ctx.attr_float("epsilon", 0.0)) return;
    if (*groups <= 0) return ctx.invalid_attribute(fmt::format("num_groups={} must be a positive integer", *groups));
    const Shape &data = ctx.shape(0), &scale = ctx.shape(1), &bias = ctx.shape(2);
    if (!rank_is(scale, 1)) return ctx.invalid_input(fmt::format("the scale {} must be 1-D", scale.str()));
    if (!rank_is(bias, 1)) return ctx.invalid_input(fmt::format("the bias {} must be 1-D", bias.str()));
    if (!data.rank_dynamic) {
        if (data.rank() < 2) return ctx.invalid_input(fmt::format("the data {} must be at least 2-D", data.str()));
        const Dim& channels = data.dims[1];
        if (!dim_at(scale, 0).compatible(channels) || !dim_at(bias, 0).compatible(channels))
            return ctx.invalid_input(fmt::format("scale {} and bias {} must have the data's {} channels", scale.str(),
                                                 bias.str(), channels.str()));
        if (channels.is_static() && (*groups > channels.length() || channels.length() % *groups != 0))
            return ctx.invalid_input(fmt::format("the {} channels are not divisible into num_groups={} groups",
                                                 channels.length(), *groups));
    }
    if (!scale.compatible(bias))
        return ctx.invalid_input(fmt::format("the scale {} and the bias {} must have one shape", scale.str(), bias.str()));
    out.push_back({data, ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- Eye, RandomUniform, Multinomial

// A non-negative count given as a scalar or a one-element 1-D input (Eye's rows and columns).
std::optional<Dim> count_input(OpContext& ctx, size_t i, std::string_view name) {
    const Shape& s = ctx.shape(i);
    const auto v = ctx.exact_values(i);
    std::string problem;
    if (!s.rank_dynamic && s.rank() > 1)
        problem = fmt::format("'{}' must be a scalar or 1-D; it is {}", name, s.str());
    else if (v && v->size() != 1)
        problem = fmt::format("'{}' must have one value, it has {}", name, v->size());
    else if (v && (*v)[0] < 0)
        problem = fmt::format("'{}' must be non-negative, it is {}", name, (*v)[0]);
    if (!problem.empty()) {
        ctx.invalid_input(std::move(problem));
        return std::nullopt;
    }
    return v ? Dim((*v)[0]) : Dim::dynamic();
}

void infer_eye(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 4)) return;
    const auto type = ctx.attr_type("output_type");
    const auto rows = count_input(ctx, 0, "num_rows");
    const auto columns = count_input(ctx, 1, "num_columns");
    if (!type || !rows || !columns) return;
    if (!scalar_or_one(ctx.shape(2)))
        return ctx.invalid_input(fmt::format("'diagonal_index' must be a scalar or 1-D of one; it is {}",
                                             ctx.shape(2).str()));
    OpOutput o{Shape{false, {*rows, *columns}}, type, {}, {}};
    if (ctx.input_count() == 4) {
        const Shape& batch = ctx.shape(3);
        if (!rank_is(batch, 1)) return ctx.invalid_input(fmt::format("'batch_shape' {} must be 1-D", batch.str()));
        if (!batch.is_static() || batch.dims[0].length() > static_cast<int64_t>(kMaxShapeRank)) {
            o.shape = Shape::dynamic_rank();
        } else {
            Shape dims = dynamic_dims(static_cast<size_t>(batch.dims[0].length()));
            if (const auto v = ctx.exact_values(3)) {
                for (size_t i = 0; i < v->size() && i < dims.rank(); ++i) {
                    if ((*v)[i] < 0)
                        return ctx.invalid_input(fmt::format("'batch_shape' must be non-negative, it has {}", (*v)[i]));
                    dims.dims[i] = Dim((*v)[i]);
                }
            } else {
                ctx.value_unknown("the batch shape (input 3) is not known");
            }
            dims.dims.insert(dims.dims.end(), o.shape.dims.begin(), o.shape.dims.end());
            o.shape = dims;
        }
    }
    if (!ctx.exact_values(0) || !ctx.exact_values(1)) ctx.value_unknown("the number of rows or columns is not known");
    out.push_back(std::move(o));
}

// The output's dims are input 0's values; unknown, as many dynamic dims as input 0 has elements.
Shape shape_from_input(OpContext& ctx, size_t i, std::string_view what) {
    const Shape& s = ctx.shape(i);
    if (auto known = shape_ops::target_from_values(ctx, i)) return *known;
    ctx.value_unknown(fmt::format("{} (input {}) is not known", what, i));
    if (!s.rank_dynamic && s.rank() == 1 && s.dims[0].has_upper_bound() &&
        s.dims[0].max() <= static_cast<int64_t>(kMaxShapeRank))
        return dynamic_dims(static_cast<size_t>(s.dims[0].max()));
    return Shape::dynamic_rank();
}

void infer_random_uniform(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const auto type = ctx.attr_type("output_type");
    if (!type || !ctx.attr_int("global_seed", 0) || !ctx.attr_int("op_seed", 0)) return;
    if (!rank_is(ctx.shape(0), 1))
        return ctx.invalid_input(fmt::format("the output shape (input 0) {} must be 1-D", ctx.shape(0).str()));
    for (size_t i = 1; i < 3; ++i)
        if (!scalar_or_one(ctx.shape(i)))
            return ctx.invalid_input(fmt::format("{} value must be a scalar or one element 1D tensor; it is {}",
                                                 i == 1 ? "Min" : "Max", ctx.shape(i).str()));
    const auto *lo = ctx.real_values(1), *hi = ctx.real_values(2);
    if (lo && hi && !lo->empty() && !hi->empty() && !(lo->front() < hi->front()))
        return ctx.invalid_input(fmt::format("Min value must be less than max value; min {}, max {}", lo->front(),
                                             hi->front()));
    out.push_back({shape_from_input(ctx, 0, "the output shape"), type, {}, {}});
}

void infer_multinomial(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto type = ctx.attr_type("convert_type");
    if (!type || !ctx.attr_bool("with_replacement") || !ctx.attr_bool("log_probs")) return;
    const Shape &probs = ctx.shape(0), &samples = ctx.shape(1);
    if (!probs.rank_dynamic && probs.rank() != 1 && probs.rank() != 2)
        return ctx.invalid_input(fmt::format("the probabilities {} must be 1-D or 2-D", probs.str()));
    if (!scalar_or_one(samples))
        return ctx.invalid_input(fmt::format("the number of samples {} must be a scalar or 1-D of one", samples.str()));
    const auto count = ctx.exact_values(1);
    if (count && !count->empty() && (*count)[0] < 0)
        return ctx.invalid_input(fmt::format("the number of samples must be non-negative, it is {}", (*count)[0]));
    const Dim n = count && !count->empty() ? Dim((*count)[0]) : Dim::dynamic();
    if (!count) ctx.value_unknown("the number of samples (input 1) is not known");
    Shape o = Shape::dynamic_rank();
    if (!probs.rank_dynamic && probs.rank() == 1) {
        o = Shape{false, {n}};
    } else if (!probs.rank_dynamic) {
        // OpenVINO reads the batch from input 0's values (not its dims), and then only with the count known.
        const auto batch = ctx.exact_values(0);
        o = batch && !batch->empty() && count ? Shape{false, {Dim((*batch)[0]), n}} : dynamic_dims(2);
    }
    out.push_back({o, type, {}, {}});
}

// ---------------------------------------------------------------- ReverseSequence, CTCLoss, SearchSorted

void infer_reverse_sequence(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto batch_axis = ctx.attr_int("batch_axis", 0);
    const auto seq_axis = ctx.attr_int("seq_axis", 1);
    if (!batch_axis || !seq_axis) return;
    const Shape &data = ctx.shape(0), &lengths = ctx.shape(1);
    if (!data.rank_dynamic && data.rank() < 2)
        return ctx.invalid_input(fmt::format("the data {} must have rank 2 or more", data.str()));
    if (!rank_is(lengths, 1))
        return ctx.invalid_input(fmt::format("sequence lengths {} must be 1-D", lengths.str()));
    Shape o = data;
    if (!data.rank_dynamic) {
        std::string error;
        const auto rank = static_cast<int64_t>(data.rank());
        const auto batch = normalize_axis(*batch_axis, rank, &error);
        if (!batch || !normalize_axis(*seq_axis, rank, &error)) return ctx.invalid_attribute(error);
        if (!lengths.rank_dynamic) {
            const auto merged = Dim::merge(data.dims[*batch], lengths.dims[0]);
            if (!merged)
                return ctx.invalid_input(fmt::format("sequence lengths input size ({}) is not equal to batch axis "
                                                     "dimension of data input ({})",
                                                     lengths.dims[0].str(), data.dims[*batch].str()));
            o.dims[*batch] = *merged;
        }
    }
    out.push_back({o, ctx.type(0), {}, {}});
}

void infer_ctc_loss(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 5)) return;
    if (!ctx.attr_bool("preprocess_collapse_repeated", false) || !ctx.attr_bool("ctc_merge_repeated", true) ||
        !ctx.attr_bool("unique", false))
        return;
    const Shape &logits = ctx.shape(0), &logit_length = ctx.shape(1), &labels = ctx.shape(2),
                &label_length = ctx.shape(3);
    constexpr std::array<size_t, 4> kRanks{3, 1, 2, 1};
    constexpr std::array<std::string_view, 4> kNames{"logits", "logit length", "labels", "label length"};
    if (!detection::inputs_of_ranks(ctx, kRanks, kNames)) return;
    if (ctx.input_count() == 5 && !rank_is(ctx.shape(4), 0))
        return ctx.invalid_input(fmt::format("expected a scalar for blank index; got {}", ctx.shape(4).str()));
    std::optional<Dim> batch = dim_at(logits, 0);
    for (const Shape* s : {&logit_length, &labels, &label_length}) batch = batch ? Dim::merge(*batch, dim_at(*s, 0)) : batch;
    if (!batch)
        return ctx.invalid_input(fmt::format("the batch of logits {}, logit length {}, labels {} and label length {} "
                                             "must be one",
                                             logits.str(), logit_length.str(), labels.str(), label_length.str()));
    if (!dim_at(labels, 1).compatible(dim_at(logits, 1)))
        return ctx.invalid_input(fmt::format("the labels' second dim {} must equal the logits' time steps {}",
                                             dim_at(labels, 1).str(), dim_at(logits, 1).str()));
    out.push_back({Shape{false, {*batch}}, ctx.type(0), {}, {}});
}

void infer_search_sorted(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto type = ctx.attr_type("output_type", ElementType::i64);
    if (!type || !ctx.attr_bool("right_mode", false)) return;
    const Shape &sorted = ctx.shape(0), &values = ctx.shape(1);
    if (!sorted.rank_dynamic && sorted.rank() == 0)
        return ctx.invalid_input("the sorted sequence input cannot be a scalar");
    Shape o = values;
    if (values.rank_dynamic && !sorted.rank_dynamic) {
        o = sorted;
        o.dims.back() = Dim::dynamic();
    }
    if (!values.rank_dynamic && values.rank() == 0 && !(!sorted.rank_dynamic && sorted.rank() == 1))
        return ctx.invalid_input("if the values input is a scalar, the sorted sequence must be 1-D");
    if (!sorted.rank_dynamic && !values.rank_dynamic && sorted.rank() > 1) {
        if (sorted.rank() != values.rank())
            return ctx.invalid_input(fmt::format("the ranks of {} and {} must be equal", sorted.str(), values.str()));
        for (size_t i = 0; i + 1 < sorted.rank(); ++i) {
            const auto merged = Dim::merge(sorted.dims[i], values.dims[i]);
            if (!merged)
                return ctx.invalid_input(fmt::format("all dims but the last must agree: {} and {}", sorted.str(),
                                                     values.str()));
            o.dims[i] = *merged;
        }
    }
    out.push_back({o, type, {}, {}});
}

// ---------------------------------------------------------------- DFT, IDFT, RDFT, IRDFT

enum class FftKind { complex_to_complex, real_to_complex, complex_to_real };

// The checks every FFT op shares (fft_common_validation): the input's rank and last dim, the axes (1-D, in
// range, unique), signal_size (1-D, as long as the axes). The axes, normalized, when their values are known.
std::optional<std::vector<size_t>> fft_axes(OpContext& ctx, FftKind kind, bool* failed) {
    const Shape &data = ctx.shape(0), &axes_shape = ctx.shape(1);
    const bool complex_input = kind != FftKind::real_to_complex;
    auto fail = [&](std::string message) {
        ctx.invalid_input(std::move(message));
        *failed = true;
        return std::nullopt;
    };
    if (!rank_is(axes_shape, 1)) return fail(fmt::format("the axes {} must be 1-D", axes_shape.str()));
    if (ctx.input_count() == 3) {
        const Shape& signal = ctx.shape(2);
        if (!rank_is(signal, 1)) return fail(fmt::format("signal_size {} must be 1-D", signal.str()));
        if (!dim_at(signal, 0).compatible(dim_at(axes_shape, 0)))
            return fail(fmt::format("signal_size {} and the axes {} must be as long", signal.str(), axes_shape.str()));
    }
    if (data.rank_dynamic) return std::nullopt;
    const auto rank = static_cast<int64_t>(data.rank());
    if (rank < (complex_input ? 2 : 1))
        return fail(fmt::format("the input {} must have rank {} or more", data.str(), complex_input ? 2 : 1));
    if (complex_input && !data.dims.back().compatible(Dim(2)))
        return fail(fmt::format("the last dim of the input {} must be 2 (real and imaginary parts)", data.str()));
    const int64_t axis_rank = complex_input ? rank - 1 : rank;
    if (axes_shape.is_static() && axes_shape.dims[0].length() > axis_rank)
        return fail(fmt::format("{} axes are more than the input {} has to transform", axes_shape.dims[0].length(),
                                data.str()));
    const auto axes = ctx.exact_values(1);
    if (!axes) return std::nullopt;
    std::string error;
    auto normalized = normalize_axes(*axes, axis_rank, true, &error);
    if (!normalized) return fail(error);
    return normalized;
}

void infer_fft(OpContext& ctx, std::vector<OpOutput>& out, FftKind kind) {
    if (!ctx.expect_inputs(2, 3)) return;
    bool failed = false;
    const auto axes = fft_axes(ctx, kind, &failed);
    if (failed) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{data, ctx.type(0), {}, {}};
    if (data.rank_dynamic) return out.push_back(std::move(o));
    if (kind == FftKind::real_to_complex) o.shape.dims.push_back(Dim(2));
    if (kind == FftKind::complex_to_real) o.shape.dims.pop_back();
    const size_t transformed = kind == FftKind::real_to_complex ? data.rank() : data.rank() - 1;
    if (!axes) {
        ctx.value_unknown("the axes (input 1) are not known");
        for (size_t i = 0; i < transformed; ++i) o.shape.dims[i] = Dim::dynamic();
        return out.push_back(std::move(o));
    }
    const auto signal = ctx.input_count() == 3 ? ctx.exact_values(2) : std::nullopt;
    if (ctx.input_count() == 3 && !signal) {
        ctx.value_unknown("signal_size (input 2) is not known");
        if (kind == FftKind::complex_to_complex)
            for (const size_t a : *axes) o.shape.dims[a] = Dim::dynamic();
        else
            o.shape.dims[axes->back()] = Dim::dynamic();
        return out.push_back(std::move(o));
    }
    if (signal) {
        if (signal->size() != axes->size())
            return ctx.invalid_input(fmt::format("signal_size has {} values for {} axes", signal->size(), axes->size()));
        for (size_t i = 0; i < axes->size(); ++i)
            if ((*signal)[i] != -1) o.shape.dims[(*axes)[i]] = Dim((*signal)[i]);
    }
    const size_t last = axes->back();
    const bool last_given = signal && signal->back() != -1;
    if (kind == FftKind::real_to_complex) {
        // The onesided length n/2 + 1, of the signal size when one is given.
        const Dim& n = o.shape.dims[last];
        o.shape.dims[last] = Dim(n.min() / 2 + 1, n.has_upper_bound() ? n.max() / 2 + 1 : Dim::kInf);
    } else if (kind == FftKind::complex_to_real && !last_given) {
        o.shape.dims[last] = Dim(2) * (data.dims[last] - Dim(1));
    }
    out.push_back(std::move(o));
}

void infer_dft(OpContext& ctx, std::vector<OpOutput>& out) { infer_fft(ctx, out, FftKind::complex_to_complex); }
void infer_rdft(OpContext& ctx, std::vector<OpOutput>& out) { infer_fft(ctx, out, FftKind::real_to_complex); }
void infer_irdft(OpContext& ctx, std::vector<OpOutput>& out) { infer_fft(ctx, out, FftKind::complex_to_real); }

// ---------------------------------------------------------------- STFT, ISTFT

// The window (1-D, 1..frame_size long), frame_size and frame_step (scalars, positive when known); the known
// frame size and step.
struct Frames {
    std::optional<int64_t> size, step;
};
std::optional<Frames> frame_inputs(OpContext& ctx) {
    const Shape& window = ctx.shape(1);
    Frames f;
    if (const auto v = ctx.exact_values(2); v && v->size() == 1) f.size = (*v)[0];
    if (const auto v = ctx.exact_values(3); v && v->size() == 1) f.step = (*v)[0];
    std::string problem;
    if (!rank_is(window, 1))
        problem = fmt::format("the window {} must be 1-D", window.str());
    else if (!rank_is(ctx.shape(2), 0))
        problem = fmt::format("frame_size {} must be a scalar", ctx.shape(2).str());
    else if (!rank_is(ctx.shape(3), 0))
        problem = fmt::format("frame_step {} must be a scalar", ctx.shape(3).str());
    else if (f.size && *f.size <= 0)
        problem = fmt::format("frame size {} must be greater than zero", *f.size);
    else if (f.step && *f.step <= 0)
        problem = fmt::format("frame step {} must be greater than zero", *f.step);
    else if (f.size && window.is_static() && (window.dims[0].length() < 1 || window.dims[0].length() > *f.size))
        problem = fmt::format("the window {} must be 1 to frame size {} long", window.str(), *f.size);
    if (!problem.empty()) {
        ctx.invalid_input(std::move(problem));
        return std::nullopt;
    }
    if (!f.size || !f.step) ctx.value_unknown("frame_size or frame_step is not known");
    return f;
}

void infer_stft(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    const auto transpose = ctx.attr_bool("transpose_frames");
    if (!transpose) return;
    const Shape& signal = ctx.shape(0);
    if (!rank_is(signal, 2)) return ctx.invalid_input(fmt::format("the signal {} must be 2-D [batch, signal_size]", signal.str()));
    const auto frames = frame_inputs(ctx);
    if (!frames) return;
    OpOutput o{signal, ctx.type(0), {}, {}};
    if (signal.rank_dynamic) return out.push_back(std::move(o));
    if (!frames->size || !frames->step) {
        o.shape = Shape{false, {signal.dims[0], Dim::dynamic(), Dim::dynamic(), Dim(2)}};
        return out.push_back(std::move(o));
    }
    const int64_t size = *frames->size, step = *frames->step;
    if (signal.dims[1].has_upper_bound() && size > signal.dims[1].max())
        return ctx.invalid_input(fmt::format("frame size {} must be in range [1, {}]", size, signal.dims[1].str()));
    const Dim rest = signal.dims[1] - Dim(size);
    const Dim count(rest.min() / step + 1, rest.has_upper_bound() ? rest.max() / step + 1 : Dim::kInf);
    const Dim bins(size / 2 + 1);
    o.shape = *transpose ? Shape{false, {signal.dims[0], bins, count, Dim(2)}}
                         : Shape{false, {signal.dims[0], count, bins, Dim(2)}};
    out.push_back(std::move(o));
}

void infer_istft(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 5)) return;
    const auto center = ctx.attr_bool("center");
    if (!center || !ctx.attr_bool("normalized")) return;
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && data.rank() != 3 && data.rank() != 4)
        return ctx.invalid_input(fmt::format("the data {} must be 3-D or 4-D", data.str()));
    const auto frames = frame_inputs(ctx);
    if (!frames) return;
    if (data.rank_dynamic) return out.push_back({data, ctx.type(0), {}, {}});
    Dim length = Dim::dynamic();
    if (ctx.input_count() == 5) {
        if (!scalar_or_one(ctx.shape(4)))
            return ctx.invalid_input(fmt::format("signal_length {} must be a scalar or 1-D of one", ctx.shape(4).str()));
        if (const TensorValue* v = ctx.value(4); v && v->size() == 1)
            length = value_as_dim((*v)[0]);
        else
            ctx.value_unknown("signal_length (input 4) is not known");
    } else if (frames->size && frames->step) {
        const Dim& count = data.dims[data.rank() == 3 ? 1 : 2];
        length = (count - Dim(1)) * Dim(*frames->step);
        if (!*center) length = length + Dim(*frames->size);
    }
    Shape o{false, {length}};
    if (data.rank() == 4) o.dims.insert(o.dims.begin(), data.dims[0]);
    out.push_back({o, ctx.type(0), {}, {}});
}

// ---------------------------------------------------------------- strings, segments, sparse rows

// StringTensorUnpack-15: begins and ends of the data's shape (i32), the bytes of all strings (u8).
void infer_string_tensor_unpack(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const Shape& data = ctx.shape(0);
    // OpenVINO counts the bytes of a Const's strings; irlint does not read string data: the count stays open.
    out.push_back({data, ElementType::i32, {}, {}});
    out.push_back({data, ElementType::i32, {}, {}});
    out.push_back({Shape{false, {Dim::dynamic()}}, ElementType::u8, {}, {}});
}

// StringTensorPack-15: strings of the shape begins and ends have (equal).
void infer_string_tensor_pack(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const Shape &begins = ctx.shape(0), &ends = ctx.shape(1);
    if (!(begins == ends))
        return ctx.invalid_input(fmt::format("begins {} and ends {} must have one shape", begins.str(), ends.str()));
    if (!rank_is(ctx.shape(2), 1))
        return ctx.invalid_input(fmt::format("the symbols {} must be 1-D", ctx.shape(2).str()));
    out.push_back({begins, ElementType::string, {}, {}});
}

// SegmentMax-16: the data with dim 0 the number of segments (num_segments, else the last segment id + 1).
void infer_segment_max(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    static constexpr std::array<std::string_view, 2> kFill{"ZERO", "LOWEST"};
    if (!ctx.attr_enum("fill_mode", kFill)) return;
    const Shape &data = ctx.shape(0), &ids = ctx.shape(1);
    if (!data.rank_dynamic && data.rank() == 0) return ctx.invalid_input("the data input cannot be a scalar");
    if (!rank_is(ids, 1)) return ctx.invalid_input(fmt::format("segment_ids {} must be 1-D", ids.str()));
    if (!dim_at(data, 0).compatible(dim_at(ids, 0)))
        return ctx.invalid_input(fmt::format("segment_ids {} must have as many elements as the data's dim 0 in {}",
                                             ids.str(), data.str()));
    const auto id_values = ctx.exact_values(1);
    if (id_values && !std::is_sorted(id_values->begin(), id_values->end()))
        return ctx.invalid_input("segment_ids must be sorted");
    if (ctx.input_count() == 3 && !rank_is(ctx.shape(2), 0))
        return ctx.invalid_input(fmt::format("num_segments {} must be a scalar", ctx.shape(2).str()));
    if (data.rank_dynamic) return out.push_back({data, ctx.type(0), {}, {}});
    Shape o = data;
    const auto count = ctx.input_count() == 3 ? ctx.exact_values(2) : std::nullopt;
    if (count && count->size() == 1) {
        o.dims[0] = ov_dim((*count)[0]);
    } else {
        // Without num_segments' value OpenVINO takes the last segment id + 1, as irlint does.
        if (ctx.input_count() == 3) ctx.value_unknown("num_segments (input 2) is not known");
        if (!id_values) ctx.value_unknown("segment_ids (input 1) are not known");
        const bool ids_given = id_values && !id_values->empty();
        o.dims[0] = ids_given ? ov_dim(*std::max_element(id_values->begin(), id_values->end()) + 1) : Dim::dynamic();
    }
    out.push_back({o, ctx.type(0), {}, {}});
}

// SparseFillEmptyRows-16: indices [n + empty rows, 2], values [n + empty rows], the empty-row flags [rows].
void infer_sparse_fill_empty_rows(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    const Shape &values = ctx.shape(0), &dense = ctx.shape(1), &indices = ctx.shape(2);
    if (!rank_is(values, 1)) return ctx.invalid_input(fmt::format("the values {} must be 1-D", values.str()));
    if (!dense.rank_dynamic && !(dense.rank() == 1 && dense.dims[0].compatible(Dim(2))))
        return ctx.invalid_input(fmt::format("dense_shape {} must be 1-D of 2 elements (a 2-D sparse tensor)",
                                             dense.str()));
    if (!indices.rank_dynamic && !(indices.rank() == 2 && indices.dims[1].compatible(Dim(2)) &&
                                   (dense.rank_dynamic || indices.dims[0].compatible(dim_at(values, 0)))))
        return ctx.invalid_input(fmt::format("the indices {} must be [values, 2] for the values {}", indices.str(),
                                             values.str()));
    if (!rank_is(ctx.shape(3), 0))
        return ctx.invalid_input(fmt::format("default_value {} must be a scalar", ctx.shape(3).str()));
    Dim rows = Dim::dynamic(), added = Dim::dynamic();
    const auto shape = ctx.exact_values(1);
    const auto index_values = ctx.exact_values(2);
    if (shape && shape->size() == 2) {
        rows = ov_dim((*shape)[0]);
        if (index_values) {
            std::vector<int64_t> seen;
            for (size_t i = 0; i + 1 < index_values->size(); i += 2) {
                const int64_t row = (*index_values)[i], col = (*index_values)[i + 1];
                if (row < 0 || row >= (*shape)[0] || col < 0 || col >= (*shape)[1])
                    return ctx.invalid_input(fmt::format("sparse tensor index [{}, {}] is outside [0, {}) x [0, {})",
                                                         row, col, (*shape)[0], (*shape)[1]));
                seen.push_back(row);
            }
            std::sort(seen.begin(), seen.end());
            seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
            added = Dim((*shape)[0] - static_cast<int64_t>(seen.size()));
        } else {
            ctx.value_unknown("the indices (input 2) are not known");
        }
    } else {
        ctx.value_unknown("dense_shape (input 1) is not known");
    }
    const bool counted = added.is_static();
    out.push_back({Shape{false, {counted ? dim_at(indices, 0) + added : Dim::dynamic(), Dim(2)}}, ctx.type(2), {}, {}});
    out.push_back({Shape{false, {counted ? dim_at(values, 0) + added : Dim::dynamic()}}, ctx.type(0), {}, {}});
    out.push_back({Shape{false, {rows}}, ElementType::boolean, {}, {}});
}

// ---------------------------------------------------------------- Inverse, Identity, FakeConvert, SliceScatter

void infer_inverse(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !ctx.attr_bool("adjoint", false)) return;
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic) {
        if (data.rank() < 2) return ctx.invalid_input(fmt::format("the input {} must be at least a 2-D matrix", data.str()));
        const Dim &rows = data.dims[data.rank() - 2], &columns = data.dims.back();
        if (rows.is_static() && columns.is_static() && rows.length() != columns.length())
            return ctx.invalid_input(fmt::format("the input {} must hold square matrices", data.str()));
    }
    out.push_back({data, ctx.type(0), {}, {}});
}

// The output is input 0, dims and type.
void infer_data_shape(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    out.push_back({ctx.shape(0), ctx.type(0), ctx.value(0) ? std::optional(*ctx.value(0)) : std::nullopt, {}});
}

// MOE-16 (mixture of experts, fused by OpenVINO's transformations): the hidden states' dims and type; its
// inputs and attributes are still changing from release to release, and are not checked.
void infer_moe(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 64)) return;
    out.push_back({ctx.shape(0), ctx.type(0), {}, {}});
}

void infer_fake_convert(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    out.push_back({ctx.shape(0), ctx.type(0), {}, {}});
}

void infer_slice_scatter(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5, 6)) return;
    out.push_back({ctx.shape(0), ctx.type(0), {}, {}});
}

// ConvertPromoteTypes-14: both inputs, dims unchanged, in their common type. The promotion of two different
// types (PyTorch's rules, with the op's three attributes) is not followed: the type is stated only when the
// inputs already share one.
void infer_convert_promote_types(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!ctx.attr_bool("promote_unsafe", false) || !ctx.attr_bool("pytorch_scalar_promotion", false) ||
        !ctx.attr_type("u64_integer_promotion_target", ElementType::f32))
        return;
    const auto common = ctx.type(0) && ctx.type(0) == ctx.type(1) ? ctx.type(0) : std::nullopt;
    out.push_back({ctx.shape(0), common, {}, {}});
    out.push_back({ctx.shape(1), common, {}, {}});
}

constexpr std::string_view kComplexFft =
    "input rank >= 2, last dim 2; axes 1-D, unique, in [-(r-1), r-2]; signal_size as long as the axes";
constexpr std::string_view kNv12 = "Y [N,H,W,1] with UV [N,H/2,W/2,2], or one plane H*3/2 high; even H, W";
constexpr std::string_view kI420 = "Y [N,H,W,1] with U, V [N,H/2,W/2,1], or one plane H*3/2 high; even H, W";
constexpr std::string_view kToNv12 = "image [N,H,W,3] with even H, W; single_plane";

const OpEntry kMiscTensorOps[] = {
    {"BGRtoNV12", 17, 17, infer_to_nv12, "shape, type", kToNv12},
    {"CTCLoss", 4, 4, infer_ctc_loss, "shape, type",
     "input ranks 3, 1, 2, 1 (blank index scalar); batches agree; labels' time steps"},
    {"ConvertPromoteTypes", 14, 14, infer_convert_promote_types, "shape, type (one shared input type)",
     "promote_unsafe, pytorch_scalar_promotion, u64_integer_promotion_target"},
    {"DFT", 7, 7, infer_dft, "shape, type", kComplexFft},
    {"Eye", 9, 9, infer_eye, "shape, type", "rows, columns and batch shape non-negative, from values; output_type"},
    {"FakeConvert", 13, 13, infer_fake_convert, "shape, type", "2 or 3 inputs"},
    {"GridSample", 9, 9, infer_grid_sample, "shape, type",
     "mode, padding_mode, align_corners; 4-D data and grid; grid's last dim 2; batches agree"},
    {"GroupNormalization", 12, 12, infer_group_normalization, "shape, type",
     "num_groups > 0 divides the channels; scale and bias 1-D of the channels"},
    {"I420toBGR", 8, 8, infer_i420, "shape, type", kI420},
    {"I420toRGB", 8, 8, infer_i420, "shape, type", kI420},
    {"ISTFT", 16, 16, infer_istft, "shape, type",
     "data 3-D or 4-D; window 1-D within frame_size; frame_size, frame_step positive scalars; signal_length scalar"},
    {"IDFT", 7, 7, infer_dft, "shape, type", kComplexFft},
    {"IRDFT", 9, 9, infer_irdft, "shape, type", kComplexFft},
    {"Identity", 16, 16, infer_data_shape, "shape, type, values", "one input"},
    {"Inverse", 14, 14, infer_inverse, "shape, type", "adjoint; at least 2-D; square matrices"},
    {"MOE", 16, 16, infer_moe, "shape, type", "2 or more inputs"},
    {"Multinomial", 13, 13, infer_multinomial, "shape, type",
     "convert_type, with_replacement, log_probs; probabilities 1-D or 2-D; sample count scalar, non-negative"},
    {"NV12toBGR", 8, 8, infer_nv12, "shape, type", kNv12},
    {"NV12toRGB", 8, 8, infer_nv12, "shape, type", kNv12},
    {"RDFT", 9, 9, infer_rdft, "shape, type",
     "input rank >= 1; axes 1-D, unique, in [-r, r-1]; signal_size as long as the axes"},
    {"RGBtoNV12", 17, 17, infer_to_nv12, "shape, type", kToNv12},
    {"RandomUniform", 8, 8, infer_random_uniform, "shape, type",
     "output_type, seeds; output shape 1-D; min and max scalars, min < max"},
    {"ReverseSequence", 0, 1, infer_reverse_sequence, "shape, type",
     "data rank >= 2; batch_axis, seq_axis in range; sequence lengths 1-D of the batch"},
    {"STFT", 15, 15, infer_stft, "shape, type",
     "signal 2-D; window 1-D within frame_size; frame_size, frame_step positive scalars; transpose_frames"},
    {"SearchSorted", 15, 15, infer_search_sorted, "shape, type",
     "right_mode, output_type; sorted not a scalar; ranks and leading dims agree"},
    {"SegmentMax", 16, 16, infer_segment_max, "shape, type",
     "fill_mode; data not a scalar; segment_ids 1-D of the data's dim 0, sorted; num_segments scalar"},
    {"SliceScatter", 15, 15, infer_slice_scatter, "shape, type", "5 or 6 inputs"},
    {"SparseFillEmptyRows", 16, 16, infer_sparse_fill_empty_rows, "shape, type",
     "values 1-D; dense_shape [2]; indices [values, 2] within dense_shape; default_value scalar"},
    {"StringTensorPack", 15, 15, infer_string_tensor_pack, "shape, type", "begins and ends of one shape; symbols 1-D"},
    {"StringTensorUnpack", 15, 15, infer_string_tensor_unpack, "shape, type", "one input"},
};

}  // namespace

std::span<const OpEntry> misc_tensor_ops() { return kMiscTensorOps; }

}  // namespace irlint
