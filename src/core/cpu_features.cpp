#include "core/cpu_features.hpp"

#if defined(__x86_64__) && __has_include(<sys/platform/x86.h>)
// The header's helpers return C's _Bool, which g++ accepts in C++ and clang++ does not.
#if defined(__clang__)
#define _Bool bool
#endif
#include <sys/platform/x86.h>
#undef _Bool
#define IRLINT_CPU_FROM_LIBC 1
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

namespace irlint::cpu {

#if defined(IRLINT_CPU_FROM_LIBC)

// "Active" in glibc's terms already includes the operating system's support (XCR0) for the wider registers.
bool has_avx2() {
    static const bool active = CPU_FEATURE_ACTIVE(AVX2);
    return active;
}

bool has_f16c() {
    static const bool active = CPU_FEATURE_ACTIVE(AVX) && CPU_FEATURE_ACTIVE(F16C);
    return active;
}

#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

namespace {

bool ymm_state_enabled() {
    unsigned xcr0 = 0, xcr0_high = 0;
    __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0_high) : "c"(0));
    return (xcr0 & 0x6u) == 0x6u;  // XMM and YMM state
}

// CPUID leaf 1: AVX, F16C and OSXSAVE (without which XGETBV faults).
bool leaf1_has_f16c() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    constexpr unsigned kOsxsave = 1u << 27, kAvx = 1u << 28, kF16c = 1u << 29;
    return (ecx & (kOsxsave | kAvx | kF16c)) == (kOsxsave | kAvx | kF16c) && ymm_state_enabled();
}

}  // namespace

bool has_avx2() {
    static const bool active = __builtin_cpu_supports("avx2");
    return active;
}

bool has_f16c() {
    static const bool active = leaf1_has_f16c();
    return active;
}

#else

bool has_avx2() { return false; }
bool has_f16c() { return false; }

#endif

}  // namespace irlint::cpu
