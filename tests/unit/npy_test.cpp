#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "exec/io/npy.hpp"
#include "pool_oracle.hpp"

using namespace irlint;
using irlint::test::make_tensor;
using irlint::test::values_of;

namespace {

// A .npy file of format version `major`.0 whose header is `dict`, padded with spaces to a multiple of 64
// bytes and ended by a newline, as NumPy writes it.
std::string npy_file(int major, std::string dict, const std::string& data) {
    const size_t prefix = major == 1 ? 10 : 12;
    const size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
    dict.append(total - prefix - dict.size() - 1, ' ');
    dict += '\n';
    std::string file("\x93NUMPY", 6);
    file += static_cast<char>(major);
    file += '\0';
    for (size_t i = 0; i < prefix - 8; ++i) file += static_cast<char>((dict.size() >> (8 * i)) & 0xFF);
    return file + dict + data;
}

std::string header(const std::string& descr, const std::string& shape, bool fortran = false) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
           ", }";
}

template <class T>
std::string bytes_of(const std::vector<T>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

template <class T>
std::string big_endian_bytes_of(const std::vector<T>& values) {
    std::string bytes = bytes_of(values);
    for (size_t i = 0; i < bytes.size(); i += sizeof(T)) std::reverse(bytes.begin() + i, bytes.begin() + i + sizeof(T));
    return bytes;
}

// The error reading `file` gives; the read must fail.
std::string read_error(const std::string& file) {
    const NpyRead r = read_npy_from_memory(file);
    CHECK_FALSE(r.tensor.has_value());
    CHECK_FALSE(r.error.empty());
    return r.error;
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Dtype {
    ElementType type;
    const char* descr;
    std::vector<double> values;
};

}  // namespace

TEST_CASE("npy: every element type survives encode_npy and read_npy_from_memory") {
    const std::vector<Dtype> dtypes{
        {ElementType::f16, "<f2", {-1.5, 0, 0.25, 2, 65504, -3}},
        {ElementType::f32, "<f4", {-1.5, 0, 0.1, 2, 3e38, -3}},
        {ElementType::f64, "<f8", {-1.5, 0, 0.1, 2, 1e300, -3}},
        {ElementType::i8, "|i1", {-128, -1, 0, 1, 2, 127}},
        {ElementType::i16, "<i2", {-32768, -1, 0, 1, 2, 32767}},
        {ElementType::i32, "<i4", {-2147483648.0, -1, 0, 1, 2, 2147483647}},
        {ElementType::i64, "<i8", {-9e15, -1, 0, 1, 2, 9e15}},
        {ElementType::u8, "|u1", {0, 1, 2, 3, 254, 255}},
        {ElementType::u16, "<u2", {0, 1, 2, 3, 65534, 65535}},
        {ElementType::u32, "<u4", {0, 1, 2, 3, 4e9, 4294967295.0}},
        {ElementType::u64, "<u8", {0, 1, 2, 3, 1e19, 4}},
        {ElementType::boolean, "|b1", {0, 1, 1, 0, 1, 0}},
    };
    for (const Dtype& d : dtypes) {
        INFO(d.descr);
        const Tensor t = make_tensor(d.type, {2, 3}, d.values);
        const std::string file = encode_npy(t);
        const NpyRead r = read_npy_from_memory(file);
        REQUIRE_MESSAGE(r.tensor.has_value(), r.error);
        CHECK(r.header.descr == d.descr);
        CHECK(r.header.major == 1);
        CHECK(r.header.data_offset % 64 == 0);
        CHECK(file.size() == r.header.data_offset + t.byte_size());
        CHECK(r.tensor->type() == d.type);
        CHECK(r.tensor->shape() == std::vector<int64_t>{2, 3});
        CHECK(std::memcmp(r.tensor->bytes(), t.bytes(), t.byte_size()) == 0);
    }
}

TEST_CASE("npy: scalars, one-element tuples and empty arrays") {
    const Tensor scalar = make_tensor(ElementType::f32, {}, {7});
    const NpyRead s = read_npy_from_memory(encode_npy(scalar));
    REQUIRE(s.tensor.has_value());
    CHECK(s.tensor->shape().empty());
    CHECK(values_of(*s.tensor) == std::vector<double>{7});

    const std::string vector_file = encode_npy(make_tensor(ElementType::i32, {5}, {1, 2, 3, 4, 5}));
    CHECK(mentions(vector_file, "'shape': (5,)"));  // a Python one-tuple needs its comma
    CHECK(values_of(*read_npy_from_memory(vector_file).tensor) == std::vector<double>{1, 2, 3, 4, 5});

    const NpyRead empty = read_npy_from_memory(encode_npy(Tensor(ElementType::f64, {0, 3})));
    REQUIRE(empty.tensor.has_value());
    CHECK(empty.tensor->shape() == std::vector<int64_t>{0, 3});
    CHECK(empty.tensor->size() == 0);
}

TEST_CASE("npy: bf16 is written as f32, which holds every bf16 value exactly") {
    const Tensor t = make_tensor(ElementType::bf16, {3}, {1, -1.5, 3.0e38});
    const NpyRead r = read_npy_from_memory(encode_npy(t));
    REQUIRE(r.tensor.has_value());
    CHECK(r.header.descr == "<f4");
    CHECK(values_of(*r.tensor) == values_of(t));
}

TEST_CASE("npy: encode_npy switches to format 2.0 when the header outgrows 65535 bytes") {
    const Tensor t(ElementType::u8, std::vector<int64_t>(22000, 1));  // "1, " 22000 times
    const std::string file = encode_npy(t);
    CHECK(file[6] == 2);
    const NpyRead r = read_npy_from_memory(file);
    REQUIRE_MESSAGE(r.tensor.has_value(), r.error);
    CHECK(r.header.major == 2);
    CHECK(r.header.data_offset % 64 == 0);
    CHECK(r.tensor->shape().size() == 22000);
}

TEST_CASE("npy: format versions 2.0 and 3.0 carry a four-byte header length") {
    for (int major : {2, 3}) {
        INFO("version " << major);
        const NpyRead r = read_npy_from_memory(npy_file(major, header("<i4", "(2,)"), bytes_of<int32_t>({7, -8})));
        REQUIRE_MESSAGE(r.tensor.has_value(), r.error);
        CHECK(r.header.major == major);
        CHECK(values_of(*r.tensor) == std::vector<double>{7, -8});
    }
}

TEST_CASE("npy: big-endian data is converted to native order") {
    const NpyRead f = read_npy_from_memory(npy_file(1, header(">f4", "(2,)"), big_endian_bytes_of<float>({1.5f, -2})));
    REQUIRE_MESSAGE(f.tensor.has_value(), f.error);
    CHECK(f.header.big_endian);
    CHECK(values_of(*f.tensor) == std::vector<double>{1.5, -2});

    const NpyRead i = read_npy_from_memory(npy_file(1, header(">i2", "(2,)"), big_endian_bytes_of<int16_t>({258, -3})));
    REQUIRE(i.tensor.has_value());
    CHECK(values_of(*i.tensor) == std::vector<double>{258, -3});

    const uint64_t big = (uint64_t{1} << 40) + 5;
    const NpyRead u = read_npy_from_memory(npy_file(1, header(">u8", "(2,)"), big_endian_bytes_of<uint64_t>({1, big})));
    REQUIRE(u.tensor.has_value());
    CHECK(u.tensor->data<uint64_t>()[1] == big);
}

TEST_CASE("npy: Fortran-order data is converted to C order") {
    // Shape (2, 3) in column-major order: the first index varies fastest.
    const NpyRead r = read_npy_from_memory(
        npy_file(1, header("<i4", "(2, 3)", true), bytes_of<int32_t>({1, 4, 2, 5, 3, 6})));
    REQUIRE_MESSAGE(r.tensor.has_value(), r.error);
    CHECK(r.header.fortran_order);
    CHECK(values_of(*r.tensor) == std::vector<double>{1, 2, 3, 4, 5, 6});

    // Big-endian and Fortran order at once, in three dimensions: element (i, j, k) holds 4i + 2j + k.
    std::vector<double> column_major;
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 2; ++i) column_major.push_back(4 * i + 2 * j + k);
    const NpyRead both =
        read_npy_from_memory(npy_file(1, header(">f8", "(2, 2, 2)", true), big_endian_bytes_of<double>(column_major)));
    REQUIRE_MESSAGE(both.tensor.has_value(), both.error);
    CHECK(values_of(*both.tensor) == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("npy: each header defect has its own message") {
    const std::string good = npy_file(1, header("<f4", "(2,)"), bytes_of<float>({1, 2}));
    REQUIRE(read_npy_from_memory(good).tensor.has_value());

    SUBCASE("bad magic") {
        std::string file = good;
        file[1] = 'X';
        CHECK(mentions(read_error(file), "magic"));
        CHECK(mentions(read_error("PK\x03\x04 a zip file"), "magic"));
    }
    SUBCASE("unknown format version") {
        std::string file = good;
        file[6] = 4;
        CHECK(mentions(read_error(file), "version 4"));
    }
    SUBCASE("the header length is cut off") {
        // A 2.0 file holds its header length in four bytes; these ten bytes stop after two of them.
        CHECK(mentions(read_error(npy_file(2, header("<f4", "(2,)"), "").substr(0, 10)), "cut off"));
    }
    SUBCASE("the header is shorter than its declared length") {
        CHECK(mentions(read_error(good.substr(0, 40)), "truncated"));
    }
    SUBCASE("a header length that ends inside the dictionary") {
        std::string file = good;
        file[8] = 20;
        file[9] = 0;
        CHECK(mentions(read_error(file), "newline"));
    }
    SUBCASE("bad dictionary syntax") {
        const std::string missing_comma = "{'descr': '<f4' 'fortran_order': False, 'shape': (2,), }";
        CHECK(mentions(read_error(npy_file(1, missing_comma, bytes_of<float>({1, 2}))), "expected ',' or '}'"));
        CHECK(mentions(read_error(npy_file(1, "['descr']", "")), "dictionary"));
        const std::string bad_entry = "{'descr': '<f4', 'fortran_order': False, 'shape': (a,), }";
        CHECK(mentions(read_error(npy_file(1, bad_entry, "")), "not an integer"));
    }
    SUBCASE("a missing key") {
        const std::string no_shape = "{'descr': '<f4', 'fortran_order': False, }";
        CHECK(mentions(read_error(npy_file(1, no_shape, bytes_of<float>({1, 2}))), "'shape' is missing"));
        const std::string no_descr = "{'fortran_order': False, 'shape': (2,), }";
        CHECK(mentions(read_error(npy_file(1, no_descr, bytes_of<float>({1, 2}))), "'descr' is missing"));
    }
    SUBCASE("an unexpected key, a repeated key, a value of the wrong kind") {
        const std::string extra = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': True, }";
        CHECK(mentions(read_error(npy_file(1, extra, bytes_of<float>({1, 2}))), "keys other than"));
        const std::string twice = "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
        CHECK(mentions(read_error(npy_file(1, twice, bytes_of<float>({1, 2}))), "twice"));
        const std::string text_order = "{'descr': '<f4', 'fortran_order': 'no', 'shape': (2,), }";
        CHECK(mentions(read_error(npy_file(1, text_order, bytes_of<float>({1, 2}))), "'fortran_order' a boolean"));
    }
    SUBCASE("a negative shape entry") {
        CHECK(mentions(read_error(npy_file(1, header("<f4", "(-2,)"), "")), "negative"));
    }
    SUBCASE("an unknown descr") {
        CHECK(mentions(read_error(npy_file(1, header("<c8", "(2,)"), std::string(16, '\0'))),
                       "unsupported dtype '<c8'"));
        CHECK(mentions(read_error(npy_file(1, header("!f4", "(2,)"), bytes_of<float>({1, 2}))), "byte order"));
        const std::string structured = "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }";
        CHECK(mentions(read_error(npy_file(1, structured, bytes_of<float>({1, 2}))), "structured"));
    }
    SUBCASE("an object array is never loaded") {
        CHECK(mentions(read_error(npy_file(1, header("|O", "(2,)"), std::string(16, '\0'))), "object"));
    }
    SUBCASE("non-ASCII text in a version 1.0 header") {
        CHECK(mentions(read_error(npy_file(1, header("<f4", "(2,)") + "\xc3\xa9", bytes_of<float>({1, 2}))), "ASCII"));
    }
    SUBCASE("the data is shorter or longer than the shape needs") {
        const std::string short_file = npy_file(1, header("<f4", "(4,)"), bytes_of<float>({1, 2, 3}));
        const std::string short_error = read_error(short_file);
        CHECK(mentions(short_error, "needs 16 data bytes, the file has 12"));
        CHECK(mentions(short_error, "truncated"));
        const std::string long_file = npy_file(1, header("<f4", "(2,)"), bytes_of<float>({1, 2, 3}));
        CHECK(mentions(read_error(long_file), "trailing bytes"));
    }
    SUBCASE("data over the memory budget") {
        const NpyRead r = read_npy_from_memory(good, 4);
        CHECK_FALSE(r.tensor.has_value());
        CHECK(mentions(r.error, "memory budget"));
    }
}

TEST_CASE("npy: write_npy and read_npy go through a file") {
    const auto dir = std::filesystem::temp_directory_path() / ("irlint-npy-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "t.npy").string();
    const Tensor t = make_tensor(ElementType::i16, {2, 2}, {1, -2, 3, -4});
    CHECK_FALSE(write_npy(path, t).has_value());
    const NpyRead r = read_npy(path);
    REQUIRE_MESSAGE(r.tensor.has_value(), r.error);
    CHECK(values_of(*r.tensor) == std::vector<double>{1, -2, 3, -4});
    CHECK(mentions(read_npy(path, 3).error, "memory budget"));
    CHECK(mentions(read_npy((dir / "missing.npy").string()).error, "cannot open"));
    CHECK(mentions(read_npy(dir.string()).error, "not a regular file"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("npy: convert_f32_to_bf16 rounds to nearest even") {
    const Tensor f32 = make_tensor(ElementType::f32, {3}, {1, 1 + 0x1p-8, 1 + 3 * 0x1p-8});
    const Tensor bf16 = convert_f32_to_bf16(f32);
    CHECK(bf16.type() == ElementType::bf16);
    CHECK(bf16.data<uint16_t>()[0] == 0x3F80);
    CHECK(bf16.data<uint16_t>()[1] == 0x3F80);
    CHECK(bf16.data<uint16_t>()[2] == 0x3F82);
}
