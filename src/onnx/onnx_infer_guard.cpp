#include "onnx/onnx_infer_guard.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

namespace irlint {

namespace {

// No model has a kernel, stride, dilation or pad above this; below it (kernel - 1) * dilation + 1 and the
// padded length of any axis the library computes stay far inside int64.
constexpr int64_t kMaxWindowValue = int64_t{1} << 31;
// The library finds a SAME pad by subtracting the stride from the input dim while it can: this many
// subtractions take about a millisecond.
constexpr int64_t kMaxSameSteps = int64_t{1} << 20;

struct WindowedOp {
    std::string_view type;
    int weight_input;           // whose dims after the first two are the kernel without kernel_shape (-1: none)
    bool reads_input1_channels;  // reads dim 1 of input 1 whatever its rank
    bool steps_same_padding;     // pads SAME by the subtraction loop
};

constexpr std::array<WindowedOp, 8> kWindowedOps{{
    {"AveragePool", -1, false, true},
    {"MaxPool", -1, false, true},
    {"LpPool", -1, false, true},
    {"Conv", 1, false, true},
    {"ConvInteger", 1, false, true},
    {"QLinearConv", 3, false, true},
    {"ConvTranspose", 1, true, false},
    {"MaxUnpool", -1, true, false},
}};

const WindowedOp* windowed_op(const onnx::NodeProto& node) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") return nullptr;
    for (const auto& op : kWindowedOps)
        if (op.type == node.op_type()) return &op;
    return nullptr;
}

// The library keeps the last attribute of each name and reads a list from any attribute type.
const onnx::AttributeProto* last_attribute(const onnx::NodeProto& node, std::string_view name) {
    const onnx::AttributeProto* found = nullptr;
    for (const auto& a : node.attribute())
        if (a.name() == name) found = &a;
    return found;
}

std::optional<FileDims> dims_of_type(const onnx::TypeProto& type) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return std::nullopt;
    FileDims dims;
    for (const auto& d : type.tensor_type().shape().dim())
        dims.push_back(d.has_dim_value() ? std::optional(d.dim_value()) : std::nullopt);
    return dims;
}

std::optional<FileDims> input_dims(const onnx::NodeProto& node, int index, const FileShapes& shapes) {
    if (index < 0 || index >= node.input_size()) return std::nullopt;
    const auto it = shapes.find(node.input(index));
    if (it == shapes.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string> out_of_range(const onnx::NodeProto& node, std::string_view name, int64_t least) {
    const auto* a = last_attribute(node, name);
    if (!a) return std::nullopt;
    if (!a->ref_attr_name().empty()) return fmt::format("{} refers to a function attribute", name);
    for (int64_t v : a->ints())
        if (v < least || v > kMaxWindowValue)
            return fmt::format("{} holds {}, outside {}..{}", name, v, least, kMaxWindowValue);
    return std::nullopt;
}

std::optional<std::string> attribute_values(const onnx::NodeProto& node) {
    for (const auto& [name, least] : {std::pair<std::string_view, int64_t>{"kernel_shape", 1}, {"strides", 1},
                                      {"dilations", 1}, {"pads", 0}, {"output_padding", 0}})
        if (auto why = out_of_range(node, name, least)) return why;
    if (const auto* a = last_attribute(node, "auto_pad"); a && !a->ref_attr_name().empty())
        return "auto_pad refers to a function attribute";
    return std::nullopt;
}

size_t list_size(const onnx::NodeProto& node, std::string_view name) {
    const auto* a = last_attribute(node, name);
    return a ? static_cast<size_t>(a->ints_size()) : 0;
}

// Whether an attribute list the library checks against the input's rank has `axes` entries, which then
// holds the input to axes + 2 dims.
bool rank_pinned_by_attribute(const onnx::NodeProto& node, size_t axes) {
    return (last_attribute(node, "strides") && list_size(node, "strides") == axes) ||
           (last_attribute(node, "dilations") && list_size(node, "dilations") == axes) ||
           (last_attribute(node, "pads") && list_size(node, "pads") == 2 * axes);
}

// Without kernel_shape the kernel is the weight's dims after the first two, and the library indexes the
// per-axis lists and the input's dims by the weight's rank without comparing it with the input's.
std::optional<std::string> kernel_from_weight(const onnx::NodeProto& node, const WindowedOp& op,
                                              const FileShapes& shapes) {
    if (last_attribute(node, "kernel_shape") || op.weight_input < 0) return std::nullopt;
    const auto weight = input_dims(node, op.weight_input, shapes);
    if (!weight) return "the kernel comes from a weight whose shape only inference knows";
    if (weight->size() < 2) return fmt::format("the weight has {} dims, fewer than 2", weight->size());
    const size_t axes = weight->size() - 2;
    for (size_t i = 2; i < weight->size(); ++i)
        if ((*weight)[i] && (*(*weight)[i] < 1 || *(*weight)[i] > kMaxWindowValue))
            return fmt::format("the weight's dim {} is {}, outside 1..{}", i, *(*weight)[i], kMaxWindowValue);
    const auto x = input_dims(node, 0, shapes);
    if ((x && x->size() == axes + 2) || rank_pinned_by_attribute(node, axes)) return std::nullopt;
    return fmt::format("nothing ties the input's rank to the weight's {} spatial dims", axes);
}

std::optional<std::string> second_input_rank(const onnx::NodeProto& node, const WindowedOp& op,
                                             const FileShapes& shapes) {
    if (!op.reads_input1_channels || node.input_size() < 2) return std::nullopt;
    const auto dims = input_dims(node, 1, shapes);
    if (!dims) return "input 1 has a shape only inference knows, and the library reads its dim 1 unchecked";
    if (dims->size() < 2) return fmt::format("input 1 has {} dims, and the library reads its dim 1", dims->size());
    return std::nullopt;
}

bool pads_same_by_steps(const onnx::NodeProto& node) {
    const auto* auto_pad = last_attribute(node, "auto_pad");
    if (!auto_pad || auto_pad->s() == "VALID" || last_attribute(node, "pads")) return false;
    const auto* strides = last_attribute(node, "strides");
    return strides && std::any_of(strides->ints().begin(), strides->ints().end(), [](int64_t s) { return s > 1; });
}

// The subtraction loop runs dim / stride times on each axis whose stride is above 1.
std::optional<std::string> same_padding_steps(const onnx::NodeProto& node, const WindowedOp& op,
                                              const FileShapes& shapes) {
    if (!op.steps_same_padding || !pads_same_by_steps(node)) return std::nullopt;
    const auto x = input_dims(node, 0, shapes);
    if (!x) return "SAME padding with a stride above 1 on an input whose length only inference knows";
    const auto& strides = last_attribute(node, "strides")->ints();
    for (int i = 0; i < strides.size() && static_cast<size_t>(i) + 2 < x->size(); ++i) {
        const auto& dim = (*x)[static_cast<size_t>(i) + 2];
        if (strides[i] > 1 && dim && *dim / strides[i] > kMaxSameSteps)
            return fmt::format("SAME padding of dim {} ({}) by stride {} takes {} steps", i + 2, *dim, strides[i],
                               *dim / strides[i]);
    }
    return std::nullopt;
}

size_t remove_from_graph(onnx::GraphProto& graph);
bool has_hazard_in_graph(const onnx::GraphProto& graph);

size_t remove_from_subgraphs(onnx::NodeProto& node) {
    size_t removed = 0;
    for (auto& a : *node.mutable_attribute()) {
        if (a.has_g()) removed += remove_from_graph(*a.mutable_g());
        for (auto& g : *a.mutable_graphs()) removed += remove_from_graph(g);
    }
    return removed;
}

size_t remove_from_graph(onnx::GraphProto& graph) {
    const FileShapes shapes = file_shapes(graph);
    size_t removed = 0;
    auto& nodes = *graph.mutable_node();
    for (int i = nodes.size() - 1; i >= 0; --i) {
        if (library_hazard(nodes.Get(i), shapes)) {
            nodes.DeleteSubrange(i, 1);
            ++removed;
        } else {
            removed += remove_from_subgraphs(*nodes.Mutable(i));
        }
    }
    return removed;
}

bool has_hazard(const onnx::NodeProto& node, const FileShapes& shapes) {
    if (library_hazard(node, shapes)) return true;
    for (const auto& a : node.attribute()) {
        if (a.has_g() && has_hazard_in_graph(a.g())) return true;
        for (const auto& g : a.graphs())
            if (has_hazard_in_graph(g)) return true;
    }
    return false;
}

bool has_hazard_in_graph(const onnx::GraphProto& graph) {
    const FileShapes shapes = file_shapes(graph);
    return std::any_of(graph.node().begin(), graph.node().end(),
                       [&shapes](const onnx::NodeProto& n) { return has_hazard(n, shapes); });
}

// A function body's values have no shape of their own.
bool function_has_hazard(const onnx::FunctionProto& f) {
    const FileShapes none;
    return std::any_of(f.node().begin(), f.node().end(),
                       [&none](const onnx::NodeProto& n) { return has_hazard(n, none); });
}

}  // namespace

FileShapes file_shapes(const onnx::GraphProto& graph) {
    FileShapes shapes;
    for (const auto& init : graph.initializer()) shapes[init.name()] = FileDims(init.dims().begin(), init.dims().end());
    // A graph input's declared type is what the library starts from, also where an initializer has its name.
    for (const auto& in : graph.input()) {
        if (auto dims = dims_of_type(in.type())) shapes[in.name()] = std::move(*dims);
        else shapes.erase(in.name());
    }
    // A node that writes a value of the same name fills in the dims the file leaves open.
    for (const auto& node : graph.node())
        for (const auto& out : node.output()) shapes.erase(out);
    return shapes;
}

std::optional<std::string> library_hazard(const onnx::NodeProto& node, const FileShapes& shapes) {
    const WindowedOp* op = windowed_op(node);
    if (!op) return std::nullopt;
    if (auto why = attribute_values(node)) return why;
    if (auto why = kernel_from_weight(node, *op, shapes)) return why;
    if (auto why = second_input_rank(node, *op, shapes)) return why;
    return same_padding_steps(node, *op, shapes);
}

size_t remove_library_hazards(onnx::ModelProto& model) {
    size_t removed = remove_from_graph(*model.mutable_graph());
    auto& functions = *model.mutable_functions();
    for (int i = functions.size() - 1; i >= 0; --i) {
        if (!function_has_hazard(functions.Get(i))) continue;
        functions.DeleteSubrange(i, 1);
        ++removed;
    }
    return removed;
}

}  // namespace irlint
