// ONNX's indexing operators: Slice, Gather, GatherElements, GatherND, the scatters, Pad, DepthToSpace,
// SpaceToDepth, Compress, OneHot, NonZero, Trilu, ReverseSequence, EyeLike, Unique, CenterCropPad and
// TensorScatter at each of their versions. Slice and Gather carry values (a Shape vector's elements); the dims
// of the data-dependent outputs (NonZero, Compress, Unique) are bounded by the input's element count, exact when
// the input's values are known.

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/ops/onnx_shape_common.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/tensor_common.hpp"

namespace irlint::onnx_shape {

namespace {

using shape_ops::dynamic_dims;
using tensor::AxisPick;
using tensor::Bounds;

bool expect_rank_at_least(OpContext& ctx, size_t i, size_t rank, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || s.rank() >= rank) return true;
    ctx.invalid_input(fmt::format("{} {} has rank {}; it needs at least {}", name, s.str(), s.rank(), rank));
    return false;
}

bool expect_rank(OpContext& ctx, size_t i, size_t rank, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (!ctx.has_input(i) || s.rank_dynamic || s.rank() == rank) return true;
    ctx.invalid_input(fmt::format("{} {} must have rank {}", name, s.str(), rank));
    return false;
}

// The output is the input's shape and type (Trilu, ReverseSequence, the scatters).
void same_as_input(OpContext& ctx, std::vector<OpOutput>& out) {
    out.push_back(OpOutput{ctx.shape(0), ctx.type(0), std::nullopt, {}});
}

// ---------------------------------------------------------------------------------------------- Slice

// The indices dim[start:end:step] takes under ONNX's clamping, which differs from Python's (and OpenVINO's
// exact pick) for a start before the first element with a negative step: ONNX clamps it to 0 and takes one
// element. Negative starts and ends count from the back; a start is clamped to [0, dim] ([0, dim - 1] stepping
// back), an end to [0, dim] ([-1, dim - 1] stepping back).
AxisPick onnx_slice_pick(int64_t dim, int64_t start, int64_t end, int64_t step) {
    const auto from_back = [dim](int64_t v) { return v < 0 ? v + dim : v; };  // v >= INT64_MIN, dim >= 0: no overflow
    AxisPick p;
    p.step = step;
    if (step > 0) {
        p.start = std::clamp<int64_t>(from_back(start), 0, dim);
        const int64_t e = std::clamp<int64_t>(from_back(end), 0, dim);
        p.count = e > p.start ? (e - p.start - 1) / step + 1 : 0;
    } else {
        p.start = std::clamp<int64_t>(from_back(start), 0, std::max<int64_t>(dim - 1, 0));
        const int64_t e = std::clamp<int64_t>(from_back(end), -1, dim - 1);
        p.count = dim > 0 && p.start > e ? (p.start - e - 1) / -step + 1 : 0;
    }
    return p;
}

struct SliceArgs {
    std::optional<std::vector<Bounds>> starts, ends;
    std::optional<std::vector<int64_t>> axes, steps;  // nullopt with *_given: unknown
    bool axes_given = false, steps_given = false;
};

std::optional<std::vector<Bounds>> bounds_of(const TensorValue* v) {
    if (!v) return std::nullopt;
    std::vector<Bounds> out;
    for (const ValueBounds& b : *v) out.emplace_back(b.lo, b.hi);
    return out;
}

std::optional<std::vector<Bounds>> exact_bounds(const std::optional<std::vector<int64_t>>& v) {
    if (!v) return std::nullopt;
    std::vector<Bounds> out;
    for (const int64_t x : *v) out.emplace_back(x, x);
    return out;
}

// Slice-1's attributes, or from 10 its inputs (starts, ends, axes?, steps?, one Tind type).
std::optional<SliceArgs> slice_args(OpContext& ctx) {
    SliceArgs a;
    if (ctx.version() < 10) {
        a.starts = exact_bounds(ctx.attr_ints("starts"));
        a.ends = exact_bounds(ctx.attr_ints("ends"));
        a.axes_given = ctx.attr("axes") != nullptr;
        if (a.axes_given) a.axes = ctx.attr_ints("axes");
        if (ctx.failed()) return std::nullopt;
        return a;
    }
    static constexpr std::array<std::string_view, 5> kNames{"data", "starts", "ends", "axes", "steps"};
    for (size_t i = 1; i <= 4; ++i) {
        if (!ctx.has_input(i)) continue;
        if (!expect_index_type(ctx, i, kNames[i], true) || !expect_same_type(ctx, 1, i, "starts", kNames[i]) ||
            !expect_rank(ctx, i, 1, kNames[i]))
            return std::nullopt;
    }
    a.starts = bounds_of(ctx.value(1));
    a.ends = bounds_of(ctx.value(2));
    a.axes_given = ctx.has_input(3);
    if (a.axes_given) a.axes = ctx.exact_values(3);
    a.steps_given = ctx.has_input(4);
    if (a.steps_given) a.steps = ctx.exact_values(4);
    return a;
}

// The output when some argument is unknown: the dims it may slice are at most as long as before.
Shape slice_unknown(OpContext& ctx, const Shape& data, const std::optional<std::vector<size_t>>& axes) {
    ctx.value_unknown("starts, ends, axes or steps are not known");
    Shape s = data;
    for (size_t i = 0; i < data.rank(); ++i)
        if (!axes || std::count(axes->begin(), axes->end(), i)) s.dims[i] = Dim(0, data.dims[i].max());
    return s;
}

void infer_slice(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(ctx.version() < 10 ? 1 : 3, ctx.version() < 10 ? 1 : 5) || !expect_data_type(ctx, 0)) return;
    const auto args = slice_args(ctx);
    if (!args) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(o));
        return;
    }
    const int64_t rank = static_cast<int64_t>(data.rank());
    std::optional<std::vector<size_t>> axes;
    if (args->axes) {
        axes = onnx_axes(ctx, *args->axes, rank, "axes", true, ctx.version() >= 10);
        if (!axes) return;
    } else if (!args->axes_given) {
        // No axes: the first len(starts) axes, which the starts' values or their input's length say.
        std::optional<size_t> n;
        if (args->starts)
            n = args->starts->size();
        else if (const Shape& s = ctx.shape(1); ctx.version() >= 10 && s.is_static() && s.rank() == 1)
            n = static_cast<size_t>(s.dims[0].length());
        if (n && *n > data.rank())
            return ctx.invalid_input(
                fmt::format("{} starts without axes, more than the rank {} of {}", *n, data.rank(), data.str()));
        if (n) {
            axes.emplace();
            for (size_t i = 0; i < *n; ++i) axes->push_back(i);
        }
    }
    if (!args->starts || !args->ends || !axes || (args->steps_given && !args->steps)) {
        o.shape = slice_unknown(ctx, data, axes);
        out.push_back(std::move(o));
        return;
    }
    const size_t n = args->starts->size();
    const std::vector<int64_t> steps = args->steps ? *args->steps : std::vector<int64_t>(n, 1);
    if (args->ends->size() != n || axes->size() != n || steps.size() != n || n > data.rank())
        return ctx.invalid_input(
            fmt::format("starts ({}), ends ({}), axes ({}) and steps ({}) need one value per "
                        "sliced axis, at most the rank {}",
                        n, args->ends->size(), axes->size(), steps.size(), rank));
    o.shape = data;
    std::vector<std::optional<AxisPick>> picks(data.rank());
    for (size_t d = 0; d < data.rank(); ++d)
        if (data.dims[d].is_static()) picks[d] = AxisPick{0, 1, data.dims[d].length()};
    for (size_t k = 0; k < n; ++k) {
        const size_t d = (*axes)[k];
        const Dim& dim = data.dims[d];
        const Bounds start = (*args->starts)[k], end = (*args->ends)[k];
        if (steps[k] == 0) return ctx.invalid_input(fmt::format("steps[{}] is 0", k));
        if (dim.is_static() && start.first == start.second && end.first == end.second) {
            picks[d] = onnx_slice_pick(dim.length(), start.first, end.first, steps[k]);
            o.shape.dims[d] = Dim(picks[d]->count);
            note_dim(ctx, o, d,
                     fmt::format("[{}:{}:{}] of {}, clamped to start {}", start.first, end.first, steps[k],
                                 dim.length(), picks[d]->start));
        } else {
            picks[d].reset();
            o.shape.dims[d] = tensor::sliced_dim(dim, start, end, steps[k]);
        }
    }
    const TensorValue* values = ctx.value(0);
    const auto count = capped_element_count(data, kMaxValueElements);
    if (values && count && values->size() == *count &&
        std::all_of(picks.begin(), picks.end(), [](const auto& p) { return p.has_value(); })) {
        std::vector<int64_t> dims;
        std::vector<AxisPick> exact;
        for (size_t d = 0; d < data.rank(); ++d) {
            dims.push_back(data.dims[d].length());
            exact.push_back(*picks[d]);
        }
        o.value =
            capped_element_count(o.shape, kMaxValueElements) ? std::optional(tensor::pick_values(*values, dims, exact)) : std::nullopt;
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Gather

// Known indices must address the axis (negative ones from the back): ONNX Runtime refuses others.
bool check_indices(OpContext& ctx, const std::vector<int64_t>& indices, const Dim& axis_dim) {
    if (!axis_dim.is_static()) return true;
    const int64_t n = axis_dim.length();
    for (const int64_t i : indices) {
        if (i >= -n && i < n) continue;
        ctx.invalid_input(fmt::format("index {} is out of range [{}, {}] for the axis of length {}", i, -n, n - 1, n));
        return false;
    }
    return true;
}

void infer_gather(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !expect_data_type(ctx, 0) || !expect_index_type(ctx, 1, "indices", true)) return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic || indices.rank_dynamic) {
        out.push_back(std::move(o));
        return;
    }
    if (data.rank() == 0) return ctx.invalid_input("data is a scalar; it needs rank >= 1");
    const auto axis = onnx_axis(ctx, ctx.attr_int("axis", 0).value_or(0), static_cast<int64_t>(data.rank()));
    if (!axis) return;
    o.shape = Shape{};
    o.shape.dims.assign(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(*axis));
    o.shape.dims.insert(o.shape.dims.end(), indices.dims.begin(), indices.dims.end());
    o.shape.dims.insert(o.shape.dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(*axis) + 1,
                        data.dims.end());
    const auto data_n = capped_element_count(data, kMaxValueElements), indices_n = capped_element_count(indices, kMaxValueElements);
    const TensorValue* values = ctx.value(0);
    const auto idx = ctx.exact_values(1);
    if (idx && !check_indices(ctx, *idx, data.dims[*axis])) return;
    if (data_n && indices_n && capped_element_count(o.shape, kMaxValueElements) && values && idx && values->size() == *data_n &&
        idx->size() == *indices_n)
        o.value = tensor::gather_values(*values, data, *idx, indices, *axis, 0, true);
    out.push_back(std::move(o));
}

void infer_gather_elements(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !expect_data_type(ctx, 0) || !expect_index_type(ctx, 1, "indices", true) ||
        !expect_rank_at_least(ctx, 0, 1, "data") || !expect_rank_at_least(ctx, 1, 1, "indices"))
        return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1);
    if (!data.rank_dynamic) {
        if (!onnx_axis(ctx, ctx.attr_int("axis", 0).value_or(0), static_cast<int64_t>(data.rank()))) return;
        if (!indices.rank_dynamic && indices.rank() != data.rank())
            return ctx.invalid_input(
                fmt::format("indices {} and data {} must have one rank", indices.str(), data.str()));
    }
    out.push_back(OpOutput{indices, ctx.type(0), std::nullopt, {}});
}

void infer_gather_nd(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !expect_data_type(ctx, 0) || !expect_index_type(ctx, 1, "indices", false)) return;
    const auto b = ctx.version() >= 12 ? ctx.attr_int("batch_dims", 0) : std::optional<int64_t>(0);
    if (!b) return;
    if (*b < 0) return ctx.invalid_attribute(fmt::format("batch_dims {} is negative", *b));
    const auto batch = static_cast<size_t>(*b);
    if (!expect_rank_at_least(ctx, 0, batch + 1, "data") || !expect_rank_at_least(ctx, 1, batch + 1, "indices")) return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (!data.rank_dynamic && !indices.rank_dynamic && indices.dims.back().is_static()) {
        const int64_t tuple = indices.dims.back().length();
        if (tuple > static_cast<int64_t>(data.rank() - batch))
            return ctx.invalid_input(
                fmt::format("the last dim of indices {} is {}; it must be in [0, {}] (data {} "
                            "after {} batch dims)",
                            indices.str(), tuple, data.rank() - batch, data.str(), batch));
        o.shape = Shape{};
        o.shape.dims.assign(indices.dims.begin(), indices.dims.end() - 1);
        o.shape.dims.insert(o.shape.dims.end(),
                            data.dims.begin() + static_cast<std::ptrdiff_t>(batch + static_cast<size_t>(tuple)),
                            data.dims.end());
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Scatters

// ScatterElements' and ScatterND's reduction: none; add and mul from 16; max and min from 18.
bool check_reduction(OpContext& ctx) {
    if (ctx.version() < 16) return true;
    static constexpr std::array<std::string_view, 3> k16{"none", "add", "mul"};
    static constexpr std::array<std::string_view, 5> k18{"none", "add", "mul", "max", "min"};
    return ctx.version() >= 18 ? ctx.attr_enum("reduction", k18, "none").has_value()
                               : ctx.attr_enum("reduction", k16, "none").has_value();
}

void infer_scatter_elements(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3) || !expect_data_type(ctx, 0) || !expect_index_type(ctx, 1, "indices", true) ||
        !expect_same_type(ctx, 0, 2, "data", "updates") || !expect_rank_at_least(ctx, 0, 1, "data") ||
        !check_reduction(ctx))
        return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1), &updates = ctx.shape(2);
    if (!data.rank_dynamic && !onnx_axis(ctx, ctx.attr_int("axis", 0).value_or(0), static_cast<int64_t>(data.rank())))
        return;
    if (!indices.compatible(updates))
        return ctx.invalid_input(
            fmt::format("indices {} and updates {} must have one shape", indices.str(), updates.str()));
    if (!data.rank_dynamic && !indices.rank_dynamic && indices.rank() != data.rank())
        return ctx.invalid_input(fmt::format("indices {} and data {} must have one rank", indices.str(), data.str()));
    same_as_input(ctx, out);
}

// Scatter-11 is deprecated in favour of ScatterElements: ONNX's checker refuses it.
void infer_scatter(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.version() >= 11)
        return ctx.invalid_input("deprecated from opset 11 (ScatterElements replaces it); ONNX's checker refuses it");
    infer_scatter_elements(ctx, out);
}

void infer_scatter_nd(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3) || !expect_data_type(ctx, 0) || !expect_index_type(ctx, 1, "indices", false) ||
        !expect_same_type(ctx, 0, 2, "data", "updates") || !expect_rank_at_least(ctx, 0, 1, "data") ||
        !expect_rank_at_least(ctx, 1, 1, "indices") || !check_reduction(ctx))
        return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1), &updates = ctx.shape(2);
    if (!data.rank_dynamic && !indices.rank_dynamic && indices.dims.back().is_static()) {
        const int64_t k = indices.dims.back().length();
        if (k > static_cast<int64_t>(data.rank()))
            return ctx.invalid_input(fmt::format("the last dim of indices {} is {}, more than the data rank {}",
                                                 indices.str(), k, data.rank()));
        // updates: indices' dims but the last, then data's after the first k.
        Shape expected;
        expected.dims.assign(indices.dims.begin(), indices.dims.end() - 1);
        expected.dims.insert(expected.dims.end(), data.dims.begin() + k, data.dims.end());
        if (!updates.compatible(expected))
            return ctx.invalid_input(fmt::format("updates {} must have shape {} (indices {}, data {})", updates.str(),
                                                 expected.str(), indices.str(), data.str()));
    }
    same_as_input(ctx, out);
}

void infer_tensor_scatter(OpContext& ctx, std::vector<OpOutput>& out) {
    static constexpr std::array<std::string_view, 2> kModes{"linear", "circular"};
    if (!ctx.expect_inputs(2, 3) || !expect_data_type(ctx, 0) || !expect_same_type(ctx, 0, 1, "past_cache", "update") ||
        !expect_index_type(ctx, 2, "write_indices", false) || !ctx.attr_enum("mode", kModes, "linear"))
        return;
    const Shape &cache = ctx.shape(0), &update = ctx.shape(1);
    OpOutput o{cache, ctx.type(0), std::nullopt, {}};
    if (!cache.rank_dynamic) {
        const auto axis = onnx_axis(ctx, ctx.attr_int("axis", -2).value_or(-2), static_cast<int64_t>(cache.rank()));
        if (!axis) return;
        if (*axis == 0) return ctx.invalid_attribute("axis is the batch dim 0; it must be another");
        if (!update.rank_dynamic && update.rank() != cache.rank())
            return ctx.invalid_input(
                fmt::format("update {} and past_cache {} must have one rank", update.str(), cache.str()));
        // The dims but the sequence axis are one dim in both.
        for (size_t d = 0; d < cache.rank() && !update.rank_dynamic; ++d) {
            if (d == *axis) continue;
            const auto merged = Dim::merge(cache.dims[d], update.dims[d]);
            if (!merged)
                return ctx.invalid_input(fmt::format("update {} and past_cache {} differ in dim {} (not the axis {})",
                                                     update.str(), cache.str(), d, *axis));
            o.shape.dims[d] = merged->with_symbol(cache.dims[d].symbol());
        }
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Pad

constexpr std::array<std::string_view, 3> kPadModes{"constant", "reflect", "edge"};
constexpr std::array<std::string_view, 4> kPadModes19{"constant", "reflect", "edge", "wrap"};

// The pads as bounds: Pad-1's `paddings` and Pad-2's `pads` attributes, or from 11 input 1.
std::optional<std::vector<Bounds>> pad_values(OpContext& ctx) {
    if (ctx.version() < 11) return exact_bounds(ctx.attr_ints(ctx.version() == 1 ? "paddings" : "pads"));
    return bounds_of(ctx.value(1));
}

// The types of each version: floats (1, 2), numeric (11), then all of the era (13; 19 keeps 13's).
bool pad_types(OpContext& ctx) {
    if (ctx.version() < 11) return expect_type(ctx, 0, "data", TypeSet::floats, ctx.version());
    const bool data_ok = ctx.version() == 11
                             ? expect_type(ctx, 0, "data", TypeSet::numeric, 11)
                             : expect_type(ctx, 0, "data", TypeSet::all, ctx.version() == 19 ? 13 : ctx.version());
    return data_ok && (!ctx.has_input(2) || expect_same_type(ctx, 0, 2, "data", "constant_value"));
}

// Pad's inputs: data alone before 11 (the pads are attributes); data, pads and constant_value from 11; axes
// too from 18.
bool pad_inputs(OpContext& ctx) {
    const int v = ctx.version();
    return v < 11 ? ctx.expect_inputs(1) : ctx.expect_inputs(2, v < 18 ? 3 : 4);
}

// Reflect mode mirrors inside the axis: ONNX Runtime (and OpenVINO's import) refuse a padded axis shorter than
// 2 after its negative pads, or a pad longer than that length less 1, though ONNX's numpy reference reflects on.
bool reflect_fits(OpContext& ctx, int64_t dim, int64_t begin, int64_t end, size_t axis, const Shape& data) {
    if (begin <= 0 && end <= 0) return true;
    const int64_t kept = dim + std::min<int64_t>(begin, 0) + std::min<int64_t>(end, 0);
    if (kept < 2) {
        ctx.invalid_input(fmt::format("mode reflect needs axis {} of {} to keep 2 or more elements to mirror; it "
                                      "keeps {}",
                                      axis, data.str(), kept));
        return false;
    }
    if (begin <= kept - 1 && end <= kept - 1) return true;
    ctx.invalid_input(fmt::format("mode reflect: pads {} and {} on axis {} of {} exceed {} (the axis length less 1), "
                                  "which ONNX Runtime and OpenVINO refuse",
                                  begin, end, axis, data.str(), kept - 1));
    return false;
}

void infer_pad(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!pad_inputs(ctx) || !pad_types(ctx)) return;
    const auto mode = ctx.version() >= 19 ? ctx.attr_enum("mode", kPadModes19, "constant")
                                          : ctx.attr_enum("mode", kPadModes, "constant");
    const bool mode_ok = mode.has_value();
    if (!mode_ok || (ctx.version() >= 11 && !expect_index_type(ctx, 1, "pads", false)) ||
        (ctx.version() >= 11 && !expect_rank(ctx, 1, 1, "pads")) || !expect_index_type(ctx, 3, "axes", true))
        return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(o));
        return;
    }
    const int64_t rank = static_cast<int64_t>(data.rank());
    std::optional<std::vector<size_t>> axes;
    if (ctx.has_input(3)) {
        if (const auto given = ctx.exact_values(3)) axes = onnx_axes(ctx, *given, rank, "axes", true, true);
        if (ctx.failed()) return;
    } else {
        axes.emplace();
        for (size_t i = 0; i < data.rank(); ++i) axes->push_back(i);
    }
    const auto pads = pad_values(ctx);
    if (ctx.failed()) return;
    if (!pads || !axes) {
        ctx.value_unknown("the pads or axes are not known");
        o.shape = dynamic_dims(data.rank());
        if (axes)
            for (size_t d = 0; d < data.rank(); ++d)
                if (!std::count(axes->begin(), axes->end(), d)) o.shape.dims[d] = data.dims[d];
        out.push_back(std::move(o));
        return;
    }
    if (pads->size() != 2 * axes->size())
        return ctx.invalid_input(fmt::format("pads has {} values; {} axes need {} (begins, then ends)", pads->size(),
                                             axes->size(), 2 * axes->size()));
    o.shape = data;
    for (size_t k = 0; k < axes->size(); ++k) {
        const size_t d = (*axes)[k];
        const Bounds begin = (*pads)[k], end = (*pads)[k + axes->size()];
        const Dim& dim = data.dims[d];
        if (dim.is_static() && begin.first == begin.second && end.first == end.second) {
            int64_t padded = 0;
            if (__builtin_add_overflow(dim.length(), begin.first, &padded) ||
                __builtin_add_overflow(padded, end.first, &padded))
                return ctx.invalid_input(fmt::format("pads {} and {} on axis {} of {}: the padded length overflows int64",
                                                     begin.first, end.first, d, data.str()));
            if (padded < 0)
                return ctx.invalid_input(
                    fmt::format("pads {} and {} take axis {} of {} below zero", begin.first, end.first, d, data.str()));
            if (*mode == "reflect" && !reflect_fits(ctx, dim.length(), begin.first, end.first, d, data)) return;
            o.shape.dims[d] = Dim(padded);
            note_dim(ctx, o, d, fmt::format("{}{:+}{:+}", dim.length(), begin.first, end.first));
        } else {
            o.shape.dims[d] = tensor::padded_dim(dim, begin, end);
        }
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- CenterCropPad

void infer_center_crop_pad(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !expect_data_type(ctx, 0) || !expect_index_type(ctx, 1, "shape", true) ||
        !expect_rank(ctx, 1, 1, "shape"))
        return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(o));
        return;
    }
    const int64_t rank = static_cast<int64_t>(data.rank());
    std::vector<size_t> axes;
    if (const auto given = ctx.attr_ints("axes", std::vector<int64_t>{})) {
        if (ctx.attr("axes")) {
            const auto n = onnx_axes(ctx, *given, rank, "axes", true, false);
            if (!n) return;
            axes = *n;
        } else {
            for (size_t i = 0; i < data.rank(); ++i) axes.push_back(i);
        }
    }
    const TensorValue* shape = ctx.value(1);
    o.shape = data;
    if (!shape) {
        ctx.value_unknown("the shape (input 1) is not known");
        for (const size_t a : axes) o.shape.dims[a] = Dim::dynamic();
    } else if (shape->size() != axes.size()) {
        return ctx.invalid_input(fmt::format("shape has {} values for {} axes", shape->size(), axes.size()));
    } else {
        for (size_t k = 0; k < axes.size(); ++k) o.shape.dims[axes[k]] = value_as_dim((*shape)[k]);
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- DepthToSpace,
// SpaceToDepth

void infer_depth_space(OpContext& ctx, std::vector<OpOutput>& out, bool to_space) {
    if (!ctx.expect_inputs(1) || !expect_data_type(ctx, 0) || !expect_rank(ctx, 0, 4, "input")) return;
    static constexpr std::array<std::string_view, 2> kModes{"DCR", "CRD"};
    const auto b = ctx.attr_int("blocksize");
    if (!b || (to_space && ctx.version() >= 11 && !ctx.attr_enum("mode", kModes, "DCR"))) return;
    if (*b <= 0) return ctx.invalid_attribute(fmt::format("blocksize {} must be positive", *b));
    const Shape& data = ctx.shape(0);
    OpOutput o{data.rank_dynamic ? dynamic_dims(4) : data, ctx.type(0), std::nullopt, {}};
    if (!data.rank_dynamic) {
        const Dim& c = data.dims[1];
        const auto divided = [&](const Dim& d, int64_t by, std::string_view what) -> std::optional<Dim> {
            if (d.is_static() && d.length() % by != 0) {
                ctx.invalid_input(fmt::format("{} {} of {} is not a multiple of {}", what, d.str(), data.str(), by));
                return std::nullopt;
            }
            return d.is_static() ? Dim(d.length() / by) : d.divided_by(by);
        };
        if (to_space) {
            const auto channels = divided(c, *b * *b, "the channels");
            if (!channels) return;
            o.shape.dims = {data.dims[0], *channels, data.dims[2] * Dim(*b), data.dims[3] * Dim(*b)};
            note_dim(ctx, o, 1, fmt::format("{}/({}*{})", c.str(), *b, *b));
        } else {
            const auto h = divided(data.dims[2], *b, "the height"), w = divided(data.dims[3], *b, "the width");
            if (!h || !w) return;
            o.shape.dims = {data.dims[0], c * Dim(*b * *b), *h, *w};
            note_dim(ctx, o, 1, fmt::format("{}*{}*{}", c.str(), *b, *b));
        }
    }
    out.push_back(std::move(o));
}

void infer_depth_to_space(OpContext& ctx, std::vector<OpOutput>& out) { infer_depth_space(ctx, out, true); }
void infer_space_to_depth(OpContext& ctx, std::vector<OpOutput>& out) { infer_depth_space(ctx, out, false); }

// ---------------------------------------------------------------------------------------------- data-dependent counts

// How many of the first `limit` known values are non-zero; nullopt when some is unknown or may be zero.
std::optional<int64_t> nonzero_count(const TensorValue& v, size_t limit) {
    int64_t n = 0;
    for (size_t i = 0; i < std::min(limit, v.size()); ++i) {
        if (v[i].exact())
            n += v[i].lo != 0 ? 1 : 0;
        else if (v[i].lo <= 0 && v[i].hi >= 0)
            return std::nullopt;
        else
            ++n;
    }
    return n;
}

// A count of selected elements among n: exact when the values say it, else 0..n.
Dim selected_count(const OpContext& ctx, size_t input, const Dim& n) {
    const TensorValue* v = ctx.value(input);
    const auto count = capped_element_count(ctx.shape(input), kMaxValueElements);
    if (v && count && v->size() == *count && n.is_static())
        if (const auto k = nonzero_count(*v, static_cast<size_t>(n.length()))) return Dim(*k);
    return Dim(0, n.max());
}

void infer_non_zero(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_data_type(ctx, 0)) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{dynamic_dims(2), ElementType::i64, std::nullopt, {}};
    if (const auto known = tensor::known_tensor(ctx, 0)) {
        // Known values: the count, and the coordinates as values ([rank, count]; a scalar counts as rank 1).
        const auto rank = std::max<int64_t>(1, static_cast<int64_t>(known->dims.size()));
        o.shape.dims = {Dim(rank), Dim(tensor::nonzero_count(*known))};
        if (!known->dims.empty()) o.value = tensor::nonzero_coordinates(*known);
    } else if (!data.rank_dynamic) {
        o.shape.dims[0] = Dim(static_cast<int64_t>(data.rank()));
        o.shape.dims[1] = selected_count(ctx, 0, dims_product(data.dims));
    }
    out.push_back(std::move(o));
}

void infer_compress(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !expect_data_type(ctx, 0) || !expect_rank_at_least(ctx, 0, 1, "input") ||
        !expect_rank(ctx, 1, 1, "condition"))
        return;
    if (const auto t = ctx.type(1); t && *t != ElementType::boolean)
        return ctx.invalid_input(fmt::format("condition is {}; it must be bool", element_type_name(*t)));
    const Shape &data = ctx.shape(0), &condition = ctx.shape(1);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    const Dim cond_len = condition.rank_dynamic ? Dim::dynamic() : condition.dims[0];
    const auto limit = [](const Dim& a, const Dim& b) { return Dim(0, std::min(a.max(), b.max())); };
    if (!ctx.attr("axis")) {
        const Dim n = data.rank_dynamic ? Dim::dynamic() : dims_product(data.dims);
        o.shape = Shape{false, {limit(n, cond_len)}};
        if (n.is_static() && cond_len.is_static())
            o.shape.dims[0] = selected_count(ctx, 1, Dim(std::min(n.length(), cond_len.length())));
    } else if (!data.rank_dynamic) {
        const auto axis_attr = ctx.attr_int("axis");
        if (!axis_attr) return;
        warn_negative_axes_before_11(ctx, std::span(&*axis_attr, 1), "axis");
        const auto axis = onnx_axis(ctx, *axis_attr, static_cast<int64_t>(data.rank()));
        if (!axis) return;
        const Dim& d = data.dims[*axis];
        o.shape = data;
        o.shape.dims[*axis] = limit(d, cond_len);
        if (d.is_static() && cond_len.is_static())
            o.shape.dims[*axis] = selected_count(ctx, 1, Dim(std::min(d.length(), cond_len.length())));
    }
    out.push_back(std::move(o));
}

// Unique's outputs: the unique elements (or slices along axis), their first indices, the inverse indices and
// the counts. How many are unique is known only from known values; else 1..n (0 for an empty input).
void infer_unique(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_data_type(ctx, 0) || !ctx.attr_int("sorted", 1)) return;
    const Shape& data = ctx.shape(0);
    const auto bounded = [](const Dim& n) { return n == Dim(0) ? n : Dim(std::min<int64_t>(n.min(), 1), n.max()); };
    Shape y = Shape{false, {Dim::dynamic()}};
    Dim inverse = Dim::dynamic(), unique = Dim::dynamic();
    const auto known = tensor::known_tensor(ctx, 0);  // its values give how many are unique
    if (ctx.attr("axis")) {
        if (!data.rank_dynamic) {
            const auto axis = onnx_axis(ctx, ctx.attr_int("axis").value_or(0), static_cast<int64_t>(data.rank()));
            if (!axis) return;
            inverse = data.dims[*axis];
            unique = known ? Dim(tensor::distinct_count(*known, *axis)) : bounded(inverse);
            y = data;
            y.dims[*axis] = unique;
        } else {
            y = Shape::dynamic_rank();
        }
    } else if (!data.rank_dynamic) {
        inverse = dims_product(data.dims);
        unique = known ? Dim(tensor::distinct_count(*known, std::nullopt)) : bounded(inverse);
        y.dims = {unique};
    }
    out.push_back(OpOutput{y, ctx.type(0), std::nullopt, {}});
    out.push_back(OpOutput{Shape{false, {unique}}, ElementType::i64, std::nullopt, {}});
    out.push_back(OpOutput{Shape{false, {inverse}}, ElementType::i64, std::nullopt, {}});
    out.push_back(OpOutput{Shape{false, {unique}}, ElementType::i64, std::nullopt, {}});
}

// ---------------------------------------------------------------------------------------------- OneHot

std::optional<int64_t> one_hot_depth(const OpContext& ctx) {
    if (const auto d = shape_ops::single_exact(ctx, 1)) return *d;
    if (const std::vector<double>* r = ctx.real_values(1); r && r->size() == 1 && (*r)[0] >= 0 && (*r)[0] < 9.0e18)
        return static_cast<int64_t>((*r)[0]);
    return std::nullopt;
}

void infer_one_hot(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3) || !expect_type(ctx, 0, "indices", TypeSet::numeric, 11) ||
        !expect_type(ctx, 1, "depth", TypeSet::numeric, 11) || !expect_type(ctx, 2, "values", TypeSet::all, 11) ||
        !expect_rank(ctx, 2, 1, "values"))
        return;
    const Shape &indices = ctx.shape(0), &depth_shape = ctx.shape(1), &values = ctx.shape(2);
    if (!depth_shape.rank_dynamic &&
        !(depth_shape.rank() == 0 || (depth_shape.rank() == 1 && depth_shape.dims[0].compatible(Dim(1)))))
        return ctx.invalid_input(fmt::format("depth {} must be a scalar or hold one value", depth_shape.str()));
    if (!values.rank_dynamic && !values.dims[0].compatible(Dim(2)))
        return ctx.invalid_input(fmt::format("values {} must hold two values (off, on)", values.str()));
    OpOutput o{Shape::dynamic_rank(), ctx.type(2), std::nullopt, {}};
    if (!indices.rank_dynamic) {
        const int64_t rank = static_cast<int64_t>(indices.rank()) + 1;
        const auto axis = onnx_axis(ctx, ctx.attr_int("axis", -1).value_or(-1), rank);
        if (!axis) return;
        const auto depth = one_hot_depth(ctx);
        if (depth && *depth < 1) return ctx.invalid_input(fmt::format("depth {} must be at least 1", *depth));
        if (!depth) ctx.value_unknown("the depth (input 1) is not known");
        o.shape = indices;
        o.shape.dims.insert(o.shape.dims.begin() + static_cast<std::ptrdiff_t>(*axis),
                            depth ? Dim(*depth) : Dim::dynamic());
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Trilu,
// ReverseSequence, EyeLike

void infer_trilu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2) || !expect_data_type(ctx, 0) || !expect_rank_at_least(ctx, 0, 2, "input") ||
        !expect_index_type(ctx, 1, "k", false) || !expect_rank(ctx, 1, 0, "k") || !ctx.attr_int("upper", 1))
        return;
    same_as_input(ctx, out);
}

void infer_reverse_sequence(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !expect_data_type(ctx, 0) || !expect_rank_at_least(ctx, 0, 2, "input") ||
        !expect_index_type(ctx, 1, "sequence_lens", false) || !expect_rank(ctx, 1, 1, "sequence_lens"))
        return;
    const auto batch = ctx.attr_int("batch_axis", 1), time = ctx.attr_int("time_axis", 0);
    if (!batch || !time) return;
    if ((*batch != 0 && *batch != 1) || (*time != 0 && *time != 1) || *batch == *time)
        return ctx.invalid_attribute(
            fmt::format("batch_axis {} and time_axis {} must be 0 and 1, one each", *batch, *time));
    const Shape &data = ctx.shape(0), &lens = ctx.shape(1);
    if (!data.rank_dynamic && !lens.rank_dynamic && !lens.dims[0].compatible(data.dims[static_cast<size_t>(*batch)]))
        return ctx.invalid_input(fmt::format("sequence_lens {} must have the batch dim {} of {}", lens.str(),
                                             data.dims[static_cast<size_t>(*batch)].str(), data.str()));
    same_as_input(ctx, out);
}

// EyeLike's types: numeric and bool; bf16 from 22.
bool eye_like_takes(ElementType t, int version) {
    return t == ElementType::boolean || type_in_set(TypeSet::numeric, version, t) ||
           (t == ElementType::bf16 && version >= 22);
}

void infer_eye_like(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_rank(ctx, 0, 2, "input")) return;
    if (const auto t = ctx.type(0); t && !eye_like_takes(*t, ctx.version()))
        return ctx.invalid_input(fmt::format("input is {}, a type the version does not take", element_type_name(*t)));
    std::optional<ElementType> type = ctx.type(0);
    if (ctx.attr("dtype")) {
        const auto code = ctx.attr_int("dtype");
        if (!code) return;
        type = element_type_from_onnx(*code);
        if (!type || !eye_like_takes(*type, ctx.version()))
            return ctx.invalid_attribute(fmt::format("dtype {} is not a type EyeLike gives", *code));
    }
    out.push_back(OpOutput{ctx.shape(0).rank_dynamic ? dynamic_dims(2) : ctx.shape(0), type, std::nullopt, {}});
}

constexpr std::string_view kIndexChecks = "indices int32/int64; axis in range; ranks";

constexpr std::array kEntries{
    onnx_op("CenterCropPad", 18, infer_center_crop_pad, "shape, type", "shape 1-D Tind, one value per axis; axes"),
    onnx_op("Compress", 9, infer_compress, "shape, type", "condition 1-D bool; axis in range (negative before 11: a warning)"),
    onnx_op("Compress", 11, infer_compress, "shape, type", "condition 1-D bool; axis in range (negative before 11: a warning)"),
    onnx_op("DepthToSpace", 1, infer_depth_to_space, "shape, type", "rank 4; blocksize > 0; channels divisible"),
    onnx_op("DepthToSpace", 11, infer_depth_to_space, "shape, type", "rank 4; blocksize > 0; mode; channels divisible"),
    onnx_op("DepthToSpace", 13, infer_depth_to_space, "shape, type", "rank 4; blocksize > 0; mode; channels divisible"),
    onnx_op("EyeLike", 9, infer_eye_like, "shape, type", "rank 2; dtype"),
    onnx_op("EyeLike", 22, infer_eye_like, "shape, type", "rank 2; dtype"),
    onnx_op("Gather", 1, infer_gather, "shape, type, values", kIndexChecks),
    onnx_op("Gather", 11, infer_gather, "shape, type, values", kIndexChecks),
    onnx_op("Gather", 13, infer_gather, "shape, type, values", kIndexChecks),
    onnx_op("GatherElements", 11, infer_gather_elements, "shape, type", kIndexChecks),
    onnx_op("GatherElements", 13, infer_gather_elements, "shape, type", kIndexChecks),
    onnx_op("GatherND", 11, infer_gather_nd, "shape, type", "indices int64; batch_dims (12); index tuple length"),
    onnx_op("GatherND", 12, infer_gather_nd, "shape, type", "indices int64; batch_dims (12); index tuple length"),
    onnx_op("GatherND", 13, infer_gather_nd, "shape, type", "indices int64; batch_dims (12); index tuple length"),
    onnx_op("NonZero", 9, infer_non_zero, "shape, type", "input type"),
    onnx_op("NonZero", 13, infer_non_zero, "shape, type", "input type"),
    onnx_op("OneHot", 9, infer_one_hot, "shape, type", "depth scalar >= 1; values of two; axis in range"),
    onnx_op("OneHot", 11, infer_one_hot, "shape, type", "depth scalar >= 1; values of two; axis in range"),
    onnx_op("Pad", 1, infer_pad, "shape, type", "paddings, 2 per axis; mode; reflect pads < the axis length"),
    onnx_op("Pad", 2, infer_pad, "shape, type", "pads, 2 per axis; mode; reflect pads < the axis length"),
    onnx_op("Pad", 11, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; mode; dims not below 0; reflect pads < the axis length"),
    onnx_op("Pad", 13, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; mode; dims not below 0; reflect pads < the axis length"),
    onnx_op("Pad", 18, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; axes; mode; dims not below 0; reflect pads < the axis length"),
    onnx_op("Pad", 19, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; axes; mode (wrap); dims not below 0; reflect pads < the axis length"),
    onnx_op("Pad", 21, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; axes; mode (wrap); dims not below 0; reflect pads < the axis length"),
    onnx_op("Pad", 23, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; axes; mode (wrap); dims not below 0; reflect pads < the axis length"),
    onnx_op("Pad", 24, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; axes; mode (wrap); dims not below 0; reflect pads < the axis length"),
    onnx_op("Pad", 25, infer_pad, "shape, type",
            "pads 1-D int64, 2 per axis; axes; mode (wrap); dims not below 0; reflect pads < the axis length"),
    onnx_op("ReverseSequence", 10, infer_reverse_sequence, "shape, type", "batch_axis, time_axis 0 and 1; lens 1-D"),
    onnx_op("Scatter", 9, infer_scatter, "shape, type", kIndexChecks),
    onnx_op("Scatter", 11, infer_scatter, "shape, type", "deprecated: refused"),
    onnx_op("ScatterElements", 11, infer_scatter_elements, "shape, type", kIndexChecks),
    onnx_op("ScatterElements", 13, infer_scatter_elements, "shape, type", kIndexChecks),
    onnx_op("ScatterElements", 16, infer_scatter_elements, "shape, type", "reduction; indices, axis, ranks"),
    onnx_op("ScatterElements", 18, infer_scatter_elements, "shape, type", "reduction (max, min); indices, axis, ranks"),
    onnx_op("ScatterND", 11, infer_scatter_nd, "shape, type", "indices int64; updates shape"),
    onnx_op("ScatterND", 13, infer_scatter_nd, "shape, type", "indices int64; updates shape"),
    onnx_op("ScatterND", 16, infer_scatter_nd, "shape, type", "reduction; indices int64; updates shape"),
    onnx_op("ScatterND", 18, infer_scatter_nd, "shape, type", "reduction (max, min); indices int64; updates shape"),
    onnx_op("Slice", 1, infer_slice, "shape, type, values", "starts, ends, axes one per axis; axes in range"),
    onnx_op("Slice", 10, infer_slice, "shape, type, values", "inputs of one Tind, 1-D; axes in range; steps != 0"),
    onnx_op("Slice", 11, infer_slice, "shape, type, values", "inputs of one Tind, 1-D; axes in range; steps != 0"),
    onnx_op("Slice", 13, infer_slice, "shape, type, values", "inputs of one Tind, 1-D; axes in range; steps != 0"),
    onnx_op("SpaceToDepth", 1, infer_space_to_depth, "shape, type", "rank 4; blocksize > 0; height, width divisible"),
    onnx_op("SpaceToDepth", 13, infer_space_to_depth, "shape, type", "rank 4; blocksize > 0; height, width divisible"),
    onnx_op("TensorScatter", 24, infer_tensor_scatter, "shape, type", "axis in range, not 0; mode; ranks"),
    onnx_op("Trilu", 14, infer_trilu, "shape, type", "rank >= 2; k a scalar int64"),
    onnx_op("Unique", 11, infer_unique, "shape, type", "axis in range"),
};

}  // namespace

std::span<const OpEntry> index_entries() { return kEntries; }

}  // namespace irlint::onnx_shape
