#pragma once
// NumPy .npy files, format versions 1.0, 2.0 and 3.0. Reading maps the file and borrows its bytes when
// they are already native little-endian C order; big-endian or Fortran-order data is converted once.
// Every header defect gets its own message.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/tensor.hpp"

namespace irlint {

struct NpyHeader {
    int major = 1, minor = 0;
    std::string descr;  // as written, e.g. "<f4"
    ElementType type = ElementType::f32;
    bool big_endian = false;
    bool fortran_order = false;
    std::vector<int64_t> shape;
    size_t data_offset = 0;  // bytes before the data
};

// Parses the header at the start of `file` (the whole file or at least its header). On a defect,
// returns nullopt and sets *error to what is wrong and where.
std::optional<NpyHeader> parse_npy_header(std::string_view file, std::string* error);

struct NpyRead {
    std::optional<Tensor> tensor;
    NpyHeader header;
    std::string error;  // set when tensor is empty
};

// Reads a .npy file. Refuses data larger than max_bytes before allocating or mapping anything.
NpyRead read_npy(const std::string& path, size_t max_bytes = SIZE_MAX);
NpyRead read_npy_from_memory(std::string_view file, size_t max_bytes = SIZE_MAX);

// The bytes of a version 1.0 (or 2.0 when the header needs it) little-endian C-order .npy file.
// bf16 has no NumPy dtype: it is written as f32, which holds every bf16 value exactly.
std::string encode_npy(const Tensor& tensor);
std::string encode_npy_header(const Tensor& tensor);

// Writes through a temporary file renamed into place; returns an error message or nullopt.
std::optional<std::string> write_npy(const std::string& path, const Tensor& tensor);

// A bf16 input given as f32 data: every value rounded to the nearest bf16, ties to even.
Tensor convert_f32_to_bf16(const Tensor& f32);

}  // namespace irlint
