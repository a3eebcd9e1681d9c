#include <doctest/doctest.h>

#include <algorithm>

#include "ir/reader.hpp"
#include "rules/structure.hpp"

using namespace irlint;

namespace {
// A Parameter -> Relu -> Result chain; tests edit it to plant one defect each.
std::string chain(const std::string& edges, const std::string& relu_in_dims = "<dim>1</dim><dim>8</dim>",
                  const std::string& relu_in_precision = "FP32") {
    return R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,8" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>1</dim><dim>8</dim></port></output></layer>
<layer id="1" name="r" type="ReLU" version="opset1">
  <input><port id="0" precision=")" + relu_in_precision + R"(">)" + relu_in_dims + R"(</port></input>
  <output><port id="1" precision="FP32"><dim>1</dim><dim>8</dim></port></output></layer>
<layer id="2" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>1</dim><dim>8</dim></port></input></layer>
</layers><edges>
)" + edges + "\n</edges></net>";
}
const std::string kGoodEdges = R"(<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>)";

Diagnostics structure_of(const std::string& text, GraphIndex* index = nullptr) {
    ReadResult r = read_model_from_memory(text, "mem.xml");
    REQUIRE(r.model);
    Diagnostics out;
    GraphIndex idx = check_structure(r.model->graphs[0], out);
    if (index) *index = idx;
    return out;
}

bool has(const Diagnostics& ds, std::string_view rule, const std::string& text, Severity s = Severity::error) {
    return std::any_of(ds.begin(), ds.end(), [&](const Diagnostic& d) {
        return d.rule == rule && d.severity == s && d.message.find(text) != std::string::npos;
    });
}
}  // namespace

TEST_CASE("a clean chain has no findings and a topological order") {
    GraphIndex idx;
    CHECK(structure_of(chain(kGoodEdges), &idx).empty());
    CHECK(idx.topo_order == std::vector<size_t>{0, 1, 2});
    REQUIRE(idx.producer_of[1][0]);
    CHECK(idx.producer_of[1][0]->layer == 0);
}

TEST_CASE("edges to missing layers and ports") {
    CHECK(has(structure_of(chain(R"(<edge from-layer="7" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>)")),
              "ir-structure", "names layer 7, which does not exist"));
    CHECK(has(structure_of(chain(R"(<edge from-layer="0" from-port="3" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>)")),
              "ir-structure", "layer 0 ('x') has no port 3; an edge must start at an output port"));
    CHECK(has(structure_of(chain(R"(<edge from-layer="0" from-port="0" to-layer="1" to-port="1"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>)")),
              "ir-structure", "layer 1 ('r') has only an output port 1; an edge must end at an input port"));
}

TEST_CASE("an input fed twice, and one not fed at all") {
    const auto twice = structure_of(chain(kGoodEdges + R"(
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>)"));
    CHECK(has(twice, "ir-structure", "is fed twice"));
    const auto unfed = structure_of(chain(R"(<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>)"));
    CHECK(has(unfed, "ir-structure", "input port 0 of layer 1 ('r') has no incoming edge"));
    CHECK(has(unfed, "ir-structure", "does not lead to any Result", Severity::warning) == false);
}

TEST_CASE("shape and type disagreements across an edge") {
    CHECK(has(structure_of(chain(kGoodEdges, "<dim>1</dim><dim>9</dim>")), "edge-shape-mismatch",
              "'x' produces [1,8] but 'r' declares input [1,9]"));
    CHECK(has(structure_of(chain(kGoodEdges, "<dim>1</dim><dim>-1</dim>")), "edge-shape-mismatch", "compatible",
              Severity::warning));
    CHECK(has(structure_of(chain(kGoodEdges, "<dim>1</dim><dim>8</dim>", "FP16")), "edge-type-mismatch",
              "produces f32 but 'r' declares input f16"));
}

TEST_CASE("duplicate ids, cycles and dead layers") {
    std::string dup = chain(kGoodEdges);
    dup.replace(dup.find("id=\"2\" name=\"y\""), 6, "id=\"1\"");
    CHECK(has(structure_of(dup), "ir-structure", "duplicate layer id 1"));

    const auto cycle = structure_of(chain(R"(<edge from-layer="1" from-port="1" to-layer="1" to-port="0"/>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>)"));
    CHECK(has(cycle, "ir-structure", "has a cycle through layers 1"));
    const auto dead = structure_of(chain(R"(<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>)"));
    CHECK(has(dead, "ir-structure", "layer 1 ('r') does not lead to any Result", Severity::warning));
}

TEST_CASE("a layer with thousands of ports: each edge finds its own port") {
    constexpr int kPorts = 5000;
    std::string outs, ins, edges;
    for (int p = 0; p < kPorts; ++p) {
        outs += R"(<port id=")" + std::to_string(p) + R"(" precision="FP32"><dim>)" + std::to_string(p + 1) + "</dim></port>";
        ins += R"(<port id=")" + std::to_string(kPorts + p) + R"(" precision="FP32"><dim>)" + std::to_string(p + 1) +
               "</dim></port>";
        // Edge p feeds input port kPorts+p from output port p: any mix-up is a shape mismatch.
        edges += R"(<edge from-layer="0" from-port=")" + std::to_string(p) + R"(" to-layer="1" to-port=")" +
                 std::to_string(kPorts + p) + R"("/>)";
    }
    const std::string text = R"(<net version="11"><layers><layer id="0" name="s" type="Split" version="opset1"><output>)" +
                             outs + R"(</output></layer><layer id="1" name="c" type="Result" version="opset1"><input>)" +
                             ins + "</input></layer></layers><edges>" + edges + "</edges></net>";
    GraphIndex idx;
    CHECK(structure_of(text, &idx).empty());
    REQUIRE(idx.producer_of[1].size() == kPorts);
    CHECK(idx.producer_of[1][kPorts - 1]->port == kPorts - 1);
}

TEST_CASE("an edge names the first of two ports with the same id") {
    const std::string text = R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><output>
  <port id="0" precision="FP32"><dim>2</dim></port><port id="0" precision="FP32"><dim>3</dim></port></output></layer>
<layer id="1" name="y" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>2</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>)";
    GraphIndex idx;
    const Diagnostics ds = structure_of(text, &idx);
    CHECK(has(ds, "ir-structure", "duplicate port id 0 in layer 0"));
    CHECK_FALSE(has(ds, "edge-shape-mismatch", "produces"));
    CHECK(idx.producer_of[1][0]->port == 0);
}
