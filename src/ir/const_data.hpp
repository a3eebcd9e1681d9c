#pragma once
// A Const layer's description and its bytes in the .bin, read on demand and bounds-checked: only the
// requested range is read, never the whole file.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/element_type.hpp"
#include "ir/model.hpp"

namespace irlint {

struct ConstInfo {
    ElementType type = ElementType::dynamic;
    std::vector<int64_t> shape;
    uint64_t offset = 0;
    uint64_t size = 0;
};

// Reads element_type / shape / offset / size from the layer's <data>; nullopt with *error when malformed.
std::optional<ConstInfo> parse_const(const Layer& layer, std::string* error);

// The bytes the shape needs: ceil(prod(shape) * bits / 8); nullopt on overflow.
std::optional<uint64_t> const_bytes_needed(const ConstInfo& info);

// Checks the Const against a .bin of bin_size bytes; returns the problem, if any.
std::optional<std::string> check_const_range(const ConstInfo& info, uint64_t bin_size);

// Reads an integer Const (i8..u64) as int64 values; nullopt with *error when it cannot.
std::optional<std::vector<int64_t>> read_const_ints(const Model& model, const ConstInfo& info, std::string* error);
// Reads an f32 or f64 Const as doubles; nullopt with *error when it cannot.
std::optional<std::vector<double>> read_const_reals(const Model& model, const ConstInfo& info, std::string* error);

}  // namespace irlint
