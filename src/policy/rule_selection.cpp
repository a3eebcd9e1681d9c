#include "policy/rule_selection.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/registry.hpp"

namespace irlint {

bool always_reported(const Diagnostic& d) { return d.rule == rule::check_failed.id; }

void RuleSelection::apply(Diagnostics& diagnostics) const {
    std::erase_if(diagnostics, [&](const Diagnostic& d) {
        if (always_reported(d)) return false;
        if (!select.empty() && !select.count(d.rule)) return true;
        if (ignore.count(d.rule)) return true;
        const auto level = severity.find(d.rule);
        return level != severity.end() && !level->second;
    });
    for (Diagnostic& d : diagnostics)
        if (const auto level = severity.find(d.rule); level != severity.end() && !always_reported(d))
            d.severity = *level->second;
}

std::string valid_rule_ids() {
    std::string out;
    for (const Rule& r : rule_registry()) out += (out.empty() ? "" : ", ") + std::string(r.id);
    return out;
}

namespace {
// The current id of a known rule (an old id is an alias of one); nullopt with `error` otherwise.
std::optional<std::string> known_rule(std::string_view id, std::string& error) {
    if (const auto rule = find_rule(id)) return std::string(rule->id);
    error = fmt::format("unknown rule '{}'; valid rules: {}", id, valid_rule_ids());
    return std::nullopt;
}
}  // namespace

bool add_rule_list(std::string_view text, std::set<std::string>& out, std::string& error) {
    for (std::string_view id : split(text, ',')) {
        const auto rule = known_rule(id, error);
        if (!rule) return false;
        out.insert(*rule);
    }
    return true;
}

std::optional<Severity> parse_severity(std::string_view text) {
    for (Severity s : {Severity::error, Severity::warning, Severity::note})
        if (severity_name(s) == text) return s;
    return std::nullopt;
}

bool add_severity_override(std::string_view text, RuleSelection& selection, std::string& error) {
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos) {
        error = fmt::format("'{}': expected RULE=LEVEL", text);
        return false;
    }
    const std::string_view id = text.substr(0, eq), level = text.substr(eq + 1);
    const auto rule = known_rule(id, error);
    if (!rule) return false;
    if (level == "off") {
        selection.severity[*rule] = std::nullopt;
        return true;
    }
    const auto severity = parse_severity(level);
    if (!severity) {
        error = fmt::format("unknown level '{}' for {}; valid levels: error, warning, note, off", level, id);
        return false;
    }
    selection.severity[*rule] = *severity;
    return true;
}

size_t hide_below(Diagnostics& diagnostics, Severity min) {
    size_t notes = 0;
    std::erase_if(diagnostics, [&](const Diagnostic& d) {
        if (d.severity >= min || always_reported(d)) return false;
        notes += d.severity == Severity::note;
        return true;
    });
    return notes;
}

std::string hidden_notes_line(size_t hidden_notes) {
    if (hidden_notes == 0) return "";
    return fmt::format("{} note{} hidden (--min-severity note shows them)\n", hidden_notes,
                       hidden_notes == 1 ? "" : "s");
}

Severity default_min_severity(std::string_view format) { return format == "text" ? Severity::warning : Severity::note; }

std::string files_with_errors_line(const std::vector<std::string>& paths) {
    if (paths.empty()) return "";
    constexpr size_t kNamed = 10;
    std::string out = "files with errors: ";
    for (size_t i = 0; i < std::min(paths.size(), kNamed); ++i) out += (i ? ", " : "") + paths[i];
    if (paths.size() > kNamed) out += fmt::format(" and {} more", paths.size() - kNamed);
    return out + "\n";
}

}  // namespace irlint
