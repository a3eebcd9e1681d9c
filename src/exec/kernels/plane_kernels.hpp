#pragma once
// The plane kernels, compiled once per instruction set: each copy lives in a namespace of its own
// (baseline, and avx2 where GCC builds for x86-64) and is picked at run time by with_plane_kernels().
//
// Why a copy per namespace and not a function attribute: the kernels used to be compiled for AVX2 by a
// `flatten` wrapper, which inlines every call below it into one function per element type and route;
// optimizing those functions took more than five minutes a file. Here every kernel function is defined
// under `#pragma GCC target("avx2")`, so each one is AVX2 with the ordinary inlining decisions, and each
// copy compiles in seconds. The namespaces keep the two copies' symbols apart. Templates of the standard
// library and of kernel_support.hpp are defined before the region and keep the baseline target, so no
// AVX2 instruction reaches code that runs without the check.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/cpu_features.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/kernels/plane_scratch.hpp"

#define IRLINT_ISA baseline
namespace irlint::kernels::IRLINT_ISA {
struct Isa {};  // picks this copy by argument-dependent lookup: avg_pool_plane<V>(isa, ...)
}  // namespace irlint::kernels::IRLINT_ISA
#include "exec/kernels/separable.hpp"
#include "exec/kernels/avg_pool_kernel.hpp"
#include "exec/kernels/max_pool_kernel.hpp"
#include "exec/kernels/adaptive_pool_kernel.hpp"
#undef IRLINT_ISA

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define IRLINT_HAVE_AVX2_KERNELS 1
#pragma GCC push_options
#pragma GCC target("avx2")
#define IRLINT_ISA avx2
namespace irlint::kernels::IRLINT_ISA {
struct Isa {};
}  // namespace irlint::kernels::IRLINT_ISA
#include "exec/kernels/separable.hpp"
#include "exec/kernels/avg_pool_kernel.hpp"
#include "exec/kernels/max_pool_kernel.hpp"
#include "exec/kernels/adaptive_pool_kernel.hpp"
#undef IRLINT_ISA
#pragma GCC pop_options
#endif

namespace irlint::kernels {

// Calls f(isa) with the tag of the best copy this CPU runs; f passes it on to the kernel it calls.
template <class F>
decltype(auto) with_plane_kernels(F&& f) {
#ifdef IRLINT_HAVE_AVX2_KERNELS
    if (cpu::has_avx2()) return f(avx2::Isa{});
#endif
    return f(baseline::Isa{});
}

}  // namespace irlint::kernels
