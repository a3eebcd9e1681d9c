// The check pipeline below the command line: the walk that finds the files, the shards, which
// configuration and flags apply to each file, the pool that hands results over in file order, and the run
// of all of them that `check` and Python share.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "pipeline/check_plan.hpp"
#include "pipeline/check_run.hpp"
#include "pipeline/ordered_pool.hpp"
#include "pipeline/shard.hpp"
#include "pipeline/walk.hpp"

namespace fs = std::filesystem;
using namespace irlint;

namespace {

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct ScratchDir {
    fs::path path;
    explicit ScratchDir(const std::string& name) : path(fs::temp_directory_path() / ("irlint-pipeline-" + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& relative, const std::string& text = "<net/>") const {
        const fs::path p = path / relative;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
        return p.string();
    }
};

std::vector<std::string> relatives(const InputFiles& found) {
    std::vector<std::string> out;
    for (const InputFile& f : found.files) out.push_back(f.relative);
    return out;
}

// Whether the selection keeps a finding of `rule`.
bool keeps(const RuleSelection& selection, const std::string& rule) {
    Diagnostics findings{Diagnostic{Severity::error, rule, "m", 1, {}}};
    selection.apply(findings);
    return !findings.empty();
}

}  // namespace

TEST_CASE("walk: model files below a directory, sorted, minus the excluded ones") {
    const ScratchDir dir("walk");
    dir.file("b.xml");
    dir.file("a/c.onnx");
    dir.file("a/notes.txt");
    dir.file("legacy/old.xml");
    dir.file("a/d/e/deep.xml");
    dir.file("a/d/skip.onnx");
    dir.file("a/.xml");  // a hidden file with no extension, as std::filesystem reads it
    const InputFiles found = find_input_files({dir.path.string()}, {"legacy", "a/d/*.onnx"});
    CHECK(relatives(found) == std::vector<std::string>{"a/c.onnx", "a/d/e/deep.xml", "b.xml"});
    CHECK(found.problems.empty());
    CHECK(found.missing.empty());
    CHECK_FALSE(found.files[0].named);
}

TEST_CASE("walk: a file named twice is checked once; a missing PATH is reported; a named file is named") {
    const ScratchDir dir("named");
    const std::string model = dir.file("m.xml");
    const InputFiles found = find_input_files({model, model, (dir.path / "nope").string()}, {});
    REQUIRE(found.files.size() == 1);
    CHECK(found.files[0].named);
    CHECK(found.files[0].relative == "m.xml");
    CHECK(found.missing == std::vector<std::string>{(dir.path / "nope").string()});
}

TEST_CASE("walk: a symbolic link back up the tree is a problem, not an endless walk") {
    const ScratchDir dir("loop");
    dir.file("sub/m.xml");
    fs::create_directory_symlink(dir.path, dir.path / "sub" / "up");
    const InputFiles found = find_input_files({dir.path.string()}, {});
    CHECK(relatives(found) == std::vector<std::string>{"sub/m.xml"});
    REQUIRE(found.problems.size() == 1);
    CHECK(found.problems[0].find("symbolic link loop, not followed") != std::string::npos);
}

TEST_CASE("shard: K/N is parsed strictly") {
    CHECK(parse_shard("2/3")->k == 2);
    CHECK(parse_shard("2/3")->n == 3);
    for (const char* bad : {"0/3", "4/3", "1/0", "1", "1/2/3", "a/b", "-1/2", ""}) CHECK_FALSE(parse_shard(bad));
}

TEST_CASE("shard: the shards of a run partition its files, by a hash that never changes") {
    // The assignment must stay the same across versions and machines: jobs of one run agree on it.
    CHECK(shard_of("models/a.xml", 4) == shard_of("models/a.xml", 4));
    CHECK(shard_of("", 7) == 0xcbf29ce484222325ull % 7 + 1);
    std::vector<CheckJob> all;
    for (int i = 0; i < 200; ++i) all.push_back({InputFile{"p", "dir/" + std::to_string(i) + ".xml", false}, {}});
    std::set<std::string> seen;
    size_t total = 0;
    for (uint64_t k = 1; k <= 3; ++k) {
        std::vector<CheckJob> mine = all;
        keep_shard(mine, Shard{k, 3});
        CHECK(mine.size() > 40);  // a hash that spreads the files
        total += mine.size();
        for (const CheckJob& j : mine) seen.insert(j.file.relative);
    }
    CHECK(total == all.size());
    CHECK(seen.size() == all.size());
}

TEST_CASE("plan: flags win over the configuration, which wins over the defaults") {
    const ScratchDir dir("plan");
    dir.file("irlint.toml", "ignore = [\"attr-invalid\"]\nmin-severity = \"note\"\nfail-on = \"warning\"\n");
    const std::string model = dir.file("models/m.xml");
    const InputFiles found = find_input_files({dir.path.string()}, {});
    REQUIRE(found.files.size() == 1);

    Configurations configs;
    std::string error;
    FlagSettings none;
    auto jobs = plan_checks(found.files, "", true, none, configs, error);
    REQUIRE(jobs);
    REQUIRE(jobs->size() == 1);
    CHECK((*jobs)[0].settings.min_severity == Severity::note);
    CHECK((*jobs)[0].settings.fail_on == "warning");
    CHECK_FALSE(keeps((*jobs)[0].settings.selection, "attr-invalid"));
    CHECK((*jobs)[0].settings.fingerprint_path == "models/m.xml");

    FlagSettings flags;
    flags.min_severity = Severity::error;
    flags.fail_on = "never";
    flags.rules.select = std::set<std::string>{"attr-invalid"};
    Configurations configs2;
    jobs = plan_checks(found.files, "", true, flags, configs2, error);
    REQUIRE(jobs);
    CHECK((*jobs)[0].settings.min_severity == Severity::error);
    CHECK((*jobs)[0].settings.fail_on == "never");
    CHECK(keeps((*jobs)[0].settings.selection, "attr-invalid"));

    Configurations configs3;
    jobs = plan_checks(found.files, "", false, none, configs3, error);  // --no-config
    REQUIRE(jobs);
    CHECK((*jobs)[0].settings.fail_on == "error");
    CHECK(configs3.loaded.empty());
}

TEST_CASE("plan: an invalid configuration stops the run with its file and line") {
    const ScratchDir dir("bad-config");
    dir.file("irlint.toml", "selectt = [\"attr-invalid\"]\n");
    const InputFiles found = find_input_files({dir.file("m.xml")}, {});
    Configurations configs;
    std::string error;
    CHECK_FALSE(plan_checks(found.files, "", true, FlagSettings{}, configs, error));
    CHECK(error.find("irlint.toml") != std::string::npos);
    CHECK(error.find("selectt") != std::string::npos);
}

TEST_CASE("ordered pool: results come in file order whatever order the threads finish in") {
    const size_t count = 40;
    std::vector<size_t> handed;
    auto check = [](size_t i) {
        // Early files take longest, so the threads finish them last.
        std::this_thread::sleep_for(std::chrono::microseconds(200 * ((40 - i) % 7)));
        FileResult r;
        r.path = std::to_string(i);
        return r;
    };
    const size_t taken = run_ordered({4, 8}, count, check, [&](FileResult& r) { handed.push_back(std::stoul(r.path)); },
                                     [] {}, [] { return false; });
    CHECK(taken == count);
    REQUIRE(handed.size() == count);
    for (size_t i = 0; i < count; ++i) CHECK(handed[i] == i);
}

TEST_CASE("ordered pool: once cancelled, no new file starts, and the started ones are still handed over") {
    std::atomic<size_t> started{0};
    std::atomic<bool> cancel{false};
    auto check = [&](size_t i) {
        ++started;
        if (i == 2) cancel = true;
        FileResult r;
        r.path = std::to_string(i);
        return r;
    };
    std::vector<size_t> handed;
    const size_t taken = run_ordered({1, 4}, 100, check, [&](FileResult& r) { handed.push_back(std::stoul(r.path)); },
                                     [] {}, [&] { return cancel.load(); });
    CHECK(taken == handed.size());
    CHECK(taken == started.load());
    CHECK(taken < 100);
    for (size_t i = 0; i < handed.size(); ++i) CHECK(handed[i] == i);
}

namespace {

CheckRequest request_for(const std::string& path, int jobs) {
    CheckRequest r;
    r.paths = {path};
    r.jobs = jobs;
    r.keep_files = true;
    r.default_min_severity = Severity::note;
    r.check_onnx = [](const std::string& p, bool, bool) {
        FileResult out;
        out.path = p;
        return out;
    };
    return r;
}

}  // namespace

TEST_CASE("run: the same files, findings and totals for any number of threads; the hooks see every file") {
    const std::string spec = std::string(IRLINT_TESTDATA) + "/spec";
    CheckFailure failure;
    std::vector<std::string> problems;
    const auto one = run_checks(request_for(spec, 1), {}, failure, problems);
    REQUIRE(one);
    std::atomic<size_t> checked{0};
    size_t taken = 0;
    CheckHooks hooks;
    hooks.checked = [&](const FileResult&) { ++checked; };
    hooks.take = [&](FileResult&) { ++taken; };
    const auto four = run_checks(request_for(spec, 4), hooks, failure, problems);
    REQUIRE(four);
    CHECK(one->files == four->files);
    CHECK(one->files.size() >= 10);
    CHECK(checked == one->files.size());
    CHECK(taken == one->files.size());
    CHECK(one->summary.errors > 0);
    CHECK(one->summary.errors == four->summary.errors);
    CHECK(one->failed);
    CHECK(one->exit_code() == 1);
    CHECK(!one->cancelled());
    for (const FileResult& f : one->files)
        for (const Diagnostic& d : f.diagnostics) CHECK(d.fingerprint.size() == 16);
}

TEST_CASE("run: cancelled before the first file, nothing is checked (one thread asks before each file)") {
    CheckHooks hooks;
    hooks.cancelled = [] { return true; };
    CheckFailure failure;
    std::vector<std::string> problems;
    const auto run = run_checks(request_for(std::string(IRLINT_TESTDATA) + "/spec", 1), hooks, failure, problems);
    REQUIRE(run);
    CHECK(run->cancelled());
    CHECK(run->done == 0);
    CHECK(run->files.empty());
}

TEST_CASE("run: why a run cannot start, as a usage or a configuration failure with the command line's message") {
    const ScratchDir dir("run-failures");
    CheckFailure failure;
    std::vector<std::string> problems;
    CHECK(!run_checks(request_for((dir.path / "missing.xml").string(), 1), {}, failure, problems));
    CHECK(failure.kind == CheckFailure::Kind::usage);
    CHECK(failure.message == (dir.path / "missing.xml").string() + ": no such file or directory");
    CHECK(!run_checks(request_for(dir.path.string(), 1), {}, failure, problems));
    CHECK(failure.message == "no .xml files found");
    auto unknown = request_for(dir.path.string(), 1);
    unknown.select = {"no-such-rule"};
    CHECK(!run_checks(unknown, {}, failure, problems));
    CHECK(failure.kind == CheckFailure::Kind::usage);
    CHECK(failure.message.find("no-such-rule") != std::string::npos);
    dir.file("m.xml");
    const std::string config = dir.file("irlint.toml", "select = [");
    auto broken = request_for(dir.path.string(), 1);
    broken.config = config;
    CHECK(!run_checks(broken, {}, failure, problems));
    CHECK(failure.kind == CheckFailure::Kind::config);
}
