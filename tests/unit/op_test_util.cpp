#include "op_test_util.hpp"

#include <doctest/doctest.h>

namespace irlint::test {

Shape S(const std::string& text) {
    std::string error;
    const auto s = parse_shape(text, &error);
    REQUIRE_MESSAGE(s, "bad shape text '" << text << "': " << error);
    return *s;
}

OpInput In(const std::string& shape, std::optional<ElementType> type) { return OpInput{S(shape), type}; }

OpInput Omitted() {
    OpInput in{Shape::dynamic_rank(), std::nullopt};
    in.present = false;
    return in;
}

std::string type_of(const OpRun& r, size_t i) {
    return i < r.outputs.size() && r.outputs[i].type ? std::string(element_type_name(*r.outputs[i].type)) : "?";
}

TensorValue V(std::initializer_list<int64_t> exact) {
    TensorValue v;
    for (const int64_t x : exact) v.push_back({x, x});
    return v;
}

OnnxCase Onnx(std::string type, int since_version, std::vector<OpInput> inputs,
              std::vector<std::pair<std::string, std::string>> attrs, std::map<size_t, TensorValue> values) {
    OnnxCase c;
    c.type = std::move(type);
    c.version = since_version;
    c.inputs = std::move(inputs);
    c.attrs = std::move(attrs);
    c.values = std::move(values);
    return c;
}

OnnxCase Ms(std::string type, std::vector<OpInput> inputs, std::vector<std::pair<std::string, std::string>> attrs,
            std::map<size_t, TensorValue> values) {
    OnnxCase c = Onnx(std::move(type), 1, std::move(inputs), std::move(attrs), std::move(values));
    c.domain = "com.microsoft";
    return c;
}

const OpEntry& entry_of(const std::string& type, int version, OpFormat format, const std::string& domain) {
    for (const OpEntry& e : op_registry())
        if (e.type == type && e.version == version && e.format == format && e.domain == domain) return e;
    FAIL("no registry entry for " << domain << (domain.empty() ? "" : ".") << type << "-" << version);
    throw std::logic_error("unreachable");
}

namespace {

// `model` holds an ONNX case's tensor attributes (null for an IR case).
OpRun run_entry(const OpEntry& e, const OpCase& c, std::string_view domain, const Model* model,
                const std::map<size_t, std::vector<double>>& reals) {
    std::vector<Attr> attrs;
    for (const auto& [k, v] : c.attrs) attrs.emplace_back(k, v);
    std::vector<ObjectAttr> objects;
    if (model)
        for (size_t t = 0; t < model->tensors.size(); ++t) objects.push_back({model->kept[t], ObjectAttr::Kind::tensor, t});
    Layer layer;
    layer.type = c.type;
    layer.domain = domain;
    layer.name = "test";
    layer.id = "1";
    layer.attrs = attrs;
    layer.object_attrs = objects;
    layer.has_data = !attrs.empty();
    OpContext ctx(
        layer, e.version, c.inputs,
        [&c](size_t i) -> const TensorValue* {
            const auto it = c.values.find(i);
            return it == c.values.end() ? nullptr : &it->second;
        },
        [&reals](size_t i) -> const std::vector<double>* {
            const auto it = reals.find(i);
            return it == reals.end() ? nullptr : &it->second;
        });
    ctx.set_model(model);
    ctx.set_explain(true);  // the tests read the arithmetic too
    OpRun run;
    e.infer(ctx, run.outputs);
    run.problems.assign(ctx.problems().begin(), ctx.problems().end());
    run.warnings.assign(ctx.warnings().begin(), ctx.warnings().end());
    run.unknown = ctx.unknown_reason();
    run.invariants.assign(ctx.invariants().begin(), ctx.invariants().end());
    return run;
}

}  // namespace

std::string OpRun::broken(const std::vector<std::string>& declared) const {
    std::vector<Shape> shapes;
    for (const std::string& d : declared) shapes.push_back(S(d));
    for (const Invariant& invariant : invariants)
        if (const auto v = invariant(shapes)) return "output " + std::to_string(v->output) + ": " + v->message;
    return "";
}

OpRun run_op(const OpCase& c, const Reals& reals) {
    return run_entry(entry_of(c.type, c.version), c, "", nullptr, reals);
}

OpRun run_onnx_op(const OnnxCase& c) {
    Model model;
    model.format = ModelFormat::onnx;
    for (const auto& [name, tensor] : c.tensor_attrs) {
        model.kept.push_back(name);  // kept[i] names tensors[i]
        model.tensors.push_back(tensor);
    }
    return run_entry(entry_of(c.type, c.version, OpFormat::onnx, c.domain), c, c.domain, &model, c.reals);
}

OpRun run_op_in_model(const Model& model, const std::string& layer_id, int version,
                      const std::map<size_t, TensorValue>& values) {
    const Layer* layer = nullptr;
    for (const Layer& l : model.graphs.at(0).layers)
        if (l.id == layer_id) layer = &l;
    REQUIRE_MESSAGE(layer, "no layer " << layer_id);
    const OpEntry& e = entry_of(std::string(layer->type), version);
    std::vector<OpInput> inputs;
    for (const Port& p : layer->inputs) inputs.push_back({shape_from_port_dims(p.dims), p.precision});
    OpContext ctx(*layer, e.version, inputs, [&values](size_t i) -> const TensorValue* {
        const auto it = values.find(i);
        return it == values.end() ? nullptr : &it->second;
    });
    ctx.set_model(&model);
    ctx.set_explain(true);
    OpRun run;
    e.infer(ctx, run.outputs);
    run.problems.assign(ctx.problems().begin(), ctx.problems().end());
    run.unknown = ctx.unknown_reason();
    return run;
}

}  // namespace irlint::test
