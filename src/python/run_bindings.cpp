#include "python/bindings.hpp"

namespace irlint::python {

void bind_run(pybind11::module_&) {}

}  // namespace irlint::python
