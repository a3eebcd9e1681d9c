#pragma once
// `irlint check --fix` and `--diff`: rewrite (or show the rewrite of) the IR files whose pooling layers
// declare output dims or precisions that inference contradicts.

#include <cstddef>
#include <vector>

#include "pipeline/check_plan.hpp"

namespace irlint::cli {

struct FixTotals {
    size_t files = 0;     // rewritten (with --diff: that would be)
    size_t findings = 0;  // findings the rewrites resolve
    size_t refused = 0;   // files with something to fix that were left as they were
};

// Fixes the IR files of `jobs` in place, atomically; with `diff_only`, prints the unified diff of each
// instead and writes nothing. Explains every refusal on stderr.
FixTotals fix_files(const std::vector<CheckJob>& jobs, bool diff_only);

}  // namespace irlint::cli
