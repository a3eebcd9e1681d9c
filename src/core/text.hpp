#pragma once
// Small string helpers shared by the readers and the reporters.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irlint {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
std::string to_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);

// A whole decimal integer (optional sign), nothing else: "12", "-1".
std::optional<int64_t> parse_int(std::string_view s);

// "1 value", "3 values"; the plural is the singular with an "s" unless given.
std::string counted(size_t n, std::string_view singular, std::string_view plural = {});

std::string join_ints(const std::vector<int64_t>& v, std::string_view sep = ",");

// The text with every byte sequence that is not UTF-8 replaced by U+FFFD, so reports stay valid JSON/XML
// whatever bytes a model file holds.
std::string to_valid_utf8(std::string_view s);
// The offset of the first byte that does not belong to a valid UTF-8 sequence, or npos.
size_t first_invalid_utf8(std::string_view s);

// Shortens user-controlled text for messages ("abc…" with the full length).
std::string excerpt(std::string_view s, size_t max_len = 40);

}  // namespace irlint
