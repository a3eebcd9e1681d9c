#include "ir/const_data.hpp"

#include <bit>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "core/half.hpp"
#include "ir/bin_file.hpp"
#include "core/text.hpp"

namespace irlint {

namespace {

// The values of a Const's four attributes, found in one pass over <data> (the first of each name, as
// Layer::attr finds it): a large IR has thousands of Consts.
struct ConstAttrs {
    const std::string_view* element_type = nullptr;
    const std::string_view* shape = nullptr;
    const std::string_view* offset = nullptr;
    const std::string_view* size = nullptr;
};

ConstAttrs const_attrs(const Layer& layer) {
    ConstAttrs found;
    for (const auto& [key, value] : layer.attrs) {
        const std::string_view** slot = key == "element_type" ? &found.element_type
                                        : key == "shape"      ? &found.shape
                                        : key == "offset"     ? &found.offset
                                        : key == "size"       ? &found.size
                                                              : nullptr;
        if (slot && !*slot) *slot = &value;
    }
    return found;
}

// "1, 3, 224, 224" -> {1, 3, 224, 224}; false when a field is not a non-negative integer.
bool parse_dims_list(std::string_view text, std::vector<int64_t>& out) {
    if (trim(text).empty()) return true;
    while (true) {
        const size_t comma = text.find(',');
        const auto v = parse_int(trim(text.substr(0, comma)));
        if (!v || *v < 0) return false;
        out.push_back(*v);
        if (comma == std::string_view::npos) return true;
        text.remove_prefix(comma + 1);
    }
}

}  // namespace

std::optional<ConstInfo> parse_const(const Layer& layer, std::string* error) {
    ConstInfo info;
    auto fail = [&](std::string why) -> std::optional<ConstInfo> {
        *error = std::move(why);
        return std::nullopt;
    };
    const ConstAttrs a = const_attrs(layer);
    if (!a.element_type) return fail("Const has no element_type attribute");
    if (!a.shape) return fail("Const has no shape attribute");
    if (!a.offset) return fail("Const has no offset attribute");
    if (!a.size) return fail("Const has no size attribute");
    const auto type = parse_element_type_attr(*a.element_type);
    if (!type || *type == ElementType::dynamic)
        return fail(fmt::format("Const element_type=\"{}\" is not a static element type", excerpt(*a.element_type)));
    info.type = *type;
    if (!parse_dims_list(*a.shape, info.shape))
        return fail(fmt::format("Const shape=\"{}\" is not a list of non-negative integers", excerpt(*a.shape)));
    const auto offset = parse_int(trim(*a.offset));
    const auto size = parse_int(trim(*a.size));
    if (!offset || *offset < 0)
        return fail(fmt::format("Const offset=\"{}\" is not a non-negative integer", excerpt(*a.offset)));
    if (!size || *size < 0)
        return fail(fmt::format("Const size=\"{}\" is not a non-negative integer", excerpt(*a.size)));
    info.offset = static_cast<uint64_t>(*offset);
    info.size = static_cast<uint64_t>(*size);
    return info;
}

std::optional<uint64_t> const_bytes_needed(const ConstInfo& info) {
    uint64_t count = 1;
    for (int64_t d : info.shape)
        if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count)) return std::nullopt;
    uint64_t bits = 0;
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(element_type_bits(info.type)), &bits)) return std::nullopt;
    return bits / 8 + (bits % 8 != 0);
}

std::optional<std::string> check_const_range(const ConstInfo& info, uint64_t bin_size) {
    uint64_t end = 0;
    if (__builtin_add_overflow(info.offset, info.size, &end) || end > bin_size)
        return fmt::format("Const data at offset {} with size {} ends past the end of the .bin ({} bytes)",
                           info.offset, info.size, bin_size);
    if (info.type == ElementType::string) return std::nullopt;  // packed with its own header
    const auto needed = const_bytes_needed(info);
    if (!needed) return fmt::format("Const shape [{}] has more elements than can be addressed", join_ints(info.shape));
    if (info.size < *needed)
        return fmt::format("Const size {} is smaller than its shape [{}] of {} needs ({} bytes)", info.size,
                           join_ints(info.shape), element_type_name(info.type), *needed);
    return std::nullopt;
}

namespace {

template <class T>
T load_raw(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

template <class T>
int64_t load(const char* p) {
    return static_cast<int64_t>(load_raw<T>(p));
}

// The Const's bytes, when the .bin holds them and they are few enough to be a list of sizes or scales.
std::optional<std::string> read_const_bytes(const Model& model, const ConstInfo& info, std::string* error) {
    static_assert(std::endian::native == std::endian::little, "the .bin is little-endian");
    if (!model.bin_present) {
        *error = "the .bin file is missing";
        return std::nullopt;
    }
    if (auto problem = check_const_range(info, model.bin_size)) {
        *error = *problem;
        return std::nullopt;
    }
    const uint64_t size = *const_bytes_needed(info);
    if (size > (8u << 20)) {
        *error = fmt::format("Const of {} bytes is too large to read as a list of sizes", size);
        return std::nullopt;
    }
    std::string bytes(size, '\0');
    const auto read = [&](BinFile& bin) { return bin.read(info.offset, bytes.data(), bytes.size()); };
    if (model.bin_file ? !read(*model.bin_file) : !read(*std::make_unique<BinFile>(model.bin_path))) {
        *error = "cannot read the Const data from the .bin";
        return std::nullopt;
    }
    return bytes;
}

}  // namespace

std::optional<std::vector<double>> read_const_reals(const Model& model, const ConstInfo& info, std::string* error) {
    if (!is_real_type(info.type)) {
        *error = fmt::format("Const of {} is not read as real numbers", element_type_name(info.type));
        return std::nullopt;
    }
    const auto bytes = read_const_bytes(model, info, error);
    if (!bytes) return std::nullopt;
    const size_t width = static_cast<size_t>(element_type_bits(info.type) / 8);
    std::vector<double> values;
    values.reserve(bytes->size() / width);
    for (size_t at = 0; at + width <= bytes->size(); at += width) {
        const char* p = bytes->data() + at;
        if (info.type == ElementType::f32) values.push_back(static_cast<double>(load_raw<float>(p)));
        else if (info.type == ElementType::f64) values.push_back(load_raw<double>(p));
        else values.push_back(half_to_double(info.type, load_raw<uint16_t>(p)));
    }
    return values;
}

std::optional<std::vector<int64_t>> read_const_ints(const Model& model, const ConstInfo& info, std::string* error) {
    const int bits = element_type_bits(info.type);
    if (!is_integer_type(info.type) || bits < 8) {
        *error = fmt::format("Const of {} cannot hold integer sizes", element_type_name(info.type));
        return std::nullopt;
    }
    const auto read = read_const_bytes(model, info, error);
    if (!read) return std::nullopt;
    const std::string& bytes = *read;
    const uint64_t count = bytes.size() / static_cast<uint64_t>(bits / 8);
    std::vector<int64_t> values;
    for (uint64_t i = 0; i < count; ++i) {
        const char* p = bytes.data() + i * (bits / 8);
        switch (info.type) {
            case ElementType::i8: values.push_back(load<int8_t>(p)); break;
            case ElementType::u8: values.push_back(load<uint8_t>(p)); break;
            case ElementType::i16: values.push_back(load<int16_t>(p)); break;
            case ElementType::u16: values.push_back(load<uint16_t>(p)); break;
            case ElementType::i32: values.push_back(load<int32_t>(p)); break;
            case ElementType::u32: values.push_back(load<uint32_t>(p)); break;
            case ElementType::i64: values.push_back(load<int64_t>(p)); break;
            case ElementType::u64: values.push_back(load<uint64_t>(p)); break;
            default: break;
        }
    }
    return values;
}

}  // namespace irlint
