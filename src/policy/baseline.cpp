#include "policy/baseline.hpp"

#include <fmt/format.h>

#include "core/hash.hpp"
#include "report/json_reader.hpp"
#include "report/report.hpp"

namespace irlint {

namespace {
// The message without its digits: line numbers and values may change, the kind of problem does not.
std::string without_digits(std::string_view message) {
    std::string out;
    for (char c : message)
        if (c < '0' || c > '9') out += c;
    return out;
}
}  // namespace

std::string finding_fingerprint(std::string_view relative_path, const Diagnostic& d) {
    // A port tells a layer's findings of one rule apart; without one, what the message says has to.
    const std::string detail = d.port.empty() ? without_digits(d.message) : std::string();
    uint64_t h = kFnv1aBasis;
    for (std::string_view part : {relative_path, std::string_view(d.rule), std::string_view(d.layer.name),
                                  std::string_view(d.layer.type), std::string_view(d.port), std::string_view(detail)}) {
        h = fnv1a(part, h);
        h = fnv1a(std::string_view("\0", 1), h);  // so that ("ab","c") and ("a","bc") differ
    }
    return fmt::format("{:016x}", h);
}

std::string baseline_json(const std::set<std::string>& fingerprints) {
    std::string out = "{\"version\":1,\"fingerprints\":[";
    bool first = true;
    for (const std::string& f : fingerprints) {
        out += (first ? "\n  " : ",\n  ") + json_string(f);
        first = false;
    }
    return out + (first ? "]}\n" : "\n]}\n");
}

std::optional<std::set<std::string>> parse_baseline(std::string_view text, std::string& error) {
    const std::optional<JsonValue> root = parse_json(text, error);
    if (!root) return std::nullopt;
    const JsonValue* list = root->kind == JsonValue::Kind::object ? root->find("fingerprints") : nullptr;
    if (!list || list->kind != JsonValue::Kind::array) {
        error = "not a baseline: expected an object with a \"fingerprints\" array";
        return std::nullopt;
    }
    std::set<std::string> out;
    for (const JsonValue& item : list->items) {
        if (item.kind != JsonValue::Kind::string) {
            error = "not a baseline: a fingerprint is not a string";
            return std::nullopt;
        }
        out.insert(item.string);
    }
    return out;
}

}  // namespace irlint
