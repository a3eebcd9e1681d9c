// StridedSlice, Slice, Pad and Interpolate: ops whose output dims come from the values of begin/end, pads or
// sizes inputs, computed as OpenVINO's strided_slice, slice, pad and interpolate shape inference do.

#include <algorithm>
#include <array>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/ops/invariants.hpp"
#include "rules/ops/shape_util.hpp"
#include "rules/ops/tensor_common.hpp"

namespace irlint::tensor {

namespace {

constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInfBound = -1;  // OpenVINO's spelling of an unbounded length inside slice arithmetic

// a + b, saturated at int64's limits (pads come from the file).
int64_t saturated_sum(int64_t a, int64_t b) {
    int64_t r = 0;
    if (!__builtin_add_overflow(a, b, &r)) return r;
    return a < 0 ? kI64Min : kI64Max;
}

// The per-element bounds of input i (exact values give lo == hi); nullopt when unknown.
std::optional<std::vector<Bounds>> input_bounds(const OpContext& ctx, size_t i) {
    const TensorValue* v = ctx.value(i);
    if (!v) return std::nullopt;
    std::vector<Bounds> out;
    out.reserve(v->size());
    for (const ValueBounds& b : *v) out.emplace_back(b.lo, b.hi);
    return out;
}

int64_t normalized(int64_t v, int64_t dim) { return v < 0 ? v + dim : v; }
// Raises to lo, then lowers to hi (hi wins when hi < lo, as OpenVINO clips).
int64_t clip(int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); }

// The length of dim[start:stop:step] for one length of the dim (kInfBound: unbounded), as OpenVINO's slice
// helper counts it, including its reading of int64 limits as "to the end".
int64_t sliced_length(int64_t dim, int64_t start, int64_t stop, int64_t step) {
    const bool reverse = step < 0;
    const int64_t norm_dim = dim == kInfBound ? kI64Max : dim;
    const bool dim_unbounded = norm_dim == kI64Max;
    const bool start_negative = start < 0;
    const bool signs_differ = start_negative != (stop < 0);
    const bool start_max = start == kI64Max;
    const bool start_limit = start_max || start == kI64Min;
    const bool stop_max = stop == kI64Max;
    const bool any_max = start_max || stop_max;

    int64_t lb = 0, ub = 0;
    if (dim_unbounded && (signs_differ || any_max || start_limit)) {
        if (reverse)
            ub = (start_negative || any_max) ? kInfBound : kInfBound - start;
        else if (start_negative && !start_limit)
            ub = stop_max ? -start : stop;
        else
            ub = kInfBound;
        lb = 0;
    } else {
        const int64_t lower_max = reverse ? norm_dim - 1 : norm_dim;
        const int64_t upper_min = reverse ? kInfBound : 0;
        lb = clip(normalized(start, norm_dim), 0, lower_max);
        ub = clip(normalized(stop, norm_dim), upper_min, norm_dim);
    }
    if (dim_unbounded && lb == 0 && ub == kInfBound) return kInfBound;

    int64_t len = reverse ? std::min<int64_t>(0, ub - lb) : std::max<int64_t>(0, ub - lb);
    if (step == -1) return -len;
    if (len != 0 && step != 1) {
        len += reverse ? 1 : -1;
        len /= step;
        ++len;
    }
    return len;
}

// A slice that spans the input dim is the input dim, symbol and all (a fully dynamic one says nothing).
Dim kept_whole(const Dim& sliced, const Dim& input) {
    return sliced == input && !sliced.is_fully_dynamic() ? input : sliced;
}
}  // namespace

// The sliced dim for start/stop bounds (OpenVINO's slice::make_dim): the shortest and longest slice over the
// dim's lengths and the bounds' values.
Dim sliced_dim(const Dim& dim, Bounds start, Bounds stop, int64_t step) {
    const bool dim_unbounded = !dim.has_upper_bound();
    const auto lb_within = [&](int64_t lb) { return dim_unbounded || lb + dim.max() >= 0; };
    const auto ub_within = [&](int64_t ub) { return dim_unbounded || ub < dim.max(); };
    const bool start_crosses = start.first < 0 && start.second >= 0;
    const int64_t start_lb = start_crosses && lb_within(start.first) ? 0 : start.first;
    const int64_t start_ub = start_crosses && ub_within(start.second) ? -1 : start.second;
    const bool stop_crosses = stop.first < 0 && stop.second >= 0;
    const int64_t stop_lb = stop_crosses && lb_within(stop.first) ? 0 : stop.first;
    const int64_t stop_ub = stop_crosses && ub_within(stop.second) ? -1 : stop.second;

    const int64_t min_len = dim.min();
    const int64_t max_len = dim_unbounded ? kInfBound : dim.max();
    int64_t lo = 0, hi = 0;
    if (step > 0) {
        lo = sliced_length(min_len, start_ub, stop_lb, step);
        hi = sliced_length(max_len, start_lb, stop_ub, step);
    } else {
        lo = sliced_length(min_len, start_lb, stop_ub, step);
        hi = sliced_length(max_len, start_ub, stop_lb, step);
    }
    lo = std::max<int64_t>(lo, 0);
    return kept_whole(hi == kInfBound ? Dim(lo, Dim::kInf) : Dim(std::min(lo, hi), hi), dim);
}

// The indices dim[start:stop:step] takes of a static dim (Python's slice semantics, which the reference
// follows for exact values).
AxisPick exact_pick(int64_t dim, int64_t start, int64_t stop, int64_t step) {
    AxisPick p;
    p.step = step;
    if (step > 0) {
        const int64_t s = start < 0 ? std::max<int64_t>(0, start + dim) : std::min(start, dim);
        const int64_t e = stop < 0 ? std::max<int64_t>(0, stop + dim) : std::min(stop, dim);
        p.start = s;
        p.count = e > s ? (e - s - 1) / step + 1 : 0;
    } else {
        const int64_t s = start < 0 ? start + dim : std::min(start, dim - 1);
        const int64_t e = stop < 0 ? std::max<int64_t>(-1, stop + dim) : std::min(stop, dim - 1);
        p.start = s;
        p.count = s > e ? (s - e - 1) / -step + 1 : 0;
    }
    return p;
}

namespace {

// Sets out.value from the data's known values when every input axis has an exact pick and the output is small.
void propagate_picks(OpContext& ctx, const Shape& data, std::span<const std::optional<AxisPick>> picks,
                     OpOutput& out) {
    if (!data.is_static() || !capped_element_count(data, kMaxValueElements) || !capped_element_count(out.shape, kMaxValueElements)) return;
    if (std::any_of(picks.begin(), picks.end(), [](const auto& p) { return !p; })) return;
    const TensorValue* values = ctx.value(0);
    if (!values || values->size() != *capped_element_count(data, kMaxValueElements)) return;
    std::vector<int64_t> dims;
    std::vector<AxisPick> exact;
    size_t total = 1;
    for (size_t i = 0; i < data.rank(); ++i) {
        dims.push_back(data.dims[i].min());
        exact.push_back(*picks[i]);
        if (__builtin_mul_overflow(total, static_cast<size_t>(std::max<int64_t>(picks[i]->count, 0)), &total)) return;
    }
    if (total != *capped_element_count(out.shape, kMaxValueElements)) return;
    if (total == 0) {
        out.value = TensorValue{};
        return;
    }
    out.value = pick_values(*values, dims, exact);
}

bool same_element_type(OpContext& ctx, size_t a, size_t b, std::string_view name_a, std::string_view name_b) {
    if (!ctx.type(a) || !ctx.type(b) || *ctx.type(a) == *ctx.type(b)) return true;
    ctx.invalid_input(fmt::format("{} element type {} and {} element type {} differ", name_a,
                                  element_type_name(*ctx.type(a)), name_b, element_type_name(*ctx.type(b))));
    return false;
}

bool check_1d(OpContext& ctx, size_t i, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || s.rank() == 1) return true;
    ctx.invalid_input(fmt::format("{} input must be 1D (has rank {})", name, s.rank()));
    return false;
}

std::optional<std::vector<bool>> read_mask(OpContext& ctx, std::string_view name, bool required) {
    const auto bits = required ? ctx.attr_ints(name) : ctx.attr_ints(name, std::vector<int64_t>{});
    if (!bits) return std::nullopt;
    std::vector<bool> mask;
    for (const int64_t b : *bits) {
        if (b != 0 && b != 1) {
            ctx.invalid_attribute(fmt::format("{} [{}] holds {}: mask entries are 0 or 1", name, join_ints(*bits), b));
            return std::nullopt;
        }
        mask.push_back(b == 1);
    }
    return mask;
}

bool bit(const std::vector<bool>& mask, int64_t i) { return i >= 0 && static_cast<size_t>(i) < mask.size() && mask[static_cast<size_t>(i)]; }

// The number of values a 1D input has when its length is static, else -1.
int64_t count_1d(const Shape& s) {
    if (s.rank_dynamic || s.rank() != 1 || !s.dims[0].is_static()) return -1;
    return s.dims[0].min();
}

// A begin/end (start/stop) value as OpenVINO reads one: an i32 input's limits stand for int64's, so that
// INT32_MAX slices to the end of a dim of any length and INT32_MIN from its start.
int64_t index_value(int64_t v, std::optional<ElementType> type) {
    if (type != ElementType::i32) return v;
    if (v == std::numeric_limits<int32_t>::max()) return kI64Max;
    if (v == std::numeric_limits<int32_t>::min()) return kI64Min;
    return v;
}

// The bounds of a begin/end (start/stop) input. One whose values are unknown but whose length is known is
// bounded by its type's range, as OpenVINO bounds a Parameter: every value may be anything.
std::optional<std::vector<Bounds>> index_bounds(const OpContext& ctx, size_t i) {
    const TensorValue* v = ctx.value(i);
    if (!v) {
        const int64_t n = count_1d(ctx.shape(i));
        if (n < 0 || n > static_cast<int64_t>(kMaxShapeRank)) return std::nullopt;
        return std::vector<Bounds>(static_cast<size_t>(n), Bounds{kI64Min, kI64Max});
    }
    std::vector<Bounds> out;
    out.reserve(v->size());
    for (const ValueBounds& b : *v) out.emplace_back(index_value(b.lo, ctx.type(i)), index_value(b.hi, ctx.type(i)));
    return out;
}

struct StridedSliceMasks {
    std::vector<bool> begin, end, new_axis, shrink, ellipsis;
};

// Every mask but an empty one is as long as begin_mask (an empty begin_mask leaves them all empty).
bool check_mask_length(OpContext& ctx, const StridedSliceMasks& m, std::string_view name,
                       const std::vector<bool>& mask) {
    if (mask.empty() || mask.size() == m.begin.size()) return true;
    ctx.invalid_attribute(
        fmt::format("begin_mask has {} entries, {} {}: the masks must be as long as begin_mask, or empty",
                    m.begin.size(), name, mask.size()));
    return false;
}

bool check_mask_lengths(OpContext& ctx, const StridedSliceMasks& m) {
    return check_mask_length(ctx, m, "end_mask", m.end) && check_mask_length(ctx, m, "new_axis_mask", m.new_axis) &&
           check_mask_length(ctx, m, "shrink_axis_mask", m.shrink) &&
           check_mask_length(ctx, m, "ellipsis_mask", m.ellipsis);
}

std::optional<StridedSliceMasks> read_strided_slice_masks(OpContext& ctx) {
    auto begin = read_mask(ctx, "begin_mask", true);
    auto end = read_mask(ctx, "end_mask", true);
    auto new_axis = read_mask(ctx, "new_axis_mask", false);
    auto shrink = read_mask(ctx, "shrink_axis_mask", false);
    auto ellipsis = read_mask(ctx, "ellipsis_mask", false);
    if (!begin || !end || !new_axis || !shrink || !ellipsis) return std::nullopt;
    StridedSliceMasks m{std::move(*begin), std::move(*end), std::move(*new_axis), std::move(*shrink),
                        std::move(*ellipsis)};
    if (!check_mask_lengths(ctx, m)) return std::nullopt;
    if (std::count(m.ellipsis.begin(), m.ellipsis.end(), true) > 1) {
        ctx.invalid_attribute(fmt::format("ellipsis_mask [{}] sets more than one ellipsis",
                                          *ctx.attr("ellipsis_mask")));
        return std::nullopt;
    }
    return m;
}

// The number of begin/end/strides values, when the inputs' lengths or values say it; -1 when unknown.
std::optional<int64_t> strided_slice_axes(OpContext& ctx, const std::optional<std::vector<Bounds>>& begin,
                                          const std::optional<std::vector<int64_t>>& strides) {
    int64_t n = count_1d(ctx.shape(1));
    const int64_t n_end = count_1d(ctx.shape(2));
    if (n != -1 && n_end != -1 && n != n_end) {
        ctx.invalid_input(fmt::format("begin has {} values and end has {}: they need the same number", n, n_end));
        return std::nullopt;
    }
    if (n == -1) n = n_end;
    if (n == -1 && begin) n = static_cast<int64_t>(begin->size());
    const int64_t n_strides = strides ? static_cast<int64_t>(strides->size()) : -1;
    if (n != -1 && n_strides != -1 && n != n_strides) {
        ctx.invalid_input(fmt::format("strides has {} values, begin and end have {}", n_strides, n));
        return std::nullopt;
    }
    return n == -1 ? n_strides : n;
}

}  // namespace

TensorValue pick_values(const TensorValue& data, std::span<const int64_t> dims, std::span<const AxisPick> picks) {
    const size_t rank = dims.size();
    std::vector<size_t> strides(rank, 1);
    for (size_t i = rank; i-- > 1;) strides[i - 1] = strides[i] * static_cast<size_t>(dims[i]);
    size_t total = 1;
    for (const AxisPick& p : picks) total *= static_cast<size_t>(p.count);
    TensorValue out;
    out.reserve(total);
    std::vector<int64_t> pos(rank, 0);
    for (size_t n = 0; n < total; ++n) {
        size_t offset = 0;
        for (size_t i = 0; i < rank; ++i)
            offset += static_cast<size_t>(picks[i].start + pos[i] * picks[i].step) * strides[i];
        out.push_back(offset < data.size() ? data[offset] : ValueBounds{0, ValueBounds::kUnbounded});
        for (size_t i = rank; i-- > 0;) {
            if (++pos[i] < picks[i].count) break;
            pos[i] = 0;
        }
    }
    return out;
}

namespace {

// One StridedSlice's walk over its begin/end/strides values: each value addresses an input dim (sliced or shrunk),
// inserts a new axis, or stands for the dims an ellipsis hides.
struct StridedSliceWalk {
    OpContext& ctx;
    const Shape& data;
    const StridedSliceMasks& masks;
    const std::optional<std::vector<Bounds>>& begin;
    const std::optional<std::vector<Bounds>>& end;
    const std::optional<std::vector<int64_t>>& strides;
    int64_t number_axes = 0;

    std::vector<Dim> dims;
    std::vector<std::optional<AxisPick>> picks;  // per input dim
    int64_t idx = 0;                             // the next input dim

    int64_t rank() const { return static_cast<int64_t>(data.rank()); }
    const Dim& input_dim() const { return data.dims[static_cast<size_t>(idx)]; }

    bool need_input_dim() {
        if (idx < rank()) return true;
        ctx.invalid_input(fmt::format("begin/end values address more dims than data rank {} has", rank()));
        return false;
    }

    // Takes the input dim whole.
    void keep() {
        dims.push_back(input_dim());
        picks.push_back(input_dim().is_static() ? std::optional(AxisPick{0, 1, input_dim().min()}) : std::nullopt);
        ++idx;
    }

    // The ellipsis at `axis` stands for the input dims the values after it do not address.
    void ellipsis(int64_t axis) {
        int64_t inputs_before = 0, new_after = 0;
        for (int64_t i = 0; i < axis; ++i) inputs_before += bit(masks.new_axis, i) ? 0 : 1;
        if (begin)
            for (int64_t i = axis + 1; i < static_cast<int64_t>(begin->size()); ++i)
                new_after += bit(masks.new_axis, i) ? 1 : 0;
        const int64_t inputs_after = number_axes - axis - new_after - 1;
        const int64_t hidden = rank() - inputs_after - inputs_before;
        for (int64_t i = 0; i < hidden && idx < rank(); ++i) keep();
    }

    void shrink(int64_t axis) {
        const Dim& d = input_dim();
        std::optional<AxisPick> pick;
        const auto a = static_cast<size_t>(axis);
        if (begin && d.is_static() && (*begin)[a].first == (*begin)[a].second) {
            const int64_t b = bit(masks.begin, axis) ? 0 : (*begin)[a].first;
            const int64_t at = b < 0 ? b + d.min() : b;
            if (at >= 0 && at < d.min()) pick = AxisPick{at, 1, 1};
        }
        picks.push_back(pick);
        ++idx;
    }

    bool slice(int64_t axis) {
        const Dim& d = input_dim();
        const auto a = static_cast<size_t>(axis);
        const int64_t stride = a < strides->size() ? (*strides)[a] : 1;
        if (stride == 0) {
            ctx.invalid_input(fmt::format("strides[{}] is 0: strides must be non-zero", axis));
            return false;
        }
        // A set mask bit slices from the first (or, striding back, the last) element to past the other end.
        const int64_t norm_dim = d.has_upper_bound() ? d.max() : kI64Max;
        const Bounds default_start = stride < 0 ? Bounds{norm_dim, norm_dim} : Bounds{0, 0};
        const Bounds default_stop =
            stride < 0 ? Bounds{kInfBound - norm_dim, kInfBound - norm_dim} : Bounds{norm_dim, norm_dim};
        const Bounds start = bit(masks.begin, axis) ? default_start : (*begin)[a];
        const Bounds stop = bit(masks.end, axis) ? default_stop : (*end)[a];
        dims.push_back(sliced_dim(d, start, stop, stride));
        std::optional<AxisPick> pick;
        if (d.is_static() && start.first == start.second && stop.first == stop.second)
            pick = exact_pick(d.min(), start.first, stop.first, stride);
        picks.push_back(pick);
        ++idx;
        return true;
    }

    bool run() {
        for (int64_t axis = 0; axis < number_axes; ++axis) {
            if (bit(masks.ellipsis, axis)) {
                ellipsis(axis);
            } else if (bit(masks.new_axis, axis)) {
                dims.emplace_back(1);
            } else if (!need_input_dim()) {
                return false;
            } else if (bit(masks.shrink, axis)) {
                shrink(axis);
            } else if (begin && end && strides) {
                if (!slice(axis)) return false;
            } else {
                dims.emplace_back(0, input_dim().max());
                picks.push_back(std::nullopt);
                ++idx;
            }
        }
        while (idx < rank()) keep();
        return true;
    }
};

// Checks the number of begin/end values against the data rank and the values' lengths.
bool check_strided_slice_axes(OpContext& ctx, const StridedSliceWalk& w) {
    const int64_t rank = w.rank(), n = w.number_axes;
    const int64_t new_axes = std::count(w.masks.new_axis.begin(), w.masks.new_axis.end(), true);
    const bool has_ellipsis = std::find(w.masks.ellipsis.begin(), w.masks.ellipsis.end(), true) != w.masks.ellipsis.end();
    if (!has_ellipsis && rank + new_axes < n) {
        ctx.invalid_input(
            fmt::format("data rank {} plus {} new axes is less than the {} begin/end values", rank, new_axes, n));
        return false;
    }
    // Beyond this, OpenVINO would read past the data's dims.
    if (n > rank + static_cast<int64_t>(w.masks.new_axis.size()) + 1) {
        ctx.invalid_input(fmt::format("{} begin/end values are more than data rank {} can take", n, rank));
        return false;
    }
    const auto too_few = [&](const auto& v) { return v && static_cast<int64_t>(v->size()) < n; };
    if (too_few(w.begin) || too_few(w.end) || too_few(w.strides)) {
        ctx.invalid_input(fmt::format("begin, end and strides need {} values each", n));
        return false;
    }
    return true;
}

// The strides: input 3's values; without it, as many 1s as begin (or else end) has values.
std::optional<std::vector<int64_t>> strided_slice_strides(const OpContext& ctx) {
    if (ctx.input_count() > 3) return ctx.exact_values(3);
    int64_t n = count_1d(ctx.shape(1));
    if (n < 0) n = count_1d(ctx.shape(2));
    if (n < 0 || n > static_cast<int64_t>(kMaxShapeRank)) return std::nullopt;
    return std::vector<int64_t>(static_cast<size_t>(n), 1);
}

}  // namespace

void infer_strided_slice(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 4)) return;
    if (!expect_integral(ctx, 1, "begin") || !expect_integral(ctx, 2, "end")) return;
    const auto masks = read_strided_slice_masks(ctx);
    if (!masks) return;
    static constexpr std::array<std::string_view, 3> kNames{"begin", "end", "strides"};
    for (size_t i = 1; i < ctx.input_count(); ++i)
        if (!check_1d(ctx, i, kNames[i - 1])) return;
    const Shape& data = ctx.shape(0);
    OpOutput result{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(result));
        return;
    }
    const auto begin = index_bounds(ctx, 1);
    const auto end = index_bounds(ctx, 2);
    const auto strides = strided_slice_strides(ctx);
    const auto number_axes = strided_slice_axes(ctx, begin, strides);
    if (!number_axes) return;
    if (*number_axes < 0) {
        ctx.value_unknown("the number of begin/end values is unknown");
        out.push_back(std::move(result));
        return;
    }
    StridedSliceWalk walk{ctx, data, *masks, begin, end, strides, *number_axes, {}, {}, 0};
    if (!check_strided_slice_axes(ctx, walk)) return;
    if (!ctx.value(1) || !ctx.value(2) || !strides) {
        ctx.value_unknown("begin, end or strides values are unknown");
        ctx.invariant(invariants::inferred_bounds());
    }
    if (!walk.run()) return;
    result.shape = Shape{false, std::move(walk.dims)};
    propagate_picks(ctx, data, walk.picks, result);
    out.push_back(std::move(result));
}

namespace {

// Slice's start/stop/step/axes: integers, 1D, no more values than the data has dims, and of alike shapes.
bool check_slice_inputs(OpContext& ctx) {
    static constexpr std::array<std::string_view, 4> kNames{"start", "stop", "step", "axes"};
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && data.rank() == 0) {
        ctx.invalid_input("data is a scalar: Slice needs a rank of at least 1");
        return false;
    }
    for (size_t i = 1; i < ctx.input_count(); ++i) {
        if (!expect_integral(ctx, i, kNames[i - 1]) || !check_1d(ctx, i, kNames[i - 1])) return false;
        const Shape& s = ctx.shape(i);
        if (!data.rank_dynamic && !s.rank_dynamic && s.dims[0].min() > static_cast<int64_t>(data.rank())) {
            ctx.invalid_input(fmt::format("{} has {} values, more than data rank {}", kNames[i - 1],
                                          s.dims[0].str(), data.rank()));
            return false;
        }
    }
    const Shape &start_s = ctx.shape(1), &stop_s = ctx.shape(2), &step_s = ctx.shape(3);
    if (!start_s.compatible(stop_s) || !start_s.compatible(step_s) || !stop_s.compatible(step_s)) {
        ctx.invalid_input(fmt::format("start {}, stop {} and step {} shapes are not compatible", start_s.str(),
                                      stop_s.str(), step_s.str()));
        return false;
    }
    if (ctx.input_count() > 4 && !ctx.shape(4).compatible(start_s)) {
        ctx.invalid_input(fmt::format("axes shape {} is not compatible with start shape {}", ctx.shape(4).str(),
                                      start_s.str()));
        return false;
    }
    return true;
}

// Which start/stop/step entry slices each data axis: the axes input's values (normalized, unique), or the first
// axes in order without one. nullopt while they are unknown (or invalid: see ctx.failed()).
std::optional<std::map<size_t, size_t>> slice_axis_map(OpContext& ctx, size_t rank,
                                                       const std::optional<std::vector<Bounds>>& start) {
    std::map<size_t, size_t> axis_map;
    if (ctx.input_count() <= 4) {
        if (!start) return std::nullopt;
        for (size_t i = 0; i < start->size(); ++i) axis_map.emplace(i, i);
        return axis_map;
    }
    const auto axes = ctx.exact_values(4);
    if (!axes) return std::nullopt;
    std::string error;
    const auto norm = normalize_axes(*axes, static_cast<int64_t>(rank), false, &error);
    if (!norm) {
        ctx.invalid_input(fmt::format("axes: {} for data rank {}", error, rank));
        return std::nullopt;
    }
    for (size_t i = 0; i < norm->size(); ++i) axis_map.emplace((*norm)[i], i);
    if (axis_map.size() != norm->size()) {
        ctx.invalid_input(fmt::format("axes [{}] are not unique", join_ints(*axes)));
        return std::nullopt;
    }
    return axis_map;
}

}  // namespace

void infer_slice(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 5) || !check_slice_inputs(ctx)) return;
    const Shape& data = ctx.shape(0);
    OpOutput result{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(result));
        return;
    }
    const auto start = index_bounds(ctx, 1);
    const auto stop = index_bounds(ctx, 2);
    const auto steps = ctx.exact_values(3);
    const size_t rank = data.rank();
    const auto axis_opt = slice_axis_map(ctx, rank, start);
    if (ctx.failed()) return;
    const bool known = axis_opt.has_value();
    const std::map<size_t, size_t> axis_map = axis_opt.value_or(std::map<size_t, size_t>{});
    if (!known || !ctx.value(1) || !ctx.value(2) || !steps) {
        ctx.value_unknown("start, stop, step or axes values are unknown");
        ctx.invariant(invariants::no_dim_grows("Slice", data));
    }
    const size_t n = axis_map.size();
    if (known && start && stop && steps && (start->size() < n || stop->size() < n || steps->size() < n)) {
        ctx.invalid_input(fmt::format("start, stop and step have {}, {} and {} values for {} axes", start->size(),
                                      stop->size(), steps->size(), n));
        return;
    }

    result.shape = Shape{};
    std::vector<std::optional<AxisPick>> picks;
    for (size_t d = 0; d < rank; ++d) {
        const Dim& dim = data.dims[d];
        const auto it = axis_map.find(d);
        if (known && it != axis_map.end()) {
            const size_t i = it->second;
            std::optional<AxisPick> pick;
            if (start && stop && steps) {
                const int64_t step = (*steps)[i];
                if (step == 0) {
                    ctx.invalid_input(fmt::format("step[{}] is 0: steps must be non-zero", i));
                    return;
                }
                result.shape.dims.push_back(sliced_dim(dim, (*start)[i], (*stop)[i], step));
                if (dim.is_static() && (*start)[i].first == (*start)[i].second &&
                    (*stop)[i].first == (*stop)[i].second)
                    pick = exact_pick(dim.min(), (*start)[i].first, (*stop)[i].first, step);
            } else {
                result.shape.dims.push_back(kept_whole(Dim(0, dim.max()), dim));
            }
            picks.push_back(pick);
        } else if (known) {
            result.shape.dims.push_back(dim);
            picks.push_back(dim.is_static() ? std::optional(AxisPick{0, 1, dim.min()}) : std::nullopt);
        } else {
            result.shape.dims.emplace_back(0, dim.max());
            picks.push_back(std::nullopt);
        }
    }
    propagate_picks(ctx, data, picks, result);
    out.push_back(std::move(result));
}

// ---- Pad ----

namespace {

constexpr std::array<std::string_view, 4> kPadModes{"constant", "edge", "reflect", "symmetric"};

bool check_pad_dim(OpContext& ctx, std::string_view mode, size_t i, int64_t dim, int64_t begin, int64_t end) {
    if (begin > 0 || end > 0) {
        if (mode == "edge" && dim < 1) {
            ctx.invalid_input(fmt::format("pad_mode edge needs data dim {} to be at least 1, it is {}", i, dim));
            return false;
        }
        if (mode == "reflect" && dim < 2) {
            ctx.invalid_input(fmt::format("pad_mode reflect needs data dim {} to be at least 2, it is {}", i, dim));
            return false;
        }
    }
    if (mode == "reflect" && (begin >= dim || end >= dim)) {
        ctx.invalid_input(fmt::format("pad_mode reflect needs pads_begin[{0}] {1} and pads_end[{0}] {2} to be at "
                                      "most data dim {0} ({3}) - 1",
                                      i, begin, end, dim));
        return false;
    }
    if (mode == "symmetric" && (begin > dim || end > dim)) {
        ctx.invalid_input(fmt::format("pad_mode symmetric needs pads_begin[{0}] {1} and pads_end[{0}] {2} to be at "
                                      "most data dim {0} ({3})",
                                      i, begin, end, dim));
        return false;
    }
    return true;
}

// A length plus pads as OpenVINO pads one bound: an unbounded length, or one the pads take below 0, gives
// kInfBound (which reads as 0 for a lower bound and as unbounded for an upper one).
int64_t padded_bound(int64_t len, int64_t pads) {
    if (len == Dim::kInf) return kInfBound;
    const int64_t sum = saturated_sum(len, pads);
    return sum < 0 ? kInfBound : sum;
}

Dim dim_of_bounds(int64_t lo, int64_t hi) {
    lo = lo == kInfBound ? 0 : lo;
    hi = hi == kInfBound ? Dim::kInf : hi;
    return Dim(std::min(lo, hi), hi);
}

// A dim plus pads (OpenVINO's dim::padded): a static dim padded below 0 becomes dynamic.
Dim padded(const Dim& d, int64_t pads) {
    if (pads == 0) return d;
    const int64_t hi = padded_bound(d.max(), pads);
    return dim_of_bounds(d.is_static() ? hi : padded_bound(d.min(), pads), hi);
}

bool unbounded_pad(const Bounds& b) { return b.first == 0 && (b.second == kInfBound || b.second == kI64Max); }

}  // namespace

// The padded dim for pads known as bounds: the shortest length with the least padding, the longest with the most.
Dim padded_dim(const Dim& d, const Bounds& begin, const Bounds& end) {
    const int64_t lo_pads = saturated_sum(begin.first, end.first);
    const int64_t hi_pads = saturated_sum(begin.second, end.second);
    if (lo_pads == 0 && hi_pads == 0) return d;
    const int64_t lo = padded_bound(d.min(), lo_pads);
    const int64_t hi = unbounded_pad(begin) || unbounded_pad(end) ? kInfBound : padded_bound(d.max(), hi_pads);
    return dim_of_bounds(lo, hi);
}

void infer_pad(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 4)) return;
    const auto mode = ctx.attr_enum("pad_mode", kPadModes, "constant");
    if (!mode) return;
    if (*mode == "constant" && ctx.input_count() == 4 && !same_element_type(ctx, 0, 3, "data", "pad_value")) return;
    if (!expect_integral(ctx, 1, "pads_begin") || !expect_integral(ctx, 2, "pads_end")) return;
    const Shape& data = ctx.shape(0);
    if (*mode == "constant" && ctx.input_count() == 4) {
        const Shape& pv = ctx.shape(3);
        if (!pv.rank_dynamic && pv.rank() != 0) {
            ctx.invalid_input(fmt::format("pad_value {} is not a scalar", pv.str()));
            return;
        }
    }
    if (!check_1d(ctx, 1, "pads_begin") || !check_1d(ctx, 2, "pads_end")) return;
    OpOutput result{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(result));
        return;
    }
    const size_t rank = data.rank();
    const auto begin = input_bounds(ctx, 1);
    const auto end = input_bounds(ctx, 2);
    if (!begin || !end) {
        static constexpr std::array<std::string_view, 2> kNames{"pads_begin", "pads_end"};
        for (size_t i = 1; i <= 2; ++i) {
            const int64_t n = count_1d(ctx.shape(i));
            if (n > static_cast<int64_t>(rank)) {
                ctx.invalid_input(fmt::format("{} has {} values, more than data rank {}", kNames[i - 1], n, rank));
                return;
            }
        }
        ctx.value_unknown("pads_begin or pads_end values are unknown");
        ctx.invariant(invariants::inferred_bounds());  // the rank stays; pads may be negative, so no dim bound
        result.shape = Shape{false, std::vector<Dim>(rank)};
        out.push_back(std::move(result));
        return;
    }
    if (begin->size() != rank || end->size() != rank) {
        ctx.invalid_input(fmt::format("pads_begin has {} and pads_end {} values: data rank {} needs that many",
                                      begin->size(), end->size(), rank));
        return;
    }
    result.shape = Shape{};
    for (size_t i = 0; i < rank; ++i) {
        const Dim& d = data.dims[i];
        if (d.is_static() && !check_pad_dim(ctx, *mode, i, d.min(), (*begin)[i].first, (*end)[i].first)) return;
        result.shape.dims.push_back(padded_dim(d, (*begin)[i], (*end)[i]));
    }
    out.push_back(std::move(result));
}

// ---- Interpolate ----

namespace {

constexpr std::array<std::string_view, 6> kInterpolateModes{"nearest", "linear", "linear_onnx", "cubic",
                                                              "bilinear_pillow", "bicubic_pillow"};
constexpr std::array<std::string_view, 2> kShapeCalcModes{"sizes", "scales"};

// Reads axes: the attribute (v0), an input (v4's 4th, v11's 3rd), or all of them. nullopt: unknown or invalid
// (see ctx.failed()).
std::optional<std::vector<size_t>> interpolate_axes(OpContext& ctx, std::optional<std::vector<int64_t>> given,
                                                    size_t rank) {
    if (!given) {
        std::vector<size_t> all(rank);
        for (size_t i = 0; i < rank; ++i) all[i] = i;
        return all;
    }
    std::vector<size_t> axes;
    for (const int64_t a : *given) {
        if (a < 0 || a >= static_cast<int64_t>(rank)) {
            ctx.invalid_input(fmt::format("axes [{}]: every axis must be less than data rank {} (and >= 0)",
                                          join_ints(*given), rank));
            return std::nullopt;
        }
        axes.push_back(static_cast<size_t>(a));
    }
    return axes;
}

// Puts the sizes input's values on the axes; dynamic dims there when they are unknown.
void set_sizes(OpContext& ctx, Shape& shape, std::span<const size_t> axes, size_t port) {
    const TensorValue* sizes = ctx.value(port);
    if (!sizes) {
        ctx.value_unknown("sizes values are unknown");
        ctx.invariant(invariants::inferred_bounds());
        for (const size_t a : axes) shape.dims[a] = Dim();
        return;
    }
    if (sizes->size() < axes.size()) {
        ctx.invalid_input(fmt::format("sizes has {} values for {} axes", sizes->size(), axes.size()));
        return;
    }
    for (size_t i = 0; i < axes.size(); ++i) shape.dims[axes[i]] = value_as_dim((*sizes)[i]);
}

constexpr std::array kInterpolateDataTypes{ElementType::f32, ElementType::f16, ElementType::bf16, ElementType::i8,
                                           ElementType::u8,  ElementType::i64, ElementType::i32};
constexpr std::array kSizesTypes{ElementType::i32, ElementType::i64, ElementType::u32, ElementType::u64};
constexpr std::array kScalesTypes{ElementType::f32, ElementType::f16, ElementType::bf16};

// Records an input problem when input i's element type is known and not one of `allowed`.
bool expect_type_in(OpContext& ctx, size_t i, std::string_view name, std::span<const ElementType> allowed) {
    const auto t = ctx.type(i);
    if (!t || *t == ElementType::dynamic || std::find(allowed.begin(), allowed.end(), *t) != allowed.end())
        return true;
    std::string list;
    for (const ElementType a : allowed) list += fmt::format("{}{}", list.empty() ? "" : ", ", element_type_name(a));
    ctx.invalid_input(fmt::format("{} element type {} is not one of {}", name, element_type_name(*t), list));
    return false;
}

std::vector<int64_t> resized(std::vector<int64_t> v, size_t n) {
    v.resize(n, 0);
    return v;
}

// The data's dims with pads_begin and pads_end added (missing pads are 0).
Shape padded_data(const Shape& data, const std::vector<int64_t>& pads_begin, const std::vector<int64_t>& pads_end) {
    const auto begin = resized(pads_begin, data.rank()), end = resized(pads_end, data.rank());
    Shape shape;
    for (size_t i = 0; i < data.rank(); ++i) shape.dims.push_back(padded(data.dims[i], saturated_sum(begin[i], end[i])));
    return shape;
}

}  // namespace


// One bound of a padded dim times a scale, as OpenVINO computes it: in float, the scale nudged up by 1e-6 so
// that 0.5 * 224 does not come out as 111.99999, then truncated. An unbounded bound stays unbounded.
int64_t scaled_bound(int64_t bound, double scale) {
    if (bound == Dim::kInf) return Dim::kInf;
    const float product = static_cast<float>(bound) * (static_cast<float>(scale) + 1.0e-6f);
    if (!(product >= 0.0f)) return 0;
    if (product >= 9.2e18f) return Dim::kInf;
    return static_cast<int64_t>(product);
}

void apply_scales(OpContext& ctx, Shape& shape, const std::vector<size_t>& axes, size_t port) {
    const std::vector<double>* scales = ctx.real_values(port);
    if (!scales) {
        ctx.value_unknown("the scales (input " + std::to_string(port) + ") are not known");
        ctx.invariant(invariants::inferred_bounds());
        for (const size_t a : axes) shape.dims[a] = Dim();
        return;
    }
    // Scales beyond the axes' count are not read.
    if (scales->size() < axes.size()) {
        ctx.invalid_input(
            fmt::format("{} scales for {} axes: there must be a scale for every axis", scales->size(), axes.size()));
        return;
    }
    for (size_t k = 0; k < axes.size(); ++k) {
        const Dim& d = shape.dims[axes[k]];
        const int64_t hi = scaled_bound(d.max(), (*scales)[k]);
        shape.dims[axes[k]] = Dim(scaled_bound(d.min(), (*scales)[k]), hi == Dim::kInf ? -1 : hi);
    }
}

void infer_interpolate(OpContext& ctx, std::vector<OpOutput>& out) {
    const int version = ctx.version();
    if (version == 0) {
        if (!ctx.expect_inputs(2)) return;
        const auto axes_attr = ctx.attr_ints("axes");
        static constexpr std::array<std::string_view, 4> kModesV0{"nearest", "linear", "cubic", "area"};
        const auto mode = ctx.attr_enum("mode", kModesV0);
        if (!axes_attr || !mode) return;
        if (!expect_integral(ctx, 1, "target_spatial_shape")) return;
        OpOutput result{ctx.shape(0), ctx.type(0), std::nullopt, {}};
        if (!result.shape.rank_dynamic) {
            const auto axes = interpolate_axes(ctx, axes_attr, result.shape.rank());
            if (!axes) return;
            set_sizes(ctx, result.shape, *axes, 1);
            if (ctx.failed()) return;
        }
        out.push_back(std::move(result));
        return;
    }
    const bool v11 = version >= 11;
    if (!(v11 ? ctx.expect_inputs(2, 3) : ctx.expect_inputs(3, 4))) return;
    const auto mode = ctx.attr_enum("mode", kInterpolateModes);
    const auto calc = ctx.attr_enum("shape_calculation_mode", kShapeCalcModes);
    const auto pads_begin = ctx.attr_ints("pads_begin", std::vector<int64_t>{});
    const auto pads_end = ctx.attr_ints("pads_end", std::vector<int64_t>{});
    if (!mode || !calc || !pads_begin || !pads_end) return;
    if (!v11 && (*mode == "bilinear_pillow" || *mode == "bicubic_pillow")) {
        ctx.invalid_attribute(fmt::format("mode={} needs Interpolate-11", *mode));
        return;
    }
    const bool scales = *calc == "scales";
    const size_t values_port = v11 ? 1 : (scales ? 2 : 1);
    const size_t axes_port = v11 ? 2 : 3;
    const bool has_axes = ctx.input_count() > axes_port;
    if (!check_1d(ctx, values_port, scales ? "scales" : "sizes")) return;
    if (v11)
        for (size_t i = 1; i < ctx.input_count(); ++i)
            if (!check_1d(ctx, i, i == 1 ? "scales_or_sizes" : "axes")) return;
    if (!expect_type_in(ctx, 0, "data", kInterpolateDataTypes)) return;
    // Interpolate-4 checks both the sizes and the scales input, whichever the mode reads.
    const auto value_types =
        scales ? std::span<const ElementType>(kScalesTypes) : std::span<const ElementType>(kSizesTypes);
    const bool types_ok = v11 ? expect_type_in(ctx, 1, scales ? "scales" : "sizes", value_types)
                              : expect_type_in(ctx, 1, "sizes", kSizesTypes) &&
                                    expect_type_in(ctx, 2, "scales", kScalesTypes);
    if (!types_ok) return;
    if (has_axes && (!check_1d(ctx, axes_port, "axes") || !expect_type_in(ctx, axes_port, "axes", kSizesTypes))) return;

    const Shape& data = ctx.shape(0);
    OpOutput result{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(result));
        return;
    }
    const size_t rank = data.rank();
    std::optional<std::vector<int64_t>> axes_given;
    if (has_axes) {
        axes_given = ctx.exact_values(axes_port);
        if (!axes_given) {
            ctx.value_unknown("axes values are unknown");
            if (const int64_t n = count_1d(ctx.shape(axes_port)); n >= 0)
                ctx.invariant(invariants::dims_kept_but_some("Interpolate", padded_data(data, *pads_begin, *pads_end),
                                                             static_cast<size_t>(n)));
            result.shape = Shape{false, std::vector<Dim>(rank)};
            out.push_back(std::move(result));
            return;
        }
    }
    const auto axes = interpolate_axes(ctx, axes_given, rank);
    if (!axes) return;
    result.shape = padded_data(data, *pads_begin, *pads_end);
    if (scales) {
        apply_scales(ctx, result.shape, *axes, values_port);
        if (ctx.failed()) return;
    } else {
        set_sizes(ctx, result.shape, *axes, values_port);
        if (ctx.failed()) return;
    }
    out.push_back(std::move(result));
}

}  // namespace irlint::tensor
