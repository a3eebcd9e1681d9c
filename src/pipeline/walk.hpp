#pragma once
// Finds the files `check` reads: PATH arguments that are files, and every *.xml below those that are
// directories.

#include <string>
#include <vector>

namespace irlint {

struct InputFile {
    std::string path;      // as reached from the PATH argument: "models/" gives "models/sub/a.xml"
    std::string relative;  // relative to that argument ("sub/a.xml"); for a named file, its file name
    bool named = false;    // named on the command line rather than found by a walk
};

struct InputFiles {
    std::vector<InputFile> files;       // sorted by path, each path once (the first PATH that reached it)
    std::vector<std::string> problems;  // unreadable directories, broken links, symlink loops: skipped
    std::vector<std::string> missing;   // PATH arguments that do not exist
};

// Expands files and directories minus the --exclude globs. A directory is walked with its own stack, so a
// deep tree cannot exhaust ours; a symbolic link back into a directory being walked is not followed.
InputFiles find_input_files(const std::vector<std::string>& paths, const std::vector<std::string>& excludes);

}  // namespace irlint
