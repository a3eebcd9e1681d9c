#pragma once
// The unified diff `irlint check --diff` prints: what `--fix` would change in a file, for a person to read.

#include <string>
#include <string_view>

namespace irlint {

inline constexpr size_t kDiffContextLines = 3;

// `--- a/PATH`, `+++ b/PATH` and one `@@ -l,n +l,n @@` hunk per group of changed lines, with three lines
// of context, from a shortest edit script (lines a --fix rewrites, or <dim> lines it adds or removes).
// The text comes from a model file: each line is shown through printable() with its tabs kept, and the CR
// of a CRLF line end is left out.
std::string unified_diff(std::string_view path, std::string_view before, std::string_view after);

}  // namespace irlint
