#pragma once
// The check of a set of paths, one pipeline for `irlint check` and for Python's irlint.check: the rule flags
// and the baseline read, the paths walked, each file paired with its irlint.toml, the files checked on a
// pool of threads, the selection, fingerprints, baseline and --min-severity applied to each, and the totals
// that decide the exit code. The command line renders the results as they come; Python keeps them.

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pipeline/check_plan.hpp"
#include "pipeline/walk.hpp"
#include "report/report.hpp"

namespace irlint {

inline bool names_onnx_model(const std::string& path) {
    return path.size() >= 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

// What `check` is asked, in the command line's terms (docs/cli.md).
struct CheckRequest {
    std::vector<std::string> paths;
    std::vector<std::string> excludes;
    std::vector<std::string> select;      // RULE[,RULE...] each
    std::vector<std::string> ignore;      // RULE[,RULE...] each
    std::vector<std::string> severities;  // RULE=LEVEL each
    std::string min_severity;             // empty: the configuration's, else default_min_severity
    Severity default_min_severity = Severity::warning;  // of the output format
    std::string fail_on;                  // empty: the configuration's, else error
    std::string config;                   // this irlint.toml for every path, no discovery
    bool discover_config = true;          // false: --no-config
    std::string baseline;                 // a baseline file: its findings are not reported
    std::string shard;                    // K/N; empty: every file
    double timeout_per_file = 0;          // seconds; 0: no limit
    int jobs = 0;                         // threads; 0: the hardware's
    bool list_checked_layers = false;     // FileResult::checked_layers filled (JSON, JUnit, Python)
    bool keep_files = false;              // CheckRun::files holds every file's result
    // The command line: a run of one file leaves that file's model and report to the process's exit
    // (core/exit_keep.hpp). A long-lived caller (Python) frees each.
    bool process_exits_after = false;
    // Checks an .onnx file; with keep_until_exit, its model and report are not freed (core/exit_keep.hpp);
    // list_checked_layers as above.
    std::function<FileResult(const std::string& path, bool keep_until_exit, bool list_checked_layers)> check_onnx;
};

// Why a run could not start: the command line's exit-2 cases. `config` is an irlint.toml that cannot be
// read or is invalid; `usage` is everything else (bad flags, a missing path, no file to check).
struct CheckFailure {
    enum class Kind { usage, config } kind = Kind::usage;
    std::string message;
};

// The flags of the run and the accepted fingerprints.
struct CheckFilter {
    FlagSettings flags;
    std::optional<std::set<std::string>> baseline;
};

// The files a run checks, each with what applies to it.
struct CheckPlan {
    CheckFilter filter;
    Configurations configs;
    std::vector<CheckJob> jobs;
    std::optional<ShardInfo> shard;
};

// Per rule: how many findings, and the highest severity among them.
using RuleCounts = std::map<std::string, std::pair<size_t, Severity>>;

struct CheckRun {
    std::vector<FileResult> files;  // with keep_files, in file order, below --min-severity hidden
    Summary summary;                // every finding counted, hidden or not (wall_seconds not set)
    RuleCounts rule_counts;
    size_t hidden_notes = 0;
    std::vector<std::string> files_with_errors;
    std::set<std::string> fingerprints;  // of every finding, for --write-baseline
    size_t baselined = 0;                // findings the baseline accepted
    bool failed = false;                 // some file reached its --fail-on level
    bool unchecked = false;              // some file could not be checked (check-failed)
    bool internal_failure = false;       // a bug in irlint stopped a file
    size_t planned = 0, done = 0;        // done < planned: cancelled

    bool cancelled() const { return done < planned; }
    // The exit code of `irlint check` without -o and --write-baseline: 2 for a bug, 1 when failed, else 0.
    int exit_code() const { return internal_failure ? 2 : failed ? 1 : 0; }
};

// What the caller sees of a run while it goes on; every hook may be empty.
struct CheckHooks {
    std::function<void(const FileResult&)> checked;  // on a worker thread, as each file is done
    std::function<void(FileResult&)> take;           // on the calling thread, in file order
    std::function<void()> idle;                      // on the calling thread, about ten times a second
    std::function<bool()> cancelled;                 // once true, no new file is started
};

// Keeps the memory a checked file frees for the next one instead of handing it back to the kernel (glibc's
// malloc settings, for the whole process): a batch of files then faults its memory in once, not per file,
// and the threads of a process do not queue on its page tables.
void keep_freed_memory();

// The steps, for the command line, which has work of its own between them (handing a run with .onnx files
// over to irlint-onnx, --fix):
// 1. --select, --ignore, --severity, --min-severity, --fail-on and the baseline file.
std::optional<CheckFilter> check_filter_for(const CheckRequest& request, CheckFailure& failure);
// 2. find_input_files (pipeline/walk.hpp), then: each file's configuration, the shard.
std::optional<CheckPlan> plan_run(const CheckRequest& request, CheckFilter filter, const InputFiles& input,
                                  CheckFailure& failure);
// 3. The files checked.
CheckRun check_planned(const CheckPlan& plan, const CheckRequest& request, const CheckHooks& hooks);

// All three, for a caller with nothing between them. `problems` gets what the walk skipped (unreadable
// directories, broken links): the command line's warnings.
std::optional<CheckRun> run_checks(const CheckRequest& request, const CheckHooks& hooks, CheckFailure& failure,
                                   std::vector<std::string>& problems);

}  // namespace irlint
