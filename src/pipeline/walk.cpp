#include "pipeline/walk.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

namespace fs = std::filesystem;

namespace {

bool is_model_file(std::string_view name) {
    // ".xml" alone is a name with no extension, as fs::path::extension() reads it.
    const auto has = [&](std::string_view ext) { return name.size() > ext.size() && name.ends_with(ext); };
    return has(".xml") || has(".onnx");
}

// A glob is matched against the path relative to the PATH argument and against the entry's name, never the
// path as it was typed, so `models`, `./models/` and an absolute spelling exclude the same files.
bool excluded(std::string_view relative, std::string_view name, const std::vector<std::string>& excludes) {
    for (const auto& glob : excludes)
        if (glob_match(glob, relative) || glob_match(glob, name))
            return true;
    return false;
}

struct PendingDir {
    fs::path path;
    std::string relative;         // to the walked root, with '/' ("" for the root)
    std::vector<fs::path> chain;  // canonical paths from the walked root down to this directory
};

class Walker {
public:
    Walker(const fs::path& root, const std::vector<std::string>& excludes, InputFiles& out)
        : root_(root), excludes_(excludes), out_(out) {}

    void run() {
        std::error_code ec;
        pending_.push_back({root_, {}, {fs::weakly_canonical(root_, ec)}});
        while (!pending_.empty()) {
            PendingDir dir = std::move(pending_.back());
            pending_.pop_back();
            read_directory(dir);
        }
    }

private:
    void problem(const fs::path& p, const std::string& what) {
        out_.problems.push_back(fmt::format("{}: {}", p.string(), what));
    }

    void read_directory(const PendingDir& dir) {
        std::error_code ec;
        fs::directory_iterator it(dir.path, ec);
        if (ec) return problem(dir.path, fmt::format("cannot read the directory ({}); skipped", ec.message()));
        for (const fs::directory_iterator end; it != end; it.increment(ec)) visit(*it, dir);
        if (ec) problem(dir.path, fmt::format("cannot read all of the directory ({}); skipped the rest", ec.message()));
    }

    // The entry's path relative to the walked root is its directory's and its name: no path is taken apart.
    void visit(const fs::directory_entry& entry, const PendingDir& dir) {
        const fs::path& p = entry.path();
        const std::string name = p.filename().string();
        const std::string relative = dir.relative.empty() ? name : dir.relative + "/" + name;
        std::error_code ec;
        const bool link = entry.is_symlink(ec);
        const fs::file_type type = entry_type(entry, link, ec);  // of the link's target
        if (type == fs::file_type::not_found) {
            if (link && is_model_file(name)) problem(p, "broken symbolic link; skipped");
        } else if (ec) {
            problem(p, fmt::format("cannot read ({}); skipped", ec.message()));
        } else if (type == fs::file_type::directory) {
            if (!excluded(relative, name, excludes_)) enter(p, relative, link, dir);
        } else if (type == fs::file_type::regular && is_model_file(name) && !excluded(relative, name, excludes_)) {
            out_.files.push_back({p.string(), relative, false});
        }
    }

    // The type the directory listing gave (no stat of each file), or for a link its target's.
    static fs::file_type entry_type(const fs::directory_entry& entry, bool link, std::error_code& ec) {
        if (link) return entry.status(ec).type();
        if (entry.is_directory(ec)) return fs::file_type::directory;
        if (!ec && entry.is_regular_file(ec)) return fs::file_type::regular;
        return ec ? fs::file_type::none : fs::file_type::unknown;
    }

    // Into a directory on the way down to this one, or into one that holds it (a walk through another link
    // may be inside the target without the target on its way).
    static bool leads_back(const fs::path& target, const PendingDir& dir) {
        if (std::find(dir.chain.begin(), dir.chain.end(), target) != dir.chain.end()) return true;
        const fs::path& here = dir.chain.back();
        return std::mismatch(target.begin(), target.end(), here.begin(), here.end()).first == target.end();
    }

    void enter(const fs::path& p, const std::string& relative, bool link, const PendingDir& dir) {
        std::error_code ec;
        const fs::path target = fs::canonical(p, ec);
        if (ec) return problem(p, fmt::format("cannot resolve ({}); skipped", ec.message()));
        if (link && leads_back(target, dir)) return problem(p, "symbolic link loop, not followed");
        PendingDir next{p, relative, dir.chain};
        next.chain.push_back(target);
        pending_.push_back(std::move(next));
    }

    fs::path root_;
    const std::vector<std::string>& excludes_;
    InputFiles& out_;
    std::vector<PendingDir> pending_;
};

void keep_first_of_each_path(std::vector<InputFile>& files) {
    const auto by_path = [](const InputFile& a, const InputFile& b) { return a.path < b.path; };
    std::stable_sort(files.begin(), files.end(), by_path);
    const auto same_path = [](const InputFile& a, const InputFile& b) { return a.path == b.path; };
    files.erase(std::unique(files.begin(), files.end(), same_path), files.end());
}

}  // namespace

InputFiles find_input_files(const std::vector<std::string>& paths, const std::vector<std::string>& excludes) {
    InputFiles out;
    for (const auto& p : paths) {
        std::error_code ec;
        const auto status = fs::status(p, ec);
        if (ec || !fs::exists(status)) out.missing.push_back(p);
        else if (fs::is_directory(status)) Walker(p, excludes, out).run();
        else if (const std::string name = fs::path(p).filename().string(); !excluded(name, name, excludes))
            out.files.push_back({p, name, true});
    }
    keep_first_of_each_path(out.files);
    std::sort(out.problems.begin(), out.problems.end());  // the walk's order is the file system's
    return out;
}

}  // namespace irlint
