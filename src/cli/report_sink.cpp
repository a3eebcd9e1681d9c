#include "cli/report_sink.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "cli/common.hpp"

namespace irlint::cli {

std::optional<ReportSink> ReportSink::open(const std::string& path, std::string& error) {
    if (path.empty()) return ReportSink(std::nullopt);
    auto file = AtomicFileWriter::open(path, error);
    if (!file) return std::nullopt;
    return ReportSink(std::move(file));
}

void ReportSink::write(std::string_view text) {
    if (text.empty()) return;
    if (file_) return file_->write(text);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

std::optional<std::string> ReportSink::commit() { return file_ ? file_->commit() : std::nullopt; }

ReportOptions report_options_for(const ReportSink& sink, bool quiet) {
    ReportOptions r;
    r.palette = sink.is_stdout() ? palette_for(STDOUT_FILENO) : Palette::plain();
    r.summary = !quiet;
    std::error_code ec;
    r.base_dir = std::filesystem::current_path(ec).string();
    return r;
}

}  // namespace irlint::cli
