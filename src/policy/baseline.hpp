#pragma once
// Baselines: the fingerprints of accepted findings. A fingerprint does not depend on line numbers, so a
// finding keeps it when lines move above it.

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "core/diagnostic.hpp"

namespace irlint {

// 16 hex digits from the file's path relative to the configuration root or its PATH argument, the rule id,
// the layer's name and type, and the port; a finding without a port adds its message minus the digits.
std::string finding_fingerprint(std::string_view relative_path, const Diagnostic& d);

// {"version":1,"fingerprints":[...]}, sorted.
std::string baseline_json(const std::set<std::string>& fingerprints);

// nullopt with `error` when the text is not a baseline written by --write-baseline.
std::optional<std::set<std::string>> parse_baseline(std::string_view text, std::string& error);

}  // namespace irlint
