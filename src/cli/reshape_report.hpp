#pragma once
// What `infer --reshape` reports, for a model of either kind: the inputs and outputs before and after, every
// layer's (ONNX: node's) dims before and after, how many changed, and the layers that cannot take their new
// inputs. The IR side (cli/reshape.cpp) and the ONNX side (cli/onnx_commands.cpp) each fill one.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "core/diagnostic.hpp"
#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "ir/model.hpp"
#include "rules/engine.hpp"
#include "rules/reshape.hpp"

namespace irlint::cli {

struct ReshapeRow {
    const Layer* layer = nullptr;
    std::vector<Shape> inputs;    // after the reshape
    std::vector<Shape> declared;  // as the file declares them
    std::vector<Shape> before;    // the outputs before the reshape
    std::vector<Shape> after;     // inferred again
    LayerStatus status = LayerStatus::unsupported;
};

struct ReshapeView {
    std::string_view unit = "layer";  // what a row is: "layer" or "node"
    std::string unknown_why;          // why some rows' new outputs cannot be told
    std::vector<ReshapeEndpoint> endpoints;
    std::vector<ReshapeRow> rows;
    NewInputs inputs;
    size_t changed = 0, unknown = 0;
    Diagnostics incompatible;
};

// Prints the findings (stderr) and the report (stdout) in o.format; exit_code::findings when a row cannot take
// its new inputs, else ok.
int print_reshape(const InferOptions& o, const ReshapeView& view);

}  // namespace irlint::cli
