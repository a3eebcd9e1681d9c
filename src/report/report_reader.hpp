#pragma once
// Reads a report written by `irlint check --format json` back into FileResults, for `irlint merge`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.hpp"

namespace irlint {

// Returns the files of the report, or nullopt and `error` naming the offending place
// ("files[3].diagnostics[0].line: expected an integer from 0 to 2147483647, found a string").
// Keys the reader does not know are ignored, so reports of newer versions still merge.
std::optional<std::vector<FileResult>> read_check_report(std::string_view json_text, std::string& error);

// The report's "shard" object, when it has one; `error` is set when it is there but malformed.
std::optional<ShardInfo> read_shard_info(std::string_view json_text, std::string& error);

}  // namespace irlint
