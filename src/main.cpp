// irlint: validates the pooling layers of OpenVINO IR models. This file only wires the subcommands.

#include <cstdio>
#include <functional>
#include <new>
#include <string_view>

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

int run_subcommand(const std::function<int()>& subcommand) {
    try {
        return subcommand();
    } catch (const std::bad_alloc&) {
        return internal_error("out of memory (std::bad_alloc)");
    } catch (const std::exception& e) {
        return internal_error(e.what());
    } catch (...) {
        return internal_error("an exception of unknown type");
    }
}

// With --format json, infer, run and shape print a JSON document also when they fail (docs/cli.md); it has
// the lists of the command's report, empty.
void answer_errors_in_json(const CLI::App& app, const irlint::cli::InferOptions& infer,
                           const irlint::cli::ShapeOptions& shape, const irlint::cli::RunOptions& run) {
    using irlint::cli::keep_errors_for_json;
    if (app.got_subcommand("infer") && infer.format == "json") keep_errors_for_json({"layers"});
    if (app.got_subcommand("shape") && shape.format == "json")
        keep_errors_for_json({"outputs", "pads_begin", "pads_end"});
    if (app.got_subcommand("run") && run.format == "json")
        keep_errors_for_json({run.data_dir.empty() ? "outputs" : "runs"});
}

// First line "irlint X.Y.Z" (scripts read it), then where the binary comes from and what it can read.
std::string version_text() {
    std::string text = std::string("irlint ") + IRLINT_VERSION;
    if (*IRLINT_COMMIT) text += std::string("\ncommit ") + IRLINT_COMMIT;
    return text + "\nONNX support: " + irlint::cli::onnx_support_summary();
}

constexpr std::string_view kSubcommands[] = {"check", "infer", "shape", "run", "merge", "rules"};

// The top-level options are flags without values, so the first word that is not an option names the subcommand.
// Empty when that word is not a subcommand (or there is none): then every subcommand is declared in full.
std::string_view invoked_subcommand(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") return {};
        if (arg.starts_with('-')) continue;
        for (std::string_view name : kSubcommands)
            if (arg == name) return name;
        return {};
    }
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    using namespace irlint::cli;
    remember_command_line(argv);
    CLI::App app{"irlint: checks the pooling layers of OpenVINO IR models against OpenVINO's own shape rules"};
    app.footer(kExamples);
    // A function: the text looks for irlint-onnx on disk, which only --version needs.
    app.set_version_flag("-V,--version", std::function<std::string()>(version_text));
    app.require_subcommand(1);

    CheckOptions check;
    InferOptions infer;
    ShapeOptions shape;
    RunOptions run;
    MergeOptions merge;
    RulesOptions rules;
    // Every subcommand is registered (help and errors list them all), but only the invoked one gets its options:
    // declaring all of them costs more start-up than a small `run` spends in its kernel.
    const std::string_view invoked = invoked_subcommand(argc, argv);
    const auto add = [&](const char* name, const char* description, auto setup, auto& options) {
        CLI::App& sub = *app.add_subcommand(name, description);
        if (invoked.empty() || invoked == name) setup(sub, options);
    };
    add("check", "Check IR files or directories and report findings", setup_check, check);
    add("infer", "Print the declared and inferred shapes of a model's pooling layers, and its findings", setup_infer,
        infer);
    add("shape", "Compute the output of one pooling layer from its attributes", setup_shape, shape);
    add("run", "Run a pooling layer on .npy inputs and compare with expected outputs", setup_run, run);
    add("merge", "Combine JSON check reports (e.g. of shards) into one report", setup_merge, merge);
    add("rules", "List the rules, or print one rule's documentation", setup_rules, rules);

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
    answer_errors_in_json(app, infer, shape, run);
    const int code = run_subcommand([&]() -> int {
        if (app.got_subcommand("check")) return run_check(check);
        if (app.got_subcommand("infer")) return run_infer(infer);
        if (app.got_subcommand("shape")) return run_shape(shape);
        if (app.got_subcommand("run")) return run_run(run);
        if (app.got_subcommand("merge")) return run_merge(merge);
        if (app.got_subcommand("rules")) return run_rules(rules);
        return exit_code::usage;
    });
    if (code != exit_code::ok) print_error_document();
    return code;
}
