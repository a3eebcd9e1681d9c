// `irlint rules [RULE]`: the rule registry as a table, or one rule's documentation.

#include <algorithm>
#include <span>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "report/report.hpp"
#include "rules/registry.hpp"
#include "policy/rule_selection.hpp"
#include "report/rules_markdown.hpp"

namespace irlint::cli {

void setup_rules(CLI::App& app, RulesOptions& o) {
    app.add_option("rule", o.rule, "Print this rule's documentation instead of the table");
    app.add_option("--format", o.format, "Output format: text or json")->check(CLI::IsMember({"text", "json"}));
}

namespace {

void write_rule(JsonWriter& json, const Rule& r, std::string_view documentation) {
    json.begin_object().field("id", r.id).field("severity", severity_name(r.severity)).field("fixable", r.fixable);
    json.field("description", r.summary).field("help_uri", rule_help_uri(r));
    if (!documentation.empty()) json.field("documentation", documentation);
    json.end();
}

// {"rules":[...]}: every rule, or one with its documentation.
std::string rules_json(std::span<const Rule> rules, std::string_view documentation) {
    JsonWriter json;
    json.begin_object().key("rules").begin_array();
    for (const Rule& r : rules) write_rule(json, r, documentation);
    return json.end().end().take() + "\n";
}

std::string rules_table_text() {
    size_t id_width = 4;
    for (const Rule& r : rule_registry()) id_width = std::max(id_width, r.id.size());
    std::string out = fmt::format("{:<{}}  {:<8}  {:<7}  {}\n", "rule", id_width, "severity", "fixable", "description");
    for (const Rule& r : rule_registry())
        out += fmt::format("{:<{}}  {:<8}  {:<7}  {}\n", r.id, id_width, severity_name(r.severity),
                           r.fixable ? "yes" : "no", r.summary);
    return out;
}

}  // namespace

int run_rules(const RulesOptions& o) {
    if (o.rule.empty()) {
        if (o.format == "text") return emit_output("", rules_table_text());
        return emit_output("", rules_json(rule_registry(), {}));
    }
    const Rule* rule = find_rule(o.rule);
    if (!rule) {
        print_error(fmt::format("unknown rule '{}'; valid rules: {}", o.rule, valid_rule_ids()));
        return exit_code::usage;
    }
    const std::string_view section = rule_section(rules_markdown(), rule->id);
    if (o.format == "json") return emit_output("", rules_json({rule, 1}, section));
    return emit_output("",
                       fmt::format("{} ({}, {}fixable): {}\n\n{}\nSee {}\n", rule->id, severity_name(rule->severity),
                                   rule->fixable ? "" : "not ", rule->summary, section, rule_help_uri(*rule)));
}

}  // namespace irlint::cli
