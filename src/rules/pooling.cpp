#include "rules/pooling.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

namespace {
constexpr std::array<std::pair<std::string_view, PadType>, 4> kPadTypes{{
    {"explicit", PadType::explicit_pads},
    {"same_upper", PadType::same_upper},
    {"same_lower", PadType::same_lower},
    {"valid", PadType::valid},
}};
constexpr std::array<std::pair<std::string_view, RoundingType>, 3> kRoundingTypes{{
    {"floor", RoundingType::floor},
    {"ceil", RoundingType::ceil},
    {"ceil_torch", RoundingType::ceil_torch},
}};
}  // namespace

std::string_view pad_type_name(PadType t) {
    for (const auto& [name, value] : kPadTypes)
        if (value == t) return name;
    return "explicit";
}

std::string_view rounding_type_name(RoundingType t) {
    for (const auto& [name, value] : kRoundingTypes)
        if (value == t) return name;
    return "floor";
}

std::optional<PadType> parse_pad_type(std::string_view text) {
    for (const auto& [name, value] : kPadTypes)
        if (iequals(text, name)) return value;
    return std::nullopt;
}

std::optional<RoundingType> parse_rounding_type(std::string_view text) {
    for (const auto& [name, value] : kRoundingTypes)
        if (iequals(text, name)) return value;
    return std::nullopt;
}

std::string_view PoolOp::type_name() const {
    switch (kind) {
        case PoolKind::avg_pool: return "AvgPool";
        case PoolKind::max_pool: return "MaxPool";
        case PoolKind::adaptive_avg_pool: return "AdaptiveAvgPool";
        case PoolKind::adaptive_max_pool: return "AdaptiveMaxPool";
    }
    return "";
}

bool PoolOp::has_dilations() const {
    return (kind == PoolKind::max_pool && version >= 8) || (kind == PoolKind::avg_pool && version >= 16);
}

bool PoolOp::has_ceil_torch() const {
    return (kind == PoolKind::max_pool || kind == PoolKind::avg_pool) && version >= 14;
}

bool PoolOp::has_index_output() const {
    return (kind == PoolKind::max_pool && version >= 8) || kind == PoolKind::adaptive_max_pool;
}

bool PoolOp::has_axis() const { return kind == PoolKind::max_pool && version >= 8; }

std::optional<PoolOp> pool_op_for(std::string_view type, int opset) {
    // OpenVINO looks types up case-insensitively.
    if (iequals(type, "avgpool")) return PoolOp{PoolKind::avg_pool, opset >= 16 ? 16 : opset >= 14 ? 14 : 1};
    if (iequals(type, "maxpool")) return PoolOp{PoolKind::max_pool, opset >= 14 ? 14 : opset >= 8 ? 8 : 1};
    if (iequals(type, "adaptiveavgpool") && opset >= 8) return PoolOp{PoolKind::adaptive_avg_pool, 8};
    if (iequals(type, "adaptivemaxpool") && opset >= 8) return PoolOp{PoolKind::adaptive_max_pool, 8};
    return std::nullopt;
}

std::optional<int64_t> dilated_kernel(int64_t kernel, int64_t dilation) {
    int64_t scaled = 0;
    if (__builtin_mul_overflow(kernel - 1, dilation, &scaled) || scaled == Dim::kInf) return std::nullopt;
    return scaled + 1;
}

std::optional<int64_t> pooled_length(int64_t in, const AxisWindow& w, RoundingType rounding) {
    if (in == Dim::kInf) return Dim::kInf;
    const auto kd = dilated_kernel(w.kernel, w.dilation);
    int64_t padded = 0, start_limit = 0;
    // A padded length of exactly Dim::kInf would read as unbounded: it overflows like any larger one.
    if (!kd || __builtin_add_overflow(in, w.pad_begin, &start_limit) ||
        __builtin_add_overflow(start_limit, w.pad_end, &padded) || padded == Dim::kInf)
        return std::nullopt;
    const int64_t span = bound_sub(padded, *kd);
    const int64_t q = rounding == RoundingType::floor ? span / w.stride : span / w.stride + (span % w.stride != 0);
    if (rounding != RoundingType::ceil_torch) return q + 1;
    // ceil_torch: the last window may not start in the right padding. OpenVINO compares in unsigned
    // arithmetic, so an axis with no input and no pads_begin keeps the window.
    int64_t last_start = 0;
    if (__builtin_mul_overflow(q, w.stride, &last_start)) return std::nullopt;
    return (start_limit == 0 || last_start <= start_limit - 1) ? q + 1 : q;
}

std::pair<int64_t, int64_t> same_padding(int64_t in, const AxisWindow& w, PadType auto_pad) {
    const int64_t kd = dilated_kernel(w.kernel, w.dilation).value_or(Dim::kInf);
    const int64_t windows = in / w.stride + (in % w.stride != 0);
    int64_t total = 0;
    if (__builtin_mul_overflow(windows - 1, w.stride, &total) || __builtin_add_overflow(total, kd, &total))
        total = Dim::kInf;
    total = std::max<int64_t>(0, total - in);
    const int64_t half = total / 2;
    return auto_pad == PadType::same_lower ? std::pair{total - half, half} : std::pair{half, total - half};
}

namespace {

// A message lists at most this many values of a list, however long the list in the file is.
constexpr size_t kShownValues = 8;

std::string shown_ints(const std::vector<int64_t>& v) {
    if (v.size() <= kShownValues) return join_ints(v);
    return join_ints({v.begin(), v.begin() + kShownValues}) + ",...";
}

std::string list_str(const std::vector<int64_t>& v) { return v.empty() ? "(empty)" : shown_ints(v); }

// " (1,2)" after a count of values, nothing when there are none.
std::string values_of(const std::vector<int64_t>& v) { return v.empty() ? "" : " (" + shown_ints(v) + ")"; }

std::vector<int64_t> or_fill(const std::vector<int64_t>& v, size_t n, int64_t fill) {
    return v.empty() ? std::vector<int64_t>(n, fill) : v;
}

// The attributes with their defaults filled in: the lists infer_pool_shape works on.
struct ResolvedAttributes {
    std::vector<int64_t> strides;  // the IR reader fills no default: empty strides are an error
    std::vector<int64_t> dilations;
    std::vector<int64_t> pads_begin, pads_end;
};

ResolvedAttributes resolve_defaults(const PoolOp& op, const PoolingDesc& d) {
    const size_t n = d.kernel.size();
    return {d.strides, op.has_dilations() ? or_fill(d.dilations, n, 1) : std::vector<int64_t>(n, 1),
            or_fill(d.pads_begin, n, 0), or_fill(d.pads_end, n, 0)};
}

std::optional<std::string> validate_axis_attribute(const PoolOp& op, const PoolingDesc& d, const Shape& input) {
    if (!op.has_axis() || input.rank_dynamic) return std::nullopt;
    const auto rank = static_cast<int64_t>(input.rank());
    if (d.axis != 0 && (d.axis < -rank || d.axis >= rank))
        return fmt::format("axis={} is out of the range [{}, {}] of the {}D input", d.axis, -rank,
                           std::max<int64_t>(rank - 1, 0), rank);
    return std::nullopt;
}

// Every list has one value per kernel axis, and the kernel one per spatial axis of the input.
std::optional<std::string> validate_list_lengths(const PoolingDesc& d, const Shape& input, const ResolvedAttributes& a) {
    const size_t n = d.kernel.size();
    if (a.pads_begin.size() != n)
        return fmt::format("pads_begin has {}{}, expected one per kernel axis ({})",
                           counted(a.pads_begin.size(), "value"), values_of(a.pads_begin), n);
    if (a.pads_end.size() != n)
        return fmt::format("pads_end has {}{}, expected one per kernel axis ({})", counted(a.pads_end.size(), "value"),
                           values_of(a.pads_end), n);
    if (!input.rank_dynamic && (input.rank() < 3 || input.rank() > 5))
        return fmt::format("the input must be 3D, 4D or 5D; it is {} (rank {})", input.str(), input.rank());
    if (a.strides.size() != n)
        return fmt::format("strides has {}{}, expected one per kernel axis ({}){}", counted(a.strides.size(), "value"),
                           values_of(a.strides), n,
                           a.strides.empty() ? "; OpenVINO's IR reader does not default missing strides to 1" : "");
    if (a.dilations.size() != n)
        return fmt::format("dilations has {}{}, expected one per kernel axis ({})",
                           counted(a.dilations.size(), "value"), values_of(a.dilations), n);
    if (!input.rank_dynamic && n != input.rank() - 2)
        return fmt::format("kernel has {}{}, but the {}D input {} has {}", counted(n, "value"), values_of(d.kernel),
                           input.rank(), input.str(), counted(input.rank() - 2, "spatial axis", "spatial axes"));
    return std::nullopt;
}

std::optional<std::string> validate_value_ranges(const PoolOp& op, const PoolingDesc& d, const ResolvedAttributes& a) {
    auto below = [](const std::vector<int64_t>& v, int64_t lo) {
        return std::any_of(v.begin(), v.end(), [lo](int64_t x) { return x < lo; });
    };
    if (below(d.kernel, 1)) return fmt::format("kernel {} has a value below 1", list_str(d.kernel));
    if (below(a.strides, 1)) return fmt::format("strides {} has a zero or negative value", list_str(a.strides));
    if (below(a.dilations, 1)) return fmt::format("dilations {} has a zero or negative value", list_str(a.dilations));
    if (below(a.pads_begin, 0)) return fmt::format("pads_begin {} has a negative value", list_str(a.pads_begin));
    if (below(a.pads_end, 0)) return fmt::format("pads_end {} has a negative value", list_str(a.pads_end));
    if (d.rounding == RoundingType::ceil_torch && !op.has_ceil_torch())
        return fmt::format("rounding_type=ceil_torch is not supported by {}-{}: it exists from opset14 on",
                           op.type_name(), op.version);
    return std::nullopt;
}

// The attribute checks OpenVINO makes before it looks at any dimension, in its order.
std::optional<std::string> validate_attributes(const PoolOp& op, const PoolingDesc& d, const Shape& input,
                                               const ResolvedAttributes& a) {
    if (auto error = validate_axis_attribute(op, d, input)) return error;
    if (auto error = validate_list_lengths(d, input, a)) return error;
    return validate_value_ranges(op, d, a);
}

// A static zero batch or channel count, which OpenVINO rejects before the spatial axes.
std::optional<std::string> validate_batch_and_channels(const Shape& input) {
    if (input.dims[0].is_static() && input.dims[0].length() == 0)
        return fmt::format("the batch size of the input {} is zero", input.str());
    if (input.dims[1].is_static() && input.dims[1].length() == 0)
        return fmt::format("the channel count of the input {} is zero", input.str());
    return std::nullopt;
}

std::string rounding_word(RoundingType r) { return r == RoundingType::floor ? "floor" : "ceil"; }

std::string kernel_term(const AxisWindow& w) {
    if (w.dilation == 1) return std::to_string(w.kernel);
    return fmt::format("(({}-1)*{}+1)", w.kernel, w.dilation);
}

// "floor((32+1+1-5)/2)+1 = 15", with the ceil_torch correction spelled out when it applies.
std::string axis_formula(const Dim& in, const AxisWindow& w, const PoolingDesc& d, const Dim& out) {
    std::string prefix;
    std::string padded = in.str();
    if (d.auto_pad == PadType::valid) {
        prefix = "valid: ";
    } else {
        if (d.auto_pad != PadType::explicit_pads)
            prefix = fmt::format("{} pads {}/{}: ", pad_type_name(d.auto_pad), w.pad_begin, w.pad_end);
        padded += fmt::format("+{}+{}", w.pad_begin, w.pad_end);
    }
    std::string text = fmt::format("{}{}(({}-{})/{})+1", prefix, rounding_word(d.rounding), padded, kernel_term(w),
                                   w.stride);
    if (d.rounding == RoundingType::ceil_torch) {
        const auto plain_ceil = pooled_length(in.min(), w, RoundingType::ceil);
        if (in.is_static() && plain_ceil && *plain_ceil != out.min())
            return fmt::format("{} = {}, minus the last window, which would start in the padding (ceil_torch) = {}",
                               text, *plain_ceil, out.str());
    }
    return fmt::format("{} = {}", text, out.str());
}

}  // namespace

namespace {

bool is_same_padding(PadType t) { return t == PadType::same_upper || t == PadType::same_lower; }

// The window of spatial axis i with its pads resolved from auto_pad: none for valid, computed from a static
// dim for same_upper / same_lower (0 on a dynamic one, whose output is then dynamic).
AxisWindow resolve_axis_window(const PoolingDesc& d, const ResolvedAttributes& a, size_t i, const Dim& in) {
    AxisWindow w{a.pads_begin[i], a.pads_end[i], d.kernel[i], a.strides[i], a.dilations[i]};
    if (d.auto_pad == PadType::valid) w.pad_begin = w.pad_end = 0;
    if (is_same_padding(d.auto_pad))
        std::tie(w.pad_begin, w.pad_end) =
            in.is_static() ? same_padding(in.length(), w, d.auto_pad) : std::pair<int64_t, int64_t>{0, 0};
    return w;
}

// What OpenVINO checks on a static axis before computing its length: no overflow, a dilated kernel that
// fits the padded input, and for AvgPool with exclude-pad no window wholly in the padding.
std::optional<std::string> validate_static_axis(const PoolOp& op, const PoolingDesc& d, size_t dim, int64_t in,
                                                const AxisWindow& w) {
    const auto kd = dilated_kernel(w.kernel, w.dilation);
    int64_t padded = 0;
    if (!kd || __builtin_add_overflow(in, w.pad_begin, &padded) || __builtin_add_overflow(padded, w.pad_end, &padded))
        return fmt::format("dim {}: integer overflow in {}+{}+{} or the dilated kernel", dim, in, w.pad_begin,
                           w.pad_end);
    if (*kd > padded)
        return fmt::format("dim {}: the kernel after dilation ({}) is larger than the padded input {}+{}+{} = {}", dim,
                           *kd, in, w.pad_begin, w.pad_end, padded);
    if (op.kind == PoolKind::avg_pool && d.exclude_pad && !(*kd > w.pad_begin && *kd > w.pad_end))
        return fmt::format(
            "dim {}: with exclude-pad=true a window of {} (after dilation) can lie wholly in the padding "
            "(pads_begin {}, pads_end {}); OpenVINO rejects this",
            dim, *kd, w.pad_begin, w.pad_end);
    return std::nullopt;
}

// The output dim of an axis, bound by bound; nullopt on overflow. An interval's upper bound saturates to
// unbounded, as ov::Interval's addition does.
std::optional<Dim> pooled_dim(const Dim& in, const AxisWindow& w, RoundingType rounding) {
    const auto lo = pooled_length(in.min(), w, rounding);
    const auto hi = in.is_static() ? lo : pooled_length(in.max(), w, rounding).value_or(Dim::kInf);
    if (!lo || !hi) return std::nullopt;
    return in.is_static() ? Dim(*lo) : Dim(*lo, *hi == Dim::kInf ? -1 : *hi);
}

PoolShape rejected(std::string error) {
    PoolShape result;
    result.error = std::move(error);
    return result;
}

}  // namespace

// OpenVINO's pipeline: fill the defaults, validate the attributes, then per spatial axis resolve the pads,
// validate the axis and compute its dim.
PoolShape infer_pool_shape(const PoolOp& op, const PoolingDesc& d, const Shape& input, Formulas formulas) {
    ResolvedAttributes a = resolve_defaults(op, d);
    if (auto error = validate_attributes(op, d, input, a)) return rejected(std::move(*error));
    PoolShape result;
    if (input.rank_dynamic) {
        result.output.dims.assign(d.kernel.size() + 2, Dim::dynamic());
        result.pads_begin = std::move(a.pads_begin);
        result.pads_end = std::move(a.pads_end);
        return result;
    }
    if (auto error = validate_batch_and_channels(input)) return rejected(std::move(*error));

    result.output.dims = {input.dims[0], input.dims[1]};
    for (size_t i = 0; i < d.kernel.size(); ++i) {
        const Dim& in = input.dims[i + 2];
        const AxisWindow w = resolve_axis_window(d, a, i, in);
        a.pads_begin[i] = w.pad_begin;
        a.pads_end[i] = w.pad_end;
        if (is_same_padding(d.auto_pad) && !in.is_static()) {
            // OpenVINO cannot keep auto pads per bound, so such an axis is fully dynamic.
            result.output.dims.push_back(Dim::dynamic());
            if (formulas == Formulas::written)
                result.axis_formulas.push_back(
                    fmt::format("{} on the dynamic dim {} = ?", pad_type_name(d.auto_pad), in.str()));
            continue;
        }
        if (in.is_static())
            if (auto error = validate_static_axis(op, d, i + 2, in.length(), w)) return rejected(std::move(*error));
        const auto out = pooled_dim(in, w, d.rounding);
        if (!out) return rejected(fmt::format("dim {}: integer overflow in the output size", i + 2));
        result.output.dims.push_back(*out);
        if (formulas == Formulas::written) result.axis_formulas.push_back(axis_formula(in, w, d, *out));
    }
    result.pads_begin = std::move(a.pads_begin);
    result.pads_end = std::move(a.pads_end);
    return result;
}

namespace {

std::string dims_list(const std::vector<Dim>& dims) {
    std::vector<std::string> parts;
    for (const Dim& d : dims) parts.push_back(d.str());
    return fmt::format("{}", fmt::join(parts, ","));
}

}  // namespace

PoolShape infer_adaptive_shape(const Shape& input, const Shape& output_size_shape,
                               const std::optional<std::vector<int64_t>>& output_size) {
    if (!output_size) return infer_adaptive_shape_from_dims(input, output_size_shape, std::nullopt);
    std::vector<Dim> dims;
    for (int64_t v : *output_size) {
        if (v < 0) {
            PoolShape result;
            result.error = fmt::format("output_size {} has a negative value", list_str(*output_size));
            return result;
        }
        dims.emplace_back(v);
    }
    return infer_adaptive_shape_from_dims(input, output_size_shape, std::move(dims));
}

PoolShape infer_adaptive_shape_from_dims(const Shape& input, const Shape& output_size_shape,
                                         const std::optional<std::vector<Dim>>& output_size) {
    PoolShape result;
    if (!input.rank_dynamic && (input.rank() < 3 || input.rank() > 5)) {
        result.error = fmt::format("the input must be 3D, 4D or 5D; it is {} (rank {})", input.str(), input.rank());
        return result;
    }
    if (input.rank_dynamic) {
        result.output = Shape::dynamic_rank();
        return result;
    }
    const size_t spatial = input.rank() - 2;
    if (!output_size_shape.rank_dynamic) {
        if (output_size_shape.rank() != 1) {
            result.error = fmt::format("output_size must be a 1D tensor; its shape is {}", output_size_shape.str());
            return result;
        }
        if (!output_size_shape.dims[0].compatible(Dim(static_cast<int64_t>(spatial)))) {
            result.error = fmt::format("output_size has shape {}, but the {}D input has {}", output_size_shape.str(),
                                       input.rank(), counted(spatial, "spatial axis", "spatial axes"));
            return result;
        }
    }
    result.output.dims = {input.dims[0], input.dims[1]};
    if (!output_size) {
        result.output.dims.resize(input.rank(), Dim::dynamic());
        return result;
    }
    if (output_size->size() != spatial) {
        result.error =
            fmt::format("output_size holds {} ({}), but the {}D input has {}", counted(output_size->size(), "value"),
                        dims_list(*output_size), input.rank(), counted(spatial, "spatial axis", "spatial axes"));
        return result;
    }
    for (const Dim& v : *output_size) {
        result.output.dims.push_back(v);
        result.axis_formulas.push_back(fmt::format("output_size = {}", v.str()));
    }
    return result;
}

}  // namespace irlint
