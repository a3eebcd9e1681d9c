#pragma once
// irlint.Error and its subclasses. C++ code raises them by throwing these exceptions (also with the GIL
// released: pybind11 turns them into the Python exceptions once the GIL is held again). The messages are
// the ones the command line prints after "irlint: error: ".

#include <stdexcept>
#include <string>

#include "core/text.hpp"

namespace irlint::python {

// irlint.Error: the base of every error irlint raises on purpose.
// The message may quote a model or a path: it is made valid UTF-8 (U+FFFD) for Python's str.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(to_valid_utf8(message)) {}
};

// irlint.UsageError: bad arguments, the command line's exit-2 cases (a missing path, an unknown rule, ...).
class UsageError : public Error {
public:
    using Error::Error;
};

// irlint.ModelError: a model that cannot be read or checked.
class ModelError : public Error {
public:
    using Error::Error;
};

// irlint.ConfigError: an irlint.toml that cannot be read or is invalid.
class ConfigError : public Error {
public:
    using Error::Error;
};

// irlint.DataError: a tensor, .npy file or array that cannot be used (run, compare).
class DataError : public Error {
public:
    using Error::Error;
};

[[noreturn]] inline void raise_usage_error(const std::string& message) { throw UsageError(message); }
[[noreturn]] inline void raise_model_error(const std::string& message) { throw ModelError(message); }
[[noreturn]] inline void raise_config_error(const std::string& message) { throw ConfigError(message); }
[[noreturn]] inline void raise_data_error(const std::string& message) { throw DataError(message); }

}  // namespace irlint::python
