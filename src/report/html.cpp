#include "report/html.hpp"

#include <cmath>

#include <fmt/format.h>

namespace irlint {

namespace {

// One style sheet for both reports: system fonts only (nothing to fetch), tables that read on paper too.
constexpr std::string_view kStyle = R"(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1200px;
       padding: 0 16px; color: #1b1f24; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 15px; margin: 18px 0 6px; }
.meta { color: #57606a; margin: 0 0 16px; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px;
              overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 6px 0 14px; }
table.findings { width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.sev-error, .st-error, .st-mismatch { color: #b31d28; font-weight: 600; }
.sev-warning, .st-not-compared { color: #9a6700; font-weight: 600; }
.sev-note { color: #57606a; }
.st-ok { color: #1a7f37; font-weight: 600; }
.msg { white-space: pre-wrap; word-break: break-word; }
.rule { white-space: nowrap; }
td.rule { width: 1%; }
.bar { display: inline-block; width: 200px; height: 10px; border: 1px solid #8c959f; vertical-align: middle; }
.bar span { display: inline-block; height: 100%; vertical-align: top; }
.bar .full { background: #1a7f37; } .bar .inv { background: #bf8700; } .bar .not { background: #d0d7de; }
.controls { margin: 8px 0 12px; padding: 8px; background: #f6f8fa; border: 1px solid #d0d7de; }
.controls label { margin-right: 14px; }
th.sortable { cursor: pointer; } th.sortable::after { content: " \2195"; color: #8c959f; }
figure { display: inline-block; margin: 6px 16px 10px 0; vertical-align: top; }
figcaption { font-size: 13px; color: #57606a; max-width: 520px; }
svg { overflow: visible; }
svg text { font: 11px system-ui, sans-serif; fill: #1b1f24; }
.worst { fill: none; stroke: #0550ae; stroke-width: 2; }
.worst-halo { fill: none; stroke: #ffffff; stroke-width: 5; }
.note { color: #57606a; font-size: 13px; }
)";

}  // namespace

std::string html_escape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string html_text(std::string_view s, size_t max_chars) { return html_escape(printable(s, max_chars)); }

std::string html_page(std::string_view title, std::string_view body, std::string_view script) {
    std::string page = fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n"
        "<style>{}</style>\n</head>\n<body>\n{}",
        html_escape(title), kStyle, body);
    if (!script.empty()) page += fmt::format("<script>\n{}\n</script>\n", script);
    return page + "</body>\n</html>\n";
}

std::string html_number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{:.4g}", v);
}

}  // namespace irlint
