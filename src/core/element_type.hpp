#pragma once
// OpenVINO element types with both spellings the IR uses: lowercase names (`f32`, in <data element_type>)
// and the legacy upper-case port precisions (`FP32`).

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace irlint {

enum class ElementType {
    dynamic, boolean, bf16, f16, f32, f64, i4, i8, i16, i32, i64, u1, u4, u8, u16, u32, u64,
    nf4, f8e4m3, f8e5m2, f4e2m1, f8e8m0, string,
    // ONNX's types that OpenVINO has not: an IR that names one is rejected as OpenVINO's reader would.
    f8e4m3fnuz, f8e5m2fnuz, u2, i2
};

// A port precision: the exact lowercase name or the legacy upper-case one ("f32", "FP32").
std::optional<ElementType> parse_element_type(std::string_view text);
// An ONNX TensorProto.DataType number (a tensor's data_type, a dtype/to attribute) as an element type; nullopt
// for the types irlint has no name for (complex) and for numbers that name no type. The one mapping the ONNX adapter and the ONNX ops share.
std::optional<ElementType> element_type_from_onnx(int64_t data_type);
// An element type attribute (element_type, index_element_type): lowercase names, any case ("f32", "F32").
std::optional<ElementType> parse_element_type_attr(std::string_view text);
std::string_view element_type_name(ElementType t);  // lowercase OpenVINO name
std::string_view element_type_legacy_name(ElementType t);  // upper-case port precision ("FP32")
int element_type_bits(ElementType t);                // 0 for dynamic and string
bool is_float_type(ElementType t);
bool is_integer_type(ElementType t);

// The reach of a float type's significand: every integer of magnitude up to it is a value of the type (an
// integer carried in a float tensor stays exact there); 0 for the other types.
constexpr int64_t exact_integer_reach(ElementType t) {
    switch (t) {
        case ElementType::bf16: return int64_t{1} << 8;
        case ElementType::f16: return int64_t{1} << 11;
        case ElementType::f32: return int64_t{1} << 24;
        case ElementType::f64: return int64_t{1} << 53;
        default: return 0;
    }
}

// The lowest finite value the element type holds, where MaxPool's windows start: f16's -65504 and bf16's
// -0x1.FEp127 (bits 0xFF7F) are their own, not float's. Types without one of their own get double's.
constexpr double lowest_value(ElementType t) {
    switch (t) {
        case ElementType::f16: return -65504.0;
        case ElementType::bf16: return -0x1.FEp127;
        case ElementType::f32: return std::numeric_limits<float>::lowest();
        case ElementType::i8: return std::numeric_limits<int8_t>::lowest();
        case ElementType::u8: return 0;
        case ElementType::i16: return std::numeric_limits<int16_t>::lowest();
        case ElementType::u16: return 0;
        case ElementType::i32: return std::numeric_limits<int32_t>::lowest();
        case ElementType::u32: return 0;
        case ElementType::i64: return static_cast<double>(std::numeric_limits<int64_t>::lowest());
        case ElementType::u64: return 0;
        default: return std::numeric_limits<double>::lowest();
    }
}

}  // namespace irlint
