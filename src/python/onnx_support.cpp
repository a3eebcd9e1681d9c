#include "python/checks.hpp"

#include <fmt/format.h>

#include "python/errors.hpp"
#ifdef IRLINT_PYTHON_ONNX
#include "onnx/onnx_check.hpp"
#else
#include "rules/registry.hpp"
#endif

namespace irlint::python {

void raise_onnx_read_error(const std::string& path, bool missing, const std::string& error) {
    if (missing) raise_usage_error(fmt::format("{}: no such file or directory", path));
    raise_model_error(fmt::format("{}: {}", path, error));
}

#ifdef IRLINT_PYTHON_ONNX
FileResult check_onnx_path(const std::string& path) { return check_onnx_file(path); }

std::shared_ptr<const OnnxCheck> checked_onnx(const std::string& path) {
    OnnxRead read = read_onnx(path);
    if (!read.model) raise_onnx_read_error(path, read.missing, read.error);
    return check_onnx(std::move(*read.model));
}
#else
std::shared_ptr<const OnnxCheck> checked_onnx(const std::string& path) {
    raise_model_error(fmt::format("{}: {}", path, kNoOnnxSupport));
}

FileResult check_onnx_path(const std::string& path) {
    FileResult out;
    out.path = path;
    out.diagnostics.push_back(make_finding(rule::check_failed, kNoOnnxSupport));
    return out;
}
#endif

}  // namespace irlint::python
