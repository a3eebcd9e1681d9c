#pragma once
// irlint.toml: a model repository's choice of rules, severities and paths, kept beside the models it
// governs. Found for each checked file as the nearest irlint.toml in its directory or a parent, stopping at
// a directory that holds .git.

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "policy/rule_selection.hpp"

namespace irlint {

// What a table of the file says about rules; each part is optional, so that a later table only changes
// what it names.
struct RuleSettings {
    std::optional<std::set<std::string>> select;
    std::set<std::string> ignore;
    std::map<std::string, std::optional<Severity>> severity;  // nullopt: off

    // Layers `later` over this: its select replaces, its ignore adds, its severities win.
    void merge(const RuleSettings& later);
    RuleSelection selection() const;
};

struct ConfigOverride {
    std::vector<std::string> paths;  // globs relative to the configuration's directory
    RuleSettings rules;
};

struct Config {
    std::string path;              // the file, as found
    std::filesystem::path root;    // its directory: globs and fingerprints are relative to it
    RuleSettings rules;
    std::vector<std::string> exclude;
    std::optional<std::string> fail_on;  // error | warning | never
    std::optional<Severity> min_severity;
    std::vector<ConfigOverride> overrides;
    std::string digest;            // of the file's bytes: runs with different configurations differ

    // The rules for a file at `relative` (to root): the top level, then every override whose paths match,
    // in file order.
    RuleSettings rules_for(std::string_view relative) const;
    bool excludes(std::string_view relative) const;
};

// Reads and validates a configuration file. nullopt with `error` as "FILE:LINE: what is wrong; the valid
// choices" for a syntax error, an unknown key, rule id or level, or a value of the wrong kind.
std::optional<Config> load_config(const std::string& path, std::string& error);

// The nearest irlint.toml in `directory` or a parent; none past a directory holding .git.
std::optional<std::filesystem::path> find_config(const std::filesystem::path& directory);

// A glob of a configuration or of --exclude against a relative path: `*` and `**` cross directories, and a
// glob without a slash also matches the file name alone.
bool glob_matches(std::string_view glob, std::string_view relative);

}  // namespace irlint
