#include "cli/common.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint::cli {

namespace {
char** g_command_line = nullptr;
}

void remember_command_line(char** argv) { g_command_line = argv; }

char** command_line() { return g_command_line; }

bool use_color(int fd) {
    if (const char* no = std::getenv("NO_COLOR"); no && *no) return false;
    if (const char* force = std::getenv("CLICOLOR_FORCE"); force && *force && std::string(force) != "0") return true;
    const char* term = std::getenv("TERM");
    return isatty(fd) && !(term && std::string(term) == "dumb");
}

Palette palette_for(int fd) { return use_color(fd) ? Palette::colored() : Palette::plain(); }

void print_error(const std::string& message) {
    const Palette p = palette_for(STDERR_FILENO);
    fmt::print(stderr, "{} {}\n", fmt::styled("irlint: error:", p.error), printable(message, kPrintedMessageChars));
}

void print_warning(const std::string& message) {
    const Palette p = palette_for(STDERR_FILENO);
    fmt::print(stderr, "{} {}\n", fmt::styled("irlint: warning:", p.warning),
               printable(message, kPrintedMessageChars));
}

int emit_output(const std::string& path, const std::string& content) {
    if (path.empty()) {
        std::fwrite(content.data(), 1, content.size(), stdout);
        std::fflush(stdout);
        return exit_code::ok;
    }
    if (auto err = write_file_atomically(path, content)) {
        print_error(*err);
        return exit_code::usage;
    }
    return exit_code::ok;
}

}  // namespace irlint::cli
