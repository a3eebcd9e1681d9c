#pragma once
// ONNX's shape inference in a forked child process. Debian's libonnx is not hardened against hostile models
// (it divides by zero, indexes past lists, loops long): remove_library_hazards keeps the known cases out, and
// the child keeps the rest from taking irlint down. The child runs library_shape_inference under limits on
// memory and CPU time and sends the inferred values back through a pipe; a signal, an exit code, a timeout
// or malformed data leave the parent with a reason instead of shapes.

#include <cstddef>
#include <cstdint>

#include "onnx/onnx_infer_cross.hpp"

namespace irlint {

struct IsolationLimits {
    uint64_t address_space = uint64_t{1} << 30;  // bytes the child may map beyond what it has at fork
    unsigned cpu_seconds = 10;
    unsigned wall_seconds = 30;
    unsigned first_try_seconds = 5;  // a child late by then is tried again, once, with wall_seconds
    size_t max_bytes = size_t{64} << 20;  // what the parent reads from the pipe
};

LibraryShapes isolated_library_shape_inference(const OnnxModel& model, const IsolationLimits& limits = {},
                                               LibraryErrors errors = LibraryErrors::ignored);

// Tests only: runs in the child before the inference, with the pipe's write end (to crash, hang or write
// garbage). nullptr restores the default.
using IsolatedChildHook = void (*)(int fd);
void set_isolated_inference_child_hook(IsolatedChildHook hook);

}  // namespace irlint
