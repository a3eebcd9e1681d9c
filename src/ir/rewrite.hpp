#pragma once
// Rewrites declared port dims and precisions in the text of an IR file, byte for byte elsewhere: every
// comment, blank, line ending, attribute order and quote stays as it was.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/element_type.hpp"
#include "ir/model.hpp"

namespace irlint {

struct PortRewrite {
    const Port* port = nullptr;  // of a model read from the same text
    std::optional<std::vector<int64_t>> dims;
    std::optional<ElementType> precision;
};

// One replaced span of the original text.
struct TextEdit {
    size_t offset = 0, length = 0;
    std::string replacement;
};

// The edits that give `ports` their new values in `text`, the bytes `model` was read from (its ports' views
// tell where each port is). nullopt with `error` when a port cannot be rewritten in place (its dims are not
// plain integers, its count of <dim> differs, its precision is written with an entity).
std::optional<std::vector<TextEdit>> plan_text_edits(const Model& model, std::string_view text,
                                                     const std::vector<PortRewrite>& ports, std::string& error);

// The edit that gives a layer attribute a new value: `value` is the attribute's view in `model` (read from
// `text`). nullopt with `error` when it cannot be rewritten in place (not quoted, written with an entity).
std::optional<TextEdit> plan_attribute_edit(const Model& model, std::string_view text, std::string_view value,
                                            std::string replacement, std::string& error);

// `text` with the edits applied; they must not overlap.
std::string apply_text_edits(std::string_view text, std::vector<TextEdit> edits);

}  // namespace irlint
