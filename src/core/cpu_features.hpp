#pragma once
// Which vector instructions the CPU and the operating system allow, for the kernels' run-time dispatch.
//
// The answers come from what the C library recorded when the program started (glibc's <sys/platform/x86.h>),
// not from CPUID: in a virtual machine every CPUID exits to the hypervisor (about 3.5 us each), and libgcc's
// detection behind target_clones and __builtin_cpu_supports executes a dozen of them at every start: a small
// `irlint run` took about 0.25 ms more CPU with it.

namespace irlint::cpu {

bool has_avx2();
bool has_f16c();  // F16C with AVX, and YMM state saved by the OS

}  // namespace irlint::cpu
