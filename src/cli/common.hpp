#pragma once
// Helpers shared by the subcommands: exit codes, color, atomic output, messages.

#include <optional>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "report/report.hpp"

namespace irlint::cli {

namespace exit_code {
inline constexpr int ok = 0;
inline constexpr int findings = 1;
inline constexpr int usage = 2;
inline constexpr int internal = 2;  // a bug in irlint: the message asks for a report
}  // namespace exit_code

// Decided once: NO_COLOR, then CLICOLOR_FORCE, then a terminal whose TERM is not "dumb".
bool use_color(int fd);
Palette palette_for(int fd);

using irlint::write_file_atomically;

// Writes to `path` atomically, or to stdout when path is empty. Returns an exit code.
int emit_output(const std::string& path, const std::string& content);

// The command line main() was given, kept for handing the whole command to another binary.
void remember_command_line(char** argv);
char** command_line();

// Both make the message printable (core/text.hpp): it may quote a model's text or a path.
void print_error(const std::string& message);
// For what is skipped without failing the run (an unreadable directory, a symbolic link loop).
void print_warning(const std::string& message);
// print_error of `text`, a finding of the model put into words; the JSON error document has `finding` itself.
void print_finding_error(const std::string& text, const Diagnostic& finding);
// A finding printed in a format of the command's own (not as an `irlint: error:` line), for the same document.
void keep_finding(const Diagnostic& finding);

// With --format json, `infer`, `run` and `shape` answer with one JSON document on stdout even when they fail
// before they have a report: from here on the errors and findings printed are kept, and
// print_error_document writes them as {"status":"error",...} (docs/cli.md) unless stdout has its report.
// `report_lists` are the keys of the lists the command's report has; the document has them empty, so that
// a reader that walks the report finds nothing to walk.
void keep_errors_for_json(std::vector<std::string> report_lists);
void print_error_document();

}  // namespace irlint::cli
