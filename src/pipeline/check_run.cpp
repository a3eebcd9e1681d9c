#include "pipeline/check_run.hpp"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/deadline.hpp"
#include "core/exit_keep.hpp"
#include "core/hash.hpp"
#include "ir/reader.hpp"
#include "pipeline/ordered_pool.hpp"
#include "pipeline/shard.hpp"
#include "policy/baseline.hpp"
#include "policy/rule_selection.hpp"
#include "rules/engine.hpp"
#include "rules/registry.hpp"
#include "rules/structure.hpp"

namespace irlint {

namespace {

std::vector<CheckedLayer> checked_layers(const ModelReport& report) {
    std::vector<CheckedLayer> out;
    for (const LayerShapes& s : report.layers)
        if (s.checked || s.checked_by_invariants)
            out.push_back({layer_ref(*s.layer), s.layer->line, !s.checked});
    return out;
}

// Per op type (Parameter, Const and Result aside), its layers in every graph and how many were checked.
std::vector<OpTypeCoverage> op_types(const Model& model, const ModelReport& report) {
    std::map<std::string_view, OpTypeCoverage> by_type;
    const auto is_op = [](const Layer& l) {
        return l.kind != LayerKind::parameter && l.kind != LayerKind::constant && l.kind != LayerKind::result;
    };
    for (const Graph& g : model.graphs)
        for (const Layer& l : g.layers)
            if (is_op(l)) ++by_type[l.type].layers;
    for (const LayerShapes& s : report.layers) {
        if (!is_op(*s.layer)) continue;
        OpTypeCoverage& t = by_type[s.layer->type];
        t.checked += s.checked;
        t.checked_by_invariants += s.checked_by_invariants && !s.checked;
    }
    std::vector<OpTypeCoverage> out;
    for (auto& [type, t] : by_type) {
        t.type = std::string(type);
        out.push_back(std::move(t));
    }
    return out;
}

// A directory of models often holds other XML files: found by a walk, a non-IR file is skipped with a
// note; named on the command line, it is an error. The model is freed before the result is returned, unless
// it is kept until the process exits.
FileResult check_one(const InputFile& file, const CheckRequest& request, bool keep) {
    if (names_onnx_model(file.path)) return request.check_onnx(file.path, keep, request.list_checked_layers);
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
    out.checked_by_invariants = report.checked_by_invariants;
    if (request.list_checked_layers) {
        out.checked_layers = checked_layers(report);
        out.op_types = op_types(*read.model, report);
    }
    out.diagnostics.insert(out.diagnostics.end(), std::make_move_iterator(report.diagnostics.begin()),
                           std::make_move_iterator(report.diagnostics.end()));
    std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    if (keep) {
        keep_until_exit(std::make_shared<ModelReport>(std::move(report)));
        keep_until_exit(std::make_shared<Model>(std::move(*read.model)));
    }
    return out;
}

// One file's failure (memory, most likely) or its spent time budget is reported on that file (check-failed)
// and does not end the run; any other exception is a bug, reported on the file as well, and the run exits 2.
FileResult check_one_safely(const InputFile& file, const CheckRequest& request, bool keep,
                            std::atomic<bool>& internal_failure) {
    using namespace std::chrono;
    const double timeout_seconds = request.timeout_per_file;
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
        return check_one(file, request, keep);
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

size_t threads_for(int requested) {
    return requested > 0 ? static_cast<size_t>(requested) : std::max(1u, std::thread::hardware_concurrency());
}

// Every fingerprint of the run (for --write-baseline) and how many the baseline accepted; workers add theirs.
struct Fingerprints {
    std::mutex mutex;
    std::set<std::string> seen;
    size_t baselined = 0;
};

void apply_baseline(const CheckJob& job, Diagnostics& diagnostics, const CheckFilter& filter, Fingerprints& prints) {
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

std::optional<std::set<std::string>> load_baseline(const std::string& path, CheckFailure& failure) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::string error;
    if (!in) error = "cannot read the file";
    std::optional<std::set<std::string>> out;
    if (error.empty()) out = parse_baseline(text.str(), error);
    if (!out) failure = {CheckFailure::Kind::usage, fmt::format("--baseline {}: {}", path, error)};
    return out;
}

// Whether a file's findings reach its --fail-on level; a file that could not be checked always fails.
bool fails(const Diagnostics& diagnostics, std::string_view fail_on) {
    return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
        return always_reported(d) || (fail_on == "error" && d.severity == Severity::error) ||
               (fail_on == "warning" && d.severity >= Severity::warning);
    });
}

void count_rules(const Diagnostics& diagnostics, RuleCounts& counts) {
    for (const Diagnostic& d : diagnostics) {
        const auto it = counts.try_emplace(d.rule, 0, d.severity).first;
        ++it->second.first;
        it->second.second = std::max(it->second.second, d.severity);
    }
}

// The id of a run, the same in every shard job: the sorted relative file list and every option that changes
// the findings. `merge` refuses shards of different runs.
std::string run_id(const std::vector<CheckJob>& jobs, const CheckRequest& request, const CheckFilter& filter,
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
    mix(fmt::format("--timeout-per-file {}", request.timeout_per_file));
    mix("--baseline");
    if (filter.baseline)
        for (const auto& print : *filter.baseline) mix(print);
    mix("configurations");
    for (const auto& digest : configs.digests()) mix(digest);
    return fmt::format("{:016x}", h);
}

// Counts a file's findings, notes whether it fails the run, and hides those below its --min-severity.
void add_to_totals(CheckRun& run, FileResult& r, const FileSettings& settings) {
    run.summary.add(r);
    count_rules(r.diagnostics, run.rule_counts);
    const auto is_error = [](const Diagnostic& d) { return d.severity == Severity::error; };
    if (std::any_of(r.diagnostics.begin(), r.diagnostics.end(), is_error)) run.files_with_errors.push_back(r.path);
    run.failed = run.failed || fails(r.diagnostics, settings.fail_on);
    run.unchecked = run.unchecked || std::any_of(r.diagnostics.begin(), r.diagnostics.end(), always_reported);
    run.hidden_notes += hide_below(r.diagnostics, settings.min_severity);
}

}  // namespace

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


std::optional<CheckFilter> check_filter_for(const CheckRequest& request, CheckFailure& failure) {
    CheckFilter f;
    std::string error;
    bool ok = true;
    RuleSelection flags;
    std::set<std::string> select;
    for (const auto& list : request.select) ok = ok && add_rule_list(list, select, error);
    for (const auto& list : request.ignore) ok = ok && add_rule_list(list, flags.ignore, error);
    for (const auto& level : request.severities) ok = ok && add_severity_override(level, flags, error);
    if (!ok) {
        failure = {CheckFailure::Kind::usage, error};
        return std::nullopt;
    }
    if (!request.baseline.empty() && !(f.baseline = load_baseline(request.baseline, failure))) return std::nullopt;
    if (!select.empty()) f.flags.rules.select = select;
    f.flags.rules.ignore = flags.ignore;
    f.flags.rules.severity = flags.severity;
    if (!request.min_severity.empty()) f.flags.min_severity = parse_severity(request.min_severity);
    if (!request.fail_on.empty()) f.flags.fail_on = request.fail_on;
    f.flags.default_min_severity = request.default_min_severity;
    return f;
}

std::optional<CheckPlan> plan_run(const CheckRequest& request, CheckFilter filter, const InputFiles& input,
                                  CheckFailure& failure) {
    CheckPlan plan;
    plan.filter = std::move(filter);
    std::string error;
    std::optional<std::vector<CheckJob>> jobs =
        plan_checks(input.files, request.config, request.discover_config, plan.filter.flags, plan.configs, error);
    if (!jobs) {
        failure = {CheckFailure::Kind::config, error};
        return std::nullopt;
    }
    plan.jobs = std::move(*jobs);
    if (!request.shard.empty()) {
        const std::optional<Shard> wanted = parse_shard(request.shard);
        if (!wanted) {
            failure = {CheckFailure::Kind::usage, fmt::format("--shard {}: expected K/N with 1 <= K <= N", request.shard)};
            return std::nullopt;
        }
        plan.shard = ShardInfo{wanted->k, wanted->n, run_id(plan.jobs, request, plan.filter, plan.configs)};
        keep_shard(plan.jobs, *wanted);
    }
    if (plan.jobs.empty() && request.shard.empty()) {
        failure = {CheckFailure::Kind::usage, input.files.empty()
                                                  ? "no .xml files found"
                                                  : "no files left to check: the configuration excludes every one"};
        return std::nullopt;
    }
    return plan;
}

CheckRun check_planned(const CheckPlan& plan, const CheckRequest& request, const CheckHooks& hooks) {
    CheckRun run;
    run.planned = plan.jobs.size();
    Fingerprints prints;
    std::atomic<bool> internal_failure{false};
    const bool keep = request.process_exits_after && plan.jobs.size() == 1;
    auto check = [&](size_t i) {
        const CheckJob& job = plan.jobs[i];
        FileResult r = check_one_safely(job.file, request, keep, internal_failure);
        job.settings.selection.apply(r.diagnostics);
        apply_baseline(job, r.diagnostics, plan.filter, prints);
        if (hooks.checked) hooks.checked(r);
        return r;
    };
    size_t taken = 0;  // results come in file order
    auto take = [&](FileResult& r) {
        add_to_totals(run, r, plan.jobs[taken++].settings);
        if (hooks.take) hooks.take(r);
        if (request.keep_files) run.files.push_back(std::move(r));
    };
    const size_t threads = threads_for(request.jobs);
    run.done = run_ordered(
        {threads, 64 * threads}, plan.jobs.size(), check, take,
        [&] {
            if (hooks.idle) hooks.idle();
        },
        [&] { return hooks.cancelled && hooks.cancelled(); });
    run.fingerprints = std::move(prints.seen);
    run.baselined = prints.baselined;
    run.internal_failure = internal_failure;
    return run;
}

std::optional<CheckRun> run_checks(const CheckRequest& request, const CheckHooks& hooks, CheckFailure& failure,
                                   std::vector<std::string>& problems) {
    std::optional<CheckFilter> filter = check_filter_for(request, failure);
    if (!filter) return std::nullopt;
    const InputFiles input = find_input_files(request.paths, request.excludes);
    problems = input.problems;
    if (!input.missing.empty()) {
        std::string message;
        for (const auto& m : input.missing) message += fmt::format("{}{}: no such file or directory", message.empty() ? "" : "\n", m);
        failure = {CheckFailure::Kind::usage, message};
        return std::nullopt;
    }
    std::optional<CheckPlan> plan = plan_run(request, std::move(*filter), input, failure);
    if (!plan) return std::nullopt;
    return check_planned(*plan, request, hooks);
}

}  // namespace irlint
