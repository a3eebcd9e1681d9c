#pragma once
// What a pooling layer's findings add after inference (the registry's entries infer it, rules/ops/pooling_ops):
// the single attribute change, or the framework convention, that would give the declared dims.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/element_type.hpp"
#include "rules/pooling.hpp"

namespace irlint {

// The value and index output types a pooling layer has for an input of `input_type`.
std::vector<ElementType> pool_output_types(const PoolOp& op, const PoolingDesc& desc, ElementType input_type);

// The first single attribute change that turns `inferred` into `declared`, as "rounding_type=ceil".
std::optional<std::string> suggest_attribute_change(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                                    const Shape& declared);

// The framework convention an attribute change stands for, as " (PyTorch's ceil_mode=True)"; "" for none.
std::string convention_note(std::string_view change);

// The hint a shape finding of a pooling layer ends with: a mode or convention first (the likelier slip), then a
// changed pad, stride or kernel value; nullopt when no single change gives `declared`.
std::optional<std::string> pool_shape_hint(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                           const Shape& declared);

// For when no change within the layer's op version gives `declared`: a convention that only a newer version
// of the op can express and that does, as "rounding_type=ceil_torch (PyTorch's ceil_mode=True) would give
// the declared dims; it needs MaxPool-14 (opset14 and later)".
std::optional<std::string> suggest_convention(const PoolOp& op, const PoolingDesc& desc, const Shape& input,
                                              const Shape& declared);

}  // namespace irlint
