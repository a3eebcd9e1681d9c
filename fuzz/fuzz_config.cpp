// libFuzzer target: any bytes as an irlint.toml. The reader accepts the file or names it and the line of the
// problem; an accepted configuration answers for any path. The text the TOML library is given is ASCII (see
// policy/toml_guard.hpp) and keeps the lines of the file.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <variant>

#include "policy/config.hpp"
#include "policy/toml_guard.hpp"
#include "fuzz_fail.hpp"

namespace {

std::string& config_path() {
    static std::string path;
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char*** argv) {
    const auto dir = std::filesystem::absolute((*argv)[0]).parent_path() / "fuzz_config_dir";
    std::filesystem::create_directories(dir);
    config_path() = (dir / "irlint.toml").string();
    return 0;
}

namespace {

void check_guard(std::string_view text) {
    const auto safe = irlint::toml_text_for_parser(text);
    const auto* rewritten = std::get_if<std::string>(&safe);
    if (!rewritten) return;
    for (const char c : *rewritten)
        if (static_cast<unsigned char>(c) >= 0x80) fail("a non-ASCII byte handed to the TOML library", *rewritten);
    const auto lines = [](std::string_view s) { return std::count(s.begin(), s.end(), '\n'); };
    if (lines(*rewritten) != lines(text)) fail("the guard changed the number of lines", *rewritten);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    check_guard(std::string_view(reinterpret_cast<const char*>(data), size));
    std::ofstream(config_path(), std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    std::string error;
    const auto config = irlint::load_config(config_path(), error);
    if (!config) {
        if (error.rfind(config_path(), 0) != 0) fail("a configuration error that does not name the file", error);
        return 0;
    }
    for (const char* path : {"model.xml", "legacy/a/b.xml", "x/legacy/model.onnx", ""}) {
        config->rules_for(path).selection();
        config->excludes(path);
    }
    return 0;
}
