#include "exec/io/npy.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/text.hpp"
#include "core/half.hpp"

namespace irlint {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

struct DtypeName {
    char kind;
    int bytes;
    ElementType type;
};
constexpr DtypeName kDtypes[] = {
    {'f', 2, ElementType::f16}, {'f', 4, ElementType::f32}, {'f', 8, ElementType::f64}, {'i', 1, ElementType::i8},
    {'i', 2, ElementType::i16}, {'i', 4, ElementType::i32}, {'i', 8, ElementType::i64}, {'u', 1, ElementType::u8},
    {'u', 2, ElementType::u16}, {'u', 4, ElementType::u32}, {'u', 8, ElementType::u64}, {'b', 1, ElementType::boolean},
};

// The header dictionary is a Python literal; this reads the subset NumPy writes: quoted strings,
// True/False, and tuples of integers.
class HeaderParser {
public:
    explicit HeaderParser(std::string_view text) : text_(text) {}

    bool parse(std::map<std::string, std::string>& strings, std::map<std::string, bool>& bools,
               std::map<std::string, std::vector<int64_t>>& tuples, std::string* error) {
        error_ = error;
        skip_space();
        if (!expect('{')) return fail("the header is not a dictionary: it does not start with '{'");
        for (;;) {
            skip_space();
            if (consume('}')) break;
            std::string key;
            if (!read_string(key)) return fail("expected a quoted key");
            if (strings.count(key) || bools.count(key) || tuples.count(key))
                return fail(fmt::format("key '{}' appears twice", key));
            skip_space();
            if (!expect(':')) return fail(fmt::format("expected ':' after key '{}'", key));
            skip_space();
            if (!read_value(key, strings, bools, tuples)) return false;
            skip_space();
            if (consume(',')) continue;
            skip_space();
            if (consume('}')) break;
            return fail("expected ',' or '}'");
        }
        skip_space();
        if (pos_ != text_.size()) return fail("unexpected text after the closing '}'");
        return true;
    }

private:
    bool read_value(const std::string& key, std::map<std::string, std::string>& strings,
                    std::map<std::string, bool>& bools, std::map<std::string, std::vector<int64_t>>& tuples) {
        if (peek() == '\'' || peek() == '"') {
            std::string value;
            if (!read_string(value)) return fail(fmt::format("unterminated string for '{}'", key));
            strings[key] = value;
            return true;
        }
        for (const bool value : {true, false}) {
            if (consume_word(value ? "True" : "False")) {
                bools[key] = value;
                return true;
            }
        }
        if (peek() == '(') {
            std::vector<int64_t> values;
            if (!read_tuple(values)) return false;
            tuples[key] = std::move(values);
            return true;
        }
        if (peek() == '[') return fail(fmt::format("'{}' is a list: structured dtypes are not supported", key));
        return fail(fmt::format("unsupported value for '{}'", key));
    }

    bool read_tuple(std::vector<int64_t>& values) {
        consume('(');
        for (;;) {
            skip_space();
            if (consume(')')) return true;
            const size_t start = pos_;
            while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-'))
                ++pos_;
            const auto value = parse_int(text_.substr(start, pos_ - start));
            if (!value) return fail("a shape entry is not an integer");
            if (*value < 0) return fail(fmt::format("negative shape entry {}", *value));
            consume('L');  // Python 2 long literals
            values.push_back(*value);
            skip_space();
            if (consume(',')) continue;
            skip_space();
            if (consume(')')) return true;
            return fail("expected ',' or ')' in the shape tuple");
        }
    }

    bool read_string(std::string& out) {
        const char quote = peek();
        if (quote != '\'' && quote != '"') return false;
        ++pos_;
        const size_t end = text_.find(quote, pos_);
        if (end == std::string_view::npos) return false;
        out = std::string(text_.substr(pos_, end - pos_));
        pos_ = end + 1;
        return true;
    }

    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    bool consume(char c) { return peek() == c ? (++pos_, true) : false; }
    bool expect(char c) { return consume(c); }
    bool consume_word(std::string_view w) {
        if (text_.substr(pos_, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }
    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n')) ++pos_;
    }
    bool fail(const std::string& what) {
        if (error_) *error_ = fmt::format("bad .npy header at offset {}: {}", pos_, what);
        return false;
    }

    std::string_view text_;
    size_t pos_ = 0;
    std::string* error_ = nullptr;
};

uint32_t read_le(std::string_view bytes, size_t offset, size_t width) {
    uint32_t v = 0;
    for (size_t i = 0; i < width; ++i)
        v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    return v;
}

bool parse_descr(const std::string& descr, NpyHeader& h, std::string* error) {
    auto fail = [&](const std::string& why) {
        *error = fmt::format("unsupported dtype '{}': {}", descr, why);
        return false;
    };
    if (descr.size() < 2) return fail("too short");
    const char order = descr[0];
    if (order != '<' && order != '>' && order != '|' && order != '=') return fail("unknown byte order");
    const std::string_view rest = std::string_view(descr).substr(1);
    if (rest == "O") return fail("object arrays hold Python pickles and are never loaded");
    if (rest == "?") return h.type = ElementType::boolean, h.big_endian = false, true;
    const auto bytes = parse_int(rest.substr(1));
    for (const auto& d : kDtypes) {
        if (rest[0] == d.kind && bytes && *bytes == d.bytes) {
            h.type = d.type;
            h.big_endian = order == '>' && d.bytes > 1;
            return true;
        }
    }
    return fail("expected f2, f4, f8, i1..i8, u1..u8 or b1");
}

}  // namespace

std::optional<NpyHeader> parse_npy_header(std::string_view file, std::string* error) {
    std::string scratch;
    if (!error) error = &scratch;
    if (file.size() < 10 || file.substr(0, kMagic.size()) != kMagic) {
        *error = "not a .npy file: the magic string \\x93NUMPY is missing";
        return std::nullopt;
    }
    NpyHeader h;
    h.major = static_cast<unsigned char>(file[6]);
    h.minor = static_cast<unsigned char>(file[7]);
    if (h.major < 1 || h.major > 3) {
        *error = fmt::format("unsupported .npy format version {}.{} (1.0, 2.0 and 3.0 are read)", h.major, h.minor);
        return std::nullopt;
    }
    const size_t length_width = h.major == 1 ? 2 : 4;
    if (file.size() < 8 + length_width) {
        *error = "truncated .npy header: the header length is cut off";
        return std::nullopt;
    }
    const size_t header_length = read_le(file, 8, length_width);
    h.data_offset = 8 + length_width + header_length;
    if (h.data_offset > file.size()) {
        *error = fmt::format("truncated .npy header: it declares {} bytes, the file has {} after the prefix",
                             header_length, file.size() - 8 - length_width);
        return std::nullopt;
    }
    std::string_view text = file.substr(8 + length_width, header_length);
    if (text.empty() || text.back() != '\n') {
        *error = "bad .npy header: it does not end with a newline";
        return std::nullopt;
    }
    if (h.major < 3 &&
        std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) > 127; })) {
        *error = fmt::format("bad .npy header: version {}.0 headers are ASCII", h.major);
        return std::nullopt;
    }
    std::map<std::string, std::string> strings;
    std::map<std::string, bool> bools;
    std::map<std::string, std::vector<int64_t>> tuples;
    if (!HeaderParser(text).parse(strings, bools, tuples, error)) return std::nullopt;
    for (const auto* key : {"descr", "fortran_order", "shape"}) {
        if (!strings.count(key) && !bools.count(key) && !tuples.count(key)) {
            *error = fmt::format("bad .npy header: the key '{}' is missing", key);
            return std::nullopt;
        }
    }
    if (strings.size() + bools.size() + tuples.size() != 3) {
        *error = "bad .npy header: keys other than 'descr', 'fortran_order' and 'shape'";
        return std::nullopt;
    }
    if (!strings.count("descr") || !bools.count("fortran_order") || !tuples.count("shape")) {
        *error = "bad .npy header: 'descr' must be a string, 'fortran_order' a boolean, 'shape' a tuple";
        return std::nullopt;
    }
    h.descr = strings["descr"];
    h.fortran_order = bools["fortran_order"];
    h.shape = tuples["shape"];
    if (!parse_descr(h.descr, h, error)) return std::nullopt;
    return h;
}

namespace {

// Big-endian or Fortran-order data is rewritten once into a native C-order tensor.
Tensor to_native(const NpyHeader& h, const std::byte* data) {
    Tensor out(h.type, h.shape);
    const size_t width = static_cast<size_t>(element_type_bits(h.type) / 8);
    std::byte* dst = out.mutable_bytes();
    const size_t n = out.size();
    std::vector<size_t> c_strides(h.shape.size(), 1);
    for (size_t i = h.shape.size(); i-- > 1;) c_strides[i - 1] = c_strides[i] * static_cast<size_t>(h.shape[i]);
    std::vector<int64_t> index(h.shape.size(), 0);  // Fortran order: the first index varies fastest
    for (size_t f = 0; f < n; ++f) {
        size_t c = f;
        if (h.fortran_order) {
            c = 0;
            for (size_t a = 0; a < index.size(); ++a) c += static_cast<size_t>(index[a]) * c_strides[a];
            for (size_t a = 0; a < index.size() && ++index[a] == h.shape[a]; ++a) index[a] = 0;
        }
        for (size_t b = 0; b < width; ++b) dst[c * width + b] = data[f * width + (h.big_endian ? width - 1 - b : b)];
    }
    return out;
}

NpyRead finish_read(const NpyHeader& h, std::string_view file, size_t max_bytes, std::shared_ptr<const void> mapping) {
    NpyRead r;
    r.header = h;
    const int bits = element_type_bits(h.type);
    const auto count = checked_element_count(h.shape, bits);
    if (!count) {
        r.error = fmt::format("shape ({}) overflows", join_ints(h.shape, ", "));
        return r;
    }
    const size_t need = *count * static_cast<size_t>(bits / 8);
    const size_t have = file.size() - h.data_offset;
    if (have != need) {
        r.error = fmt::format("shape ({}) of {} needs {} data bytes, the file has {}{}", join_ints(h.shape, ", "),
                              h.descr, need, have, have < need ? " (truncated file?)" : " (trailing bytes)");
        return r;
    }
    if (need > max_bytes) {
        r.error = fmt::format("the data needs {} bytes, over the memory budget of {} bytes", need, max_bytes);
        return r;
    }
    const auto* data = reinterpret_cast<const std::byte*>(file.data() + h.data_offset);
    const size_t width = static_cast<size_t>(bits / 8);
    const bool aligned = reinterpret_cast<uintptr_t>(data) % width == 0;
    const bool native = !h.big_endian && (!h.fortran_order || h.shape.size() < 2);
    if (native && aligned && mapping) {
        r.tensor = Tensor::borrow(h.type, h.shape, data, std::move(mapping));
    } else if (native) {
        Tensor t(h.type, h.shape);
        if (need) std::memcpy(t.mutable_bytes(), data, need);
        r.tensor = std::move(t);
    } else {
        r.tensor = to_native(h, data);
    }
    return r;
}

struct Mapping {
    void* address = nullptr;
    size_t length = 0;
    ~Mapping() {
        if (address) munmap(address, length);
    }
};

}  // namespace

NpyRead read_npy_from_memory(std::string_view file, size_t max_bytes) {
    NpyRead r;
    const auto h = parse_npy_header(file, &r.error);
    if (!h) return r;
    return finish_read(*h, file, max_bytes, nullptr);
}

NpyRead read_npy(const std::string& path, size_t max_bytes) {
    NpyRead r;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        r.error = fmt::format("cannot open: {}", std::strerror(errno));
        return r;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        r.error = "not a regular file";
        return r;
    }
    auto mapping = std::make_shared<Mapping>();
    mapping->length = static_cast<size_t>(st.st_size);
    if (mapping->length > 0) {
        // Not MAP_POPULATE: mapping every page up front took 0.14 us a page, the faults of the first reads
        // (each maps the 16 pages around it that the page cache holds) 0.08 us a page.
        void* address = ::mmap(nullptr, mapping->length, PROT_READ, MAP_PRIVATE, fd, 0);
        if (address == MAP_FAILED) {
            ::close(fd);
            r.error = fmt::format("cannot map: {}", std::strerror(errno));
            return r;
        }
        ::madvise(address, mapping->length, MADV_SEQUENTIAL);  // a hint for a file not in the page cache yet
        mapping->address = address;
    }
    ::close(fd);
    const std::string_view file(static_cast<const char*>(mapping->address), mapping->length);
    const auto h = parse_npy_header(file, &r.error);
    if (!h) return r;
    return finish_read(*h, file, max_bytes, std::shared_ptr<const void>(mapping, mapping->address));
}

namespace {
std::string descr_of(ElementType t) {
    for (const auto& d : kDtypes)
        if (d.type == t) return fmt::format("{}{}{}", d.bytes == 1 ? '|' : '<', d.kind, d.bytes);
    return "<f4";
}

std::string header_for(const std::string& descr, const std::vector<int64_t>& shape) {
    std::string dims = join_ints(shape, ", ");
    if (shape.size() == 1) dims += ",";
    return fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
}
}  // namespace

std::string encode_npy_header(const Tensor& tensor) {
    const ElementType stored = tensor.type() == ElementType::bf16 ? ElementType::f32 : tensor.type();
    std::string dict = header_for(descr_of(stored), tensor.shape());
    const bool v2 = dict.size() + 11 > 65535;
    const size_t prefix = v2 ? 12 : 10;
    const size_t padded = (prefix + dict.size() + 1 + 63) / 64 * 64;  // NumPy aligns the data to 64 bytes
    dict.append(padded - prefix - dict.size() - 1, ' ');
    dict += '\n';
    std::string out(kMagic);
    out += static_cast<char>(v2 ? 2 : 1);
    out += '\0';
    for (size_t i = 0; i < (v2 ? 4u : 2u); ++i) out += static_cast<char>((dict.size() >> (8 * i)) & 0xFF);
    return out + dict;
}

namespace {
std::string bf16_as_f32_bytes(const Tensor& tensor) {
    std::string out(tensor.size() * sizeof(float), '\0');
    for (size_t i = 0; i < tensor.size(); ++i) {
        const float v = static_cast<float>(tensor.value_as_double(i));
        std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
    }
    return out;
}
}  // namespace

std::string encode_npy(const Tensor& tensor) {
    if (tensor.type() == ElementType::bf16) return encode_npy_header(tensor) + bf16_as_f32_bytes(tensor);
    return encode_npy_header(tensor) + std::string(reinterpret_cast<const char*>(tensor.bytes()), tensor.byte_size());
}

std::optional<std::string> write_npy(const std::string& path, const Tensor& tensor) {
    const std::string header = encode_npy_header(tensor);
    if (tensor.type() == ElementType::bf16) return write_file_atomically(path, {header, bf16_as_f32_bytes(tensor)});
    const std::string_view data(reinterpret_cast<const char*>(tensor.bytes()), tensor.byte_size());
    return write_file_atomically(path, {header, data});
}

Tensor convert_f32_to_bf16(const Tensor& f32) {
    Tensor out(ElementType::bf16, f32.shape());
    auto* dst = out.mutable_data<uint16_t>();
    for (size_t i = 0; i < f32.size(); ++i) dst[i] = float_to_bf16(static_cast<float>(f32.value_as_double(i)));
    return out;
}

}  // namespace irlint
