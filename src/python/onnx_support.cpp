#include "python/checks.hpp"

#ifdef IRLINT_PYTHON_ONNX
#include "onnx/onnx_check.hpp"
#else
#include "rules/registry.hpp"
#endif

namespace irlint::python {

#ifdef IRLINT_PYTHON_ONNX
FileResult check_onnx_path(const std::string& path) { return check_onnx_file(path); }
#else
FileResult check_onnx_path(const std::string& path) {
    FileResult out;
    out.path = path;
    out.diagnostics.push_back(make_finding(
        rule::check_failed, "this irlint was built without ONNX support (configure with libonnx-dev and IRLINT_ONNX=ON)"));
    return out;
}
#endif

}  // namespace irlint::python
