#include "python/errors.hpp"

#include "python/bindings.hpp"

namespace irlint::python {

void bind_errors(pybind11::module_& m) {
    // pybind11 tries the translators last registered first: the base goes first, so that each subclass
    // is caught as itself.
    auto error = pybind11::register_exception<Error>(m, "Error", PyExc_Exception);
    error.doc() = "The base of every error irlint raises; str(e) is the message the command line prints.";
    pybind11::register_exception<UsageError>(m, "UsageError", error).doc() =
        "Bad arguments: what the command line rejects with exit code 2 (a missing path, an unknown rule, ...).";
    pybind11::register_exception<ModelError>(m, "ModelError", error).doc() =
        "A model that cannot be read or checked.";
    pybind11::register_exception<ConfigError>(m, "ConfigError", error).doc() =
        "An irlint.toml that cannot be read or is invalid.";
    pybind11::register_exception<DataError>(m, "DataError", error).doc() =
        "A tensor, .npy file or array that cannot be used.";
}

}  // namespace irlint::python
