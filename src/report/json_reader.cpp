#include "report/json_reader.hpp"

#include <charconv>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

const JsonValue* JsonValue::find(std::string_view key) const {
    for (const auto& [k, v] : members)
        if (k == key) return &v;
    return nullptr;
}

std::string_view json_kind_name(JsonValue::Kind kind) {
    switch (kind) {
        case JsonValue::Kind::null: return "null";
        case JsonValue::Kind::boolean: return "a boolean";
        case JsonValue::Kind::number: return "a number";
        case JsonValue::Kind::string: return "a string";
        case JsonValue::Kind::array: return "an array";
        case JsonValue::Kind::object: return "an object";
    }
    return "a value";
}

namespace {

struct ParseError {
    size_t offset;
    std::string what;
};

// Recursive descent; every parse_* starts at the first byte of its token and leaves pos_ after it.
// Errors are thrown inside the parser only and turned into a message by parse_json.
class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    JsonValue parse_document() {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a byte order mark some editors add
        skip_whitespace();
        JsonValue v = parse_value(0);
        skip_whitespace();
        if (pos_ != text_.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(std::string what) const { throw ParseError{pos_, std::move(what)}; }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return at_end() ? '\0' : text_[pos_]; }

    void skip_whitespace() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }

    void expect(char c, std::string_view context) {
        if (peek() != c) fail(at_end() ? fmt::format("unexpected end of input, expected '{}' {}", c, context)
                                       : fmt::format("expected '{}' {}", c, context));
        ++pos_;
    }

    JsonValue parse_value(size_t depth) {
        if (depth >= kJsonMaxDepth) fail(fmt::format("nesting deeper than {} levels", kJsonMaxDepth));
        switch (peek()) {
            case '{': return parse_object(depth);
            case '[': return parse_array(depth);
            case '"': {
                JsonValue v;
                v.kind = JsonValue::Kind::string;
                v.string = parse_string();
                return v;
            }
            case 't': return parse_literal("true", JsonValue::Kind::boolean, true);
            case 'f': return parse_literal("false", JsonValue::Kind::boolean, false);
            case 'n': return parse_literal("null", JsonValue::Kind::null, false);
            default:
                if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return parse_number();
                fail(at_end() ? "unexpected end of input, expected a value" : "expected a value");
        }
    }

    JsonValue parse_literal(std::string_view word, JsonValue::Kind kind, bool boolean) {
        if (text_.substr(pos_, word.size()) != word) fail("expected a value");
        pos_ += word.size();
        JsonValue v;
        v.kind = kind;
        v.boolean = boolean;
        return v;
    }

    JsonValue parse_object(size_t depth) {
        JsonValue v;
        v.kind = JsonValue::Kind::object;
        std::set<std::string> keys;
        ++pos_;
        skip_whitespace();
        if (peek() == '}') {
            ++pos_;
            return v;
        }
        while (true) {
            skip_whitespace();
            if (peek() != '"') fail("expected a string as object key");
            const size_t key_offset = pos_;
            std::string key = parse_string();
            if (!keys.insert(key).second) throw ParseError{key_offset, fmt::format("duplicate key {}", excerpt(key))};
            skip_whitespace();
            expect(':', "after an object key");
            skip_whitespace();
            v.members.push_back(JsonMember{std::move(key), parse_value(depth + 1)});
            skip_whitespace();
            if (peek() == '}') break;
            expect(',', "or '}' after an object member");
        }
        ++pos_;
        return v;
    }

    JsonValue parse_array(size_t depth) {
        JsonValue v;
        v.kind = JsonValue::Kind::array;
        ++pos_;
        skip_whitespace();
        if (peek() == ']') {
            ++pos_;
            return v;
        }
        while (true) {
            skip_whitespace();
            v.items.push_back(parse_value(depth + 1));
            skip_whitespace();
            if (peek() == ']') break;
            expect(',', "or ']' after an array item");
        }
        ++pos_;
        return v;
    }

    size_t scan_digits() {
        const size_t start = pos_;
        while (peek() >= '0' && peek() <= '9') ++pos_;
        return pos_ - start;
    }

    JsonValue parse_number() {
        const size_t start = pos_;
        if (peek() == '-') ++pos_;
        if (peek() == '0') ++pos_;
        else if (scan_digits() == 0) fail("expected a digit");
        bool integral = true;
        if (peek() == '.') {
            ++pos_;
            integral = false;
            if (scan_digits() == 0) fail("expected a digit after the decimal point");
        }
        if (peek() == 'e' || peek() == 'E') {
            ++pos_;
            integral = false;
            if (peek() == '+' || peek() == '-') ++pos_;
            if (scan_digits() == 0) fail("expected a digit in the exponent");
        }
        const char* first = text_.data() + start;
        const char* last = text_.data() + pos_;
        JsonValue v;
        v.kind = JsonValue::Kind::number;
        const auto [end, ec] = std::from_chars(first, last, v.number);
        if (ec != std::errc() || end != last) throw ParseError{start, "number out of range"};
        int64_t i = 0;
        if (integral && std::from_chars(first, last, i).ec == std::errc()) v.integer = i;
        return v;
    }

    uint32_t parse_hex4() {
        uint32_t value = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = peek();
            uint32_t digit = 0;
            if (c >= '0' && c <= '9') digit = static_cast<uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f') digit = static_cast<uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') digit = static_cast<uint32_t>(c - 'A' + 10);
            else fail("expected four hex digits after \\u");
            value = value * 16 + digit;
            ++pos_;
        }
        return value;
    }

    // After "\u": one code point, from a surrogate pair when it takes two escapes.
    uint32_t parse_unicode_escape() {
        const uint32_t unit = parse_hex4();
        if (unit >= 0xDC00 && unit <= 0xDFFF) fail("a low surrogate without a high surrogate before it");
        if (unit < 0xD800 || unit > 0xDBFF) return unit;
        if (text_.substr(pos_, 2) != "\\u") fail("a high surrogate without a low surrogate after it");
        pos_ += 2;
        const uint32_t low = parse_hex4();
        if (low < 0xDC00 || low > 0xDFFF) fail("a high surrogate without a low surrogate after it");
        return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }

    static void append_utf8(std::string& out, uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    void parse_escape(std::string& out) {
        const char c = peek();
        ++pos_;
        switch (c) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': append_utf8(out, parse_unicode_escape()); break;
            default: --pos_; fail("unknown escape sequence");
        }
    }

    std::string parse_string() {
        ++pos_;
        std::string out;
        while (true) {
            if (at_end()) fail("unexpected end of input inside a string");
            const char c = peek();
            if (c == '"') break;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string (write it as \\u00XX)");
            ++pos_;
            if (c == '\\') parse_escape(out);
            else out += c;
        }
        ++pos_;
        return out;
    }

    std::string_view text_;
    size_t pos_ = 0;
};

std::string located(std::string_view text, size_t offset, const std::string& what) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;  // columns count characters, not the continuation bytes of one
        }
    }
    return fmt::format("line {}, column {}: {}", line, column, what);
}

}  // namespace

std::optional<JsonValue> parse_json(std::string_view text, std::string& error) {
    if (const size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
        error = located(text, bad, "the text is not UTF-8");
        return std::nullopt;
    }
    try {
        return Parser(text).parse_document();
    } catch (const ParseError& e) {
        error = located(text, e.offset, e.what);
        return std::nullopt;
    }
}

}  // namespace irlint
