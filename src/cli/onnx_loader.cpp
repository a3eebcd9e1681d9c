// The ONNX entry points of the binary: they load irlint-onnx.so on first use and call into it. The module
// is looked for next to the binary (the build tree) and in the library directory of an installation.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstring>
#include <filesystem>
#include <mutex>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "cli/onnx_module.hpp"

namespace irlint::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kModuleFile = "irlint-onnx.so";

fs::path executable_dir() {
    char buffer[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    if (n <= 0) return {};
    return fs::path(std::string(buffer, static_cast<size_t>(n))).parent_path();
}

std::vector<fs::path> module_candidates() {
    const fs::path dir = executable_dir();
    return {dir / kModuleFile, dir / IRLINT_ONNX_MODULE_RELDIR / kModuleFile};
}

std::optional<fs::path> installed_module() {
    for (const fs::path& candidate : module_candidates()) {
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal();
    }
    return std::nullopt;
}

struct LoadedModule {
    const OnnxModuleTable* table = nullptr;
    std::string problem;  // why there is no table
};

std::string not_installed() {
    return fmt::format("its module {} is not installed beside the binary or in {}", kModuleFile,
                       IRLINT_ONNX_MODULE_RELDIR);
}

LoadedModule open_module() {
    const auto path = installed_module();
    if (!path) return {nullptr, "ONNX support is not available: " + not_installed()};
    void* handle = dlopen(path->c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return {nullptr, fmt::format("cannot load the ONNX module: {}", dlerror())};
    using Entry = const OnnxModuleTable* (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(handle, "irlint_onnx_module_table"));
    const OnnxModuleTable* table = entry ? entry() : nullptr;
    if (!table || std::strcmp(table->build_id, kOnnxModuleBuildId) != 0)
        return {nullptr, fmt::format("{} is not the ONNX module of this irlint ({})", path->string(), kOnnxModuleBuildId)};
    return {table, ""};  // never closed: what it returns is owned by code in it
}

const LoadedModule& module() {
    static std::once_flag once;
    static LoadedModule loaded;
    std::call_once(once, [] { loaded = open_module(); });
    return loaded;
}

}  // namespace

std::string onnx_support_summary() {
    if (installed_module()) return "yes (.onnx models, TensorProto .pb tensors; loaded when an .onnx file is opened)";
    return "built, but " + not_installed();
}

FileResult check_onnx_model_file(const std::string& path) {
    if (const auto* table = module().table) return table->check_file(path);
    FileResult out;
    out.path = path;
    out.diagnostics.push_back({Severity::error, std::string(rule::ir_structure), module().problem, 0, {}});
    return out;
}

std::optional<CheckedModel> load_checked_onnx(const std::string& path, int* exit_code) {
    if (const auto* table = module().table) return table->load_checked(path, exit_code);
    print_error(fmt::format("{}: {}", path, module().problem));
    *exit_code = exit_code::usage;
    return std::nullopt;
}

int run_onnx(const RunOptions& o, const RunLimits& limits) {
    if (const auto* table = module().table) return table->run(o, limits);
    print_error(fmt::format("{}: {}", o.model, module().problem));
    return exit_code::usage;
}

}  // namespace irlint::cli
