#pragma once
// `run` on a layer of an OpenVINO IR model: its input port's precision and shape, its attributes as the
// pooling description, an adaptive pool's output_size from the .bin or a second input, OpenVINO's kernels.

#include <memory>

#include "exec/layer_run.hpp"
#include "rules/engine.hpp"

namespace irlint {

// The layers `run` can execute: pooling layers the rule engine recognised.
bool is_runnable(const LayerShapes& layer);

// The outputs a runnable layer has, in port order: the values, then the indices where the op computes them
// (MaxPool-8/14, AdaptiveMaxPool) and the layer declares their port. `run` reports and compares these only.
size_t layer_output_count(const LayerShapes& layer);

// The layer `run --layer` names: by id, else by name. nullptr with *error when there is none (the error lists
// the pooling layers) or the name is ambiguous (it lists the ids).
const LayerShapes* find_layer_to_run(const ModelReport& report, const std::string& wanted, std::string* error);

// Why `run` cannot execute the layer (it is no pooling layer), or nullopt.
std::optional<std::string> not_runnable(const LayerShapes& layer);

// A runnable layer; it refers to `layer`, which must outlive it.
std::unique_ptr<RunnableLayer> ir_layer(const LayerShapes& layer);

LayerRun run_layer(const LayerShapes& layer, const RunRequest& request);

}  // namespace irlint
