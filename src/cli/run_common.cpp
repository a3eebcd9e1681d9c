#include "cli/run_common.hpp"

#include <algorithm>

#include "cli/common.hpp"
#include "core/atomic_file.hpp"
#include "report/run_report.hpp"

namespace irlint::cli {

RunRequest request_for(const RunOptions& o, const RunLimits& limits) {
    RunRequest r;
    r.threads = o.threads;
    r.max_bytes = limits.max_bytes;
    r.atol = limits.atol;
    r.rtol = limits.rtol;
    r.error_detail = !o.report.empty();
    return r;
}

int write_run_report(const RunOptions& o, const std::vector<LayerRun>& runs, int status) {
    if (o.report.empty()) return status;
    if (auto failed = write_file_atomically(o.report, runs_html(runs, o.model, !o.data_dir.empty()))) {
        print_error(*failed);
        return exit_code::usage;
    }
    return status;
}

int status_exit(const std::vector<LayerRun>& runs) {
    // Nothing compared is nothing mismatched: not_compared exits 0, as ok does.
    const bool bad = std::any_of(runs.begin(), runs.end(), [](const LayerRun& r) {
        return r.status == RunStatus::mismatch || r.status == RunStatus::error;
    });
    return bad ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
