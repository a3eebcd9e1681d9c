#include "python/checks.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "ir/reader.hpp"
#include "python/errors.hpp"
#ifdef IRLINT_PYTHON_ONNX
#include "onnx/onnx_check.hpp"
#else
#include "rules/registry.hpp"
#endif

namespace irlint::python {

std::shared_ptr<Model> read_ir_or_raise(const std::string& path, Diagnostics* read_findings) {
    ReadResult read = read_model(path);
    if (const auto failure = read_failure(path, read)) {
        std::string message;
        for (const auto& line : failure->lines) {
            if (!message.empty()) message += '\n';
            message += printable(line.first, kPrintedMessageChars);
        }
        if (failure->unopened) raise_usage_error(message);
        raise_model_error(message);
    }
    if (read_findings) *read_findings = std::move(read.diagnostics);
    return std::make_shared<Model>(std::move(*read.model));
}

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
