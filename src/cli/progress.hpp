#pragma once
// The progress line of a long check on a terminal: files done of the total, files per second, the time
// left and the findings so far, redrawn in place on stderr.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>

#include "report/report.hpp"

namespace irlint::cli {

class Progress {
public:
    // A disabled progress line draws nothing; the calls stay cheap.
    Progress(size_t total_files, bool enabled);

    bool enabled() const { return enabled_; }

    // Called by the checking threads.
    void file_done(const FileResult& file);

    // Redraws the line, at most ten times a second unless forced. Calling thread only.
    void draw(bool force = false);
    // Erases the line, e.g. before other output goes to the same terminal.
    void clear();

private:
    std::string line() const;

    using Clock = std::chrono::steady_clock;
    size_t total_;
    bool enabled_;
    Clock::time_point start_ = Clock::now();
    Clock::time_point last_draw_{};
    size_t drawn_width_ = 0;
    std::atomic<size_t> done_{0}, errors_{0}, warnings_{0}, notes_{0};
};

// On when stderr is a terminal, unless -q, or a machine format goes to stdout (which is then most likely
// read by a program, and the terminal is the user's only view of what happens).
bool progress_wanted(bool quiet, const std::string& format, const std::string& output);

}  // namespace irlint::cli
