#include "pipeline/check_plan.hpp"

#include <map>
#include <unordered_map>

#include <fmt/format.h>

namespace irlint {

namespace fs = std::filesystem;

std::vector<std::string> Configurations::digests() const {
    std::vector<std::string> out;
    for (const Config& c : loaded) out.push_back(fmt::format("{}={}", c.root.generic_string(), c.digest));
    return out;
}

namespace {

fs::path absolute_of(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    return ec ? fs::path(path) : p.lexically_normal();
}

// Reads each configuration file once, and remembers which directory found which.
class ConfigFinder {
public:
    ConfigFinder(Configurations& configs, std::string& error) : configs_(configs), error_(error) {}

    // The configuration of the directory that holds `path`. The files of a directory share it: the directory
    // as spelled is made absolute once.
    std::optional<const Config*> for_file(const std::string& path) {
        const std::string spelled = path.substr(0, path.find_last_of('/') + 1);
        const auto known = by_spelled_dir_.find(spelled);
        if (known != by_spelled_dir_.end()) return known->second;
        return by_spelled_dir_[spelled] = for_directory(absolute_of(path).parent_path());
    }

    // nullopt on an invalid file; a null pointer when no configuration governs `dir`.
    std::optional<const Config*> for_directory(const fs::path& dir) {
        const auto known = by_dir_.find(dir);
        if (known != by_dir_.end()) return known->second;
        const std::optional<fs::path> file = find_config(dir);
        const std::optional<const Config*> config = file ? load(*file) : std::optional<const Config*>(nullptr);
        if (config) by_dir_[dir] = *config;
        return config;
    }

    std::optional<const Config*> load(const fs::path& file) {
        const auto known = by_file_.find(file);
        if (known != by_file_.end()) return known->second;
        std::error_code ec;
        const fs::path shown = fs::proximate(file, ec);  // as the user would spell it, where it can be
        std::optional<Config> config = load_config(ec ? file.string() : shown.string(), error_);
        if (!config) return std::nullopt;
        configs_.loaded.push_back(std::move(*config));
        return by_file_[file] = &configs_.loaded.back();
    }

private:
    Configurations& configs_;
    std::string& error_;
    std::unordered_map<std::string, std::optional<const Config*>> by_spelled_dir_;
    std::map<fs::path, const Config*> by_dir_;
    std::map<fs::path, const Config*> by_file_;
};

std::string relative_to_root(const Config& config, const std::string& path) {
    return absolute_of(path).lexically_relative(config.root).generic_string();
}

FileSettings settings_of(const InputFile& file, const Config* config, const FlagSettings& flags) {
    FileSettings s;
    RuleSettings rules;
    if (config) rules = config->rules_for(relative_to_root(*config, file.path));
    // A rule asked for on the command line is reported even where the configuration ignores it.
    if (flags.rules.select)
        for (const auto& id : *flags.rules.select) rules.ignore.erase(id);
    rules.merge(flags.rules);
    s.selection = rules.selection();
    s.min_severity = flags.min_severity ? *flags.min_severity
                     : config && config->min_severity ? *config->min_severity
                                                      : flags.default_min_severity;
    s.fail_on = flags.fail_on ? *flags.fail_on : config && config->fail_on ? *config->fail_on : "error";
    s.fingerprint_path = config ? relative_to_root(*config, file.path) : file.relative;
    return s;
}

}  // namespace

std::optional<std::vector<CheckJob>> plan_checks(const std::vector<InputFile>& files, const std::string& config_flag,
                                                 bool discover, const FlagSettings& flags, Configurations& configs,
                                                 std::string& error) {
    ConfigFinder finder(configs, error);
    std::optional<const Config*> fixed(nullptr);
    if (!config_flag.empty()) {
        std::error_code ec;
        if (!fs::is_regular_file(config_flag, ec)) {
            error = fmt::format("--config {}: no such file", config_flag);
            return std::nullopt;
        }
        if (!(fixed = finder.load(config_flag))) return std::nullopt;
    }
    std::vector<CheckJob> jobs;
    for (const InputFile& file : files) {
        std::optional<const Config*> config = fixed;
        if (config_flag.empty() && discover) config = finder.for_file(file.path);
        if (!config) return std::nullopt;
        if (*config && !file.named && (*config)->excludes(relative_to_root(**config, file.path))) continue;
        jobs.push_back({file, settings_of(file, *config, flags)});
    }
    return jobs;
}

}  // namespace irlint
