#pragma once
// What check, infer and shape share in the Python module.

#include <atomic>
#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "core/dim.hpp"
#include "core/text.hpp"
#include "ir/model.hpp"
#include "report/report.hpp"

namespace irlint {
struct OnnxCheck;
}

namespace irlint::python {

// Text from a model (a layer name, a message quoting one) as a Python str: a byte sequence that is not UTF-8
// becomes U+FFFD, as in the JSON report, where pybind11 would raise UnicodeDecodeError.
inline pybind11::str model_text(std::string_view s) { return pybind11::str(to_valid_utf8(s)); }

// A path as Python spells a file name it cannot decode (os.fsdecode: surrogateescape), so that open() finds it.
inline pybind11::str path_text(const std::string& s) {
    return pybind11::reinterpret_steal<pybind11::str>(
        PyUnicode_DecodeFSDefaultAndSize(s.data(), static_cast<Py_ssize_t>(s.size())));
}

// A path argument (str, bytes or os.PathLike) as the bytes of the file name (os.fsencode), so that a name
// that is not UTF-8 reaches the file it names.
inline std::string path_arg(const pybind11::handle& path) {
    return pybind11::module_::import("os").attr("fsencode")(path).cast<std::string>();
}

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

// Dims as the JSON reports spell them: an int per static dim, -1 for a dynamic one, "lo..hi" for an interval;
// None for a dynamic rank.
inline pybind11::object dims_object(const Shape& shape) {
    if (shape.rank_dynamic) return pybind11::none();
    pybind11::list out;
    for (const Dim& d : shape.dims) {
        if (d.is_static()) out.append(d.length());
        else if (d.is_fully_dynamic()) out.append(-1);
        else out.append(d.str());
    }
    return out;
}

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

// An IR read as the commands read it: a file that cannot be opened raises UsageError, one that is not a
// readable IR ModelError, with the commands' words (escaped as they print them). The reader's findings on a
// model it read go to *read_findings.
std::shared_ptr<Model> read_ir_or_raise(const std::string& path, Diagnostics* read_findings = nullptr);

// An .onnx file read and checked as `irlint infer` and `irlint run` read it; a missing file raises UsageError,
// one that is not a readable ONNX model (or a build without ONNX support) ModelError. The report's layers
// point into the result.
std::shared_ptr<const OnnxCheck> checked_onnx(const std::string& path);
// The same errors for a file read_onnx could not read.
[[noreturn]] void raise_onnx_read_error(const std::string& path, bool missing, const std::string& error);

void bind_infer(pybind11::module_& m);  // infer, InferResult (infer_bindings.cpp)
void bind_shape(pybind11::module_& m);  // shape, ShapeResult (shape_bindings.cpp)

}  // namespace irlint::python
