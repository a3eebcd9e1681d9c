#include <fmt/format.h>

#include "core/text.hpp"
#include "report/report.hpp"

namespace irlint {

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
}  // namespace

std::string shapes_text(const std::vector<Shape>& shapes, const std::vector<std::optional<ElementType>>& types) {
    std::string out;
    for (size_t k = 0; k < shapes.size(); ++k) {
        out += (out.empty() ? "" : " ") + shapes[k].str();
        if (k < types.size() && types[k]) out += fmt::format(":{}", element_type_name(*types[k]));
    }
    return out.empty() ? "-" : out;
}

std::string layer_prefix(const LayerRef& l) {
    if (l.id.empty() && l.name.empty()) return "";
    if (l.type.empty()) return fmt::format("layer {} '{}' (no type): ", l.id, l.name);
    return fmt::format("layer {} '{}' ({}): ", l.id, l.name, l.type);
}

namespace {
LayerRef printable_ref(const LayerRef& l) { return {printable(l.id), printable(l.name), printable(l.type)}; }
}  // namespace

std::string finding_line(const std::string& path, const Diagnostic& d, const Palette& p) {
    const std::string file = printable(path, kPrintedMessageChars);
    const std::string where = d.line > 0 ? fmt::format("{}:{}:", file, d.line) : fmt::format("{}:", file);
    return fmt::format("{} {} {}{} {}", fmt::styled(where, p.location),
                       fmt::styled(fmt::format("{}:", severity_name(d.severity)), severity_style(p, d.severity)),
                       layer_prefix(printable_ref(d.layer)), printable(d.message, kPrintedMessageChars),
                       fmt::styled(fmt::format("[{}]", printable(d.rule)), p.rule));
}

namespace {

// Findings in GCC style, then a table of the totals.
class TextReporter : public Reporter {
public:
    explicit TextReporter(const ReportOptions& o) : palette_(o.palette), summary_(o.summary) {}

    std::string begin() override { return ""; }

    std::string file(const FileResult& f) override {
        std::string out;
        for (const Diagnostic& d : f.diagnostics) out += finding_line(f.path, d, palette_) + "\n";
        any_finding_ = any_finding_ || !f.diagnostics.empty();
        return out;
    }

    std::string end(const Summary& s) override {
        if (!summary_) return "";
        const auto count_style = [&](size_t n, const fmt::text_style& style) { return n ? style : palette_.ok; };
        std::string out = any_finding_ ? "\n" : "";
        out += fmt::format("{}\n", fmt::styled("irlint summary", palette_.bold));
        out += row("files", fmt::to_string(s.files));
        out += row("layers", fmt::to_string(s.layers));
        out += row("layers checked",
                   fmt::format("{} of {} ({} by invariants)", s.checked, s.layers, s.checked_by_invariants));
        out += row("errors", fmt::format("{}", fmt::styled(s.errors, count_style(s.errors, palette_.error))));
        out += row("warnings", fmt::format("{}", fmt::styled(s.warnings, count_style(s.warnings, palette_.warning))));
        out += row("notes", fmt::to_string(s.notes));
        if (s.wall_seconds) out += row("wall time", fmt::format("{:.2f} s", *s.wall_seconds));
        return out;
    }

private:
    static std::string row(std::string_view label, const std::string& value) {
        return fmt::format("  {:<24}{}\n", label, value);
    }

    Palette palette_;
    bool summary_;
    bool any_finding_ = false;
};

}  // namespace

std::unique_ptr<Reporter> make_text_reporter(const ReportOptions& options) {
    return std::make_unique<TextReporter>(options);
}

}  // namespace irlint
