// libFuzzer target: any bytes as an .onnx model, through irlint's ONNX adapter and the one rules engine: the
// protobuf message, the Model the adapter builds (nodes, initializers, bodies of If/Loop/Scan and local
// functions), every node inferred by the registry's ONNX entries, the pooling nodes' runtime divergences, every
// initializer read as a tensor, and the model inferred again with each graph input's first dim dynamic.

#include <cstddef>
#include <cstdint>
#include <memory>

#include <onnx/onnx_pb.h>

#include "onnx/onnx_check.hpp"
#include "onnx/onnx_model.hpp"
#include "onnx/onnx_reshape.hpp"
#include "onnx/onnx_tensor.hpp"

namespace {

// An initializer's data is read only up to this many bytes, as `run` reads an input it was given.
constexpr size_t kMaxTensorBytes = 1 << 20;

// Each graph input of known rank with its first dim dynamic, as `infer --reshape ?,...` asks.
irlint::NewInputs first_dims_dynamic(const irlint::OnnxModel& model) {
    irlint::NewInputs out;
    for (const std::string& name : model.input_order) {
        const auto it = model.values.find(name);
        if (it == model.values.end() || !it->second.shape || it->second.shape->rank_dynamic ||
            it->second.shape->dims.empty())
            continue;
        irlint::Shape s = *it->second.shape;
        s.dims[0] = irlint::Dim::dynamic();
        out.emplace(name, s);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto proto = std::make_shared<onnx::ModelProto>();
    if (!proto->ParseFromArray(data, static_cast<int>(size)) || !proto->has_graph()) return 0;
    for (const auto& init : proto->graph().initializer()) irlint::tensor_from_proto(init, kMaxTensorBytes);
    const irlint::OnnxModel model = irlint::describe_onnx(std::move(proto), "fuzz.onnx");
    irlint::check_onnx(model);
    const irlint::NewInputs reshaped = first_dims_dynamic(model);
    if (!reshaped.empty()) irlint::reshape_onnx(model, reshaped);
    return 0;
}
