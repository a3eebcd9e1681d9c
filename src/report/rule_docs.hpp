#pragma once
// Where each rule is documented: the one place that knows the project's address.

#include <span>
#include <string>
#include <string_view>

namespace irlint {

inline constexpr std::string_view kProjectUrl = "https://github.com/irlint/irlint";

struct RuleDoc {
    std::string_view id;
    std::string_view summary;  // one line, as in the table of docs/rules.md
};

// Every rule id, in the order of docs/rules.md.
std::span<const RuleDoc> rule_docs();

// The rule's section of docs/rules.md: its anchor is the rule id.
std::string rule_help_uri(std::string_view rule_id);

}  // namespace irlint
