#pragma once
// Models read from text in a test, with or without a .bin beside them.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "ir/reader.hpp"

namespace irlint::test {

// The bytes of an array, for a .bin.
template <typename T, size_t N>
std::string_view bytes_of(const T (&values)[N]) {
    return {reinterpret_cast<const char*>(values), sizeof values};
}

// The model `xml`, read as DIR/m.xml of a temporary DIR (named `dir_name`) whose m.bin holds `bin`.
inline Model model_with_bin(std::string_view xml, const char* dir_name, std::string_view bin) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / dir_name;
    fs::create_directories(dir);
    std::ofstream(dir / "m.bin", std::ios::binary).write(bin.data(), static_cast<std::streamsize>(bin.size()));
    ReadResult r = read_model_from_memory(xml, (dir / "m.xml").string());
    REQUIRE(r.model);
    REQUIRE(r.model->bin_present);
    return std::move(*r.model);
}

// The model `xml` with no .bin beside it: its Consts' data is unknown.
inline Model model_without_bin(std::string_view xml) {
    const auto path = std::filesystem::temp_directory_path() / "irlint-test-no-bin" / "absent.xml";
    ReadResult r = read_model_from_memory(xml, path.string());
    REQUIRE(r.model);
    REQUIRE_FALSE(r.model->bin_present);
    return std::move(*r.model);
}

}  // namespace irlint::test
