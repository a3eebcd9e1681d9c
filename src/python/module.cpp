// The Python module irlint._irlint: the commands as functions, with Python types. The package irlint
// (python/irlint/__init__.py) re-exports it; each part of the API binds itself from its own file.

#include <pybind11/pybind11.h>

#include "python/bindings.hpp"

PYBIND11_MODULE(_irlint, m) {
    m.doc() = "irlint: OpenVINO IR and ONNX models checked against the runtime's shape rules";
    m.attr("__version__") = IRLINT_VERSION;
    irlint::python::bind_errors(m);
    irlint::python::bind_check(m);
    irlint::python::bind_run(m);
}
