// --fix: the plan (which ports get which values), the in-place text edits and the unified diff.
#include <doctest/doctest.h>

#include <string>

#include "ir/reader.hpp"
#include "ir/rewrite.hpp"
#include "report/unified_diff.hpp"
#include "rules/engine.hpp"
#include "rules/fixes.hpp"
#include "rules/registry.hpp"
#include "text_util.hpp"

using namespace irlint;
using irlint::test::occurrences;

namespace {

// Parameter [1,8,16,16] -> MaxPool-8 k2 s2 (outputs declared as given) -> two Results. `eol` ends each
// line ("\n" or "\r\n"); `values_precision` is the values port's precision as written.
std::string pool_model(const std::string& values_dims, const std::string& indices_precision,
                       const std::string& eol = "\n", const std::string& values_precision = "FP32") {
    const std::string text = R"(<?xml version="1.0"?>
<!-- a comment that must survive -->
<net name="m" version="11">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data shape="1,8,16,16" element_type="f32"/>
			<output>
				<port id="0" precision="FP32"><dim>1</dim><dim>8</dim><dim>16</dim><dim>16</dim></port>
			</output>
		</layer>
		<layer id="1" name="pool" type="MaxPool" version="opset8">
			<data kernel="2,2" strides="2,2" dilations="1,1" pads_begin="0,0" pads_end="0,0" rounding_type="floor" auto_pad="explicit" index_element_type="i64" axis="0"/>
			<input>
				<port id="0" precision="FP32"><dim>1</dim><dim>8</dim><dim>16</dim><dim>16</dim></port>
			</input>
			<output>
				<port id="1" precision=')" + values_precision + R"('>
					<dim>1</dim>
					<dim>8</dim>
					)" + values_dims + R"(
				</port>
				<port id="2" precision=")" + indices_precision + R"(">
					<dim>1</dim><dim>8</dim><dim>8</dim><dim>8</dim>
				</port>
			</output>
		</layer>
		<layer id="2" name="values" type="Result" version="opset1">
			<input>
				<port id="0" precision=')" + values_precision + R"('>
					<dim>1</dim>
					<dim>8</dim>
					)" + values_dims + R"(
				</port>
			</input>
		</layer>
		<layer id="3" name="indices" type="Result" version="opset1">
			<input>
				<port id="0" precision="I64"><dim>1</dim><dim>8</dim><dim>8</dim><dim>8</dim></port>
			</input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
		<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
		<edge from-layer="1" from-port="2" to-layer="3" to-port="0"/>
	</edges>
</net>
)";
    if (eol == "\n") return text;
    std::string out;
    for (char c : text) {
        if (c == '\n') out += eol;
        else out += c;
    }
    return out;
}

struct Fixed {
    ReadResult read;  // the model the plan points into
    FixPlan plan;
    std::string text;  // after the edits
    std::string error;
};

Fixed fix(const std::string& text) {
    Fixed out;
    out.read = read_model_from_memory(text, "m.xml");
    REQUIRE(out.read.model);
    const Model& model = *out.read.model;
    const ModelReport report = check_model(model);
    out.plan = plan_fixes(model, report, report.diagnostics);
    std::vector<PortRewrite> rewrites;
    for (const PortFix& f : out.plan.ports) rewrites.push_back({f.port, f.dims, f.precision});
    const auto edits = plan_text_edits(model, text, rewrites, out.error);
    out.text = edits ? apply_text_edits(text, *edits) : text;
    return out;
}


}  // namespace

TEST_CASE("the plan rewrites a pooling output's dims and the consumer's input port, nothing else") {
    const Fixed f = fix(pool_model("<dim>9</dim>\n\t\t\t\t\t<dim>8</dim>", "I64"));
    REQUIRE(f.error.empty());
    REQUIRE(f.plan.ports.size() == 2);
    CHECK(f.plan.findings == 1);
    CHECK(f.plan.ports[0].layer->name == "values");  // the consumer, planned with its producer
    CHECK(f.plan.ports[1].layer->name == "pool");
    for (const PortFix& p : f.plan.ports) {
        REQUIRE(p.dims);
        CHECK(*p.dims == std::vector<int64_t>{1, 8, 8, 8});
        CHECK_FALSE(p.precision);
    }
    // Byte for byte: the fixed text is the original with "9" replaced by "8" twice.
    const std::string expected = pool_model("<dim>8</dim>\n\t\t\t\t\t<dim>8</dim>", "I64");
    CHECK(f.text == expected);
}

TEST_CASE("a wrong index precision is rewritten in the file's spelling, on both ends of the edge") {
    std::string text = pool_model("<dim>8</dim>\n\t\t\t\t\t<dim>8</dim>", "FP32");
    const Fixed f = fix(text);
    REQUIRE(f.error.empty());
    CHECK(f.plan.findings == 1);
    // The Result's input already said I64: only the pool's port changes.
    CHECK(occurrences(f.text, R"(precision="I64")") == 2);
    CHECK(occurrences(f.text, R"(precision="FP32")") == occurrences(text, R"(precision="FP32")") - 1);

    const std::string lower = pool_model("<dim>8</dim>\n\t\t\t\t\t<dim>8</dim>", "f32");
    CHECK(fix(lower).text.find(R"(<port id="2" precision="i64">)") != std::string::npos);
}

TEST_CASE("single quotes, CRLF line ends and comments stay as they were") {
    const std::string text = pool_model("<dim>7</dim>\n\t\t\t\t\t<dim>8</dim>", "I64", "\r\n", "FP32");
    const Fixed f = fix(text);
    REQUIRE(f.error.empty());
    CHECK(f.text == pool_model("<dim>8</dim>\n\t\t\t\t\t<dim>8</dim>", "I64", "\r\n", "FP32"));
    CHECK(occurrences(f.text, "\r\n") == occurrences(text, "\r\n"));
    CHECK(f.text.find("<!-- a comment that must survive -->") != std::string::npos);
}

TEST_CASE("a rule the run does not report is not fixed") {
    const std::string text = pool_model("<dim>9</dim>\n\t\t\t\t\t<dim>8</dim>", "FP32");
    ReadResult read = read_model_from_memory(text, "m.xml");
    REQUIRE(read.model);
    const ModelReport report = check_model(*read.model);
    Diagnostics only_types;
    for (const Diagnostic& d : report.diagnostics)
        if (d.rule == rule::output_type_mismatch.id) only_types.push_back(d);
    REQUIRE_FALSE(only_types.empty());
    const FixPlan plan = plan_fixes(*read.model, report, only_types);
    REQUIRE(plan.ports.size() == 1);
    CHECK_FALSE(plan.ports[0].dims);
    REQUIRE(plan.ports[0].precision);
    CHECK(*plan.ports[0].precision == ElementType::i64);
}

TEST_CASE("dynamic inferred dims or another rank are not fixed") {
    // A rank-3 declaration of a rank-4 output: the finding stays for a person to decide.
    const Fixed f = fix(pool_model("<dim>8</dim>", "I64"));
    CHECK(f.plan.ports.empty());
}

TEST_CASE("structural errors block fixing") {
    Diagnostics ds{make_finding(rule::ir_structure, "edge to a missing layer", 3)};
    CHECK(blocks_fixing(ds));
    ds[0].severity = Severity::warning;  // a newer opset than irlint knows: the file is still readable
    CHECK_FALSE(blocks_fixing(ds));
    CHECK(blocks_fixing({make_finding(rule::xml_malformed, "bad", 1)}));
    CHECK_FALSE(blocks_fixing({make_finding(rule::output_shape_mismatch, "x", 1)}));
}

TEST_CASE("a <dim> that is not a plain number is not rewritten") {
    // OpenVINO reads the character reference as 8; the fix would have to decide how to write it back.
    const std::string text = pool_model("<dim>9</dim>\n\t\t\t\t\t<dim>&#56;</dim>", "I64");
    const Fixed f = fix(text);
    CHECK(f.error.find("<dim>") != std::string::npos);
    CHECK(f.text == text);
}

TEST_CASE("text edits splice replacements of other lengths and keep every other byte") {
    const std::string text = "ab<dim>16</dim>cd<dim>7</dim>";
    const std::string out = apply_text_edits(text, {{22, 1, "10"}, {7, 2, "8"}});
    CHECK(out == "ab<dim>8</dim>cd<dim>10</dim>");
}

TEST_CASE("the unified diff has git's headers, three lines of context and merged hunks") {
    std::string before, after;
    for (int i = 1; i <= 20; ++i) {
        before += "line " + std::to_string(i) + "\n";
        after += (i == 5 || i == 9 ? "LINE " : "line ") + std::to_string(i) + "\n";
    }
    after.replace(after.find("line 20"), 7, "line 2O");
    const std::string diff = unified_diff("models/m.xml", before, after);
    CHECK(diff == "--- a/models/m.xml\n+++ b/models/m.xml\n"
                  "@@ -2,11 +2,11 @@\n line 2\n line 3\n line 4\n-line 5\n+LINE 5\n line 6\n line 7\n line 8\n"
                  "-line 9\n+LINE 9\n line 10\n line 11\n line 12\n"
                  "@@ -17,4 +17,4 @@\n line 17\n line 18\n line 19\n-line 20\n+line 2O\n");
    CHECK(unified_diff("m.xml", before, before).empty());
    CHECK(unified_diff("/abs/m.xml", "a\n", "b\n") == "--- /abs/m.xml\n+++ /abs/m.xml\n@@ -1,1 +1,1 @@\n-a\n+b\n");
}

TEST_CASE("the diff shows control characters escaped, tabs kept, no CR, and a missing last newline") {
    const std::string diff = unified_diff("m.xml", "\t<a>\x1b[2J</a>\r\nx", "\t<a>\x1b[2J</b>\r\ny");
    CHECK(diff.find("-\t<a>\\x1b[2J</a>\n") != std::string::npos);
    CHECK(diff.find("+\t<a>\\x1b[2J</b>\n") != std::string::npos);
    CHECK(diff.find('\r') == std::string::npos);
    CHECK(diff.find("-x\n\\ No newline at end of file\n") != std::string::npos);
    CHECK(diff.find("+y\n\\ No newline at end of file\n") != std::string::npos);
}

TEST_CASE("a pool's type is not fixed from a producer's precision the same fix rewrites") {
    // Parameter f32 -> MaxPool-1 `first` declaring FP64 -> MaxPool-1 `second` declaring FP32. The run infers
    // `second` from the FP64 that `first` declares; the fix makes that FP32, so `second` is right as it is.
    const std::string port = R"(<dim>1</dim><dim>1</dim><dim>4</dim><dim>4</dim></port>)";
    const auto pool = [&](const char* id, const char* name, const char* out_precision) {
        return std::string(R"(<layer id=")") + id + R"(" name=")" + name + R"(" type="MaxPool" version="opset1">)" +
               R"(<data kernel="1,1" strides="1,1" pads_begin="0,0" pads_end="0,0" rounding_type="floor"/>)" +
               R"(<input><port id="0" precision="FP32">)" + port + R"(</input><output><port id="1" precision=")" +
               out_precision + R"(">)" + port + "</output></layer>\n";
    };
    const std::string text = std::string(R"(<?xml version="1.0"?>
<net name="m" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,1,4,4" element_type="f32"/><output><port id="0" precision="FP32">)") +
                             port + "</output></layer>\n" + pool("1", "first", "FP64") + pool("2", "second", "FP32") +
                             R"(<layer id="3" name="y" type="Result" version="opset1"><input><port id="0" precision="FP32">)" +
                             port + R"(</input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
<edge from-layer="2" from-port="1" to-layer="3" to-port="0"/>
</edges></net>
)";
    const Fixed f = fix(text);
    REQUIRE(f.error.empty());
    CHECK(f.plan.findings == 1);
    for (const PortFix& p : f.plan.ports) CHECK(p.layer->name != "second");
    // Checked again, the fixed file has no type finding left.
    const ReadResult again = read_model_from_memory(f.text, "m.xml");
    REQUIRE(again.model);
    const ModelReport report = check_model(*again.model);
    CHECK(occurrences(f.text, R"(precision="FP64")") == 0);
    for (const Diagnostic& d : report.diagnostics) CHECK(d.rule != rule::output_type_mismatch.id);
}
