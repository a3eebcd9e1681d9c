#include "exec/layer_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "exec/compare/compare_sink.hpp"
#include "exec/io/npy.hpp"
#include "exec/kernels/kernel_support.hpp"

namespace irlint {

std::string_view run_status_name(RunStatus s) {
    switch (s) {
        case RunStatus::ok:
            return "ok";
        case RunStatus::mismatch:
            return "mismatch";
        case RunStatus::error:
            return "error";
        case RunStatus::not_compared:
            return "not-compared";
    }
    return "error";
}

std::optional<Tensor> RunnableLayer::read_tensor(const std::string& path, size_t max_bytes, std::string* error) const {
    NpyRead r = read_npy(path, max_bytes);
    if (!r.tensor) *error = std::move(r.error);
    return std::move(r.tensor);
}

namespace {

// How many outputs the paths reach: up to the last one that names a file.
size_t named_outputs(const std::vector<std::string>& paths) {
    const auto last = std::find_if(paths.rbegin(), paths.rend(), [](const std::string& p) { return !p.empty(); });
    return static_cast<size_t>(paths.rend() - last);
}

// The path of output i in `paths`, or "" when none is named.
const std::string& path_of(const std::vector<std::string>& paths, size_t i) {
    static const std::string none;
    return i < paths.size() ? paths[i] : none;
}

}  // namespace

std::optional<std::string> excess_files(const RunRequest& request, size_t outputs, std::string_view op_name) {
    if (named_outputs(request.expect_paths) <= outputs && named_outputs(request.save_paths) <= outputs)
        return std::nullopt;
    return fmt::format("{} has {} output{}; more --expect or --save files were given", op_name, outputs,
                       outputs == 1 ? "" : "s");
}

namespace {

// An output's description, with the request's tolerance or the element type's default.
OutputRun output_run(size_t index, ElementType type, const std::vector<int64_t>& shape, const RunRequest& request) {
    OutputRun o;
    o.index = index;
    o.role = index == 0 ? "values" : "indices";
    o.shape = shape;
    o.type = type;
    const Tolerance defaults = default_tolerance(type);
    o.tolerance = {request.atol.value_or(defaults.atol), request.rtol.value_or(defaults.rtol)};
    return o;
}

// An expected tensor for a bf16 output: f32 data (NumPy has no bf16) rounded to bf16, ties to even; u16 data
// given in memory holds the bits of bf16 values (a file's u16 data stays u16). Any other tensor as it is.
Tensor as_bf16(Tensor expected, ElementType computed, bool in_memory) {
    if (computed != ElementType::bf16) return expected;
    if (expected.type() == ElementType::f32) return convert_f32_to_bf16(expected);
    if (expected.type() == ElementType::u16 && in_memory) return expected.retyped(ElementType::bf16);
    return expected;
}

// Where the compared output's mismatches are (a second pass over the data only when there are any).
MismatchMap mismatch_map(const Tensor& computed, const Tensor& expected, const OutputRun& o) {
    MismatchMapBuilder map(computed.shape());
    if (o.comparison.mismatches > 0)
        for_each_mismatch(computed, expected, o.tolerance, [&map](size_t i) { map.add(i); });
    return std::move(map).map();
}

class Runner {
public:
    Runner(RunnableLayer& layer, const RunRequest& request) : layer_(layer), req_(request) {}

    LayerRun run() {
        const Layer& l = *layer_.shapes().layer;
        r_.layer = layer_ref(l);
        r_.version = l.version;
        r_.op_name = layer_.op_name();
        r_.input_path = req_.input_path;
        if (!execute()) r_.status = RunStatus::error;
        return std::move(r_);
    }

private:
    bool fail(std::string message, RunFailure failure = RunFailure::data) {
        r_.error = std::move(message);
        r_.failure = failure;
        return false;
    }

    bool execute() {
        if (auto why = layer_.unusable()) return fail(*why, RunFailure::layer);
        const size_t outputs = layer_.output_count();
        if (auto excess = excess_files(req_, outputs, layer_.excess_subject())) return fail(*excess, RunFailure::usage);
        std::optional<Tensor> x = load_input();
        if (!x) return false;
        if (auto error = layer_.prepare(*x, req_)) return fail(*error);
        std::optional<PoolRunResult> whole;
        if (compares_only() && run_compared(*x, outputs, whole)) return true;

        PoolRunResult result = whole ? std::move(*whole) : run_kernels(*x);
        if (!result.ok()) return fail(result.error);
        result.outputs.resize(std::min(result.outputs.size(), outputs));
        std::vector<std::optional<Tensor>> expected(result.outputs.size());
        for (size_t i = 0; i < result.outputs.size(); ++i)
            if (!finish_output(i, result.outputs[i], expected[i])) return false;
        if (auto setup = layer_.convention_setup(*x)) explain(*setup, result.outputs, expected);
        if (req_.keep_tensors) {
            r_.input = std::move(*x);
            r_.computed = std::move(result.outputs);
        }
        return true;
    }

    KernelOptions kernel_options() const { return {req_.threads, req_.max_bytes}; }

    // The layer's kernels, timed into the report.
    PoolRunResult run_kernels(const Tensor& x, const SinkChooser& choose = {}) {
        const auto start = std::chrono::steady_clock::now();
        PoolRunResult result = layer_.compute(x, kernel_options(), choose);
        r_.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

    bool compares_only() const {
        return !req_.keep_tensors && named_outputs(req_.save_paths) == 0 && named_outputs(req_.expect_paths) > 0;
    }

    // A run that saves nothing keeps no output (see ComparingSink). True when that settled every comparison.
    // Otherwise the usual run follows, which also explains mismatches: on `whole`, when the kernels kept
    // their outputs (no sink was taken), else on a second run.
    bool run_compared(const Tensor& x, size_t outputs, std::optional<PoolRunResult>& whole) {
        std::vector<OutputRun> runs;
        std::vector<std::optional<Tensor>> expected;
        std::optional<ComparingSink> sink;
        const auto choose = [&](const std::vector<OutputSpec>& specs) -> kernels::OutputSink* {
            expected.resize(specs.size());
            std::vector<ComparingSink::Output> plan;
            for (size_t i = 0; i < specs.size(); ++i) {
                const OutputRun& run = runs.emplace_back(output_run(i, specs[i].type, specs[i].shape, req_));
                ComparingSink::Output& o = plan.emplace_back(ComparingSink::Output{specs[i], nullptr, run.tolerance});
                if (i >= outputs || path_of(req_.expect_paths, i).empty()) continue;
                std::string ignored;  // the usual run reports it
                auto e = i < req_.expected.size() && req_.expected[i]
                             ? req_.expected[i]
                             : layer_.read_tensor(req_.expect_paths[i], req_.max_bytes, &ignored);
                if (!e || e->type() != specs[i].type || e->shape() != specs[i].shape) return nullptr;
                expected[i] = std::move(e);
                o.expected = &*expected[i];
            }
            return &sink.emplace(std::move(plan));
        };
        PoolRunResult result = run_kernels(x, choose);
        if (!sink) whole = std::move(result);
        if (!sink || !sink->conclusive()) return false;
        r_.milliseconds -= sink->compare_milliseconds();
        runs.resize(std::min(runs.size(), outputs));
        for (size_t i = 0; i < runs.size(); ++i) {
            if (expected[i]) {
                runs[i].expect_path = req_.expect_paths[i];
                runs[i].comparison = sink->result(i);
                runs[i].map = MismatchMapBuilder(runs[i].shape).map();
            }
            add_output(std::move(runs[i]));
        }
        return true;
    }

    // Runs the layer under the known conventions of other producers, only when something mismatches.
    void explain(const LayerSetup& layer, const std::vector<Tensor>& computed,
                 const std::vector<std::optional<Tensor>>& expected) {
        std::vector<MismatchedOutput> mismatched;
        for (size_t i = 0; i < r_.outputs.size(); ++i) {
            const OutputRun& o = r_.outputs[i];
            if (!expected[i] || o.comparison.matches() || expected[i]->type() != computed[i].type()) continue;
            mismatched.push_back({i, &computed[i], &*expected[i], o.tolerance});
        }
        const auto found = explain_mismatches(layer, mismatched, kernel_options());
        for (size_t k = 0; k < mismatched.size(); ++k) {
            OutputRun& o = r_.outputs[mismatched[k].index];
            o.explanations = found[k];
            o.diagnosed = true;
        }
    }

    std::optional<Tensor> read(const std::string& path) {
        std::string error;
        std::optional<Tensor> t = layer_.read_tensor(path, req_.max_bytes, &error);
        if (!t) fail(fmt::format("{}: {}", path, error));
        return t;
    }

    std::optional<Tensor> load_input() {
        std::optional<Tensor> in = req_.input ? req_.input : read(req_.input_path);
        if (!in) return std::nullopt;
        std::string error;
        std::optional<Tensor> x = layer_.take_input(std::move(*in), req_.input_path, &error);
        if (!x) {
            fail(std::move(error));
            return std::nullopt;
        }
        r_.input_shape = x->shape();
        r_.input_type = x->type();
        return x;
    }

    bool finish_output(size_t i, const Tensor& computed, std::optional<Tensor>& expected) {
        OutputRun o = output_run(i, computed.type(), computed.shape(), req_);
        if (const std::string& path = path_of(req_.expect_paths, i); !path.empty()) {
            expected = compare_with(i, path, computed, o);
            if (!expected) return false;
        }
        if (const std::string& path = path_of(req_.save_paths, i); !path.empty()) {
            if (auto error = write_npy(path, computed)) return fail(*error, RunFailure::usage);
            o.saved_path = path;
        }
        add_output(std::move(o));
        return true;
    }

    // Output i's expected tensor, compared with `computed` into `o`; nullopt when it cannot be read.
    std::optional<Tensor> compare_with(size_t i, const std::string& path, const Tensor& computed, OutputRun& o) {
        const bool in_memory = i < req_.expected.size() && req_.expected[i];
        std::optional<Tensor> expected = in_memory ? req_.expected[i] : read(path);
        if (!expected) return std::nullopt;
        expected = as_bf16(std::move(*expected), computed.type(), in_memory);
        o.expect_path = path;
        o.comparison = compare_tensors(computed, *expected, o.tolerance, kernels::resolve_threads(req_.threads));
        if (o.comparison.compared()) o.map = mismatch_map(computed, *expected, o);
        if (req_.error_detail && o.comparison.compared() && o.comparison.mismatches > 0)
            o.detail = error_detail(computed, *expected, o.tolerance);
        return expected;
    }

    // A mismatch turns an ok run into a mismatch.
    void add_output(OutputRun output) {
        if (!output.expect_path.empty() && !output.comparison.matches() && r_.status == RunStatus::ok)
            r_.status = RunStatus::mismatch;
        r_.outputs.push_back(std::move(output));
    }

    RunnableLayer& layer_;
    const RunRequest& req_;
    LayerRun r_;
};

}  // namespace

void finish_run(const LayerShapes& layer, LayerRun& run) {
    if (run.status == RunStatus::error) return;
    const std::span<const Port> ports = layer.layer->outputs;
    for (const OutputRun& o : run.outputs) {
        if (o.index < layer.declared.size() && !layer.declared[o.index].rank_dynamic) {
            const Shape& declared = layer.declared[o.index];
            Shape computed;
            for (int64_t d : o.shape) computed.dims.emplace_back(d);
            if (!computed.compatible(declared))
                run.warnings.push_back(
                    fmt::format("output {} is declared {}, but the layer computes {} from this input", o.index,
                                declared.str(), computed.str()));
        }
        if (o.index < ports.size() && ports[o.index].precision && *ports[o.index].precision != o.type &&
            *ports[o.index].precision != ElementType::dynamic)
            run.warnings.push_back(fmt::format("output {} is declared {}, but the layer computes {}", o.index,
                                               element_type_name(*ports[o.index].precision),
                                               element_type_name(o.type)));
    }
    const bool compared =
        std::any_of(run.outputs.begin(), run.outputs.end(), [](const OutputRun& o) { return !o.expect_path.empty(); });
    if (run.status == RunStatus::ok && !compared) run.status = RunStatus::not_compared;
}

size_t default_memory_budget() {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return size_t{4} << 30;
    return static_cast<size_t>(pages) / 2 * static_cast<size_t>(page_size);
}

LayerRun run_layer(RunnableLayer& layer, const RunRequest& request) {
    LayerRun run = Runner(layer, request).run();
    finish_run(layer.shapes(), run);
    return run;
}

}  // namespace irlint
