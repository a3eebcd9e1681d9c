#pragma once
// Runs every rule over a model: structure first, then each layer in topological order, so that a pooling
// layer sees the shape its producer really has (a Parameter's intervals, an upstream pooling's inference).

#include <map>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/dim.hpp"
#include "ir/model.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/pooling.hpp"

namespace irlint {

enum class LayerStatus { ok, mismatch, invalid, unsupported };
std::string_view layer_status_name(LayerStatus s);

struct LayerShapes {
    const Layer* layer = nullptr;
    size_t graph = 0;
    std::vector<Shape> inputs;
    // Each input's element type as its producer gives it (a Parameter's element_type, the producer's output
    // port), else as the input port declares it: an IR v10 input port often declares none.
    std::vector<std::optional<ElementType>> input_types;
    std::vector<Shape> declared;
    std::vector<Shape> inferred;
    std::vector<std::optional<ElementType>> inferred_types;  // per inferred output; nullopt: not inferred
    LayerStatus status = LayerStatus::unsupported;
    // Inferred and compared with the declared ports (counted in ModelReport::checked); else, for a layer
    // whose op irlint knows, why not (a value it needed is unknown).
    bool checked = false;
    std::optional<std::string> not_checked;
    // A value the outputs depend on is unknown, yet what holds whatever it is (an element count, a
    // permutation, the dims kept) was compared with the declared ports: counted in
    // ModelReport::checked_by_invariants, not in checked (a layer counts in one of them at most).
    bool checked_by_invariants = false;
    const OpEntry* op = nullptr;   // the registry op that inferred it (null for pooling and the IR's own layers)
    bool pooling = false;          // a pooling layer, valid or not (infer lists these by default)
    bool pooling_checked = false;  // counted in ModelReport::pooling_checked
    std::optional<PoolOp> pool_op;                    // pooling layers: the version their opset gives
    std::optional<std::vector<int64_t>> output_size;  // adaptive pools: the Const values, when readable
};

// A row's status as `infer` shows it: "invariants" for an ok layer checked by invariants only, else
// layer_status_name.
std::string_view layer_status_name(const LayerShapes& row);

struct ModelReport {
    std::vector<LayerShapes> layers;  // every layer (LayerRows::all), graphs in order, layers in file order
    Diagnostics diagnostics;          // sorted by line
    size_t pooling_checked = 0;
    size_t checked = 0;               // layers whose outputs were inferred and compared (LayerShapes::checked)
    size_t checked_by_invariants = 0; // layers checked by invariants only (LayerShapes::checked_by_invariants)
};

// Which layers get a row in ModelReport::layers. `infer --all` shows every layer; `check` needs rows only
// for the layers with rules (Parameter, Const, Result, pooling, the registry's ops).
enum class LayerRows { all, with_rules };

ModelReport check_model(const Model& model, LayerRows rows = LayerRows::all);

// Whole-graph re-inference, as ov::Model::reshape does it: each Parameter named here (by its layer name)
// takes the new shape, and every layer sees its producers' inferred outputs, not the declared ones. The
// report's rows hold the new outputs; its findings are what the new shapes break (an op that rejects its new
// inputs), not the declared dims that no longer hold. A layer that fails passes a dynamic rank on.
ModelReport reinfer_model(const Model& model, const std::map<std::string, Shape, std::less<>>& new_inputs);

// A layer that an error finding names is `invalid` unless it is already `mismatch`: a broken edge, a
// duplicate id or a bad port makes the layer's row untrustworthy. check_model applies it to its own findings;
// call it again after adding the reader's.
void mark_layers_with_errors(ModelReport& report);

}  // namespace irlint
