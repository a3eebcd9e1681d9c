#pragma once
// Reads a report written by `irlint check --format json` back into FileResults, for `irlint merge`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.hpp"

namespace irlint {

struct CheckReport {
    std::vector<FileResult> files;
    std::optional<ShardInfo> shard;  // the report's "shard" object, when it has one
};

// Returns the report's files and shard, or nullopt and `error` naming the offending place
// ("files[3].diagnostics[0].line: expected an integer from 0 to 2147483647, found a string").
// Keys the reader does not know are ignored, so reports of newer versions still merge. Its keys are those
// the JSON reporter writes (report/report_schema.hpp).
std::optional<CheckReport> read_check_report(std::string_view json_text, std::string& error);

}  // namespace irlint
