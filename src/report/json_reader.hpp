#pragma once
// A strict JSON reader (RFC 8259), enough to read back irlint's own reports: any input gives a value or
// an error with its line and column, never a crash. Nesting deeper than a fixed limit is an error.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irlint {

// Declared before JsonValue and defined after it: a member holds a whole value, and the standard only
// allows an incomplete element type in std::vector, not in std::pair.
struct JsonMember;

struct JsonValue {
    enum class Kind { null, boolean, number, string, array, object };
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::optional<int64_t> integer;  // set when the number is written without fraction or exponent and fits
    std::string string;
    std::vector<JsonValue> items;     // array
    std::vector<JsonMember> members;  // object, in document order; keys are unique

    const JsonValue* find(std::string_view key) const;
};

struct JsonMember {
    std::string key;
    JsonValue value;
};

inline constexpr size_t kJsonMaxDepth = 64;

// Returns the value of the whole text, or nullopt and `error` ("line L, column C: what went wrong").
std::optional<JsonValue> parse_json(std::string_view text, std::string& error);

// "an object", "a string", ...: for messages about a value of the wrong kind.
std::string_view json_kind_name(JsonValue::Kind kind);

}  // namespace irlint
