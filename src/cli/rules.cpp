// `irlint rules [RULE]`: the rule registry as a table, or one rule's documentation.

#include <algorithm>

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

std::string rule_json(const Rule& r, std::string_view documentation) {
    std::string out = fmt::format("{{\"id\":{},\"severity\":\"{}\",\"fixable\":{},\"description\":{},\"help_uri\":{}",
                                  json_string(r.id), severity_name(r.severity), r.fixable ? "true" : "false",
                                  json_string(r.summary), json_string(rule_help_uri(r)));
    if (!documentation.empty()) out += fmt::format(",\"documentation\":{}", json_string(documentation));
    return out + "}";
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
        std::string out = "{\"rules\":[";
        for (const Rule& r : rule_registry()) out += (out.back() == '[' ? "" : ",") + rule_json(r, {});
        return emit_output("", out + "]}\n");
    }
    const Rule* rule = find_rule(o.rule);
    if (!rule) {
        print_error(fmt::format("unknown rule '{}'; valid rules: {}", o.rule, valid_rule_ids()));
        return exit_code::usage;
    }
    const std::string_view section = rule_section(rules_markdown(), rule->id);
    if (o.format == "json") return emit_output("", "{\"rules\":[" + rule_json(*rule, section) + "]}\n");
    return emit_output("",
                       fmt::format("{} ({}, {}fixable): {}\n\n{}\nSee {}\n", rule->id, severity_name(rule->severity),
                                   rule->fixable ? "" : "not ", rule->summary, section, rule_help_uri(*rule)));
}

}  // namespace irlint::cli
