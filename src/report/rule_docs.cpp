#include "report/rule_docs.hpp"

#include <array>

#include "core/diagnostic.hpp"

namespace irlint {

namespace {
constexpr std::array kRules = {
    RuleDoc{rule::xml_malformed, "The file is not well-formed XML."},
    RuleDoc{rule::ir_structure, "Root element, IR version, layers, ports, edges or graph shape break the IR format."},
    RuleDoc{rule::edge_shape_mismatch, "The two ends of an edge declare different dims."},
    RuleDoc{rule::edge_type_mismatch, "The two ends of an edge declare different precisions."},
    RuleDoc{rule::attr_invalid,
            "A pooling or Parameter attribute that OpenVINO rejects or reads differently than written."},
    RuleDoc{rule::output_shape_mismatch, "Declared output dims differ from the dims OpenVINO infers."},
    RuleDoc{rule::output_type_mismatch, "Declared output precision differs from the type OpenVINO infers."},
    RuleDoc{rule::const_data_invalid, "A Const layer's data description or its bytes in the .bin are invalid."},
    RuleDoc{rule::unsupported_op, "Layers irlint has no rules for were not checked."},
    RuleDoc{rule::onnx_shape_inference_mismatch,
            "ONNX's own shape inference gives an ONNX pooling node other dims than irlint infers."},
    RuleDoc{rule::check_timeout, "Checking the file took longer than --timeout-per-file; it was not checked fully."},
    RuleDoc{rule::runtime_divergence,
            "The model is valid in its own format, but a named runtime rejects it or computes it differently."},
};
}  // namespace

std::span<const RuleDoc> rule_docs() { return kRules; }

std::string rule_help_uri(std::string_view rule_id) {
    return std::string(kProjectUrl) + "/blob/main/docs/rules.md#" + std::string(rule_id);
}

}  // namespace irlint
