#include "onnx/onnx_divergence.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/checked_int.hpp"

namespace irlint {

namespace {

// A window that starts in the padding (start < 0), along one axis: does one of its taps land inside the
// input? Its first tap at or past 0 is the only candidate, found by division, not by stepping the taps.
bool window_touches_input(int64_t start, const AxisWindow& w, int64_t in) {
    const CheckedInt before = CheckedInt(0) - start;  // how far the window starts before the input
    const auto part_tap = (before % w.dilation).get();
    if (!part_tap) return false;
    const CheckedInt skipped = before / w.dilation + (*part_tap != 0 ? 1 : 0);
    const auto taps_skipped = skipped.get();
    const auto first_inside = (CheckedInt(start) + skipped * w.dilation).get();
    // Past int64, the tap lies beyond any input.
    if (!taps_skipped || !first_inside) return false;
    return *taps_skipped < w.kernel && *first_inside < in;
}

// Only the windows that start in the padding can miss the input; at most this many of them are looked at
// on each side (a window count above it comes from pads no runtime accepts anyway).
constexpr int64_t kEdgeWindows = 1 << 16;

bool axis_has_empty_window(const AxisWindow& w, int64_t in, int64_t out) {
    for (int64_t o = 0; o < out && o < kEdgeWindows; ++o) {
        const auto start = (CheckedInt(o) * w.stride - w.pad_begin).get();
        if (!start || *start >= 0) break;
        if (!window_touches_input(*start, w, in)) return true;
    }
    if (out <= 0) return false;
    const auto last_start = ((CheckedInt(out) - 1) * w.stride - w.pad_begin).get();
    return last_start && *last_start >= in;
}

std::vector<AxisWindow> effective_axes(const OnnxPoolSetup& s, const PoolShape& shape) {
    std::vector<AxisWindow> axes;
    for (size_t i = 0; i < s.desc.kernel.size(); ++i)
        axes.push_back({shape.pads_begin[i], shape.pads_end[i], s.desc.kernel[i], s.desc.strides[i], s.desc.dilations[i]});
    return axes;
}

bool spatially_static(const Shape& input) {
    return !input.rank_dynamic && input.rank() >= 3 &&
           std::all_of(input.dims.begin() + 2, input.dims.end(), [](const Dim& d) { return d.is_static(); });
}

// The op OpenVINO's ONNX frontend (2026) builds for the node, with its rounding: MaxPool-1 (opset 1 to 7) or
// MaxPool-8 with ceil_mode as "ceil"; AvgPool-1 without dilations and ceil_mode, else AvgPool-16 with
// ceil_mode as "ceil_torch".
PoolOp openvino_import_op(const OnnxPoolOp& op, PoolingDesc& d) {
    const bool ceil = d.rounding != RoundingType::floor;
    if (op.is_max()) {
        if (ceil) d.rounding = RoundingType::ceil;
        return PoolOp{PoolKind::max_pool, op.version >= 8 ? 8 : 1};
    }
    const bool dilated = std::any_of(d.dilations.begin(), d.dilations.end(), [](int64_t x) { return x != 1; });
    if (ceil) d.rounding = RoundingType::ceil_torch;
    return PoolOp{PoolKind::avg_pool, dilated || ceil ? 16 : 1};
}

std::string op_label(const PoolOp& op) { return fmt::format("{}-{}", op.type_name(), op.version); }

// A ceil-mode window that reaches past pads_end: OpenVINO divides it by the whole kernel.
bool overhangs_padded_border(const AxisWindow& w, int64_t in, int64_t out) {
    if (out <= 0) return false;
    const CheckedInt last_start = (CheckedInt(out) - 1) * w.stride - w.pad_begin;
    const auto last_end = (last_start + (CheckedInt(w.kernel) - 1) * w.dilation).get();
    const auto padded_end = (CheckedInt(in) + w.pad_end).get();
    // Past int64 on either side: no runtime computes that window either, and irlint claims nothing.
    return last_end && padded_end && *last_end >= *padded_end;
}

void openvino_divergences(const OnnxPoolOp& op, const OnnxPoolSetup& s, const Shape& input, const PoolShape& onnx,
                          bool indices_used, std::vector<std::string>& out) {
    PoolingDesc d = s.desc;
    const PoolOp ov = openvino_import_op(op, d);
    const PoolShape ovs = infer_pool_shape(ov, d, input);
    if (ovs.error) {
        out.push_back(fmt::format("OpenVINO's ONNX import ({}) rejects the node: {}", op_label(ov), *ovs.error));
        return;
    }
    if (!ovs.output.compatible(onnx.output))
        out.push_back(fmt::format("OpenVINO's ONNX import ({}) gives the output {}, ONNX {}", op_label(ov),
                                  ovs.output.str(), onnx.output.str()));
    if (op.has_storage_order() && s.column_major_indices && indices_used)
        out.push_back("OpenVINO's ONNX import drops storage_order: its indices are row-major, ONNX's column-major");
    if (s.count_include_pad && d.rounding != RoundingType::floor && spatially_static(input)) {
        const auto axes = effective_axes(s, onnx);
        for (size_t i = 0; i < axes.size(); ++i) {
            if (!overhangs_padded_border(axes[i], input.dims[i + 2].length(), onnx.output.dims[i + 2].length()))
                continue;
            out.push_back(fmt::format("OpenVINO's ONNX import ({}) divides the last window of dim {}, which reaches "
                                      "past the padded input, by the whole kernel; ONNX by its taps inside the "
                                      "padded input",
                                      op_label(ov), i + 2));
            break;
        }
    }
}

// ONNX Runtime's CPU pooling (PoolAttributes), as measured by tests/ort: SAME pads from the kernel without its
// dilation, refused when negative; the ceil-mode window count in float arithmetic; the last ceil-mode window
// dropped when it would start in the right padding, in every version.
struct OrtAxis {
    std::optional<int64_t> length;  // nullopt: ONNX Runtime refuses the node
    std::string why;
    int64_t pad_begin = 0;
    int64_t negative_pad = 0;  // a negative SAME pad ONNX Runtime computes (0: none)
};

// The SAME pad ONNX Runtime computes, before it is split: negative where the kernel is shorter than the
// stride. nullopt past int64.
std::optional<int64_t> ort_same_pad_total(int64_t in, const AxisWindow& w) {
    const auto part_window = (CheckedInt(in) % w.stride).get();
    if (!part_window) return std::nullopt;
    const CheckedInt windows = CheckedInt(in) / w.stride + (*part_window != 0 ? 1 : 0);
    return ((windows - 1) * w.stride + w.kernel - in).get();
}

// The window count ONNX Runtime computes from the padded length; nullopt when a step of its int64
// arithmetic overflows, where what it does is not known.
std::optional<int64_t> ort_length(CheckedInt padded, int64_t in, const AxisWindow& w, bool ceil) {
    const CheckedInt gap = padded - (CheckedInt(w.kernel) - 1) * w.dilation - 1;
    const auto gap_value = gap.get();
    const auto part_window = (gap % w.stride).get();
    if (!gap_value || !part_window) return std::nullopt;
    CheckedInt length = gap / w.stride + 1;
    // ONNX Runtime divides in float: a negative gap rounds up toward 0 windows, not toward ONNX's 1.
    if (ceil && *gap_value < 0)
        length = static_cast<int64_t>(std::ceil(static_cast<double>(*gap_value) / static_cast<double>(w.stride) + 1));
    else if (ceil) length = length + (*part_window != 0 ? 1 : 0);
    if (!ceil) return length.get();
    const auto last_start = ((length - 1) * w.stride).get();
    const auto start_limit = (CheckedInt(in) + w.pad_begin).get();
    if (!last_start || !start_limit) return std::nullopt;
    if (*last_start >= *start_limit) length = length - 1;
    return length.get();
}

std::optional<OrtAxis> ort_axis(int64_t in, AxisWindow w, PadType auto_pad, bool ceil) {
    CheckedInt padded = CheckedInt(in) + w.pad_begin + w.pad_end;
    int64_t negative = 0;
    if (auto_pad == PadType::same_upper || auto_pad == PadType::same_lower) {
        const auto needed = ort_same_pad_total(in, w);
        const auto begin = (auto_pad == PadType::same_lower ? (CheckedInt(needed.value_or(0)) + 1) / 2
                                                              : CheckedInt(needed.value_or(0)) / 2).get();
        if (!needed || !begin) return std::nullopt;
        w.pad_begin = *begin;
        padded = CheckedInt(in) + *needed;
        if (*needed < 0) negative = *needed;
    }
    const auto length = ort_length(padded, in, w, ceil);
    if (!length) return std::nullopt;
    if (*length < 0)
        return OrtAxis{std::nullopt, fmt::format("it computes a negative output length ({})", *length), 0, negative};
    return OrtAxis{*length, "", w.pad_begin, negative};
}

// ONNX Runtime refuses explicit pads as large as the kernel.
std::optional<std::string> ort_rejected_pads(const PoolingDesc& d) {
    if (d.auto_pad != PadType::explicit_pads) return std::nullopt;
    for (size_t i = 0; i < d.kernel.size(); ++i) {
        if (d.pads_begin[i] < d.kernel[i] && d.pads_end[i] < d.kernel[i]) continue;
        return fmt::format("ONNX Runtime rejects the node: its pads must be smaller than the kernel, and "
                           "dim {} has pads {}/{} with kernel {}",
                           i + 2, d.pads_begin[i], d.pads_end[i], d.kernel[i]);
    }
    return std::nullopt;
}

// The spatial dims ONNX Runtime computes, and whether they (or its SAME pads) differ from ONNX's.
struct OrtDims {
    std::vector<std::string> dims;
    bool differs = false;
};

// nullopt where ONNX Runtime's arithmetic is not known (past int64) or where it already said (`out`) that it
// rejects the node or pads it negatively.
std::optional<OrtDims> ort_dims(const OnnxPoolUse& use, const PoolShape& onnx, std::vector<std::string>& out) {
    const PoolingDesc& d = use.setup.desc;
    const bool same = d.auto_pad == PadType::same_upper || d.auto_pad == PadType::same_lower;
    const bool ceil = d.rounding != RoundingType::floor;
    OrtDims result;
    for (size_t i = 0; i < d.kernel.size(); ++i) {
        AxisWindow w{d.pads_begin[i], d.pads_end[i], d.kernel[i], d.strides[i], d.dilations[i]};
        if (d.auto_pad == PadType::valid) w.pad_begin = w.pad_end = 0;
        const auto axis = ort_axis(use.input.dims[i + 2].length(), w, d.auto_pad, ceil);
        if (!axis) return std::nullopt;  // what ONNX Runtime computes past int64 is not known: no claim about it
        if (!axis->length) {
            out.push_back(fmt::format("ONNX Runtime rejects the node on dim {}: {}", i + 2, axis->why));
            return std::nullopt;
        }
        if (axis->negative_pad < 0) {
            // Whether ONNX Runtime then refuses the node depends on which of its kernels runs it.
            out.push_back(fmt::format("ONNX Runtime computes a negative SAME pad ({}) on dim {}, where the kernel "
                                      "({}) is smaller than the stride ({}): some of its kernels fail at run time "
                                      "(\"padding values must be non-negative\"), the others shift the windows",
                                      axis->negative_pad, i + 2, w.kernel, w.stride));
            return std::nullopt;
        }
        result.dims.push_back(std::to_string(*axis->length));
        result.differs = result.differs || *axis->length != onnx.output.dims[i + 2].length() ||
                         (same && axis->pad_begin != onnx.pads_begin[i]);
    }
    return result;
}

// With count_include_pad and floor rounding, a window that reaches past the padded input.
std::optional<std::string> ort_padded_divisor(const OnnxPoolUse& use, const PoolShape& onnx) {
    const OnnxPoolSetup& s = use.setup;
    if (!s.count_include_pad || s.desc.rounding != RoundingType::floor) return std::nullopt;
    const auto axes = effective_axes(s, onnx);
    for (size_t i = 0; i < axes.size(); ++i)
        if (overhangs_padded_border(axes[i], use.input.dims[i + 2].length(), onnx.output.dims[i + 2].length()))
            return fmt::format("ONNX Runtime divides a window that reaches past the padded input (dim {}) by "
                               "the whole kernel, ONNX by its taps inside the padded input",
                               i + 2);
    return std::nullopt;
}

// Why ONNX Runtime's windows differ from ONNX's, by the attributes that make them differ.
std::string ort_window_difference(const OnnxPoolUse& use) {
    const PoolingDesc& d = use.setup.desc;
    const bool same = d.auto_pad == PadType::same_upper || d.auto_pad == PadType::same_lower;
    if (same && std::any_of(d.dilations.begin(), d.dilations.end(), [](int64_t x) { return x != 1; }))
        return "it pads SAME by the kernel without its dilation";
    if (d.rounding != RoundingType::floor && !use.op.drops_window_in_right_padding())
        return "it drops a last ceil-mode window that would start in the right padding in every version, as "
               "version 22 does";
    return "it counts the ceil-mode windows of a kernel longer than the padded input in float arithmetic";
}

// What ONNX Runtime does otherwise than ONNX on this node: refuses it, pads it, sizes or divides its windows.
void ort_divergences(const OnnxPoolUse& use, const PoolShape& onnx, std::vector<std::string>& out) {
    if (auto rejected = ort_rejected_pads(use.setup.desc)) {
        out.push_back(std::move(*rejected));
        return;
    }
    if (!spatially_static(use.input)) return;
    const std::optional<OrtDims> ort = ort_dims(use, onnx, out);
    if (!ort) return;
    if (auto divisor = ort_padded_divisor(use, onnx)) out.push_back(std::move(*divisor));
    if (!ort->differs) return;
    std::vector<std::string> standard;
    for (size_t i = 2; i < onnx.output.rank(); ++i) standard.push_back(onnx.output.dims[i].str());
    out.push_back(fmt::format("ONNX Runtime gives the spatial dims [{}] (ONNX's {}: [{}]) from other windows: {}",
                              fmt::join(ort->dims, ","), use.op.name(), fmt::join(standard, ","),
                              ort_window_difference(use)));
}

}  // namespace

bool has_empty_window(const OnnxPoolSetup& setup, const Shape& input, const PoolShape& onnx_shape) {
    if (onnx_shape.error || !spatially_static(input) || onnx_shape.output.rank_dynamic ||
        onnx_shape.pads_begin.size() != setup.desc.kernel.size() || setup.desc.dilations.size() != setup.desc.kernel.size())
        return false;
    const auto axes = effective_axes(setup, onnx_shape);
    for (size_t i = 0; i < axes.size(); ++i)
        if (axis_has_empty_window(axes[i], input.dims[i + 2].length(), onnx_shape.output.dims[i + 2].length()))
            return true;
    return false;
}

std::vector<std::string> runtime_divergences(const OnnxPoolUse& use, const PoolShape& onnx_shape) {
    const OnnxPoolOp& op = use.op;
    const OnnxPoolSetup& setup = use.setup;
    const Shape& input = use.input;
    std::vector<std::string> out;
    if (setup.pads_with_auto_pad) {
        out.push_back("ONNX Runtime accepts pads together with auto_pad and pads by auto_pad, ignoring pads");
        return out;
    }
    if (op.is_global() || !setup.usable() || onnx_shape.error) return out;
    openvino_divergences(op, setup, input, onnx_shape, use.indices_used, out);
    ort_divergences(use, onnx_shape, out);
    if (op.is_max() && has_empty_window(setup, input, onnx_shape))
        out.push_back("some windows hold no input element: ONNX Runtime gives the type's lowest finite value (index "
                      "-1 on every spatial dim), PyTorch -inf");
    return out;
}

}  // namespace irlint
