// `irlint ops [TYPE]`: the op registry as a table, as JSON, or as docs/ops.md.

#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "core/text.hpp"
#include "report/op_docs.hpp"
#include "rules/ops/op_registry.hpp"

namespace irlint::cli {

void setup_ops(CLI::App& app, OpsOptions& o) {
    app.add_option("type", o.type, "Only this op type's versions (IR types in any case: Convolution, convolution; ONNX types as spelled: Conv)");
    app.add_option("--format", o.format, "Output format: text, json, or markdown (docs/ops.md)")
        ->check(CLI::IsMember({"text", "json", "markdown"}));
}

int run_ops(const OpsOptions& o) {
    if (o.format == "markdown") return emit_output("", ops_markdown());
    std::vector<OpEntry> entries;
    for (const OpEntry& e : op_registry())
        if (o.type.empty() || (e.format == OpFormat::ir ? iequals(e.type, o.type) : e.type == o.type))
            entries.push_back(e);
    if (entries.empty()) {
        print_error(fmt::format("irlint has no inference for op type '{}'; `irlint ops` lists the ops it has",
                                printable(o.type)));
        return exit_code::usage;
    }
    return emit_output("", o.format == "json" ? ops_json(entries) : ops_table_text(entries));
}

}  // namespace irlint::cli
