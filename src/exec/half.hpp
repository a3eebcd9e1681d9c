#pragma once
// IEEE half (f16) and bfloat16 conversions, both rounding to nearest even, as OpenVINO's float16 and
// bfloat16 types do. Values are held as their 16-bit patterns.

#include <cstdint>

namespace irlint {

float f16_to_float(uint16_t bits);
uint16_t float_to_f16(float value);
float bf16_to_float(uint16_t bits);
uint16_t float_to_bf16(float value);
// bf16 as OpenVINO's bfloat16 type rounds its arithmetic: half an ulp is added only when the kept part
// is odd, so ties go to even but a value above the halfway point whose kept part is even is truncated.
// The kernels round with this to reproduce the reference bit for bit.
uint16_t float_to_bf16_openvino(float value);

}  // namespace irlint
