#pragma once
// What the HTML reports share: escaping, the page around a report, numbers as the reports write them.
// A page is one self-contained file: its style sheet and script are inline, it names no URL but the rule
// documentation links, and it reads whole without script.

#include <string>
#include <string_view>

#include "core/text.hpp"

namespace irlint {

// & < > " ' as character references: for the report's own text, and inside attribute values.
std::string html_escape(std::string_view s);
// Text from a model, a path or a .npy: made printable (control characters visible, an overlong name cut,
// bytes that are not UTF-8 shown as \xNN), then escaped.
std::string html_text(std::string_view s, size_t max_chars = kPrintedNameChars);

// The whole page: doctype, charset, title, the style sheet, `body`, and `script` (may be empty) at the end.
std::string html_page(std::string_view title, std::string_view body, std::string_view script);

// A number for a table cell: up to 4 significant digits ("0.0123", "1.5e-07"), "inf", "nan".
std::string html_number(double v);

}  // namespace irlint
