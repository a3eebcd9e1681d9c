#pragma once
// docs/rules.md, built into the binary, so that `irlint rules RULE` prints a rule's documentation.

#include <string_view>

namespace irlint {

std::string_view rules_markdown();

// The section `## RULE` of docs/rules.md without its heading line; empty when there is none.
std::string_view rule_section(std::string_view markdown, std::string_view rule_id);

}  // namespace irlint
