#pragma once
// Helpers shared by the subcommands: exit codes, color, atomic output, file discovery.

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
}  // namespace exit_code

// Decided once: NO_COLOR, then CLICOLOR_FORCE, then a terminal whose TERM is not "dumb".
bool use_color(int fd);
Palette palette_for(int fd);

using irlint::write_file_atomically;

// Writes to `path` atomically, or to stdout when path is empty. Returns an exit code.
int emit_output(const std::string& path, const std::string& content);

struct FileList {
    std::vector<std::string> files;     // sorted
    std::vector<std::string> named;     // the files named on the command line (not found by a walk)
    std::vector<std::string> problems;  // unreadable entries, symlink loops
    std::vector<std::string> missing;   // named paths that do not exist
};

// Expands files and directories (recursively, *.xml) minus the --exclude globs.
FileList collect_files(const std::vector<std::string>& paths, const std::vector<std::string>& excludes);

void print_error(const std::string& message);

}  // namespace irlint::cli
