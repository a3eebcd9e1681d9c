#pragma once
// ONNX's pooling operators per version, mapped onto the one pooling description (rules/pooling.hpp), and
// their output sizes by ONNX's own shape inference (onnx_pooled_length), which accepts windows that
// OpenVINO's validation rejects: a dilated kernel longer than the padded input, windows in the padding.

#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "rules/pooling.hpp"

namespace irlint {

enum class OnnxPoolKind { average, max, global_average, global_max };

// An operator version (its since_version): which attributes exist and which output-size rule applies.
struct OnnxPoolOp {
    OnnxPoolKind kind = OnnxPoolKind::max;
    int version = 1;

    std::string_view type_name() const;
    std::string name() const;  // "AveragePool-11"
    bool is_global() const { return kind == OnnxPoolKind::global_average || kind == OnnxPoolKind::global_max; }
    bool is_max() const { return kind == OnnxPoolKind::max || kind == OnnxPoolKind::global_max; }
    bool has_ceil_mode() const { return !is_global() && version >= 10; }
    bool has_dilations() const;
    bool has_count_include_pad() const { return kind == OnnxPoolKind::average && version >= 7; }
    bool has_storage_order() const { return kind == OnnxPoolKind::max && version >= 8; }
    bool has_indices_output() const { return kind == OnnxPoolKind::max && version >= 8; }
    // v22: with ceil_mode, a last window that would start in the right padding is dropped.
    bool drops_window_in_right_padding() const { return !is_global() && version >= 22; }
    size_t max_outputs() const { return has_indices_output() ? 2 : 1; }
};

// The version a node of `op_type` gets in a model importing `opset` of the default domain; nullopt when
// the type is not one of the four pools or the opset predates it.
std::optional<OnnxPoolOp> onnx_pool_op_for(const std::string& op_type, int64_t opset);

// The outputs a node of `op` has, in order: up to its last named output (an empty name omits an optional one),
// as far as the op defines them.
size_t onnx_output_count(const OnnxPoolOp& op, const Layer& node);

// A node's attributes under its version, as OpenVINO's pooling description plus what only ONNX has.
struct OnnxPoolSetup {
    std::vector<std::string> errors;  // attributes the version does not allow, or bad values
    PoolOp kernel_op;                 // the OpenVINO op whose kernels and shape rules are shared
    PoolingDesc desc;
    bool count_include_pad = false;
    bool column_major_indices = false;  // MaxPool storage_order=1
    bool pads_with_auto_pad = false;    // both given: the standard forbids it, ONNX Runtime accepts it
    bool usable() const { return errors.empty(); }
};

// `input` gives the spatial rank (and a global pool's kernel); a dynamic rank leaves lengths unchecked.
OnnxPoolSetup map_onnx_pool(const OnnxPoolOp& op, const Layer& node, const Shape& input);

// The output shape ONNX's shape inference gives: a global pool keeps N and C and sets every spatial dim to
// 1; a windowed pool's error is set only for a negative output length.
PoolShape infer_onnx_pool_shape(const OnnxPoolOp& op, const OnnxPoolSetup& setup, const Shape& input);

// ONNX's output length of one spatial axis (convPoolShapeInference of the op's version), in C++ integer
// division that truncates toward zero: a dilated kernel longer than the padded input gives 1, 0 or a
// negative count instead of an error. Where OpenVINO accepts the axis it equals pooled_length() with
// floor, ceil (before version 22) or ceil_torch (from 22). nullopt on int64 overflow.
std::optional<int64_t> onnx_pooled_length(const OnnxPoolOp& op, int64_t in, const AxisWindow& w, bool ceil);

}  // namespace irlint
