// run on one IR layer: which outputs a layer has, and how an expected or save list that names fewer files
// than there are outputs (an empty path: not compared) is taken.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "exec/ir_layer.hpp"
#include "exec/io/npy.hpp"
#include "ir/reader.hpp"

using namespace irlint;
namespace fs = std::filesystem;

namespace {

const char* kPort4x4 = "<dim>1</dim><dim>1</dim><dim>4</dim><dim>4</dim>";
const char* kPort2x2 = "<dim>1</dim><dim>1</dim><dim>2</dim><dim>2</dim>";

// Parameter [1,1,4,4] -> MaxPool kernel 2 stride 2 of `version` with the given output ports -> Result.
std::string maxpool_model(const std::string& version, const std::string& output_ports) {
    return std::string(R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data element_type="f32" shape="1,1,4,4"/>
  <output><port id="0" precision="FP32">)") + kPort4x4 + R"(</port></output></layer>
<layer id="1" name="pool" type="MaxPool" version=")" + version + R"(">
  <data kernel="2,2" strides="2,2" pads_begin="0,0" pads_end="0,0" rounding_type="floor" auto_pad="explicit"/>
  <input><port id="0" precision="FP32">)" + kPort4x4 + R"(</port></input>
  <output>)" + output_ports + R"(</output></layer>
<layer id="2" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32">)" + kPort2x2 + R"(</port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
</edges></net>)";
}

std::string values_port() { return std::string(R"(<port id="1" precision="FP32">)") + kPort2x2 + "</port>"; }
std::string indices_port() { return std::string(R"(<port id="2" precision="I64">)") + kPort2x2 + "</port>"; }

struct Checked {
    Model model;
    ModelReport report;
    const LayerShapes& pool() const { return report.layers.at(1); }
};

Checked checked(const std::string& xml) {
    ReadResult r = read_model_from_memory(xml, "mem.xml");
    REQUIRE(r.model);
    Checked c{std::move(*r.model), {}};
    c.report = check_model(c.model);
    REQUIRE(c.report.layers.size() == 3);
    REQUIRE(is_runnable(c.pool()));
    return c;
}

// A directory with x.npy ([1,1,4,4], 0..15) and y.npy (its 2x2 max pool), removed at the end.
struct Dumps {
    fs::path dir = fs::temp_directory_path() / ("irlint-layer-run-" + std::to_string(::getpid()));
    Dumps() {
        fs::create_directories(dir);
        Tensor x(ElementType::f32, {1, 1, 4, 4});
        for (size_t i = 0; i < 16; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
        Tensor y(ElementType::f32, {1, 1, 2, 2});
        const float maxima[4] = {5, 7, 13, 15};
        std::memcpy(y.mutable_bytes(), maxima, sizeof maxima);
        REQUIRE_FALSE(write_npy(input(), x).has_value());
        REQUIRE_FALSE(write_npy(values(), y).has_value());
    }
    ~Dumps() { fs::remove_all(dir); }
    std::string input() const { return (dir / "x.npy").string(); }
    std::string values() const { return (dir / "y.npy").string(); }
};

}  // namespace

TEST_CASE("run: a layer has the outputs its op computes and it declares a port for") {
    CHECK(layer_output_count(checked(maxpool_model("opset1", values_port())).pool()) == 1);
    CHECK(layer_output_count(checked(maxpool_model("opset8", values_port() + indices_port())).pool()) == 2);
    // A MaxPool-8 declaring only its values port is an ir-structure finding; run still takes it at its word.
    CHECK(layer_output_count(checked(maxpool_model("opset8", values_port())).pool()) == 1);
}

TEST_CASE("run: an empty path names no file, so it is never one too many") {
    RunRequest r;
    r.expect_paths = {"y.npy", ""};
    r.save_paths = {"", "", ""};
    CHECK_FALSE(excess_files(r, 1, "MaxPool-1"));
    r.expect_paths = {"", "i.npy"};
    const auto excess = excess_files(r, 1, "MaxPool-1");
    REQUIRE(excess);
    CHECK(*excess == "MaxPool-1 has 1 output; more --expect or --save files were given");
    CHECK_FALSE(excess_files(r, 2, "MaxPool-8"));
}

TEST_CASE("run: a missing expected file leaves that output uncompared") {
    const Dumps dumps;
    RunRequest request;
    request.input_path = dumps.input();
    request.expect_paths = {dumps.values(), ""};

    const Checked maxpool1 = checked(maxpool_model("opset1", values_port()));
    const LayerRun one = run_layer(maxpool1.pool(), request);
    CHECK(one.status == RunStatus::ok);
    CHECK(one.error.empty());
    REQUIRE(one.outputs.size() == 1);
    CHECK(one.outputs[0].compared());

    const Checked maxpool8 = checked(maxpool_model("opset8", values_port() + indices_port()));
    const LayerRun two = run_layer(maxpool8.pool(), request);
    CHECK(two.status == RunStatus::ok);
    REQUIRE(two.outputs.size() == 2);
    CHECK(two.outputs[0].compared());
    CHECK_FALSE(two.outputs[1].compared());
    CHECK(two.outputs[1].role == "indices");

    request.expect_paths = {"", dumps.values()};  // the values file given as the indices: one too many for opset1
    const LayerRun excess = run_layer(maxpool1.pool(), request);
    CHECK(excess.status == RunStatus::error);
    CHECK(excess.error == "MaxPool-1 has 1 output; more --expect or --save files were given");
}
