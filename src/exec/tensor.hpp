#pragma once
// A dense C-order tensor. It either owns its bytes or borrows them from a mapping (a memory-mapped
// .npy file), so a large input is never copied just to be read.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/element_type.hpp"

namespace irlint {

// Element count of a shape; nullopt on a negative dim or when the count or its byte size overflows.
std::optional<size_t> checked_element_count(const std::vector<int64_t>& shape, int element_bits);

class Tensor {
public:
    Tensor() = default;
    // A zero-filled tensor that owns its storage. The shape must have passed checked_element_count().
    Tensor(ElementType type, std::vector<int64_t> shape);
    // An owned tensor whose bytes are left unset, for a writer that fills every element: no pass over
    // memory that is about to be overwritten; a large one has its pages brought in with one call.
    static Tensor uninitialized(ElementType type, std::vector<int64_t> shape);
    // A tensor over bytes that `keep_alive` keeps valid (read-only).
    static Tensor borrow(ElementType type, std::vector<int64_t> shape, const std::byte* data,
                         std::shared_ptr<const void> keep_alive);

    ElementType type() const { return type_; }
    const std::vector<int64_t>& shape() const { return shape_; }
    size_t rank() const { return shape_.size(); }
    size_t size() const { return size_; }  // element count
    size_t byte_size() const;
    bool empty() const { return data_ == nullptr && size_ == 0; }

    const std::byte* bytes() const { return data_; }
    std::byte* mutable_bytes();  // owned tensors only

    template <class T>
    const T* data() const {
        return reinterpret_cast<const T*>(data_);
    }
    template <class T>
    T* mutable_data() {
        return reinterpret_cast<T*>(mutable_bytes());
    }

    // The same bytes read as `type`, an element type of the same width (u16 data holding bf16 values).
    Tensor retyped(ElementType type) const;

    // Element i widened to double (f16/bf16 decoded, integers converted): for reports and comparison.
    double value_as_double(size_t i) const;

private:
    Tensor(ElementType type, std::vector<int64_t> shape, bool zero_filled);

    ElementType type_ = ElementType::f32;
    std::vector<int64_t> shape_;
    size_t size_ = 0;
    std::byte* data_ = nullptr;
    std::shared_ptr<const void> storage_;
    bool owned_ = false;
};

// Element types the executor stores and computes: f16, bf16, f32, f64, boolean, i8..i64, u8..u64.
bool is_executable_type(ElementType t);

// The C-order index vector of flat index `flat` in `shape`.
std::vector<int64_t> unravel_index(size_t flat, const std::vector<int64_t>& shape);

}  // namespace irlint
