#pragma once
// Integer arithmetic the window geometry needs where C++'s own rounds the wrong way.

#include <cstdint>

namespace irlint {

// a / b rounded toward negative infinity (C++ division truncates toward zero).
constexpr int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

// a / b rounded up, for a >= 0 and b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace irlint
