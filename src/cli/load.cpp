#include "cli/load.hpp"

#include <fmt/format.h>

#include "cli/common.hpp"
#include "ir/reader.hpp"

namespace irlint::cli {

std::optional<Model> load_model(const std::string& path, int* exit_code) {
    ReadResult read = read_model(path);
    if (read.status == ReadStatus::failed && read.diagnostics.size() == 1 && read.diagnostics[0].line == 0) {
        print_error(fmt::format("{}: {}", path, read.diagnostics[0].message));
        *exit_code = exit_code::usage;
        return std::nullopt;
    }
    if (!read.model) {
        for (const auto& d : read.diagnostics) print_error(fmt::format("{}:{}: {} [{}]", path, d.line, d.message, d.rule));
        *exit_code = exit_code::findings;
        return std::nullopt;
    }
    return std::move(read.model);
}

}  // namespace irlint::cli
