#pragma once
// What check, infer and shape share in the Python module.

#include <atomic>
#include <string>

#include <pybind11/pybind11.h>

#include "report/report.hpp"

namespace irlint::python {

// Ctrl-C while the GIL is released: poll() (from the thread that released it, while the work goes on) runs
// Python's signal handlers; once one raised (KeyboardInterrupt), interrupted() is true, the work stops taking
// new files, and raise_if_interrupted() (GIL held again) raises that exception.
class InterruptWatch {
public:
    void poll() const {
        if (interrupted_) return;
        const pybind11::gil_scoped_acquire gil;
        // The exception stays set on this thread until raise_if_interrupted() hands it to Python.
        if (PyErr_CheckSignals() != 0) interrupted_ = true;
    }
    bool interrupted() const { return interrupted_; }
    void raise_if_interrupted() const {
        if (interrupted_) throw pybind11::error_already_set();
    }

private:
    mutable std::atomic<bool> interrupted_{false};
};

// One finding and the file it is in: irlint.Finding (bound in check_bindings.cpp).
struct Finding {
    std::string path;
    Diagnostic d;

    bool operator==(const Finding&) const = default;
};

// Why an .onnx file cannot be read by a build without ONNX support: the command line's words.
inline constexpr const char* kNoOnnxSupport =
    "this irlint was built without ONNX support (configure with libonnx-dev and IRLINT_ONNX=ON)";

// An .onnx file checked as `irlint check` checks it (with the module's own libonnx), or, in a build without
// ONNX support, a check-failed finding that says so.
FileResult check_onnx_path(const std::string& path);

void bind_infer(pybind11::module_& m);  // infer, InferResult (infer_bindings.cpp)
void bind_shape(pybind11::module_& m);  // shape, ShapeResult (shape_bindings.cpp)

}  // namespace irlint::python
