// libFuzzer target: any bytes as an .onnx model, through irlint's ONNX adapter: the protobuf message, the
// nodes mapped onto the pooling description, each pooling node checked (attributes, shapes, the runtime
// divergences) and cross-checked with ONNX's own shape inference, and every initializer read as a tensor.
// A crash in ONNX's inference counts: irlint must keep from it what it cannot take.

#include <cstddef>
#include <cstdint>
#include <memory>

#include <onnx/onnx_pb.h>

#include "onnx/onnx_check.hpp"
#include "onnx/onnx_model.hpp"
#include "onnx/onnx_tensor.hpp"

namespace {

// An initializer's data is read only up to this many bytes, as `run` reads an input it was given.
constexpr size_t kMaxTensorBytes = 1 << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto proto = std::make_shared<onnx::ModelProto>();
    if (!proto->ParseFromArray(data, static_cast<int>(size)) || !proto->has_graph()) return 0;
    for (const auto& init : proto->graph().initializer()) irlint::tensor_from_proto(init, kMaxTensorBytes);
    irlint::check_onnx(irlint::describe_onnx(std::move(proto), "fuzz.onnx"));
    return 0;
}
