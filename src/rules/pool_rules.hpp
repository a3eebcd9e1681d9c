#pragma once
// The rules of one pooling layer: attributes, inferred output dims and element types against the declared
// ones, with the arithmetic in every message.

#include <optional>
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
};

// Fills shapes.inferred / shapes.status and appends diagnostics.
void check_pool_layer(const PoolLayerInput& in, LayerShapes& shapes, Diagnostics& out);

// The value and index output types a pooling layer has for an input of `input_type`.
std::vector<ElementType> pool_output_types(const PoolOp& op, const PoolingDesc& desc, ElementType input_type);

// The first single attribute change that turns `inferred` into `declared`, as "rounding_type=ceil".
std::optional<std::string> suggest_attribute_change(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                                    const Shape& declared);

}  // namespace irlint
