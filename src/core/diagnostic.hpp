#pragma once
// A finding: plain data passed from the readers and rules to the reporters.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irlint {

enum class Severity { note, warning, error };

std::string_view severity_name(Severity s);

struct LayerRef {
    std::string id;
    std::string name;
    std::string type;

    bool operator==(const LayerRef&) const = default;
};

// What a shape or type mismatch changes downstream (contract v4, JSON key "consequence"): absorbed by a layer
// that gives its declared outputs anyway (a warning), reaching model outputs, or breaking a layer (errors).
struct Consequence {
    enum class Kind { absorbed, reaches, breaks } kind = Kind::reaches;
    LayerRef by = {};                      // absorbed, breaks: the layer
    std::vector<std::string> outputs = {}; // reaches: the model outputs' names
    size_t layers = 0;                     // reaches: how many layers it passes through

    bool operator==(const Consequence&) const = default;
};

struct Diagnostic {
    Severity severity = Severity::error;
    std::string rule;
    std::string message;
    int line = 0;
    LayerRef layer;
    std::string fingerprint = {};  // set by `check` (see policy/baseline.hpp); stable when lines move
    std::string port = {};         // the port id the finding is about, when it is about one
    std::optional<Consequence> consequence = std::nullopt;  // shape/type mismatches: what it changes

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
