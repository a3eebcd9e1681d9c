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
// A shell glob (fnmatch: `*`, `?`, `[...]`; `*` also crosses `/`) that matches the whole text.
bool glob_match(std::string_view pattern, std::string_view text);

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

// Text from an untrusted file (a model, a .npy, a shard report), made safe for a terminal or a CI log:
// control characters (C0, DEL, C1), line and paragraph separators and the Unicode bidirectional controls
// are written as escapes (\n, \t, \x1b, \u202e), a byte that is not UTF-8 as \xNN, a backslash as \\;
// past `max_chars` characters the text is cut with an ellipsis and its length in bytes. The human-readable
// outputs pass every such string through this; machine formats (JSON, SARIF, JUnit) escape by their own
// rules and keep the text whole.
// A non-negative decimal integer without sign or leading zero ("0", "17"): the only text from a model that
// may become part of a file name (run --data looks up DIR/<layer-id>.in0.npy).
bool is_decimal_id(std::string_view s);

inline constexpr size_t kPrintedNameChars = 200;
inline constexpr size_t kPrintedMessageChars = 4000;
std::string printable(std::string_view s, size_t max_chars = kPrintedNameChars);

}  // namespace irlint
