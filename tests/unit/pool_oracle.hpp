#pragma once
// A deliberately plain implementation of the pooling semantics of OpenVINO's reference kernels: the
// yardstick the kernels in src/exec are held to. It visits every output element and every kernel tap with
// no precomputed offsets and no shortcuts. Output shapes and effective pads come from infer_pool_shape() /
// infer_adaptive_shape(), like everywhere else.
//
// Arithmetic: MaxPool and AdaptiveMaxPool select stored values, so they are exact for every type. Averages
// of f32/f64 are summed in double; f16/bf16 round the running sum to the element type after every add, in
// D, H, W tap order, as OpenVINO's reference does; integer sums wrap to the element type, as the reference's
// element-type sum does, and the quotient follows the reference's rule for the op (see WindowSum).

#include <limits>
#include <string>
#include <vector>

#include "exec/tensor.hpp"
#include "rules/pooling.hpp"

namespace irlint::oracle {

struct Result {
    std::string error;            // the shape inference's complaint, or an unsupported element type
    std::vector<Tensor> outputs;  // values, then indices for ops with an index output
    bool ok() const { return error.empty(); }
};

Result pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input);
Result adaptive_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                     const std::vector<int64_t>& output_size);

}  // namespace irlint::oracle

namespace irlint::test {

inline const double kNaN = std::numeric_limits<double>::quiet_NaN();
inline const double kInf = std::numeric_limits<double>::infinity();

// A tensor of `type` holding `values` in C order: floats rounded to the type (f16/bf16 to nearest even),
// integers converted. The value count must match the shape.
Tensor make_tensor(ElementType type, const std::vector<int64_t>& shape, const std::vector<double>& values);

// Every element widened to double, in C order.
std::vector<double> values_of(const Tensor& t);

}  // namespace irlint::test
