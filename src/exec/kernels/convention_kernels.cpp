#include "exec/kernels/convention_kernels.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "core/text.hpp"
#include "core/half.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/kernels/taps.hpp"

namespace irlint {

namespace {

// ---- geometry: which kernel taps of each output land where ---------------------------------------------

// A product that stops at INT64_MAX instead of overflowing.
int64_t saturating_product(int64_t a, int64_t b) {
    int64_t p = 0;
    return __builtin_mul_overflow(a, b, &p) ? std::numeric_limits<int64_t>::max() : p;
}

struct Axis {
    int64_t in = 1, out = 1, kernel = 1, stride = 1, dilation = 1, pad_begin = 0, pad_end = 0;

    int64_t start(int64_t o) const { return o * stride - pad_begin; }
    // The taps of output o whose position lies in [lo, hi).
    TapRange taps_within(int64_t o, int64_t lo, int64_t hi) const {
        return irlint::taps_within(start(o), kernel, dilation, lo, hi);
    }
    TapRange data_taps(int64_t o) const { return taps_within(o, 0, in); }
    TapRange padded_taps(int64_t o) const { return taps_within(o, -pad_begin, in + pad_end); }
};

// The spatial axes padded in front to three (D, H, W), so that 1D, 2D and 3D pooling share one loop.
struct Geometry {
    std::array<Axis, 3> axes;
    std::vector<int64_t> output_shape;
    int64_t planes = 1;  // N x C
    int64_t in_plane() const { return axes[0].in * axes[1].in * axes[2].in; }
};

// Empty on success, else why the layer cannot run on this input.
std::string geometry_of(const PoolOp& op, const PoolingDesc& desc, const Tensor& input, Geometry& g) {
    if (input.rank() < 3 || input.rank() > 5)
        return fmt::format("{} takes a 3D, 4D or 5D input; the input has rank {}", op.type_name(), input.rank());
    const PoolShape ps = infer_pool_shape(op, desc, shape_from_port_dims(input.shape()));
    if (ps.error) return *ps.error;
    for (const Dim& d : ps.output.dims) g.output_shape.push_back(d.length());
    const std::vector<int64_t>& in = input.shape();
    const size_t spatial = in.size() - 2, skip = 3 - spatial;
    for (size_t i = 0; i < spatial; ++i) {
        Axis& a = g.axes[skip + i];
        a.in = in[i + 2];
        a.out = g.output_shape[i + 2];
        a.kernel = desc.kernel[i];
        a.stride = desc.strides[i];
        a.dilation = op.has_dilations() && i < desc.dilations.size() ? desc.dilations[i] : 1;
        a.pad_begin = ps.pads_begin[i];
        a.pad_end = ps.pads_end[i];
    }
    g.planes = in[0] * in[1];
    return "";
}

// These loops visit every in-data tap of every window; past this many visits a convention is not tried, so
// that a layer with huge windows cannot stall the report.
constexpr double kMaxTapVisits = 4e9;

double tap_visits(const Geometry& g) {
    double visits = static_cast<double>(g.planes);
    for (const Axis& a : g.axes)
        visits *= static_cast<double>(a.out) * static_cast<double>(std::min(a.kernel, std::max<int64_t>(a.in, 1)));
    return visits;
}

// One window: how many taps fall on input elements, inside the padded border, and in all.
struct TapCounts {
    int64_t data = 1, padded = 1, all = 1;
};

struct Window {
    std::array<int64_t, 3> out{};
    std::array<TapRange, 3> data;  // the in-data taps per axis
    TapCounts counts(const Geometry& g) const {
        TapCounts c;
        for (size_t a = 0; a < 3; ++a) {
            c.data = saturating_product(c.data, data[a].count());
            c.padded = saturating_product(c.padded, g.axes[a].padded_taps(out[a]).count());
            c.all = saturating_product(c.all, g.axes[a].kernel);
        }
        return c;
    }
};

// Calls fn(offset) with the offset within the input plane of every in-data tap of the window, in D, H, W order.
template <class Fn>
void for_each_data_tap(const Geometry& g, const Window& w, Fn&& fn) {
    const Axis& d = g.axes[0];
    const Axis& h = g.axes[1];
    const Axis& x = g.axes[2];
    for (int64_t kd = w.data[0].first; kd < w.data[0].last; ++kd) {
        const int64_t pd = d.start(w.out[0]) + kd * d.dilation;
        for (int64_t kh = w.data[1].first; kh < w.data[1].last; ++kh) {
            const int64_t row = (pd * h.in + h.start(w.out[1]) + kh * h.dilation) * x.in;
            for (int64_t kw = w.data[2].first; kw < w.data[2].last; ++kw) fn(row + x.start(w.out[2]) + kw * x.dilation);
        }
    }
}

// Calls fn(plane, window, flat output index) for every output element, in C order.
template <class Fn>
void for_each_window(const Geometry& g, Fn&& fn) {
    size_t i = 0;
    Window w;
    for (int64_t p = 0; p < g.planes; ++p) {
        for (int64_t od = 0; od < g.axes[0].out; ++od) {
            for (int64_t oh = 0; oh < g.axes[1].out; ++oh) {
                for (int64_t ow = 0; ow < g.axes[2].out; ++ow) {
                    w.out = {od, oh, ow};
                    for (size_t a = 0; a < 3; ++a) w.data[a] = g.axes[a].data_taps(w.out[a]);
                    fn(p, w, i++);
                }
            }
        }
    }
}

// ---- element types ----------------------------------------------------------------------------------------

bool is_half(ElementType t) { return t == ElementType::f16 || t == ElementType::bf16; }
bool computes_floats(ElementType t) { return is_half(t) || t == ElementType::f32 || t == ElementType::f64; }

// v as the element type holds it (f16/bf16 to nearest even).
float round_to(ElementType t, float v) {
    if (t == ElementType::f16) return f16_to_float(float_to_f16(v));
    if (t == ElementType::bf16) return bf16_to_float(float_to_bf16(v));
    return v;
}

template <class T>
void put(Tensor& t, size_t i, T v) {
    std::memcpy(t.mutable_bytes() + i * sizeof(T), &v, sizeof(T));
}

void store_float(Tensor& t, size_t i, double v) {
    switch (t.type()) {
        case ElementType::f16:
            put<uint16_t>(t, i, float_to_f16(static_cast<float>(v)));
            break;
        case ElementType::bf16:
            put<uint16_t>(t, i, float_to_bf16(static_cast<float>(v)));
            break;
        case ElementType::f32:
            put<float>(t, i, static_cast<float>(v));
            break;
        default:
            put<double>(t, i, v);
            break;
    }
}

void store_index(Tensor& t, size_t i, int64_t v) {
    if (t.type() == ElementType::i32)
        put<int32_t>(t, i, static_cast<int32_t>(v));
    else
        put<int64_t>(t, i, v);
}

// Calls fn(T{}) with the integer type that stores `t`; false for floats, halves and boolean.
template <class Fn>
bool visit_integer_type(ElementType t, Fn&& fn) {
    bool integer = false;
    kernels::visit_element_type(t, [&](auto traits) {
        using Traits = decltype(traits);
        using Stored = typename Traits::Stored;
        if constexpr (!Traits::is_half && std::is_integral_v<Stored>) {
            if (t == ElementType::boolean) return;
            integer = true;
            fn(Stored{});
        }
    });
    return integer;
}

// ---- AvgPool ----------------------------------------------------------------------------------------------

struct AvgRule {
    bool clipped_divisor = false;  // count the taps up to the padded border, whatever exclude-pad says
    bool pads_in_avg = false;      // OpenVINO: exclude-pad=false and some pad is not zero
    bool sum_in_f32 = false;       // f16/bf16: no rounding to the element type while summing

    int64_t divisor(const TapCounts& c) const {
        if (clipped_divisor) return c.padded;
        return pads_in_avg ? c.all : c.data;
    }
};

// Floats: f32/f64 sum in double; f16/bf16 sum in float and, unless sum_in_f32, round the running sum and
// the divisor to the element type as OpenVINO's reference does.
void avg_floats(const Geometry& g, const AvgRule& rule, const Tensor& in, Tensor& out) {
    const ElementType t = in.type();
    const bool rounds = is_half(t) && !rule.sum_in_f32;
    for_each_window(g, [&](int64_t p, const Window& w, size_t i) {
        const int64_t base = p * g.in_plane();
        double wide = 0;
        float narrow = 0;
        for_each_data_tap(g, w, [&](int64_t offset) {
            const double v = in.value_as_double(static_cast<size_t>(base + offset));
            if (!is_half(t))
                wide += v;
            else
                narrow = rounds ? round_to(t, narrow + static_cast<float>(v)) : narrow + static_cast<float>(v);
        });
        const int64_t n = rule.divisor(w.counts(g));
        if (n == 0) return store_float(out, i, 0);
        if (!is_half(t)) return store_float(out, i, wide / static_cast<double>(n));
        const float divisor = rounds ? round_to(t, static_cast<float>(n)) : static_cast<float>(n);
        store_float(out, i, narrow / divisor);
    });
}

// Integers: the sum wraps to the element type, then divides truncating, as OpenVINO's reference.
template <class T>
void avg_integers(const Geometry& g, const AvgRule& rule, const Tensor& in, Tensor& out) {
    const T* src = in.data<T>();
    T* dst = out.mutable_data<T>();
    for_each_window(g, [&](int64_t p, const Window& w, size_t i) {
        const T* plane = src + p * g.in_plane();
        uint64_t sum = 0;  // unsigned, so that overflow wraps instead of being undefined
        for_each_data_tap(g, w, [&](int64_t at) { sum += static_cast<uint64_t>(static_cast<int64_t>(plane[at])); });
        const int64_t n = rule.divisor(w.counts(g));
        const T wrapped = static_cast<T>(sum);
        if (n == 0)
            dst[i] = T{0};
        else if constexpr (std::is_signed_v<T>)
            dst[i] = static_cast<T>(static_cast<int64_t>(wrapped) / n);
        else
            dst[i] = static_cast<T>(static_cast<uint64_t>(wrapped) / static_cast<uint64_t>(n));
    });
}

bool any_pad(const Geometry& g) {
    for (const Axis& a : g.axes)
        if (a.pad_begin != 0 || a.pad_end != 0) return true;
    return false;
}

void avg_pool(Arithmetic a, const Geometry& g, const PoolingDesc& desc, const Tensor& in, Tensor& out) {
    AvgRule rule;
    rule.clipped_divisor = a == Arithmetic::avg_divisor_clipped;
    rule.sum_in_f32 = a == Arithmetic::avg_f32_accumulation;
    rule.pads_in_avg = !desc.exclude_pad && any_pad(g);
    if (computes_floats(in.type())) return avg_floats(g, rule, in, out);
    visit_integer_type(in.type(), [&](auto zero) { avg_integers<decltype(zero)>(g, rule, in, out); });
}

// ---- MaxPool ----------------------------------------------------------------------------------------------

// Indices as OpenVINO's reference numbers them: the flat position in the input tensor, modulo the size of
// the dims from `axis` on when axis is not 0.
int64_t index_modulus(const PoolingDesc& desc, const std::vector<int64_t>& in) {
    const auto rank = static_cast<int64_t>(in.size());
    const int64_t axis = desc.axis < 0 ? desc.axis + rank : desc.axis;
    if (axis <= 0) return 0;
    int64_t m = 1;
    for (int64_t i = axis; i < rank; ++i) m *= in[static_cast<size_t>(i)];
    return m;
}

void max_pool(Arithmetic a, const Geometry& g, const PoolingDesc& desc, const Tensor& in,
              std::vector<Tensor>& outputs) {
    const bool nan_wins = a == Arithmetic::max_nan_propagates;
    const double start =
        a == Arithmetic::max_neg_inf_start ? -std::numeric_limits<double>::infinity() : lowest_value(in.type());
    const int64_t modulus = index_modulus(desc, in.shape());
    for_each_window(g, [&](int64_t p, const Window& w, size_t i) {
        const int64_t base = p * g.in_plane();
        double best = start;
        int64_t pick = 0;
        for_each_data_tap(g, w, [&](int64_t offset) {
            const double v = in.value_as_double(static_cast<size_t>(base + offset));
            if ((nan_wins && std::isnan(v)) || v > best) {  // each later NaN takes over, as PyTorch's CPU kernel
                best = v;
                pick = offset;
            }
        });
        store_float(outputs[0], i, best);
        if (outputs.size() > 1) store_index(outputs[1], i, modulus ? (base + pick) % modulus : base + pick);
    });
}

// ---- the entry point --------------------------------------------------------------------------------------

bool is_avg_arithmetic(Arithmetic a) {
    return a == Arithmetic::avg_divisor_clipped || a == Arithmetic::avg_f32_accumulation;
}

std::string unsupported(Arithmetic a, const PoolOp& op, ElementType t) {
    const PoolKind kind = is_avg_arithmetic(a) ? PoolKind::avg_pool : PoolKind::max_pool;
    if (op.kind != kind) return fmt::format("this arithmetic does not apply to {}", op.type_name());
    const bool integers = visit_integer_type(t, [](auto) {});
    const bool runs = computes_floats(t) || (a == Arithmetic::avg_divisor_clipped && integers);
    if (!runs) return fmt::format("this arithmetic does not apply to {} data", element_type_name(t));
    return "";
}

std::string check_budget(const std::vector<int64_t>& dims, size_t outputs, size_t max_bytes) {
    const auto count = checked_element_count(dims, 64);
    if (!count || *count > max_bytes / 8 / outputs)
        return fmt::format("the output [{}] is over the memory budget", join_ints(dims));
    return "";
}

}  // namespace

PoolRunResult run_pool_with(Arithmetic a, const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                            const KernelOptions& options) {
    if (a == Arithmetic::openvino) return run_pool(op, desc, input, options);
    if (auto error = unsupported(a, op, input.type()); !error.empty()) return {error, {}};
    Geometry g;
    if (auto error = geometry_of(op, desc, input, g); !error.empty()) return {error, {}};
    const bool indices = op.has_index_output();
    if (indices && desc.index_type != ElementType::i32 && desc.index_type != ElementType::i64)
        return {fmt::format("indices as {} are not computed", element_type_name(desc.index_type)), {}};
    if (auto error = check_budget(g.output_shape, indices ? 2 : 1, options.max_bytes); !error.empty())
        return {error, {}};
    if (tap_visits(g) > kMaxTapVisits) return {"the windows are too large to compute this way", {}};
    PoolRunResult r;
    r.outputs.emplace_back(input.type(), g.output_shape);
    if (indices) r.outputs.emplace_back(desc.index_type, g.output_shape);
    if (r.outputs[0].size() == 0 || input.size() == 0) return r;
    if (is_avg_arithmetic(a))
        avg_pool(a, g, desc, input, r.outputs[0]);
    else
        max_pool(a, g, desc, input, r.outputs);
    return r;
}

}  // namespace irlint
