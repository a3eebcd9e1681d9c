#include "onnx/onnx_tensor.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include "exec/io/npy.hpp"
#include "onnx/onnx_model.hpp"

namespace irlint {

namespace {

// Typed fields hold narrower types widened: f16/bf16 bits, 8- and 16-bit integers and booleans in int32_data,
// u32/u64 in uint64_data.
template <class Field>
bool copy_typed(const Field& field, Tensor& t) {
    if (static_cast<size_t>(field.size()) != t.size()) return false;
    std::byte* out = t.mutable_bytes();
    const size_t width = static_cast<size_t>(element_type_bits(t.type())) / 8;
    for (int i = 0; i < field.size(); ++i) {
        const auto v = field.Get(i);
        std::byte* dst = out + static_cast<size_t>(i) * width;
        switch (t.type()) {
            case ElementType::f32: { const float f = static_cast<float>(v); std::memcpy(dst, &f, 4); break; }
            case ElementType::f64: { const double d = static_cast<double>(v); std::memcpy(dst, &d, 8); break; }
            case ElementType::f16:
            case ElementType::bf16:
            case ElementType::u16: { const auto u = static_cast<uint16_t>(v); std::memcpy(dst, &u, 2); break; }
            case ElementType::i16: { const auto s = static_cast<int16_t>(v); std::memcpy(dst, &s, 2); break; }
            case ElementType::i8: { const auto s = static_cast<int8_t>(v); std::memcpy(dst, &s, 1); break; }
            case ElementType::u8:
            case ElementType::boolean: { const auto u = static_cast<uint8_t>(v); std::memcpy(dst, &u, 1); break; }
            case ElementType::i32: { const auto s = static_cast<int32_t>(v); std::memcpy(dst, &s, 4); break; }
            case ElementType::u32: { const auto u = static_cast<uint32_t>(v); std::memcpy(dst, &u, 4); break; }
            case ElementType::i64: { const auto s = static_cast<int64_t>(v); std::memcpy(dst, &s, 8); break; }
            case ElementType::u64: { const auto u = static_cast<uint64_t>(v); std::memcpy(dst, &u, 8); break; }
            default: return false;
        }
    }
    return true;
}

bool fill_typed(const onnx::TensorProto& p, Tensor& t) {
    switch (t.type()) {
        case ElementType::f32: return copy_typed(p.float_data(), t);
        case ElementType::f64: return copy_typed(p.double_data(), t);
        case ElementType::i64: return copy_typed(p.int64_data(), t);
        case ElementType::u32:
        case ElementType::u64: return copy_typed(p.uint64_data(), t);
        default: return copy_typed(p.int32_data(), t);
    }
}

}  // namespace

TensorRead tensor_from_proto(const onnx::TensorProto& p, size_t max_bytes) {
    TensorRead r;
    const auto type = element_type_from_onnx(p.data_type());
    if (!type || !is_executable_type(*type)) {
        r.error = fmt::format("TensorProto data type {} is not one irlint computes with", p.data_type());
        return r;
    }
    if (p.data_location() == onnx::TensorProto::EXTERNAL) {
        r.error = "the TensorProto keeps its data in an external file, which irlint does not read";
        return r;
    }
    std::vector<int64_t> shape(p.dims().begin(), p.dims().end());
    const auto count = checked_element_count(shape, element_type_bits(*type));
    if (!count) {
        r.error = fmt::format("TensorProto dims [{}] are negative or too large", fmt::join(shape, ","));
        return r;
    }
    const size_t bytes = *count * static_cast<size_t>(element_type_bits(*type)) / 8;
    if (bytes > max_bytes) {
        r.error = fmt::format("the tensor needs {} bytes, above the memory limit of {}", bytes, max_bytes);
        return r;
    }
    Tensor t(*type, shape);
    if (p.has_raw_data()) {
        if (p.raw_data().size() != bytes) {
            r.error = fmt::format("raw_data holds {} bytes; dims [{}] of {} need {}", p.raw_data().size(),
                                  fmt::join(shape, ","), element_type_name(*type), bytes);
            return r;
        }
        if (bytes) std::memcpy(t.mutable_bytes(), p.raw_data().data(), bytes);
    } else if (!fill_typed(p, t)) {
        r.error = fmt::format("the typed data field does not hold {} values of {}", *count, element_type_name(*type));
        return r;
    }
    r.tensor = std::move(t);
    return r;
}

TensorRead read_tensor_pb(const std::string& path, size_t max_bytes) {
    TensorRead r;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        r.error = "cannot open the file";
        return r;
    }
    onnx::TensorProto proto;
    if (!proto.ParseFromIstream(&in)) {
        r.error = "not an ONNX TensorProto (the protobuf message does not parse)";
        return r;
    }
    return tensor_from_proto(proto, max_bytes);
}

TensorRead read_tensor_file(const std::string& path, size_t max_bytes) {
    if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".pb") == 0) return read_tensor_pb(path, max_bytes);
    NpyRead n = read_npy(path, max_bytes);
    return TensorRead{std::move(n.tensor), std::move(n.error)};
}

}  // namespace irlint
