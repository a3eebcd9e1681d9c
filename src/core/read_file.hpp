#pragma once
// Whole-file reads, for the files irlint reads in one piece (configurations, reports, models to fix).

#include <optional>
#include <string>

namespace irlint {

// The file's bytes, or nullopt when it cannot be opened or read.
std::optional<std::string> read_whole_file(const std::string& path);

}  // namespace irlint
