#include <fmt/format.h>

#include "report/report.hpp"

namespace irlint {

Summary summarize(const std::vector<FileResult>& files) {
    Summary s;
    s.files = files.size();
    for (const FileResult& f : files) {
        s.layers += f.layers;
        s.checked += f.checked;
        for (const Diagnostic& d : f.diagnostics) {
            if (d.severity == Severity::error) ++s.errors;
            else if (d.severity == Severity::warning) ++s.warnings;
            else ++s.notes;
        }
    }
    return s;
}

Palette Palette::colored() {
    Palette p;
    p.error = fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold;
    p.warning = fmt::fg(fmt::terminal_color::bright_magenta) | fmt::emphasis::bold;
    p.note = fmt::fg(fmt::terminal_color::bright_cyan) | fmt::emphasis::bold;
    p.location = fmt::emphasis::bold;
    p.rule = fmt::fg(fmt::terminal_color::bright_black);
    p.ok = fmt::fg(fmt::terminal_color::bright_green) | fmt::emphasis::bold;
    p.bold = fmt::emphasis::bold;
    return p;
}

namespace {
const fmt::text_style& severity_style(const Palette& p, Severity s) {
    return s == Severity::error ? p.error : s == Severity::warning ? p.warning : p.note;
}

std::string layer_prefix(const LayerRef& l) {
    if (l.id.empty() && l.name.empty()) return "";
    return fmt::format("layer {} '{}' ({}): ", l.id, l.name, l.type);
}

std::string plural(size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }
}  // namespace

std::string check_text(const std::vector<FileResult>& files, const Palette& p, bool with_summary) {
    std::string out;
    for (const FileResult& f : files) {
        for (const Diagnostic& d : f.diagnostics) {
            const std::string where = d.line > 0 ? fmt::format("{}:{}:", f.path, d.line) : fmt::format("{}:", f.path);
            out += fmt::format("{} {} {}{} {}\n", fmt::styled(where, p.location),
                               fmt::styled(fmt::format("{}:", severity_name(d.severity)), severity_style(p, d.severity)),
                               layer_prefix(d.layer), d.message, fmt::styled(fmt::format("[{}]", d.rule), p.rule));
        }
    }
    if (with_summary) {
        const Summary s = summarize(files);
        const auto& verdict = s.errors ? p.error : s.warnings ? p.warning : p.ok;
        out += fmt::format("{}: {}, {}, {} pooling checked: {}, {}, {}\n",
                           fmt::styled("irlint", p.bold), plural(s.files, "file"), plural(s.layers, "layer"), s.checked,
                           fmt::styled(plural(s.errors, "error"), s.errors ? verdict : p.ok),
                           plural(s.warnings, "warning"), plural(s.notes, "note"));
    }
    return out;
}

}  // namespace irlint
