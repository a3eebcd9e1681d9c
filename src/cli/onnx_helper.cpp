// The ONNX entry points of irlint: a command that opens an .onnx file runs in irlint-onnx instead (see
// cli/onnx_commands.hpp). Replacing the process keeps the command line, the standard streams, the exit
// code and the signals as they are; irlint has written nothing by then.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "cli/load.hpp"
#include "cli/onnx_commands.hpp"
#include "core/glibc_tunables.hpp"
#include "rules/registry.hpp"

namespace irlint::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kHelperFile = "irlint-onnx";

fs::path executable_dir() {
    char buffer[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    if (n <= 0) return {};
    return fs::path(std::string(buffer, static_cast<size_t>(n))).parent_path();
}

// Beside the binary (a build tree), then where an installation puts it.
std::optional<fs::path> installed_helper() {
    const fs::path dir = executable_dir();
    for (const fs::path& candidate : {dir / kHelperFile, dir / IRLINT_ONNX_HELPER_RELDIR / kHelperFile}) {
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
            return candidate.lexically_normal();
    }
    return std::nullopt;
}

std::string not_installed() {
    return fmt::format("{} is not installed beside the binary or in {}", kHelperFile, IRLINT_ONNX_HELPER_RELDIR);
}

std::string unavailable(const std::string& why) { return "ONNX support is not available: " + why; }

std::string g_failure;  // why the last hand-over failed

// irlint-onnx holds a whole ONNX graph in malloc's heap, and first touches of its pages were a fifth of a
// 20,000-node model's check. glibc (2.35 and later) backs the heap with transparent huge pages when the
// tunable glibc.malloc.hugetlb is 1: that check takes 23 % less time, a small model's the same; an older glibc
// ignores the tunable.
constexpr std::string_view kHugePages = "glibc.malloc.hugetlb=1";

// A directory of small models is a few hundred small allocations per file, freed at the file's end. glibc's
// per-thread cache keeps 7 free blocks of a size; the rest went through the heap's bins, a third of the
// instructions of checking the 1,802 ONNX backend-test models. With 512 they stay in the cache and the
// directory takes 16 % less time; peak memory is the same (the cache holds blocks that were in use anyway).
constexpr std::string_view kThreadCache = "glibc.malloc.tcache_count=512";

}  // namespace

std::optional<std::string> hand_over_onnx_command() {
    const std::optional<fs::path> helper = installed_helper();
    if (!helper) return g_failure = unavailable(not_installed());
    std::fflush(nullptr);
    std::vector<std::string> env = with_glibc_tunables(environ, {kHugePages, kThreadCache});
    std::vector<char*> envp;
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    execve(helper->c_str(), command_line(), envp.data());
    return g_failure = unavailable(fmt::format("cannot run {}: {}", helper->string(), std::strerror(errno)));
}

std::string onnx_support_summary() {
    if (installed_helper())
        return fmt::format("yes (.onnx models, TensorProto .pb tensors; read by {}, which runs a command that "
                           "opens an .onnx file)",
                           kHelperFile);
    return "built, but " + not_installed();
}

// The commands hand themselves over before they open an .onnx file; these run only when that failed.
FileResult check_onnx_model_file(const std::string& path, bool, bool) {
    FileResult out;
    out.path = path;
    const std::string why = g_failure.empty() ? unavailable(not_installed()) : g_failure;
    out.diagnostics.push_back(make_finding(rule::check_failed, why));
    return out;
}

std::optional<CheckedModel> load_checked_onnx(const std::string& path, int* exit_code) {
    print_unreadable(path, *hand_over_onnx_command());
    *exit_code = exit_code::usage;
    return std::nullopt;
}

int run_onnx_reshape(const InferOptions& o) {
    print_unreadable(o.model, *hand_over_onnx_command());
    return exit_code::usage;
}

std::unique_ptr<RunModel> load_onnx_run_model(const std::string& path, int* exit_code) {
    print_unreadable(path, *hand_over_onnx_command());
    *exit_code = exit_code::usage;
    return nullptr;
}

}  // namespace irlint::cli
