// irlint: validates the pooling layers of OpenVINO IR models. This file only wires the subcommands.

#include <cstdio>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "build_info.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/onnx_commands.hpp"

namespace {

constexpr const char* kExamples = R"(Examples (`irlint SUBCOMMAND --help` shows each subcommand's options and more):
  irlint check models/                        findings, GCC style, exit 1 on errors
  irlint merge shard-*.json --format sarif -o irlint.sarif
  irlint infer model.xml --layer pool1        the inferred shapes of one layer
  irlint shape --op MaxPool --opset 14 --input 1,64,112,112 --attr kernel=3,3 --attr strides=2,2
  irlint run model.xml --layer pool1 --input x.npy --expect y.npy
  irlint rules output-shape-mismatch          what a rule checks and how to fix its findings

Exit codes: 0 clean, 1 findings or mismatches, 2 usage errors, missing paths or an internal error.)";

// Reaching main() with an exception means irlint itself failed, not the model: the input's problems are
// findings, and the memory limits are checked before allocating.
int internal_error(std::string_view what) {
    irlint::cli::print_error(fmt::format(
        "internal error: {}. This is a bug in irlint {}: please report it with the command line and the input "
        "files",
        what, IRLINT_VERSION));
    return irlint::cli::exit_code::internal;
}

// First line "irlint X.Y.Z" (scripts read it), then where the binary comes from and what it can read.
std::string version_text() {
    std::string text = std::string("irlint ") + IRLINT_VERSION;
    if (*IRLINT_COMMIT) text += std::string("\ncommit ") + IRLINT_COMMIT;
    return text + "\nONNX support: " + irlint::cli::onnx_support_summary();
}

// One subcommand: its name and description for the help, how it binds its options, and what runs it. The
// options live as long as the table.
struct Subcommand {
    std::string_view name;
    const char* description;
    std::function<void(CLI::App&)> setup;
    std::function<int()> run;
    // With --format json, a failing run still prints one JSON document (docs/cli.md): the keys of the lists
    // its report has, which the document holds empty; nullopt when the options ask for no JSON.
    std::function<std::optional<std::vector<std::string>>()> error_document_lists;
};

using ErrorDocumentLists = std::optional<std::vector<std::string>>;

template <class Options>
Subcommand subcommand(std::string_view name, const char* description, void (*setup)(CLI::App&, Options&),
                      int (*run)(const Options&), ErrorDocumentLists (*lists)(const Options&) = nullptr) {
    auto options = std::make_shared<Options>();
    Subcommand sub{name, description, [setup, options](CLI::App& app) { setup(app, *options); },
                   [run, options] { return run(*options); }, {}};
    if (lists) sub.error_document_lists = [lists, options] { return lists(*options); };
    return sub;
}

ErrorDocumentLists json_lists(const std::string& format, std::vector<std::string> lists) {
    if (format != "json") return std::nullopt;
    return lists;
}
ErrorDocumentLists infer_lists(const irlint::cli::InferOptions& o) { return json_lists(o.format, {"layers"}); }
ErrorDocumentLists shape_lists(const irlint::cli::ShapeOptions& o) {
    return json_lists(o.format, irlint::cli::shape_report_lists(o));
}
ErrorDocumentLists run_lists(const irlint::cli::RunOptions& o) {
    return json_lists(o.format, {o.data_dir.empty() ? "outputs" : "runs"});
}

std::vector<Subcommand> subcommands() {
    using namespace irlint::cli;
    std::vector<Subcommand> table;
    table.push_back(subcommand("check", "Check IR files or directories and report findings", setup_check, run_check));
    table.push_back(subcommand(
        "infer", "Print the declared and inferred shapes of a model's layers, and its findings", setup_infer,
        run_infer, infer_lists));
    table.push_back(subcommand("shape", "Compute the outputs of one layer from its inputs and attributes", setup_shape,
                               run_shape, shape_lists));
    table.push_back(subcommand("run", "Run a pooling layer on .npy inputs and compare with expected outputs",
                               setup_run, run_run, run_lists));
    table.push_back(
        subcommand("merge", "Combine JSON check reports (e.g. of shards) into one report", setup_merge, run_merge));
    table.push_back(subcommand("rules", "List the rules, or print one rule's documentation", setup_rules, run_rules));
    table.push_back(subcommand("ops", "List the ops irlint infers, or one op's versions", setup_ops, run_ops));
    return table;
}

// The top-level options are flags without values, so the first word that is not an option names the subcommand.
// Empty when that word is not a subcommand (or there is none): then every subcommand is declared in full.
std::string_view invoked_subcommand(int argc, char** argv, const std::vector<Subcommand>& table) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") return {};
        if (arg.starts_with('-')) continue;
        for (const Subcommand& sub : table)
            if (arg == sub.name) return sub.name;
        return {};
    }
    return {};
}

// Exceptions that reach here are irlint's own failures.
int run_guarded(const Subcommand& sub) {
    try {
        return sub.run();
    } catch (const std::bad_alloc&) {
        return internal_error("out of memory (std::bad_alloc)");
    } catch (const std::exception& e) {
        return internal_error(e.what());
    } catch (...) {
        return internal_error("an exception of unknown type");
    }
}

// Runs the subcommand CLI11 parsed; with --format json a failure still answers with a JSON document.
int run_parsed(const CLI::App& app, const std::vector<Subcommand>& table) {
    using namespace irlint::cli;
    for (const Subcommand& sub : table) {
        if (!app.got_subcommand(std::string(sub.name))) continue;
        const ErrorDocumentLists lists = sub.error_document_lists ? sub.error_document_lists() : std::nullopt;
        if (lists) keep_errors_for_json(*lists);
        const int code = run_guarded(sub);
        if (code != exit_code::ok) print_error_document();
        return code;
    }
    return exit_code::usage;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace irlint::cli;
    remember_command_line(argv);
    CLI::App app{"irlint: checks OpenVINO IR models against OpenVINO's own shape rules"};
    app.footer(kExamples);
    // A function: the text looks for irlint-onnx on disk, which only --version needs.
    app.set_version_flag("-V,--version", std::function<std::string()>(version_text));
    app.require_subcommand(1);

    const std::vector<Subcommand> table = subcommands();
    // Every subcommand is registered (help and errors list them all), but only the invoked one gets its options:
    // declaring all of them costs more start-up than a small `run` spends in its kernel.
    const std::string_view invoked = invoked_subcommand(argc, argv, table);
    for (const Subcommand& sub : table) {
        CLI::App& app_of_sub = *app.add_subcommand(std::string(sub.name), sub.description);
        if (invoked.empty() || invoked == sub.name) sub.setup(app_of_sub);
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return exit_code::usage;
    }
    return run_parsed(app, table);
}
