#include "cli/report_sink.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "cli/common.hpp"

namespace irlint::cli {

namespace fs = std::filesystem;

std::optional<ReportSink> ReportSink::open(const std::string& path, std::string& error) {
    if (path.empty()) return ReportSink("", "", -1);
    const fs::path target(path);
    const std::string temp =
        (target.parent_path() / fmt::format(".{}.irlint-{}.tmp", target.filename().string(), getpid())).string();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
        return std::nullopt;
    }
    return ReportSink(path, temp, fd);
}

ReportSink::ReportSink(ReportSink&& other) noexcept
    : path_(std::move(other.path_)), temp_(std::move(other.temp_)), fd_(other.fd_), write_errno_(other.write_errno_) {
    other.fd_ = -1;
    other.temp_.clear();
}

ReportSink::~ReportSink() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void ReportSink::write(std::string_view text) {
    if (text.empty()) return;
    if (is_stdout()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
        return;
    }
    while (!text.empty() && write_errno_ == 0) {
        const ssize_t n = ::write(fd_, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) write_errno_ = n < 0 ? errno : EIO;
        else text.remove_prefix(static_cast<size_t>(n));
    }
}

std::optional<std::string> ReportSink::commit() {
    if (is_stdout()) return std::nullopt;
    const int close_result = ::close(fd_);
    fd_ = -1;
    if (write_errno_ == 0 && close_result != 0) write_errno_ = errno;
    if (write_errno_ != 0) return fmt::format("cannot write {}: {}", path_, std::strerror(write_errno_));
    if (::rename(temp_.c_str(), path_.c_str()) != 0)
        return fmt::format("cannot write {}: {}", path_, std::strerror(errno));
    temp_.clear();
    return std::nullopt;
}

ReportOptions report_options_for(const ReportSink& sink, bool quiet) {
    ReportOptions r;
    r.palette = sink.is_stdout() ? palette_for(STDOUT_FILENO) : Palette::plain();
    r.summary = !quiet;
    std::error_code ec;
    r.base_dir = fs::current_path(ec).string();
    return r;
}

}  // namespace irlint::cli
