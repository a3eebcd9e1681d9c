#pragma once
// Reference pooling kernels with OpenVINO's semantics (the template plugin's reference implementation).
// Output shapes come from infer_pool_shape() / infer_adaptive_shape(): the kernels hold no size formula.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "exec/tensor.hpp"
#include "rules/pooling.hpp"

namespace irlint {

namespace kernels {
class OutputSink;
}

struct KernelOptions {
    int threads = 1;              // 0: all hardware threads
    size_t max_bytes = SIZE_MAX;  // the outputs are refused before allocation when larger
};

struct PoolRunResult {
    std::string error;            // why the layer cannot run on this input; empty on success
    std::vector<Tensor> outputs;  // values, then indices for ops with an index output
    bool ok() const { return error.empty(); }
};

// The element type and shape of one output, known before the kernels run.
struct OutputSpec {
    ElementType type = ElementType::f32;
    std::vector<int64_t> shape;
};

// Where a run writes, chosen once its outputs are known: a sink of the caller's, which then receives every
// output element and the result holds no tensors, or nullptr for whole tensors in the result. Asked only
// when the kernels compute the outputs (not for empty ones).
using SinkChooser = std::function<kernels::OutputSink*(const std::vector<OutputSpec>&)>;

// AvgPool-1/14/16 and MaxPool-1/8/14 on a 3D, 4D or 5D input. MaxPool's indices use desc.index_type
// and desc.axis.
PoolRunResult run_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                       const KernelOptions& options = {}, const SinkChooser& choose_sink = {});

// AdaptiveAvgPool-8 and AdaptiveMaxPool-8; AdaptiveMaxPool's indices use desc.index_type.
PoolRunResult run_adaptive_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                                const std::vector<int64_t>& output_size, const KernelOptions& options = {},
                                const SinkChooser& choose_sink = {});

}  // namespace irlint
