#pragma once
// An ONNX model reduced to what the pooling rules need: the main graph's nodes in graph order with their
// attributes, the element type and shape of every value the file describes, and the opset imports. The
// protobuf message stays behind an opaque pointer, so only src/onnx/ includes ONNX's headers.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/dim.hpp"
#include "core/element_type.hpp"

namespace onnx {
class ModelProto;
}

namespace irlint {

struct OnnxAttr {
    enum class Kind { integer, integers, floating, text, other };
    Kind kind = Kind::other;
    int64_t i = 0;
    std::vector<int64_t> ints;
    double f = 0;
    std::string s;
};

struct OnnxNode {
    size_t index = 0;  // position in the graph's node list
    std::string name;
    std::string op_type;
    std::string domain;  // "" and "ai.onnx" are the default domain
    std::map<std::string, OnnxAttr> attrs;
    std::vector<std::string> inputs;   // "" for an omitted optional input
    std::vector<std::string> outputs;  // "" for an omitted optional output

    const OnnxAttr* attr(const std::string& key) const;
    // The node's name, else its first output's name: what messages show.
    std::string display_name() const;
};

struct OnnxValue {
    std::optional<ElementType> type;  // nullopt: not given or not a type irlint knows
    std::optional<Shape> shape;       // nullopt: no shape given; symbolic dims are dynamic
};

struct OnnxModel {
    std::string path;
    int64_t ir_version = 0;
    std::map<std::string, int64_t> opsets;  // domain ("" for ai.onnx) -> version
    std::vector<OnnxNode> nodes;
    std::map<std::string, OnnxValue> values;  // graph inputs, initializers, value_info, graph outputs
    std::set<std::string> graph_inputs;       // the main graph's inputs that no initializer feeds
    std::vector<std::string> input_order;     // the same in the graph's order
    std::vector<std::string> outputs;         // the main graph's outputs in order
    std::string producer_name, producer_version;
    std::shared_ptr<const onnx::ModelProto> proto;
    size_t main_nodes = 0;  // the main graph's node count

    // The default domain's opset; 0 when the model imports none.
    int64_t default_opset() const;
    // The main graph's nodes, also when `nodes` was left empty (OnnxParts::header).
    size_t node_count() const;
};

// How much of the model describe_onnx converts: all, or the header only (path, IR version, opsets, producer),
// leaving nodes, values, inputs and outputs empty for callers that read the proto (check).
enum class OnnxParts { all, header };


struct OnnxRead {
    std::optional<OnnxModel> model;
    std::string error;  // set when model is empty
    bool missing = false;  // the file does not exist or cannot be opened
};

OnnxRead read_onnx(const std::string& path, OnnxParts parts = OnnxParts::all);
OnnxModel describe_onnx(std::shared_ptr<const onnx::ModelProto> proto, const std::string& path,
                        OnnxParts parts = OnnxParts::all);

}  // namespace irlint
