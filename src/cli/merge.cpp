#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/report_sink.hpp"
#include "core/read_file.hpp"
#include "policy/rule_selection.hpp"
#include "report/report_reader.hpp"

namespace irlint::cli {

void setup_merge(CLI::App& app, MergeOptions& o) {
    app.footer(R"(Examples:
  irlint merge shard-*.json                    the text report one unsharded check would print
  irlint merge shard-*.json --format sarif -o irlint.sarif

Exit codes: as check for the merged files; 2 when a report is not an irlint JSON report.)");
    app.add_option("reports", o.reports, "JSON reports written by `irlint check --format json`")->required();
    app.add_option("--format", o.format, "Output format: text, json, sarif (2.1.0), junit (XML) or html (one self-contained page)")
        ->check(CLI::IsMember(std::vector<std::string>(std::begin(kReportFormats), std::end(kReportFormats))));
    app.add_option("-o,--output", o.output, "Write the report to FILE (atomically) instead of stdout");
    app.add_option("--fail-on", o.fail_on, "Lowest severity that makes the exit code 1")
        ->check(CLI::IsMember({"error", "warning", "never"}));
    app.add_flag("-q,--quiet", o.quiet, "Print findings only, no summary table");
    app.add_option("--min-severity", o.min_severity,
                   "Lowest severity printed (default: warning for text, note for json, sarif and junit)")
        ->check(CLI::IsMember({"error", "warning", "note"}));
}

namespace {

std::optional<std::string> read_text_file(const std::string& path, std::string& error) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        error = "no such file or directory";
        return std::nullopt;
    }
    if (std::filesystem::is_directory(path, ec)) {
        error = "is a directory, not a report";
        return std::nullopt;
    }
    std::optional<std::string> text = read_whole_file(path);
    if (!text) error = "cannot open the file for reading";
    return text;
}

struct Origin {
    FileResult file;
    size_t report;  // index into the report list
};

// Reads every report; nullopt after printing what is wrong with the first bad one.
std::optional<std::vector<Origin>> read_reports(const std::vector<std::string>& reports,
                                                std::vector<std::optional<ShardInfo>>& shards) {
    std::vector<Origin> out;
    for (size_t r = 0; r < reports.size(); ++r) {
        std::string error;
        std::optional<CheckReport> report;
        if (const auto text = read_text_file(reports[r], error)) report = read_check_report(*text, error);
        if (!report) {
            print_error(fmt::format("{}: {}", reports[r], error));
            return std::nullopt;
        }
        for (auto& f : report->files) out.push_back({std::move(f), r});
        shards.push_back(std::move(report->shard));
    }
    return out;
}

// Reports of `check --shard` must be one complete set: every K of one N, once each, all of one run. Reports
// without shard information are merged as they are, but not mixed with shards.
bool one_complete_set(const std::vector<std::optional<ShardInfo>>& shards, const std::vector<std::string>& reports) {
    const auto first = std::find_if(shards.begin(), shards.end(), [](const auto& s) { return s.has_value(); });
    if (first == shards.end()) return true;
    const ShardInfo& run = **first;
    const std::string& run_report = reports[static_cast<size_t>(first - shards.begin())];
    std::vector<std::string> holder(run.count + 1);
    bool ok = true;
    for (size_t r = 0; r < shards.size(); ++r) {
        const auto& s = shards[r];
        if (!s) {
            print_error(fmt::format("{} is not a shard report, {} is shard {}/{}; merge the shards of one run only",
                                    reports[r], run_report, run.index, run.count));
            ok = false;
        } else if (s->run != run.run || s->count != run.count) {
            print_error(fmt::format("{} (shard {}/{} of run {}) is from another run than {} (shard {}/{} of run {})",
                                    reports[r], s->index, s->count, s->run, run_report, run.index, run.count, run.run));
            ok = false;
        } else if (!holder[s->index].empty()) {
            print_error(
                fmt::format("shard {}/{} is given twice: {} and {}", s->index, s->count, holder[s->index], reports[r]));
            ok = false;
        } else {
            holder[s->index] = reports[r];
        }
    }
    if (!ok) return false;
    std::string missing;
    for (uint64_t k = 1; k <= run.count; ++k)
        if (holder[k].empty()) missing += fmt::format("{}{}/{}", missing.empty() ? "" : ", ", k, run.count);
    if (!missing.empty())
        print_error(fmt::format("missing shard(s) {} of run {}; merge every shard of the run", missing, run.run));
    return missing.empty();
}

// Sorted by path as `check` sorts. A file reported twice with the same result (a shard job that ran twice)
// is kept once; with different results the reports do not belong together, and nullopt is returned.
std::optional<std::vector<FileResult>> combine(std::vector<Origin> all, const std::vector<std::string>& reports) {
    const auto by_path = [](const Origin& a, const Origin& b) { return a.file.path < b.file.path; };
    std::stable_sort(all.begin(), all.end(), by_path);
    std::vector<FileResult> out;
    size_t last_report = 0;
    for (Origin& o : all) {
        if (!out.empty() && o.file.path == out.back().path) {
            if (o.file == out.back()) continue;
            print_error(fmt::format("{} is in {} and in {} with different results; merge reports of one run only",
                                    o.file.path, reports[last_report], reports[o.report]));
            return std::nullopt;
        }
        out.push_back(std::move(o.file));
        last_report = o.report;
    }
    return out;
}

// The report of every finding at or above --min-severity; the summary still counts them all.
std::string render_shown(const MergeOptions& o, const ReportOptions& options, const std::vector<FileResult>& files) {
    const Severity min = o.min_severity.empty() ? default_min_severity(o.format) : *parse_severity(o.min_severity);
    const auto reporter = make_reporter(o.format, options);
    std::string out = reporter->begin();
    size_t hidden_notes = 0;
    std::vector<std::string> files_with_errors;
    for (FileResult f : files) {
        if (std::any_of(f.diagnostics.begin(), f.diagnostics.end(),
                        [](const Diagnostic& d) { return d.severity == Severity::error; }))
            files_with_errors.push_back(f.path);
        hidden_notes += hide_below(f.diagnostics, min);
        out += reporter->file(f);
    }
    out += reporter->end(summarize(files));
    if (o.format == "text" && !o.quiet)
        out += files_with_errors_line(files_with_errors) + hidden_notes_line(hidden_notes);
    return out;
}

// A file that could not be checked fails the merged run as it failed its shard, whatever --fail-on says.
bool has_unchecked_file(const std::vector<FileResult>& files) {
    return std::any_of(files.begin(), files.end(), [](const FileResult& f) {
        return std::any_of(f.diagnostics.begin(), f.diagnostics.end(), always_reported);
    });
}

}  // namespace

int run_merge(const MergeOptions& o) {
    std::vector<std::optional<ShardInfo>> shards;
    auto origins = read_reports(o.reports, shards);
    if (!origins || !one_complete_set(shards, o.reports)) return exit_code::usage;
    const auto files = combine(std::move(*origins), o.reports);
    if (!files) return exit_code::usage;
    std::string error;
    auto sink = ReportSink::open(o.output, error);
    if (!sink) {
        print_error(error);
        return exit_code::usage;
    }
    sink->write(render_shown(o, report_options_for(*sink, o.quiet), *files));
    if (auto failure = sink->commit()) {
        print_error(*failure);
        return exit_code::usage;
    }
    return summarize(*files).fails(o.fail_on) || has_unchecked_file(*files) ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
