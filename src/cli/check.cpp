#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <sstream>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/fix.hpp"
#include "cli/interrupt.hpp"
#include "cli/onnx_commands.hpp"
#include "cli/progress.hpp"
#include "cli/report_sink.hpp"
#include "core/deadline.hpp"
#include "core/hash.hpp"
#include "core/text.hpp"
#include "ir/reader.hpp"
#include "pipeline/check_plan.hpp"
#include "pipeline/ordered_pool.hpp"
#include "pipeline/shard.hpp"
#include "pipeline/walk.hpp"
#include "policy/baseline.hpp"
#include "policy/rule_selection.hpp"
#include "rules/engine.hpp"
#include "rules/registry.hpp"
#include "rules/structure.hpp"

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

std::vector<CheckedLayer> checked_layers(const ModelReport& report) {
    std::vector<CheckedLayer> out;
    for (const LayerShapes& s : report.layers)
        if (s.checked) out.push_back({layer_ref(*s.layer), s.layer->line});
    return out;
}

// A directory of models often holds other XML files: found by a walk, a non-IR file is skipped with a
// note; named on the command line, it is an error. The model is freed before the result is returned.
// The JSON and JUnit reports list the checked layers; the others only count them, and a list of a large
// model's every layer costs a copy of each name.
bool lists_checked_layers(std::string_view format) { return format == "json" || format == "junit"; }

FileResult check_one(const InputFile& file, bool list_checked_layers) {
    if (names_onnx_model(file.path)) return check_onnx_model_file(file.path);
    FileResult out;
    out.path = file.path;
    ReadResult read = read_model(file.path);
    out.diagnostics = std::move(read.diagnostics);
    if (read.status == ReadStatus::not_ir && !file.named) {
        for (auto& d : out.diagnostics) {
            d.severity = Severity::note;
            d.message += "; skipped";
        }
        return out;
    }
    if (!read.model) return out;
    ModelReport report = check_model(*read.model, LayerRows::with_rules);
    out.layers = read.model->layer_count();
    out.checked = report.checked;
    if (list_checked_layers) out.checked_layers = checked_layers(report);
    out.diagnostics.insert(out.diagnostics.end(), std::make_move_iterator(report.diagnostics.begin()),
                           std::make_move_iterator(report.diagnostics.end()));
    std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    return out;
}

// Set when checking a file failed for a reason that is a bug in irlint: the run then exits 2.
std::atomic<bool> internal_failure{false};

// One file's failure (memory, most likely) or its spent time budget is reported on that file (check-failed)
// and does not end the run; any other exception is a bug, reported on the file as well, and the run exits 2.
FileResult check_one_safely(const InputFile& file, double timeout_seconds, bool list_checked_layers) {
    using namespace std::chrono;
    const ScopedDeadline deadline(timeout_seconds > 0 ? std::optional(steady_clock::now() +
                                                                      duration_cast<steady_clock::duration>(
                                                                          duration<double>(timeout_seconds)))
                                                      : std::nullopt);
    auto failed = [&](std::string message) {
        FileResult out;
        out.path = file.path;
        out.diagnostics.push_back(make_finding(rule::check_failed, std::move(message)));
        return out;
    };
    try {
        return check_one(file, list_checked_layers);
    } catch (const DeadlineExceeded&) {
        return failed(fmt::format("checking took longer than --timeout-per-file {} s; the file was not checked fully",
                                  timeout_seconds));
    } catch (const std::bad_alloc&) {
        return failed("irlint could not check the file: out of memory");
    } catch (const std::exception& e) {
        internal_failure = true;
        return failed(fmt::format("internal error: {}. This is a bug in irlint {}: please report it with the command "
                                  "line and this file",
                                  e.what(), IRLINT_VERSION));
    }
}

int jobs_for(int requested) {
    return requested > 0 ? requested : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// With -o, the terminal gets the summary table the report file holds elsewhere.
void print_closing_summary(const Summary& s, const std::string& output) {
    ReportOptions o;
    o.palette = palette_for(STDERR_FILENO);
    fmt::print(stderr, "{}  report written to {}\n", make_text_reporter(o)->end(s), output);
}

using Clock = std::chrono::steady_clock;

// What the command line asks of the run, and the accepted fingerprints.
struct Filter {
    FlagSettings flags;
    std::optional<std::set<std::string>> baseline;
};

// Findings of this run: every fingerprint (for --write-baseline) and how many the baseline accepted.
struct Fingerprints {
    std::mutex mutex;
    std::set<std::string> seen;
    size_t baselined = 0;
};

void apply_baseline(const CheckJob& job, Diagnostics& diagnostics, const Filter& filter, Fingerprints& prints) {
    std::vector<std::string> mine;
    size_t accepted = 0;
    std::erase_if(diagnostics, [&](Diagnostic& d) {
        d.fingerprint = finding_fingerprint(job.settings.fingerprint_path, d);
        const bool known = filter.baseline && filter.baseline->count(d.fingerprint) && !always_reported(d);
        mine.push_back(d.fingerprint);
        accepted += known;
        return known;
    });
    const std::lock_guard lock(prints.mutex);
    prints.seen.insert(mine.begin(), mine.end());
    prints.baselined += accepted;
}

std::optional<std::set<std::string>> load_baseline(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::string error;
    if (!in) error = "cannot read the file";
    std::optional<std::set<std::string>> out;
    if (error.empty()) out = parse_baseline(text.str(), error);
    if (!out) print_error(fmt::format("--baseline {}: {}", path, error));
    return out;
}

std::optional<Filter> filter_for(const CheckOptions& o) {
    Filter f;
    std::string error;
    bool ok = true;
    RuleSelection flags;
    std::set<std::string> select;
    for (const auto& list : o.select) ok = ok && add_rule_list(list, select, error);
    for (const auto& list : o.ignore) ok = ok && add_rule_list(list, flags.ignore, error);
    for (const auto& level : o.severities) ok = ok && add_severity_override(level, flags, error);
    if (!ok) {
        print_error(error);
        return std::nullopt;
    }
    if (!o.baseline.empty() && !(f.baseline = load_baseline(o.baseline))) return std::nullopt;
    if (!select.empty()) f.flags.rules.select = select;
    f.flags.rules.ignore = flags.ignore;
    f.flags.rules.severity = flags.severity;
    if (!o.min_severity.empty()) f.flags.min_severity = parse_severity(o.min_severity);
    if (!o.fail_on.empty()) f.flags.fail_on = o.fail_on;
    f.flags.default_min_severity = default_min_severity(o.format);
    return f;
}

// Whether a file's findings reach its --fail-on level; a file that could not be checked always fails.
bool fails(const Diagnostics& diagnostics, std::string_view fail_on) {
    return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
        return always_reported(d) || (fail_on == "error" && d.severity == Severity::error) ||
               (fail_on == "warning" && d.severity >= Severity::warning);
    });
}

// Per rule: how many findings, and the highest severity among them.
using RuleCounts = std::map<std::string, std::pair<size_t, Severity>>;

void count_rules(const Diagnostics& diagnostics, RuleCounts& counts) {
    for (const Diagnostic& d : diagnostics) {
        const auto it = counts.try_emplace(d.rule, 0, d.severity).first;
        ++it->second.first;
        it->second.second = std::max(it->second.second, d.severity);
    }
}

std::string statistics_text(const RuleCounts& counts) {
    std::string out;
    for (const auto& [rule_id, count] : counts)
        out += fmt::format("{:>6}  {:<30}  {}\n", count.first, rule_id, severity_name(count.second));
    return out;
}

// The id of a run, the same in every shard job: the sorted relative file list and every option that changes
// the findings. `merge` refuses shards of different runs.
std::string run_id(const std::vector<CheckJob>& jobs, const CheckOptions& o, const Filter& filter,
                   const Configurations& configs) {
    std::vector<std::string> relative;
    for (const CheckJob& j : jobs) relative.push_back(j.file.relative);
    std::sort(relative.begin(), relative.end());
    uint64_t h = kFnv1aBasis;
    auto mix = [&](std::string_view part) { h = fnv1a(fmt::format("{:016x}{}\x1f", h, part)); };
    for (const auto& r : relative) mix(r);
    const RuleSettings& rules = filter.flags.rules;
    mix("--select");
    if (rules.select)
        for (const auto& r : *rules.select) mix(r);
    mix("--ignore");
    for (const auto& r : rules.ignore) mix(r);
    mix("--severity");
    for (const auto& [id, level] : rules.severity) mix(id + "=" + std::string(level ? severity_name(*level) : "off"));
    mix(fmt::format("--timeout-per-file {}", o.timeout_per_file));
    mix("--baseline");
    if (filter.baseline)
        for (const auto& print : *filter.baseline) mix(print);
    mix("configurations");
    for (const auto& digest : configs.digests()) mix(digest);
    return fmt::format("{:016x}", h);
}

// What the findings decide about the exit code: whether some file reached its --fail-on level, and whether
// some file could not be checked at all (which fails even a run that writes a baseline).
struct Verdict {
    bool failed = false;
    bool unchecked = false;
};

// What a run adds up over its files, in file order.
struct RunTotals {
    Summary summary;
    RuleCounts rule_counts;
    size_t hidden_notes = 0;
    std::vector<std::string> files_with_errors;

    // Counts the file's findings, notes whether it fails the run, and hides those below its --min-severity.
    void add(FileResult& r, const FileSettings& settings, Verdict& verdict) {
        summary.add(r);
        count_rules(r.diagnostics, rule_counts);
        const auto is_error = [](const Diagnostic& d) { return d.severity == Severity::error; };
        if (std::any_of(r.diagnostics.begin(), r.diagnostics.end(), is_error)) files_with_errors.push_back(r.path);
        verdict.failed = verdict.failed || fails(r.diagnostics, settings.fail_on);
        verdict.unchecked =
            verdict.unchecked || std::any_of(r.diagnostics.begin(), r.diagnostics.end(), always_reported);
        hidden_notes += hide_below(r.diagnostics, settings.min_severity);
    }
};

// One file checked, with its selection and the baseline applied (on a worker thread).
FileResult check_job(const CheckJob& job, const CheckOptions& o, const Filter& filter, Fingerprints& prints) {
    FileResult r = check_one_safely(job.file, o.timeout_per_file, lists_checked_layers(o.format));
    job.settings.selection.apply(r.diagnostics);
    apply_baseline(job, r.diagnostics, filter, prints);
    return r;
}

// The lines of a text report after its summary, and --statistics.
void write_closing_lines(const RunTotals& totals, const CheckOptions& o, const Filter& filter,
                         const Fingerprints& prints, ReportSink& sink) {
    if (o.format == "text" && !o.quiet) {
        sink.write(files_with_errors_line(totals.files_with_errors));
        sink.write(hidden_notes_line(totals.hidden_notes));
        if (filter.baseline)
            sink.write(fmt::format("{} baselined finding{} not reported (--baseline {})\n", prints.baselined,
                                   prints.baselined == 1 ? "" : "s", o.baseline));
    }
    if (o.statistics) {
        if (o.format == "text") sink.write(statistics_text(totals.rule_counts));
        else fmt::print(stderr, "{}", statistics_text(totals.rule_counts));
    }
}

// Checks the files on the worker threads and streams the report into the sink in file order.
Summary check_files(const std::vector<CheckJob>& jobs, const CheckOptions& o, const Filter& filter,
                    const std::optional<ShardInfo>& shard, Fingerprints& prints, ReportSink& sink,
                    Clock::time_point start, Verdict& verdict) {
    ReportOptions options = report_options_for(sink, o.quiet);
    options.shard = shard;
    const auto reporter = make_reporter(o.format, options);
    Progress progress(jobs.size(), progress_wanted(o.quiet, o.format, o.output));
    const bool shares_terminal = progress.enabled() && sink.is_stdout() && isatty(STDOUT_FILENO);
    RunTotals totals;
    sink.write(reporter->begin());
    progress.draw(true);
    auto check = [&](size_t i) {
        FileResult r = check_job(jobs[i], o, filter, prints);
        progress.file_done(r);
        return r;
    };
    size_t taken = 0;  // results come in file order
    auto take = [&](FileResult& r) {
        totals.add(r, jobs[taken++].settings, verdict);
        const std::string text = reporter->file(r);
        if (shares_terminal && !text.empty()) progress.clear();
        sink.write(text);
    };
    const auto threads = static_cast<size_t>(jobs_for(o.jobs));
    const size_t done = run_ordered({threads, 64 * threads}, jobs.size(), check, take, [&] { progress.draw(); },
                                    interrupted);
    if (done < jobs.size())
        print_error(fmt::format("interrupted: {} of {} files checked ({} errors, {} warnings), the rest not started",
                                done, jobs.size(), totals.summary.errors, totals.summary.warnings));
    progress.clear();
    totals.summary.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    sink.write(reporter->end(totals.summary));
    write_closing_lines(totals, o, filter, prints, sink);
    return totals.summary;
}

}  // namespace

namespace {

// A batch frees each file's memory and asks for about as much again for the next. With glibc's defaults
// large blocks go back to the kernel, and every file faults its memory in anew: 160,000 page faults over
// 1,000 published-size models instead of 3,000. The memory is kept instead; the peak stays that of the
// largest file (per thread).
void keep_freed_memory() {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

}  // namespace

int run_check(const CheckOptions& o) {
    const auto start = Clock::now();
    keep_freed_memory();
    const std::optional<Filter> filter = filter_for(o);
    if (!filter) return exit_code::usage;
    InputFiles input = find_input_files(o.paths, o.excludes);
    // The whole command runs in irlint-onnx when a file needs it; if that cannot be, each such file says why.
    if (std::any_of(input.files.begin(), input.files.end(), [](const InputFile& f) { return names_onnx_model(f.path); }))
        (void)hand_over_onnx_command();
    for (const auto& m : input.missing) print_error(fmt::format("{}: no such file or directory", m));
    for (const auto& p : input.problems) print_warning(p);
    if (!input.missing.empty()) return exit_code::usage;
    Configurations configs;
    std::string error;
    std::optional<std::vector<CheckJob>> jobs =
        plan_checks(input.files, o.config, !o.no_config, filter->flags, configs, error);
    if (!jobs) {
        print_error(error);
        return exit_code::usage;
    }
    std::optional<ShardInfo> shard;
    if (!o.shard.empty()) {
        const std::optional<Shard> wanted = parse_shard(o.shard);
        if (!wanted) {
            print_error(fmt::format("--shard {}: expected K/N with 1 <= K <= N", o.shard));
            return exit_code::usage;
        }
        shard = ShardInfo{wanted->k, wanted->n, run_id(*jobs, o, *filter, configs)};
        keep_shard(*jobs, *wanted);
    }
    if (jobs->empty() && o.shard.empty()) {
        print_error(input.files.empty() ? "no .xml files found"
                                        : "no files left to check: the configuration excludes every one");
        return exit_code::usage;
    }
    if (o.fix) {
        const FixTotals fixed = fix_files(*jobs, o.diff);
        if (o.diff) return fixed.files > 0 || fixed.refused > 0 ? exit_code::findings : exit_code::ok;
        if (fixed.files > 0)
            fmt::print(stderr, "irlint: --fix: {} finding{} fixed in {} file{}\n", fixed.findings,
                       fixed.findings == 1 ? "" : "s", fixed.files, fixed.files == 1 ? "" : "s");
    }
    auto sink = ReportSink::open(o.output, error);
    if (!sink) {
        print_error(error);
        return exit_code::usage;
    }
    catch_interrupts();
    Fingerprints prints;
    Verdict verdict;
    const Summary summary = check_files(*jobs, o, *filter, shard, prints, *sink, start, verdict);
    if (interrupted()) return kInterruptedExit;  // a report file of part of the files is not written
    if (auto failure = sink->commit()) {
        print_error(*failure);
        return exit_code::usage;
    }
    if (!o.output.empty() && progress_wanted(o.quiet, o.format, o.output)) print_closing_summary(summary, o.output);
    if (internal_failure) return exit_code::internal;
    if (!o.write_baseline.empty()) {
        if (emit_output(o.write_baseline, baseline_json(prints.seen)) != exit_code::ok) return exit_code::usage;
        return verdict.unchecked ? exit_code::findings : exit_code::ok;
    }
    return verdict.failed ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
