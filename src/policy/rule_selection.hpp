#pragma once
// Which findings a run reports, and at which severity: --select, --ignore and --severity RULE=LEVEL.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"

namespace irlint {

// A finding of check-failed: the file was not checked, so no selection, severity, --min-severity or baseline
// may hide or lower it, and it always fails the run.
bool always_reported(const Diagnostic& d);

struct RuleSelection {
    std::set<std::string> select;  // empty: every rule
    std::set<std::string> ignore;
    std::map<std::string, std::optional<Severity>> severity;  // nullopt: off

    // Drops the findings the selection turns off and re-levels the others (never an always_reported one).
    void apply(Diagnostics& diagnostics) const;
};

// "rule-a,rule-b" into `out`, an old id as the current one; false with `error` naming the unknown id and the
// valid ones.
bool add_rule_list(std::string_view text, std::set<std::string>& out, std::string& error);
// "RULE=LEVEL" with LEVEL error|warning|note|off.
bool add_severity_override(std::string_view text, RuleSelection& selection, std::string& error);
// "error" | "warning" | "note".
std::optional<Severity> parse_severity(std::string_view text);

std::string valid_rule_ids();

// --min-severity: removes the findings below `min` (never an always_reported one); returns how many notes
// that hid.
size_t hide_below(Diagnostics& diagnostics, Severity min);
// The line a text report ends with when notes were hidden; empty when none were.
std::string hidden_notes_line(size_t hidden_notes);
// The line after the text summary that names the files with errors (the first ten); empty when none.
std::string files_with_errors_line(const std::vector<std::string>& paths);
// The default of --min-severity: text hides notes, machine formats keep everything.
Severity default_min_severity(std::string_view format);

}  // namespace irlint
