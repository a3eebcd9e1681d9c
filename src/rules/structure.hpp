#pragma once
// Graph-level rules: ids, ports, edges, cycles and reachability. Builds the index the other rules use to
// find each input's producer.

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/diagnostic.hpp"
#include "ir/model.hpp"

namespace irlint {

struct PortRef {
    size_t layer = 0;  // index into Graph::layers
    size_t port = 0;   // index into that layer's outputs (producer) or inputs (consumer)
};

struct GraphIndex {
    std::vector<std::vector<std::optional<PortRef>>> producer_of;  // [layer][input] -> producer output
    std::vector<size_t> topo_order;                                // every layer; cycles appended last
    bool has_cycle = false;
    std::vector<size_t> cyclic;  // the layers on a cycle or fed from one: no order can run them
};

// Checks one graph and returns its index. Diagnostics are appended to `out`. An ONNX graph (the adapter's)
// has its own rules for what the IR's structure rules judge: an omitted optional input has no edge, and a node
// that reaches no output is no finding (ONNX Runtime drops it as OpenVINO does, but no writer is at fault).
GraphIndex check_structure(const Graph& graph, Diagnostics& out, ModelFormat format = ModelFormat::ir);

}  // namespace irlint
