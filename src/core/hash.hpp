#pragma once
// FNV-1a, 64 bits: a hash that is the same on every machine and in every run, for what must stay put when
// other things change (a file's shard, a finding's fingerprint, a configuration's digest).

#include <cstdint>
#include <string_view>

namespace irlint {

inline constexpr uint64_t kFnv1aBasis = 0xcbf29ce484222325ull;

// Continues the hash `h` over the bytes of `s`.
constexpr uint64_t fnv1a(std::string_view s, uint64_t h = kFnv1aBasis) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;  // the 64-bit FNV prime
    return h;
}

}  // namespace irlint
