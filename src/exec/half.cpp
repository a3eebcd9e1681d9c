#include "exec/half.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
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

// CPUID leaf 1: F16C and AVX, and OSXSAVE so that XGETBV tells whether the OS saves the YMM registers.
// (clang's __builtin_cpu_supports does not know "f16c".)
bool cpu_has_f16c() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    constexpr unsigned kOsxsave = 1u << 27, kAvx = 1u << 28, kF16c = 1u << 29;
    if ((ecx & (kOsxsave | kAvx | kF16c)) != (kOsxsave | kAvx | kF16c)) return false;
    unsigned xcr0 = 0, xcr0_high = 0;
    __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0_high) : "c"(0));
    return (xcr0 & 0x6u) == 0x6u;  // XMM and YMM state
}
#else
bool cpu_has_f16c() { return false; }
#endif

const bool kHardware = cpu_has_f16c();

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
