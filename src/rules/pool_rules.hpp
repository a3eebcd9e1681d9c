#pragma once
// The rules of one pooling layer: attributes, inferred output dims and element types against the declared
// ones, with the arithmetic in every message.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/element_type.hpp"
#include "rules/engine.hpp"
#include "rules/pooling.hpp"

namespace irlint {

struct PoolLayerInput {
    const Layer* layer = nullptr;
    PoolOp op;
    std::vector<Shape> input_shapes;                     // per input port: the producer's shape
    std::vector<std::optional<ElementType>> input_types; // per input port
    std::optional<std::vector<int64_t>> output_size;     // adaptive pools: the Const values, when known
    std::vector<bool> outputs_consumed;                  // per output port: some edge takes it
    const Producer* producer = nullptr;                  // the tool the file says wrote it
};

// Fills shapes.inferred / shapes.status and appends diagnostics.
void check_pool_layer(const PoolLayerInput& in, LayerShapes& shapes, Diagnostics& out);

// The value and index output types a pooling layer has for an input of `input_type`.
std::vector<ElementType> pool_output_types(const PoolOp& op, const PoolingDesc& desc, ElementType input_type);

// The first single attribute change that turns `inferred` into `declared`, as "rounding_type=ceil".
std::optional<std::string> suggest_attribute_change(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                                    const Shape& declared);

// The framework convention an attribute change stands for, as " (PyTorch's ceil_mode=True)"; "" for none.
std::string convention_note(std::string_view change);

// For when no change within the layer's op version gives `declared`: a convention that only a newer version
// of the op can express and that does, as "rounding_type=ceil_torch (PyTorch's ceil_mode=True) would give
// the declared dims; it needs MaxPool-14 (opset14 and later)".
std::optional<std::string> suggest_convention(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                              const Shape& declared);

}  // namespace irlint
