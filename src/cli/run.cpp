#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/load.hpp"
#include "cli/run_common.hpp"
#include "cli/onnx_commands.hpp"
#include "core/text.hpp"
#include "exec/ir_layer.hpp"
#include "report/map_view.hpp"
#include "report/run_report.hpp"

namespace irlint::cli {

namespace fs = std::filesystem;

void setup_run(CLI::App& app, RunOptions& o) {
    app.footer(R"(Examples:
  irlint run model.xml --layer pool1 --input x.npy --expect y.npy
  irlint run model.xml --layer pool1 --input x.npy --save out.npy --save indices.npy
  irlint run model.onnx --layer pool --input x.pb --expect y.pb --map-png where.png
  irlint run model.xml --data dumps/           every layer with dumps/<layer-id>.in0.npy
  irlint run model.xml --data dumps/ --report run.html      the same, as a page with heatmaps

Exit codes: 0 all compared outputs match, 1 a mismatch or a layer that cannot run, 2 usage errors.)");
    app.add_option("model", o.model, "IR .xml or ONNX .onnx file")->required();
    app.add_option("--layer", o.layer, "The pooling layer to run, by id or name");
    app.add_option("--input", o.inputs,
                   "Input .npy; an adaptive pool may take its output_size as a second --input (1D i32/i64)");
    app.add_option("--expect", o.expects, "Expected output .npy, once per output in port order (values, indices)");
    app.add_option("--save", o.saves, "Write the computed outputs to .npy files, once per output in port order");
    app.add_option("--data", o.data_dir,
                   "Run every pooling layer that has DIR/<layer-id>.in0.npy; compare each output k the layer has "
                   "with DIR/<layer-id>.out<k>.npy where present (missing: not compared)");
    app.add_option("--atol", o.atol, "Absolute tolerance (default by element type: f32 1e-6, f16 1e-3, bf16 1e-2)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--rtol", o.rtol, "Relative tolerance (default by element type: f32 1e-5, f16 1e-3, bf16 1e-2)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--format", o.format, "Output format")->check(CLI::IsMember({"text", "json"}));
    app.add_option("--threads", o.threads, "Kernel threads (default: all hardware threads)")
        ->check(CLI::Range(0, 1024));
    app.add_option("--max-memory", o.max_memory,
                   "Refuse tensors above SIZE bytes in all (suffixes K, M, G, T; default: half the physical memory)");
    app.add_option("--report", o.report,
                   "Write an HTML report (one self-contained page, atomically): per layer the statistics, the first "
                   "and worst mismatch, heatmaps of where the errors are and a histogram");
    app.add_option("--map-png", o.map_png,
                   "Write where the outputs mismatch as a bare PNG heatmap, one panel per mismatching output (for "
                   "CI artifacts; --report draws them with axes and a legend)");
}

namespace {

std::optional<size_t> parse_size(const std::string& text) {
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    const auto number = parse_int(std::string_view(text).substr(0, digits));
    if (!number || *number < 0) return std::nullopt;
    std::string unit = to_lower(std::string_view(text).substr(digits));
    if (unit.ends_with("ib"))
        unit.resize(unit.size() - 2);
    else if (unit.ends_with("b"))
        unit.resize(unit.size() - 1);
    const std::string units = "kmgt";
    int shift = 0;
    if (unit.size() == 1 && units.find(unit[0]) != std::string::npos)
        shift = 10 * (1 + static_cast<int>(units.find(unit[0])));
    else if (!unit.empty())
        return std::nullopt;
    const auto value = static_cast<size_t>(*number);
    if (shift && value > (SIZE_MAX >> shift)) return std::nullopt;
    return value << shift;
}

// An IR model: layers by id or name; only pooling layers run.
class IrRunModel final : public RunModel {
public:
    explicit IrRunModel(Model model) : model_(std::move(model)), report_(check_model(model_)) {}

    LayerLookup find(const std::string& wanted) const override {
        LayerLookup found;
        const LayerShapes* layer = find_layer_to_run(report_, wanted, &found.error);
        if (!layer) return found;
        if (auto why = not_runnable(*layer)) {
            const Layer& l = *layer->layer;
            found.refusal = Diagnostic{Severity::error, "", *why, l.line, layer_ref(l)};
            return found;
        }
        found.layer = ir_layer(*layer);
        return found;
    }

    std::vector<std::unique_ptr<RunnableLayer>> runnable_layers() const override {
        std::vector<std::unique_ptr<RunnableLayer>> layers;
        for (const auto& l : report_.layers)
            if (is_runnable(l)) layers.push_back(ir_layer(l));
        return layers;
    }

    DataNaming data_naming() const override { return {"layer-id", "layer", {".npy"}}; }

private:
    Model model_;  // the report points into it
    ModelReport report_;
};

// The maps of every output with mismatches, in report order, as one PNG; nothing is written when every
// compared output matches. Returns the exit code: 2 when the file cannot be written.
int write_map_png(const std::string& path, const std::vector<LayerRun>& runs, int status) {
    if (path.empty()) return status;
    std::vector<const MismatchMap*> maps;
    for (const LayerRun& r : runs)
        for (const OutputRun& o : r.outputs)
            if (o.map && o.map->mismatches) maps.push_back(&*o.map);
    if (maps.empty()) return status;
    std::string error;
    const auto png = encode_png(map_heatmap(maps), &error);
    if (!png) {
        print_error(fmt::format("{}: {}", path, error));
        return exit_code::usage;
    }
    if (auto failed = write_file_atomically(path, *png)) {
        print_error(*failed);
        return exit_code::usage;
    }
    return status;
}

// The runs on standard output, then the files asked for (--map-png, --report); the exit code.
int report_runs(const RunOptions& o, const std::vector<LayerRun>& runs) {
    std::string content;
    if (o.data_dir.empty())
        content =
            o.format == "json" ? run_json(runs.front()) + "\n" : run_text(runs.front(), palette_for(STDOUT_FILENO));
    else
        content = o.format == "json" ? runs_json(runs) : runs_text(runs, palette_for(STDOUT_FILENO));
    emit_output("", content);
    return write_run_report(o, runs, write_map_png(o.map_png, runs, status_exit(runs)));
}

int run_one(const RunModel& model, const RunOptions& o, const RunLimits& setup) {
    LayerLookup found = model.find(o.layer);
    if (found.refusal) {
        print_finding_error(fmt::format("{}: {}", o.model, found.refusal->message), *found.refusal);
        return exit_code::findings;
    }
    if (!found.layer) {
        print_error(fmt::format("{}: {}", o.model, found.error));
        return exit_code::usage;
    }
    RunRequest request = request_for(o, setup);
    request.input_path = o.inputs[0];
    if (o.inputs.size() > 1) request.output_size_path = o.inputs[1];
    request.expect_paths = o.expects;
    request.save_paths = o.saves;
    std::vector<LayerRun> runs;
    runs.push_back(run_layer(*found.layer, request));  // moved, not copied: a report holds maps of up to 64K cells
    return report_runs(o, runs);
}

// base + suffix + the first of the extensions that names a file.
std::optional<std::string> existing(const std::string& base, const std::vector<std::string>& extensions) {
    for (const std::string& ext : extensions) {
        std::error_code ec;
        const std::string p = base + ext;
        if (fs::is_regular_file(p, ec)) return p;
    }
    return std::nullopt;
}

// DIR/<id>.in0.npy for every runnable layer, compared with .out<k> for each output k the layer has, where
// present; a missing file leaves that output uncompared.
int run_data_dir(const RunModel& model, const RunOptions& o, const RunLimits& setup) {
    const DataNaming naming = model.data_naming();
    std::vector<LayerRun> runs;
    for (const auto& layer : model.runnable_layers()) {
        const Layer& l = *layer->shapes().layer;
        if (!is_decimal_id(l.id)) {  // text from the model never picks a path
            print_warning(
                fmt::format("{} '{}': its id '{}' is not a non-negative integer, so {} is not searched "
                            "for its data",
                            naming.unit, l.name, l.id, o.data_dir));
            continue;
        }
        const std::string base = (fs::path(o.data_dir) / l.id).string();
        const auto input = existing(base + ".in0", naming.extensions);
        if (!input) continue;
        RunRequest request = request_for(o, setup);
        request.input_path = *input;
        if (layer->takes_output_size()) request.output_size_path = existing(base + ".in1", naming.extensions);
        for (size_t i = 0; i < layer->output_count(); ++i)
            request.expect_paths.push_back(existing(fmt::format("{}.out{}", base, i), naming.extensions).value_or(""));
        runs.push_back(run_layer(*layer, request));
    }
    if (runs.empty()) {
        print_error(
            fmt::format("{}: no <{}>.in0.npy of a pooling {} of {}", o.data_dir, naming.key, naming.unit, o.model));
        return exit_code::usage;
    }
    return report_runs(o, runs);
}

std::unique_ptr<RunModel> load_run_model(const std::string& path, int* exit_code) {
    if (names_onnx_model(path)) return load_onnx_run_model(path, exit_code);
    std::optional<Model> model = load_model(path, exit_code);
    if (!model) return nullptr;
    return std::make_unique<IrRunModel>(std::move(*model));
}

std::optional<std::string> usage_problem(const RunOptions& o) {
    if (!o.data_dir.empty()) {
        if (!o.layer.empty() || !o.inputs.empty() || !o.expects.empty() || !o.saves.empty())
            return "--data runs every layer with dumps in DIR: it takes no --layer, --input, --expect or --save";
        std::error_code ec;
        if (!fs::is_directory(o.data_dir, ec)) return fmt::format("{}: no such directory", o.data_dir);
        return std::nullopt;
    }
    if (o.layer.empty() || o.inputs.empty()) return "give --layer and --input, or --data DIR";
    if (o.inputs.size() > 2) return "at most two --input: the data, and an adaptive pool's output_size";
    return std::nullopt;
}

}  // namespace

int run_run(const RunOptions& o) {
    if (auto problem = usage_problem(o)) {
        print_error(*problem);
        return exit_code::usage;
    }
    RunLimits setup;
    setup.max_bytes = default_memory_budget();
    if (!o.max_memory.empty()) {
        const auto size = parse_size(o.max_memory);
        if (!size) {
            print_error(fmt::format("--max-memory {}: expected a size such as 512M or 8G", o.max_memory));
            return exit_code::usage;
        }
        setup.max_bytes = *size;
    }
    if (o.atol >= 0) setup.atol = o.atol;
    if (o.rtol >= 0) setup.rtol = o.rtol;
    int failure = exit_code::ok;
    const std::unique_ptr<RunModel> model = load_run_model(o.model, &failure);
    if (!model) return failure;
    return o.data_dir.empty() ? run_one(*model, o, setup) : run_data_dir(*model, o, setup);
}

}  // namespace irlint::cli
