#pragma once
// toml++ 3.3, the version Debian 12 ships, reaches __builtin_unreachable() (undefined behaviour) when it asks
// whether some non-ASCII characters are whitespace: U+00A1..U+0499, U+2C5E..U+3057 other than U+3000, and
// U+FB26..U+FEFE (the blocks 0, 11 and 63 of its generated table). It asks wherever whitespace may stand:
// outside strings, inside quoted keys (whose characters it records one by one) and in a multi-line basic
// string after a backslash. A configuration with such a character there is refused before toml++ sees it.

#include <optional>
#include <string_view>

namespace irlint {

// The line (from 1) of the first such character where toml++ would ask about it; nullopt when there is none.
// Strings that hold a value and comments may hold any character.
std::optional<int> toml_unreachable_character_line(std::string_view text);

}  // namespace irlint
