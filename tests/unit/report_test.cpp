#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "exec/layer_run.hpp"
#include "report/report.hpp"
#include "report/run_report.hpp"
#include "report/report_reader.hpp"
#include "rules/registry.hpp"
#include "text_util.hpp"

using namespace irlint;
using irlint::test::occurrences;

namespace {

Diagnostic finding(Severity s, std::string rule, std::string message, int line, LayerRef layer = {}) {
    return {s, std::move(rule), std::move(message), line, std::move(layer)};
}

const LayerRef kPool1{"1", "pool1", "MaxPool"};
const LayerRef kPool2{"2", "pool2", "AvgPool"};
const LayerRef kReshape{"3", "reshape", "Reshape"};

// Two files: one with findings on two pooling layers and on the file itself, one clean with a layer checked
// by invariants.
std::vector<FileResult> sample_files() {
    FileResult a;
    a.path = "models/a b.xml";
    a.layers = 5;
    a.checked = 2;
    a.checked_layers = {{kPool1, 10}, {kPool2, 30}};
    a.diagnostics = {
        finding(Severity::error, "ir-structure", "edge to a missing layer", 0),
        finding(Severity::error, "output-shape-mismatch", "declared [1,3,8,8], OpenVINO infers [1,3,7,7]", 21, kPool1),
        finding(Severity::error, "output-type-mismatch", "indices are \"i32\" <not i64> & more", 24, kPool1),
        finding(Severity::warning, "attr-invalid", "strides=\"2.0\"", 31, kPool2),
    };
    FileResult b;
    b.path = "models/b.xml";
    b.layers = 3;
    b.checked = 1;
    b.checked_by_invariants = 1;
    b.checked_layers = {{kPool1, 12}, {kReshape, 14, true}};
    b.op_types = {{"MaxPool", 1, 1, 0}, {"Reshape", 1, 0, 1}};
    return {a, b};
}

std::string render(std::string_view format, const std::vector<FileResult>& files, ReportOptions o = {}) {
    return render_report(format, o, files);
}


}  // namespace

TEST_CASE("utf8: invalid sequences become U+FFFD, valid ones stay") {
    CHECK(to_valid_utf8("ok \xC3\xA9 \xF0\x9F\x98\x80") == "ok \xC3\xA9 \xF0\x9F\x98\x80");
    CHECK(to_valid_utf8("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
    CHECK(to_valid_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");   // overlong '/'
    CHECK(to_valid_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
    CHECK(to_valid_utf8("\xE2\x82") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // cut short
    CHECK(first_invalid_utf8("abc\xC3") == 3);
    CHECK(first_invalid_utf8("abc") == std::string_view::npos);
    CHECK(json_string("\xFF") == "\"\xEF\xBF\xBD\"");
}

TEST_CASE("sarif: artifact URIs are relative to the base directory and percent-encoded") {
    CHECK(artifact_uri("models/a.xml", "/home/ci/repo") == "models/a.xml");
    CHECK(artifact_uri("./models/../models/a.xml", "/home/ci/repo") == "models/a.xml");
    CHECK(artifact_uri("/home/ci/repo/models/a b.xml", "/home/ci/repo") == "models/a%20b.xml");
    CHECK(artifact_uri("/home/ci/repo/models/a.xml", "/home/ci/repo/") == "models/a.xml");
    CHECK(artifact_uri("/data/m#1:x.xml", "/home/ci/repo") == "../../../data/m%231%3Ax.xml");
    CHECK(artifact_uri("models/caf\xC3\xA9.xml", "/home/ci/repo") == "models/caf%C3%A9.xml");
    CHECK(artifact_uri("models/a.xml", "") == "models/a.xml");
    CHECK(artifact_uri("/abs/a.xml", "") == "file:///abs/a.xml");
}

TEST_CASE("xml: escaping covers markup, quotes, line breaks and characters XML cannot hold") {
    CHECK(xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(xml_escape("x\ny\tz") == "x&#10;y&#9;z");
    CHECK(xml_escape(std::string("a\x01" "b")) == "a\xEF\xBF\xBD" "b");
    CHECK(xml_escape("\xEF\xBF\xBF") == "\xEF\xBF\xBD");
    CHECK(xml_escape("\xFF") == "\xEF\xBF\xBD");
}

TEST_CASE("json report: written, read back and written again gives the same bytes") {
    const std::vector<FileResult> files = sample_files();
    const std::string json = render("json", files);
    CHECK(json.find("\"summary\":{\"files\":2,\"errors\":3,\"warnings\":1,\"notes\":0,\"layers\":8,\"checked\":3,"
                    "\"checked_by_invariants\":1}") != std::string::npos);
    CHECK(json.find("\"checked_layers\":[{\"id\":\"1\",\"name\":\"pool1\",\"type\":\"MaxPool\",\"line\":10,"
                    "\"how\":\"full\"}") != std::string::npos);
    CHECK(json.find("{\"path\":\"models/b.xml\",\"layers\":3,\"checked\":1,\"checked_by_invariants\":1,") !=
          std::string::npos);
    CHECK(json.find("{\"id\":\"3\",\"name\":\"reshape\",\"type\":\"Reshape\",\"line\":14,\"how\":\"invariants\"}") !=
          std::string::npos);
    CHECK(json.find("\"op_types\":[{\"type\":\"MaxPool\",\"layers\":1,\"checked\":1,\"checked_by_invariants\":0},"
                    "{\"type\":\"Reshape\",\"layers\":1,\"checked\":0,\"checked_by_invariants\":1}]") != std::string::npos);
    std::string error;
    const auto back = read_check_report(json, error);
    REQUIRE_MESSAGE(back.has_value(), error);
    CHECK(back->files == files);
    CHECK_FALSE(back->shard);
    CHECK(render("json", back->files) == json);
}

TEST_CASE("json report: a report without checked_layers (irlint 0.1.0) is read with none") {
    const std::string old = R"({"tool":"irlint","version":"0.1.0","files":[{"path":"a.xml","layers":2,"checked":1,)"
                            R"("diagnostics":[]}],"summary":{"files":1,"errors":0,"warnings":0,"notes":0}})";
    std::string error;
    const auto report = read_check_report(old, error);
    REQUIRE_MESSAGE(report.has_value(), error);
    CHECK(report->files.at(0).checked == 1);
    CHECK(report->files.at(0).checked_by_invariants == 0);
    CHECK(report->files.at(0).checked_layers.empty());
}

TEST_CASE("json report: a checked layer's \"how\" is full or invariants, and absent means full (before v4)") {
    const auto read = [](std::string_view how) {
        const std::string json = fmt::format(
            R"({{"tool":"irlint","version":"0.9.0","files":[{{"path":"a.xml","layers":2,"checked":1,)"
            R"("diagnostics":[],"checked_layers":[{{"id":"1","name":"r","type":"Reshape","line":3{}}}]}}],)"
            R"("summary":{{"files":1,"errors":0,"warnings":0,"notes":0}}}})",
            how);
        std::string error;
        auto report = read_check_report(json, error);
        return std::make_pair(std::move(report), error);
    };
    CHECK_FALSE(read("").first->files.at(0).checked_layers.at(0).by_invariants);
    CHECK_FALSE(read(R"(,"how":"full")").first->files.at(0).checked_layers.at(0).by_invariants);
    CHECK(read(R"(,"how":"invariants")").first->files.at(0).checked_layers.at(0).by_invariants);
    const auto [bad, error] = read(R"(,"how":"partly")");
    CHECK_FALSE(bad);
    CHECK(error == "files[0].checked_layers[0].how: expected \"full\" or \"invariants\", found \"partly\"");
}

TEST_CASE("json report: what is wrong is named by its place in the report") {
    const auto error_of = [](const std::string& text) {
        std::string error;
        CHECK_FALSE(read_check_report(text, error).has_value());
        return error;
    };
    const std::string head = R"({"tool":"irlint","version":"0.1.0","files":[)";
    const std::string tail = R"(],"summary":{"files":1,"errors":1,"warnings":0,"notes":0}})";
    const std::string file = R"({"path":"a.xml","layers":2,"checked":1,"diagnostics":[)";
    const std::string diag = R"({"severity":"error","rule":"r","message":"m","line":3,"layer_id":"","layer_name":"",)"
                             R"("layer_type":""})";
    std::string no_error;
    CHECK(read_check_report(head + file + diag + "]}" + tail, no_error).has_value());
    CHECK(no_error.empty());
    CHECK(error_of("[]") == "report: expected an object, found an array");
    CHECK(error_of(R"({"tool":"other","version":"1","files":[],"summary":{}})") ==
          "tool: is \"other\", not \"irlint\"");
    CHECK(error_of(R"({"tool":"irlint","version":"1","summary":{}})") == "report: missing key \"files\"");
    CHECK(error_of(head + R"({"path":"a.xml","layers":-1,"checked":0,"diagnostics":[]})" + tail) ==
          "files[0].layers: expected an integer from 0 to 9223372036854775807, found -1");
    CHECK(error_of(head + file + R"({"severity":"fatal"}]})" + tail) ==
          "files[0].diagnostics[0].severity: expected \"error\", \"warning\" or \"note\", found \"fatal\"");
    CHECK(error_of(head + file + R"(7]})" + tail) == "files[0].diagnostics[0]: expected an object, found a number");
    CHECK(error_of(head + file + "]}" + tail) == "summary.errors: is 1, but the files list has 0");
    CHECK(error_of("{") == "line 1, column 2: expected a string as object key");
}

TEST_CASE("junit: a suite per file, a case per checked layer and one for the file, a failure per error") {
    const std::string xml = render("junit", sample_files());
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0) == 0);
    // a.xml: file (1 error), pool1 (2 errors), pool2 (a warning only); b.xml: file, pool1, reshape (invariants)
    CHECK(xml.find("<testsuites name=\"irlint\" tests=\"6\" failures=\"2\" errors=\"0\">") != std::string::npos);
    CHECK(xml.find("<testsuite name=\"models/a b.xml\" tests=\"3\" failures=\"2\"") != std::string::npos);
    CHECK(xml.find("<testsuite name=\"models/b.xml\" tests=\"3\" failures=\"0\"") != std::string::npos);
    CHECK(occurrences(xml, "<testcase ") == 6);
    CHECK(xml.find("name=\"layer 3 &apos;reshape&apos; (Reshape)\" file=\"models/b.xml\" line=\"14\">\n"
                   "      <properties><property name=\"how\" value=\"invariants\"/></properties>\n"
                   "    </testcase>\n") != std::string::npos);
    CHECK(occurrences(xml, "<failure ") == 3);
    CHECK(xml.find("name=\"layer 1 &apos;pool1&apos; (MaxPool)\" file=\"models/a b.xml\" line=\"10\">") !=
          std::string::npos);
    CHECK(xml.find("<failure type=\"output-type-mismatch\" message=\"indices are &quot;i32&quot; &lt;not i64&gt; "
                   "&amp; more\">") != std::string::npos);
    CHECK(xml.find("<system-out>models/a b.xml:31: warning: layer 2 'pool2' (AvgPool): strides=\"2.0\" [attr-invalid]\n"
                   "</system-out>") != std::string::npos);
    CHECK(xml.find(">models/a b.xml:24: error: layer 1 'pool1' (MaxPool): indices are \"i32\" &lt;not i64&gt; "
                   "&amp; more [output-type-mismatch]</failure>") != std::string::npos);
}

TEST_CASE("sarif: rules with help links, results with level, message and file:line") {
    ReportOptions o;
    o.base_dir = "/repo";
    const std::string sarif = render("sarif", sample_files(), o);
    CHECK(sarif.rfind("{\"$schema\":\"https://docs.oasis-open.org/sarif/sarif/v2.1.0/", 0) == 0);
    CHECK(sarif.find("\"version\":\"2.1.0\"") != std::string::npos);
    CHECK(sarif.find("\"informationUri\":\"" + std::string(kProjectUrl) + "\"") != std::string::npos);
    CHECK(occurrences(sarif, "\"shortDescription\"") == rule_registry().size());
    CHECK(sarif.find("\"helpUri\":\"" + std::string(kProjectUrl) +
                     "/blob/main/docs/rules.md#output-shape-mismatch\"") != std::string::npos);
    CHECK(occurrences(sarif, "\"ruleId\"") == 4);
    CHECK(sarif.find("{\"ruleId\":\"output-shape-mismatch\",\"ruleIndex\":6,\"level\":\"error\",\"message\":"
                     "{\"text\":\"layer 1 'pool1' (MaxPool): declared [1,3,8,8], OpenVINO infers [1,3,7,7]\"},"
                     "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"models/a%20b.xml\"},"
                     "\"region\":{\"startLine\":21}}}]}") != std::string::npos);
    // a finding about the whole file has no region
    CHECK(sarif.find("\"artifactLocation\":{\"uri\":\"models/a%20b.xml\"}}}]}") != std::string::npos);
    CHECK(sarif.find("\"level\":\"warning\"") != std::string::npos);
    CHECK(sarif.substr(sarif.size() - 5) == "]}]}\n");
}

TEST_CASE("text: findings, then a summary table; -q leaves the table out") {
    const std::vector<FileResult> files = sample_files();
    const std::string text = render_report("text", {}, files, 1.25);
    CHECK(text.rfind("models/a b.xml: error: edge to a missing layer [ir-structure]\n"
                     "models/a b.xml:21: error: layer 1 'pool1' (MaxPool): declared [1,3,8,8], OpenVINO infers "
                     "[1,3,7,7] [output-shape-mismatch]\n",
                     0) == 0);
    CHECK(text.find("\n\nirlint summary\n"
                    "  files                   2\n"
                    "  layers                  8\n"
                    "  layers checked          3 of 8 (1 by invariants)\n"
                    "  errors                  3\n"
                    "  warnings                1\n"
                    "  notes                   0\n"
                    "  wall time               1.25 s\n") != std::string::npos);
    ReportOptions quiet;
    quiet.summary = false;
    CHECK(render("text", files, quiet).find("summary") == std::string::npos);
    CHECK(render("text", {files[1]}).rfind("irlint summary\n", 0) == 0);  // no blank line without findings
    CHECK(render("text", files).find("wall time") == std::string::npos);     // a merge knows no wall time
}

TEST_CASE("summary: --fail-on levels") {
    Summary s;
    CHECK_FALSE(s.fails("error"));
    s.warnings = 1;
    CHECK_FALSE(s.fails("error"));
    CHECK(s.fails("warning"));
    s.errors = 1;
    CHECK(s.fails("error"));
    CHECK_FALSE(s.fails("never"));
}

TEST_CASE("text: a layer without a type says so, never '()'") {
    CHECK(layer_prefix({"0", "/MaxPool", ""}) == "layer 0 '/MaxPool' (no type): ");
    CHECK(layer_prefix({"3", "pool", "MaxPool"}) == "layer 3 'pool' (MaxPool): ");
    LayerRun failed;
    failed.layer = {"0", "/MaxPool", "MaxPool"};
    failed.status = RunStatus::error;
    failed.error = "x.npy: cannot open";
    CHECK(run_text(failed, Palette::plain()) == "layer 0 '/MaxPool' (MaxPool): error: x.npy: cannot open\n");
    failed.op_name = "MaxPool-8";
    CHECK(run_text(failed, Palette::plain()) == "layer 0 '/MaxPool' (MaxPool-8): error: x.npy: cannot open\n");
}

TEST_CASE("run report: integers compared exactly are 'equal' or 'differ', never 'outside exact'") {
    OutputRun o;
    o.role = "indices";
    o.shape = {1, 1, 2, 2};
    o.type = ElementType::i64;
    o.expect_path = "i.npy";
    o.tolerance = {0, 0};
    o.comparison.total = 4;
    o.comparison.mismatches = 2;
    LayerRun r;
    r.layer = {"1", "pool", "MaxPool"};
    r.op_name = "MaxPool-8";
    r.status = RunStatus::mismatch;
    r.outputs.push_back(o);
    const std::string text = run_text(r, Palette::plain());
    CHECK(text.find("MISMATCH — 2 of 4 elements differ (compared exactly)\n") != std::string::npos);
    CHECK(text.find("outside exact") == std::string::npos);
}

TEST_CASE("printable: control characters, bidi controls and bad UTF-8 are escaped, long text is cut") {
    CHECK(printable("pool1") == "pool1");
    CHECK(printable("a\nb\tc\rd") == "a\\nb\\tc\\rd");
    CHECK(printable("\x1b[31mred\a") == "\\x1b[31mred\\x07");
    CHECK(printable(std::string("nul\0x", 5)) == "nul\\x00x");
    CHECK(printable("del\x7f") == "del\\x7f");
    CHECK(printable("c1\xc2\x9b") == "c1\\u009b");                           // CSI as a C1 control
    CHECK(printable("rtl\xe2\x80\xaeoverride") == "rtl\\u202eoverride");     // U+202E
    CHECK(printable("iso\xe2\x81\xa6x\xe2\x81\xa9") == "iso\\u2066x\\u2069");  // U+2066, U+2069
    CHECK(printable("mark\xe2\x80\x8f\xd8\x9c") == "mark\\u200f\\u061c");     // U+200F, U+061C
    CHECK(printable("line\xe2\x80\xa8sep") == "line\\u2028sep");
    CHECK(printable("bad\xff\xfe utf8") == "bad\\xff\\xfe utf8");
    CHECK(printable("back\\slash") == "back\\\\slash");
    CHECK(printable("caf\xc3\xa9 \xe6\xb1\xa0") == "caf\xc3\xa9 \xe6\xb1\xa0");  // ordinary Unicode stays
    const std::string long_name(20000, 'n');
    const std::string cut = printable(long_name);
    CHECK(cut == std::string(kPrintedNameChars, 'n') + "\xe2\x80\xa6 (20000 bytes)");
    CHECK(printable("pool\n::error file=README.md::x").find('\n') == std::string::npos);
}

TEST_CASE("printable: a finding line has no raw control character whatever the model's names") {
    Diagnostic d{Severity::error, "attr-invalid", "kernel of 'a\nb' is bad", 3, {"1\r", "p\x1b[2J", "Max\xe2\x80\xaePool"}};
    const std::string line = finding_line("m\n.xml", d, Palette::plain());
    CHECK(line == "m\\n.xml:3: error: layer 1\\r 'p\\x1b[2J' (Max\\u202ePool): kernel of 'a\\nb' is bad [attr-invalid]");
}

TEST_CASE("is_decimal_id: only a non-negative integer without sign or leading zero") {
    CHECK(is_decimal_id("0"));
    CHECK(is_decimal_id("17"));
    CHECK_FALSE(is_decimal_id(""));
    CHECK_FALSE(is_decimal_id("-1"));
    CHECK_FALSE(is_decimal_id("+1"));
    CHECK_FALSE(is_decimal_id("01"));
    CHECK_FALSE(is_decimal_id("../outside/p"));
    CHECK_FALSE(is_decimal_id("1/2"));
    CHECK_FALSE(is_decimal_id("1 "));
    CHECK_FALSE(is_decimal_id("1234567890123456789"));
}
