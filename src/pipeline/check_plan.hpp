#pragma once
// Which irlint.toml governs each checked file, and what applies to the file once the flags are laid over
// it: command-line flags win over the configuration, which wins over the defaults.

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/walk.hpp"
#include "policy/config.hpp"

namespace irlint {

// The run's own choices, from the command line; unset parts fall back to the configuration.
struct FlagSettings {
    RuleSettings rules;
    std::optional<Severity> min_severity;
    std::optional<std::string> fail_on;
    Severity default_min_severity = Severity::warning;  // of the output format
};

// What applies to one file.
struct FileSettings {
    RuleSelection selection;
    Severity min_severity = Severity::warning;
    std::string fail_on = "error";
    std::string fingerprint_path;  // relative to the configuration's directory, else to the PATH argument
};

struct CheckJob {
    InputFile file;
    FileSettings settings;
};

// The configurations in use, read once each.
struct Configurations {
    std::deque<Config> loaded;
    std::vector<std::string> digests() const;  // path and digest of each, for the id of a run
};

// Pairs each file with its settings and drops the files a configuration's `exclude` names (only files found
// by walking a directory: a file named on the command line is always checked). `config_flag` is --config
// (every file, no discovery); `discover` is false for --no-config. nullopt with `error` for a configuration
// file that cannot be read or is invalid.
std::optional<std::vector<CheckJob>> plan_checks(const std::vector<InputFile>& files, const std::string& config_flag,
                                                 bool discover, const FlagSettings& flags, Configurations& configs,
                                                 std::string& error);

}  // namespace irlint
