#include "pipeline/shard.hpp"

#include "core/hash.hpp"
#include "core/text.hpp"

namespace irlint {

std::optional<Shard> parse_shard(std::string_view text) {
    const auto parts = split(text, '/');
    if (parts.size() != 2) return std::nullopt;
    const auto k = parse_int(parts[0]), n = parse_int(parts[1]);
    if (!k || !n || *n < 1 || *k < 1 || *k > *n) return std::nullopt;
    return Shard{static_cast<uint64_t>(*k), static_cast<uint64_t>(*n)};
}

uint64_t shard_of(std::string_view relative, uint64_t n) { return fnv1a(relative) % n + 1; }

void keep_shard(std::vector<CheckJob>& jobs, const Shard& s) {
    std::erase_if(jobs, [&](const CheckJob& j) { return shard_of(j.file.relative, s.n) != s.k; });
}

}  // namespace irlint
