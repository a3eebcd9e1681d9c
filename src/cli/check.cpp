#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/fix.hpp"
#include "cli/interrupt.hpp"
#include "cli/onnx_commands.hpp"
#include "cli/progress.hpp"
#include "cli/report_sink.hpp"
#include "pipeline/check_run.hpp"
#include "pipeline/walk.hpp"
#include "policy/baseline.hpp"
#include "policy/rule_selection.hpp"

namespace irlint::cli {

void setup_check(CLI::App& app, CheckOptions& o) {
    app.footer(R"(Examples:
  irlint check model.xml                       findings, GCC style; exit 1 on errors
  irlint check models/ --exclude "legacy/*" -j 4
  irlint check models/ --format sarif -o irlint.sarif     for GitHub code scanning
  irlint check models/ --format junit -o irlint.xml       for GitLab and Jenkins
  irlint check models/ --format html -o irlint.html       a page to read or hand on
  irlint check models/ --shard 2/4 --format json -o shard-2.json
  irlint check models/ --write-baseline irlint-baseline.json   accept today's findings
  irlint check models/ --baseline irlint-baseline.json         then fail only on new ones
  irlint check model.xml --fix --diff          what --fix would rewrite; --fix alone rewrites it

Configuration: the nearest irlint.toml in a checked file's directory or a parent (up to the directory
holding .git) sets select, ignore, exclude, fail-on, min-severity, [severity] and [[overrides]];
flags win over it.

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it or a file that could not be checked
(check-failed, whatever --fail-on says), 2 usage errors or missing paths.)");
    app.add_option("paths", o.paths,
                   "IR .xml or ONNX .onnx files, or directories (searched recursively for *.xml and *.onnx)")
        ->required();
    app.add_option("--format", o.format, "Output format: text, json, sarif (2.1.0), junit (XML) or html (one self-contained page)")
        ->check(CLI::IsMember(std::vector<std::string>(std::begin(kReportFormats), std::end(kReportFormats))));
    app.add_option("-o,--output", o.output, "Write the report to FILE (atomically) instead of stdout");
    app.add_option("-j,--jobs", o.jobs, "Files checked in parallel (default: hardware threads)")
        ->check(CLI::Range(1, 1024));
    app.add_option("--shard", o.shard,
                   "Check only shard K of N (1-based), chosen by a hash of each file's path relative to its PATH, "
                   "e.g. 2/4");
    app.add_option("--fail-on", o.fail_on, "Lowest severity that makes the exit code 1 (default: error)")
        ->check(CLI::IsMember({"error", "warning", "never"}));
    app.add_option("--exclude", o.excludes, "Skip paths matching GLOB (repeatable)");
    app.add_flag("-q,--quiet", o.quiet, "Print findings only: no summary table, no progress line");
    app.add_option("--timeout-per-file", o.timeout_per_file,
                   "Give up on a file after SECONDS of checking, report it (check-failed) and go on")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--select", o.select, "Report only these rule ids (RULE[,RULE...], repeatable)");
    app.add_option("--ignore", o.ignore, "Never report these rule ids (RULE[,RULE...], repeatable)");
    app.add_option("--severity", o.severities, "Report RULE at LEVEL: error, warning, note or off (RULE=LEVEL, "
                                               "repeatable)");
    app.add_option("--min-severity", o.min_severity,
                   "Lowest severity printed (default: warning for text, note for json, sarif and junit)")
        ->check(CLI::IsMember({"error", "warning", "note"}));
    app.add_flag("--statistics", o.statistics, "After the findings, one line per rule: count, rule id, severity");
    app.add_option("--baseline", o.baseline,
                   "Do not report (nor fail on) the findings whose fingerprint is in FILE; the summary counts them");
    app.add_option("--write-baseline", o.write_baseline,
                   "Write the fingerprints of every finding of this run to FILE (atomically); exit 0");
    auto* config = app.add_option("--config", o.config,
                                  "Use this configuration file for every path, instead of the irlint.toml found "
                                  "nearest each checked file");
    app.add_flag("--no-config", o.no_config, "Ignore irlint.toml files")->excludes(config);
    auto* fix = app.add_flag("--fix", o.fix,
                             "Rewrite in place (atomically) the declared output dims and precisions of pooling "
                             "layers that disagree with inference, and the same dims and precisions on the input "
                             "ports their edges feed; every other byte stays; then check the result");
    app.add_flag("--diff", o.diff, "With --fix: print the unified diff instead and change nothing; exit 1 if "
                                   "there is something to fix")
        ->needs(fix);
}

namespace {

using Clock = std::chrono::steady_clock;

// The JSON and JUnit reports list the checked layers; the others only count them, and a list of a large
// model's every layer costs a copy of each name.
bool lists_checked_layers(std::string_view format) {
    return format == "json" || format == "junit" || format == "html";
}

CheckRequest request_for(const CheckOptions& o) {
    CheckRequest r;
    r.paths = o.paths;
    r.excludes = o.excludes;
    r.select = o.select;
    r.ignore = o.ignore;
    r.severities = o.severities;
    r.min_severity = o.min_severity;
    r.default_min_severity = default_min_severity(o.format);
    r.fail_on = o.fail_on;
    r.config = o.config;
    r.discover_config = !o.no_config;
    r.baseline = o.baseline;
    r.shard = o.shard;
    r.timeout_per_file = o.timeout_per_file;
    r.jobs = o.jobs;
    r.list_checked_layers = lists_checked_layers(o.format);
    r.check_onnx = check_onnx_model_file;
    r.process_exits_after = true;
    return r;
}

// With -o, the terminal gets the summary table the report file holds elsewhere.
void print_closing_summary(const Summary& s, const std::string& output) {
    ReportOptions o;
    o.palette = palette_for(STDERR_FILENO);
    fmt::print(stderr, "{}  report written to {}\n", make_text_reporter(o)->end(s), output);
}

std::string statistics_text(const RuleCounts& counts) {
    std::string out;
    for (const auto& [rule_id, count] : counts)
        out += fmt::format("{:>6}  {:<30}  {}\n", count.first, rule_id, severity_name(count.second));
    return out;
}

// The lines of a text report after its summary, and --statistics.
void write_closing_lines(const CheckRun& run, const CheckOptions& o, const CheckPlan& plan, ReportSink& sink) {
    if (o.format == "text" && !o.quiet) {
        sink.write(files_with_errors_line(run.files_with_errors));
        sink.write(hidden_notes_line(run.hidden_notes));
        if (plan.filter.baseline)
            sink.write(fmt::format("{} baselined finding{} not reported (--baseline {})\n", run.baselined,
                                   run.baselined == 1 ? "" : "s", o.baseline));
    }
    if (o.statistics) {
        if (o.format == "text") sink.write(statistics_text(run.rule_counts));
        else fmt::print(stderr, "{}", statistics_text(run.rule_counts));
    }
}

// Checks the files on the worker threads and streams the report into the sink in file order.
CheckRun check_files(const CheckPlan& plan, const CheckRequest& request, const CheckOptions& o, ReportSink& sink,
                     Clock::time_point start) {
    ReportOptions options = report_options_for(sink, o.quiet);
    options.shard = plan.shard;
    const auto reporter = make_reporter(o.format, options);
    Progress progress(plan.jobs.size(), progress_wanted(o.quiet, o.format, o.output));
    const bool shares_terminal = progress.enabled() && sink.is_stdout() && isatty(STDOUT_FILENO);
    sink.write(reporter->begin());
    progress.draw(true);
    CheckHooks hooks;
    hooks.checked = [&](const FileResult& r) { progress.file_done(r); };
    hooks.take = [&](FileResult& r) {
        const std::string text = reporter->file(r);
        if (shares_terminal && !text.empty()) progress.clear();
        sink.write(text);
    };
    hooks.idle = [&] { progress.draw(); };
    hooks.cancelled = interrupted;
    CheckRun run = check_planned(plan, request, hooks);
    if (run.cancelled())
        print_error(fmt::format("interrupted: {} of {} files checked ({} errors, {} warnings), the rest not started",
                                run.done, run.planned, run.summary.errors, run.summary.warnings));
    progress.clear();
    run.summary.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    sink.write(reporter->end(run.summary));
    write_closing_lines(run, o, plan, sink);
    return run;
}

}  // namespace

int run_check(const CheckOptions& o) {
    const auto start = Clock::now();
    keep_freed_memory();
    const CheckRequest request = request_for(o);
    CheckFailure failure;
    std::optional<CheckFilter> filter = check_filter_for(request, failure);
    if (!filter) {
        print_error(failure.message);
        return exit_code::usage;
    }
    InputFiles input = find_input_files(o.paths, o.excludes);
    // The whole command runs in irlint-onnx when a file needs it; if that cannot be, each such file says why.
    if (std::any_of(input.files.begin(), input.files.end(), [](const InputFile& f) { return names_onnx_model(f.path); }))
        (void)hand_over_onnx_command();
    for (const auto& m : input.missing) print_error(fmt::format("{}: no such file or directory", m));
    for (const auto& p : input.problems) print_warning(p);
    if (!input.missing.empty()) return exit_code::usage;
    std::optional<CheckPlan> plan = plan_run(request, std::move(*filter), input, failure);
    if (!plan) {
        print_error(failure.message);
        return exit_code::usage;
    }
    if (o.fix) {
        const FixTotals fixed = fix_files(plan->jobs, o.diff);
        if (o.diff) return fixed.files > 0 || fixed.refused > 0 ? exit_code::findings : exit_code::ok;
        if (fixed.files > 0)
            fmt::print(stderr, "irlint: --fix: {} finding{} fixed in {} file{}\n", fixed.findings,
                       fixed.findings == 1 ? "" : "s", fixed.files, fixed.files == 1 ? "" : "s");
    }
    std::string error;
    auto sink = ReportSink::open(o.output, error);
    if (!sink) {
        print_error(error);
        return exit_code::usage;
    }
    catch_interrupts();
    const CheckRun run = check_files(*plan, request, o, *sink, start);
    if (interrupted()) return kInterruptedExit;  // a report file of part of the files is not written
    if (auto failure_text = sink->commit()) {
        print_error(*failure_text);
        return exit_code::usage;
    }
    if (!o.output.empty() && progress_wanted(o.quiet, o.format, o.output)) print_closing_summary(run.summary, o.output);
    if (run.internal_failure) return exit_code::internal;
    if (!o.write_baseline.empty()) {
        if (emit_output(o.write_baseline, baseline_json(run.fingerprints)) != exit_code::ok) return exit_code::usage;
        return run.unchecked ? exit_code::findings : exit_code::ok;
    }
    return run.failed ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
