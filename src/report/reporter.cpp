#include "report/report.hpp"

namespace irlint {

void Summary::add(const FileResult& f) {
    ++files;
    layers += f.layers;
    checked += f.checked;
    checked_by_invariants += f.checked_by_invariants;
    for (const Diagnostic& d : f.diagnostics) {
        if (d.severity == Severity::error) ++errors;
        else if (d.severity == Severity::warning) ++warnings;
        else ++notes;
    }
}

bool Summary::fails(std::string_view fail_on) const {
    return (fail_on == "error" && errors > 0) || (fail_on == "warning" && errors + warnings > 0);
}

Summary summarize(const std::vector<FileResult>& files) {
    Summary s;
    for (const FileResult& f : files) s.add(f);
    return s;
}

std::unique_ptr<Reporter> make_reporter(std::string_view format, const ReportOptions& options) {
    if (format == "json") return make_json_reporter(options.shard);
    if (format == "sarif") return make_sarif_reporter(options);
    if (format == "junit") return make_junit_reporter();
    if (format == "html") return make_html_reporter();
    return make_text_reporter(options);
}

std::string render_report(std::string_view format, const ReportOptions& options, const std::vector<FileResult>& files,
                          std::optional<double> wall_seconds) {
    const auto reporter = make_reporter(format, options);
    std::string out = reporter->begin();
    for (const FileResult& f : files) out += reporter->file(f);
    Summary s = summarize(files);
    s.wall_seconds = wall_seconds;
    return out + reporter->end(s);
}

}  // namespace irlint
