#pragma once
// The environment of a process irlint starts in its place (execve), with a glibc tunable added.

#include <string>
#include <string_view>
#include <vector>

namespace irlint {

// `env` (a null-terminated array, as `environ`) with `setting` ("glibc.malloc.hugetlb=1") appended to
// GLIBC_TUNABLES, or that variable added; unchanged when GLIBC_TUNABLES already names the tunable: the
// user's choice stands.
std::vector<std::string> with_glibc_tunable(const char* const* env, std::string_view setting);

}  // namespace irlint
