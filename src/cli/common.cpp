#include "cli/common.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint::cli {

namespace {
char** g_command_line = nullptr;

// What a command printed, for the JSON error document (keep_errors_for_json).
struct KeptErrors {
    bool keeping = false;
    bool stdout_written = false;
    std::vector<std::string> report_lists;
    Diagnostics findings;
};
KeptErrors g_kept;

void keep(const Diagnostic& finding) {
    if (g_kept.keeping) g_kept.findings.push_back(finding);
}

void print_labeled(std::string_view label, const fmt::text_style& style, const std::string& message) {
    fmt::print(stderr, "{} {}\n", fmt::styled(label, style), printable(message, kPrintedMessageChars));
}
}  // namespace

void remember_command_line(char** argv) { g_command_line = argv; }

char** command_line() { return g_command_line; }

bool use_color(int fd) {
    if (const char* no = std::getenv("NO_COLOR"); no && *no) return false;
    if (const char* force = std::getenv("CLICOLOR_FORCE"); force && *force && std::string(force) != "0") return true;
    const char* term = std::getenv("TERM");
    return isatty(fd) && !(term && std::string(term) == "dumb");
}

Palette palette_for(int fd) { return use_color(fd) ? Palette::colored() : Palette::plain(); }

// An error that is not a finding of a rule (a usage error, a missing file) has an empty rule id.
void print_error(const std::string& message) {
    print_labeled("irlint: error:", palette_for(STDERR_FILENO).error, message);
    keep({Severity::error, "", message, 0, {}});
}

void print_warning(const std::string& message) {
    print_labeled("irlint: warning:", palette_for(STDERR_FILENO).warning, message);
    keep({Severity::warning, "", message, 0, {}});
}

void print_finding_error(const std::string& text, const Diagnostic& finding) {
    print_labeled("irlint: error:", palette_for(STDERR_FILENO).error, text);
    keep(finding);
}

void keep_finding(const Diagnostic& finding) { keep(finding); }

void keep_errors_for_json(std::vector<std::string> report_lists) {
    g_kept.keeping = true;
    g_kept.report_lists = std::move(report_lists);
}

// The message of the first error leads, as "error" does in a run's JSON; the findings follow in the order
// they were printed. Nothing is written when the command already wrote its report.
void print_error_document() {
    if (!g_kept.keeping || g_kept.stdout_written) return;
    const Diagnostics& all = g_kept.findings;
    const auto first =
        std::find_if(all.begin(), all.end(), [](const Diagnostic& d) { return d.severity == Severity::error; });
    JsonWriter json;
    json.begin_object().field("tool", "irlint").field("version", IRLINT_VERSION);
    json.field("status", "error").field("error", first == all.end() ? "" : first->message);
    for (const std::string& key : g_kept.report_lists) json.key(key).begin_array().end();
    json.key("diagnostics").begin_array();
    for (const Diagnostic& d : all) write_diagnostic(json, d);
    emit_output("", json.end().end().take() + "\n");
}

int emit_output(const std::string& path, const std::string& content) {
    if (path.empty()) {
        g_kept.stdout_written = true;
        std::fwrite(content.data(), 1, content.size(), stdout);
        std::fflush(stdout);
        return exit_code::ok;
    }
    if (auto err = write_file_atomically(path, content)) {
        print_error(*err);
        return exit_code::usage;
    }
    return exit_code::ok;
}

}  // namespace irlint::cli
