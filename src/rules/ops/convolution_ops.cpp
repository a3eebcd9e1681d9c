// The convolution family: Convolution, GroupConvolution, their backprop-data twins, DeformableConvolution,
// BinaryConvolution (here), MatMul, Einsum and Col2Im (convolution_matmul_ops.cpp). Shapes follow OpenVINO's
// convolution shape inference: the spatial rank comes from the data rank, else the filters rank, else the
// attribute lists; then ranks, channels and attributes are checked, and each spatial dim is computed with
// OpenVINO's interval arithmetic.

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/convolution_matmul.hpp"
#include "rules/ops/invariants.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/ops/shape_util.hpp"
#include "rules/pooling.hpp"

namespace irlint {

namespace {

constexpr size_t kUndefined = static_cast<size_t>(-1);

// ---- element types -------------------------------------------------------------------------------------

bool is_numeric(ElementType t) { return t != ElementType::boolean && t != ElementType::string; }

// OpenVINO merges the data and filters types: equal, or one of them dynamic. An undeclared type takes the
// other's (when the layer is valid they are equal).
bool merge_types(std::optional<ElementType>& merged, std::optional<ElementType> t) {
    if (!t || *t == ElementType::dynamic) return true;
    if (!merged || *merged == ElementType::dynamic) {
        merged = t;
        return true;
    }
    return *merged == *t;
}

// The data and filters types merged, checked numeric; records the problem and returns false when not.
bool merged_numeric_type(OpContext& ctx, std::optional<ElementType>& out) {
    out = ctx.type(0);
    if (!merge_types(out, ctx.type(1))) {
        ctx.invalid_input(fmt::format("element types of data ({}) and filters ({}) do not match", type_str(ctx.type(0)),
                                      type_str(ctx.type(1))));
        return false;
    }
    if (out && !is_numeric(*out)) {
        ctx.invalid_input(fmt::format("element type {} is not numeric", type_str(out)));
        return false;
    }
    return true;
}

// ---- attributes ----------------------------------------------------------------------------------------

constexpr std::array<std::string_view, 4> kPadNames{"explicit", "same_upper", "same_lower", "valid"};

struct ConvAttrs {
    std::vector<int64_t> strides, dilations, pads_begin, pads_end, output_padding;
    PadType auto_pad = PadType::explicit_pads;
    bool same() const { return auto_pad == PadType::same_upper || auto_pad == PadType::same_lower; }
};

std::optional<ConvAttrs> read_attrs(OpContext& ctx, bool backprop) {
    ConvAttrs a;
    auto strides = ctx.attr_ints("strides", std::vector<int64_t>{});
    auto dilations = ctx.attr_ints("dilations", std::vector<int64_t>{});
    auto pads_begin = ctx.attr_ints("pads_begin", std::vector<int64_t>{});
    auto pads_end = ctx.attr_ints("pads_end", std::vector<int64_t>{});
    auto output_padding = backprop ? ctx.attr_ints("output_padding", std::vector<int64_t>{}) : std::vector<int64_t>{};
    const auto pad = ctx.attr_enum("auto_pad", kPadNames, "explicit");
    if (!strides || !dilations || !pads_begin || !pads_end || !output_padding || !pad) return std::nullopt;
    a.strides = std::move(*strides);
    a.dilations = std::move(*dilations);
    a.pads_begin = std::move(*pads_begin);
    a.pads_end = std::move(*pads_end);
    a.output_padding = std::move(*output_padding);
    a.auto_pad = parse_pad_type(*pad).value_or(PadType::explicit_pads);
    return a;
}

// The spatial rank from the attribute lists, when no input rank gives it.
size_t spatial_from_attrs(const ConvAttrs& a) {
    for (const auto* v : {&a.strides, &a.dilations, &a.pads_begin, &a.pads_end})
        if (!v->empty()) return v->size();
    return kUndefined;
}

// The spatial rank: data rank - 2, else filters rank - (its non-spatial dims), else the attributes.
size_t spatial_rank(const Shape& data, const Shape& filters, size_t filter_non_spatial, const ConvAttrs& a) {
    if (!data.rank_dynamic) return data.rank() >= 2 ? data.rank() - 2 : 0;
    if (!filters.rank_dynamic) return filters.rank() >= filter_non_spatial ? filters.rank() - filter_non_spatial : 0;
    return spatial_from_attrs(a);
}

// Empty lists take their defaults once the spatial rank is known: strides and dilations 1, pads 0.
void fill_defaults(ConvAttrs& a, size_t n) {
    if (a.strides.empty()) a.strides.assign(n, 1);
    if (a.dilations.empty()) a.dilations.assign(n, 1);
    if (a.pads_begin.empty()) a.pads_begin.assign(n, 0);
    if (a.pads_end.empty()) a.pads_end.assign(n, 0);
    if (a.output_padding.empty()) a.output_padding.assign(n, 0);
}

bool check_list_length(OpContext& ctx, std::string_view name, const std::vector<int64_t>& v, size_t n) {
    if (v.size() == n) return true;
    ctx.invalid_attribute(fmt::format("{} has {} values ({}), expected {}: one per spatial dim", name, v.size(),
                                      join_ints(v), n));
    return false;
}

bool check_positive(OpContext& ctx, std::string_view name, const std::vector<int64_t>& v) {
    if (std::all_of(v.begin(), v.end(), [](int64_t x) { return x > 0; })) return true;
    ctx.invalid_attribute(fmt::format("{} ({}) must all be > 0", name, join_ints(v)));
    return false;
}

// OpenVINO's common attribute checks: one value per spatial dim, strides and dilations non-zero.
bool check_common_attrs(OpContext& ctx, const ConvAttrs& a, size_t n, bool backprop) {
    return check_list_length(ctx, "strides", a.strides, n) && check_list_length(ctx, "dilations", a.dilations, n) &&
           check_list_length(ctx, "pads_begin", a.pads_begin, n) && check_list_length(ctx, "pads_end", a.pads_end, n) &&
           check_positive(ctx, "strides", a.strides) && check_positive(ctx, "dilations", a.dilations) &&
           (!backprop || check_list_length(ctx, "output_padding", a.output_padding, n));
}

// Filters of fewer dims than their non-spatial ones: OpenVINO has no valid reading of them.
bool check_filters_rank(OpContext& ctx, const Shape& filters, size_t non_spatial) {
    if (filters.rank_dynamic || filters.rank() >= non_spatial) return true;
    ctx.invalid_input(fmt::format("filters {} has rank {}: expected at least {}", filters.str(), filters.rank(),
                                  non_spatial));
    return false;
}

bool check_data_rank(OpContext& ctx, const Shape& data) {
    if (data.rank_dynamic || (data.rank() >= 3 && data.rank() <= 5)) return true;
    ctx.invalid_input(fmt::format("data {} has rank {}: expected 3, 4 or 5 (1D, 2D or 3D convolution)", data.str(),
                                  data.rank()));
    return false;
}

// ---- spatial dims --------------------------------------------------------------------------------------

// The last n dims of a shape, or n dynamic dims when its rank is dynamic.
std::vector<Dim> last_dims(const Shape& s, size_t n) {
    if (s.rank_dynamic || s.rank() < n) return std::vector<Dim>(n, Dim::dynamic());
    return {s.dims.end() - static_cast<std::ptrdiff_t>(n), s.dims.end()};
}

int64_t ceil_div(int64_t v, int64_t d) { return v / d + (v % d != 0); }

Dim ceil_div(const Dim& in, int64_t d) {
    if (in.is_static()) return Dim(ceil_div(in.min(), d));
    return Dim(ceil_div(in.min(), d), in.has_upper_bound() ? ceil_div(in.max(), d) : -1);
}

// (k-1)*d+1 as OpenVINO computes it on a dim (interval arithmetic, clipping at 0).
Dim dilated(const Dim& k, int64_t d) { return (k - Dim(1)) * Dim(d) + Dim(1); }

std::string pads_text(int64_t pb, int64_t pe) {
    auto term = [](int64_t p) { return p < 0 ? fmt::format("{}", p) : fmt::format("+{}", p); };
    return term(pb) + term(pe);
}

std::string kernel_text(const Dim& k, int64_t d) {
    if (d == 1) return k.str();
    return fmt::format("(({}-1)*{}+1)", k.str(), d);
}

// One forward spatial dim: auto pads same give ceil(in/stride); otherwise floor((in+pads-dilated)/stride)+1,
// with OpenVINO's check that a static dilated kernel fits the static padded input.
bool forward_dim(OpContext& ctx, size_t axis, const Dim& in, const Dim& kernel, const ConvAttrs& a, Dim& out,
                 std::string& note) {
    const int64_t s = a.strides[axis], d = a.dilations[axis];
    if (a.same()) {
        out = ceil_div(in, s);
        note = fmt::format("{}: ceil({}/{}) = {}", pad_type_name(a.auto_pad), in.str(), s, out.str());
        return true;
    }
    const int64_t pb = a.auto_pad == PadType::valid ? 0 : a.pads_begin[axis];
    const int64_t pe = a.auto_pad == PadType::valid ? 0 : a.pads_end[axis];
    const auto pads = (CheckedInt(pb) + pe).get();
    if (!pads) {
        ctx.invalid_attribute(fmt::format("pads_begin {} + pads_end {} overflows at axis {}", pb, pe, axis));
        return false;
    }
    // in + pads as OpenVINO adds dims: a negative sum shrinks the interval, clipping at 0.
    const Dim padded = *pads >= 0 ? in + Dim(*pads) : in - Dim(-*pads);
    const Dim kd = dilated(kernel, d);
    if (padded.is_static() && kd.is_static()) {
        if (kd.length() < 1) {
            ctx.invalid_input(fmt::format("the kernel after dilation is {} at axis {}: less than 1", kd.length(), axis));
            return false;
        }
        if (kd.length() > padded.length()) {
            ctx.invalid_input(fmt::format("the kernel after dilation ({}) is larger than the padded input {}{} = {} at "
                                          "axis {}",
                                          kd.length(), in.str(), pads_text(pb, pe), padded.length(), axis));
            return false;
        }
    }
    if (kernel.is_static() && *pads >= 0) {
        // The pooling formula, bound by bound (a kernel of 0 dilates to 1 in dim arithmetic, as 1 does).
        const AxisWindow w{pb, pe, std::max<int64_t>(kernel.length(), 1), s, d};
        const auto lo = pooled_length(in.min(), w, RoundingType::floor);
        const auto hi = in.is_static() ? lo : pooled_length(in.max(), w, RoundingType::floor).value_or(Dim::kInf);
        if (!lo || !hi) {
            ctx.invalid_input(fmt::format("integer overflow in the output size at axis {}", axis));
            return false;
        }
        out = in.is_static() ? Dim(*lo) : Dim(*lo, *hi == Dim::kInf ? -1 : *hi);
    } else {
        const Dim span = padded - kd;
        const int64_t lo = span.min() == Dim::kInf ? Dim::kInf : span.min() / s;
        const int64_t hi = span.has_upper_bound() ? span.max() / s : Dim::kInf;
        out = (span.is_static() ? Dim(lo) : Dim(lo, hi == Dim::kInf ? -1 : hi)) + Dim(1);
    }
    if (!ctx.explain()) return true;
    note = fmt::format("{}floor(({}{}-{})/{})+1 = {}", a.auto_pad == PadType::valid ? "valid: " : "", in.str(),
                       a.auto_pad == PadType::valid ? "" : pads_text(pb, pe), kernel_text(kernel, d), s, out.str());
    return true;
}

bool append_forward_spatial(OpContext& ctx, const Shape& data, const Shape& filters, size_t n, const ConvAttrs& a,
                            OpOutput& out) {
    const auto in = last_dims(data, n);
    const auto k = last_dims(filters, n);
    for (size_t i = 0; i < n; ++i) {
        Dim d;
        std::string note;
        if (!forward_dim(ctx, i, in[i], k[i], a, d, note)) return false;
        out.shape.dims.push_back(d);
        if (ctx.explain()) out.dim_notes.push_back(std::move(note));
    }
    return true;
}

// dim + pad as OpenVINO pads a bound: a bound that would go below 0 (or an unbounded one) becomes unbounded.
Dim padded_dim(const Dim& d, int64_t pad) {
    if (pad == 0) return d;
    auto bound = [pad](int64_t b) -> int64_t {
        if (b == Dim::kInf) return Dim::kInf;
        const auto v = (CheckedInt(b) + pad).get();
        return !v || *v < 0 ? Dim::kInf : *v;
    };
    const int64_t hi = bound(d.max());
    if (d.is_static()) return hi == Dim::kInf ? Dim::dynamic() : Dim(hi);
    const int64_t lo = bound(d.min());
    return Dim(lo == Dim::kInf ? 0 : lo, hi == Dim::kInf ? -1 : hi);
}

// Backprop spatial dims without an output_shape input: (in-1)*stride + dilated kernel + output_padding - pads;
// auto pads (same or valid) count as 0.
void append_backprop_spatial(const OpContext& ctx, const Shape& data, const Shape& filters, size_t n, const ConvAttrs& a, OpOutput& out) {
    const auto in = last_dims(data, n);
    const auto k = last_dims(filters, n);
    const bool explicit_pads = a.auto_pad == PadType::explicit_pads;
    for (size_t i = 0; i < n; ++i) {
        const int64_t pb = explicit_pads ? a.pads_begin[i] : 0, pe = explicit_pads ? a.pads_end[i] : 0;
        const int64_t s = a.strides[i], d = a.dilations[i], op = a.output_padding[i];
        const Dim base = (in[i] - Dim(1)) * Dim(s) + dilated(k[i], d);
        const auto adjust = (CheckedInt(op) - pb - pe).get().value_or(Dim::kInf);
        const Dim dim = adjust == Dim::kInf ? Dim::dynamic() : padded_dim(base, adjust);
        out.shape.dims.push_back(dim);
        if (ctx.explain())
            out.dim_notes.push_back(fmt::format("({}-1)*{}+{}+{}-{}-{} = {}", in[i].str(), s, kernel_text(k[i], d), op, pb,
                                            pe, dim.str()));
    }
}

// The spatial dims an output_shape input gives (input 2 of the backprop ops): its values as dims, or dynamic
// dims of its length when they are unknown; nullopt when not even the length is known.
std::optional<std::vector<Dim>> output_shape_input(OpContext& ctx) {
    const Shape& s = ctx.shape(2);
    const TensorValue* v = ctx.value(2);
    if (v) {
        std::vector<Dim> dims;
        for (const ValueBounds& b : *v) dims.push_back(value_as_dim(b));
        return dims;
    }
    ctx.value_unknown("the values of output_shape (input 2) are unknown");
    // The batch, the output channels and the rank hold whatever the spatial dims are.
    ctx.invariant(invariants::inferred_bounds());
    if (!s.rank_dynamic && s.rank() == 1 && s.dims[0].is_static() &&
        static_cast<uint64_t>(s.dims[0].length()) <= kMaxShapeRank)
        return std::vector<Dim>(static_cast<size_t>(s.dims[0].length()), Dim::dynamic());
    return std::nullopt;
}

std::string dims_str(const std::vector<Dim>& dims) {
    Shape s;
    s.dims = dims;
    return s.str();
}

void blank_notes(const OpContext& ctx, OpOutput& out) {
    if (ctx.explain()) out.dim_notes.assign(out.shape.dims.size(), "");
}

// Where a filters tensor holds its channels: Convolution's are [C_out, C_in, k...], the backprop ops'
// [C_in, C_out, k...]; the grouped layouts put G in front, so each dim moves one on.
struct FilterChannels {
    size_t in;                   // the dim of the (per-group) input channels, without groups
    size_t out;                  // the dim of the (per-group) output channels, without groups
    std::string_view in_label;   // how a message names the input channels' dim
};
constexpr FilterChannels kForwardFilters{1, 0, ""};
constexpr FilterChannels kBackpropFilters{0, 1, " (dim 0)"};

// The ranks of data and filters against each other, and the input channels of ungrouped filters.
bool check_ranks_and_channels(OpContext& ctx, const Shape& data, const Shape& filters, bool groups,
                              const FilterChannels& fc) {
    const bool ranks_known = !data.rank_dynamic && !filters.rank_dynamic;
    if (groups) {
        if (!check_data_rank(ctx, data)) return false;
        if (ranks_known && data.rank() + 1 != filters.rank()) {
            ctx.invalid_input(fmt::format("data rank {} and filters rank {} do not match: grouped filters have one "
                                          "dim more than the data (data {}, filters {})",
                                          data.rank(), filters.rank(), data.str(), filters.str()));
            return false;
        }
        return true;
    }
    if (ranks_known && data.rank() != filters.rank()) {
        ctx.invalid_input(fmt::format("data rank {} and filters rank {} differ (data {}, filters {})", data.rank(),
                                      filters.rank(), data.str(), filters.str()));
        return false;
    }
    if (!check_data_rank(ctx, data)) return false;
    if (ranks_known && !data.dims[1].compatible(filters.dims[fc.in])) {
        ctx.invalid_input(fmt::format("data channels {} do not match the filters' input channels {}{}",
                                      data.dims[1].str(), filters.dims[fc.in].str(), fc.in_label));
        return false;
    }
    return true;
}

// The output's batch and channel dims. Grouped filters give G (merged with the data channels over the
// per-group input channels) times the per-group output channels; false when the groups cannot divide them.
bool append_batch_and_channels(OpContext& ctx, const Shape& data, const Shape& filters, bool groups,
                               const FilterChannels& fc, OpOutput& out) {
    out.shape.dims.push_back(data.rank_dynamic ? Dim::dynamic() : data.dims[0]);
    if (filters.rank_dynamic) {
        out.shape.dims.push_back(Dim::dynamic());
        return true;
    }
    if (!groups) {
        out.shape.dims.push_back(filters.dims[fc.out]);
        return true;
    }
    const Dim& in_per_group = filters.dims[fc.in + 1];
    Dim g = filters.dims[0];
    if (!data.rank_dynamic && in_per_group.is_static() && in_per_group.length() > 0) {
        const Dim per_group = data.dims[1].divided_by(in_per_group.length());
        const auto merged = per_group.is_empty() ? std::nullopt : Dim::merge(g, per_group);
        if (!merged || merged->is_empty()) {
            ctx.invalid_input(fmt::format("data channels {} are not groups {} times the filters' input channels "
                                          "{} (data {}, filters {})",
                                          data.dims[1].str(), g.str(), in_per_group.str(), data.str(), filters.str()));
            return false;
        }
        g = *merged;
    }
    out.shape.dims.push_back(g * filters.dims[fc.out + 1]);
    return true;
}

// ---- Convolution, BinaryConvolution --------------------------------------------------------------------

// The forward ops share everything after the element types; `groups` selects GroupConvolution's filters
// layout [G, C_out/G, C_in/G, k...].
void infer_forward(OpContext& ctx, std::vector<OpOutput>& outs, std::optional<ElementType> type, bool groups) {
    auto a = read_attrs(ctx, false);
    if (!a) return;
    const Shape& data = ctx.shape(0);
    const Shape& filters = ctx.shape(1);
    const size_t filter_non_spatial = groups ? 3 : 2;
    OpOutput out;
    out.type = type;
    const size_t n = spatial_rank(data, filters, filter_non_spatial, *a);
    if (n == kUndefined) {
        out.shape = Shape::dynamic_rank();
        outs.push_back(std::move(out));
        return;
    }
    fill_defaults(*a, n);
    if (!check_filters_rank(ctx, filters, filter_non_spatial)) return;
    if (!check_ranks_and_channels(ctx, data, filters, groups, kForwardFilters)) return;
    if (!check_common_attrs(ctx, *a, n, false)) return;

    if (!append_batch_and_channels(ctx, data, filters, groups, kForwardFilters, out)) return;
    blank_notes(ctx, out);
    if (!append_forward_spatial(ctx, data, filters, n, *a, out)) return;
    outs.push_back(std::move(out));
}

void infer_convolution(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    std::optional<ElementType> type;
    if (!merged_numeric_type(ctx, type)) return;
    infer_forward(ctx, outs, type, false);
}

void infer_group_convolution(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    std::optional<ElementType> type;
    if (!merged_numeric_type(ctx, type)) return;
    infer_forward(ctx, outs, type, true);
}

constexpr std::array<std::string_view, 1> kBinaryModes{"xnor-popcount"};

// BinaryConvolution: the data type is the output's; the filters (u1) are not type-checked.
void infer_binary_convolution(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    const auto type = ctx.type(0);
    if (type && !is_numeric(*type)) {
        ctx.invalid_input(fmt::format("data element type {} is not numeric", type_str(type)));
        return;
    }
    if (!ctx.attr_enum("mode", kBinaryModes) || !ctx.attr_float("pad_value", 0.0)) return;
    infer_forward(ctx, outs, type, false);
}

// ---- ConvolutionBackpropData, GroupConvolutionBackpropData ---------------------------------------------

void infer_backprop(OpContext& ctx, std::vector<OpOutput>& outs, bool groups) {
    if (!ctx.expect_inputs(2, 3)) return;
    std::optional<ElementType> type;
    if (!merged_numeric_type(ctx, type)) return;
    const bool has_output_shape = ctx.input_count() == 3;
    if (has_output_shape) {
        if (const auto t = ctx.type(2); t && *t != ElementType::dynamic && !is_integer_type(*t)) {
            ctx.invalid_input(fmt::format("output_shape (input 2) must be of an integer type, not {}", type_str(t)));
            return;
        }
        const Shape& s = ctx.shape(2);
        if (!s.rank_dynamic && s.rank() != 1) {
            ctx.invalid_input(fmt::format("output_shape (input 2) {} must have rank 1", s.str()));
            return;
        }
    }
    auto a = read_attrs(ctx, true);
    if (!a) return;
    const Shape& data = ctx.shape(0);
    const Shape& filters = ctx.shape(1);
    const size_t filter_non_spatial = groups ? 3 : 2;
    std::optional<std::vector<Dim>> spatial;
    if (has_output_shape) spatial = output_shape_input(ctx);

    OpOutput out;
    out.type = type;
    size_t n = spatial_rank(data, filters, filter_non_spatial, *a);
    if (n == kUndefined && spatial && !spatial->empty()) n = spatial->size();
    if (n == kUndefined) {
        out.shape = Shape::dynamic_rank();
        outs.push_back(std::move(out));
        return;
    }
    if (spatial && spatial->size() != n) {
        ctx.invalid_input(fmt::format("output_shape {} has {} values, expected {}: one per spatial dim",
                                      dims_str(*spatial), spatial->size(), n));
        return;
    }
    fill_defaults(*a, n);
    if (!check_filters_rank(ctx, filters, filter_non_spatial)) return;
    if (!check_ranks_and_channels(ctx, data, filters, groups, kBackpropFilters)) return;
    if (!check_common_attrs(ctx, *a, n, true)) return;

    if (!append_batch_and_channels(ctx, data, filters, groups, kBackpropFilters, out)) return;
    blank_notes(ctx, out);
    if (has_output_shape) {
        for (const Dim& d : spatial ? *spatial : std::vector<Dim>(n, Dim::dynamic())) {
            out.shape.dims.push_back(d);
            if (ctx.explain()) out.dim_notes.push_back("from output_shape (input 2)");
        }
    } else {
        append_backprop_spatial(ctx, data, filters, n, *a, out);
    }
    outs.push_back(std::move(out));
}

void infer_convolution_backprop(OpContext& ctx, std::vector<OpOutput>& outs) { infer_backprop(ctx, outs, false); }
void infer_group_convolution_backprop(OpContext& ctx, std::vector<OpOutput>& outs) { infer_backprop(ctx, outs, true); }

// ---- DeformableConvolution -----------------------------------------------------------------------------

constexpr std::array<std::string_view, 4> kDeformableInputs{"data", "offsets", "filters", "mask"};

bool divisible(const Dim& d, int64_t by) { return !d.divided_by(by).is_empty(); }

bool check_deformable_ranks(OpContext& ctx) {
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const Shape& s = ctx.shape(i);
        if (!s.rank_dynamic && s.rank() != 4) {
            ctx.invalid_input(fmt::format("{} {} must have rank 4, it has {}", kDeformableInputs[i], s.str(), s.rank()));
            return false;
        }
    }
    return true;
}

bool deformable_types(OpContext& ctx, std::optional<ElementType>& type) {
    type = ctx.type(0);
    if (!merge_types(type, ctx.type(1)) || !merge_types(type, ctx.type(2))) {
        ctx.invalid_input(fmt::format("element types of data ({}), offsets ({}) and filters ({}) do not match",
                                      type_str(ctx.type(0)), type_str(ctx.type(1)), type_str(ctx.type(2))));
        return false;
    }
    if (type && !is_numeric(*type)) {
        ctx.invalid_input(fmt::format("element type {} is not numeric", type_str(type)));
        return false;
    }
    if (ctx.input_count() == 4)
        if (const auto m = ctx.type(3); m && !is_numeric(*m)) {
            ctx.invalid_input(fmt::format("mask element type {} is not numeric", type_str(m)));
            return false;
        }
    return true;
}

// v8's mask checks, made before the shape inference: channels deformable_group*kh*kw, batch as the data's.
bool check_mask(OpContext& ctx, int64_t deformable_group) {
    const Shape& mask = ctx.shape(3);
    const Shape& data = ctx.shape(0);
    const Shape& filters = ctx.shape(2);
    if (mask.rank_dynamic) return true;
    if (!filters.rank_dynamic) {
        const Dim channels = filters.dims[2] * filters.dims[3] * Dim(deformable_group);
        if (!mask.dims[1].compatible(channels)) {
            ctx.invalid_input(fmt::format("mask channels {} do not match filters {}: deformable_group {} * {} * {} = {}",
                                          mask.dims[1].str(), filters.str(), deformable_group, filters.dims[2].str(),
                                          filters.dims[3].str(), channels.str()));
            return false;
        }
    }
    if (!divisible(mask.dims[1], deformable_group)) {
        ctx.invalid_input(fmt::format("mask channels {} are not divisible by deformable_group {}", mask.dims[1].str(),
                                      deformable_group));
        return false;
    }
    if (!data.rank_dynamic && !mask.dims[0].compatible(data.dims[0])) {
        ctx.invalid_input(fmt::format("mask batch {} and data batch {} differ", mask.dims[0].str(), data.dims[0].str()));
        return false;
    }
    return true;
}

bool check_spatial_match(OpContext& ctx, const OpOutput& out, size_t input) {
    const Shape& s = ctx.shape(input);
    if (s.rank_dynamic || out.shape.rank_dynamic) return true;
    for (size_t i = 2; i < out.shape.rank() && i < s.rank(); ++i)
        if (!out.shape.dims[i].compatible(s.dims[i])) {
            ctx.invalid_input(fmt::format("the spatial dims of {} {} do not match the output {}",
                                          kDeformableInputs[input], s.str(), out.shape.str()));
            return false;
        }
    return true;
}

bool check_group_attr(OpContext& ctx, std::string_view name, int64_t v) {
    if (v > 0) return true;
    ctx.invalid_attribute(fmt::format("{}={} must be 1 or more", name, v));
    return false;
}

void infer_deformable_convolution(OpContext& ctx, std::vector<OpOutput>& outs) {
    const bool v8 = ctx.version() >= 8;
    if (!(v8 ? ctx.expect_inputs(3, 4) : ctx.expect_inputs(3))) return;
    std::optional<ElementType> type;
    if (!deformable_types(ctx, type)) return;
    auto a = read_attrs(ctx, false);
    const auto group = ctx.attr_int("group", 1);
    const auto deformable_group = ctx.attr_int("deformable_group", 1);
    if (v8 && !ctx.attr_bool("bilinear_interpolation_pad", false)) return;
    if (!a || !group || !deformable_group) return;
    if (!check_deformable_ranks(ctx)) return;
    if (!check_group_attr(ctx, "group", *group) || !check_group_attr(ctx, "deformable_group", *deformable_group))
        return;
    const bool has_mask = ctx.input_count() == 4;
    if (has_mask && !check_mask(ctx, *deformable_group)) return;

    const Shape& data = ctx.shape(0);
    const Shape& offsets = ctx.shape(1);
    const Shape& filters = ctx.shape(2);
    OpOutput out;
    out.type = type;
    size_t n = spatial_rank(data, filters, 2, *a);
    if (data.rank_dynamic && filters.rank_dynamic) n = offsets.rank_dynamic ? kUndefined : offsets.rank() - 2;
    if (n == kUndefined) {
        out.shape = Shape::dynamic_rank();
        outs.push_back(std::move(out));
        return;
    }
    fill_defaults(*a, n);
    if (!check_common_attrs(ctx, *a, n, false)) return;

    Dim batch = Dim::dynamic();
    if (!data.rank_dynamic) {
        if (!divisible(data.dims[1], *group)) {
            ctx.invalid_input(fmt::format("data channels {} are not divisible by group {}", data.dims[1].str(), *group));
            return;
        }
        batch = data.dims[0];
    }
    if (!offsets.rank_dynamic) {
        if (!filters.rank_dynamic) {
            const Dim channels = filters.dims[2] * filters.dims[3] * Dim(2) * Dim(*deformable_group);
            if (!offsets.dims[1].compatible(channels)) {
                ctx.invalid_input(fmt::format("offsets channels {} do not match filters {}: 2 * deformable_group {} * "
                                              "{} * {} = {}",
                                              offsets.dims[1].str(), filters.str(), *deformable_group,
                                              filters.dims[2].str(), filters.dims[3].str(), channels.str()));
                return;
            }
        }
        if (!divisible(offsets.dims[1], *deformable_group)) {
            ctx.invalid_input(fmt::format("offsets channels {} are not divisible by deformable_group {}",
                                          offsets.dims[1].str(), *deformable_group));
            return;
        }
        const auto merged = Dim::merge(batch, offsets.dims[0]);
        if (!merged) {
            ctx.invalid_input(fmt::format("offsets batch {} and data batch {} differ", offsets.dims[0].str(), batch.str()));
            return;
        }
        batch = *merged;
    }
    out.shape.dims.push_back(batch);
    if (!filters.rank_dynamic) {
        if (!divisible(filters.dims[0], *group)) {
            ctx.invalid_input(
                fmt::format("filters output channels {} are not divisible by group {}", filters.dims[0].str(), *group));
            return;
        }
        const Dim in_channels = filters.dims[1] * Dim(*group);
        if (!data.rank_dynamic && !data.dims[1].compatible(in_channels)) {
            ctx.invalid_input(fmt::format("data channels {} do not match the filters' input channels {} * group {} = {}",
                                          data.dims[1].str(), filters.dims[1].str(), *group, in_channels.str()));
            return;
        }
        out.shape.dims.push_back(filters.dims[0]);
    } else {
        out.shape.dims.push_back(Dim::dynamic());
    }
    blank_notes(ctx, out);
    if (!append_forward_spatial(ctx, data, filters, n, *a, out)) return;
    if (!check_spatial_match(ctx, out, 1)) return;
    if (has_mask && !check_spatial_match(ctx, out, 3)) return;
    outs.push_back(std::move(out));
}

constexpr std::string_view kConvChecks =
    "data rank 3-5; data/filters ranks and channels; strides, dilations, pads one per spatial dim; strides, "
    "dilations > 0; dilated kernel fits the padded input; element types match and are numeric";

constexpr OpEntry kEntries[] = {
    {"BinaryConvolution", 1, 1, infer_binary_convolution, "shape, type",
     "as Convolution; mode xnor-popcount; data type numeric"},
    {"Col2Im", 15, 15, infer_col2im, "shape, type",
     "data rank 2 or 3; output_size, kernel_size [2] and i32/i64; channels divisible by the kernel size; blocks "
     "count matches the window over output_size"},
    {"Convolution", 1, 1, infer_convolution, "shape, type", kConvChecks},
    {"ConvolutionBackpropData", 1, 1, infer_convolution_backprop, "shape, type",
     "as Convolution (filters dim 0 = data channels); output_padding one per spatial dim; output_shape rank 1, "
     "integer, one value per spatial dim"},
    {"DeformableConvolution", 1, 1, infer_deformable_convolution, "shape, type",
     "rank 4 inputs; group, deformable_group >= 1; channels divisible by the groups; offsets channels "
     "2*deformable_group*kh*kw; batches and spatial dims of offsets match"},
    {"DeformableConvolution", 8, 8, infer_deformable_convolution, "shape, type",
     "as v1; optional mask: channels deformable_group*kh*kw, batch and spatial dims match"},
    {"Einsum", 7, 7, infer_einsum, "shape, type",
     "equation syntax (letters, one ellipsis per subscript), subscripts per input, ranks against labels, "
     "repeated labels' dims compatible, ellipsis dims broadcast, output labels in some input; same numeric types"},
    {"GroupConvolution", 1, 1, infer_group_convolution, "shape, type",
     "data rank 3-5, filters rank data+1; data channels = groups * filters input channels; attributes as "
     "Convolution"},
    {"GroupConvolutionBackpropData", 1, 1, infer_group_convolution_backprop, "shape, type",
     "as GroupConvolution; output_padding; output_shape rank 1, integer, one value per spatial dim"},
    {"MatMul", 0, 1, infer_matmul, "shape, type",
     "no scalars; K dims match (unless dynamic); batch dims broadcast (numpy); element types match"},
    {"ScaledDotProductAttention", 13, 13, infer_scaled_dot_product_attention, "shape, type",
     "query, key, value rank >= 3; E and S dims match; batch dims broadcast (numpy); attention_mask (unless causal) "
     "broadcasts to [..., L, S], floating-point or boolean; scale a scalar or one element; one floating-point type"},
};

}  // namespace

std::span<const OpEntry> convolution_ops() { return kEntries; }

}  // namespace irlint
