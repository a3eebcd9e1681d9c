#pragma once
// toml++ 3.3, the version Debian 12 ships, reaches __builtin_unreachable() (undefined behaviour) when it asks
// whether some non-ASCII characters are whitespace: U+00A1..U+0499, U+2C5E..U+3057 other than U+3000, and
// U+FB26..U+FEFE (the blocks 0, 11 and 63 of its generated table). Which places it asks about depends on the
// state of its parser, and a guard that follows that state is one fuzzer find away from the next crash. So
// the text toml++ is given holds no non-ASCII character where it could ask: those in strings are written as
// \uXXXX escapes (a literal string that holds one becomes the basic string of the same value), those in
// comments are blanked, and any other is refused, as TOML allows non-ASCII only in strings and comments:
// the text toml++ reads is ASCII.

#include <string>
#include <string_view>
#include <variant>

namespace irlint {

struct TomlRefusal {
    int line = 0;  // from 1
    std::string reason;
};

// The text to give toml++: the same document, with the same lines, whose every non-ASCII character stands
// escaped inside a basic string; or why the text is not TOML.
std::variant<std::string, TomlRefusal> toml_text_for_parser(std::string_view text);

}  // namespace irlint
