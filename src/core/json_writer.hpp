#pragma once
// Compact JSON, written front to back. The writer puts the commas and the colons and escapes every string
// (made valid UTF-8 first, control characters as \u escapes), so that no output of irlint hand-builds
// either; the order of keys is the caller's. take() hands over what is written so far, for reporters that
// stream a document in pieces.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace irlint {

// A JSON string literal of `s`, quotes included.
std::string json_string(std::string_view s);

class JsonWriter {
public:
    JsonWriter& begin_object();
    JsonWriter& begin_array();
    JsonWriter& end();  // of the innermost object or array
    JsonWriter& key(std::string_view name);
    JsonWriter& string(std::string_view value);
    JsonWriter& number(int64_t value);
    JsonWriter& boolean(bool value);
    JsonWriter& null();
    // A value that is JSON already (a number in a format of the caller's, a document of another writer).
    JsonWriter& raw(std::string_view json);

    // key(name) and the value, for the common case.
    JsonWriter& field(std::string_view name, std::string_view value) { return key(name).string(value); }
    JsonWriter& field(std::string_view name, const char* value) { return key(name).string(value); }
    JsonWriter& field(std::string_view name, int64_t value) { return key(name).number(value); }
    JsonWriter& field(std::string_view name, int value) { return key(name).number(value); }
    JsonWriter& field(std::string_view name, size_t value) { return key(name).number(static_cast<int64_t>(value)); }
    JsonWriter& field(std::string_view name, bool value) { return key(name).boolean(value); }

    std::string take();  // the text written since the last take()
    const std::string& text() const { return out_; }

private:
    void before_value();

    struct Open {
        char closing;            // '}' or ']'
        bool has_items = false;  // a comma comes before the next item
    };
    JsonWriter& open(char opening, char closing);

    std::string out_;
    std::vector<Open> open_;
    bool after_key_ = false;
};

}  // namespace irlint
