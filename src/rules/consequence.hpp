#pragma once
// What a shape or type mismatch changes downstream. OpenVINO ignores a layer's declared outputs and passes
// its inferred ones on; the check does the same at a conflicting port (consumers see the inferred dims, so
// each consumer's row is already its re-inference with them). Following those rows from the mismatch tells
// whether a layer gives its declared outputs anyway (absorbed: a warning), the change reaches the model's
// outputs, or a layer then fails (both errors).

#include <span>
#include <vector>

#include "core/diagnostic.hpp"
#include "ir/model.hpp"
#include "rules/engine.hpp"
#include "rules/structure.hpp"

namespace irlint {

// One graph of the checked model as the consequence pass reads it.
struct CheckedGraph {
    const Graph& graph;
    const GraphIndex& index;
    std::span<const LayerShapes* const> rows;  // per layer: its row, null when it has none
    std::span<const uint8_t> carries_values;   // per layer: some output carries values an op may read
};

// Sets the consequence of each error output-shape-mismatch and output-type-mismatch finding in `findings`
// that names an op layer's port of this graph, lowering an absorbed one to a warning and saying it in the
// message. A finding whose change enters a layer irlint cannot infer, or reaches nothing, keeps none.
void add_consequences(const CheckedGraph& checked, std::span<Diagnostic> findings);

}  // namespace irlint
