#include "pool_oracle.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "core/half.hpp"

namespace irlint::oracle {

namespace {

int64_t product(const std::vector<int64_t>& v, size_t from = 0) {
    int64_t p = 1;
    for (size_t i = from; i < v.size(); ++i) p *= v[i];
    return p;
}

// Calls visit(index) for every multi-index below `extent`, in row-major order.
template <class F>
void for_each_index(const std::vector<int64_t>& extent, F&& visit) {
    if (product(extent) == 0) return;
    std::vector<int64_t> index(extent.size(), 0);
    for (;;) {
        visit(index);
        size_t axis = extent.size();
        while (axis > 0 && ++index[axis - 1] == extent[axis - 1]) index[--axis] = 0;
        if (axis == 0) return;
    }
}

// Row-major offset of `pos` in a box of `dims`.
int64_t offset_in(const std::vector<int64_t>& pos, const std::vector<int64_t>& dims) {
    int64_t offset = 0;
    for (size_t i = 0; i < dims.size(); ++i) offset = offset * dims[i] + pos[i];
    return offset;
}

// ---- element types: how a stored value is read, written and averaged --------------------------------

struct F16 {
    using stored = uint16_t;
    static float get(stored v) { return f16_to_float(v); }
    static stored put(double v) { return float_to_f16(static_cast<float>(v)); }
    static constexpr stored lowest() { return 0xFBFF; }  // -65504
    static constexpr bool rounds_every_add = true;
};

struct BF16 {
    using stored = uint16_t;
    static float get(stored v) { return bf16_to_float(v); }
    static stored put(double v) { return float_to_bf16_openvino(static_cast<float>(v)); }  // bfloat16 arithmetic
    static constexpr stored lowest() { return 0xFF7F; }  // -3.39e38
    static constexpr bool rounds_every_add = true;
};

template <class T>
struct Native {
    using stored = T;
    static T get(T v) { return v; }
    static T put(double v) { return static_cast<T>(v); }
    static constexpr T lowest() { return std::numeric_limits<T>::lowest(); }
    static constexpr bool rounds_every_add = false;
};

// Calls f(Policy{}) for the element type; false when the type is not one pooling computes on.
template <class F>
bool with_element_policy(ElementType t, F&& f) {
    switch (t) {
        case ElementType::f16: f(F16{}); return true;
        case ElementType::bf16: f(BF16{}); return true;
        case ElementType::f32: f(Native<float>{}); return true;
        case ElementType::f64: f(Native<double>{}); return true;
        case ElementType::i8: f(Native<int8_t>{}); return true;
        case ElementType::i16: f(Native<int16_t>{}); return true;
        case ElementType::i32: f(Native<int32_t>{}); return true;
        case ElementType::i64: f(Native<int64_t>{}); return true;
        case ElementType::u8: f(Native<uint8_t>{}); return true;
        case ElementType::u16: f(Native<uint16_t>{}); return true;
        case ElementType::u32: f(Native<uint32_t>{}); return true;
        case ElementType::u64: f(Native<uint64_t>{}); return true;
        default: return false;
    }
}

// The sum of a window's in-data values and the two ways OpenVINO's reference turns it into an average.
// f16/bf16 follow the reference exactly: the running sum is an element-type value, so every add rounds
// (in float, then to the type), and so does the quotient. Other floats are summed in double. Integers are
// summed exactly and then wrapped to the element type, which is what the reference's element-type sum
// leaves after its additions wrap around.
template <class E>
class WindowSum {
public:
    using T = typename E::stored;

    void add(T v) {
        if constexpr (E::rounds_every_add) rounded_ = E::put(E::get(rounded_) + E::get(v));
        else if constexpr (std::is_integral_v<T>) exact_ += static_cast<int64_t>(v);
        else sum_ += static_cast<double>(v);
    }

    // AvgPool divides by the count converted to the element type; integers truncate toward zero.
    T avg_pool_mean(int64_t count) const {
        if (count == 0) return E::put(0);
        if constexpr (std::is_integral_v<T> && !E::rounds_every_add) return static_cast<T>(wrapped() / count);
        const double divisor = E::get(E::put(static_cast<double>(count)));
        if constexpr (E::rounds_every_add) return E::put(E::get(rounded_) / static_cast<float>(divisor));
        else return E::put(sum_ / divisor);
    }

    // AdaptiveAvgPool divides by the plain count; i8 and u8 round the float quotient to nearest even.
    T adaptive_mean(int64_t count) const {
        if constexpr (E::rounds_every_add) {
            return E::put(E::get(rounded_) / static_cast<float>(count));
        } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
            return static_cast<T>(std::nearbyint(static_cast<float>(wrapped()) / static_cast<float>(count)));
        } else if constexpr (std::is_integral_v<T>) {
            return static_cast<T>(wrapped() / count);
        } else {
            return E::put(sum_ / static_cast<double>(count));
        }
    }

private:
    int64_t wrapped() const { return static_cast<int64_t>(static_cast<T>(exact_)); }

    T rounded_ = E::put(0);
    double sum_ = 0;
    int64_t exact_ = 0;
};

void put_index(Tensor& t, int64_t i, int64_t value) {
    if (t.type() == ElementType::i32) t.mutable_data<int32_t>()[i] = static_cast<int32_t>(value);
    else t.mutable_data<int64_t>()[i] = value;
}

std::vector<int64_t> static_dims(const Shape& s) {
    std::vector<int64_t> dims;
    for (const Dim& d : s.dims) dims.push_back(d.length());
    return dims;
}

// ---- AvgPool / MaxPool -------------------------------------------------------------------------------

struct Windows {
    std::vector<int64_t> in, out, kernel, strides, dilations, pads_begin;  // spatial axes only
};

// The input position of kernel tap `tap` of output element `out`; false when it falls in the padding.
bool tap_position(const Windows& w, const std::vector<int64_t>& out, const std::vector<int64_t>& tap,
                  std::vector<int64_t>& pos) {
    for (size_t i = 0; i < w.in.size(); ++i) {
        pos[i] = out[i] * w.strides[i] - w.pads_begin[i] + tap[i] * w.dilations[i];
        if (pos[i] < 0 || pos[i] >= w.in[i]) return false;
    }
    return true;
}

template <class E>
void avg_pool(const Windows& w, bool pads_in_avg, int64_t channels, const Tensor& in, Tensor& out) {
    const auto* src = in.data<typename E::stored>();
    auto* dst = out.mutable_data<typename E::stored>();
    const int64_t in_size = product(w.in);
    int64_t o = 0;
    std::vector<int64_t> pos(w.in.size());
    for (int64_t channel = 0; channel < channels; ++channel) {
        for_each_index(w.out, [&](const std::vector<int64_t>& out_pos) {
            WindowSum<E> sum;
            int64_t count = 0;
            for_each_index(w.kernel, [&](const std::vector<int64_t>& tap) {
                const bool inside = tap_position(w, out_pos, tap, pos);
                if (inside) sum.add(src[channel * in_size + offset_in(pos, w.in)]);
                if (inside || pads_in_avg) ++count;
            });
            dst[o++] = sum.avg_pool_mean(count);
        });
    }
}

template <class E>
void max_pool(const Windows& w, int64_t channels, int64_t index_modulus, const Tensor& in, Tensor& out,
              Tensor* indices) {
    const auto* src = in.data<typename E::stored>();
    auto* dst = out.mutable_data<typename E::stored>();
    const int64_t in_size = product(w.in);
    int64_t o = 0;
    std::vector<int64_t> pos(w.in.size());
    for (int64_t channel = 0; channel < channels; ++channel) {
        for_each_index(w.out, [&](const std::vector<int64_t>& out_pos) {
            // Starting from lowest() with a strict '>' picks the first maximum, never NaN, and leaves a
            // window without any input element (or with nothing above lowest()) at offset 0 of its channel.
            typename E::stored best = E::lowest();
            int64_t best_offset = 0;
            for_each_index(w.kernel, [&](const std::vector<int64_t>& tap) {
                if (!tap_position(w, out_pos, tap, pos)) return;
                const auto v = src[channel * in_size + offset_in(pos, w.in)];
                if (E::get(v) > E::get(best)) {
                    best = v;
                    best_offset = offset_in(pos, w.in);
                }
            });
            if (indices) put_index(*indices, o, (channel * in_size + best_offset) % index_modulus);
            dst[o++] = best;
        });
    }
}

std::vector<int64_t> or_ones(const std::vector<int64_t>& v, size_t n) {
    return v.empty() ? std::vector<int64_t>(n, 1) : v;
}

}  // namespace

Result pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input) {
    Result r;
    const PoolShape shape = infer_pool_shape(op, desc, shape_from_port_dims(input.shape()));
    if (shape.error) {
        r.error = *shape.error;
        return r;
    }
    const size_t n = desc.kernel.size();
    const auto& dims = input.shape();
    Windows w;
    w.in.assign(dims.begin() + 2, dims.end());
    w.out = static_dims(shape.output);
    w.out.erase(w.out.begin(), w.out.begin() + 2);
    w.kernel = desc.kernel;
    w.strides = desc.strides;
    w.dilations = op.has_dilations() ? or_ones(desc.dilations, n) : std::vector<int64_t>(n, 1);
    w.pads_begin = shape.pads_begin;
    const int64_t channels = dims[0] * dims[1];

    r.outputs.emplace_back(input.type(), static_dims(shape.output));
    bool supported = false;
    if (op.kind == PoolKind::avg_pool) {
        // Padding counts only when exclude-pad is false and some effective pad is not zero.
        bool any_pad = false;
        for (size_t i = 0; i < n; ++i) any_pad = any_pad || shape.pads_begin[i] != 0 || shape.pads_end[i] != 0;
        const bool pads_in_avg = !desc.exclude_pad && any_pad;
        supported = with_element_policy(input.type(), [&](auto e) {
            avg_pool<decltype(e)>(w, pads_in_avg, channels, input, r.outputs[0]);
        });
    } else {
        Tensor* indices = nullptr;
        int64_t modulus = std::numeric_limits<int64_t>::max();
        if (op.has_index_output()) {
            r.outputs.emplace_back(desc.index_type, static_dims(shape.output));
            indices = &r.outputs[1];
            const int64_t rank = static_cast<int64_t>(dims.size());
            const int64_t axis = desc.axis < 0 ? desc.axis + rank : desc.axis;
            if (axis != 0) modulus = product(dims, static_cast<size_t>(axis));
        }
        supported = with_element_policy(input.type(), [&](auto e) {
            max_pool<decltype(e)>(w, channels, modulus, input, r.outputs[0], indices);
        });
    }
    if (!supported) r.error = "the oracle does not compute this element type";
    return r;
}

namespace {

// ---- AdaptiveAvgPool / AdaptiveMaxPool ---------------------------------------------------------------

// Bin i of `out` bins over `in` elements: [floor(i*in/out), ceil((i+1)*in/out)).
int64_t bin_begin(int64_t i, int64_t in, int64_t out) { return i * in / out; }
int64_t bin_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

struct Bin {
    std::vector<int64_t> begin, extent;
};

Bin bin_of(const std::vector<int64_t>& out_pos, const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
    Bin b;
    for (size_t i = 0; i < in.size(); ++i) {
        b.begin.push_back(bin_begin(out_pos[i], in[i], out[i]));
        b.extent.push_back(bin_end(out_pos[i], in[i], out[i]) - b.begin.back());
    }
    return b;
}

std::vector<int64_t> plus(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    std::vector<int64_t> sum(a.size());
    for (size_t i = 0; i < a.size(); ++i) sum[i] = a[i] + b[i];
    return sum;
}

template <class E>
void adaptive_avg(const std::vector<int64_t>& in, const std::vector<int64_t>& out, int64_t channels,
                  const Tensor& input, Tensor& values) {
    const auto* src = input.data<typename E::stored>();
    auto* dst = values.mutable_data<typename E::stored>();
    const int64_t in_size = product(in);
    int64_t o = 0;
    for (int64_t channel = 0; channel < channels; ++channel) {
        for_each_index(out, [&](const std::vector<int64_t>& out_pos) {
            const Bin bin = bin_of(out_pos, in, out);
            WindowSum<E> sum;
            for_each_index(bin.extent, [&](const std::vector<int64_t>& step) {
                sum.add(src[channel * in_size + offset_in(plus(bin.begin, step), in)]);
            });
            dst[o++] = sum.adaptive_mean(product(bin.extent));
        });
    }
}

template <class E>
void adaptive_max(const std::vector<int64_t>& in, const std::vector<int64_t>& out, int64_t channels,
                  const Tensor& input, Tensor& values, Tensor& indices) {
    const auto* src = input.data<typename E::stored>();
    auto* dst = values.mutable_data<typename E::stored>();
    const int64_t in_size = product(in);
    int64_t o = 0;
    for (int64_t channel = 0; channel < channels; ++channel) {
        for_each_index(out, [&](const std::vector<int64_t>& out_pos) {
            const Bin bin = bin_of(out_pos, in, out);
            int64_t best_offset = offset_in(bin.begin, in);
            for_each_index(bin.extent, [&](const std::vector<int64_t>& step) {
                const int64_t offset = offset_in(plus(bin.begin, step), in);
                if (E::get(src[channel * in_size + offset]) > E::get(src[channel * in_size + best_offset]))
                    best_offset = offset;
            });
            dst[o] = src[channel * in_size + best_offset];
            put_index(indices, o++, best_offset);  // within the (batch, channel) plane
        });
    }
}

}  // namespace

Result adaptive_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                     const std::vector<int64_t>& output_size) {
    Result r;
    const Shape size_shape = shape_from_port_dims({static_cast<int64_t>(output_size.size())});
    const PoolShape shape = infer_adaptive_shape(shape_from_port_dims(input.shape()), size_shape, output_size);
    if (shape.error) {
        r.error = *shape.error;
        return r;
    }
    const auto& dims = input.shape();
    const std::vector<int64_t> in(dims.begin() + 2, dims.end());
    const int64_t channels = dims[0] * dims[1];
    r.outputs.emplace_back(input.type(), static_dims(shape.output));
    bool supported = false;
    if (op.kind == PoolKind::adaptive_avg_pool) {
        supported = with_element_policy(input.type(), [&](auto e) {
            adaptive_avg<decltype(e)>(in, output_size, channels, input, r.outputs[0]);
        });
    } else {
        r.outputs.emplace_back(desc.index_type, static_dims(shape.output));
        supported = with_element_policy(input.type(), [&](auto e) {
            adaptive_max<decltype(e)>(in, output_size, channels, input, r.outputs[0], r.outputs[1]);
        });
    }
    if (!supported) r.error = "the oracle does not compute this element type";
    return r;
}

}  // namespace irlint::oracle

namespace irlint::test {

namespace {
template <class T>
void fill(Tensor& t, const std::vector<double>& values) {
    for (size_t i = 0; i < values.size(); ++i) t.mutable_data<T>()[i] = static_cast<T>(values[i]);
}
}  // namespace

Tensor make_tensor(ElementType type, const std::vector<int64_t>& shape, const std::vector<double>& values) {
    Tensor t(type, shape);
    if (t.size() != values.size())
        throw std::invalid_argument("make_tensor: " + std::to_string(values.size()) + " values for " +
                                    std::to_string(t.size()) + " elements");
    switch (type) {
        case ElementType::f16:
            for (size_t i = 0; i < values.size(); ++i)
                t.mutable_data<uint16_t>()[i] = float_to_f16(static_cast<float>(values[i]));
            break;
        case ElementType::bf16:
            for (size_t i = 0; i < values.size(); ++i)
                t.mutable_data<uint16_t>()[i] = float_to_bf16(static_cast<float>(values[i]));
            break;
        case ElementType::f32: fill<float>(t, values); break;
        case ElementType::f64: fill<double>(t, values); break;
        case ElementType::boolean: fill<uint8_t>(t, values); break;
        case ElementType::i8: fill<int8_t>(t, values); break;
        case ElementType::i16: fill<int16_t>(t, values); break;
        case ElementType::i32: fill<int32_t>(t, values); break;
        case ElementType::i64: fill<int64_t>(t, values); break;
        case ElementType::u8: fill<uint8_t>(t, values); break;
        case ElementType::u16: fill<uint16_t>(t, values); break;
        case ElementType::u32: fill<uint32_t>(t, values); break;
        case ElementType::u64: fill<uint64_t>(t, values); break;
        default: throw std::invalid_argument("make_tensor: element type without storage");
    }
    return t;
}

std::vector<double> values_of(const Tensor& t) {
    std::vector<double> v(t.size());
    for (size_t i = 0; i < t.size(); ++i) v[i] = t.value_as_double(i);
    return v;
}

}  // namespace irlint::test
