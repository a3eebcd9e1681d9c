// libFuzzer target: any bytes as an IR .xml through `check --fix`: the plan, the rewrite of the text, and
// then the rewritten text read and checked again, where no output-shape-mismatch or output-type-mismatch
// finding the fix resolved may be left and the rewrite may break nothing else.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ir/reader.hpp"
#include "ir/rewrite.hpp"
#include "rules/engine.hpp"
#include "rules/fixes.hpp"
#include "rules/registry.hpp"

namespace {

const std::string kPath = "fuzz_fix.xml";

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "%s\n--- rewritten file ---\n%s\n", what, detail.c_str());
    std::abort();
}

irlint::Diagnostics findings_of(const irlint::ReadResult& read, const irlint::ModelReport& report) {
    irlint::Diagnostics all = read.diagnostics;
    all.insert(all.end(), report.diagnostics.begin(), report.diagnostics.end());
    return all;
}

bool is_output(const irlint::PortFix& f) {
    for (const auto& p : f.layer->outputs)
        if (&p == f.port) return true;
    return false;
}

// (rule, layer id, port id) of every finding the plan fixes: new dims fix the output's shape finding, a new
// precision its type finding.
std::set<std::tuple<std::string, std::string, std::string>> fixed_findings(const irlint::FixPlan& plan) {
    std::set<std::tuple<std::string, std::string, std::string>> out;
    for (const auto& f : plan.ports) {
        if (!is_output(f)) continue;
        const std::string layer(f.layer->id), port(f.port->id);
        if (f.dims) out.emplace(irlint::rule::output_shape_mismatch.id, layer, port);
        if (f.precision) out.emplace(irlint::rule::output_type_mismatch.id, layer, port);
    }
    return out;
}

void check_rewritten(const std::string& text, const irlint::FixPlan& plan) {
    const irlint::ReadResult read = irlint::read_model_from_memory(text, kPath);
    if (!read.model) fail("the rewritten file does not read", text);
    const irlint::ModelReport report = irlint::check_model(*read.model);
    const irlint::Diagnostics findings = findings_of(read, report);
    if (irlint::blocks_fixing(findings)) fail("the rewrite broke the file's structure", text);
    const auto fixed = fixed_findings(plan);
    for (const auto& d : findings)
        if (fixed.contains({d.rule, d.layer.id, d.port}))
            fail(("a fixed finding is still there: " + d.rule + ": " + d.message).c_str(), text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string original(reinterpret_cast<const char*>(data), size);
    const irlint::ReadResult read = irlint::read_model_from_memory(original, kPath);
    if (!read.model) return 0;
    const irlint::ModelReport report = irlint::check_model(*read.model);
    const irlint::Diagnostics findings = findings_of(read, report);
    const irlint::FixPlan plan = irlint::plan_fixes(*read.model, report, findings);
    if (plan.ports.empty() || irlint::blocks_fixing(findings)) return 0;
    std::vector<irlint::PortRewrite> rewrites;
    for (const auto& f : plan.ports) rewrites.push_back({f.port, f.dims, f.precision});
    std::string error;
    const auto edits = irlint::plan_text_edits(*read.model, original, rewrites, error);
    if (!edits) return 0;
    check_rewritten(irlint::apply_text_edits(original, *edits), plan);
    return 0;
}
