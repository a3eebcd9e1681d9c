#pragma once
// A finding: plain data passed from the readers and rules to the reporters.

#include <string>
#include <string_view>
#include <vector>

namespace irlint {

enum class Severity { note, warning, error };

std::string_view severity_name(Severity s);

namespace rule {
inline constexpr std::string_view xml_malformed = "xml-malformed";
inline constexpr std::string_view ir_structure = "ir-structure";
inline constexpr std::string_view edge_shape_mismatch = "edge-shape-mismatch";
inline constexpr std::string_view edge_type_mismatch = "edge-type-mismatch";
inline constexpr std::string_view attr_invalid = "attr-invalid";
inline constexpr std::string_view output_shape_mismatch = "output-shape-mismatch";
inline constexpr std::string_view output_type_mismatch = "output-type-mismatch";
inline constexpr std::string_view const_data_invalid = "const-data-invalid";
inline constexpr std::string_view unsupported_op = "unsupported-op";
inline constexpr std::string_view onnx_shape_inference_mismatch = "onnx-shape-inference-mismatch";
// The file could not be checked (out of memory, no ONNX support, an internal error, the time limit); never
// hidden, lowered or accepted by a baseline (report/rule_selection.hpp).
inline constexpr std::string_view check_failed = "check-failed";
inline constexpr std::string_view runtime_divergence = "runtime-divergence";
}  // namespace rule

struct LayerRef {
    std::string id;
    std::string name;
    std::string type;

    bool operator==(const LayerRef&) const = default;
};

struct Diagnostic {
    Severity severity = Severity::error;
    std::string rule;
    std::string message;
    int line = 0;
    LayerRef layer;
    std::string fingerprint = {};  // set by `check` (see policy/baseline.hpp); stable when lines move
    std::string port = {};         // the port id the finding is about, when it is about one

    bool operator==(const Diagnostic&) const = default;
};

using Diagnostics = std::vector<Diagnostic>;

inline std::string_view severity_name(Severity s) {
    switch (s) {
        case Severity::note: return "note";
        case Severity::warning: return "warning";
        case Severity::error: return "error";
    }
    return "error";
}

}  // namespace irlint
