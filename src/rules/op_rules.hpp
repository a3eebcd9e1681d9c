#pragma once
// The rules of one layer whose op is in the registry (rules/ops/): run the op's inference on the layer's
// declared inputs, then compare each output's dims and element type with the declared port.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "rules/engine.hpp"
#include "rules/ops/op_registry.hpp"

namespace irlint {

struct OpLayerInput {
    const Layer* layer = nullptr;
    const OpEntry* entry = nullptr;
    const Model* model = nullptr;         // for ops with bodies
    std::span<const OpInput> inputs;      // per input port: the producer's declared shape and type
    OpContext::ValueSource values;        // the known values of an input, read on demand
    OpContext::RealSource reals;          // the same for floating-point values
    std::span<const uint8_t> outputs_consumed;  // per output port: some edge takes it
    // Per output port: a model output of an IR v10 file, which OpenVINO hands to the application in the
    // legacy precision (f16 and bf16 as f32), the precision Model Optimizer declares.
    std::span<const uint8_t> outputs_legacy_f32;
    // Per output port: an edge takes it to a Result (an output of its graph).
    std::span<const uint8_t> outputs_to_result;
    bool compare_declared = true;         // false in a re-inference: the declared dims are the old ones
    OpContext::BodyReinferrer bodies;     // set in a re-inference: infers a body again (TensorIterator, Loop, If)
};

// The values an op propagates on one output: integers (exact or bounded), or floating-point values.
struct OutputValues {
    std::optional<TensorValue> ints;
    std::vector<double> reals;  // empty: none
};

// Fills shapes.inferred / inferred_types / status / checked / not_checked and appends diagnostics; returns the
// values the op propagates, one per output (empty when no output has any).
std::vector<OutputValues> check_op_layer(const OpLayerInput& in, LayerShapes& shapes, Diagnostics& out);

}  // namespace irlint
