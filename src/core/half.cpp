#include "core/half.hpp"

#include "core/cpu_features.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define IRLINT_HAVE_F16C_PATH 1
#endif

namespace irlint {

namespace {

void f16_to_float_portable(const uint16_t* src, float* dst, size_t n) {
    for (size_t i = 0; i < n; ++i) dst[i] = f16_to_float(src[i]);
}

void float_to_f16_portable(const float* src, uint16_t* dst, size_t n) {
    for (size_t i = 0; i < n; ++i) dst[i] = float_to_f16(src[i]);
}

#ifdef IRLINT_HAVE_F16C_PATH
// The hardware agrees with the scalar conversions on every value but NaN: it sets the quiet bit of a
// signalling NaN's payload, and keeps a payload when narrowing where the scalar conversion drops it. A
// block of eight that holds a NaN is converted again by the scalar code.
__attribute__((target("avx,f16c"))) void f16_to_float_f16c(const uint16_t* src, float* dst, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        const __m256 f = _mm256_cvtph_ps(h);
        _mm256_storeu_ps(dst + i, f);
        if (_mm256_movemask_ps(_mm256_cmp_ps(f, f, _CMP_UNORD_Q))) f16_to_float_portable(src + i, dst + i, 8);
    }
    f16_to_float_portable(src + i, dst + i, n - i);
}

__attribute__((target("avx,f16c"))) void float_to_f16_f16c(const float* src, uint16_t* dst, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 f = _mm256_loadu_ps(src + i);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
        if (_mm256_movemask_ps(_mm256_cmp_ps(f, f, _CMP_UNORD_Q))) float_to_f16_portable(src + i, dst + i, 8);
    }
    float_to_f16_portable(src + i, dst + i, n - i);
}

#endif

const bool kHardware = cpu::has_f16c();

}  // namespace

bool f16_conversion_in_hardware() { return kHardware; }

void f16_to_float_n(const uint16_t* src, float* dst, size_t n) {
#ifdef IRLINT_HAVE_F16C_PATH
    if (kHardware) return f16_to_float_f16c(src, dst, n);
#endif
    f16_to_float_portable(src, dst, n);
}

void float_to_f16_n(const float* src, uint16_t* dst, size_t n) {
#ifdef IRLINT_HAVE_F16C_PATH
    if (kHardware) return float_to_f16_f16c(src, dst, n);
#endif
    float_to_f16_portable(src, dst, n);
}

}  // namespace irlint
