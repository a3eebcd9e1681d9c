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
    out.diagnostics.push_back(make_finding(rule::check_failed, kNoOnnxSupport));
    return out;
}
#endif

}  // namespace irlint::python
