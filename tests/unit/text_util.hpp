#pragma once
// Small helpers the tests of text output share.

#include <cstddef>
#include <string>

namespace irlint::test {

// How many times `what` occurs in `text`, not overlapping.
inline size_t occurrences(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

}  // namespace irlint::test
