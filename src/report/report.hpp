#pragma once
// What a check produced for one file, and the reporters that render it.

#include <string>
#include <vector>

#include <fmt/color.h>

#include "core/diagnostic.hpp"
#include "core/dim.hpp"

namespace irlint {

struct FileResult {
    std::string path;
    size_t layers = 0;
    size_t checked = 0;  // pooling layers checked
    Diagnostics diagnostics;
};

struct Summary {
    size_t files = 0, layers = 0, checked = 0, errors = 0, warnings = 0, notes = 0;
};

Summary summarize(const std::vector<FileResult>& files);

// Styles that are all empty when color is off, so call sites never ask.
struct Palette {
    fmt::text_style error, warning, note, location, rule, ok, bold;
    static Palette plain() { return {}; }
    static Palette colored();
};

std::string check_text(const std::vector<FileResult>& files, const Palette& palette, bool with_summary);
std::string check_json(const std::vector<FileResult>& files);

// JSON spelling of dims: integers when static, -1 when fully dynamic, "lo..hi" / "lo.." / "..hi" otherwise.
std::string dims_json(const Shape& shape);
std::string json_string(std::string_view s);

}  // namespace irlint
