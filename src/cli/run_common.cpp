#include "cli/run_common.hpp"

#include <algorithm>

#include "cli/common.hpp"

namespace irlint::cli {

RunRequest request_for(const RunOptions& o, const RunLimits& limits) {
    RunRequest r;
    r.threads = o.threads;
    r.max_bytes = limits.max_bytes;
    r.atol = limits.atol;
    r.rtol = limits.rtol;
    return r;
}

int status_exit(const std::vector<LayerRun>& runs) {
    const bool bad = std::any_of(runs.begin(), runs.end(), [](const LayerRun& r) { return r.status != RunStatus::ok; });
    return bad ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
