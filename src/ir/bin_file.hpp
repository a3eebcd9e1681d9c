#pragma once
// A model's .bin, opened once when its first Const is read and read at exact offsets from then on: a model
// reads hundreds of small Consts (shapes, axes, scales), and opening the file and filling a stream buffer for
// each was a tenth of `check`'s time on a directory of real IRs.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace irlint {

class BinFile {
public:
    explicit BinFile(std::string path) : path_(std::move(path)) {}
    ~BinFile();
    BinFile(const BinFile&) = delete;
    BinFile& operator=(const BinFile&) = delete;

    // Reads `size` bytes at `offset` into `out`; false when the file cannot be opened or holds fewer bytes there.
    // Threads may read at once.
    bool read(uint64_t offset, char* out, size_t size);

private:
    std::string path_;
    std::once_flag opened_;
    int fd_ = -1;
};

}  // namespace irlint
