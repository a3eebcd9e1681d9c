// TensorIterator, Loop and If, inferred from models read from text: the port maps and the bodies' declared
// shapes, as OpenVINO's type_prop tests for tensor_iterator, loop and if.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "ir/reader.hpp"
#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {

std::string dims(const std::vector<int64_t>& d) {
    std::string out;
    for (const int64_t x : d) out += fmt::format("<dim>{}</dim>", x);
    return out;
}

std::vector<int64_t> dims_of(const std::string& text) {
    std::vector<int64_t> out;
    for (size_t at = 0; at < text.size();) {
        const size_t comma = std::min(text.find(',', at), text.size());
        out.push_back(std::stoll(text.substr(at, comma - at)));
        at = comma + 1;
    }
    return out;
}

std::string port(int id, const std::vector<int64_t>& d, const char* precision = "FP32") {
    return fmt::format(R"(<port id="{}" precision="{}">{}</port>)", id, precision, dims(d));
}

std::string parameter(int id, const std::vector<int64_t>& d, const char* precision = "FP32") {
    return fmt::format(R"(<layer id="{}" name="p{}" type="Parameter" version="opset1"><data shape="" element_type="f32"/>
      <output>{}</output></layer>)",
                       id, id, port(0, d, precision));
}

std::string result(int id, const std::vector<int64_t>& d, const char* precision = "FP32") {
    return fmt::format(R"(<layer id="{}" name="r{}" type="Result" version="opset1"><input>{}</input></layer>)", id, id,
                       port(0, d, precision));
}

// A model whose layer 1 is `type` with the given ports, port map, back edges and bodies.
Model model_of(const std::string& type, const std::string& version, const std::string& inputs,
               const std::string& outputs, const std::string& inner, const std::string& path = "mem.xml") {
    const std::string text = fmt::format(R"(<?xml version="1.0"?>
<net name="m" version="11"><layers>
  <layer id="1" name="sub" type="{}" version="{}">
    <input>{}</input><output>{}</output>
    {}
  </layer>
</layers><edges/></net>
)",
                                         type, version, inputs, outputs, inner);
    ReadResult r = read_model_from_memory(text, path);
    REQUIRE(r.model);
    return std::move(*r.model);
}

std::string body(const std::string& name, const std::string& layers, const std::string& edges = "") {
    return fmt::format("<{0}><layers>{1}</layers><edges>{2}</edges></{0}>", name, layers, edges);
}

std::string edge(int from, int to) {
    return fmt::format(R"(<edge from-layer="{}" from-port="0" to-layer="{}" to-port="0"/>)", from, to);
}

// The RNN-like TensorIterator of OpenVINO's tests: X [32,40,10] sliced along axis 1 by part 1, a state fed
// back, the per-iteration output concatenated along axis 1 and the last state.
Model rnn_ti(const std::string& x_dims_text, const std::string& slice, const std::string& concat,
             const std::vector<int64_t>& body_out = {32, 1, 10}) {
    return model_of("TensorIterator", "opset1", x_dims_text + port(1, {32, 1, 10}),
                    port(2, {32, 40, 10}) + port(3, {32, 1, 10}),
                    R"(<port_map>
        <input external_port_id="0" internal_layer_id="0" )" + slice + R"(/>
        <input external_port_id="1" internal_layer_id="1"/>
        <output external_port_id="2" internal_layer_id="3" )" + concat + R"(/>
        <output external_port_id="3" internal_layer_id="4"/>
      </port_map>
      <back_edges><edge from-layer="4" to-layer="1"/></back_edges>)" +
                        body("body", parameter(0, {32, 1, 10}) + parameter(1, {32, 1, 10}) + result(3, body_out) +
                                         result(4, {32, 1, 10})));
}

}  // namespace

TEST_CASE("ops-sub: the reader keeps port maps and back edges with OpenVINO's defaults") {
    const Model m = rnn_ti(port(0, {32, 40, 10}), R"(axis="1" start="-1" end="0" stride="-1")", R"(axis="1")");
    const Layer& ti = m.graphs[0].layers[0];
    REQUIRE(ti.port_map.size() == 4);
    CHECK(ti.port_map[0].has_axis);
    CHECK(ti.port_map[0].start == -1);
    CHECK(ti.port_map[0].end == 0);
    CHECK(ti.port_map[0].stride == -1);
    CHECK(ti.port_map[0].part_size == 1);
    CHECK_FALSE(ti.port_map[1].has_axis);
    CHECK(ti.port_map[2].output);
    CHECK(ti.port_map[2].end == -1);
    CHECK(ti.port_map[3].internal_layer_id == 4);
    REQUIRE(ti.back_edges.size() == 1);
    CHECK(ti.back_edges[0].from_layer == 4);
    CHECK(ti.back_edges[0].to_layer == 1);
    CHECK(ti.back_edges[0].malformed.empty());  // the ports may be absent: OpenVINO reads only the layers
    CHECK(ti.back_edges[0].from_port == -1);
    REQUIRE(ti.bodies.size() == 1);
}

TEST_CASE("ops-sub: a malformed port map entry is kept and reported by the op") {
    const Model m = rnn_ti(port(0, {32, 40, 10}), R"(axis="one")", R"(axis="1")");
    CHECK(m.graphs[0].layers[0].port_map[0].malformed == "axis");
    const OpRun r = run_op_in_model(m, "1", 0);
    CHECK(r.problem().find("axis is missing or not an integer") != std::string::npos);
}

TEST_CASE("ops-sub: TensorIterator slices, concatenates and passes the last iteration on") {
    SUBCASE("forward") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, 40, 10}), R"(axis="1")", R"(axis="1")"), "1", 0);
        REQUIRE(r.ok());
        CHECK(r.str(0) == "[32,40,10]");
        CHECK(r.str(1) == "[32,1,10]");
        CHECK(r.outputs[0].type == ElementType::f32);
        CHECK_FALSE(r.unknown);
    }
    SUBCASE("reverse, start -1 end 0") {
        const OpRun r = run_op_in_model(
            rnn_ti(port(0, {32, 40, 10}), R"(axis="1" start="-1" end="0" stride="-1")", R"(axis="1" start="-1" end="0" stride="-1")"),
            "1", 0);
        CHECK(r.str(0) == "[32,40,10]");
    }
    SUBCASE("part_size 2: 20 iterations of 2") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, 40, 10}), R"(axis="1" part_size="2")", R"(axis="1" part_size="2")"), "1", 0);
        CHECK(r.str(0) == "[32,40,10]");
    }
    SUBCASE("part of the input: start 0 end 9") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, 40, 10}), R"(axis="1" end="9")", R"(axis="1")"), "1", 0);
        CHECK(r.str(0) == "[32,10,10]");
    }
    SUBCASE("a dynamic sliced dim: the concatenated dim is dynamic") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, -1, 10}), R"(axis="1")", R"(axis="1")"), "1", 0);
        CHECK(r.str(0) == "[32,?,10]");
        CHECK(r.str(1) == "[32,1,10]");
    }
    SUBCASE("a dynamic body output keeps its other dims") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, 40, 10}), R"(axis="1")", R"(axis="1")", {-1, 1, 10}), "1", 0);
        CHECK(r.str(0) == "[?,40,10]");
    }
}

TEST_CASE("ops-sub: TensorIterator rejects what OpenVINO rejects") {
    SUBCASE("part_size 0") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, 40, 10}), R"(axis="1" part_size="0")", R"(axis="1")"), "1", 0);
        CHECK(r.problem() == "port_map input (line 6): part_size 0 must be positive");
    }
    SUBCASE("axis out of range") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, 40, 10}), R"(axis="3")", R"(axis="1")"), "1", 0);
        CHECK(r.problem() == "port_map input (line 6): axis 3 is out of range [0, 2] for input 0 of rank 3");
    }
    SUBCASE("a negative axis of a sliced input") {
        const OpRun r = run_op_in_model(rnn_ti(port(0, {32, 40, 10}), R"(axis="-2")", R"(axis="1")"), "1", 0);
        CHECK(r.problem() == "port_map input (line 6): axis -2 must be >= 0");
    }
    SUBCASE("internal_layer_id names no Parameter") {
        const Model m = model_of("TensorIterator", "opset1", port(0, {2, 3}), port(1, {2, 3}),
                                 R"(<port_map><input external_port_id="0" internal_layer_id="7" axis="0"/>
                                    <output external_port_id="1" internal_layer_id="1"/></port_map>)" +
                                     body("body", parameter(0, {1, 3}) + result(1, {1, 3})));
        CHECK(run_op_in_model(m, "1", 0).problem() == "port_map input (line 5): internal_layer_id 7 is not a Parameter of the body");
    }
    SUBCASE("internal_layer_id names no Result") {
        const Model m = model_of("TensorIterator", "opset1", port(0, {2, 3}), port(1, {2, 3}),
                                 R"(<port_map><input external_port_id="0" internal_layer_id="0" axis="0"/>
                                    <output external_port_id="1" internal_layer_id="0"/></port_map>)" +
                                     body("body", parameter(0, {1, 3}) + result(1, {1, 3})));
        CHECK(run_op_in_model(m, "1", 0).problem() == "port_map output (line 6): internal_layer_id 0 is not a Result of the body");
    }
    SUBCASE("more outputs than described") {
        const Model m = model_of("TensorIterator", "opset1", port(0, {2, 3}), port(1, {2, 3}) + port(2, {2, 3}),
                                 R"(<port_map><input external_port_id="0" internal_layer_id="0" axis="0"/>
                                    <output external_port_id="1" internal_layer_id="1" axis="0"/></port_map>)" +
                                     body("body", parameter(0, {1, 3}) + result(1, {1, 3})));
        CHECK(run_op_in_model(m, "1", 0).problem() ==
              "the port map describes 1 outputs, the layer has 2 (the numbers must be equal)");
    }
    SUBCASE("no body") {
        const Model m = model_of("TensorIterator", "opset1", port(0, {2, 3}), port(1, {2, 3}), "");
        CHECK(run_op_in_model(m, "1", 0).problem() == "the layer has 0 bodies; TensorIterator needs one <body>");
    }
}

TEST_CASE("ops-sub: TensorIterator without a sliced input and without the model") {
    const Model m = model_of("TensorIterator", "opset1", port(0, {2, 3}), port(1, {4, 3}),
                             R"(<port_map><input external_port_id="0" internal_layer_id="0"/>
                                <output external_port_id="1" internal_layer_id="1" axis="0" start="0" end="4"/></port_map>)" +
                                 body("body", parameter(0, {2, 3}) + result(1, {2, 3})));
    const OpRun r = run_op_in_model(m, "1", 0);
    CHECK(r.str() == "[4,3]");  // |end - start| / part_size iterations of part_size
    const OpRun bare = run_op({"TensorIterator", 0, {}, {In("2,3")}, {}});
    CHECK(bare.ok());
    CHECK(bare.unknown == "the bodies are not available");
}

namespace {

// A Loop over X [1,2]: trip count, condition, X; the body's condition is a Parameter fed by input 1 (or by
// `condition_source`), its output the data concatenated along axis 0 and the last value.
Model loop(const std::string& trip_dims, const std::string& extra_port_map = "", const std::vector<int64_t>& x = {1, 2},
           const std::vector<int64_t>& last = {1, 2}) {
    return model_of("Loop", "opset5",
                    port(0, dims_of(trip_dims), "I64") + port(1, {}, "BOOL") + port(2, x),
                    port(3, {-1, 2}) + port(4, x),
                    R"(<port_map>
        <input external_port_id="1" internal_layer_id="1"/>
        <input external_port_id="2" internal_layer_id="0"/>
        <output external_port_id="-1" internal_layer_id="3" purpose="execution_condition"/>
        <output external_port_id="3" internal_layer_id="2" axis="0"/>
        <output external_port_id="4" internal_layer_id="4"/>)" +
                        extra_port_map + R"(</port_map>
      <back_edges><edge from-layer="4" to-layer="0"/></back_edges>)" +
                        body("body", parameter(0, x) + parameter(1, {}, "BOOL") + result(2, {1, 2}) +
                                         result(3, {}, "BOOL") + result(4, last),
                             edge(1, 3)));
}

}  // namespace

TEST_CASE("ops-sub: Loop's concatenated output has trip count times the body's dim") {
    SUBCASE("trip count 10, condition true") {
        const OpRun r = run_op_in_model(loop(""), "1", 5, {{0, V({10})}, {1, V({1})}});
        REQUIRE(r.ok());
        CHECK(r.str(0) == "[10,2]");
        CHECK(r.str(1) == "[1,2]");
        CHECK(r.outputs[0].type == ElementType::f32);
        CHECK_FALSE(r.unknown);
    }
    SUBCASE("unknown trip count: a dynamic dim, and the layer unchecked") {
        const OpRun r = run_op_in_model(loop(""), "1", 5, {{1, V({1})}});
        CHECK(r.str(0) == "[?,2]");
        CHECK(r.unknown);
    }
    SUBCASE("trip count -1 (no limit)") {
        const OpRun r = run_op_in_model(loop(""), "1", 5, {{0, V({-1})}, {1, V({1})}});
        CHECK(r.str(0) == "[?,2]");
    }
    SUBCASE("condition false: one pass, as do-while") {
        const OpRun r = run_op_in_model(loop(""), "1", 5, {{0, V({10})}, {1, V({0})}});
        CHECK(r.str(0) == "[0]");  // the Loop's own condition is false too: no iteration
    }
    SUBCASE("a back edge whose input differs: the dim is dynamic") {
        const OpRun r = run_op_in_model(loop("", "", {1, 3}, {1, 2}), "1", 5, {{0, V({3})}, {1, V({1})}});
        CHECK(r.str(0) == "[3,2]");
        CHECK(r.str(1) == "[1,?]");
        // a dynamic input that admits the body's output: the output stays
        CHECK(run_op_in_model(loop("", "", {1, -1}, {1, 2}), "1", 5, {{0, V({3})}, {1, V({1})}}).str(1) == "[1,2]");
    }
    SUBCASE("a back edge whose input has another rank") {
        const OpRun r = run_op_in_model(loop("", "", {1, 2, 1}, {1, 2}), "1", 5, {{0, V({3})}, {1, V({1})}});
        CHECK(r.ok());
        CHECK(r.str(1) == "[...]");
    }
    SUBCASE("no execution_condition: OpenVINO infers nothing") {
        const Model m = model_of("Loop", "opset5", port(0, {}, "I64") + port(1, {}, "BOOL"), port(2, {-1, 2}),
                                 R"(<port_map><output external_port_id="2" internal_layer_id="0" axis="0"/></port_map>)" +
                                     body("body", result(0, {1, 2})));
        const OpRun r = run_op_in_model(m, "1", 5);
        CHECK(r.ok());
        CHECK(r.str() == "[...]");
        CHECK(r.unknown);
    }
}

TEST_CASE("ops-sub: Loop whose body condition is a Const") {
    const auto dir = std::filesystem::temp_directory_path();
    const std::string xml = (dir / "irlint_ops_sub_loop.xml").string();
    const std::string const_body = result(0, {1, 2}) + result(1, {}, "BOOL") +
                                   R"(<layer id="2" name="c" type="Const" version="opset1">
          <data element_type="boolean" shape="" offset="0" size="1"/><output>)" +
                                   port(0, {}, "BOOL") + "</output></layer>";
    const std::string map = R"(<port_map>
        <output external_port_id="-1" internal_layer_id="1" purpose="execution_condition"/>
        <output external_port_id="2" internal_layer_id="0" axis="0"/></port_map>)";
    for (const char byte : {'\1', '\0'}) {
        std::ofstream((dir / "irlint_ops_sub_loop.bin").string(), std::ios::binary).put(byte);
        const Model m = model_of("Loop", "opset5", port(0, {}, "I64") + port(1, {}, "BOOL"), port(2, {-1, 2}),
                                 map + body("body", const_body, edge(2, 1)), xml);
        const OpRun r = run_op_in_model(m, "1", 5, {{0, V({4})}, {1, V({1})}});
        CHECK(r.ok());
        CHECK_FALSE(r.unknown);
        CHECK(r.str() == (byte ? "[4,2]" : "[1,2]"));  // true: the trip count; false: one pass
    }
    std::filesystem::remove(dir / "irlint_ops_sub_loop.bin");
}

TEST_CASE("ops-sub: Loop whose body condition is a Const irlint cannot read") {
    const Model m = model_of("Loop", "opset5", port(0, {}, "I64") + port(1, {}, "BOOL"), port(2, {-1, 2}),
                             R"(<port_map>
        <output external_port_id="-1" internal_layer_id="1" purpose="execution_condition"/>
        <output external_port_id="2" internal_layer_id="0" axis="0"/></port_map>)" +
                                 body("body", result(0, {1, 2}) + result(1, {}, "BOOL") +
                                                  R"(<layer id="2" name="c" type="Const" version="opset1">
          <data element_type="boolean" shape="" offset="0" size="1"/><output>)" +
                                                  port(0, {}, "BOOL") + "</output></layer>",
                                      edge(2, 1)));
    const OpRun r = run_op_in_model(m, "1", 5, {{0, V({4})}, {1, V({1})}});
    CHECK(r.ok());
    CHECK(r.str() == "[?,2]");  // no .bin beside the text: OpenVINO would know it, irlint does not
    CHECK(r.unknown);
}

TEST_CASE("ops-sub: Loop rejects what OpenVINO rejects") {
    SUBCASE("a trip count of rank 2") {
        const OpRun r = run_op_in_model(loop("1,1"), "1", 5, {{1, V({1})}});
        CHECK(r.problem() == "the rank of the trip count (input 0) is 2; it must be 0 or 1");
    }
    SUBCASE("two values of the trip count") {
        const OpRun r = run_op_in_model(loop("2"), "1", 5, {{0, V({1, 2})}, {1, V({1})}});
        CHECK(r.problem() == "the trip count (input 0) holds 2 values; it must hold one");
    }
    SUBCASE("a concatenation axis out of range") {
        const Model m = model_of("Loop", "opset5", port(0, {}, "I64") + port(1, {}, "BOOL"), port(2, {-1, 2}),
                                 R"(<port_map>
            <output external_port_id="-1" internal_layer_id="1" purpose="execution_condition"/>
            <output external_port_id="2" internal_layer_id="0" axis="2"/></port_map>)" +
                                     body("body", result(0, {1, 2}) + result(1, {}, "BOOL")));
        CHECK(run_op_in_model(m, "1", 5).problem() == "port_map output (line 7): axis 2 is out of range [-2, 1]");
    }
}

namespace {

Model if_model(const std::vector<int64_t>& then_dims, const std::vector<int64_t>& else_dims,
               const char* else_precision = "FP32") {
    return model_of("If", "opset8", port(0, {}, "BOOL") + port(1, {2, 3}), port(2, {2, 3}),
                    R"(<then_port_map><input external_port_id="1" internal_layer_id="0"/>
                         <output external_port_id="0" internal_layer_id="1"/></then_port_map>
                       <else_port_map><input external_port_id="1" internal_layer_id="0"/>
                         <output external_port_id="0" internal_layer_id="1"/></else_port_map>)" +
                        body("then_body", parameter(0, {2, 3}) + result(1, then_dims)) +
                        body("else_body", parameter(0, {2, 3}) + result(1, else_dims, else_precision)));
}

}  // namespace

TEST_CASE("ops-sub: If unites the outputs of its bodies") {
    CHECK(run_op_in_model(if_model({2, 3}, {2, 3}), "1", 8).str() == "[2,3]");
    CHECK(run_op_in_model(if_model({2, 3}, {2, 5}), "1", 8).str() == "[2,3..5]");
    CHECK(run_op_in_model(if_model({2, -1}, {2, 5}), "1", 8).str() == "[2,?]");
    CHECK(run_op_in_model(if_model({2, 3}, {2, 3, 1}), "1", 8).str() == "[...]");
    CHECK(run_op_in_model(if_model({}, {4}), "1", 8).str() == "[?]");
    const OpRun typed = run_op_in_model(if_model({2, 3}, {2, 3}), "1", 8);
    CHECK(typed.outputs[0].type == ElementType::f32);
}

TEST_CASE("ops-sub: If with a known condition takes that body's outputs") {
    CHECK(run_op_in_model(if_model({2, 3}, {2, 5}), "1", 8, {{0, V({1})}}).str() == "[2,3]");
    CHECK(run_op_in_model(if_model({2, 3}, {2, 5}), "1", 8, {{0, V({0})}}).str() == "[2,5]");
}

TEST_CASE("ops-sub: If rejects what OpenVINO rejects") {
    CHECK(run_op_in_model(if_model({2, 3}, {2, 3}, "I32"), "1", 8).problem() ==
          "output 0: the then_body gives f32 and the else_body i32; the types must be equal");
    CHECK(run_op_in_model(if_model({2, 3}, {2, 3}), "1", 8, {{0, V({1, 0})}}).problem() ==
          "the condition (input 0) holds 2 values; it must hold one");
    const Model one_body = model_of("If", "opset8", port(0, {}, "BOOL"), port(1, {2}),
                                    body("then_body", result(0, {2})));
    CHECK(run_op_in_model(one_body, "1", 8).problem() ==
          "the layer has 1 bodies; If needs a <then_body> and an <else_body>");
}
