#include "report/rule_docs.hpp"

#include <array>

#include <fmt/format.h>

namespace irlint {

namespace {
constexpr std::array kRules = {
    RuleDoc{rule::xml_malformed, Severity::error, false, "The file is not well-formed XML."},
    RuleDoc{rule::ir_structure, Severity::error, false,
            "Root element, IR version, layers, ports, edges or graph shape break the IR format."},
    RuleDoc{rule::edge_shape_mismatch, Severity::error, false, "The two ends of an edge declare different dims."},
    RuleDoc{rule::edge_type_mismatch, Severity::error, false, "The two ends of an edge declare different precisions."},
    RuleDoc{rule::attr_invalid, Severity::error, false,
            "A pooling or Parameter attribute that OpenVINO rejects or reads differently than written."},
    RuleDoc{rule::output_shape_mismatch, Severity::error, true,
            "Declared output dims differ from the dims OpenVINO infers."},
    RuleDoc{rule::output_type_mismatch, Severity::error, true,
            "Declared output precision differs from the type OpenVINO infers."},
    RuleDoc{rule::const_data_invalid, Severity::error, false,
            "A Const layer's data description or its bytes in the .bin are invalid."},
    RuleDoc{rule::unsupported_op, Severity::note, false, "Layers irlint has no rules for were not checked."},
    RuleDoc{rule::check_failed, Severity::error, false,
            "irlint could not check the file (time limit, memory, ONNX support, internal error); cannot be ignored."},
    RuleDoc{rule::onnx_shape_inference_mismatch, Severity::note, false,
            "ONNX's own shape inference gives an ONNX pooling node other dims than irlint infers."},
    RuleDoc{rule::runtime_divergence, Severity::warning, false,
            "The model is valid in its format, but a named runtime rejects it or computes it differently."},
};

// Ids that were renamed: old configurations and command lines still name them.
struct RuleAlias {
    std::string_view old_id;
    std::string_view id;
};
constexpr std::array kAliases = {RuleAlias{"check-timeout", rule::check_failed}};

std::string_view resolve_alias(std::string_view rule_id) {
    for (const RuleAlias& a : kAliases)
        if (a.old_id == rule_id) return a.id;
    return rule_id;
}
}  // namespace

std::span<const RuleDoc> rule_docs() { return kRules; }

std::optional<RuleDoc> find_rule(std::string_view rule_id) {
    const std::string_view id = resolve_alias(rule_id);
    for (const RuleDoc& r : kRules)
        if (r.id == id) return r;
    return std::nullopt;
}

std::string rule_help_uri(std::string_view rule_id) {
    return std::string(kProjectUrl) + "/blob/main/docs/rules.md#" + std::string(rule_id);
}

std::string rule_table_row(const RuleDoc& rule) {
    return fmt::format("| [`{0}`](#{0}) | {1} | {2} | {3} |", rule.id, severity_name(rule.severity),
                       rule.fixable ? "yes" : "no", rule.summary);
}

}  // namespace irlint
