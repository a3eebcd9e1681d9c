#include "cli/fix.hpp"

#include <iterator>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "cli/onnx_commands.hpp"
#include "core/atomic_file.hpp"
#include "core/read_file.hpp"
#include "core/text.hpp"
#include "ir/reader.hpp"
#include "ir/rewrite.hpp"
#include "report/unified_diff.hpp"
#include "rules/engine.hpp"
#include "rules/fixes.hpp"

namespace irlint::cli {

namespace {

// The fixed text of one file, or nullopt when there is nothing to fix or it must not be fixed (said why).
struct FileFix {
    std::string text;
    size_t findings = 0;
};

std::optional<FileFix> fix_of(const CheckJob& job, const std::string& original, FixTotals& totals) {
    const std::string& path = job.file.path;
    ReadResult read = read_model_from_memory(original, path);
    if (!read.model) return std::nullopt;  // the check reports why
    const ModelReport report = check_model(*read.model);
    Diagnostics findings = std::move(read.diagnostics);
    findings.insert(findings.end(), report.diagnostics.begin(), report.diagnostics.end());
    job.settings.selection.apply(findings);
    const FixPlan plan = plan_fixes(*read.model, report, findings);
    if (plan.ports.empty()) return std::nullopt;
    auto refuse = [&](const std::string& why) {
        print_error(fmt::format("{}: not fixed: {}", path, why));
        ++totals.refused;
        return std::nullopt;
    };
    if (blocks_fixing(findings))
        return refuse("the file has xml-malformed or ir-structure errors, which leave the layers and edges to "
                      "rewrite uncertain; fix those first");
    std::vector<PortRewrite> rewrites;
    for (const PortFix& f : plan.ports) rewrites.push_back({f.port, f.dims, f.precision});
    std::string error;
    const auto edits = plan_text_edits(*read.model, original, rewrites, error);
    if (!edits) return refuse(error);
    return FileFix{apply_text_edits(original, *edits), plan.findings};
}

void fix_one(const CheckJob& job, bool diff_only, FixTotals& totals) {
    const std::string& path = job.file.path;
    const auto original = read_whole_file(path);
    if (!original) return;  // the check reports the unreadable file
    const auto fixed = fix_of(job, *original, totals);
    if (!fixed) return;
    if (diff_only) {
        fmt::print("{}", unified_diff(path, *original, fixed->text));
    } else if (auto failure = replace_file_atomically(path, fixed->text)) {
        print_error(fmt::format("{}: not fixed: {}", path, *failure));
        ++totals.refused;
        return;
    } else {
        fmt::print(stderr, "irlint: fixed {}: {} finding{}\n", printable(path), fixed->findings,
                   fixed->findings == 1 ? "" : "s");
    }
    ++totals.files;
    totals.findings += fixed->findings;
}

}  // namespace

FixTotals fix_files(const std::vector<CheckJob>& jobs, bool diff_only) {
    FixTotals totals;
    bool onnx_named = false;
    for (const CheckJob& job : jobs) {
        if (names_onnx_model(job.file.path)) {
            onnx_named = true;
            continue;
        }
        try {
            fix_one(job, diff_only, totals);
        } catch (const std::exception& e) {
            print_error(fmt::format("{}: not fixed: {}", job.file.path, e.what()));
            ++totals.refused;
        }
    }
    if (onnx_named) print_warning("--fix rewrites IR files only: the .onnx files were checked, not fixed");
    return totals;
}

}  // namespace irlint::cli
