#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
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

std::string write_error(const std::string& path, int error) {
    return fmt::format("cannot write {}: {}", path, std::strerror(error));
}

int fsync_retrying(int fd) {
    int status;
    do status = ::fsync(fd);
    while (status != 0 && errno == EINTR);
    return status;
}

// After the rename the new name is only durable once its directory is on disk. The file is already in
// place then, so a directory that cannot be synced (some file systems refuse) is not an error.
void sync_directory_of(const fs::path& target) {
    const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    fsync_retrying(fd);
    ::close(fd);
}
}  // namespace

std::optional<AtomicFileWriter> AtomicFileWriter::open(const std::string& path, std::string& error) {
    std::string temp = temporary_name(fs::path(path));
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = write_error(path, errno);
        return std::nullopt;
    }
    return AtomicFileWriter(path, std::move(temp), fd);
}

AtomicFileWriter::AtomicFileWriter(std::string path, std::string temp, int fd)
    : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& other) noexcept
    : path_(std::move(other.path_)), temp_(std::move(other.temp_)), fd_(other.fd_), errno_(other.errno_) {
    other.fd_ = -1;
    other.temp_.clear();
}

AtomicFileWriter::~AtomicFileWriter() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFileWriter::write(std::string_view piece) {
    while (!piece.empty() && errno_ == 0 && fd_ >= 0) {
        const ssize_t n = ::write(fd_, piece.data(), piece.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) errno_ = n < 0 ? errno : EIO;
        else piece.remove_prefix(static_cast<size_t>(n));
    }
}

std::optional<std::string> AtomicFileWriter::commit() {
    if (fd_ < 0) return write_error(path_, EBADF);
    // The data must be on disk before the rename makes it visible: after a crash the target is then the
    // old file or the whole new one, never an empty or partial file under the new name.
    if (errno_ == 0 && fsync_retrying(fd_) != 0) errno_ = errno;
    const bool closed = ::close(fd_) == 0;
    fd_ = -1;
    if (errno_ == 0 && !closed) errno_ = errno;
    if (errno_ != 0) return write_error(path_, errno_);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) return write_error(path_, errno);
    temp_.clear();
    sync_directory_of(fs::path(path_));
    return std::nullopt;
}

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content) {
    return write_file_atomically(path, std::vector<std::string_view>{content});
}

std::optional<std::string> replace_file_atomically(const std::string& path, std::string_view content) {
    struct stat target {};
    if (::stat(path.c_str(), &target) != 0) return write_error(path, errno);
    std::string error;
    auto file = AtomicFileWriter::open(path, error);
    if (!file) return error;
    if (auto failure = file->keep_mode(target.st_mode & 07777)) return failure;
    file->write(content);
    return file->commit();
}

std::optional<std::string> AtomicFileWriter::keep_mode(unsigned mode) {
    if (fd_ >= 0 && ::fchmod(fd_, static_cast<mode_t>(mode)) != 0) return write_error(path_, errno);
    return std::nullopt;
}

std::optional<std::string> write_file_atomically(const std::string& path, const std::vector<std::string_view>& pieces) {
    std::string error;
    auto file = AtomicFileWriter::open(path, error);
    if (!file) return error;
    for (auto piece : pieces) file->write(piece);
    return file->commit();
}

}  // namespace irlint
