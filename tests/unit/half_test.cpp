#include <doctest/doctest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/half.hpp"

using namespace irlint;

namespace {

float bits_to_float(uint32_t bits) { return std::bit_cast<float>(bits); }
bool is_f16_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }
bool is_bf16_nan(uint16_t h) { return (h & 0x7F80) == 0x7F80 && (h & 0x007F) != 0; }
const float kFloatNaN = std::numeric_limits<float>::quiet_NaN();
const float kFloatInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("f16: exact values, the largest finite value and signed zero") {
    CHECK(float_to_f16(1.0f) == 0x3C00);
    CHECK(float_to_f16(-2.0f) == 0xC000);
    CHECK(float_to_f16(0.5f) == 0x3800);
    CHECK(float_to_f16(65504.0f) == 0x7BFF);
    CHECK(float_to_f16(0x1p-14f) == 0x0400);  // smallest normal
    CHECK(float_to_f16(0.0f) == 0x0000);
    CHECK(float_to_f16(-0.0f) == 0x8000);
    CHECK(f16_to_float(0x3C00) == 1.0f);
    CHECK(f16_to_float(0x7BFF) == 65504.0f);
    CHECK(std::signbit(f16_to_float(0x8000)));
}

TEST_CASE("f16: rounds to nearest, ties to even") {
    CHECK(float_to_f16(1.0f + 0x1p-11f) == 0x3C00);              // halfway, 0x3C00 is even
    CHECK(float_to_f16(1.0f + 3 * 0x1p-11f) == 0x3C02);          // halfway, 0x3C02 is even
    CHECK(float_to_f16(1.0f + 0x1p-11f + 0x1p-20f) == 0x3C01);   // just above halfway
    CHECK(float_to_f16(1.0f + 0x1p-11f - 0x1p-20f) == 0x3C00);   // just below halfway
    CHECK(float_to_f16(2049.0f) == 0x6800);                      // 2048 and 2050 are neighbours
    CHECK(float_to_f16(2051.0f) == 0x6802);                      // to 2052
    CHECK(float_to_f16(-2049.0f) == 0xE800);
    CHECK(float_to_f16(0x1p-14f - 0x1p-25f) == 0x0400);  // rounds up out of the subnormals, mantissa carries
}

TEST_CASE("f16: overflow rounds to infinity only from the halfway point past 65504") {
    CHECK(float_to_f16(65519.0f) == 0x7BFF);
    CHECK(float_to_f16(65520.0f) == 0x7C00);  // halfway to 65536: ties to even, which is infinity
    CHECK(float_to_f16(1e6f) == 0x7C00);
    CHECK(float_to_f16(-1e6f) == 0xFC00);
    CHECK(float_to_f16(FLT_MAX) == 0x7C00);
    CHECK(float_to_f16(kFloatInf) == 0x7C00);
    CHECK(float_to_f16(-kFloatInf) == 0xFC00);
    CHECK(f16_to_float(0x7C00) == kFloatInf);
    CHECK(f16_to_float(0xFC00) == -kFloatInf);
}

TEST_CASE("f16: subnormals, with ties to even at the bottom of the range") {
    CHECK(float_to_f16(0x1p-24f) == 0x0001);
    CHECK(float_to_f16(0x1p-25f) == 0x0000);               // halfway between 0 and 2^-24
    CHECK(float_to_f16(3 * 0x1p-25f) == 0x0002);           // halfway between 1 and 2 steps
    CHECK(float_to_f16(0x1p-25f + 0x1p-35f) == 0x0001);    // above halfway
    CHECK(float_to_f16(0x1p-26f) == 0x0000);
    CHECK(float_to_f16(1023 * 0x1p-24f) == 0x03FF);        // largest subnormal
    CHECK(float_to_f16(1023.5f * 0x1p-24f) == 0x0400);     // halfway to the smallest normal, which is even
    CHECK(float_to_f16(-0x1p-24f) == 0x8001);
    CHECK(float_to_f16(1e-30f) == 0x0000);
    CHECK(float_to_f16(-1e-30f) == 0x8000);
    CHECK(f16_to_float(0x0001) == 0x1p-24f);
    CHECK(f16_to_float(0x03FF) == 1023 * 0x1p-24f);
    CHECK(f16_to_float(0x8001) == -0x1p-24f);
}

TEST_CASE("f16: NaN stays NaN, including a float NaN whose payload lies only in the dropped bits") {
    CHECK(is_f16_nan(float_to_f16(kFloatNaN)));
    CHECK(is_f16_nan(float_to_f16(-kFloatNaN)));
    CHECK(is_f16_nan(float_to_f16(bits_to_float(0x7F800001))));
    CHECK(std::isnan(f16_to_float(0x7E00)));
    CHECK(std::isnan(f16_to_float(0x7C01)));
}

TEST_CASE("f16: every one of the 65536 values survives a round trip through float") {
    int changed = 0;
    for (uint32_t b = 0; b <= 0xFFFF; ++b) {
        const auto h = static_cast<uint16_t>(b);
        const uint16_t back = float_to_f16(f16_to_float(h));
        changed += is_f16_nan(h) ? !is_f16_nan(back) : back != h;
    }
    CHECK(changed == 0);
}

TEST_CASE("bf16: exact values and signed zero") {
    CHECK(float_to_bf16(1.0f) == 0x3F80);
    CHECK(float_to_bf16(-2.0f) == 0xC000);
    CHECK(float_to_bf16(-0.0f) == 0x8000);
    CHECK(bf16_to_float(0x3F80) == 1.0f);
    CHECK(bf16_to_float(0x7F7F) == bits_to_float(0x7F7F0000));  // largest finite
}

TEST_CASE("bf16: rounds to nearest, ties to even, whichever the parity of the lower neighbour") {
    CHECK(float_to_bf16(1.0f + 0x1p-8f) == 0x3F80);             // halfway, 0x3F80 is even
    CHECK(float_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3F82);         // halfway, 0x3F82 is even
    CHECK(float_to_bf16(1.0f + 0x1p-8f + 0x1p-20f) == 0x3F81);  // just above halfway over an even value
    CHECK(float_to_bf16(1.0f + 0x1p-7f + 0x1p-20f) == 0x3F81);  // just above an odd value: stays
    CHECK(float_to_bf16(1.0f + 3 * 0x1p-8f - 0x1p-20f) == 0x3F81);
    CHECK(float_to_bf16(-(1.0f + 3 * 0x1p-8f)) == 0xBF82);
}

TEST_CASE("bf16: overflow, infinities and NaN") {
    CHECK(float_to_bf16(FLT_MAX) == 0x7F80);                    // above halfway past the largest bf16
    CHECK(float_to_bf16(bits_to_float(0x7F7F7FFF)) == 0x7F7F);  // just below halfway
    CHECK(float_to_bf16(kFloatInf) == 0x7F80);
    CHECK(float_to_bf16(-kFloatInf) == 0xFF80);
    CHECK(is_bf16_nan(float_to_bf16(kFloatNaN)));
    CHECK(is_bf16_nan(float_to_bf16(bits_to_float(0x7F800001))));  // not rounded into infinity
    CHECK(is_bf16_nan(float_to_bf16(bits_to_float(0xFFFFFFFF))));  // not carried into the sign
    CHECK(std::isnan(bf16_to_float(0x7FC0)));
}

TEST_CASE("bf16: float subnormals keep their bits and their ties") {
    CHECK(float_to_bf16(bits_to_float(0x00080000)) == 0x0008);
    CHECK(float_to_bf16(bits_to_float(0x00008000)) == 0x0000);  // halfway between 0 and 0x0001
    CHECK(float_to_bf16(bits_to_float(0x00018000)) == 0x0002);
    CHECK(bf16_to_float(0x0001) == bits_to_float(0x00010000));
}

TEST_CASE("bf16: every one of the 65536 values survives a round trip through float") {
    int changed = 0;
    for (uint32_t b = 0; b <= 0xFFFF; ++b) {
        const auto h = static_cast<uint16_t>(b);
        const uint16_t back = float_to_bf16(bf16_to_float(h));
        changed += is_bf16_nan(h) ? !is_bf16_nan(back) : back != h;
    }
    CHECK(changed == 0);
}

TEST_CASE("half: bf16 arithmetic rounds as OpenVINO's bfloat16 does, truncating above halfway over an even value") {
    CHECK(float_to_bf16_openvino(1.0f + 0x1p-8f + 0x1p-20f) == 0x3F80);  // true nearest-even: 0x3F81
    CHECK(float_to_bf16_openvino(1.0f + 0x1p-7f + 0x1p-8f) == 0x3F82);   // halfway over an odd value: up
    CHECK(float_to_bf16_openvino(1.0f + 0x1p-8f) == 0x3F80);             // halfway over an even value: stays
    CHECK(float_to_bf16_openvino(-(1.0f + 3 * 0x1p-8f)) == 0xBF82);
    CHECK(float_to_bf16_openvino(std::numeric_limits<float>::quiet_NaN()) == 0x7FC0);
}

TEST_CASE("half: the bulk f16 conversions give the scalar ones' bits for every f16 value and every NaN") {
    std::vector<uint16_t> all(65536);
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
    std::vector<float> widened(all.size());
    f16_to_float_n(all.data(), widened.data(), all.size());
    size_t differ = 0;
    for (size_t i = 0; i < all.size(); ++i)
        differ += std::bit_cast<uint32_t>(widened[i]) != std::bit_cast<uint32_t>(f16_to_float(all[i]));
    CHECK(differ == 0);

    // Narrowing: every value just widened (subnormals, signalling and quiet NaN payloads, infinities), and
    // floats around each rounding boundary and NaNs whose payload lies only in the bits f16 drops.
    std::vector<float> floats(widened);
    for (uint32_t bits = 0x33000000u; bits < 0x477FF000u + 0x2000u; bits += 0x0FFFu) floats.push_back(bits_to_float(bits));
    for (uint32_t payload : {1u, 0x1FFFu, 0x400000u, 0x3FFFFFu}) floats.push_back(bits_to_float(0x7F800000u | payload));
    for (float f : {kFloatInf, -kFloatInf, 65519.996f, 65520.0f, -65520.0f, 0x1p-25f, 0x1.8p-25f}) floats.push_back(f);
    std::vector<uint16_t> narrowed(floats.size());
    float_to_f16_n(floats.data(), narrowed.data(), floats.size());
    differ = 0;
    for (size_t i = 0; i < floats.size(); ++i) differ += narrowed[i] != float_to_f16(floats[i]);
    CHECK(differ == 0);
    // Odd lengths run the last elements through the scalar path.
    float_to_f16_n(floats.data() + 3, narrowed.data(), 13);
    for (size_t i = 0; i < 13; ++i) CHECK(narrowed[i] == float_to_f16(floats[i + 3]));
    MESSAGE("F16C in use: " << std::string(f16_conversion_in_hardware() ? "yes" : "no"));
}
