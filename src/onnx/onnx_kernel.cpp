#include "onnx/onnx_kernel.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/half.hpp"
#include "exec/kernels/taps.hpp"

namespace irlint {

void store_value(Tensor& t, size_t i, double v) {
    switch (t.type()) {
        case ElementType::f32: t.mutable_data<float>()[i] = static_cast<float>(v); break;
        case ElementType::f64: t.mutable_data<double>()[i] = v; break;
        case ElementType::f16: t.mutable_data<uint16_t>()[i] = float_to_f16(static_cast<float>(v)); break;
        case ElementType::bf16: t.mutable_data<uint16_t>()[i] = float_to_bf16(static_cast<float>(v)); break;
        case ElementType::i8: t.mutable_data<int8_t>()[i] = static_cast<int8_t>(std::lround(v)); break;
        case ElementType::u8: t.mutable_data<uint8_t>()[i] = static_cast<uint8_t>(std::lround(v)); break;
        default: break;
    }
}

namespace {

// Past this many tap visits the node is refused rather than stalling the run.
constexpr double kMaxTapVisits = 4e9;

// The windows of one node on one input, with the strides of the input's spatial layout.
class Windows {
public:
    Windows(const OnnxPoolSetup& s, const PoolShape& shape, const std::vector<int64_t>& in_shape)
        : s_(s), shape_(shape), in_(in_shape.begin() + 2, in_shape.end()) {
        for (size_t a = 0; a < in_.size(); ++a) out_.push_back(shape.output.dims[a + 2].length());
        row_major_.assign(in_.size(), 1);
        column_major_.assign(in_.size(), 1);
        for (size_t a = in_.size(); a-- > 1;) row_major_[a - 1] = row_major_[a] * in_[a];
        for (size_t a = 1; a < in_.size(); ++a) column_major_[a] = column_major_[a - 1] * in_[a - 1];
    }

    int64_t in_plane() const { return product(in_); }
    int64_t out_plane() const { return product(out_); }
    size_t axes() const { return in_.size(); }

    // Calls visit(flat offset within the plane) for each tap of output `o` (a flat index in the output
    // plane) that lies inside the input, in row-major order; returns the count of taps inside the padded input.
    template <class Visit>
    double for_each_tap(int64_t o, Visit&& visit) const {
        std::vector<int64_t> start(axes());
        std::vector<TapRange> inside(axes());
        double padded_taps = 1;
        for (size_t a = axes(); a-- > 0;) {
            start[a] = (o % out_[a]) * s_.desc.strides[a] - shape_.pads_begin[a];
            o /= out_[a];
            inside[a] = taps_between(start[a], a, 0, in_[a]);
            padded_taps *= static_cast<double>(
                taps_between(start[a], a, -shape_.pads_begin[a], in_[a] + shape_.pads_end[a]).count());
        }
        for (const TapRange& r : inside)
            if (r.count() == 0) return padded_taps;
        std::vector<int64_t> j(axes());
        for (size_t a = 0; a < axes(); ++a) j[a] = inside[a].first;
        while (true) {
            int64_t flat = 0;
            for (size_t a = 0; a < axes(); ++a) flat += (start[a] + j[a] * s_.desc.dilations[a]) * row_major_[a];
            visit(flat);
            size_t a = axes();
            while (a > 0 && ++j[a - 1] == inside[a - 1].last) {
                --a;
                j[a] = inside[a].first;
            }
            if (a == 0) return padded_taps;
        }
    }

    // An upper bound on the taps inside the input that one window visits.
    double taps_per_window() const {
        double taps = 1;
        for (size_t a = 0; a < axes(); ++a)
            taps *= static_cast<double>(std::min(s_.desc.kernel[a], in_[a] / s_.desc.dilations[a] + 1));
        return taps;
    }

    // A row-major offset within the plane as the index ONNX stores (column-major with storage_order=1).
    int64_t stored_index(int64_t flat) const {
        if (!s_.column_major_indices) return flat;
        int64_t out = 0;
        for (size_t a = 0; a < axes(); ++a) out += ((flat / row_major_[a]) % in_[a]) * column_major_[a];
        return out;
    }

    // The index of an empty window: coordinate -1 on every spatial dim.
    int64_t empty_index() const {
        int64_t out = 0;
        for (size_t a = 0; a < axes(); ++a) out -= s_.column_major_indices ? column_major_[a] : row_major_[a];
        return out;
    }

private:
    TapRange taps_between(int64_t start, size_t a, int64_t lo, int64_t hi) const {
        return taps_within(start, s_.desc.kernel[a], s_.desc.dilations[a], lo, hi);
    }

    static int64_t product(const std::vector<int64_t>& v) {
        int64_t p = 1;
        for (int64_t x : v) p *= x;
        return p;
    }

    const OnnxPoolSetup& s_;
    const PoolShape& shape_;
    std::vector<int64_t> in_, out_, row_major_, column_major_;
};

void max_windows(const Windows& w, const Tensor& x, PoolRunResult& r) {
    const int64_t in_plane = w.in_plane(), out_plane = w.out_plane();
    const int64_t planes = out_plane == 0 ? 0 : static_cast<int64_t>(r.outputs[0].size()) / out_plane;
    const double lowest = lowest_value(x.type());
    for (int64_t p = 0; p < planes; ++p) {
        for (int64_t o = 0; o < out_plane; ++o) {
            double best = lowest;
            int64_t best_at = -1;
            w.for_each_tap(o, [&](int64_t flat) {
                const double v = x.value_as_double(static_cast<size_t>(p * in_plane + flat));
                if (best_at < 0 ? v >= best : v > best) {  // the first maximum, even when it is the lowest value
                    best = v;
                    best_at = flat;
                }
            });
            const auto at = static_cast<size_t>(p * out_plane + o);
            store_value(r.outputs[0], at, best);
            if (r.outputs.size() > 1)
                r.outputs[1].mutable_data<int64_t>()[at] =
                    p * in_plane + (best_at < 0 ? w.empty_index() : w.stored_index(best_at));
        }
    }
}

void average_windows(const Windows& w, bool count_include_pad, const Tensor& x, Tensor& y) {
    const int64_t in_plane = w.in_plane(), out_plane = w.out_plane();
    const int64_t planes = out_plane == 0 ? 0 : static_cast<int64_t>(y.size()) / out_plane;
    for (int64_t p = 0; p < planes; ++p) {
        for (int64_t o = 0; o < out_plane; ++o) {
            double sum = 0;
            int64_t inside = 0;
            const double padded = w.for_each_tap(o, [&](int64_t flat) {
                sum += x.value_as_double(static_cast<size_t>(p * in_plane + flat));
                ++inside;
            });
            const double divisor = count_include_pad ? padded : static_cast<double>(inside);
            store_value(y, static_cast<size_t>(p * out_plane + o), divisor > 0 ? sum / divisor : 0.0);
        }
    }
}

}  // namespace

PoolRunResult run_onnx_windows(const OnnxPoolOp& op, const OnnxPoolSetup& setup, const PoolShape& shape,
                               const Tensor& input, size_t max_bytes) {
    std::vector<int64_t> out_dims;
    for (const Dim& d : shape.output.dims) out_dims.push_back(d.length());
    const size_t outputs = op.has_indices_output() ? 2 : 1;
    const auto count = checked_element_count(out_dims, 64);
    if (!count || *count > max_bytes / (8 * outputs))
        return {fmt::format("the output {} is larger than the memory limit", shape.output.str()), {}};
    PoolRunResult r;
    r.outputs.emplace_back(input.type(), out_dims);
    if (outputs > 1) r.outputs.emplace_back(ElementType::i64, out_dims);
    const Windows w(setup, shape, input.shape());
    if (static_cast<double>(r.outputs[0].size()) * w.taps_per_window() > kMaxTapVisits)
        return {"the windows are too large to compute this way", {}};
    if (op.is_max()) max_windows(w, input, r);
    else average_windows(w, setup.count_include_pad, input, r.outputs[0]);
    return r;
}

}  // namespace irlint
