#include "exec/tensor.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <limits>

#include "core/half.hpp"

namespace irlint {

std::optional<size_t> checked_element_count(const std::vector<int64_t>& shape, int element_bits) {
    size_t count = 1;
    for (int64_t d : shape) {
        if (d < 0) return std::nullopt;
        if (d != 0 && count > std::numeric_limits<size_t>::max() / static_cast<size_t>(d)) return std::nullopt;
        count *= static_cast<size_t>(d);
    }
    const size_t bytes_per = static_cast<size_t>(std::max(element_bits, 8) / 8);
    if (count > std::numeric_limits<size_t>::max() / bytes_per) return std::nullopt;
    // Offsets into the data are computed as int64_t in places; keep every byte offset representable.
    if (count * bytes_per > static_cast<size_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return count;
}

namespace {

// Faults in the whole pages of a fresh buffer with one call. The kernels write every byte of an output
// once: taken one fault at a time, its pages were about half of the run of a 1x64x112x112 AvgPool
// outside the arithmetic. Small buffers (likely reused heap memory) and old kernels are left alone.
void bring_in_pages(std::byte* data, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
    constexpr size_t kPage = 4096;
    if (bytes < 64 * kPage) return;
    const auto first = (reinterpret_cast<uintptr_t>(data) + kPage - 1) / kPage * kPage;
    const auto last = (reinterpret_cast<uintptr_t>(data) + bytes) / kPage * kPage;
    madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);  // a hint: failure changes nothing
#else
    (void)data;
    (void)bytes;
#endif
}

}  // namespace

Tensor::Tensor(ElementType type, std::vector<int64_t> shape) : Tensor(type, std::move(shape), true) {}

Tensor Tensor::uninitialized(ElementType type, std::vector<int64_t> shape) { return Tensor(type, std::move(shape), false); }

Tensor::Tensor(ElementType type, std::vector<int64_t> shape, bool zero_filled) : type_(type), shape_(std::move(shape)) {
    size_ = checked_element_count(shape_, element_type_bits(type_)).value_or(0);
    const size_t bytes = std::max<size_t>(byte_size(), 1);
    auto buffer = std::shared_ptr<std::byte[]>(zero_filled ? new std::byte[bytes]() : new std::byte[bytes]);
    if (!zero_filled) bring_in_pages(buffer.get(), bytes);
    data_ = buffer.get();
    storage_ = std::shared_ptr<const void>(buffer, buffer.get());
    owned_ = true;
}

Tensor Tensor::borrow(ElementType type, std::vector<int64_t> shape, const std::byte* data,
                      std::shared_ptr<const void> keep_alive) {
    Tensor t;
    t.type_ = type;
    t.shape_ = std::move(shape);
    t.size_ = checked_element_count(t.shape_, element_type_bits(type)).value_or(0);
    t.data_ = const_cast<std::byte*>(data);  // never written: mutable_bytes() refuses borrowed tensors
    t.storage_ = std::move(keep_alive);
    t.owned_ = false;
    return t;
}

Tensor Tensor::retyped(ElementType type) const {
    Tensor t = *this;
    if (element_type_bits(type) == element_type_bits(type_)) t.type_ = type;
    return t;
}

size_t Tensor::byte_size() const { return size_ * static_cast<size_t>(element_type_bits(type_) / 8); }

std::byte* Tensor::mutable_bytes() { return owned_ ? data_ : nullptr; }

namespace {
template <class T>
double load(const std::byte* p, size_t i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return static_cast<double>(v);
}
}  // namespace

double Tensor::value_as_double(size_t i) const {
    switch (type_) {
        case ElementType::f16:
            return f16_to_float(static_cast<uint16_t>(load<uint16_t>(data_, i)));
        case ElementType::bf16:
            return bf16_to_float(static_cast<uint16_t>(load<uint16_t>(data_, i)));
        case ElementType::f32:
            return load<float>(data_, i);
        case ElementType::f64:
            return load<double>(data_, i);
        case ElementType::boolean:
            return load<uint8_t>(data_, i) != 0 ? 1.0 : 0.0;
        case ElementType::i8:
            return load<int8_t>(data_, i);
        case ElementType::i16:
            return load<int16_t>(data_, i);
        case ElementType::i32:
            return load<int32_t>(data_, i);
        case ElementType::i64:
            return load<int64_t>(data_, i);
        case ElementType::u8:
            return load<uint8_t>(data_, i);
        case ElementType::u16:
            return load<uint16_t>(data_, i);
        case ElementType::u32:
            return load<uint32_t>(data_, i);
        case ElementType::u64:
            return load<uint64_t>(data_, i);
        default:
            return 0;
    }
}

bool is_executable_type(ElementType t) {
    switch (t) {
        case ElementType::f16:
        case ElementType::bf16:
        case ElementType::f32:
        case ElementType::f64:
        case ElementType::boolean:
        case ElementType::i8:
        case ElementType::i16:
        case ElementType::i32:
        case ElementType::i64:
        case ElementType::u8:
        case ElementType::u16:
        case ElementType::u32:
        case ElementType::u64:
            return true;
        default:
            return false;
    }
}

std::vector<int64_t> unravel_index(size_t flat, const std::vector<int64_t>& shape) {
    std::vector<int64_t> index(shape.size(), 0);
    for (size_t i = shape.size(); i-- > 0;) {
        const auto d = static_cast<size_t>(std::max<int64_t>(shape[i], 1));
        index[i] = static_cast<int64_t>(flat % d);
        flat /= d;
    }
    return index;
}

}  // namespace irlint
