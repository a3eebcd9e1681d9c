#include "cli/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace irlint::cli {

namespace {

constexpr size_t kBarWidth = 12;

size_t terminal_width() {
    winsize ws{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

std::string duration_text(double seconds) {
    const auto s = static_cast<long long>(seconds + 0.5);
    if (s < 60) return fmt::format("{}s", s);
    if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
    return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
}

std::string bar(size_t done, size_t total) {
    const size_t filled = total ? done * kBarWidth / total : kBarWidth;
    std::string out(kBarWidth + 2, ' ');
    out.front() = '[';
    out.back() = ']';
    std::fill_n(out.begin() + 1, filled, '=');
    return out;
}

}  // namespace

bool progress_wanted(bool quiet, const std::string& format, const std::string& output) {
    if (quiet || !isatty(STDERR_FILENO)) return false;
    return format == "text" || !output.empty();
}

Progress::Progress(size_t total_files, bool enabled) : total_(total_files), enabled_(enabled) {}

void Progress::file_done(const FileResult& file) {
    Summary s;
    s.add(file);
    errors_ += s.errors;
    warnings_ += s.warnings;
    notes_ += s.notes;
    ++done_;
}

std::string Progress::line() const {
    const size_t done = done_;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
    const std::string eta = done > 0 && rate > 0 ? duration_text(static_cast<double>(total_ - done) / rate) : "--";
    return fmt::format("{} {}/{} files  {:.1f} files/s  ETA {}  {} errors, {} warnings, {} notes", bar(done, total_),
                       done, total_, rate, eta, errors_.load(), warnings_.load(), notes_.load());
}

void Progress::draw(bool force) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    std::string text = line();
    text.resize(std::min(text.size(), terminal_width() - 1));  // a wrapped line could not be redrawn in place
    const size_t width = text.size();
    text.resize(std::max(width, drawn_width_), ' ');  // spaces over the rest of a longer previous line
    fmt::print(stderr, "\r{}", text);
    std::fflush(stderr);
    drawn_width_ = width;
}

void Progress::clear() {
    if (!enabled_ || drawn_width_ == 0) return;
    fmt::print(stderr, "\r{}\r", std::string(drawn_width_, ' '));
    std::fflush(stderr);
    drawn_width_ = 0;
}

}  // namespace irlint::cli
