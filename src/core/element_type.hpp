#pragma once
// OpenVINO element types with both spellings the IR uses: lowercase names (`f32`, in <data element_type>)
// and the legacy upper-case port precisions (`FP32`).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace irlint {

enum class ElementType {
    dynamic, boolean, bf16, f16, f32, f64, i4, i8, i16, i32, i64, u1, u4, u8, u16, u32, u64,
    nf4, f8e4m3, f8e5m2, f4e2m1, f8e8m0, string
};

// A port precision: the exact lowercase name or the legacy upper-case one ("f32", "FP32").
std::optional<ElementType> parse_element_type(std::string_view text);
// An element type attribute (element_type, index_element_type): lowercase names, any case ("f32", "F32").
std::optional<ElementType> parse_element_type_attr(std::string_view text);
std::string_view element_type_name(ElementType t);  // lowercase OpenVINO name
std::string_view element_type_legacy_name(ElementType t);  // upper-case port precision ("FP32")
int element_type_bits(ElementType t);                // 0 for dynamic and string
bool is_float_type(ElementType t);
bool is_integer_type(ElementType t);

}  // namespace irlint
