#include "cli/onnx_commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "onnx/onnx_check.hpp"
#include "onnx/onnx_run.hpp"
#include "report/run_report.hpp"
#include "rules/registry.hpp"

namespace irlint::cli {

namespace fs = std::filesystem;

// This is irlint-onnx: it reads ONNX itself.
std::optional<std::string> hand_over_onnx_command() { return std::nullopt; }

std::string onnx_support_summary() { return "yes (.onnx models, TensorProto .pb tensors)"; }

FileResult check_onnx_model_file(const std::string& path) { return check_onnx_file(path); }

namespace {

std::shared_ptr<const OnnxCheck> load_onnx(const std::string& path, int* exit_code) {
    OnnxRead read = read_onnx(path);
    if (!read.model) {
        const std::string why = read.missing ? "no such file or directory" : read.error;
        print_finding_error(fmt::format("{}: {}", path, why),
                            make_finding(rule::ir_structure, why));
        *exit_code = read.missing ? exit_code::usage : exit_code::findings;
        return nullptr;
    }
    return check_onnx(std::move(*read.model));
}

int run_one(const OnnxCheck& c, const RunOptions& o, const RunLimits& limits) {
    std::string error;
    const auto node = find_onnx_node(c.onnx, o.layer, &error);
    if (!node) {
        print_error(fmt::format("{}: {}", o.model, error));
        return exit_code::usage;
    }
    RunRequest request = request_for(o, limits);
    request.input_path = o.inputs[0];
    request.expect_paths = o.expects;
    request.save_paths = o.saves;
    const LayerRun run = run_onnx_node(c, *node, request);
    emit_output("", o.format == "json" ? run_json(run) + "\n" : run_text(run, palette_for(STDOUT_FILENO)));
    return write_run_report(o, {run}, status_exit({run}));
}

std::optional<std::string> existing(const fs::path& base, const std::string& suffix) {
    for (const char* ext : {".npy", ".pb"}) {
        std::error_code ec;
        const std::string p = base.string() + suffix + ext;
        if (fs::is_regular_file(p, ec)) return p;
    }
    return std::nullopt;
}

// DIR/<node-index>.in0.npy (or .pb) for every pooling node, compared with .out<k> for each output k the node
// has, where present; a missing file leaves that output uncompared.
int run_data_dir(const OnnxCheck& c, const RunOptions& o, const RunLimits& limits) {
    std::vector<LayerRun> runs;
    for (const auto& pool : c.pools) {
        const fs::path base = fs::path(o.data_dir) / std::to_string(pool.node);
        const auto input = existing(base, ".in0");
        if (!input) continue;
        RunRequest request = request_for(o, limits);
        request.input_path = *input;
        for (size_t i = 0; i < onnx_output_count(pool.op, c.onnx.nodes[pool.node]); ++i)
            request.expect_paths.push_back(existing(base, fmt::format(".out{}", i)).value_or(""));
        runs.push_back(run_onnx_node(c, pool.node, request));
    }
    if (runs.empty()) {
        print_error(fmt::format("{}: no <node-index>.in0.npy of a pooling node of {}", o.data_dir, o.model));
        return exit_code::usage;
    }
    emit_output("", o.format == "json" ? runs_json(runs) : runs_text(runs, palette_for(STDOUT_FILENO)));
    return write_run_report(o, runs, status_exit(runs));
}

}  // namespace

std::optional<CheckedModel> load_checked_onnx(const std::string& path, int* exit_code) {
    auto c = load_onnx(path, exit_code);
    if (!c) return std::nullopt;
    const ModelReport* report = &c->report;
    return CheckedModel{std::move(c), report};
}

int run_onnx(const RunOptions& o, const RunLimits& limits) {
    int failure = exit_code::ok;
    const auto c = load_onnx(o.model, &failure);
    if (!c) return failure;
    return o.data_dir.empty() ? run_one(*c, o, limits) : run_data_dir(*c, o, limits);
}

}  // namespace irlint::cli
