#pragma once
// IEEE half (f16) and bfloat16 conversions, both rounding to nearest even, as OpenVINO's float16 and
// bfloat16 types do. Values are held as their 16-bit patterns.
//
// The scalar conversions are inline so that the kernels' loops see through them. The bulk ones convert
// arrays with the CPU's F16C instructions where it has them (chosen when the program starts) and give the
// same bits as the scalar ones for every input, NaN payloads and subnormals included.

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/element_type.hpp"

namespace irlint {

inline float f16_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1Fu;
    const uint32_t mantissa = h & 0x3FFu;
    if (exponent == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

inline uint16_t float_to_f16(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const uint32_t abs_bits = bits & 0x7FFFFFFFu;
    if (abs_bits >= 0x7F800000u)  // inf or NaN; NaN becomes the quiet NaN without payload
        return static_cast<uint16_t>(sign | 0x7C00u | (abs_bits > 0x7F800000u ? 0x200u : 0u));
    if (abs_bits >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds past 65504
    if (abs_bits < 0x38800000u) {
        // Below the smallest normal: the subnormal step is 2^-24, and rint rounds ties to even.
        const float magnitude = std::bit_cast<float>(abs_bits);
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(magnitude * 0x1p24f)));
    }
    const uint32_t lsb = (abs_bits >> 13) & 1u;
    const uint32_t rounded = abs_bits + 0xFFFu + lsb;
    return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

inline float bf16_to_float(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

// The floating-point types whose values irlint reads as real numbers (scales, Range's bounds).
inline bool is_real_type(ElementType t) {
    return t == ElementType::f16 || t == ElementType::bf16 || t == ElementType::f32 || t == ElementType::f64;
}

// The value of a 16-bit pattern of `type` (f16 or bf16) as a double.
inline double half_to_double(ElementType type, uint16_t bits) {
    return type == ElementType::bf16 ? bf16_to_float(bits) : f16_to_float(bits);
}

inline uint16_t float_to_bf16(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);  // quiet NaN
    const uint32_t lsb = (bits >> 16) & 1u;
    return static_cast<uint16_t>((bits + 0x7FFFu + lsb) >> 16);
}

// bf16 as OpenVINO's bfloat16 type rounds its arithmetic: half an ulp is added only when the kept part
// is odd, so ties go to even but a value above the halfway point whose kept part is even is truncated.
// The kernels round with this to reproduce the reference bit for bit.
inline uint16_t float_to_bf16_openvino(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);  // quiet NaN
    return static_cast<uint16_t>((bits + ((bits & 0x10000u) >> 1)) >> 16);
}

// n values at a time; the same bits as the scalar conversions.
void f16_to_float_n(const uint16_t* src, float* dst, size_t n);
void float_to_f16_n(const float* src, uint16_t* dst, size_t n);
// Whether the bulk conversions use the CPU's F16C instructions (for tests and benchmarks).
bool f16_conversion_in_hardware();

}  // namespace irlint
