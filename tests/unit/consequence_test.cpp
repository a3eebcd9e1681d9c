#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ir/reader.hpp"
#include "ir/rewrite.hpp"
#include "report/report.hpp"
#include "report/report_reader.hpp"
#include "report/unified_diff.hpp"
#include "rules/engine.hpp"
#include "rules/fixes.hpp"

using namespace irlint;

namespace {

std::string dims(const std::vector<int64_t>& v) {
    std::string out;
    for (int64_t d : v) out += "<dim>" + std::to_string(d) + "</dim>";
    return out;
}

std::string port(int id, const std::vector<int64_t>& d, const std::string& precision = "FP32") {
    return "<port id=\"" + std::to_string(id) + "\" precision=\"" + precision + "\">" + dims(d) + "</port>";
}

std::string parameter(int id, const std::string& name, const std::vector<int64_t>& d) {
    std::string shape;
    for (int64_t v : d) shape += (shape.empty() ? "" : ",") + std::to_string(v);
    return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name +
           "\" type=\"Parameter\" version=\"opset1\"><data element_type=\"f32\" shape=\"" + shape +
           "\"/><output>" + port(0, d) + "</output></layer>";
}

// A layer of opset1 with its inputs on ports 0.. and its outputs on the ports after them.
std::string layer(int id, const std::string& name, const std::string& type, const std::string& data,
                  const std::vector<std::vector<int64_t>>& ins, const std::vector<std::vector<int64_t>>& outs) {
    std::string s = "<layer id=\"" + std::to_string(id) + "\" name=\"" + name + "\" type=\"" + type +
                    "\" version=\"opset1\">" + (data.empty() ? "" : "<data " + data + "/>");
    int p = 0;
    if (!ins.empty()) {
        s += "<input>";
        for (const auto& d : ins) s += port(p++, d);
        s += "</input>";
    }
    if (!outs.empty()) {
        s += "<output>";
        for (const auto& d : outs) s += port(p++, d);
        s += "</output>";
    }
    return s + "</layer>";
}

std::string result(int id, const std::string& name, const std::vector<int64_t>& d) {
    return layer(id, name, "Result", "", {d}, {});
}

std::string edge(int from, int from_port, int to, int to_port) {
    return "<edge from-layer=\"" + std::to_string(from) + "\" from-port=\"" + std::to_string(from_port) +
           "\" to-layer=\"" + std::to_string(to) + "\" to-port=\"" + std::to_string(to_port) + "\"/>";
}

std::string net(const std::vector<std::string>& layers, const std::vector<std::string>& edges) {
    std::string s = "<net version=\"11\"><layers>";
    for (const auto& l : layers) s += l;
    s += "</layers><edges>";
    for (const auto& e : edges) s += e;
    return s + "</edges></net>";
}

ModelReport check(const std::string& xml) {
    ReadResult r = read_model_from_memory(xml, "mem.xml");
    REQUIRE(r.model);
    return check_model(*r.model);
}

std::vector<const Diagnostic*> mismatches(const ModelReport& r) {
    std::vector<const Diagnostic*> out;
    for (const Diagnostic& d : r.diagnostics)
        if (d.rule == "output-shape-mismatch" || d.rule == "output-type-mismatch") out.push_back(&d);
    return out;
}

const std::string kMatMul = R"(transpose_a="false" transpose_b="false")";

}  // namespace

TEST_CASE("consequence: a MatMul of a 1-D input declared [1,256] that an Add broadcasts back is absorbed") {
    const ModelReport r = check(net(
        {parameter(0, "x", {64}), parameter(1, "w", {64, 256}),
         layer(2, "MatMul_0", "MatMul", kMatMul, {{64}, {64, 256}}, {{1, 256}}), parameter(3, "b", {1, 256}),
         layer(4, "Add_1", "Add", R"(auto_broadcast="numpy")", {{1, 256}, {1, 256}}, {{1, 256}}),
         result(5, "logits", {1, 256})},
        {edge(0, 0, 2, 0), edge(1, 0, 2, 1), edge(2, 2, 4, 0), edge(3, 0, 4, 1), edge(4, 2, 5, 0)}));
    const auto found = mismatches(r);
    REQUIRE(found.size() == 1);
    const Diagnostic& d = *found[0];
    CHECK(d.severity == Severity::warning);
    REQUIRE(d.consequence);
    CHECK(d.consequence->kind == Consequence::Kind::absorbed);
    CHECK(d.consequence->by == LayerRef{"4", "Add_1", "Add"});
    CHECK(d.message.ends_with("; absorbed: layer 4 'Add_1' (Add) broadcasts [256] and [1,256] to the declared [1,256]; "
                              "the model's outputs are as declared"));
}

TEST_CASE("consequence: a stale dim that the model returns reaches the output, through every layer it changes") {
    const ModelReport r = check(net(
        {parameter(0, "x", {1, 64}), parameter(1, "w", {64, 1001}),
         layer(2, "MatMul_0", "MatMul", kMatMul, {{1, 64}, {64, 1001}}, {{1, 1000}}),
         layer(3, "Relu_1", "Relu", "", {{1, 1000}}, {{1, 1000}}), layer(4, "Relu_2", "Relu", "", {{1, 1000}}, {{1, 1000}}),
         result(5, "logits", {1, 1000})},
        {edge(0, 0, 2, 0), edge(1, 0, 2, 1), edge(2, 2, 3, 0), edge(3, 1, 4, 0), edge(4, 1, 5, 0)}));
    const auto found = mismatches(r);
    REQUIRE(found.size() == 3);  // each stale layer on the way is a finding of its own
    for (const Diagnostic* d : found) {
        CHECK(d->severity == Severity::error);
        REQUIRE(d->consequence);
        CHECK(d->consequence->kind == Consequence::Kind::reaches);
        CHECK(d->consequence->outputs == std::vector<std::string>{"logits"});
    }
    CHECK(found[0]->consequence->layers == 3);
    CHECK(found[2]->consequence->layers == 1);
    CHECK(found[0]->message.ends_with("; reaches output 'logits': [1,1000] becomes [1,1001] through 3 layers"));
}

TEST_CASE("consequence: a stale dim that a Concat cannot join breaks it; a break outweighs an output reached") {
    const ModelReport r = check(net(
        {parameter(0, "x", {1, 64}), parameter(1, "w", {64, 257}),
         layer(2, "MatMul_0", "MatMul", kMatMul, {{1, 64}, {64, 257}}, {{1, 256}}), parameter(3, "row", {1, 256}),
         layer(4, "Concat_3", "Concat", R"(axis="0")", {{1, 256}, {1, 256}}, {{2, 256}}), result(5, "out", {2, 256}),
         result(6, "direct", {1, 256})},
        {edge(0, 0, 2, 0), edge(1, 0, 2, 1), edge(2, 2, 4, 0), edge(3, 0, 4, 1), edge(4, 2, 5, 0), edge(2, 2, 6, 0)}));
    const auto found = mismatches(r);
    REQUIRE(found.size() == 1);
    REQUIRE(found[0]->consequence);
    CHECK(found[0]->severity == Severity::error);
    CHECK(found[0]->consequence->kind == Consequence::Kind::breaks);
    CHECK(found[0]->consequence->by == LayerRef{"4", "Concat_3", "Concat"});
    CHECK(found[0]->message.find("; layer 4 'Concat_3' (Concat) then fails: Concat-0: input 1 [1,256]") !=
          std::string::npos);
}

TEST_CASE("consequence: a change absorbed on one path and returned on another reaches the output") {
    const ModelReport r = check(net(
        {parameter(0, "x", {64}), parameter(1, "w", {64, 256}),
         layer(2, "MatMul_0", "MatMul", kMatMul, {{64}, {64, 256}}, {{1, 256}}), parameter(3, "b", {1, 256}),
         layer(4, "Add_1", "Add", "", {{1, 256}, {1, 256}}, {{1, 256}}), result(5, "sum", {1, 256}),
         result(6, "raw", {1, 256})},
        {edge(0, 0, 2, 0), edge(1, 0, 2, 1), edge(2, 2, 4, 0), edge(3, 0, 4, 1), edge(4, 2, 5, 0), edge(2, 2, 6, 0)}));
    const auto found = mismatches(r);
    REQUIRE(found.size() == 1);
    REQUIRE(found[0]->consequence);
    CHECK(found[0]->severity == Severity::error);
    CHECK(found[0]->consequence->outputs == std::vector<std::string>{"raw"});
    CHECK(found[0]->consequence->layers == 1);
}

TEST_CASE("consequence: a change that enters a layer irlint cannot infer keeps the error and says nothing") {
    const ModelReport r = check(net(
        {parameter(0, "x", {64}), parameter(1, "w", {64, 256}),
         layer(2, "MatMul_0", "MatMul", kMatMul, {{64}, {64, 256}}, {{1, 256}}),
         layer(3, "custom", "NoSuchOp", "", {{1, 256}}, {{1, 256}}), result(4, "out", {1, 256})},
        {edge(0, 0, 2, 0), edge(1, 0, 2, 1), edge(2, 2, 3, 0), edge(3, 1, 4, 0)}));
    const auto found = mismatches(r);
    REQUIRE(found.size() == 1);
    CHECK(found[0]->severity == Severity::error);
    CHECK_FALSE(found[0]->consequence);
}

TEST_CASE("consequence: the JSON report carries each kind and reads it back") {
    FileResult f;
    f.path = "m.xml";
    f.layers = 4;
    Diagnostic absorbed{Severity::warning, "output-shape-mismatch", "absorbed", 3, {"2", "mm", "MatMul"}};
    absorbed.consequence = Consequence{Consequence::Kind::absorbed, {"4", "Add_1", "Add"}};
    Diagnostic reaches{Severity::error, "output-shape-mismatch", "reaches", 5, {"3", "r", "Relu"}};
    reaches.consequence = Consequence{Consequence::Kind::reaches, {}, {"logits", "boxes"}, 12};
    Diagnostic breaks{Severity::error, "output-type-mismatch", "breaks", 7, {"5", "c", "Convert"}};
    breaks.consequence = Consequence{Consequence::Kind::breaks, {"9", "Concat_3", "Concat"}};
    f.diagnostics = {absorbed, reaches, breaks};
    const std::string json = render_report("json", {}, {f});
    CHECK(json.find(R"("consequence":{"kind":"absorbed","by":{"id":"4","name":"Add_1","type":"Add"}})") !=
          std::string::npos);
    CHECK(json.find(R"("consequence":{"kind":"reaches","outputs":["logits","boxes"],"layers":12})") != std::string::npos);
    CHECK(json.find(R"("consequence":{"kind":"breaks","by":{"id":"9","name":"Concat_3","type":"Concat"}})") !=
          std::string::npos);
    std::string error;
    const auto back = read_check_report(json, error);
    REQUIRE_MESSAGE(back.has_value(), error);
    CHECK(back->files.at(0).diagnostics == f.diagnostics);

    std::string bad = json;
    bad.replace(bad.find("\"kind\":\"breaks\""), 15, "\"kind\":\"spills\"");
    CHECK_FALSE(read_check_report(bad, error).has_value());
    CHECK(error == "files[0].diagnostics[2].consequence.kind: expected \"absorbed\", \"reaches\" or \"breaks\", found "
                   "\"spills\"");
}

namespace {

// The Model Optimizer 2020.1 case as OpenVINO writes an IR, one <dim> per line: MatMul_0 declares [1,256] on a
// 1-D input's product, OpenVINO infers [256], and Add_1 broadcasts it back to [1,256].
std::string absorbed_file() {
    std::ifstream file(IRLINT_TESTDATA "/broken/consequence_absorbed_matmul.xml", std::ios::binary);
    REQUIRE(file);
    return std::string(std::istreambuf_iterator<char>(file), {});
}

std::string fixed_text(const std::string& text) {
    ReadResult read = read_model_from_memory(text, "m.xml");
    REQUIRE(read.model);
    const ModelReport report = check_model(*read.model);
    const FixPlan plan = plan_fixes(*read.model, report, report.diagnostics);
    std::vector<PortRewrite> rewrites;
    for (const PortFix& f : plan.ports) rewrites.push_back({f.port, f.dims, f.precision});
    std::string error;
    const auto edits = plan_text_edits(*read.model, text, rewrites, error);
    REQUIRE_MESSAGE(edits, error);
    return apply_text_edits(text, *edits);
}

}  // namespace

TEST_CASE("consequence: --fix writes an absorbed finding's dims of another rank, on the port and its consumer") {
    const std::string text = absorbed_file();
    const std::string fixed = fixed_text(text);
    std::string expected = text;
    for (int k = 0; k < 2; ++k) {  // the MatMul's output, then the Add's input 0
        const size_t at = expected.find("\t\t\t\t\t<dim>1</dim>\n\t\t\t\t\t<dim>256</dim>", expected.find(k ? "name=\"Add_1\"" : "name=\"MatMul_0\""));
        expected.erase(at, std::string("\t\t\t\t\t<dim>1</dim>\n").size());
    }
    CHECK(fixed == expected);
    // Fixed, the file is clean: the Add broadcasts [256] with [1,256] as it declares.
    ReadResult again = read_model_from_memory(fixed, "m.xml");
    REQUIRE(again.model);
    const ModelReport report = check_model(*again.model);
    CHECK(std::none_of(report.diagnostics.begin(), report.diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity != Severity::note; }));
    // The diff removes the two lines.
    const std::string diff = unified_diff("m.xml", text, fixed);
    CHECK(diff.find("@@ -32,7 +32,6 @@\n \t\t\t</input>\n \t\t\t<output>\n \t\t\t\t<port id=\"2\" precision=\"FP32\">\n"
                    "-\t\t\t\t\t<dim>1</dim>\n \t\t\t\t\t<dim>256</dim>\n") != std::string::npos);
    CHECK(diff.find("@@ -50,7 +49,6 @@") != std::string::npos);
}

TEST_CASE("consequence: a rank that differs is not fixed for a finding that is not absorbed") {
    ReadResult read = read_model_from_memory(absorbed_file(), "m.xml");
    REQUIRE(read.model);
    const ModelReport report = check_model(*read.model);
    Diagnostics as_error = report.diagnostics;
    for (Diagnostic& d : as_error) d.consequence.reset();  // as if the change went somewhere irlint cannot follow
    CHECK(plan_fixes(*read.model, report, as_error).ports.empty());
    CHECK(plan_fixes(*read.model, report, report.diagnostics).ports.size() == 2);
}
