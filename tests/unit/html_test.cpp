// The HTML reports: escaping of model text, the check page, the error detail behind the run page's
// heatmaps, and the run page's heatmap, legend, worst-element marker and histogram.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "exec/diagnosis/error_detail.hpp"
#include "report/html.hpp"
#include "report/report.hpp"
#include "rules/registry.hpp"
#include "report/run_report.hpp"
#include "text_util.hpp"

using namespace irlint;
using irlint::test::occurrences;

namespace {


const std::string kHostile = "<script>alert('x')</script>\"&";

// A [1,2,4,4] f32 pair where channel 1 differs at (1,2) by 0.5 and at (3,3) by 2, and channel 0 at (0,0) by 0.01.
struct Pair {
    Tensor computed{ElementType::f32, {1, 2, 4, 4}}, expected{ElementType::f32, {1, 2, 4, 4}};
    Pair() {
        float* e = expected.mutable_data<float>();
        e[16 + 1 * 4 + 2] = 0.5f;
        e[16 + 3 * 4 + 3] = 2.0f;
        e[0] = 0.01f;
    }
};

}  // namespace

TEST_CASE("model text is made printable, then escaped") {
    CHECK(html_escape(kHostile) == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;");
    CHECK(html_text("a\x1b[31mb") == "a\\x1b[31mb");
    const std::string long_name(50000, 'n');
    const std::string shown = html_text(long_name);
    CHECK(shown.size() < 300);
    CHECK(shown.find("50000 bytes") != std::string::npos);
}

TEST_CASE("the check page: summary, rule counts, linked rule ids, escaped model text, nothing to fetch") {
    FileResult f;
    f.path = "models/<b>.xml";
    f.layers = 3;
    f.checked = 1;
    f.diagnostics.push_back(make_finding(rule::output_shape_mismatch, Severity::error, "declared [1,8,9,8]", 27,
                             LayerRef{"1", kHostile, "MaxPool"}));
    f.diagnostics.push_back(make_finding(rule::attr_invalid, Severity::warning, "exclude-pad ignored", 16));
    FileResult clean;
    clean.path = "models/ok.xml";
    const std::string page = render_report("html", ReportOptions{}, {f, clean}, 0.25);
    CHECK(page.starts_with("<!DOCTYPE html>"));
    CHECK(page.find("<meta charset=\"utf-8\">") != std::string::npos);
    CHECK(page.find("id=\"sum-files\">2<") != std::string::npos);
    CHECK(page.find("id=\"sum-errors\">1<") != std::string::npos);
    CHECK(page.find("id=\"sum-warnings\">1<") != std::string::npos);
    CHECK(page.find("href=\"" + rule_help_uri(rule::output_shape_mismatch) + "\"") != std::string::npos);
    CHECK(occurrences(page, "<tr class=\"finding\"") == 2);
    CHECK(page.find("data-rule=\"attr-invalid\"") != std::string::npos);
    CHECK(page.find("models/&lt;b&gt;.xml") != std::string::npos);
    CHECK(page.find("<script>alert") == std::string::npos);
    CHECK(page.find("&lt;script&gt;alert(&#39;x&#39;)") != std::string::npos);
    CHECK(page.find("models/ok.xml") != std::string::npos);  // listed among the files without findings
    // Self-contained: the only URLs are the links to the rules' documentation.
    CHECK(page.find("<script src") == std::string::npos);
    CHECK(page.find("<link") == std::string::npos);
    CHECK(page.find("@import") == std::string::npos);
    CHECK(page.find("url(") == std::string::npos);
    CHECK(occurrences(page, "http") == occurrences(page, "href=\"" + std::string(kProjectUrl)));
    // One script, inline, and the controls it shows are hidden without it.
    CHECK(occurrences(page, "<script>") == 1);
    CHECK(page.find("id=\"controls\" hidden") != std::string::npos);
}

TEST_CASE("the check page: layers checked fully and by invariants, a coverage bar per file and per op type") {
    FileResult f;
    f.path = "a.xml";
    f.layers = 12;
    f.checked = 8;
    f.checked_by_invariants = 2;
    f.op_types = {{"Reshape", 4, 1, 2}, {"Relu", 6, 6, 0}};
    f.diagnostics.push_back(make_finding(rule::values_unknown, "1 Reshape layer not checked", 9));
    FileResult g = f;
    g.path = "b.xml";
    g.diagnostics.clear();
    const std::string page = render_report("html", ReportOptions{}, {f, g});
    CHECK(page.find("pooling") == std::string::npos);
    CHECK(page.find("<th>layers checked fully</th><td class=\"num\" id=\"sum-checked\">16<") != std::string::npos);
    CHECK(page.find("<th>layers checked by invariants</th><td class=\"num\" id=\"sum-invariants\">4<") !=
          std::string::npos);
    // over both files, then each file (with findings, and in the list without): 3 bars of all op layers
    CHECK(occurrences(page, "aria-label=\"14 checked fully, 4 by invariants, 2 not checked\"") == 1);
    CHECK(occurrences(page, "7 of 10 checked fully, 2 by invariants, 1 not checked") == 2);
    // per op type, least covered first, with widths in percent
    CHECK(page.find("<td class=\"mono\">Reshape</td><td class=\"num\">8</td>") <
          page.find("<td class=\"mono\">Relu</td><td class=\"num\">12</td>"));
    CHECK(page.find("<span class=\"full\" style=\"width:25.00%\"></span><span class=\"inv\" style=\"width:50.00%\">"
                    "</span><span class=\"not\" style=\"width:25.00%\"></span>") != std::string::npos);
}

TEST_CASE("error detail: the worst element, the planes by mismatches, a grid of the largest errors") {
    Pair p;
    const ErrorDetail d = error_detail(p.computed, p.expected, {1e-6, 1e-5});
    CHECK(d.worst == 16 + 3 * 4 + 3);
    CHECK(d.worst_error == doctest::Approx(2.0));
    CHECK(d.worst_expected == doctest::Approx(2.0));
    CHECK(d.planes_with_mismatches == 2);
    REQUIRE(d.listed.size() == 2);
    CHECK(d.listed[0].index == std::vector<int64_t>{0, 1});
    CHECK(d.listed[0].mismatches == 2);
    CHECK(d.listed[1].index == std::vector<int64_t>{0, 0});
    REQUIRE(d.drawn.size() == 2);
    CHECK(d.grid_rows == 4);
    CHECK(d.grid_cols == 4);
    CHECK(d.drawn[0].max_error[1 * 4 + 2] == doctest::Approx(0.5f));
    CHECK(d.drawn[0].max_error[0] == 0.0f);
    CHECK(d.min_error == doctest::Approx(0.01f));
    CHECK(d.max_error == doctest::Approx(2.0f));
}

TEST_CASE("a large plane is drawn in blocks that keep their largest error") {
    Tensor computed(ElementType::f32, {1, 1, 200, 130}), expected(ElementType::f32, {1, 1, 200, 130});
    expected.mutable_data<float>()[199 * 130 + 129] = 3.0f;
    expected.mutable_data<float>()[198 * 130 + 128] = 1.0f;
    const ErrorDetail d = error_detail(computed, expected, {0, 0});
    CHECK(d.block_rows == 4);
    CHECK(d.block_cols == 3);
    CHECK(d.grid_rows == 50);
    CHECK(d.grid_cols == 44);
    CHECK(d.drawn[0].max_error[49 * 44 + 43] == doctest::Approx(3.0f));
}

TEST_CASE("NaN on one side is an infinite error, kept out of the color scale") {
    Pair p;
    p.expected.mutable_data<float>()[5] = std::nanf("");
    const ErrorDetail d = error_detail(p.computed, p.expected, {1e-6, 1e-5});
    CHECK(d.worst == 5);
    CHECK(std::isinf(d.worst_error));
    CHECK(d.non_finite_drawn);
    CHECK(d.max_error == doctest::Approx(2.0f));
}

TEST_CASE("the run page: heatmap with axes, legend with its unit, the worst element circled, a histogram") {
    Pair p;
    LayerRun run;
    run.layer = {"7", kHostile, "MaxPool"};
    run.op_name = "MaxPool-8";
    run.status = RunStatus::mismatch;
    run.input_path = "x.npy";
    OutputRun o;
    o.role = "values";
    o.shape = {1, 2, 4, 4};
    o.expect_path = "y.npy";
    o.tolerance = {1e-6, 1e-5};
    o.comparison = compare_tensors(p.computed, p.expected, o.tolerance);
    o.detail = error_detail(p.computed, p.expected, o.tolerance);
    run.outputs.push_back(o);
    const std::string page = runs_html({run}, "model.xml", true);
    CHECK(page.find("W (column index)") != std::string::npos);
    CHECK(page.find("H (row index)") != std::string::npos);
    CHECK(page.find("absolute error |computed − expected|, log scale") != std::string::npos);  // 0.01 to 2
    CHECK(page.find("n=0, c=1: 2 mismatches") != std::string::npos);
    CHECK(page.find("n=0, c=0: 1 mismatch<") != std::string::npos);
    CHECK(occurrences(page, "<circle class=\"worst\"") == 1);
    CHECK(page.find("worst element [0,1,3,3]") != std::string::npos);
    CHECK(page.find("[0,1,3,3]: expected 2, computed 0") != std::string::npos);
    CHECK(occurrences(page, "<rect class=\"bar\"") == kErrorBuckets);
    CHECK(page.find("mismatches\">3<") != std::string::npos);
    CHECK(page.find("<table class=\"layers\">") != std::string::npos);  // a --data run starts with the layers
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("&lt;script&gt;alert") != std::string::npos);
    CHECK(page.find("http") == std::string::npos);
}
