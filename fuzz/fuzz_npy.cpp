// libFuzzer target: any bytes as a .npy file. What the reader accepts must survive a round trip through
// the writer: the same element type, shape and bytes.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "exec/io/npy.hpp"

namespace {

constexpr size_t kBudget = size_t{1} << 26;

bool same_tensor(const irlint::Tensor& a, const irlint::Tensor& b) {
    return a.type() == b.type() && a.shape() == b.shape() && a.byte_size() == b.byte_size() &&
           (a.byte_size() == 0 || std::memcmp(a.bytes(), b.bytes(), a.byte_size()) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view file(reinterpret_cast<const char*>(data), size);
    const irlint::NpyRead read = irlint::read_npy_from_memory(file, kBudget);
    if (!read.tensor) return 0;
    const std::string encoded = irlint::encode_npy(*read.tensor);
    const irlint::NpyRead again = irlint::read_npy_from_memory(encoded, kBudget);
    if (!again.tensor || !same_tensor(*read.tensor, *again.tensor)) {
        std::fprintf(stderr, "round trip changed the tensor: %s\n", again.error.c_str());
        std::abort();
    }
    return 0;
}
