#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "core/text.hpp"
#include "ir/reader.hpp"
#include "rules/engine.hpp"

namespace irlint::cli {

void setup_check(CLI::App& app, CheckOptions& o) {
    app.add_option("paths", o.paths, "IR .xml files or directories (searched recursively for *.xml)")->required();
    app.add_option("--format", o.format, "Output format")->check(CLI::IsMember({"text", "json"}));
    app.add_option("-o,--output", o.output, "Write the report to FILE (atomically) instead of stdout");
    app.add_option("-j,--jobs", o.jobs, "Files checked in parallel (default: hardware threads)")
        ->check(CLI::Range(1, 1024));
    app.add_option("--shard", o.shard, "Check only shard K of N (1-based) of the sorted file list, e.g. 2/4");
    app.add_option("--fail-on", o.fail_on, "Lowest severity that makes the exit code 1")
        ->check(CLI::IsMember({"error", "warning", "never"}));
    app.add_option("--exclude", o.excludes, "Skip paths matching GLOB (repeatable)");
    app.add_flag("-q,--quiet", o.quiet, "Print findings only, no summary");
}

namespace {

// A directory of models often holds other XML files: found by a walk, a non-IR file is skipped with a
// note; named on the command line, it is an error.
FileResult check_one(const std::string& path, bool named) {
    FileResult out;
    out.path = path;
    ReadResult read = read_model(path);
    out.diagnostics = std::move(read.diagnostics);
    if (read.status == ReadStatus::not_ir && !named) {
        for (auto& d : out.diagnostics) {
            d.severity = Severity::note;
            d.message += "; skipped";
        }
        return out;
    }
    if (!read.model) return out;
    ModelReport report = check_model(*read.model);
    out.layers = read.model->layer_count();
    out.checked = report.pooling_checked;
    out.diagnostics.insert(out.diagnostics.end(), std::make_move_iterator(report.diagnostics.begin()),
                           std::make_move_iterator(report.diagnostics.end()));
    std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    return out;
}

// FNV-1a: a stable hash, so a file stays in its shard when others are added.
uint64_t stable_hash(std::string_view s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

bool parse_shard(const std::string& text, uint64_t& k, uint64_t& n) {
    const auto parts = split(text, '/');
    if (parts.size() != 2) return false;
    const auto a = parse_int(parts[0]), b = parse_int(parts[1]);
    if (!a || !b || *b < 1 || *a < 1 || *a > *b) return false;
    k = static_cast<uint64_t>(*a);
    n = static_cast<uint64_t>(*b);
    return true;
}

std::vector<FileResult> check_all(const FileList& list, int jobs) {
    const auto& files = list.files;
    std::vector<FileResult> results(files.size());
    std::atomic<size_t> next{0};
    auto is_named = [&](const std::string& f) {
        return std::find(list.named.begin(), list.named.end(), f) != list.named.end();
    };
    auto work = [&] {
        for (size_t i = next++; i < files.size(); i = next++) results[i] = check_one(files[i], is_named(files[i]));
    };
    const size_t threads = std::min<size_t>(files.size(), static_cast<size_t>(std::max(1, jobs)));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    return results;
}

}  // namespace

int run_check(const CheckOptions& o) {
    FileList list = collect_files(o.paths, o.excludes);
    for (const auto& m : list.missing) print_error(fmt::format("{}: no such file or directory", m));
    for (const auto& p : list.problems) print_error(p);
    if (!list.missing.empty()) return exit_code::usage;
    if (!o.shard.empty()) {
        uint64_t k = 0, n = 0;
        if (!parse_shard(o.shard, k, n)) {
            print_error(fmt::format("--shard {}: expected K/N with 1 <= K <= N", o.shard));
            return exit_code::usage;
        }
        std::erase_if(list.files, [&](const std::string& f) { return stable_hash(f) % n != k - 1; });
    }
    if (list.files.empty() && o.shard.empty()) {
        print_error("no .xml files found");
        return exit_code::usage;
    }
    const int jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const std::vector<FileResult> results = check_all(list, jobs);

    const int fd = o.output.empty() ? STDOUT_FILENO : -1;
    const std::string content = o.format == "json"
                                    ? check_json(results)
                                    : check_text(results, fd < 0 ? Palette::plain() : palette_for(fd), !o.quiet);
    if (const int rc = emit_output(o.output, content); rc != exit_code::ok) return rc;

    const Summary s = summarize(results);
    const bool failed = (o.fail_on == "error" && s.errors > 0) || (o.fail_on == "warning" && s.errors + s.warnings > 0);
    return failed ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
