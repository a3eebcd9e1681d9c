// The rule registry is the one list of rules: docs/rules.md, SARIF and `irlint rules` must agree with it.

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "report/report.hpp"
#include "rules/registry.hpp"
#include "report/rules_markdown.hpp"

using namespace irlint;

namespace {

std::string read_docs_rules_md() {
    std::ifstream in(std::string(IRLINT_DOCS) + "/rules.md", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The rows of the first table of the page, in order.
std::vector<std::string> table_rows(const std::string& markdown) {
    std::vector<std::string> rows;
    std::istringstream lines(markdown);
    std::string line;
    bool in_table = false;
    while (std::getline(lines, line)) {
        if (line.rfind("| [`", 0) == 0) {
            in_table = true;
            rows.push_back(line);
        } else if (in_table) {
            break;
        }
    }
    return rows;
}

}  // namespace

TEST_CASE("docs/rules.md's index is the registry, row by row") {
    const std::string markdown = read_docs_rules_md();
    REQUIRE(!markdown.empty());
    const std::vector<std::string> rows = table_rows(markdown);
    REQUIRE(rows.size() == rule_registry().size());
    for (size_t i = 0; i < rows.size(); ++i) CHECK(rows[i] == rule_table_row(rule_registry()[i]));
}

TEST_CASE("every rule has a documentation section, and the binary carries the current docs/rules.md") {
    const std::string markdown = read_docs_rules_md();
    CHECK(rules_markdown() == markdown);
    for (const Rule& r : rule_registry()) {
        INFO(r.id);
        const std::string_view section = rule_section(markdown, r.id);
        CHECK(section.find("**What it checks.**") == 0);
        CHECK(section.find("**How to fix.**") != std::string_view::npos);
    }
}

TEST_CASE("rule ids are unique, kebab-case, and include the contract's ids") {
    std::set<std::string_view> ids;
    for (const Rule& r : rule_registry()) {
        CHECK(ids.insert(r.id).second);
        for (char c : r.id) CHECK(((c >= 'a' && c <= 'z') || c == '-'));
    }
    for (std::string_view id :
         {"xml-malformed", "ir-structure", "edge-shape-mismatch", "edge-type-mismatch", "attr-invalid",
          "output-shape-mismatch", "output-type-mismatch", "const-data-invalid", "unsupported-op", "check-failed",
          "onnx-shape-inference-mismatch", "runtime-divergence"})
        CHECK(ids.count(id) == 1);
    CHECK(ids.count("check-timeout") == 0);  // an alias now, not a rule of its own
    CHECK(find_rule("check-failed")->severity == Severity::error);
    REQUIRE(find_rule("runtime-divergence"));
    CHECK(find_rule("runtime-divergence")->severity == Severity::warning);
    CHECK(find_rule("unsupported-op")->severity == Severity::note);
    CHECK(!find_rule("no-such-rule"));
}

TEST_CASE("rule_section cuts one section, without its heading, up to the next one") {
    const std::string md = "# t\n\n## a-b\n\nfirst\n\n## c\n\nsecond\n";
    CHECK(rule_section(md, "a-b") == "first\n");
    CHECK(rule_section(md, "c") == "second\n");
    CHECK(rule_section(md, "a").empty());
    CHECK(rule_section(md, "zz").empty());
}

#include "policy/rule_selection.hpp"

TEST_CASE("rule selection: --select, --ignore and --severity RULE=LEVEL") {
    RuleSelection sel;
    std::string error;
    CHECK(add_rule_list("attr-invalid,unsupported-op", sel.select, error));
    CHECK(add_severity_override("attr-invalid=warning", sel, error));
    CHECK(add_severity_override("unsupported-op=off", sel, error));
    Diagnostics ds = {{Severity::error, "attr-invalid", "a", 3, {}},
                      {Severity::note, "unsupported-op", "b", 4, {}},
                      {Severity::error, "output-shape-mismatch", "c", 5, {}}};
    sel.apply(ds);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].rule == "attr-invalid");
    CHECK(ds[0].severity == Severity::warning);

    CHECK(!add_rule_list("attr-invalid,nope", sel.ignore, error));
    CHECK(error.find("unknown rule 'nope'; valid rules: xml-malformed,") == 0);
    CHECK(!add_severity_override("attr-invalid=loud", sel, error));
    CHECK(error == "unknown level 'loud' for attr-invalid; valid levels: error, warning, note, off");
    CHECK(!add_severity_override("attr-invalid", sel, error));
    CHECK(error == "'attr-invalid': expected RULE=LEVEL");
}

namespace {
Diagnostic unchecked_file() {
    return {Severity::error, "check-failed", "checking took longer than --timeout-per-file 1 s", 0, {}};
}
}  // namespace

TEST_CASE("check-timeout is an alias of check-failed in rule lists and severity overrides") {
    REQUIRE(find_rule("check-timeout"));
    CHECK(find_rule("check-timeout")->id == "check-failed");
    RuleSelection sel;
    std::string error;
    CHECK(add_rule_list("check-timeout,attr-invalid", sel.ignore, error));
    CHECK(sel.ignore == std::set<std::string>{"attr-invalid", "check-failed"});
    CHECK(add_severity_override("check-timeout=off", sel, error));
    CHECK(sel.severity.count("check-failed") == 1);
    CHECK(sel.severity.count("check-timeout") == 0);
    CHECK(valid_rule_ids().find("check-timeout") == std::string::npos);
}

TEST_CASE("no selection drops or lowers check-failed") {
    std::string error;
    RuleSelection ignored;
    REQUIRE(add_rule_list("check-failed,attr-invalid", ignored.ignore, error));
    RuleSelection selected_away;
    REQUIRE(add_rule_list("attr-invalid", selected_away.select, error));
    RuleSelection off;
    REQUIRE(add_severity_override("check-failed=off", off, error));
    RuleSelection lowered;
    REQUIRE(add_severity_override("check-timeout=note", lowered, error));
    for (const RuleSelection* sel : {&ignored, &selected_away, &off, &lowered}) {
        Diagnostics ds = {{Severity::error, "attr-invalid", "a", 3, {}}, unchecked_file()};
        sel->apply(ds);
        REQUIRE(!ds.empty());
        CHECK(ds.back() == unchecked_file());
        CHECK(always_reported(ds.back()));
    }
    Diagnostics ds = {{Severity::error, "attr-invalid", "a", 3, {}}, unchecked_file()};
    ignored.apply(ds);
    CHECK(ds == Diagnostics{unchecked_file()});
    CHECK(!always_reported({Severity::error, "ir-structure", "m", 0, {}}));
}

TEST_CASE("--min-severity never hides check-failed") {
    Diagnostic odd = unchecked_file();
    odd.severity = Severity::note;  // not made by irlint; the rule alone keeps it
    Diagnostics ds = {unchecked_file(), odd, {Severity::note, "unsupported-op", "", 0, {}}};
    CHECK(hide_below(ds, Severity::error) == 1);
    CHECK(ds == Diagnostics{unchecked_file(), odd});
}

TEST_CASE("--min-severity hides the findings below it and counts the hidden notes") {
    Diagnostics ds = {{Severity::note, "unsupported-op", "", 0, {}},
                      {Severity::warning, "attr-invalid", "", 1, {}},
                      {Severity::note, "const-data-invalid", "", 2, {}}};
    CHECK(hide_below(ds, Severity::warning) == 2);
    CHECK(ds.size() == 1);
    CHECK(hidden_notes_line(2) == "2 notes hidden (--min-severity note shows them)\n");
    CHECK(hidden_notes_line(1) == "1 note hidden (--min-severity note shows them)\n");
    CHECK(hidden_notes_line(0).empty());
    CHECK(default_min_severity("text") == Severity::warning);
    CHECK(default_min_severity("json") == Severity::note);
}

#include "policy/baseline.hpp"

TEST_CASE("a fingerprint ignores the line and follows path, rule, layer and port") {
    Diagnostic d{Severity::error, "output-shape-mismatch", "output 1 is declared [1,2]", 10, {"3", "pool1", "MaxPool"}};
    d.port = "1";
    // The same port, lines further down and now declared otherwise: the same finding.
    Diagnostic moved{Severity::error, "output-shape-mismatch", "output 1 is declared [1,3]", 42, {"7", "pool1", "MaxPool"}};
    moved.port = "1";
    CHECK(finding_fingerprint("sub/a.xml", d) == finding_fingerprint("sub/a.xml", moved));
    CHECK(finding_fingerprint("sub/a.xml", d).size() == 16);
    CHECK(finding_fingerprint("sub/a.xml", d) != finding_fingerprint("sub/b.xml", d));
    Diagnostic renamed = d;
    renamed.layer.name = "pool2";
    CHECK(finding_fingerprint("sub/a.xml", d) != finding_fingerprint("sub/a.xml", renamed));
    Diagnostic other_port = d;
    other_port.port.push_back('0');  // port "10" (an assignment here trips GCC 12's -Wrestrict false positive)
    CHECK(finding_fingerprint("sub/a.xml", d) != finding_fingerprint("sub/a.xml", other_port));
    Diagnostic other_rule = d;
    other_rule.rule = "output-type-mismatch";
    CHECK(finding_fingerprint("sub/a.xml", d) != finding_fingerprint("sub/a.xml", other_rule));
}

TEST_CASE("without a port, the message tells findings apart, its numbers do not") {
    const Diagnostic a{Severity::error, "attr-invalid", "kernel has 3 values (2 expected)", 10, {"3", "p", "MaxPool"}};
    const Diagnostic b{Severity::error, "attr-invalid", "strides has 1 value (2 expected)", 10, {"3", "p", "MaxPool"}};
    const Diagnostic a_moved{Severity::error, "attr-invalid", "kernel has 4 values (2 expected)", 99, {"3", "p", "MaxPool"}};
    CHECK(finding_fingerprint("a.xml", a) != finding_fingerprint("a.xml", b));
    CHECK(finding_fingerprint("a.xml", a) == finding_fingerprint("a.xml", a_moved));
}

TEST_CASE("a baseline file round-trips, and anything else is an error") {
    const std::set<std::string> prints = {"00000000000000ff", "0123456789abcdef"};
    std::string error;
    CHECK(parse_baseline(baseline_json(prints), error) == prints);
    CHECK(parse_baseline(baseline_json({}), error) == std::set<std::string>{});
    CHECK(!parse_baseline("[1]", error));
    CHECK(error == "not a baseline: expected an object with a \"fingerprints\" array");
    CHECK(!parse_baseline("{\"fingerprints\":[1]}", error));
    CHECK(!parse_baseline("{", error));
}

#include "report/report_reader.hpp"

TEST_CASE("a shard report's shard object is read back, and a bad one is an error") {
    const std::string report = R"({"tool":"irlint","version":"0.1.0","files":[],)"
                               R"("summary":{"files":0,"errors":0,"warnings":0,"notes":0})";
    std::string error;
    const auto sharded = read_check_report(report + R"(,"shard":{"index":2,"count":3,"run":"00ff"}})", error);
    REQUIRE_MESSAGE(sharded, error);
    REQUIRE(sharded->shard);
    CHECK(*sharded->shard == ShardInfo{2, 3, "00ff"});
    const auto whole = read_check_report(report + "}", error);
    REQUIRE_MESSAGE(whole, error);
    CHECK_FALSE(whole->shard);
    CHECK(!read_check_report(report + R"(,"shard":{"index":4,"count":3,"run":"x"}})", error));
    CHECK(error == "shard: expected {\"index\":K,\"count\":N,\"run\":\"...\"} with 1 <= K <= N");
}
