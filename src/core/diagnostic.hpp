#pragma once
// A finding: plain data passed from the readers and rules to the reporters.

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
