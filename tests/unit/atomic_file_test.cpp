#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"

namespace fs = std::filesystem;

namespace {

// What the writer synced, in order: a regular file or a directory, and whether the target existed then.
struct SyncEvent {
    bool directory = false;
    bool target_existed = false;
};
std::vector<SyncEvent> g_syncs;
fs::path g_target;

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

// This test binary's fsync: records every call, then does the real one. The executable's definition takes
// the place of the C library's for the writer linked into it.
extern "C" int fsync(int fd) {
    struct stat st {};
    if (!g_target.empty() && ::fstat(fd, &st) == 0) {
        std::error_code ec;
        g_syncs.push_back({S_ISDIR(st.st_mode), fs::exists(g_target, ec)});
    }
    return static_cast<int>(::syscall(SYS_fsync, fd));
}

TEST_CASE("atomic file: the data is synced before the rename, the directory after it") {
    const fs::path dir = fs::temp_directory_path() / ("irlint-atomic-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    g_target = dir / "report.json";
    g_syncs.clear();

    REQUIRE_FALSE(irlint::write_file_atomically(g_target.string(), std::string_view("{\"a\":1}\n")));
    CHECK(read_all(g_target) == "{\"a\":1}\n");
    REQUIRE(g_syncs.size() == 2);
    CHECK_FALSE(g_syncs[0].directory);       // the temporary file ...
    CHECK_FALSE(g_syncs[0].target_existed);  // ... while the target is not there yet
    CHECK(g_syncs[1].directory);             // then its directory
    CHECK(g_syncs[1].target_existed);        // once the rename is done

    // Replacing the file syncs the same way; no temporary file is left behind.
    g_syncs.clear();
    REQUIRE_FALSE(irlint::write_file_atomically(g_target.string(), std::vector<std::string_view>{"x", "y"}));
    CHECK(read_all(g_target) == "xy");
    CHECK(g_syncs.size() == 2);
    size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++entries;
    CHECK(entries == 1);

    g_target.clear();
    fs::remove_all(dir);
}
