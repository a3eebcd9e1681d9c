// irlint: validates the pooling layers of OpenVINO IR models. This file only wires the subcommands.

#include <cstdio>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"

namespace {

constexpr const char* kExamples = R"(Examples:
  irlint check model.xml                      findings, GCC style, exit 1 on errors
  irlint check models/ --format json -o r.json
  irlint infer model.xml --layer pool1        the inferred shapes of one layer
  irlint rules output-shape-mismatch          what a rule checks and how to fix its findings
  irlint shape --op MaxPool --opset 14 --input 1,64,112,112 \
               --attr kernel=3,3 --attr strides=2,2 --attr rounding_type=ceil_torch

Exit codes: 0 clean, 1 findings or mismatches, 2 usage errors or missing paths.)";

}  // namespace

int main(int argc, char** argv) {
    using namespace irlint::cli;
    CLI::App app{"irlint: checks the pooling layers of OpenVINO IR models against OpenVINO's own shape rules"};
    app.footer(kExamples);
    app.set_version_flag("-V,--version", std::string("irlint ") + IRLINT_VERSION);
    app.require_subcommand(1);

    CheckOptions check;
    InferOptions infer;
    ShapeOptions shape;
    RunOptions run;
    MergeOptions merge;
    RulesOptions rules;
    setup_check(*app.add_subcommand("check", "Check IR files or directories and report findings"), check);
    setup_infer(*app.add_subcommand("infer", "Print the declared and inferred shapes of a model's layers"), infer);
    setup_shape(*app.add_subcommand("shape", "Compute the output of one pooling layer from its attributes"), shape);
    setup_run(*app.add_subcommand("run", "Run a pooling layer on .npy inputs and compare with expected outputs"), run);
    setup_merge(*app.add_subcommand("merge", "Combine JSON check reports (e.g. of shards) into one report"), merge);
    setup_rules(*app.add_subcommand("rules", "List the rules, or print one rule's documentation"), rules);

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
    try {
        if (app.got_subcommand("check")) return run_check(check);
        if (app.got_subcommand("infer")) return run_infer(infer);
        if (app.got_subcommand("shape")) return run_shape(shape);
        if (app.got_subcommand("run")) return run_run(run);
        if (app.got_subcommand("merge")) return run_merge(merge);
        if (app.got_subcommand("rules")) return run_rules(rules);
    } catch (const std::exception& e) {
        print_error(fmt::format("internal error: {}", e.what()));
        return exit_code::findings;
    }
    return exit_code::usage;
}
