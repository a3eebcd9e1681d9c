#include "core/element_type.hpp"

#include <array>

#include "core/text.hpp"

namespace irlint {

namespace {
struct TypeInfo {
    ElementType type;
    std::string_view name;
    std::string_view legacy;  // "": ONNX's only, no IR spelling
    int bits;
};

constexpr std::array<TypeInfo, 27> kTypes{{
    {ElementType::dynamic, "dynamic", "UNSPECIFIED", 0},
    {ElementType::boolean, "boolean", "BOOL", 8},
    {ElementType::bf16, "bf16", "BF16", 16},
    {ElementType::f16, "f16", "FP16", 16},
    {ElementType::f32, "f32", "FP32", 32},
    {ElementType::f64, "f64", "FP64", 64},
    {ElementType::i4, "i4", "I4", 4},
    {ElementType::i8, "i8", "I8", 8},
    {ElementType::i16, "i16", "I16", 16},
    {ElementType::i32, "i32", "I32", 32},
    {ElementType::i64, "i64", "I64", 64},
    {ElementType::u1, "u1", "BIN", 1},
    {ElementType::u4, "u4", "U4", 4},
    {ElementType::u8, "u8", "U8", 8},
    {ElementType::u16, "u16", "U16", 16},
    {ElementType::u32, "u32", "U32", 32},
    {ElementType::u64, "u64", "U64", 64},
    {ElementType::nf4, "nf4", "NF4", 4},
    {ElementType::f8e4m3, "f8e4m3", "F8E4M3", 8},
    {ElementType::f8e5m2, "f8e5m2", "F8E5M2", 8},
    {ElementType::f4e2m1, "f4e2m1", "F4E2M1", 4},
    {ElementType::f8e8m0, "f8e8m0", "F8E8M0", 8},
    {ElementType::string, "string", "STRING", 0},
    {ElementType::f8e4m3fnuz, "f8e4m3fnuz", "", 8},
    {ElementType::f8e5m2fnuz, "f8e5m2fnuz", "", 8},
    {ElementType::u2, "u2", "", 2},
    {ElementType::i2, "i2", "", 2},
}};

bool in_ir(const TypeInfo& t) { return !t.legacy.empty(); }

const TypeInfo& info(ElementType t) { return kTypes[static_cast<size_t>(t)]; }
}  // namespace

std::optional<ElementType> parse_element_type(std::string_view text) {
    for (const auto& t : kTypes)
        if (in_ir(t) && (text == t.name || text == t.legacy)) return t.type;
    // Older legacy spellings that OpenVINO's reader still maps.
    if (text == "undefined" || text == "UNDEFINED") return ElementType::dynamic;
    if (text == "U1" || text == "bin") return ElementType::u1;
    return std::nullopt;
}

std::optional<ElementType> parse_element_type_attr(std::string_view text) {
    for (const auto& t : kTypes)
        if (in_ir(t) && iequals(text, t.name)) return t.type;
    if (iequals(text, "undefined")) return ElementType::dynamic;
    return std::nullopt;
}

std::string_view element_type_name(ElementType t) { return info(t).name; }
std::string_view element_type_legacy_name(ElementType t) { return info(t).legacy; }
int element_type_bits(ElementType t) { return info(t).bits; }

bool is_float_type(ElementType t) {
    switch (t) {
        case ElementType::bf16: case ElementType::f16: case ElementType::f32: case ElementType::f64:
        case ElementType::nf4: case ElementType::f8e4m3: case ElementType::f8e5m2: case ElementType::f4e2m1:
        case ElementType::f8e8m0: case ElementType::f8e4m3fnuz: case ElementType::f8e5m2fnuz:
            return true;
        default:
            return false;
    }
}

bool is_integer_type(ElementType t) {
    switch (t) {
        case ElementType::i4: case ElementType::i8: case ElementType::i16: case ElementType::i32:
        case ElementType::i64: case ElementType::u1: case ElementType::u4: case ElementType::u8:
        case ElementType::u16: case ElementType::u32: case ElementType::u64: case ElementType::u2: case ElementType::i2:
            return true;
        default:
            return false;
    }
}

std::optional<ElementType> element_type_from_onnx(int64_t data_type) {
    switch (data_type) {  // ONNX's numbers, which later releases only ever extend
        case 1: return ElementType::f32;       // FLOAT
        case 2: return ElementType::u8;        // UINT8
        case 3: return ElementType::i8;        // INT8
        case 4: return ElementType::u16;       // UINT16
        case 5: return ElementType::i16;       // INT16
        case 6: return ElementType::i32;       // INT32
        case 7: return ElementType::i64;       // INT64
        case 8: return ElementType::string;    // STRING
        case 9: return ElementType::boolean;   // BOOL
        case 10: return ElementType::f16;      // FLOAT16
        case 11: return ElementType::f64;      // DOUBLE
        case 12: return ElementType::u32;      // UINT32
        case 13: return ElementType::u64;      // UINT64
        case 16: return ElementType::bf16;     // BFLOAT16
        case 17: return ElementType::f8e4m3;   // FLOAT8E4M3FN
        case 18: return ElementType::f8e4m3fnuz;
        case 19: return ElementType::f8e5m2;   // FLOAT8E5M2
        case 20: return ElementType::f8e5m2fnuz;
        case 21: return ElementType::u4;       // UINT4
        case 22: return ElementType::i4;       // INT4
        case 23: return ElementType::f4e2m1;   // FLOAT4E2M1
        case 24: return ElementType::f8e8m0;   // FLOAT8E8M0
        case 25: return ElementType::u2;       // UINT2
        case 26: return ElementType::i2;       // INT2
        default: return std::nullopt;
    }
}

}  // namespace irlint
