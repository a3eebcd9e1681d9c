#include "onnx/onnx_model.hpp"

#include <climits>

#include <fmt/format.h>
#include <google/protobuf/arena.h>
#include <onnx/onnx_pb.h>

#include "core/read_file.hpp"

namespace irlint {

const OnnxAttr* OnnxNode::attr(const std::string& key) const {
    const auto it = attrs.find(key);
    return it == attrs.end() ? nullptr : &it->second;
}

std::string OnnxNode::display_name() const {
    if (!name.empty()) return name;
    return outputs.empty() ? std::string() : outputs[0];
}

int64_t OnnxModel::default_opset() const {
    const auto it = opsets.find("");
    return it == opsets.end() ? 0 : it->second;
}

size_t OnnxModel::node_count() const { return main_nodes; }


namespace {

OnnxAttr convert_attr(const onnx::AttributeProto& a) {
    OnnxAttr out;
    switch (a.type()) {
        case onnx::AttributeProto::INT: out.kind = OnnxAttr::Kind::integer; out.i = a.i(); break;
        case onnx::AttributeProto::INTS:
            out.kind = OnnxAttr::Kind::integers;
            out.ints.assign(a.ints().begin(), a.ints().end());
            break;
        case onnx::AttributeProto::FLOAT: out.kind = OnnxAttr::Kind::floating; out.f = a.f(); break;
        case onnx::AttributeProto::STRING: out.kind = OnnxAttr::Kind::text; out.s = a.s(); break;
        default: break;
    }
    return out;
}

OnnxNode convert_node(const onnx::NodeProto& n, size_t index) {
    OnnxNode out;
    out.index = index;
    out.name = n.name();
    out.op_type = n.op_type();
    out.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    for (const auto& a : n.attribute()) out.attrs.emplace(a.name(), convert_attr(a));
    out.inputs.assign(n.input().begin(), n.input().end());
    out.outputs.assign(n.output().begin(), n.output().end());
    return out;
}

OnnxValue convert_type(const onnx::TypeProto& t) {
    OnnxValue v;
    if (!t.has_tensor_type()) return v;
    const auto& tt = t.tensor_type();
    if (tt.elem_type() != 0) v.type = element_type_from_onnx(tt.elem_type());
    if (!tt.has_shape()) return v;
    Shape s;
    for (const auto& d : tt.shape().dim())
        s.dims.push_back(d.has_dim_value() && d.dim_value() >= 0 ? Dim(d.dim_value()) : Dim::dynamic());
    v.shape = s;
    return v;
}

// A later description of a value fills in what an earlier one left out.
void merge_value(OnnxValue& into, const OnnxValue& from) {
    if (!into.type) into.type = from.type;
    if (!into.shape) into.shape = from.shape;
}

}  // namespace

namespace {

void describe_graph(const onnx::GraphProto& g, OnnxModel& m) {
    for (int i = 0; i < g.node_size(); ++i) m.nodes.push_back(convert_node(g.node(i), static_cast<size_t>(i)));
    for (const auto& init : g.initializer()) {
        OnnxValue v;
        v.type = element_type_from_onnx(init.data_type());
        std::vector<int64_t> dims(init.dims().begin(), init.dims().end());
        v.shape = shape_from_port_dims(dims);
        m.values[init.name()] = v;
    }
    for (const auto& vi : g.input())
        if (!m.values.contains(vi.name()) && m.graph_inputs.insert(vi.name()).second) m.input_order.push_back(vi.name());
    for (const auto& vi : g.output()) m.outputs.push_back(vi.name());
    for (const auto* list : {&g.input(), &g.value_info(), &g.output()})
        for (const auto& vi : *list) merge_value(m.values[vi.name()], convert_type(vi.type()));
}

}  // namespace

OnnxModel describe_onnx(std::shared_ptr<const onnx::ModelProto> proto, const std::string& path, OnnxParts parts) {
    OnnxModel m;
    m.path = path;
    m.ir_version = proto->ir_version();
    m.main_nodes = static_cast<size_t>(proto->graph().node_size());
    for (const auto& op : proto->opset_import())
        m.opsets[op.domain() == "ai.onnx" ? std::string() : op.domain()] = op.version();
    if (parts == OnnxParts::all) describe_graph(proto->graph(), m);
    m.producer_name = proto->producer_name();
    m.producer_version = proto->producer_version();
    m.proto = std::move(proto);
    return m;
}

namespace {

// A ModelProto parsed on an arena, which the shared pointer keeps alive: one bulk free instead of a free per
// message and string.
struct ArenaModel {
    google::protobuf::Arena arena{arena_options()};
    onnx::ModelProto* proto = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);

    static google::protobuf::ArenaOptions arena_options() {
        google::protobuf::ArenaOptions o;
        o.max_block_size = size_t{1} << 20;
        return o;
    }
};

std::shared_ptr<const onnx::ModelProto> parse_model(const std::string& data) {
    if (data.size() > static_cast<size_t>(INT_MAX)) return nullptr;
    auto holder = std::make_shared<ArenaModel>();
    if (!holder->proto->ParseFromArray(data.data(), static_cast<int>(data.size()))) return nullptr;
    return {holder, holder->proto};
}

}  // namespace

OnnxRead read_onnx(const std::string& path, OnnxParts parts) {
    OnnxRead r;
    const auto data = read_whole_file(path);
    if (!data) {
        r.error = "cannot open the file";
        r.missing = true;
        return r;
    }
    auto proto = parse_model(*data);
    if (!proto) {
        r.error = "not a readable ONNX model (the protobuf message does not parse)";
        return r;
    }
    if (!proto->has_graph()) {
        r.error = "the ONNX model has no graph";
        return r;
    }
    r.model = describe_onnx(std::move(proto), path, parts);
    return r;
}

}  // namespace irlint
