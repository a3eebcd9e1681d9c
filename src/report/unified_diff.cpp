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

// One line of the diff: kept (in both texts), removed (from before) or added (to after), with where it is.
struct DiffLine {
    char mark;       // ' ', '-' or '+'
    size_t before;   // the line's index in before (' ', '-'), else the index of the next line there
    size_t after;    // the same in after
};

// Which lines a shortest edit script removes from `a` and adds to `b` (Myers, "An O(ND) difference algorithm",
// 1986): the furthest point of each diagonal after d edits, kept for each d to walk back. A --fix changes a few
// lines, so d stays small; past kMaxEdits the whole text is shown replaced.
constexpr size_t kMaxEdits = 4096;

bool edit_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                 std::vector<uint8_t>& removed, std::vector<uint8_t>& added) {
    const auto n = static_cast<std::ptrdiff_t>(a.size()), m = static_cast<std::ptrdiff_t>(b.size());
    std::vector<std::vector<std::ptrdiff_t>> furthest;  // [d][k + d]: x on diagonal k = x - y
    auto down = [&](std::ptrdiff_t d, std::ptrdiff_t k) {  // the step into diagonal k came from k + 1
        const auto& prev = furthest[static_cast<size_t>(d - 1)];
        return k == -d || (k != d && prev[static_cast<size_t>(k - 1 + d - 1)] < prev[static_cast<size_t>(k + 1 + d - 1)]);
    };
    for (std::ptrdiff_t d = 0; d <= static_cast<std::ptrdiff_t>(std::min<size_t>(a.size() + b.size(), kMaxEdits)); ++d) {
        std::vector<std::ptrdiff_t>& v = furthest.emplace_back(static_cast<size_t>(2 * d + 1));
        for (std::ptrdiff_t k = -d; k <= d; k += 2) {
            const auto& prev = d ? furthest[static_cast<size_t>(d - 1)] : v;
            std::ptrdiff_t x = d == 0 ? 0 : down(d, k) ? prev[static_cast<size_t>(k + 1 + d - 1)] : prev[static_cast<size_t>(k - 1 + d - 1)] + 1;
            std::ptrdiff_t y = x - k;
            while (x < n && y < m && a[static_cast<size_t>(x)] == b[static_cast<size_t>(y)]) ++x, ++y;
            v[static_cast<size_t>(k + d)] = x;
            if (x < n || y < m) continue;
            removed.assign(a.size(), 0);
            added.assign(b.size(), 0);
            for (std::ptrdiff_t e = d; e > 0; --e) {  // back from (n, m) to (0, 0)
                const std::ptrdiff_t ke = x - y;
                const bool was_down = down(e, ke);
                const std::ptrdiff_t pk = was_down ? ke + 1 : ke - 1;
                const std::ptrdiff_t px = furthest[static_cast<size_t>(e - 1)][static_cast<size_t>(pk + e - 1)];
                const std::ptrdiff_t py = px - pk;
                if (was_down) added[static_cast<size_t>(py)] = 1;
                else removed[static_cast<size_t>(px)] = 1;
                x = px;
                y = py;
            }
            return true;
        }
    }
    return false;
}

// Texts of as many lines differ line by line (a --fix that rewrites values); others by an edit script.
std::vector<DiffLine> diff_lines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    std::vector<DiffLine> out;
    if (a.size() == b.size()) {
        for (size_t i = 0; i < a.size();) {
            size_t end = i;  // consecutive changed lines: all removals, then all additions
            while (end < a.size() && a[end] != b[end]) ++end;
            if (end == i) {
                out.push_back({' ', i, i});
                ++i;
                continue;
            }
            for (size_t k = i; k < end; ++k) out.push_back({'-', k, i});
            for (size_t k = i; k < end; ++k) out.push_back({'+', end, k});
            i = end;
        }
        return out;
    }
    std::vector<uint8_t> removed, added;
    if (!edit_script(a, b, removed, added)) {
        removed.assign(a.size(), 1);
        added.assign(b.size(), 1);
    }
    for (size_t i = 0, j = 0; i < a.size() || j < b.size();) {
        if (i < a.size() && removed[i]) out.push_back({'-', i++, j});
        else if (j < b.size() && added[j]) out.push_back({'+', i, j++});
        else out.push_back({' ', i++, j++});
    }
    return out;
}

struct Hunk {
    size_t first = 0, last = 0;  // lines [first, last) of the diff
};

std::vector<Hunk> hunks_of(const std::vector<DiffLine>& lines) {
    std::vector<Hunk> hunks;
    for (size_t line = 0; line < lines.size(); ++line) {
        if (lines[line].mark == ' ') continue;
        const size_t first = line >= kDiffContextLines ? line - kDiffContextLines : 0;
        const size_t last = std::min(line + 1 + kDiffContextLines, lines.size());
        if (!hunks.empty() && first <= hunks.back().last) hunks.back().last = last;
        else hunks.push_back({first, last});
    }
    return hunks;
}

// "-l,n" of one side: its first line (1-based; the line before an empty range, as diff writes it) and count.
std::string range(size_t first_index, size_t count) {
    return fmt::format("{},{}", count ? first_index + 1 : first_index, count);
}

}  // namespace

std::string unified_diff(std::string_view path, std::string_view before, std::string_view after) {
    const std::vector<std::string_view> old_lines = lines_of(before), new_lines = lines_of(after);
    const std::vector<DiffLine> lines = diff_lines(old_lines, new_lines);
    const std::vector<Hunk> hunks = hunks_of(lines);
    if (hunks.empty()) return "";
    // git's a/ and b/ prefixes for a relative path (`patch -p1` strips them); an absolute path as it is.
    const bool absolute = !path.empty() && path.front() == '/';
    std::string out = fmt::format("--- {}{}\n+++ {}{}\n", absolute ? "" : "a/", printable(path),
                                  absolute ? "" : "b/", printable(path));
    for (const Hunk& h : hunks) {
        size_t old_count = 0, new_count = 0;
        for (size_t i = h.first; i < h.last; ++i) {
            old_count += lines[i].mark != '+';
            new_count += lines[i].mark != '-';
        }
        out += fmt::format("@@ -{} +{} @@\n", range(lines[h.first].before, old_count),
                           range(lines[h.first].after, new_count));
        for (size_t i = h.first; i < h.last; ++i)
            out += lines[i].mark + shown(lines[i].mark == '+' ? new_lines[lines[i].after] : old_lines[lines[i].before]);
    }
    return out;
}

}  // namespace irlint
