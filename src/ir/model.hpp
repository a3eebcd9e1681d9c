#pragma once
// The in-memory form of an IR .xml: graphs of layers with their ports and edges, each element keeping
// its source line. It holds what the file says, unvalidated beyond the syntax of single values; the
// rules judge it.
//
// Ids, names, types and attribute values are views of the file's text, which the Model owns (parsed in
// place, so each value ends with a NUL there): a large IR has hundreds of thousands of them, and a copy
// of each would cost as much as the parse. Text that is not in a file goes through Model::keep().

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/element_type.hpp"

namespace irlint {

struct Port {
    std::string_view id;
    int line = 0;
    std::string_view precision_text;          // as written, empty when absent
    std::optional<ElementType> precision;     // parsed; nullopt when absent or unknown
    std::vector<int64_t> dims;                // -1 is a dynamic dim
    bool dims_valid = true;                   // false when some <dim> was not an integer >= -1
    std::string_view names;
};

struct Layer {
    std::string_view id;
    std::string_view name;
    std::string_view type;
    std::string_view version;
    int line = 0;
    bool has_data = false;
    int data_line = 0;
    std::vector<std::pair<std::string_view, std::string_view>> attrs;  // <data> attributes in file order
    std::vector<Port> inputs;
    std::vector<Port> outputs;
    std::vector<size_t> bodies;  // indices into Model::graphs of nested bodies (TensorIterator, Loop, If)

    const std::string_view* attr(std::string_view key) const;
    const Port* find_input(std::string_view port_id) const;
    const Port* find_output(std::string_view port_id) const;
};

// The layer as diagnostics name it (copies: a diagnostic outlives the model).
LayerRef layer_ref(const Layer& layer);

struct Edge {
    std::string_view from_layer, from_port, to_layer, to_port;
    int line = 0;
};

struct Graph {
    std::string owner;  // empty for the model's main graph, else "body of layer <id>"
    std::vector<Layer> layers;
    std::vector<Edge> edges;
};

// What the file says about the tool that wrote it. OpenVINO reads the net-level <rt_info> and then ignores
// <meta_data>; files from before 2022.1 carry only <meta_data> (Model Optimizer) and
// <quantization_parameters> (the Post-training Optimization Tool). None of it changes how a model runs.
struct Producer {
    std::string mo_version;               // MO_version as written ("2022.3.0-9052-9752fafe8eb-releases/2022/3")
    std::string runtime_version;          // Runtime_version: the OpenVINO that serialized the file
    std::optional<bool> legacy_path;      // legacy_path: Model Optimizer 2022.1 to 2023.0
    bool conversion_parameters = false;   // conversion_parameters, or the older cli_parameters
    bool fp16_compressed = false;         // compress_fp16 / compress_to_fp16 True, or data_type FP16
    std::string quantized_by;             // "POT" or "NNCF" when the file records a quantization
    int line = 0;                         // the <meta_data> or <rt_info> element it was read from
    std::string section;                  // "meta_data" or "rt_info"

    bool known() const { return !mo_version.empty() || !runtime_version.empty() || !quantized_by.empty(); }
    // Model Optimizer's Python pipeline: every MO before 2022.1, and legacy_path=True after.
    bool legacy_model_optimizer() const;
    // "Model Optimizer 2022.3.0 (legacy path), quantized by POT"; "" when the file names no producer.
    std::string describe() const;
};

struct Model {
    Model() = default;
    Model(Model&&) = default;
    Model& operator=(Model&&) = default;
    Model(const Model&) = delete;  // the views would still point into the original's text
    Model& operator=(const Model&) = delete;

    // Keeps `s` as long as the model and returns a view of it.
    std::string_view keep(std::string s);

    std::unique_ptr<std::string> text;  // the file, parsed in place: the views point into it
    std::shared_ptr<const void> parsed_document;  // instead, when the parse could not be in place (UTF-16)
    std::deque<std::string> kept;       // text from elsewhere (a deque never moves its elements)
    std::string xml_path;
    std::string bin_path;
    bool bin_present = false;
    uint64_t bin_size = 0;
    int64_t ir_version = 0;
    std::string name;
    Producer producer;
    std::vector<Graph> graphs;  // graphs[0] is the main graph

    size_t layer_count() const;
};

}  // namespace irlint
