#include "core/text.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace irlint {

namespace {
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

// Loops rather than find_first_not_of: a large IR trims every <dim>, and the library's search makes a
// call per character.
std::string_view trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && is_blank(s[b])) ++b;
    while (e > b && is_blank(s[e - 1])) --e;
    return s.substr(b, e - b);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    size_t start = 0;
    while (true) {
        const auto pos = s.find(sep, start);
        if (pos == std::string_view::npos) {
            out.push_back(s.substr(start));
            return out;
        }
        out.push_back(s.substr(start, pos - start));
        start = pos + 1;
    }
}

std::string to_lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    });
    return out;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

bool glob_match(std::string_view pattern, std::string_view text) {
    const std::string p(pattern), t(text);
    return fnmatch(p.c_str(), t.c_str(), 0) == 0;
}

std::optional<int64_t> parse_int(std::string_view s) {
    if (s.empty()) return std::nullopt;
    if (s.front() == '+') s.remove_prefix(1);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string counted(size_t n, std::string_view singular, std::string_view plural) {
    std::string out = std::to_string(n) + " ";
    if (n == 1) return out.append(singular);
    return plural.empty() ? out.append(singular).append("s") : out.append(plural);
}

std::string join_ints(const std::vector<int64_t>& v, std::string_view sep) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) out += sep;
        out += std::to_string(v[i]);
    }
    return out;
}

std::string excerpt(std::string_view s, size_t max_len) {
    if (s.size() <= max_len) return std::string(s);
    return std::string(s.substr(0, max_len)) + "... (" + std::to_string(s.size()) + " characters)";
}

namespace {
struct Utf8Lead {
    size_t length;                  // 0: not a lead byte
    unsigned char second_lo, second_hi;  // the allowed range of the second byte
};

// The ranges of RFC 3629: they exclude overlong forms, surrogates and code points above U+10FFFF.
Utf8Lead utf8_lead(unsigned char b) {
    if (b < 0x80) return {1, 0, 0};
    if (b >= 0xC2 && b <= 0xDF) return {2, 0x80, 0xBF};
    if (b == 0xE0) return {3, 0xA0, 0xBF};
    if (b == 0xED) return {3, 0x80, 0x9F};
    if (b >= 0xE1 && b <= 0xEF) return {3, 0x80, 0xBF};
    if (b == 0xF0) return {4, 0x90, 0xBF};
    if (b >= 0xF1 && b <= 0xF3) return {4, 0x80, 0xBF};
    if (b == 0xF4) return {4, 0x80, 0x8F};
    return {0, 0, 0};
}

// Length of the valid UTF-8 sequence starting at s[i], or 0.
size_t utf8_sequence_length(std::string_view s, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const Utf8Lead lead = utf8_lead(byte(i));
    if (lead.length <= 1) return lead.length;
    if (i + lead.length > s.size()) return 0;
    if (byte(i + 1) < lead.second_lo || byte(i + 1) > lead.second_hi) return 0;
    for (size_t k = 2; k < lead.length; ++k)
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
    return lead.length;
}
}  // namespace

size_t first_invalid_utf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_sequence_length(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

namespace {

uint32_t code_point(std::string_view s, size_t i, size_t length) {
    const auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
    if (length == 1) return byte(0);
    uint32_t cp = byte(0) & (0xFFu >> (length + 1));
    for (size_t k = 1; k < length; ++k) cp = (cp << 6) | (byte(k) & 0x3Fu);
    return cp;
}

// Code points a terminal or a reader's eye does not take as the characters they are.
bool needs_escape(uint32_t cp) {
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return true;        // C0, DEL, C1
    if (cp == 0x061C || cp == 0x200E || cp == 0x200F) return true;                // bidi marks
    if (cp >= 0x202A && cp <= 0x202E) return true;                                // bidi embeddings, overrides
    if (cp >= 0x2066 && cp <= 0x2069) return true;                                // bidi isolates
    return cp == 0x2028 || cp == 0x2029;                                          // line, paragraph separator
}

std::string escape_of(uint32_t cp) {
    switch (cp) {
        case '\n': return "\\n";
        case '\t': return "\\t";
        case '\r': return "\\r";
        default: break;
    }
    char buffer[12];
    std::snprintf(buffer, sizeof buffer, cp < 0x80 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(cp));
    return buffer;
}

}  // namespace

bool is_decimal_id(std::string_view s) {
    if (s.empty() || s.size() > 18 || (s.size() > 1 && s[0] == '0')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string printable(std::string_view s, size_t max_chars) {
    std::string out;
    out.reserve(std::min(s.size(), max_chars * 4) + 16);
    size_t chars = 0, i = 0;
    for (; i < s.size() && chars < max_chars; ++chars) {
        const size_t n = utf8_sequence_length(s, i);
        if (n == 0) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(s[i])));
            out += buffer;
            ++i;
            continue;
        }
        const uint32_t cp = code_point(s, i, n);
        if (cp == '\\')
            out += "\\\\";
        else if (needs_escape(cp))
            out += escape_of(cp);
        else
            out.append(s.substr(i, n));
        i += n;
    }
    if (i < s.size()) out += "\u2026 (" + std::to_string(s.size()) + " bytes)";
    return out;
}

std::string to_valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_sequence_length(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

}  // namespace irlint
