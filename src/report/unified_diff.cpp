#include "report/unified_diff.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        const size_t length = end == std::string_view::npos ? text.size() : end + 1;
        lines.push_back(text.substr(0, length));
        text.remove_prefix(length);
    }
    return lines;
}

// A line as the diff shows it: without its line end, control characters escaped, tabs kept.
std::string shown(std::string_view line) {
    const bool ends = !line.empty() && line.back() == '\n';
    if (ends) line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string out;
    for (size_t start = 0;;) {
        const size_t tab = line.find('\t', start);
        out += printable(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start),
                         kPrintedMessageChars);
        if (tab == std::string_view::npos) break;
        out += '\t';
        start = tab + 1;
    }
    out += '\n';
    if (!ends) out += "\\ No newline at end of file\n";
    return out;
}

struct Hunk {
    size_t first = 0, last = 0;  // lines [first, last) of both texts
};

std::vector<Hunk> hunks_of(const std::vector<size_t>& changed, size_t line_count) {
    std::vector<Hunk> hunks;
    for (size_t line : changed) {
        const size_t first = line >= kDiffContextLines ? line - kDiffContextLines : 0;
        const size_t last = std::min(line + 1 + kDiffContextLines, line_count);
        if (!hunks.empty() && first <= hunks.back().last) hunks.back().last = last;
        else hunks.push_back({first, last});
    }
    return hunks;
}

}  // namespace

std::string unified_diff(std::string_view path, std::string_view before, std::string_view after) {
    std::vector<std::string_view> old_lines = lines_of(before), new_lines = lines_of(after);
    if (old_lines.size() != new_lines.size()) {  // not what --fix makes: show the whole file replaced
        old_lines = {before};
        new_lines = {after};
    }
    std::vector<size_t> changed;
    for (size_t i = 0; i < old_lines.size(); ++i)
        if (old_lines[i] != new_lines[i]) changed.push_back(i);
    if (changed.empty()) return "";
    // git's a/ and b/ prefixes for a relative path (`patch -p1` strips them); an absolute path as it is.
    const bool absolute = !path.empty() && path.front() == '/';
    std::string out = fmt::format("--- {}{}\n+++ {}{}\n", absolute ? "" : "a/", printable(path),
                                  absolute ? "" : "b/", printable(path));
    for (const Hunk& h : hunks_of(changed, old_lines.size())) {
        const size_t count = h.last - h.first;
        out += fmt::format("@@ -{},{} +{},{} @@\n", h.first + 1, count, h.first + 1, count);
        for (size_t i = h.first; i < h.last;) {
            if (old_lines[i] == new_lines[i]) {
                out += ' ' + shown(old_lines[i++]);
                continue;
            }
            size_t run_end = i;  // consecutive changed lines: all removals, then all additions
            while (run_end < h.last && old_lines[run_end] != new_lines[run_end]) ++run_end;
            for (size_t k = i; k < run_end; ++k) out += '-' + shown(old_lines[k]);
            for (size_t k = i; k < run_end; ++k) out += '+' + shown(new_lines[k]);
            i = run_end;
        }
    }
    return out;
}

}  // namespace irlint
