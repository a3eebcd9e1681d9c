#pragma once
// `check --shard K/N`: which files one of N jobs checks. A file's shard is a stable hash of its path relative
// to its PATH argument, so every machine and checkout agrees on the shards whatever the spelling of the PATH
// (models/, ./models, /abs/models), and a file stays in its shard when others are added.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "pipeline/check_plan.hpp"

namespace irlint {

struct Shard {
    uint64_t k = 1, n = 1;  // the k-th of n, 1 <= k <= n
};

// "K/N", or nullopt when the text is not one.
std::optional<Shard> parse_shard(std::string_view text);

// The shard (1..n) a file whose path relative to its PATH argument is `relative` belongs to.
uint64_t shard_of(std::string_view relative, uint64_t n);

// Keeps the jobs of shard `s`, in their order.
void keep_shard(std::vector<CheckJob>& jobs, const Shard& s);

}  // namespace irlint
