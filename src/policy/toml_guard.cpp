#include "policy/toml_guard.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace irlint {

namespace {

bool asks_unreachable(char32_t c) {
    return (c >= 0xA1 && c <= 0x499) || (c >= 0x2C5E && c <= 0x3057 && c != 0x3000) || (c >= 0xFB26 && c <= 0xFEFE);
}

// One UTF-8 sequence, decoded as leniently as any decoder might (overlong forms included); a byte that
// starts no sequence stands for itself.
struct Decoded {
    char32_t c = 0;
    size_t length = 1;
};

Decoded decode(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    const auto continues = [&](size_t k) { return k < text.size() && (byte(k) & 0xC0) == 0x80; };
    const uint8_t lead = byte(i);
    if ((lead & 0xE0) == 0xC0 && continues(i + 1))
        return {static_cast<char32_t>((lead & 0x1F) << 6 | (byte(i + 1) & 0x3F)), 2};
    if ((lead & 0xF0) == 0xE0 && continues(i + 1) && continues(i + 2))
        return {static_cast<char32_t>((lead & 0x0F) << 12 | (byte(i + 1) & 0x3F) << 6 | (byte(i + 2) & 0x3F)), 3};
    return {lead, 1};
}

enum class Where { outside, comment, basic, literal, multiline_basic, multiline_literal };

// Follows the text as TOML reads it, as far as it matters here: strings, comments, and whether a string
// stands where a key does (a line's start outside brackets, a table header, an inline table after '{' or
// ',') or where a value does.
class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    std::optional<int> first_hazard() {
        for (size_t i = 0; i < text_.size();) {
            const Decoded d = decode(text_, i);
            if (hazard(d)) return line_;
            if (d.c == '\n') ++line_;
            i += advance(i, d);
        }
        return std::nullopt;
    }

private:
    bool starts_with(size_t i, std::string_view s) const { return text_.substr(i, s.size()) == s; }

    bool hazard(const Decoded& d) const {
        if (!asks_unreachable(d.c)) return false;
        switch (where_) {
            case Where::outside: return true;
            case Where::comment: return false;
            case Where::basic:
            case Where::literal: return in_key_;
            case Where::multiline_basic: return in_key_ || backslash_seen_;
            case Where::multiline_literal: return in_key_;
        }
        return true;
    }

    // How many bytes the scanner moves on from position i.
    size_t advance(size_t i, const Decoded& d) {
        switch (where_) {
            case Where::outside: return advance_outside(i, d);
            case Where::comment:
                if (d.c == '\n') end_of_line();
                return d.length;
            case Where::basic:
                // An escaped character is skipped, except a line break, which ends the line (and the string).
                if (d.c == '\\' && i + 1 < text_.size() && text_[i + 1] != '\n')
                    return 1 + decode(text_, i + 1).length;
                if (d.c == '"' || d.c == '\n') leave_string(d.c == '\n');
                return d.length;
            case Where::literal:
                if (d.c == '\'' || d.c == '\n') leave_string(d.c == '\n');
                return d.length;
            case Where::multiline_basic:
                if (d.c == '\\') {
                    backslash_seen_ = true;
                    return 1;
                }
                if (starts_with(i, "\"\"\"")) return leave_multiline(i, '"');
                return d.length;
            case Where::multiline_literal:
                if (starts_with(i, "'''")) return leave_multiline(i, '\'');
                return d.length;
        }
        return d.length;
    }

    size_t advance_outside(size_t i, const Decoded& d) {
        const bool may_start_string = string_may_start_;
        string_may_start_ = false;
        switch (d.c) {
            case '#': where_ = Where::comment; break;
            case '"':
            case '\'':
                // A quote that follows a bare value ("999'...") opens no string: toml++ reads on through the
                // bare value, asking about every character.
                if (may_start_string) return enter_string(i, static_cast<char>(d.c));
                break;
            case ' ':
            case '\t': string_may_start_ = may_start_string; break;
            case '=':
                key_position_ = false;
                string_may_start_ = true;
                break;
            case '.': string_may_start_ = key_position_ || header_; break;  // a dotted key's next part
            case '{':
                brackets_.push_back('{');
                key_position_ = true;
                string_may_start_ = true;
                break;
            case '[':
                if (key_position_ && brackets_.empty()) header_ = true;
                else brackets_.push_back('[');
                string_may_start_ = true;
                break;
            case ']':
                if (header_) header_ = false;
                else if (!brackets_.empty()) brackets_.pop_back();
                break;
            case '}':
                if (!brackets_.empty()) brackets_.pop_back();
                key_position_ = false;
                break;
            case ',':
                key_position_ = !brackets_.empty() && brackets_.back() == '{';
                string_may_start_ = true;
                break;
            case '\n': end_of_line(); break;
            default: break;
        }
        return d.length;
    }

    size_t enter_string(size_t i, char quote) {
        const bool multiline = starts_with(i, std::string(3, quote));
        where_ = quote == '"' ? (multiline ? Where::multiline_basic : Where::basic)
                              : (multiline ? Where::multiline_literal : Where::literal);
        in_key_ = key_position_ || header_;
        backslash_seen_ = false;
        return multiline ? 3 : 1;
    }

    void leave_string(bool at_newline) {
        where_ = Where::outside;
        if (at_newline) end_of_line();
    }

    // A closing delimiter may follow up to two quotes that belong to the string.
    size_t leave_multiline(size_t i, char quote) {
        size_t n = 3;
        while (n < 5 && i + n < text_.size() && text_[i + n] == quote) ++n;
        where_ = Where::outside;
        return n;
    }

    void end_of_line() {
        where_ = Where::outside;
        string_may_start_ = true;
        if (brackets_.empty()) {
            key_position_ = true;
            header_ = false;
        }
    }

    std::string_view text_;
    int line_ = 1;
    Where where_ = Where::outside;
    std::vector<char> brackets_;  // open '[' of arrays and '{' of inline tables
    bool key_position_ = true;
    bool header_ = false;
    bool in_key_ = false;
    bool backslash_seen_ = false;
    bool string_may_start_ = true;  // after the start of a line, '=', ',', '[', '{' or a dotted key's '.'
};

}  // namespace

std::optional<int> toml_unreachable_character_line(std::string_view text) { return Scanner(text).first_hazard(); }

}  // namespace irlint
