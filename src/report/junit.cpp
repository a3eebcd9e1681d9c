#include <fmt/format.h>

#include "core/text.hpp"
#include "report/report.hpp"

namespace irlint {

namespace {
// Quotes and line breaks need references only inside attribute values.
std::string escaped(std::string_view s, bool attribute) {
    const std::string text = to_valid_utf8(s);
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (attribute && c == '"') out += "&quot;";
        else if (attribute && c == '\'') out += "&apos;";
        else if (attribute && c == '\t') out += "&#9;";
        else if (attribute && c == '\n') out += "&#10;";
        else if (attribute && c == '\r') out += "&#13;";
        else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') out += "\xEF\xBF\xBD";
        else if (c == 0xEF && text.compare(i + 1, 1, "\xBF") == 0 && i + 2 < text.size() &&
                 (text[i + 2] == '\xBE' || text[i + 2] == '\xBF')) {
            out += "\xEF\xBF\xBD";  // U+FFFE and U+FFFF are not XML characters
            i += 2;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string xml_text(std::string_view s) { return escaped(s, false); }
}  // namespace

std::string xml_escape(std::string_view s) { return escaped(s, true); }

namespace {

// One test case of a file's suite: the file itself, or a checked pooling layer.
struct TestCase {
    std::string name;
    int line = 0;
    bool by_invariants = false;  // a layer checked by invariants only: said in a property of the case
    std::vector<const Diagnostic*> findings;

    bool failed() const {
        for (const Diagnostic* d : findings)
            if (d->severity == Severity::error) return true;
        return false;
    }
};

bool same_layer(const LayerRef& a, const LayerRef& b) { return a.id == b.id && a.name == b.name && a.type == b.type; }

// Case 0 is the file: its findings are those of no checked layer (XML, structure, other layer types).
std::vector<TestCase> test_cases(const FileResult& f) {
    std::vector<TestCase> cases{{"file", 0, false, {}}};
    for (const CheckedLayer& c : f.checked_layers) {
        std::string name = layer_prefix(c.layer);
        name.resize(name.size() - 2);  // without the ": " that introduces a message
        cases.push_back({std::move(name), c.line, c.by_invariants, {}});
    }
    for (const Diagnostic& d : f.diagnostics) {
        size_t k = 0;
        for (size_t i = 0; i < f.checked_layers.size() && k == 0; ++i)
            if (same_layer(f.checked_layers[i].layer, d.layer)) k = i + 1;
        cases[k].findings.push_back(&d);
    }
    return cases;
}

std::string test_case_xml(const std::string& path, const TestCase& c) {
    const std::string line = c.line > 0 ? fmt::format(" line=\"{}\"", c.line) : "";
    std::string out = fmt::format("    <testcase classname=\"{0}\" name=\"{1}\" file=\"{0}\"{2}", xml_escape(path),
                                  xml_escape(c.name), line);
    if (c.findings.empty() && !c.by_invariants) return out + "/>\n";
    out += ">\n";
    if (c.by_invariants) out += "      <properties><property name=\"how\" value=\"invariants\"/></properties>\n";
    std::string other;  // warnings and notes do not fail a test; they are shown as its output
    for (const Diagnostic* d : c.findings) {
        const std::string text = finding_line(path, *d, Palette::plain());
        if (d->severity == Severity::error)
            out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", xml_escape(d->rule),
                               xml_escape(d->message), xml_text(text));
        else
            other += text + "\n";
    }
    if (!other.empty()) out += fmt::format("      <system-out>{}</system-out>\n", xml_text(other));
    return out + "    </testcase>\n";
}

// A test suite per file and a test case per checked pooling layer, plus one for the file as a whole.
// `failures` counts the failed test cases (a case with several errors has several <failure> elements).
// The suites are kept until the end because the root element carries the totals.
class JunitReporter : public Reporter {
public:
    std::string begin() override { return ""; }

    std::string file(const FileResult& f) override {
        const std::vector<TestCase> cases = test_cases(f);
        size_t failed = 0;
        for (const TestCase& c : cases) failed += c.failed() ? 1 : 0;
        tests_ += cases.size();
        failures_ += failed;
        suites_ += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
                               xml_escape(f.path), cases.size(), failed);
        for (const TestCase& c : cases) suites_ += test_case_xml(f.path, c);
        suites_ += "  </testsuite>\n";
        return "";
    }

    std::string end(const Summary&) override {
        return fmt::format(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"irlint\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n{}</testsuites>\n",
            tests_, failures_, suites_);
    }

private:
    std::string suites_;
    size_t tests_ = 0, failures_ = 0;
};

}  // namespace

std::unique_ptr<Reporter> make_junit_reporter() { return std::make_unique<JunitReporter>(); }

}  // namespace irlint
