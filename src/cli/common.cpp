#include "cli/common.hpp"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

namespace irlint::cli {

namespace fs = std::filesystem;

bool use_color(int fd) {
    if (const char* no = std::getenv("NO_COLOR"); no && *no) return false;
    if (const char* force = std::getenv("CLICOLOR_FORCE"); force && *force && std::string(force) != "0") return true;
    const char* term = std::getenv("TERM");
    return isatty(fd) && !(term && std::string(term) == "dumb");
}

Palette palette_for(int fd) { return use_color(fd) ? Palette::colored() : Palette::plain(); }

void print_error(const std::string& message) {
    const Palette p = palette_for(STDERR_FILENO);
    fmt::print(stderr, "{} {}\n", fmt::styled("irlint: error:", p.error), message);
}

int emit_output(const std::string& path, const std::string& content) {
    if (path.empty()) {
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

namespace {
bool excluded(const std::string& path, const std::vector<std::string>& excludes) {
    const std::string name = fs::path(path).filename().string();
    for (const auto& glob : excludes)
        if (fnmatch(glob.c_str(), path.c_str(), 0) == 0 || fnmatch(glob.c_str(), name.c_str(), 0) == 0) return true;
    return false;
}

// A link to a directory that contains the link itself would be walked forever.
bool leads_back(const fs::path& target, const fs::path& link) {
    std::error_code ec;
    const fs::path where = fs::weakly_canonical(link.parent_path(), ec);
    auto t = target.begin();
    for (auto w = where.begin(); t != target.end(); ++t, ++w)
        if (w == where.end() || *t != *w) return false;
    return true;
}

void walk(const fs::path& root, const std::vector<std::string>& excludes, FileList& out) {
    std::error_code ec;
    std::set<fs::path> seen_dirs;  // canonical paths: a symlink loop is entered once
    auto it = fs::recursive_directory_iterator(root, fs::directory_options::follow_directory_symlink |
                                                         fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        out.problems.push_back(fmt::format("{}: {}", root.string(), ec.message()));
        return;
    }
    seen_dirs.insert(fs::weakly_canonical(root, ec));
    for (auto end = fs::recursive_directory_iterator(); it != end; it.increment(ec)) {
        if (ec) {
            out.problems.push_back(fmt::format("{}: {}", it->path().string(), ec.message()));
            ec.clear();
            continue;
        }
        const fs::directory_entry& entry = *it;
        std::error_code type_ec;
        if (entry.is_directory(type_ec)) {
            if (excluded(entry.path().string(), excludes)) {
                it.disable_recursion_pending();
                continue;
            }
            const fs::path target = fs::weakly_canonical(entry.path(), type_ec);
            if (entry.is_symlink(type_ec) && (leads_back(target, entry.path()) || !seen_dirs.insert(target).second)) {
                out.problems.push_back(fmt::format("{}: symbolic link loop, not followed", entry.path().string()));
                it.disable_recursion_pending();
            } else if (!entry.is_symlink(type_ec)) {
                seen_dirs.insert(fs::weakly_canonical(entry.path(), type_ec));
            }
            continue;
        }
        const std::string p = entry.path().string();
        if (entry.path().extension() == ".xml" && entry.is_regular_file(type_ec) && !excluded(p, excludes))
            out.files.push_back(p);
    }
}
}  // namespace

FileList collect_files(const std::vector<std::string>& paths, const std::vector<std::string>& excludes) {
    FileList out;
    for (const auto& p : paths) {
        std::error_code ec;
        const auto status = fs::status(p, ec);
        if (ec || !fs::exists(status)) {
            out.missing.push_back(p);
        } else if (fs::is_directory(status)) {
            walk(p, excludes, out);
        } else if (!excluded(p, excludes)) {
            out.files.push_back(p);
            out.named.push_back(p);
        }
    }
    std::sort(out.files.begin(), out.files.end());
    out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
    return out;
}

}  // namespace irlint::cli
