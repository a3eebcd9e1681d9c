#pragma once
// The in-memory form of an IR .xml: graphs of layers with their ports and edges, each element keeping
// its source line. It holds what the file says, unvalidated beyond the syntax of single values; the
// rules judge it.
//
// Ids, names, types and attribute values are views of the file's text, which the Model owns (parsed in
// place, so each value ends with a NUL there): a large IR has hundreds of thousands of them, and a copy
// of each would cost as much as the parse. Text that is not in a file goes through Model::keep().
//
// A layer's ports, a port's dims and a layer's attributes are spans of arrays in one arena that the Model
// owns and frees at once (Model::store): a small heap object for each was a fifth of the time to check a
// large IR, and as much again to free. So Port, Layer and Edge hold no owning member.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "core/page_arena.hpp"

namespace irlint {

class BinFile;  // ir/bin_file.hpp

// An id's value when it is written as a canonical decimal number ("0", "17"; not "01", "+1" or "x") that
// fits 31 bits, else -1. Two ids are the same text exactly when these agree, or when both are -1 and their
// texts are equal: real files number their layers and ports, and an integer compares without reading text.
int32_t canonical_id_number(std::string_view id);

inline bool same_id(std::string_view a, int32_t a_number, std::string_view b, int32_t b_number) {
    if (a_number >= 0 || b_number >= 0) return a_number == b_number;
    return a == b;
}

using Attr = std::pair<std::string_view, std::string_view>;

// The layer types the rules treat apart, told once while the file is read (OpenVINO matches type names
// without regard to case): the rules then compare a byte, not the type's text, which a large file has
// long pushed out of the cache.
// function_call: an ONNX node that calls a model-local function (its body is Layer::bodies[0]).
enum class LayerKind : uint8_t { other, parameter, constant, result, assign, pooling, function_call };
LayerKind layer_kind(std::string_view type);

// "opset8" -> 8; nullopt for anything else (extensions, custom domains).
std::optional<int> opset_number(std::string_view version);

struct Port {
    std::string_view id;
    int32_t id_number = -1;                   // canonical_id_number(id)
    int line = 0;
    std::string_view precision_text;          // as written, empty when absent
    std::optional<ElementType> precision;     // parsed; nullopt when absent or unknown
    bool dims_valid = true;                   // false when some <dim> was not an integer >= -1
    std::span<const int64_t> dims;            // -1 is a dynamic dim
    std::string_view names;
    std::string_view layout;                  // the port's rt_info layout ("[N,C,H,W]"), empty when none
    bool rank_known = true;                   // false: the file gives no dims (an ONNX value without a shape)
    bool omitted = false;                     // an optional input left out (ONNX's empty input name): no edge
    ValueKind kind = ValueKind::tensor;       // ONNX: a sequence or an optional value, dims and type its tensors'
};

// A port's declared dims as a Shape: a dynamic rank where the file gives none.
Shape declared_shape(const Port& port);

// One <input> or <output> of a TensorIterator's or Loop's <port_map> (an If's <then_port_map> or
// <else_port_map>): which port of the layer a body's Parameter or Result stands for, and for a sliced input or
// a concatenated output the axis and the slicing. The defaults are OpenVINO's IR deserializer's.
struct PortMapEntry {
    int line = 0;
    uint8_t body = 0;             // the index into Layer::bodies: 0 (body, then_body) or 1 (else_body)
    bool output = false;          // an <output> entry, else an <input>
    bool has_axis = false;        // slicing (input) or concatenation (output)
    int64_t external_port_id = 0;
    int64_t internal_layer_id = 0;
    int64_t axis = 0;
    int64_t start = 0;
    int64_t end = -1;
    int64_t stride = 1;
    int64_t part_size = 1;
    std::string_view purpose;     // Loop: "current_iteration", "execution_condition"; else empty
    // The first attribute that is missing (without a default) or not an integer, empty when none is: the
    // op reports it, as OpenVINO would refuse to read the layer.
    std::string_view malformed;
};

// One <edge> of a Loop's or TensorIterator's <back_edges>: a body Result feeding a body Parameter in the
// next iteration.
struct BackEdge {
    int line = 0;
    int64_t from_layer = -1, from_port = -1, to_layer = -1, to_port = -1;
    std::string_view malformed;  // as PortMapEntry::malformed
};

// An attribute that is not text: a tensor (index into Model::tensors) or a graph (index into Model::graphs),
// as ONNX nodes have them.
struct ObjectAttr {
    // strings: an ONNX STRINGS attribute, whose text attribute joins its strings with ','; index is how many
    enum class Kind : uint8_t { tensor, graph, strings };
    std::string_view name;
    Kind kind = Kind::tensor;
    size_t index = 0;
};

struct Layer {
    std::string_view id;
    int32_t id_number = -1;  // canonical_id_number(id)
    int line = 0;
    std::string_view name;
    std::string_view type;
    std::string_view version;
    std::string_view domain;            // an ONNX node's domain ("" for ai.onnx); empty in an IR
    LayerKind kind = LayerKind::other;  // layer_kind(type)
    std::optional<int> opset;           // opset_number(version)
    bool has_data = false;
    int data_line = 0;
    std::span<const Attr> attrs;  // <data> attributes in file order
    std::span<const Port> inputs;
    std::span<const Port> outputs;
    std::span<const size_t> bodies;  // indices into Model::graphs of nested bodies (TensorIterator, Loop, If)
    std::span<const PortMapEntry> port_map;  // <port_map>, or <then_port_map> then <else_port_map>, in file order
    std::span<const BackEdge> back_edges;
    std::span<const ObjectAttr> object_attrs;
    int32_t tensor = -1;  // a constant whose data the model file holds inline: index into Model::tensors

    const std::string_view* attr(std::string_view key) const;
    const ObjectAttr* object_attr(std::string_view key) const;
    const Port* find_input(std::string_view port_id) const;
    const Port* find_output(std::string_view port_id) const;
};

// The layer as diagnostics name it (copies: a diagnostic outlives the model).
LayerRef layer_ref(const Layer& layer);

struct Edge {
    std::string_view from_layer, from_port, to_layer, to_port;
    int32_t from_layer_number = -1, from_port_number = -1, to_layer_number = -1, to_port_number = -1;
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

// The format a Model was read from. Each format's ops are its own registry entries (OpFormat); what the file
// declares means something else in each: an IR's declared dims are OpenVINO's own inference, an ONNX file's
// value_info is whatever its producer wrote, often nothing.
enum class ModelFormat : uint8_t { ir, onnx };

// A tensor held in the model file itself (an ONNX initializer, a Constant node's value, a tensor attribute):
// its type and dims, and its elements when it is small enough for values to flow (kMaxInlineElements).
struct InlineTensor {
    static constexpr size_t kMaxInlineElements = 4096;
    ElementType type = ElementType::dynamic;
    std::vector<int64_t> dims;
    bool has_data = false;      // the elements below are the tensor's (small, of a numeric type)
    std::vector<int64_t> ints;  // integer and boolean types
    std::vector<double> reals;  // floating-point types
};

struct Model {
    Model() = default;
    Model(Model&&) = default;
    Model& operator=(Model&&) = default;
    Model(const Model&) = delete;  // the views would still point into the original's text
    Model& operator=(const Model&) = delete;

    // Keeps `s` as long as the model and returns a view of it.
    std::string_view keep(std::string s);

    // Copies `items` into the model's arena and returns the copy, which lives as long as the model.
    template <class T>
    std::span<const T> store(std::span<const T> items) {
        static_assert(std::is_trivially_destructible_v<T>, "the arena runs no destructors");
        if (items.empty()) return {};
        T* out = static_cast<T*>(arena->allocate(items.size_bytes(), alignof(T)));
        std::uninitialized_copy(items.begin(), items.end(), out);
        return {out, items.size()};
    }

    // Where ports, dims, attributes and body lists live; first, so that it is freed last.
    std::unique_ptr<PageArena> arena = std::make_unique<PageArena>();
    std::string_view text;  // the file, in the arena, parsed in place: the views point into it
    std::shared_ptr<const void> parsed_document;  // instead, when the parse could not be in place (UTF-16)
    std::deque<std::string> kept;       // text from elsewhere (a deque never moves its elements)
    std::string xml_path;
    std::string bin_path;
    std::shared_ptr<BinFile> bin_file;  // bin_path's reader, opened at its first read (shared: a Model moves)
    bool bin_present = false;
    uint64_t bin_size = 0;
    int64_t ir_version = 0;
    std::string name;
    Producer producer;
    std::vector<Graph> graphs;  // graphs[0] is the main graph
    ModelFormat format = ModelFormat::ir;
    std::deque<InlineTensor> tensors;  // Layer::tensor indexes it (a deque: entries never move)

    size_t layer_count() const;
};

}  // namespace irlint
