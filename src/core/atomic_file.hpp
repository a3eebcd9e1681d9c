#pragma once
// Output files appear whole or not at all: content goes to a temporary file beside the target, which is
// then renamed over it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irlint {

// Returns an error text on failure; the temporary file is removed then.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content);
// The same for content in pieces, written one after another (a header, then a large buffer).
std::optional<std::string> write_file_atomically(const std::string& path, const std::vector<std::string_view>& pieces);

}  // namespace irlint
