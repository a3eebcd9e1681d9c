#pragma once
// The rule registry: every rule with its id, default severity, whether `--fix` can repair it, its one-line
// description and its documentation anchor. Findings are made from these entries (make_finding, and the
// rules' own emitters take a Rule, never a string); SARIF's rule table, `irlint rules`, the index of
// docs/rules.md and the help come from here, and a unit test holds docs/rules.md to it.
//
// The registry is data over core/ alone, so that the IR reader (ir/, below rules/) reports its findings
// with these entries too; docs/architecture.md names that one exception to the layers.

#include <span>
#include <string>
#include <string_view>

#include "core/diagnostic.hpp"

namespace irlint {

inline constexpr std::string_view kProjectUrl = "https://github.com/irlint/irlint";

struct Rule {
    std::string_view id;
    Severity severity;         // the severity of the rule's typical finding; some cases use a lower one
    bool fixable;              // `irlint check --fix` repairs its findings
    std::string_view summary;  // one line, as in the table of docs/rules.md
    std::string_view anchor() const { return id; }  // the rule's section of docs/rules.md
};

namespace rule {
inline constexpr Rule xml_malformed{"xml-malformed", Severity::error, false, "The file is not well-formed XML."};
inline constexpr Rule ir_structure{"ir-structure", Severity::error, false,
                                   "Root element, IR version, layers, ports, edges or graph shape break the IR format."};
inline constexpr Rule edge_shape_mismatch{"edge-shape-mismatch", Severity::error, false,
                                          "The two ends of an edge declare different dims."};
inline constexpr Rule edge_type_mismatch{"edge-type-mismatch", Severity::error, false,
                                         "The two ends of an edge declare different precisions."};
inline constexpr Rule attr_invalid{
    "attr-invalid", Severity::error, false,
    "An attribute that OpenVINO rejects or reads differently than written."};
inline constexpr Rule input_invalid{
    "input-invalid", Severity::error, false,
    "A layer's inputs are not what its op accepts (ranks, dims, element types); OpenVINO rejects the model."};
inline constexpr Rule output_shape_mismatch{"output-shape-mismatch", Severity::error, true,
                                            "Declared output dims differ from the dims OpenVINO infers."};
inline constexpr Rule output_type_mismatch{"output-type-mismatch", Severity::error, true,
                                           "Declared output precision differs from the type OpenVINO infers."};
inline constexpr Rule const_data_invalid{"const-data-invalid", Severity::error, false,
                                         "A Const layer's data description or its bytes in the .bin are invalid."};
inline constexpr Rule unsupported_op{"unsupported-op", Severity::note, false,
                                     "Layers of op types irlint has no inference for were not checked."};
inline constexpr Rule values_unknown{
    "values-unknown", Severity::note, false,
    "Layers whose dims depend on values irlint does not know were checked by invariants only, or not at all."};
// The file could not be checked (out of memory, no ONNX support, an internal error, the time limit); never
// hidden, lowered or accepted by a baseline (policy/rule_selection.hpp).
inline constexpr Rule check_failed{
    "check-failed", Severity::error, false,
    "irlint could not check the file (time limit, memory, ONNX support, internal error); cannot be ignored."};
inline constexpr Rule onnx_shape_inference_mismatch{
    "onnx-shape-inference-mismatch", Severity::note, false,
    "ONNX's own shape inference gives an ONNX pooling node other dims than irlint infers."};
inline constexpr Rule reshape_incompatible{
    "reshape-incompatible", Severity::error, false,
    "A layer cannot take the input shapes `infer --reshape` gives the model; OpenVINO's reshape would fail."};
inline constexpr Rule runtime_divergence{
    "runtime-divergence", Severity::warning, false,
    "The model is valid in its format, but a named runtime rejects it or computes it differently."};
}  // namespace rule

// Every rule, in the order of docs/rules.md.
std::span<const Rule> rule_registry();

// Also by an old id kept as an alias (check-timeout: check-failed); the Rule has the current id. nullptr
// for an id no rule has.
const Rule* find_rule(std::string_view rule_id);

// A finding of `rule` at its default severity, or at `severity` where the case is a milder one.
Diagnostic make_finding(const Rule& rule, std::string message, int line = 0, LayerRef layer = {});
Diagnostic make_finding(const Rule& rule, Severity severity, std::string message, int line = 0, LayerRef layer = {});

// The rule's section of docs/rules.md.
std::string rule_help_uri(const Rule& rule);

// The row of the table in docs/rules.md for one rule.
std::string rule_table_row(const Rule& rule);

}  // namespace irlint
