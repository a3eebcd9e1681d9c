// Unit tests of the ONNX control ops (rules/ops/onnx_control_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

#include <functional>

namespace {

// A body of a made-up node: its formal inputs (Parameters), its outputs (Results, each with the dims the body
// declares, "" for none), and what the engine's re-inference of it gives for the formal inputs' ports.
struct FakeBody {
    std::string attr;  // the graph attribute that holds it: then_branch, else_branch, body
    size_t parameters = 0;
    std::vector<std::string> declared;
    std::function<std::vector<BodyPort>(const std::vector<BodyPort>&)> infer;
    // The first output is the second input, by name (a Loop body that hands its condition back).
    bool condition_passes_through = false;
};

struct ControlCase {
    std::string type;
    int version = 1;
    std::vector<OpInput> inputs;
    std::vector<std::pair<std::string, std::string>> attrs;
    std::map<size_t, TensorValue> values;
    std::vector<FakeBody> bodies;
};

void add_body(Model& model, const FakeBody& body) {
    Graph g;
    for (size_t i = 0; i < body.parameters; ++i) {
        Layer l;
        l.id = model.keep(std::to_string(g.layers.size()));
        l.type = "Parameter";
        l.kind = LayerKind::parameter;
        if (body.condition_passes_through && i == 1) {
            Port out;
            out.id = "0";
            out.names = "cond";
            l.outputs = model.store(std::span<const Port>(&out, 1));
        }
        g.layers.push_back(l);
    }
    for (const std::string& d : body.declared) {
        Port in;
        in.id = "0";
        if (body.condition_passes_through && &d == &body.declared.front()) in.names = "cond";
        in.rank_known = !d.empty();
        if (!d.empty()) {
            std::vector<int64_t> dims;
            for (const Dim& x : S(d).dims) dims.push_back(x.is_static() ? x.length() : -1);
            in.dims = model.store(std::span<const int64_t>(dims));
        }
        Layer l;
        l.id = model.keep(std::to_string(g.layers.size()));
        l.type = "Result";
        l.kind = LayerKind::result;
        l.inputs = model.store(std::span<const Port>(&in, 1));
        g.layers.push_back(l);
    }
    model.graphs.push_back(std::move(g));
}

// Runs the case's op with its bodies' re-inference made up by FakeBody::infer (the engine's part).
OpRun run_control(const ControlCase& c) {
    const OpEntry& e = entry_of(c.type, c.version, OpFormat::onnx);
    Model model;
    model.format = ModelFormat::onnx;
    model.graphs.emplace_back();
    std::vector<ObjectAttr> objects;
    for (const FakeBody& b : c.bodies) {
        objects.push_back({b.attr, ObjectAttr::Kind::graph, model.graphs.size()});
        add_body(model, b);
    }
    std::vector<Attr> attrs;
    for (const auto& [k, v] : c.attrs) attrs.emplace_back(k, v);
    Layer layer;
    layer.type = c.type;
    layer.name = "test";
    layer.id = "1";
    layer.attrs = attrs;
    layer.object_attrs = objects;
    OpContext ctx(layer, e.version, c.inputs, [&c](size_t i) -> const TensorValue* {
        const auto it = c.values.find(i);
        return it == c.values.end() ? nullptr : &it->second;
    });
    ctx.set_model(&model);
    ctx.set_body_reinferrer([&](size_t g, const BodyPorts& given) {
        const FakeBody& body = c.bodies.at(g - 1);
        std::vector<BodyPort> parameters;
        std::vector<const Layer*> results;
        for (const Layer& l : model.graphs[g].layers) {
            if (l.kind == LayerKind::result) results.push_back(&l);
            if (l.kind != LayerKind::parameter) continue;
            const auto it = given.find(&l);
            parameters.push_back(it == given.end() ? BodyPort{Shape::dynamic_rank(), std::nullopt} : it->second);
        }
        const std::vector<BodyPort> out = body.infer(parameters);
        BodyPorts ports;
        for (size_t k = 0; k < out.size() && k < results.size(); ++k) ports[results[k]] = out[k];
        return ports;
    });
    OpRun run;
    e.infer(ctx, run.outputs);
    run.problems.assign(ctx.problems().begin(), ctx.problems().end());
    run.unknown = ctx.unknown_reason();
    return run;
}

BodyPort P(const std::string& shape, std::optional<ElementType> type = ElementType::f32) { return {S(shape), type}; }

// A body that gives fixed outputs whatever its inputs.
FakeBody constant_body(std::string attr, size_t parameters, std::vector<BodyPort> outputs) {
    FakeBody b{std::move(attr), parameters, std::vector<std::string>(outputs.size()), {}};
    b.infer = [outputs](const std::vector<BodyPort>&) { return outputs; };
    return b;
}


}  // namespace

TEST_CASE("onnx-control: If merges its branches per dim, or takes the branch a known condition picks") {
    ControlCase c{"If", 11, {In("", ElementType::boolean)}, {}, {}, {}};
    c.bodies = {constant_body("then_branch", 0, {P("2,3"), P("4")}),
                constant_body("else_branch", 0, {P("2,5"), P("4,1")})};
    auto r = run_control(c);
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[2,?]");
    CHECK(r.str(1) == "[...]");  // ranks differ
    CHECK(type_of(r) == "f32");
    c.values = {{0, V({0})}};
    r = run_control(c);
    CHECK(r.str(0) == "[2,5]");
    CHECK(r.str(1) == "[4,1]");
    c.bodies[1] = constant_body("else_branch", 0, {P("2,3", ElementType::i32), P("4")});
    CHECK(run_control(c).problem() == "output 0 is f32 in then_branch and i32 in else_branch; the types must be equal");
    c.bodies[1] = constant_body("else_branch", 0, {P("2,3")});
    CHECK(run_control(c).problem() == "then_branch has 2 outputs and else_branch 1; they must be equal");
    ControlCase not_bool{"If", 21, {In("", ElementType::i64)}, {}, {}, {}};
    not_bool.bodies = {constant_body("then_branch", 0, {}), constant_body("else_branch", 0, {})};
    CHECK(run_control(not_bool).problem() == "cond is i64; it must be bool");
}

TEST_CASE("onnx-control: a body output the re-inference leaves open takes what the body declares") {
    ControlCase c{"If", 13, {In("", ElementType::boolean)}, {}, {}, {}};
    FakeBody open = constant_body("then_branch", 0, {P("...", std::nullopt)});
    open.declared = {"5"};
    c.bodies = {open, open};
    c.bodies[1].attr = "else_branch";
    const auto r = run_control(c);
    CHECK(r.str() == "[5]");
}

TEST_CASE("onnx-control: Loop feeds its carried values to the body, widens the dims the body changes") {
    // Body: (i, cond, a, b) -> (cond, a, b grown by one, scan [3]).
    FakeBody body{"body", 4, {"", "", "", ""}, {}};
    body.infer = [](const std::vector<BodyPort>& in) {
        CHECK(in[0].shape.str() == "[]");
        CHECK(in[0].type == ElementType::i64);
        Shape grown = in[3].shape;
        if (!grown.rank_dynamic && grown.dims[0].is_static()) grown.dims[0] = Dim(grown.dims[0].length() + 1);
        return std::vector<BodyPort>{in[1], in[2], {grown, in[3].type}, P("3")};
    };
    OpInput no_cond = In("", ElementType::boolean);
    no_cond.present = false;
    ControlCase c{"Loop", 16, {In("", ElementType::i64), no_cond, In("2"), In("1,4")}, {}, {{0, V({5})}}, {body}};
    auto r = run_control(c);
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[2]");
    CHECK(r.str(1) == "[?,4]");
    CHECK(r.str(2) == "[5,3]");  // M iterations, no condition
    CHECK_FALSE(r.unknown);
    // With a condition the count is at most M; without M it is unknown.
    c.inputs[1] = In("", ElementType::boolean);
    CHECK(run_control(c).str(2) == "[..5,3]");
    c.values.clear();
    r = run_control(c);
    CHECK(r.str(2) == "[?,3]");
    CHECK(r.unknown);
    c.inputs[0] = In("", ElementType::i32);
    CHECK(run_control(c).problem() == "M is i32; it must be int64");
}

TEST_CASE("onnx-control: a Loop whose condition starts true and that the body hands back runs M times") {
    FakeBody body{"body", 3, {"", "", ""}, {}};
    body.infer = [](const std::vector<BodyPort>& in) { return std::vector<BodyPort>{in[1], in[2], P("3")}; };
    ControlCase c{"Loop", 13, {In("", ElementType::i64), In("", ElementType::boolean), In("2")}, {},
                  {{0, V({4})}, {1, V({1})}}, {body}};
    CHECK(run_control(c).str(1) == "[..4,3]");  // the body might turn the condition false
    c.bodies[0].condition_passes_through = true;
    CHECK(run_control(c).str(1) == "[4,3]");
    c.values[1] = V({0});  // a condition that starts false: no iteration
    CHECK(run_control(c).str(1) == "[0,3]");
}

TEST_CASE("onnx-control: Loop rejects a body without the inputs it needs and a carried value that changes type") {
    OpInput no_m = In("", ElementType::i64);
    no_m.present = false;
    ControlCase c{"Loop", 11, {no_m, In("", ElementType::boolean), In("2")}, {}, {}, {}};
    c.bodies = {constant_body("body", 2, {P("", ElementType::boolean), P("2")})};
    CHECK(run_control(c).problem() ==
          "the body has 2 inputs; it needs 3 (iteration number, condition, the carried values)");
    c.bodies = {constant_body("body", 3, {P("", ElementType::boolean), P("2", ElementType::f16)})};
    CHECK(run_control(c).problem() == "carried value 0 enters the body as f32 and leaves it as f16");
}

TEST_CASE("onnx-control: Scan slices along scan_input_axes and stacks along scan_output_axes") {
    // Body: (state, slice) -> (state, slice).
    FakeBody body{"body", 2, {"", ""}, {}};
    body.infer = [](const std::vector<BodyPort>& in) { return std::vector<BodyPort>{in[0], in[1]}; };
    ControlCase c{"Scan", 9, {In("2"), In("3,2")}, {{"num_scan_inputs", "1"}}, {}, {body}};
    auto r = run_control(c);
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2]");
    CHECK(r.str(1) == "[3,2]");
    c.inputs[1] = In("2,7");
    c.attrs = {{"num_scan_inputs", "1"}, {"scan_input_axes", "-1"}, {"scan_output_axes", "1"}};
    r = run_control(c);
    CHECK(r.str(1) == "[2,7]");
    c.attrs = {{"num_scan_inputs", "1"}, {"scan_input_axes", "2"}};
    CHECK(run_control(c).problem() == "scan input 0 is [2,7]: axis 2 is out of range [-2, 1]");
    c.attrs = {{"num_scan_inputs", "1"}, {"scan_output_directions", "2"}};
    CHECK(run_control(c).problem() == "scan_output_directions holds a value other than 0 and 1");
    c.attrs = {{"num_scan_inputs", "3"}};
    CHECK(run_control(c).problem() == "num_scan_inputs 3 is not in [1, 2]");
}

TEST_CASE("onnx-control: Scan-8 has sequence_lens first and a batch dim on everything") {
    FakeBody body{"body", 2, {"", ""}, {}};
    body.infer = [](const std::vector<BodyPort>& in) {
        CHECK(in[0].shape.str() == "[2]");
        CHECK(in[1].shape.str() == "[2]");
        return std::vector<BodyPort>{in[0], in[1]};
    };
    OpInput no_lens = In("", ElementType::i64);
    no_lens.present = false;
    ControlCase c{"Scan", 8, {no_lens, In("1,2"), In("1,3,2")}, {{"num_scan_inputs", "1"}}, {}, {body}};
    const auto r = run_control(c);
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[1,2]");
    CHECK(r.str(1) == "[1,3,2]");
}

namespace {
OpInput Seq(const std::string& dims, std::optional<ElementType> type = ElementType::f32,
            ValueKind kind = ValueKind::sequence) {
    OpInput in = In(dims, type);
    in.shape.kind = kind;
    return in;
}
}  // namespace

TEST_CASE("onnx-control: sequences and optionals are typed as ONNX infers them") {
    auto r = run_onnx_op(Onnx("SequenceLength", 11, {Seq("...", std::nullopt)}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[]");
    CHECK(type_of(r) == "i64");
    // SequenceConstruct: the dims its tensors have in common.
    r = run_onnx_op(Onnx("SequenceConstruct", 11, {In("2,3"), In("2,4")}));
    REQUIRE(r.ok());
    CHECK(r.str() == "seq([2,?])");
    CHECK(type_of(r) == "f32");
    CHECK_FALSE(r.unknown);
    CHECK(run_onnx_op(Onnx("SequenceConstruct", 11, {In("2"), In("2,2")})).str() == "seq([...])");
    r = run_onnx_op(Onnx("SequenceConstruct", 11, {In("2"), In("3", ElementType::i32)}));
    CHECK(r.problem() == "inputs 0 and 1 are f32 and i32; a sequence holds one type");
    r = run_onnx_op(Onnx("SequenceEmpty", 11, {}, {{"dtype", "7"}}));
    CHECK(r.str() == "seq([...])");
    CHECK(type_of(r) == "i64");
    CHECK(type_of(run_onnx_op(Onnx("SequenceEmpty", 11, {}))) == "f32");
    // SequenceInsert, SequenceErase, SequenceAt.
    r = run_onnx_op(Onnx("SequenceInsert", 11, {Seq("2,3"), In("2,5")}));
    CHECK(r.str() == "seq([2,?])");
    r = run_onnx_op(Onnx("SequenceInsert", 11, {Seq("2,3"), In("2,3", ElementType::i64)}));
    CHECK(r.problem() == "input 1 is i64; the sequence holds f32");
    r = run_onnx_op(Onnx("SequenceInsert", 11, {In("2,3"), In("2,3")}));
    CHECK(r.problem() == "input 0 is tensor [2,3]; it must be a sequence of tensors");
    r = run_onnx_op(Onnx("SequenceInsert", 11, {Seq("...", std::nullopt), In("3"), In("2,2", ElementType::i64)}));
    CHECK(r.problem() == "position is [2,2]; it must be a scalar");
    CHECK(run_onnx_op(Onnx("SequenceErase", 11, {Seq("4")})).str() == "seq([4])");
    r = run_onnx_op(Onnx("SequenceAt", 11, {Seq("4,?"), In("", ElementType::i64)}));
    CHECK(r.str() == "[4,?]");
    CHECK(type_of(r) == "f32");
    // A value nothing is known of may be a sequence.
    CHECK(run_onnx_op(Onnx("SequenceAt", 11, {In("...", std::nullopt), In("", ElementType::i64)})).str() == "[...]");
    // SplitToSequence: parts of 1 without split, of split's length when all parts have it.
    CHECK(run_onnx_op(Onnx("SplitToSequence", 24, {In("3,6")}, {{"axis", "1"}})).str() == "seq([3,1])");
    CHECK(run_onnx_op(Onnx("SplitToSequence", 24, {In("3,6")}, {{"axis", "1"}, {"keepdims", "0"}})).str() ==
          "seq([3])");
    CHECK(run_onnx_op(Onnx("SplitToSequence", 24, {In("3,6"), In("", ElementType::i64)}, {{"axis", "1"}},
                           {{1, V({2})}}))
              .str() == "seq([3,2])");
    CHECK(run_onnx_op(Onnx("SplitToSequence", 24, {In("3,6"), In("2", ElementType::i64)}, {{"axis", "1"}},
                           {{1, V({2, 4})}}))
              .str() == "seq([3,?])");
    r = run_onnx_op(Onnx("SplitToSequence", 24, {In("3,6")}, {{"axis", "2"}}));
    CHECK(r.problem() == "axis 2 is out of range [-2, 1]");
    // ConcatFromSequence: the joined dim unknown; new_axis adds one.
    CHECK(run_onnx_op(Onnx("ConcatFromSequence", 11, {Seq("2,3")}, {{"axis", "1"}})).str() == "[2,?]");
    CHECK(run_onnx_op(Onnx("ConcatFromSequence", 11, {Seq("2,3")}, {{"axis", "-1"}, {"new_axis", "1"}})).str() ==
          "[2,3,?]");
    r = run_onnx_op(Onnx("ConcatFromSequence", 11, {Seq("...", std::nullopt)}, {{"axis", "0"}, {"new_axis", "2"}}));
    CHECK(r.problem() == "new_axis 2 must be 0 or 1");
    // Optionals.
    OpInput none = In("...", std::nullopt);
    none.present = false;
    r = run_onnx_op(Onnx("OptionalHasElement", 18, {none}));
    CHECK(r.str() == "[]");
    CHECK(type_of(r) == "boolean");
    CHECK(run_onnx_op(Onnx("Optional", 15, {In("4")})).str() == "opt([4])");
    CHECK(run_onnx_op(Onnx("Optional", 15, {Seq("4")})).str() == "opt(seq([4]))");
    CHECK(run_onnx_op(Onnx("OptionalGetElement", 18, {Seq("4", ElementType::f32, ValueKind::optional)})).str() ==
          "[4]");
    CHECK(run_onnx_op(Onnx("OptionalGetElement", 15, {Seq("4", ElementType::f32, ValueKind::optional_sequence)}))
              .str() == "seq([4])");
    r = run_onnx_op(Onnx("OptionalGetElement", 18, {In("4")}));
    CHECK(r.str() == "[4]");
    r = run_onnx_op(Onnx("OptionalGetElement", 15, {In("4")}));
    CHECK(r.str() == "[...]");
    CHECK(r.unknown);
}
