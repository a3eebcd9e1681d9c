#include <doctest/doctest.h>

#include <string>

#include "report/json_reader.hpp"

using namespace irlint;

namespace {
std::string error_of(std::string_view text) {
    std::string error;
    const auto v = parse_json(text, error);
    CHECK_FALSE(v.has_value());
    return error;
}

JsonValue parsed(std::string_view text) {
    std::string error;
    auto v = parse_json(text, error);
    REQUIRE_MESSAGE(v.has_value(), error);
    return *v;
}
}  // namespace

TEST_CASE("json: objects keep members in document order, arrays their items") {
    const JsonValue v = parsed(R"( {"b": [1, -2, 3.5e1], "a": {"x": null}, "t": true, "f": false} )");
    REQUIRE(v.kind == JsonValue::Kind::object);
    REQUIRE(v.members.size() == 4);
    CHECK(v.members[0].key == "b");
    CHECK(v.members[1].key == "a");
    const JsonValue& b = *v.find("b");
    REQUIRE(b.items.size() == 3);
    CHECK(b.items[0].integer == 1);
    CHECK(b.items[1].integer == -2);
    CHECK_FALSE(b.items[2].integer.has_value());
    CHECK(b.items[2].number == 35.0);
    CHECK(v.find("a")->find("x")->kind == JsonValue::Kind::null);
    CHECK(v.find("t")->boolean);
    CHECK_FALSE(v.find("f")->boolean);
    CHECK(v.find("missing") == nullptr);
}

TEST_CASE("json: string escapes, including surrogate pairs, become UTF-8") {
    const JsonValue v = parsed(R"("a\"b\\c\/d\n\t\u00e9\u20ac\ud83d\ude00")");
    CHECK(v.string == "a\"b\\c/d\n\t\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST_CASE("json: integers that do not fit int64 are numbers only") {
    const JsonValue v = parsed("[9223372036854775807, 9223372036854775808, -0]");
    CHECK(v.items[0].integer == INT64_MAX);
    CHECK_FALSE(v.items[1].integer.has_value());
    CHECK(v.items[1].number == doctest::Approx(9.223372036854775808e18));
    CHECK(v.items[2].integer == 0);
}

TEST_CASE("json: errors name the line and column") {
    CHECK(error_of("{\"a\": 1,\n \"b\" 2}") == "line 2, column 6: expected ':' after an object key");
    CHECK(error_of("[1, 2") == "line 1, column 6: unexpected end of input, expected ',' or ']' after an array item");
    CHECK(error_of("{\"a\":1,\"a\":2}") == "line 1, column 8: duplicate key a");
    CHECK(error_of("[1,]") == "line 1, column 4: expected a value");
    CHECK(error_of("") == "line 1, column 1: unexpected end of input, expected a value");
    CHECK(error_of("{} x") == "line 1, column 4: unexpected text after the JSON value");
    CHECK(error_of("\"a\tb\"") == "line 1, column 3: control character inside a string (write it as \\u00XX)");
    CHECK(error_of("01") == "line 1, column 2: unexpected text after the JSON value");
    CHECK(error_of("-") == "line 1, column 2: expected a digit");
    CHECK(error_of("1.") == "line 1, column 3: expected a digit after the decimal point");
    CHECK(error_of("1e+") == "line 1, column 4: expected a digit in the exponent");
    CHECK(error_of("tru") == "line 1, column 1: expected a value");
    CHECK(error_of("\"\\x\"") == "line 1, column 3: unknown escape sequence");
    CHECK(error_of("\"\\ud800\"") == "line 1, column 8: a high surrogate without a low surrogate after it");
    CHECK(error_of("\"\\udc00\"") == "line 1, column 8: a low surrogate without a high surrogate before it");
    CHECK(error_of("\"\\u12g4\"") == "line 1, column 6: expected four hex digits after \\u");
    CHECK(error_of("[\"\xC3\"]") == "line 1, column 3: the text is not UTF-8");
    CHECK(error_of("1e999") == "line 1, column 1: number out of range");
}

TEST_CASE("json: nesting is limited, so deep input is an error and not a stack overflow") {
    const std::string ok = std::string(kJsonMaxDepth, '[') + std::string(kJsonMaxDepth, ']');
    CHECK(parsed(ok).kind == JsonValue::Kind::array);
    const std::string deep(1000000, '[');
    CHECK(error_of(deep) == "line 1, column 65: nesting deeper than 64 levels");
}

TEST_CASE("json: a byte order mark is skipped") {
    CHECK(parsed("\xEF\xBB\xBF{}").kind == JsonValue::Kind::object);
}
