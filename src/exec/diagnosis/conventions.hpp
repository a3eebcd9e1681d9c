#pragma once
// Why a dump disagrees with irlint: a catalog of the conventions other producers of pooling outputs follow
// where OpenVINO's reference does something else (PyTorch's ceil_mode, ONNX Runtime's divisor, NaN
// propagation, ...). When an output mismatches, the layer is run again under each convention that applies
// to it; every convention under which the expected tensor matches, and irlint's output does not, is an
// explanation. The ids are stable: docs/diagnosis.md describes each with a worked example.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exec/compare/compare.hpp"
#include "exec/kernels/convention_kernels.hpp"

namespace irlint {

// The layer as irlint ran it: what every alternative is derived from.
struct LayerSetup {
    PoolOp op;
    PoolingDesc desc;
    const Tensor* input = nullptr;
};

// One way of computing the layer: OpenVINO's kernels on a changed description, or other arithmetic.
struct Alternative {
    PoolOp op;
    PoolingDesc desc;
    Arithmetic arithmetic = Arithmetic::openvino;
};

// One entry of the catalog: adding a convention is adding an entry.
struct Convention {
    std::string_view id;           // stable, kebab-case
    std::string_view description;  // completes "the expected data matches irlint under ..."
    std::optional<Alternative> (*alternative)(const LayerSetup& layer);  // nullopt: not for this layer
};

std::span<const Convention> convention_catalog();

struct Explanation {
    std::string convention;  // a catalog id
    std::string description;
};

// One mismatching output of the layer, with the tensors it was compared on.
struct MismatchedOutput {
    size_t index = 0;                  // output port order: 0 values, 1 indices
    const Tensor* computed = nullptr;  // irlint's output
    const Tensor* expected = nullptr;
    Tolerance tolerance;
};

// For each output in `outputs`, the conventions that explain it, in catalog order (empty: none does).
// Each applicable convention is computed once for all outputs.
std::vector<std::vector<Explanation>> explain_mismatches(const LayerSetup& layer,
                                                         const std::vector<MismatchedOutput>& outputs,
                                                         const KernelOptions& options = {});

}  // namespace irlint
