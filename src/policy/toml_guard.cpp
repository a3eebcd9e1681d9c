#include "policy/toml_guard.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>

namespace irlint {

namespace {

// One UTF-8 sequence as TOML (and toml++'s decoder) accepts it: shortest form, no surrogates, at most
// U+10FFFF; nullopt for any other byte sequence.
struct CodePoint {
    char32_t value = 0;
    size_t length = 1;
};

std::optional<CodePoint> decode_utf8(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    const uint8_t lead = byte(i);
    if (lead < 0x80) return CodePoint{lead, 1};
    const size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || lead > 0xF4 || i + length > text.size()) return std::nullopt;
    char32_t value = lead & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return std::nullopt;
        value = value << 6 | (byte(i + k) & 0x3F);
    }
    constexpr char32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (value < kShortest[length] || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return std::nullopt;
    return CodePoint{value, length};
}

std::string unicode_escape(char32_t c) {
    return c <= 0xFFFF ? fmt::format("\\u{:04X}", static_cast<uint32_t>(c))
                       : fmt::format("\\U{:08X}", static_cast<uint32_t>(c));
}

std::string code_point_name(char32_t c) { return fmt::format("U+{:04X}", static_cast<uint32_t>(c)); }

// Copies the document token by token as far as it matters here: comments, the four kinds of string, and
// everything else, which must be ASCII.
class Rewriter {
public:
    explicit Rewriter(std::string_view text) : text_(text) {}

    std::variant<std::string, TomlRefusal> run() {
        for (size_t i = 0; i < text_.size() && !refusal_;) i = step_outside(i);
        if (refusal_) return *refusal_;
        return std::move(out_);
    }

private:
    bool starts_with(size_t i, std::string_view s) const { return text_.substr(i, s.size()) == s; }

    // The code point at i, or a refusal (and a step to the end) when the bytes are not UTF-8.
    std::optional<CodePoint> at(size_t i) {
        const auto c = decode_utf8(text_, i);
        if (!c) refuse(fmt::format("not valid UTF-8 (byte 0x{:02X}); TOML files are UTF-8", static_cast<uint8_t>(text_[i])));
        return c;
    }

    void refuse(std::string reason) {
        if (!refusal_) refusal_ = TomlRefusal{line_, std::move(reason)};
    }

    void copy(size_t i, const CodePoint& c) {
        out_.append(text_.substr(i, c.length));
        if (c.value == '\n') ++line_;
    }

    size_t step_outside(size_t i) {
        if (starts_with(i, "\"\"\"")) return basic_string(i + 3, "\"\"\"");
        if (starts_with(i, "'''")) return literal_string(i + 3, "'''");
        if (text_[i] == '"') return basic_string(i + 1, "\"");
        if (text_[i] == '\'') return literal_string(i + 1, "'");
        if (text_[i] == '#') return comment(i);
        const auto c = at(i);
        if (!c) return text_.size();
        if (c->value >= 0x80) {
            refuse(fmt::format("not valid TOML: {} outside a string or a comment (keys that are not quoted and "
                               "values that are not strings are ASCII)",
                               code_point_name(c->value)));
            return text_.size();
        }
        copy(i, *c);
        return i + c->length;
    }

    // Up to the line break, which stays outside; a non-ASCII character becomes a space.
    size_t comment(size_t i) {
        while (i < text_.size() && text_[i] != '\n') {
            const auto c = at(i);
            if (!c) return text_.size();
            if (c->value >= 0x80) out_ += ' ';
            else copy(i, *c);
            i += c->length;
        }
        return i;
    }

    // A closing delimiter of a multi-line string may follow up to two quotes that belong to the string.
    size_t closing_length(size_t i, std::string_view delimiter) const {
        size_t n = delimiter.size();
        if (n == 3)
            while (n < 5 && i + n < text_.size() && text_[i + n] == delimiter[0]) ++n;
        return n;
    }

    // From after the opening delimiter; returns where the string ends. A single-line string also ends
    // (unclosed, which toml++ reports) at a line break.
    size_t basic_string(size_t i, std::string_view delimiter) {
        out_ += delimiter;
        const bool multiline = delimiter.size() == 3;
        while (i < text_.size()) {
            if (starts_with(i, delimiter)) {
                const size_t n = closing_length(i, delimiter);
                out_.append(text_.substr(i, n));
                return i + n;
            }
            if (text_[i] == '\n' && !multiline) return i;
            const auto c = at(i);
            if (!c) return text_.size();
            if (c->value == '\\' && i + 1 < text_.size()) {
                i = escape_sequence(i);
                continue;
            }
            if (c->value >= 0x80) out_ += unicode_escape(c->value);
            else copy(i, *c);
            i += c->length;
        }
        return i;
    }

    // A backslash and what follows it: the escaped character is copied as it is unless it is not ASCII,
    // which is no escape in TOML. A line-ending backslash leaves the line break to the string.
    size_t escape_sequence(size_t i) {
        out_ += '\\';
        const auto next = at(i + 1);
        if (!next) return text_.size();
        if (next->value >= 0x80) {
            refuse(fmt::format("not valid TOML: '\\' before {} is no escape sequence", code_point_name(next->value)));
            return text_.size();
        }
        if (next->value == '\n' || next->value == '\r') return i + 1;
        copy(i + 1, *next);
        return i + 1 + next->length;
    }

    // A literal string is copied as it is unless it holds a non-ASCII character; then it is written as the
    // basic string of the same value.
    size_t literal_string(size_t i, std::string_view delimiter) {
        const bool multiline = delimiter.size() == 3;
        size_t end = i;
        bool ascii = true;
        while (end < text_.size() && !starts_with(end, delimiter) && (multiline || text_[end] != '\n')) {
            ascii = ascii && static_cast<uint8_t>(text_[end]) < 0x80;
            ++end;
        }
        const size_t close = end < text_.size() && starts_with(end, delimiter) ? closing_length(end, delimiter) : 0;
        // The quotes before the closing delimiter belong to the value.
        const size_t value_end = end + (close > 0 ? close - delimiter.size() : 0);
        if (ascii) {
            out_ += delimiter;
            copy_ascii(i, value_end + (close > 0 ? delimiter.size() : 0));
            return value_end + (close > 0 ? delimiter.size() : 0);
        }
        const std::string_view quote = multiline ? "\"\"\"" : "\"";
        out_ += quote;
        for (size_t k = i; k < value_end && !refusal_;) {
            const auto c = at(k);
            if (!c) return text_.size();
            if (c->value >= 0x80) out_ += unicode_escape(c->value);
            else if (c->value == '\\' || c->value == '"') (out_ += '\\') += static_cast<char>(c->value);
            else copy(k, *c);
            k += c->length;
        }
        if (close > 0) out_ += quote;
        return value_end + (close > 0 ? delimiter.size() : 0);
    }

    void copy_ascii(size_t from, size_t to) {
        for (size_t k = from; k < to; ++k) {
            out_ += text_[k];
            if (text_[k] == '\n') ++line_;
        }
    }

    std::string_view text_;
    std::string out_;
    int line_ = 1;
    std::optional<TomlRefusal> refusal_;
};

}  // namespace

std::variant<std::string, TomlRefusal> toml_text_for_parser(std::string_view text) { return Rewriter(text).run(); }

}  // namespace irlint
