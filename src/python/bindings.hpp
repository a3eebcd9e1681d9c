#pragma once
// Each part of the Python API adds its functions and classes to the module.

#include <pybind11/pybind11.h>

namespace irlint::python {

void bind_errors(pybind11::module_& m);  // irlint.Error and its subclasses (errors.cpp)
void bind_check(pybind11::module_& m);   // check, infer, shape, Report, Finding (check_bindings.cpp)
void bind_run(pybind11::module_& m);     // run, compare, RunResult (run_bindings.cpp)

}  // namespace irlint::python
