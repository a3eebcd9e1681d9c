#include "rules/registry.hpp"

#include <array>

#include <fmt/format.h>

namespace irlint {

namespace {
constexpr std::array kRules = {
    rule::xml_malformed,        rule::ir_structure,       rule::edge_shape_mismatch,
    rule::edge_type_mismatch,   rule::attr_invalid,       rule::input_invalid,  rule::output_shape_mismatch,
    rule::output_type_mismatch, rule::const_data_invalid, rule::unsupported_op,
    rule::values_unknown,
    rule::check_failed,         rule::onnx_shape_inference_mismatch, rule::runtime_divergence,
    rule::reshape_incompatible,
};

// Ids that were renamed: old configurations and command lines still name them.
struct RuleAlias {
    std::string_view old_id;
    std::string_view id;
};
constexpr std::array kAliases = {RuleAlias{"check-timeout", rule::check_failed.id}};
}  // namespace

std::span<const Rule> rule_registry() { return kRules; }

const Rule* find_rule(std::string_view rule_id) {
    for (const RuleAlias& a : kAliases)
        if (a.old_id == rule_id) rule_id = a.id;
    for (const Rule& r : kRules)
        if (r.id == rule_id) return &r;
    return nullptr;
}

Diagnostic make_finding(const Rule& rule, std::string message, int line, LayerRef layer) {
    return make_finding(rule, rule.severity, std::move(message), line, std::move(layer));
}

Diagnostic make_finding(const Rule& rule, Severity severity, std::string message, int line, LayerRef layer) {
    return {severity, std::string(rule.id), std::move(message), line, std::move(layer)};
}

std::string rule_help_uri(const Rule& rule) {
    return std::string(kProjectUrl) + "/blob/main/docs/rules.md#" + std::string(rule.anchor());
}

std::string rule_table_row(const Rule& rule) {
    return fmt::format("| [`{0}`](#{1}) | {2} | {3} | {4} |", rule.id, rule.anchor(), severity_name(rule.severity),
                       rule.fixable ? "yes" : "no", rule.summary);
}

}  // namespace irlint
