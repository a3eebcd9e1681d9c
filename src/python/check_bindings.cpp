#include "python/bindings.hpp"

namespace irlint::python {

void bind_check(pybind11::module_&) {}

}  // namespace irlint::python
