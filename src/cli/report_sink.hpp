#pragma once
// Where a report goes while it is written: stdout, piece by piece, or a file that appears whole or not at
// all (the pieces go to a temporary file beside it, which is renamed over it at the end).

#include <optional>
#include <string>
#include <string_view>

#include "report/report.hpp"

namespace irlint::cli {

class ReportSink {
public:
    // An empty path means stdout. Returns nullopt and `error` when the temporary file cannot be created.
    static std::optional<ReportSink> open(const std::string& path, std::string& error);

    ReportSink(ReportSink&& other) noexcept;
    ReportSink& operator=(ReportSink&&) = delete;
    ~ReportSink();  // removes a temporary file that was not committed

    void write(std::string_view text);
    bool is_stdout() const { return path_.empty(); }

    // Finishes the report: for a file, closes it and renames it over the target. Returns an error text
    // on failure (after which the target is unchanged).
    std::optional<std::string> commit();

private:
    ReportSink(std::string path, std::string temp, int fd) : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}

    std::string path_, temp_;
    int fd_ = -1;
    int write_errno_ = 0;  // the first failed write
};

// Colors only for a terminal on stdout; SARIF paths relative to the working directory.
ReportOptions report_options_for(const ReportSink& sink, bool quiet);

}  // namespace irlint::cli
