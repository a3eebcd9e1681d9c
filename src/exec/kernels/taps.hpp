#pragma once
// Which kernel taps of a window land where, along one axis: the geometry the window-by-window kernels
// (other producers' conventions, ONNX's own windows) share.

#include <algorithm>
#include <cstdint>

#include "core/int_math.hpp"

namespace irlint {

// The kernel taps [first, last) of one window along one axis.
struct TapRange {
    int64_t first = 0, last = 0;
    int64_t count() const { return std::max<int64_t>(0, last - first); }
};

// The taps j (0 <= j < kernel) of a window starting at `start` whose positions start + j * dilation lie in
// [lo, hi).
inline TapRange taps_within(int64_t start, int64_t kernel, int64_t dilation, int64_t lo, int64_t hi) {
    return {std::max<int64_t>(0, -floor_div(start - lo, dilation)),
            std::min(kernel, floor_div(hi - 1 - start, dilation) + 1)};
}

}  // namespace irlint
