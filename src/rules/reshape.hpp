#pragma once
// `irlint infer --reshape`: the whole graph inferred again from new input shapes, what changes, what breaks,
// and the rewrite of the IR that holds the new shapes.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/dim.hpp"
#include "ir/model.hpp"
#include "ir/rewrite.hpp"
#include "rules/engine.hpp"

namespace irlint {

using NewInputs = std::map<std::string, Shape, std::less<>>;  // Parameter layer name -> new shape

struct ReshapeResult {
    ModelReport before;                // the model as declared (check_model)
    ModelReport after;                 // inferred again from the new input shapes (reinfer_model)
    Diagnostics incompatible;          // reshape-incompatible: what the new shapes break
    size_t changed_layers = 0;         // layers whose outputs differ from the declared ones
    size_t unknown_layers = 0;         // layers whose new outputs irlint cannot tell (an op it does not infer,
                                       // or after one: a dynamic rank)
};

ReshapeResult reshape_model(const Model& model, const NewInputs& new_inputs);

// Whether a layer's outputs change: as many as before, and some differ.
bool outputs_change(const std::vector<Shape>& before, const std::vector<Shape>& after);

// A model input or output: its dims before and after a reshape.
struct ReshapeEndpoint {
    std::string_view kind;  // "input" or "output"
    std::string name;
    Shape before, after;
    std::optional<ElementType> type;
};

// Which findings of the re-inference count as the same as one of the model as given: the same message on the
// same layer (IR: a message names the dims its op was given, and a new one is a new failure), or the same rule
// on the same node (ONNX: the library's message holds dims the reshape changes).
enum class SameRejection { layer_and_message, layer_and_rule };

// The rejections (attr-invalid, input-invalid, ir-structure errors) of `after` that `before` does not have, as
// reshape-incompatible findings: what the new shapes break.
Diagnostics new_rejections(const ModelReport& before, const ModelReport& after, SameRejection same);

// The Parameters' names and a new shape for each from the --reshape arguments, "NAME=DIMS" or, for a model
// with one Parameter, "DIMS"; nullopt with `error` naming the problem (an unknown name, a malformed shape).
std::optional<NewInputs> parse_reshape_arguments(const Model& model, const std::vector<std::string>& arguments,
                                                 std::string& error);
// The same for a model whose inputs are `input_names`; `what` says what they are in messages ("input
// (Parameter)", "graph input").
std::optional<NewInputs> parse_reshape_arguments(const std::vector<std::string>& input_names, std::string_view what,
                                                 const std::vector<std::string>& arguments, std::string& error);

// The edits that write the new shapes into the file the model was read from: each Parameter's `shape`
// attribute, every output port's dims and the input ports the edges feed (a dynamic dim as -1). nullopt with
// `error` when a layer failed, a rank changed (a port's <dim> count cannot change in place) or a value
// cannot be rewritten.
std::optional<std::vector<TextEdit>> plan_reshape_edits(const Model& model, std::string_view text,
                                                        const ReshapeResult& result, const NewInputs& new_inputs,
                                                        std::string& error);

}  // namespace irlint
