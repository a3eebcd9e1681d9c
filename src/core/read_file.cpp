#include "core/read_file.hpp"

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace irlint {

namespace {

// Appends what `fd` holds from here to its end; false on a read error.
bool read_to_end(int fd, std::string& bytes) {
    char chunk[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        bytes.append(chunk, static_cast<size_t>(n));
    }
}

// Reads exactly bytes.size() bytes; false when the file ends sooner or a read fails.
bool read_exactly(int fd, std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

}  // namespace

// POSIX calls rather than a stream: a directory of small models is read file after file, and an ifstream
// takes three seeks and a second read for each (a tenth of the time of a check of a small ONNX model).
std::optional<std::string> read_whole_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string bytes;
    struct stat st {};
    bool ok = false;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        bytes.resize(static_cast<size_t>(st.st_size));
        ok = read_exactly(fd, bytes);
    } else {
        ok = read_to_end(fd, bytes);  // a pipe or a device, whose size is not known ahead
    }
    ::close(fd);
    if (!ok) return std::nullopt;
    return bytes;
}

}  // namespace irlint
