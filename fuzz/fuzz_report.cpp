// libFuzzer target: any bytes as a report file given to `irlint merge`. The JSON reader returns a value or
// an error with its line and column; a report the reader accepts comes back the same after the JSON
// reporter wrote it, and every format renders it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "report/json_reader.hpp"
#include "report/report.hpp"
#include "report/report_reader.hpp"
#include "fuzz_fail.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string error;
    if (!irlint::parse_json(text, error) && error.rfind("line ", 0) != 0)
        fail("a JSON error without its place", error);

    const auto report = irlint::read_check_report(text, error);
    if (!report) return 0;
    const std::vector<irlint::FileResult>& files = report->files;
    irlint::ReportOptions options;
    options.base_dir = "/";
    const std::string written = irlint::render_report("json", options, files);
    const auto again = irlint::read_check_report(written, error);
    if (!again) fail("the JSON reporter wrote a report the reader refuses", error);
    if (again->files != files) fail("a report changed in a round trip through the JSON reporter", written);
    for (const std::string_view format : irlint::kReportFormats) irlint::render_report(format, options, files);
    return 0;
}
