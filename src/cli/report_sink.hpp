#pragma once
// Where a report goes while it is written: stdout, piece by piece, or a file that appears whole or not at
// all once the report is complete.

#include <optional>
#include <string>
#include <string_view>

#include "core/atomic_file.hpp"
#include "report/report.hpp"

namespace irlint::cli {

class ReportSink {
public:
    // An empty path means stdout. Returns nullopt and `error` when the file cannot be created.
    static std::optional<ReportSink> open(const std::string& path, std::string& error);

    void write(std::string_view text);
    bool is_stdout() const { return !file_; }

    // Finishes the report. Returns an error text on failure (after which a target file is unchanged).
    std::optional<std::string> commit();

private:
    explicit ReportSink(std::optional<AtomicFileWriter> file) : file_(std::move(file)) {}

    std::optional<AtomicFileWriter> file_;
};

// Colors only for a terminal on stdout; SARIF paths relative to the working directory.
ReportOptions report_options_for(const ReportSink& sink, bool quiet);

}  // namespace irlint::cli
