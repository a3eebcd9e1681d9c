#pragma once
// ONNX TensorProto .pb files (the backend test data) as executor tensors, and the choice between .pb and
// .npy by file name.

#include <cstdint>
#include <optional>
#include <string>

#include "exec/tensor.hpp"

namespace onnx {
class TensorProto;
}

namespace irlint {

struct TensorRead {
    std::optional<Tensor> tensor;
    std::string error;  // set when tensor is empty
};

TensorRead tensor_from_proto(const onnx::TensorProto& proto, size_t max_bytes = SIZE_MAX);
TensorRead read_tensor_pb(const std::string& path, size_t max_bytes = SIZE_MAX);
// A .pb file as a TensorProto, anything else as .npy.
TensorRead read_tensor_file(const std::string& path, size_t max_bytes = SIZE_MAX);

}  // namespace irlint
