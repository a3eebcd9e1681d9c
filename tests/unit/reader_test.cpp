#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ir/bin_file.hpp"
#include "ir/reader.hpp"

using namespace irlint;

namespace {
const char* kPool = R"(<?xml version="1.0"?>
<net name="m" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data shape="1,3,2..64,?" element_type="f32"/>
      <output><port id="0" precision="FP32" names="x"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>-1</dim></port></output>
    </layer>
    <layer id="1" name="pool" type="MaxPool" version="opset8">
      <data kernel="2,2" strides="2,2" pads_begin="0,0" pads_end="0,0"/>
      <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>-1</dim></port></input>
      <output>
        <port id="1" precision="FP32"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>-1</dim></port>
        <port id="2" precision="I64"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>-1</dim></port>
      </output>
    </layer>
    <layer id="2" name="out" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>-1</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
  </edges>
</net>
)";

ReadResult read(const std::string& text) { return read_model_from_memory(text, "mem.xml"); }
}  // namespace

TEST_CASE("a v11 model is read with lines, attributes, ports and edges") {
    const ReadResult r = read(kPool);
    REQUIRE(r.status == ReadStatus::ok);
    CHECK(r.diagnostics.empty());
    const Model& m = *r.model;
    CHECK(m.ir_version == 11);
    REQUIRE(m.graphs.size() == 1);
    const Graph& g = m.graphs[0];
    REQUIRE(g.layers.size() == 3);
    const Layer& pool = g.layers[1];
    CHECK(pool.line == 8);
    CHECK(pool.data_line == 9);
    CHECK(*pool.attr("kernel") == "2,2");
    CHECK(pool.outputs.size() == 2);
    CHECK(pool.outputs[1].precision == ElementType::i64);
    CHECK(std::vector<int64_t>(pool.outputs[0].dims.begin(), pool.outputs[0].dims.end()) == std::vector<int64_t>{1, 3, -1, -1});
    CHECK(g.edges.size() == 2);
    CHECK(g.edges[1].from_port == "1");
    CHECK(g.edges[1].line == 22);
}

TEST_CASE("malformed XML reports the parser's line and reason") {
    const ReadResult r = read("<net version=\"11\">\n<layers>\n<layer id=\"0\"\n</net>");
    CHECK(r.status == ReadStatus::failed);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].rule == "xml-malformed");
    CHECK(r.diagnostics[0].line == 4);
}

TEST_CASE("roots and versions") {
    CHECK(read("<graph/>").status == ReadStatus::not_ir);
    CHECK(read("<NET version=\"10\"><layers/></NET>").status == ReadStatus::ok);
    const ReadResult legacy = read("<net version=\"4\"><layers/></net>");
    CHECK(legacy.status == ReadStatus::unsupported);
    CHECK(legacy.diagnostics[0].message.find("unsupported IR version '4'") != std::string::npos);
    CHECK(read("<net><layers/></net>").status == ReadStatus::unsupported);
    CHECK(read("<net version=\"12\"><layers/></net>").status == ReadStatus::unsupported);
}

TEST_CASE("port dims must be integers >= -1") {
    std::string text = kPool;
    text.replace(text.find("<dim>-1</dim>"), 13, "<dim>?</dim>");
    const ReadResult r = read(text);
    REQUIRE(r.status == ReadStatus::ok);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].rule == "ir-structure");
    CHECK(r.diagnostics[0].message.find("dimension '?' must be an integer >= -1") != std::string::npos);
    CHECK(r.diagnostics[0].line == 6);
    CHECK_FALSE(r.model->graphs[0].layers[0].outputs[0].dims_valid);
}

TEST_CASE("missing layer attributes and output precision are reported") {
    const ReadResult r = read(R"(<net version="11"><layers>
<layer name="a" type="Parameter"><output><port id="0"><dim>1</dim></port></output></layer>
</layers></net>)");
    REQUIRE(r.status == ReadStatus::ok);
    std::string all;
    for (const auto& d : r.diagnostics) all += d.message + "\n";
    CHECK(all.find("layer has no id attribute") != std::string::npos);
    CHECK(all.find("no version attribute") != std::string::npos);
    CHECK(all.find("output port 0 has no precision") != std::string::npos);
}

TEST_CASE("nested bodies become graphs of their own") {
    const ReadResult r = read(R"(<net version="11"><layers>
<layer id="0" name="ti" type="TensorIterator" version="opset1">
  <body><layers><layer id="0" name="inner" type="Parameter" version="opset1"/></layers><edges/></body>
</layer></layers><edges/></net>)");
    REQUIRE(r.status == ReadStatus::ok);
    REQUIRE(r.model->graphs.size() == 2);
    const auto bodies = r.model->graphs[0].layers[0].bodies;
    CHECK(std::vector<size_t>(bodies.begin(), bodies.end()) == std::vector<size_t>{1});
    CHECK(r.model->graphs[1].owner == "body of layer 0");
    CHECK(r.model->graphs[1].layers[0].name == "inner");
}

TEST_CASE("a document has one root element and no text beside it") {
    const ReadResult two =
        read("<?xml version=\"1.0\"?>\n<net version=\"11\"><layers/></net>\n<net version=\"11\"/>\n");
    CHECK(two.status == ReadStatus::failed);
    REQUIRE(two.diagnostics.size() == 1);
    CHECK(two.diagnostics[0].rule == "xml-malformed");
    CHECK(two.diagnostics[0].line == 3);
    CHECK(two.diagnostics[0].message.find("a second root element <net> after <net> of line 2") != std::string::npos);

    const ReadResult after = read("<net version=\"11\"><layers/></net>\n\njunk");
    CHECK(after.status == ReadStatus::failed);
    REQUIRE(after.diagnostics.size() == 1);
    CHECK(after.diagnostics[0].line == 3);
    CHECK(after.diagnostics[0].message == "malformed XML: text after the root element: 'junk'");

    const ReadResult before = read("junk<net version=\"11\"><layers/></net>");
    REQUIRE(before.diagnostics.size() == 1);
    CHECK(before.diagnostics[0].message == "malformed XML: text before the root element: 'junk'");

    const ReadResult empty = read("<?xml version=\"1.0\"?>\n<!-- nothing -->\n");
    REQUIRE(empty.diagnostics.size() == 1);
    CHECK(empty.diagnostics[0].message == "malformed XML: the document has no root element");

    // comments, processing instructions and white space after the root are well-formed
    CHECK(read("<net version=\"11\"><layers/></net>\n<!-- c -->\n<?pi x?>\n  \n").status == ReadStatus::ok);
}

TEST_CASE("line numbers across long lines, blank lines and the last partial block of 64 bytes") {
    // Line 2 is 300 bytes, so the layers after it start in later 64-byte blocks; every offset is asked for.
    std::string text = "<?xml version=\"1.0\"?>\n<!--" + std::string(293, 'c') + "-->\n<net name=\"m\" version=\"11\">\n\n";
    text += "<layers>\n";
    for (int i = 0; i < 40; ++i)
        text += "<layer id=\"" + std::to_string(i) + "\" name=\"l" + std::to_string(i) +
                "\" type=\"Relu\" version=\"opset1\"/>\n\n";
    text += "</layers><edges/></net>";
    const ReadResult r = read(text);
    REQUIRE(r.status == ReadStatus::ok);
    const Graph& g = r.model->graphs[0];
    REQUIRE(g.layers.size() == 40);
    for (int i = 0; i < 40; ++i) CHECK(g.layers[static_cast<size_t>(i)].line == 6 + 2 * i);
}

TEST_CASE("ids: canonical decimal numbers compare as integers, every other spelling as text") {
    CHECK(canonical_id_number("0") == 0);
    CHECK(canonical_id_number("17") == 17);
    CHECK(canonical_id_number("999999999") == 999999999);
    CHECK(canonical_id_number("1000000000") == -1);  // past 9 digits: kept as text
    CHECK(canonical_id_number("01") == -1);
    CHECK(canonical_id_number("+1") == -1);
    CHECK(canonical_id_number("-1") == -1);
    CHECK(canonical_id_number("") == -1);
    CHECK(canonical_id_number("x") == -1);
    CHECK(same_id("1", 1, "1", 1));
    CHECK_FALSE(same_id("1", 1, "01", -1));
    CHECK(same_id("01", -1, "01", -1));
    CHECK_FALSE(same_id("a", -1, "b", -1));
}

TEST_CASE("layer kinds are told without regard to case, as OpenVINO looks types up") {
    CHECK(layer_kind("Parameter") == LayerKind::parameter);
    CHECK(layer_kind("const") == LayerKind::constant);
    CHECK(layer_kind("RESULT") == LayerKind::result);
    CHECK(layer_kind("Assign") == LayerKind::assign);
    for (const char* pool : {"AvgPool", "maxpool", "AdaptiveAvgPool", "ADAPTIVEMAXPOOL"})
        CHECK(layer_kind(pool) == LayerKind::pooling);
    CHECK(layer_kind("Convolution") == LayerKind::other);
    CHECK(layer_kind("MaxPool2") == LayerKind::other);
    CHECK(layer_kind("") == LayerKind::other);
    CHECK(opset_number("opset8") == 8);
    CHECK_FALSE(opset_number("extension").has_value());
}

TEST_CASE("an edge between ids spelled 01 and 1 names two different layers") {
    std::string text = kPool;
    // Layer "01" is not layer "1": the edge to 01 names a layer that does not exist.
    text.replace(text.find("to-layer=\"1\""), 12, "to-layer=\"01\"");
    const ReadResult r = read(text);
    REQUIRE(r.status == ReadStatus::ok);
    CHECK(r.model->graphs[0].edges[0].to_layer == "01");
    CHECK(r.model->graphs[0].edges[0].to_layer_number == -1);
    CHECK(r.model->graphs[0].edges[1].from_layer_number == 1);
}

TEST_CASE("a .bin is read at exact offsets, and a read past its end or of a missing file fails") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "irlint-bin-file";
    fs::create_directories(dir);
    std::ofstream(dir / "m.bin", std::ios::binary) << "0123456789";
    BinFile bin((dir / "m.bin").string());
    char out[4] = {};
    REQUIRE(bin.read(3, out, 4));
    CHECK(std::string(out, 4) == "3456");
    REQUIRE(bin.read(0, out, 1));
    CHECK(out[0] == '0');
    CHECK_FALSE(bin.read(8, out, 4));
    BinFile missing((dir / "absent.bin").string());
    CHECK_FALSE(missing.read(0, out, 1));
    fs::remove_all(dir);
}
