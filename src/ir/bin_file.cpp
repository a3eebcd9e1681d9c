#include "ir/bin_file.hpp"

#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace irlint {

BinFile::~BinFile() {
    if (fd_ >= 0) ::close(fd_);
}

bool BinFile::read(uint64_t offset, char* out, size_t size) {
    std::call_once(opened_, [this] { fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC); });
    if (fd_ < 0) return false;
    size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd_, out + done, size - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

}  // namespace irlint
