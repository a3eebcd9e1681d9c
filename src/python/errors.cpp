#include "python/bindings.hpp"

namespace irlint::python {

void bind_errors(pybind11::module_& m) {
    pybind11::register_exception<std::runtime_error>(m, "Error");
}

}  // namespace irlint::python
