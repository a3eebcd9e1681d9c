#pragma once
// The rule registry: every rule id with its default severity, whether `--fix` can repair it, its one-line
// description and where it is documented. SARIF's rule table, `irlint rules` and the index of docs/rules.md
// come from here (a unit test holds docs/rules.md to it).

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/diagnostic.hpp"

namespace irlint {

inline constexpr std::string_view kProjectUrl = "https://github.com/irlint/irlint";

struct RuleDoc {
    std::string_view id;
    Severity severity;         // the severity of the rule's typical finding; some cases use a lower one
    bool fixable;              // `irlint check --fix` repairs its findings
    std::string_view summary;  // one line, as in the table of docs/rules.md
};

// Every rule id, in the order of docs/rules.md.
std::span<const RuleDoc> rule_docs();

// Also by an old id kept as an alias (check-timeout: check-failed); the RuleDoc has the current id.
std::optional<RuleDoc> find_rule(std::string_view rule_id);

// The rule's section of docs/rules.md: its anchor is the rule id.
std::string rule_help_uri(std::string_view rule_id);

// The row of the table in docs/rules.md for one rule.
std::string rule_table_row(const RuleDoc& rule);

}  // namespace irlint
