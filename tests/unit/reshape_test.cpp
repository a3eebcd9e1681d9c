#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "ir/reader.hpp"
#include "rules/reshape.hpp"
#include "model_files.hpp"

using namespace irlint;
using irlint::test::bytes_of;
using irlint::test::model_with_bin;

namespace {

// Parameter [?,3,16,16] -> ShapeOf -> Gather(indices [0], axis 0) -> Concat with [-1] -> Reshape: the
// batch flows through values into the Reshape target [N,-1]. The .bin holds the indices, the axis and the -1.
constexpr const char* kFlatten = R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="?,3,16,16" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>-1</dim><dim>3</dim><dim>16</dim><dim>16</dim></port></output></layer>
<layer id="1" name="shape" type="ShapeOf" version="opset3"><data output_type="i64"/>
  <input><port id="0" precision="FP32"><dim>-1</dim><dim>3</dim><dim>16</dim><dim>16</dim></port></input>
  <output><port id="1" precision="I64"><dim>4</dim></port></output></layer>
<layer id="2" name="indices" type="Const" version="opset1"><data element_type="i64" shape="1" offset="0" size="8"/>
  <output><port id="0" precision="I64"><dim>1</dim></port></output></layer>
<layer id="3" name="axis" type="Const" version="opset1"><data element_type="i64" shape="" offset="8" size="8"/>
  <output><port id="0" precision="I64"/></output></layer>
<layer id="4" name="batch" type="Gather" version="opset8"><data batch_dims="0"/>
  <input><port id="0" precision="I64"><dim>4</dim></port><port id="1" precision="I64"><dim>1</dim></port><port id="2" precision="I64"/></input>
  <output><port id="3" precision="I64"><dim>1</dim></port></output></layer>
<layer id="5" name="minus_one" type="Const" version="opset1"><data element_type="i64" shape="1" offset="16" size="8"/>
  <output><port id="0" precision="I64"><dim>1</dim></port></output></layer>
<layer id="6" name="target" type="Concat" version="opset1"><data axis="0"/>
  <input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"><dim>1</dim></port></input>
  <output><port id="2" precision="I64"><dim>2</dim></port></output></layer>
<layer id="7" name="flat" type="Reshape" version="opset1"><data special_zero="false"/>
  <input><port id="0" precision="FP32"><dim>-1</dim><dim>3</dim><dim>16</dim><dim>16</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
  <output><port id="2" precision="FP32"><dim>-1</dim><dim>768</dim></port></output></layer>
<layer id="8" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>-1</dim><dim>768</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="4" to-port="0"/>
<edge from-layer="2" from-port="0" to-layer="4" to-port="1"/>
<edge from-layer="3" from-port="0" to-layer="4" to-port="2"/>
<edge from-layer="4" from-port="3" to-layer="6" to-port="0"/>
<edge from-layer="5" from-port="0" to-layer="6" to-port="1"/>
<edge from-layer="0" from-port="0" to-layer="7" to-port="0"/>
<edge from-layer="6" from-port="2" to-layer="7" to-port="1"/>
<edge from-layer="7" from-port="2" to-layer="8" to-port="0"/>
</edges></net>)";

// The indices, the axis and the -1 of kFlatten.
constexpr int64_t kFlattenBin[3] = {0, 0, -1};

Model flatten_model() { return model_with_bin(kFlatten, "irlint-reshape-test", bytes_of(kFlattenBin)); }

const LayerShapes& row(const ModelReport& report, std::string_view name) {
    for (const LayerShapes& s : report.layers)
        if (s.layer->name == name) return s;
    FAIL("no layer " << name);
    throw std::logic_error("unreachable");
}

Shape dims(const char* text) {
    std::string error;
    const auto s = parse_shape(text, &error);
    REQUIRE(s);
    return *s;
}

}  // namespace

TEST_CASE("values flow through ShapeOf, Gather and Concat into a Reshape target, with intervals") {
    const Model model = flatten_model();
    // The batch of the target is the batch of the input (ShapeOf names the dim it took, as OpenVINO's dim
    // symbols do): it cancels, and the -1 is 3*16*16 = 768.
    const ModelReport checked = check_model(model);
    CHECK(row(checked, "flat").inferred[0].str() == "[?,768]");
    CHECK(row(checked, "flat").checked);
    CHECK(checked.diagnostics.size() == 0);

    const ReshapeResult b8 = reshape_model(model, {{"x", dims("8,3,16,16")}});
    CHECK(b8.incompatible.empty());
    CHECK(row(b8.after, "shape").inferred[0].str() == "[4]");
    CHECK(row(b8.after, "flat").inferred[0].str() == "[8,768]");
    CHECK(b8.changed_layers == 2);  // x and flat: ShapeOf, Gather, Concat keep their dims

    // A batch known only as an interval stays one, and cancels as the same dim: the -1 is 3*8*16.
    const ReshapeResult range = reshape_model(model, {{"x", dims("1..4,3,8,16")}});
    CHECK(row(range.after, "flat").inferred[0].str() == "[1..4,384]");
    // A dynamic rank passes through as OpenVINO infers it.
    const ReshapeResult any = reshape_model(model, {{"x", Shape::dynamic_rank()}});
    CHECK(row(any.after, "shape").inferred[0].str() == "[?]");
    CHECK(row(any.after, "flat").inferred[0].str() == "[?,?]");
}

TEST_CASE("a hard-coded Reshape target that new shapes break is reshape-incompatible, and -o writes nothing") {
    const std::string xml = R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,8" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>1</dim><dim>8</dim></port></output></layer>
<layer id="1" name="target" type="Const" version="opset1"><data element_type="i64" shape="2" offset="0" size="16"/>
  <output><port id="0" precision="I64"><dim>2</dim></port></output></layer>
<layer id="2" name="r" type="Reshape" version="opset1"><data special_zero="false"/>
  <input><port id="0" precision="FP32"><dim>1</dim><dim>8</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
  <output><port id="2" precision="FP32"><dim>2</dim><dim>4</dim></port></output></layer>
<layer id="3" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>2</dim><dim>4</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges></net>)";
    const int64_t target[2] = {2, 4};
    const Model model = model_with_bin(xml, "irlint-reshape-test-fixed", bytes_of(target));
    const NewInputs wider{{"x", dims("1,9")}};
    const ReshapeResult broken = reshape_model(model, wider);
    REQUIRE(broken.incompatible.size() == 1);
    CHECK(broken.incompatible[0].rule == "reshape-incompatible");
    CHECK(broken.incompatible[0].layer.name == "r");
    std::string why;
    CHECK_FALSE(plan_reshape_edits(model, xml, broken, wider, why));
    CHECK(why == "1 layer cannot take the new shapes");
    // The layer after the failing one sees a dynamic rank: nothing more is reported.
    CHECK(row(broken.after, "y").inputs[0].str() == "[...]");
    const NewInputs same{{"x", dims("1,8")}};
    const ReshapeResult fine = reshape_model(model, same);
    CHECK(fine.incompatible.empty());
    const auto edits = plan_reshape_edits(model, xml, fine, same, why);
    REQUIRE(edits);
    CHECK(apply_text_edits(xml, *edits) == xml);
}

TEST_CASE("--reshape arguments name a Parameter, or the one there is") {
    const Model model = flatten_model();
    const ReshapeResult identity = reshape_model(model, {{"x", dims("?,3,16,16")}});
    CHECK(identity.changed_layers == 0);
    CHECK(identity.unknown_layers == 0);  // flat: [?,768], as the file (OpenVINO) says
    CHECK(identity.incompatible.empty());
    std::string error;
    const auto unknown = parse_reshape_arguments(model, {"nope=1,3,16,16"}, error);
    CHECK_FALSE(unknown);
    CHECK(error == "--reshape nope=1,3,16,16: the model has no input (Parameter) named 'nope'; its inputs: x");
    const auto one = parse_reshape_arguments(model, {"2,3,16,16"}, error);
    REQUIRE(one);
    CHECK(one->at("x").str() == "[2,3,16,16]");
}

TEST_CASE("a TensorIterator's body is inferred again from the new inputs, and what it rejects is reported") {
    ReadResult read = read_model(std::string(IRLINT_TESTDATA) + "/valid/tensor_iterator.xml");
    REQUIRE(read.model);
    // Batch 4 and 32 steps: the body's slice is [4,1,8], its Add gives [4,1,8], the outputs follow it.
    const ReshapeResult b4 = reshape_model(*read.model, {{"x", dims("4,32,8")}, {"h", dims("4,1,8")}});
    CHECK(b4.incompatible.empty());
    const LayerShapes& ti = row(b4.after, "ti");
    REQUIRE(ti.inferred.size() == 2);
    CHECK(ti.inferred[0].str() == "[4,32,8]");
    CHECK(ti.inferred[1].str() == "[4,1,8]");
    // Eight features no longer broadcast with the hidden state's eight: the body's Add says so, once.
    const ReshapeResult narrow = reshape_model(*read.model, {{"x", dims("1,16,6")}});
    REQUIRE(narrow.incompatible.size() == 1);
    CHECK(narrow.incompatible[0].layer.name == "h_next");
    CHECK(narrow.incompatible[0].message == "Add-1: [1,1,6] and [1,1,8] do not broadcast (numpy): dim 2 is 6 against 8");
    CHECK(row(narrow.after, "ti").inferred[0].str() == "[...]");
    // A dynamic batch asked for makes dynamic dims: layers that change, not layers irlint cannot tell.
    const ReshapeResult any = reshape_model(*read.model, {{"x", dims("?,16,8")}, {"h", dims("?,1,8")}});
    CHECK(row(any.after, "ti").inferred[0].str() == "[?,16,8]");
    CHECK(any.changed_layers == 3);
    CHECK(any.unknown_layers == 0);
}

namespace {

// Parameter x [1,2] -> Loop(trip count 3, condition true, x) whose body applies Relu to x: the per-iteration
// value concatenated along axis 0 ([3,2]) and the last value ([1,2], fed back to the body's Parameter).
constexpr const char* kLoop = R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,2" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></output></layer>
<layer id="1" name="trip" type="Const" version="opset1"><data element_type="i64" shape="" offset="0" size="8"/>
  <output><port id="0" precision="I64"/></output></layer>
<layer id="2" name="go" type="Const" version="opset1"><data element_type="boolean" shape="" offset="8" size="1"/>
  <output><port id="0" precision="BOOL"/></output></layer>
<layer id="3" name="loop" type="Loop" version="opset5">
  <input><port id="0" precision="I64"/><port id="1" precision="BOOL"/>
    <port id="2" precision="FP32"><dim>1</dim><dim>2</dim></port></input>
  <output><port id="3" precision="FP32"><dim>3</dim><dim>2</dim></port>
    <port id="4" precision="FP32"><dim>1</dim><dim>2</dim></port></output>
  <port_map>
    <input external_port_id="2" internal_layer_id="0"/>
    <output external_port_id="3" internal_layer_id="2" axis="0"/>
    <output external_port_id="4" internal_layer_id="3"/>
    <output external_port_id="-1" internal_layer_id="5" purpose="execution_condition"/>
  </port_map>
  <back_edges><edge from-layer="3" to-layer="0"/></back_edges>
  <body><layers>
    <layer id="0" name="x_in" type="Parameter" version="opset1"><data shape="1,2" element_type="f32"/>
      <output><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></output></layer>
    <layer id="1" name="relu" type="ReLU" version="opset1">
      <input><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></input>
      <output><port id="1" precision="FP32"><dim>1</dim><dim>2</dim></port></output></layer>
    <layer id="2" name="each" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></input></layer>
    <layer id="3" name="back" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></input></layer>
    <layer id="4" name="again" type="Const" version="opset1"><data element_type="boolean" shape="" offset="9" size="1"/>
      <output><port id="0" precision="BOOL"/></output></layer>
    <layer id="5" name="again_out" type="Result" version="opset1">
      <input><port id="0" precision="BOOL"/></input></layer>
  </layers><edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="3" to-port="0"/>
    <edge from-layer="4" from-port="0" to-layer="5" to-port="0"/>
  </edges></body></layer>
<layer id="4" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>3</dim><dim>2</dim></port></input></layer>
<layer id="5" name="last" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="3" to-port="2"/>
<edge from-layer="1" from-port="0" to-layer="3" to-port="0"/>
<edge from-layer="2" from-port="0" to-layer="3" to-port="1"/>
<edge from-layer="3" from-port="3" to-layer="4" to-port="0"/>
<edge from-layer="3" from-port="4" to-layer="5" to-port="0"/>
</edges></net>)";

Model loop_model() {
    // The trip count 3, then the two conditions (true).
    std::string bin(8, '\0');
    const int64_t trip = 3;
    std::memcpy(bin.data(), &trip, sizeof trip);
    bin += "\x01\x01";
    return model_with_bin(kLoop, "irlint-reshape-loop", bin);
}

}  // namespace

TEST_CASE("a Loop's body is inferred again: three iterations of the new dims, the back edge kept") {
    const Model model = loop_model();
    const ModelReport checked = check_model(model);
    CHECK(checked.diagnostics.empty());
    CHECK(row(checked, "loop").inferred[0].str() == "[3,2]");

    const ReshapeResult wider = reshape_model(model, {{"x", dims("1,5")}});
    CHECK(wider.incompatible.empty());
    REQUIRE(row(wider.after, "loop").inferred.size() == 2);
    CHECK(row(wider.after, "loop").inferred[0].str() == "[3,5]");
    CHECK(row(wider.after, "loop").inferred[1].str() == "[1,5]");
    const ReshapeResult batch = reshape_model(model, {{"x", dims("2,5")}});
    CHECK(row(batch.after, "loop").inferred[0].str() == "[6,5]");
    CHECK(row(batch.after, "loop").inferred[1].str() == "[2,5]");
    CHECK(batch.changed_layers == 2);  // x and the Loop
}

TEST_CASE("a dim's symbol passes through the ops between ShapeOf and the Reshape that uses it") {
    // The flatten model with a ReLU between x and the Reshape: the target's N is x's batch, the ReLU's too.
    std::string xml = kFlatten;
    const std::string relu = R"(<layer id="9" name="relu" type="ReLU" version="opset1">
  <input><port id="0" precision="FP32"><dim>-1</dim><dim>3</dim><dim>16</dim><dim>16</dim></port></input>
  <output><port id="1" precision="FP32"><dim>-1</dim><dim>3</dim><dim>16</dim><dim>16</dim></port></output></layer>
</layers>)";
    xml.replace(xml.find("</layers>"), 9, relu);
    const std::string direct = R"(<edge from-layer="0" from-port="0" to-layer="7" to-port="0"/>)";
    xml.replace(xml.find(direct), direct.size(),
                R"(<edge from-layer="0" from-port="0" to-layer="9" to-port="0"/>
<edge from-layer="9" from-port="1" to-layer="7" to-port="0"/>)");
    const Model model = model_with_bin(xml, "irlint-reshape-relu", bytes_of(kFlattenBin));
    const ModelReport checked = check_model(model);
    CHECK(checked.diagnostics.empty());
    CHECK(row(checked, "flat").inferred[0].str() == "[?,768]");
    const ReshapeResult any = reshape_model(model, {{"x", dims("?,3,8,8")}});
    CHECK(row(any.after, "flat").inferred[0].str() == "[?,192]");
    // A static batch gives static dims, as without symbols.
    const ReshapeResult b4 = reshape_model(model, {{"x", dims("4,3,8,8")}});
    CHECK(row(b4.after, "flat").inferred[0].str() == "[4,192]");
}

TEST_CASE("a Reshape target computed through VariadicSplit, a floor Divide and a Multiply by 1 keeps the batch") {
    // x [?,4,8400] -> ShapeOf -> VariadicSplit(axis 0, [1,2]) -> N * 1 and [4,8400] // [2,-8400] = [2,-1]
    // -> Concat [N,2,-1] -> Reshape: N keeps x's batch through the split and the product, so it cancels and
    // the -1 is 4*8400/2.
    const std::string xml = R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="?,4,8400" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>-1</dim><dim>4</dim><dim>8400</dim></port></output></layer>
<layer id="1" name="shape" type="ShapeOf" version="opset3"><data output_type="i64"/>
  <input><port id="0" precision="FP32"><dim>-1</dim><dim>4</dim><dim>8400</dim></port></input>
  <output><port id="1" precision="I64"><dim>3</dim></port></output></layer>
<layer id="2" name="axis" type="Const" version="opset1"><data element_type="i64" shape="" offset="0" size="8"/>
  <output><port id="0" precision="I64"/></output></layer>
<layer id="3" name="lengths" type="Const" version="opset1"><data element_type="i64" shape="2" offset="8" size="16"/>
  <output><port id="0" precision="I64"><dim>2</dim></port></output></layer>
<layer id="4" name="split" type="VariadicSplit" version="opset1">
  <input><port id="0" precision="I64"><dim>3</dim></port><port id="1" precision="I64"/><port id="2" precision="I64"><dim>2</dim></port></input>
  <output><port id="3" precision="I64"><dim>1</dim></port><port id="4" precision="I64"><dim>2</dim></port></output></layer>
<layer id="5" name="divisor" type="Const" version="opset1"><data element_type="i64" shape="2" offset="24" size="16"/>
  <output><port id="0" precision="I64"><dim>2</dim></port></output></layer>
<layer id="6" name="half" type="Divide" version="opset1"><data auto_broadcast="numpy" m_pythondiv="true"/>
  <input><port id="0" precision="I64"><dim>2</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
  <output><port id="2" precision="I64"><dim>2</dim></port></output></layer>
<layer id="7" name="one" type="Const" version="opset1"><data element_type="i64" shape="1" offset="40" size="8"/>
  <output><port id="0" precision="I64"><dim>1</dim></port></output></layer>
<layer id="8" name="n" type="Multiply" version="opset1"><data auto_broadcast="numpy"/>
  <input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"><dim>1</dim></port></input>
  <output><port id="2" precision="I64"><dim>1</dim></port></output></layer>
<layer id="9" name="target" type="Concat" version="opset1"><data axis="0"/>
  <input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
  <output><port id="2" precision="I64"><dim>3</dim></port></output></layer>
<layer id="10" name="pairs" type="Reshape" version="opset1"><data special_zero="false"/>
  <input><port id="0" precision="FP32"><dim>-1</dim><dim>4</dim><dim>8400</dim></port><port id="1" precision="I64"><dim>3</dim></port></input>
  <output><port id="2" precision="FP32"><dim>-1</dim><dim>2</dim><dim>16800</dim></port></output></layer>
<layer id="11" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>-1</dim><dim>2</dim><dim>16800</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="4" to-port="0"/>
<edge from-layer="2" from-port="0" to-layer="4" to-port="1"/>
<edge from-layer="3" from-port="0" to-layer="4" to-port="2"/>
<edge from-layer="4" from-port="4" to-layer="6" to-port="0"/>
<edge from-layer="5" from-port="0" to-layer="6" to-port="1"/>
<edge from-layer="4" from-port="3" to-layer="8" to-port="0"/>
<edge from-layer="7" from-port="0" to-layer="8" to-port="1"/>
<edge from-layer="8" from-port="2" to-layer="9" to-port="0"/>
<edge from-layer="6" from-port="2" to-layer="9" to-port="1"/>
<edge from-layer="0" from-port="0" to-layer="10" to-port="0"/>
<edge from-layer="9" from-port="2" to-layer="10" to-port="1"/>
<edge from-layer="10" from-port="2" to-layer="11" to-port="0"/>
</edges></net>)";
    static constexpr int64_t kBin[6] = {0, 1, 2, 2, -8400, 1};
    const Model model = model_with_bin(xml, "irlint-reshape-split", bytes_of(kBin));
    const ModelReport checked = check_model(model);
    CHECK(checked.diagnostics.empty());
    CHECK(row(checked, "pairs").checked);
    CHECK(row(checked, "pairs").inferred[0].str() == "[?,2,16800]");
    const ReshapeResult same = reshape_model(model, {{"x", dims("?,4,8400")}});
    CHECK(same.changed_layers == 0);
    CHECK(row(same.after, "pairs").inferred[0].str() == "[?,2,16800]");
    const ReshapeResult b3 = reshape_model(model, {{"x", dims("3,4,8400")}});
    CHECK(b3.incompatible.empty());
    CHECK(row(b3.after, "pairs").inferred[0].str() == "[3,2,16800]");
}
