#pragma once
// The environment of a process irlint starts in its place (execve), with glibc tunables added.

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace irlint {

// `env` (a null-terminated array, as `environ`) with each of `settings` ("glibc.malloc.hugetlb=1") appended
// to GLIBC_TUNABLES, or that variable added; a tunable GLIBC_TUNABLES already names is left as it is: the
// user's choice stands.
std::vector<std::string> with_glibc_tunables(const char* const* env, std::initializer_list<std::string_view> settings);

}  // namespace irlint
