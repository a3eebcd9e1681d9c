#pragma once
// What a fuzz target does when irlint breaks one of its own promises on an input: say which, and abort, so
// that libFuzzer keeps the input as a crash.

#include <cstdio>
#include <cstdlib>
#include <string>

[[noreturn]] inline void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
    std::abort();
}
