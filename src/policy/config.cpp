#include "policy/config.hpp"

#include <fmt/format.h>

// toml++ header-only: Debian's shared libtomlplusplus is built against the shared libstdc++, which the static
// irlint binary does not use; compiled into this one file it brings no second runtime. No exceptions, so a
// syntax error is a return value like every other problem of the file.
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
// toml++ 3.3 states facts about the text being parsed that hostile text breaks ('[' and then '=' in a table
// header, '}' in an array), and reports the error itself right after. Under NDEBUG it makes each such fact an
// assumption for the optimizer (clang's __builtin_assume: undefined behaviour when false), otherwise an assert
// that aborts. Neither may run on a configuration file: its headers see no NDEBUG and an assertion that checks
// nothing, as its own release build has.
#pragma push_macro("NDEBUG")
#undef NDEBUG
#define TOML_ASSERT(expr) static_assert(true)
#include <toml++/toml.h>
#pragma pop_macro("NDEBUG")

#include "core/hash.hpp"
#include "core/read_file.hpp"
#include "core/text.hpp"
#include "policy/toml_guard.hpp"
#include "rules/registry.hpp"

namespace irlint {

void RuleSettings::merge(const RuleSettings& later) {
    if (later.select) select = later.select;
    ignore.insert(later.ignore.begin(), later.ignore.end());
    for (const auto& [id, level] : later.severity) severity[id] = level;
}

RuleSelection RuleSettings::selection() const {
    RuleSelection s;
    if (select) s.select = *select;
    s.ignore = ignore;
    s.severity = severity;
    return s;
}

bool glob_matches(std::string_view glob, std::string_view relative) {
    if (glob_match(glob, relative)) return true;
    if (glob.find('/') != std::string_view::npos) return false;
    const size_t slash = relative.rfind('/');
    return slash != std::string_view::npos && glob_match(glob, relative.substr(slash + 1));
}

RuleSettings Config::rules_for(std::string_view relative) const {
    RuleSettings out = rules;
    for (const ConfigOverride& o : overrides)
        for (const std::string& glob : o.paths)
            if (glob_matches(glob, relative)) {
                out.merge(o.rules);
                break;
            }
    return out;
}

bool Config::excludes(std::string_view relative) const {
    for (const std::string& glob : exclude)
        if (glob_matches(glob, relative)) return true;
    return false;
}

std::optional<std::filesystem::path> find_config(const std::filesystem::path& directory) {
    std::error_code ec;
    for (std::filesystem::path dir = directory;; dir = dir.parent_path()) {
        const std::filesystem::path candidate = dir / "irlint.toml";
        if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
        if (std::filesystem::exists(dir / ".git", ec) || dir == dir.parent_path() || dir.empty()) return std::nullopt;
    }
}

namespace {

constexpr std::string_view kTopKeys = "select, ignore, exclude, fail-on, min-severity, severity, overrides";
constexpr std::string_view kOverrideKeys = "paths, select, ignore, severity";

// Reads one file; the first problem found ends the reading.
class ConfigReader {
public:
    ConfigReader(std::string path, std::string& error) : path_(std::move(path)), error_(error) {}

    std::optional<Config> read(std::string_view text) {
        auto safe = toml_text_for_parser(text);
        if (const auto* refusal = std::get_if<TomlRefusal>(&safe)) {
            fail(refusal->line, refusal->reason);
            return std::nullopt;
        }
        toml::parse_result parsed = toml::parse(std::get<std::string>(safe), path_);
        if (!parsed) {
            const auto& e = parsed.error();
            fail(static_cast<int>(e.source().begin.line),
                 fmt::format("not valid TOML: {} (column {})", e.description(), e.source().begin.column));
            return std::nullopt;
        }
        Config config;
        config.path = path_;
        if (!read_top(parsed.table(), config)) return std::nullopt;
        return config;
    }

private:
    bool fail(int line, std::string message) {
        error_ = fmt::format("{}:{}: {}", path_, line, message);
        return false;
    }
    static int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }
    static int line_of(const toml::key& key) { return static_cast<int>(key.source().begin.line); }

    bool read_top(const toml::table& table, Config& config) {
        for (const auto& [key, node] : table) {
            const std::string_view name = key.str();
            bool ok = true;
            if (name == "select" || name == "ignore" || name == "severity") ok = read_rule_key(key, node, config.rules);
            else if (name == "exclude") ok = read_strings(key, node, config.exclude);
            else if (name == "fail-on") ok = read_fail_on(key, node, config);
            else if (name == "min-severity") ok = read_min_severity(key, node, config);
            else if (name == "overrides") ok = read_overrides(key, node, config);
            else ok = fail(line_of(key), fmt::format("unknown key '{}'; valid keys: {}", excerpt(name), kTopKeys));
            if (!ok) return false;
        }
        return true;
    }

    bool read_rule_key(const toml::key& key, const toml::node& node, RuleSettings& rules) {
        if (key.str() == "severity") return read_severity_table(key, node, rules);
        std::vector<std::string> ids;
        if (!read_strings(key, node, ids) || !known_rules(node, ids)) return false;
        for (std::string& id : ids) id = std::string(find_rule(id)->id);  // an old id names the current rule
        if (key.str() == "select") rules.select.emplace(ids.begin(), ids.end());
        else rules.ignore.insert(ids.begin(), ids.end());
        return true;
    }

    bool known_rules(const toml::node& node, const std::vector<std::string>& ids) {
        for (size_t i = 0; i < ids.size(); ++i)
            if (!find_rule(ids[i]))
                return fail(line_of(*node.as_array()->get(i)),
                             fmt::format("unknown rule '{}'; valid rules: {}", excerpt(ids[i]), valid_rule_ids()));
        return true;
    }

    bool read_strings(const toml::key& key, const toml::node& node, std::vector<std::string>& out) {
        const toml::array* list = node.as_array();
        if (!list) return fail(line_of(node), fmt::format("'{}' must be an array of strings", key.str()));
        for (const toml::node& item : *list) {
            const auto text = item.value<std::string>();
            if (!text || !item.is_string())
                return fail(line_of(item), fmt::format("'{}' must be an array of strings", key.str()));
            out.push_back(*text);
        }
        return true;
    }

    bool read_severity_table(const toml::key& key, const toml::node& node, RuleSettings& rules) {
        const toml::table* table = node.as_table();
        if (!table)
            return fail(line_of(node), fmt::format("'{}' must be a table of rule-id = \"level\"", key.str()));
        for (const auto& [id, level_node] : *table) {
            const auto rule = find_rule(id.str());
            if (!rule)
                return fail(line_of(id),
                             fmt::format("unknown rule '{}'; valid rules: {}", excerpt(id.str()), valid_rule_ids()));
            const auto level = level_node.value<std::string>();
            if (level && *level == "off") {
                rules.severity[std::string(rule->id)] = std::nullopt;
                continue;
            }
            const auto severity = level ? parse_severity(*level) : std::nullopt;
            if (!severity || !level_node.is_string())
                return fail(line_of(level_node),
                             fmt::format("unknown level '{}' for {}; valid levels: error, warning, note, off",
                                         excerpt(level.value_or("")), id.str()));
            rules.severity[std::string(rule->id)] = *severity;
        }
        return true;
    }

    bool read_fail_on(const toml::key& key, const toml::node& node, Config& config) {
        const auto level = node.value<std::string>();
        if (!node.is_string()) return fail(line_of(node), fmt::format("'{}' must be a string: error, warning or never", key.str()));
        if (*level != "error" && *level != "warning" && *level != "never")
            return fail(line_of(node), fmt::format("unknown level '{}' for {}; valid levels: error, warning, never",
                                                    excerpt(*level), key.str()));
        config.fail_on = *level;
        return true;
    }

    bool read_min_severity(const toml::key& key, const toml::node& node, Config& config) {
        const auto level = node.value<std::string>();
        if (!node.is_string()) return fail(line_of(node), fmt::format("'{}' must be a string: error, warning or note", key.str()));
        const auto severity = parse_severity(*level);
        if (!severity)
            return fail(line_of(node), fmt::format("unknown level '{}' for {}; valid levels: error, warning, note",
                                                    excerpt(level.value_or("")), key.str()));
        config.min_severity = *severity;
        return true;
    }

    bool read_overrides(const toml::key& key, const toml::node& node, Config& config) {
        const toml::array* list = node.as_array();
        if (!list || !list->is_array_of_tables())
            return fail(line_of(node), fmt::format("'{}' must be an array of tables ([[{}]])", key.str(), key.str()));
        for (const toml::node& item : *list)
            if (!read_override(*item.as_table(), config)) return false;
        return true;
    }

    bool read_override(const toml::table& table, Config& config) {
        ConfigOverride o;
        bool has_paths = false;
        for (const auto& [key, node] : table) {
            const std::string_view name = key.str();
            bool ok = true;
            if (name == "paths") ok = has_paths = read_strings(key, node, o.paths);
            else if (name == "select" || name == "ignore" || name == "severity") ok = read_rule_key(key, node, o.rules);
            else
                ok = fail(line_of(key),
                           fmt::format("unknown key '{}' in [[overrides]]; valid keys: {}", excerpt(name), kOverrideKeys));
            if (!ok) return false;
        }
        if (!has_paths) return fail(line_of(table), "[[overrides]] needs 'paths', a list of globs");
        config.overrides.push_back(std::move(o));
        return true;
    }

    std::string path_;
    std::string& error_;
};

std::string digest_of(std::string_view text) { return fmt::format("{:016x}", fnv1a(text)); }

}  // namespace

std::optional<Config> load_config(const std::string& path, std::string& error) {
    const std::optional<std::string> text = read_whole_file(path);
    if (!text) {
        error = fmt::format("{}: cannot read the configuration file", path);
        return std::nullopt;
    }
    std::optional<Config> config = ConfigReader(path, error).read(*text);
    if (!config) return std::nullopt;
    config->root = std::filesystem::absolute(path).lexically_normal().parent_path();
    config->digest = digest_of(*text);
    return config;
}

}  // namespace irlint
