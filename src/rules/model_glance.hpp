#pragma once
// The model at a glance: its inputs and outputs (name, dims, element type, layout where the file gives one),
// as benchmark_app and Netron show them; `infer` prints them above its table, Python's irlint.infer returns them.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "rules/engine.hpp"

namespace irlint {

struct Endpoint {
    std::string_view kind;  // "input" or "output"
    std::string_view name;
    Shape shape;
    std::optional<ElementType> type;
    std::string_view layout;
};

// The inputs, then the outputs, of the main graph; the views point into the report's model.
std::vector<Endpoint> model_endpoints(const ModelReport& report);

// What `infer` shows of an ONNX model before its nodes (onnx/onnx_check.hpp: summarize_onnx).
struct OnnxSummary {
    struct Value {
        std::string_view kind;  // "input" or "output"
        std::string name;
        Shape shape;  // as the file declares it, else as inferred
        std::optional<ElementType> type;
    };
    int64_t ir_version = 0;
    std::string producer_name, producer_version;
    std::vector<std::pair<std::string, int64_t>> opsets;  // domain ("" for ai.onnx) and version
    std::vector<Value> values;
};

// A read model checked as `check` checks it, with the reader's findings among the rules' (sorted by line) and
// every layer with an error marked so.
ModelReport check_read_model(const Model& model, Diagnostics read_findings);

}  // namespace irlint
