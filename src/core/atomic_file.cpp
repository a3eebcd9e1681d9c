#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace irlint {

namespace fs = std::filesystem;

namespace {
std::string temporary_name(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    return (target.parent_path() /
            fmt::format(".{}.irlint-{}-{}.tmp", target.filename().string(), getpid(), counter++))
        .string();
}

bool write_all(int fd, std::string_view content) {
    while (!content.empty()) {
        const ssize_t n = ::write(fd, content.data(), content.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        content.remove_prefix(static_cast<size_t>(n));
    }
    return true;
}
}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content) {
    return write_file_atomically(path, std::vector<std::string_view>{content});
}

std::optional<std::string> write_file_atomically(const std::string& path, const std::vector<std::string_view>& pieces) {
    const std::string temp = temporary_name(fs::path(path));
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return fmt::format("cannot write {}: {}", path, std::strerror(errno));
    bool written = true;
    for (auto piece : pieces) written = written && write_all(fd, piece);
    const int write_errno = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !closed) {
        ::unlink(temp.c_str());
        return fmt::format("cannot write {}: {}", path, std::strerror(written ? errno : write_errno));
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int rename_errno = errno;
        ::unlink(temp.c_str());
        return fmt::format("cannot write {}: {}", path, std::strerror(rename_errno));
    }
    return std::nullopt;
}

}  // namespace irlint
