#pragma once
// The one normalized description of a pooling layer, and the output-size arithmetic. Every rule, the
// `shape` command and the kernels take their shapes from infer_pool_shape(); no formula lives elsewhere.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dim.hpp"
#include "core/element_type.hpp"

namespace irlint {

enum class PoolKind { avg_pool, max_pool, adaptive_avg_pool, adaptive_max_pool };
enum class PadType { explicit_pads, same_upper, same_lower, valid };
enum class RoundingType { floor, ceil, ceil_torch };

std::string_view pad_type_name(PadType t);
std::string_view rounding_type_name(RoundingType t);
std::optional<PadType> parse_pad_type(std::string_view text);          // case-insensitive, as OpenVINO
std::optional<RoundingType> parse_rounding_type(std::string_view text);

// An operator version: which attributes exist and which checks apply.
struct PoolOp {
    PoolKind kind = PoolKind::max_pool;
    int version = 1;

    std::string_view type_name() const;
    bool is_adaptive() const { return kind == PoolKind::adaptive_avg_pool || kind == PoolKind::adaptive_max_pool; }
    bool has_dilations() const;
    bool has_ceil_torch() const;
    bool has_index_output() const;  // a second output with indices
    bool has_axis() const;
    bool has_exclude_pad() const { return kind == PoolKind::avg_pool; }
    size_t output_count() const { return has_index_output() ? 2 : 1; }
};

// The op version a layer gets from its `version="opsetN"`; nullopt when the opset lacks the type.
std::optional<PoolOp> pool_op_for(std::string_view type, int opset);
inline constexpr int kNewestOpset = 17;

struct PoolingDesc {
    std::vector<int64_t> kernel;
    std::vector<int64_t> strides;     // no default: must have one value per kernel axis
    std::vector<int64_t> dilations;   // empty: all 1
    std::vector<int64_t> pads_begin;  // empty: all 0
    std::vector<int64_t> pads_end;    // empty: all 0
    PadType auto_pad = PadType::explicit_pads;
    RoundingType rounding = RoundingType::floor;
    bool exclude_pad = true;
    int64_t axis = 0;
    ElementType index_type = ElementType::i64;
};

struct PoolShape {
    std::optional<std::string> error;  // set when OpenVINO would reject the layer
    Shape output;                      // every value output has this shape (indices too)
    std::vector<int64_t> pads_begin;   // effective pads after auto_pad
    std::vector<int64_t> pads_end;
    std::vector<std::string> axis_formulas;  // one per spatial axis: the arithmetic, with numbers
};

// Whether a PoolShape spells out its axis_formulas: words cost more than the arithmetic, and a check
// needs them only to explain a mismatch.
enum class Formulas { written, skipped };

// Shape inference of AvgPool / MaxPool, following OpenVINO's validation order and interval arithmetic.
PoolShape infer_pool_shape(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                           Formulas formulas = Formulas::written);

// Shape inference of AdaptiveAvgPool / AdaptiveMaxPool. output_size is nullopt when its values are unknown;
// output_size_shape is the shape of the second input.
PoolShape infer_adaptive_shape(const Shape& input, const Shape& output_size_shape,
                               const std::optional<std::vector<int64_t>>& output_size);
// The same when output_size's values are known only as dims (intervals, dynamic): OpenVINO propagates them
// to the spatial output dims as they are.
PoolShape infer_adaptive_shape_from_dims(const Shape& input, const Shape& output_size_shape,
                                         const std::optional<std::vector<Dim>>& output_size);

// One spatial axis, with the pads already resolved from auto_pad.
struct AxisWindow {
    int64_t pad_begin = 0, pad_end = 0, kernel = 1, stride = 1, dilation = 1;
};

// (kernel - 1) * dilation + 1; nullopt on int64 overflow.
std::optional<int64_t> dilated_kernel(int64_t kernel, int64_t dilation);

// The pooling formula, the only copy: how many windows fit along an axis of length `in` (one bound of
// an interval; Dim::kInf stays unbounded). nullopt on int64 overflow.
std::optional<int64_t> pooled_length(int64_t in, const AxisWindow& w, RoundingType rounding);

// The pads same_upper / same_lower give a static axis of length `in`: {begin, end}.
std::pair<int64_t, int64_t> same_padding(int64_t in, const AxisWindow& w, PadType auto_pad);

}  // namespace irlint
