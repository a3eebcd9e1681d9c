#include "core/json_writer.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (unsigned char c : to_valid_utf8(s)) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) out += fmt::format("\\u{:04x}", c);
                else out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (open_.empty()) return;
    if (open_.back().has_items) out_ += ',';
    open_.back().has_items = true;
}

JsonWriter& JsonWriter::open(char opening, char closing) {
    before_value();
    out_ += opening;
    open_.push_back({closing});
    return *this;
}

JsonWriter& JsonWriter::begin_object() { return open('{', '}'); }

JsonWriter& JsonWriter::begin_array() { return open('[', ']'); }

JsonWriter& JsonWriter::end() {
    out_ += open_.back().closing;
    open_.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    before_value();
    out_ += json_string(name);
    out_ += ':';
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view value) {
    before_value();
    out_ += json_string(value);
    return *this;
}

JsonWriter& JsonWriter::number(int64_t value) {
    before_value();
    fmt::format_to(std::back_inserter(out_), "{}", value);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
    before_value();
    out_ += value ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
    before_value();
    out_ += json;
    return *this;
}

std::string JsonWriter::take() {
    std::string text = std::move(out_);
    out_.clear();
    return text;
}

}  // namespace irlint
