#include "exec/layer_run.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/text.hpp"
#include "exec/compare/compare_sink.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/io/npy.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "rules/pool_attrs.hpp"

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

bool is_runnable(const LayerShapes& layer) { return layer.pool_op.has_value() && layer.layer != nullptr; }

size_t layer_output_count(const LayerShapes& layer) {
    return std::clamp<size_t>(layer.layer->outputs.size(), 1, layer.pool_op->output_count());
}

namespace {

// How many outputs the paths reach: up to the last one that names a file.
size_t named_outputs(const std::vector<std::string>& paths) {
    const auto last = std::find_if(paths.rbegin(), paths.rend(), [](const std::string& p) { return !p.empty(); });
    return static_cast<size_t>(paths.rend() - last);
}

}  // namespace

std::optional<std::string> excess_files(const RunRequest& request, size_t outputs, std::string_view op_name) {
    if (named_outputs(request.expect_paths) <= outputs && named_outputs(request.save_paths) <= outputs)
        return std::nullopt;
    return fmt::format("{} has {} output{}; more --expect or --save files were given", op_name, outputs,
                       outputs == 1 ? "" : "s");
}

namespace {

std::string shape_text(const std::vector<int64_t>& shape) { return fmt::format("[{}]", join_ints(shape)); }

// Why `x` cannot be the layer's input, or nullopt. A dynamic dim takes its length from the data.
std::optional<std::string> input_mismatch(const Tensor& x, const Shape& declared) {
    if (declared.rank_dynamic) return std::nullopt;
    if (x.rank() != declared.rank())
        return fmt::format("the input has rank {} {}, the layer's input port declares rank {} {}", x.rank(),
                           shape_text(x.shape()), declared.rank(), declared.str());
    for (size_t i = 0; i < x.rank(); ++i) {
        const Dim& d = declared.dims[i];
        const int64_t n = x.shape()[i];
        if (n < d.min() || n > d.max())
            return fmt::format("the input has shape {}, the layer's input port declares {}: dim {} is {}, not {}",
                               shape_text(x.shape()), declared.str(), i, n, d.str());
    }
    return std::nullopt;
}

// The tensor as the layer takes it: bf16 data comes as f32 (NumPy has no bf16) and is rounded here.
// `origin` completes "the layer ...": "declares f32", or where the type comes from.
std::optional<Tensor> as_element_type(Tensor t, ElementType want, const std::string& what, const std::string& origin,
                                      std::string* error) {
    if (want == t.type()) return t;
    if (want == ElementType::bf16 && t.type() == ElementType::f32) return convert_f32_to_bf16(t);
    *error = fmt::format("{} holds {} data, the layer {}{}", what, element_type_name(t.type()), origin,
                         want == ElementType::bf16 ? " (give bf16 data as f32: it is rounded to nearest even)" : "");
    return std::nullopt;
}

std::optional<std::vector<int64_t>> read_output_size(const std::string& path, std::string* error) {
    NpyRead r = read_npy(path, 1 << 20);
    if (!r.tensor) {
        *error = fmt::format("{}: {}", path, r.error);
        return std::nullopt;
    }
    const Tensor& t = *r.tensor;
    if (t.rank() != 1 || (t.type() != ElementType::i32 && t.type() != ElementType::i64)) {
        *error = fmt::format("{}: output_size must be a 1D i32 or i64 array, not {} {}", path,
                             element_type_name(t.type()), shape_text(t.shape()));
        return std::nullopt;
    }
    std::vector<int64_t> values;
    for (size_t i = 0; i < t.size(); ++i) values.push_back(static_cast<int64_t>(t.value_as_double(i)));
    return values;
}

class Runner {
public:
    Runner(const LayerShapes& layer, const RunRequest& request) : ls_(layer), req_(request) {}

    LayerRun run() {
        const Layer& l = *ls_.layer;
        const PoolOp op = *ls_.pool_op;
        r_.layer = layer_ref(l);
        r_.version = l.version;
        r_.op_name = fmt::format("{}-{}", op.type_name(), op.version);
        r_.input_path = req_.input_path;
        if (!execute(op)) r_.status = RunStatus::error;
        return std::move(r_);
    }

private:
    bool fail(std::string message) {
        r_.error = std::move(message);
        return false;
    }

    bool execute(const PoolOp& op) {
        const ParsedAttrs attrs = parse_pool_attrs(op, ls_.layer->attrs);
        if (!attrs.usable()) return fail(fmt::format("the layer's attributes are invalid: {}", first_error(attrs)));
        const size_t outputs = layer_output_count(ls_);
        if (auto excess = excess_files(req_, outputs, r_.op_name)) return fail(*excess);
        std::optional<Tensor> x = load_input();
        if (!x) return false;
        std::optional<std::vector<int64_t>> output_size;
        if (op.is_adaptive() && !(output_size = adaptive_output_size())) return false;
        if (compares_only() && run_compared(op, attrs.desc, *x, output_size, outputs)) return true;

        PoolRunResult result = run_kernels(op, attrs.desc, *x, output_size);
        if (!result.ok()) return fail(result.error);
        result.outputs.resize(std::min(result.outputs.size(), outputs));
        std::vector<std::optional<Tensor>> expected(result.outputs.size());
        for (size_t i = 0; i < result.outputs.size(); ++i)
            if (!finish_output(i, result.outputs[i], expected[i])) return false;
        if (!op.is_adaptive()) explain(LayerSetup{op, attrs.desc, &*x}, result.outputs, expected, kernel_options());
        return true;
    }

    KernelOptions kernel_options() const { return {req_.threads, req_.max_bytes}; }

    // The layer's kernels, timed into the report.
    PoolRunResult run_kernels(const PoolOp& op, const PoolingDesc& desc, const Tensor& x,
                              const std::optional<std::vector<int64_t>>& output_size, const SinkChooser& choose = {}) {
        const auto start = std::chrono::steady_clock::now();
        PoolRunResult result = op.is_adaptive() ? run_adaptive_pool(op, desc, x, *output_size, kernel_options(), choose)
                                                : run_pool(op, desc, x, kernel_options(), choose);
        r_.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

    bool compares_only() const { return named_outputs(req_.save_paths) == 0 && named_outputs(req_.expect_paths) > 0; }

    // A run that saves nothing keeps no output (see ComparingSink). True when that settled every comparison;
    // false leaves the run's outputs untouched for the usual run, which also explains mismatches.
    bool run_compared(const PoolOp& op, const PoolingDesc& desc, const Tensor& x,
                      const std::optional<std::vector<int64_t>>& output_size, size_t outputs) {
        std::vector<OutputRun> runs;
        std::vector<std::optional<Tensor>> expected;
        std::optional<ComparingSink> sink;
        const auto choose = [&](const std::vector<OutputSpec>& specs) -> kernels::OutputSink* {
            expected.resize(specs.size());
            std::vector<ComparingSink::Output> plan;
            for (size_t i = 0; i < specs.size(); ++i) {
                const OutputRun& run = runs.emplace_back(output_run(i, specs[i].type, specs[i].shape, req_));
                ComparingSink::Output& o = plan.emplace_back(ComparingSink::Output{specs[i], nullptr, run.tolerance});
                if (i >= outputs || i >= req_.expect_paths.size() || req_.expect_paths[i].empty()) continue;
                NpyRead e = read_npy(req_.expect_paths[i], req_.max_bytes);
                if (!e.tensor || e.tensor->type() != specs[i].type || e.tensor->shape() != specs[i].shape) return nullptr;
                expected[i] = std::move(e.tensor);
                o.expected = &*expected[i];
            }
            return &sink.emplace(std::move(plan));
        };
        const PoolRunResult result = run_kernels(op, desc, x, output_size, choose);
        if (!result.ok() || !sink || !sink->conclusive()) return false;
        r_.milliseconds -= sink->compare_milliseconds();
        runs.resize(std::min(runs.size(), outputs));
        for (size_t i = 0; i < runs.size(); ++i) {
            if (expected[i]) {
                runs[i].expect_path = req_.expect_paths[i];
                runs[i].comparison = sink->result(i);
                runs[i].map = MismatchMapBuilder(runs[i].shape).map();
            }
            add_output(r_, std::move(runs[i]));
        }
        return true;
    }

    // Runs the layer under the known conventions of other producers, only when something mismatches.
    void explain(const LayerSetup& layer, const std::vector<Tensor>& computed,
                 const std::vector<std::optional<Tensor>>& expected, const KernelOptions& options) {
        std::vector<MismatchedOutput> mismatched;
        for (size_t i = 0; i < r_.outputs.size(); ++i) {
            const OutputRun& o = r_.outputs[i];
            if (!expected[i] || o.comparison.matches() || expected[i]->type() != computed[i].type()) continue;
            mismatched.push_back({i, &computed[i], &*expected[i], o.tolerance});
        }
        const auto found = explain_mismatches(layer, mismatched, options);
        for (size_t k = 0; k < mismatched.size(); ++k) {
            OutputRun& o = r_.outputs[mismatched[k].index];
            o.explanations = found[k];
            o.diagnosed = true;
        }
    }

    static std::string first_error(const ParsedAttrs& attrs) {
        for (const auto& issue : attrs.issues)
            if (issue.severity == Severity::error) return issue.message;
        return "unusable attributes";
    }

    std::optional<Tensor> load_input() {
        NpyRead in = read_npy(req_.input_path, req_.max_bytes);
        if (!in.tensor) {
            fail(fmt::format("{}: {}", req_.input_path, in.error));
            return std::nullopt;
        }
        std::string origin;
        const std::optional<ElementType> declared = declared_input_type(&origin);
        std::string error;
        auto x = declared ? as_element_type(std::move(*in.tensor), *declared, req_.input_path, origin, &error)
                          : std::move(in.tensor);
        if (!x) {
            fail(error);
            return std::nullopt;
        }
        if (auto why = ls_.inputs.empty() ? std::nullopt : input_mismatch(*x, ls_.inputs[0])) {
            fail(fmt::format("{}: {}", req_.input_path, *why));
            return std::nullopt;
        }
        r_.input_shape = x->shape();
        r_.input_type = x->type();
        return x;
    }

    // The input port's precision; an IR v10 port has none, and then its producer's type holds.
    std::optional<ElementType> declared_input_type(std::string* origin) const {
        const Layer& l = *ls_.layer;
        std::optional<ElementType> type = l.inputs.empty() ? std::nullopt : l.inputs[0].precision;
        if (type) *origin = fmt::format("declares {}", element_type_name(*type));
        if (!type && !ls_.input_types.empty() && (type = ls_.input_types[0]))
            *origin = fmt::format("takes {}: its input port declares no precision, its producer gives {}",
                                  element_type_name(*type), element_type_name(*type));
        if (type == ElementType::dynamic) return std::nullopt;
        return type;
    }

    std::optional<std::vector<int64_t>> adaptive_output_size() {
        if (req_.output_size_path) {
            std::string error;
            auto values = read_output_size(*req_.output_size_path, &error);
            if (!values) fail(error);
            return values;
        }
        if (ls_.output_size) return ls_.output_size;
        fail(
            "the values of output_size are unknown (no readable Const in the .bin): give them as a second "
            "--input, a 1D i32 or i64 .npy");
        return std::nullopt;
    }

    bool finish_output(size_t i, const Tensor& computed, std::optional<Tensor>& expected) {
        OutputRun o = output_run(i, computed.type(), computed.shape(), req_);
        if (i < req_.expect_paths.size() && !req_.expect_paths[i].empty()) {
            expected = compare_with(req_.expect_paths[i], computed, o);
            if (!expected) return false;
        }
        if (i < req_.save_paths.size() && !req_.save_paths[i].empty()) {
            if (auto error = write_npy(req_.save_paths[i], computed)) return fail(*error);
            o.saved_path = req_.save_paths[i];
        }
        add_output(r_, std::move(o));
        return true;
    }

    // The expected tensor, compared with `computed` into `o`; nullopt when it cannot be read.
    std::optional<Tensor> compare_with(const std::string& path, const Tensor& computed, OutputRun& o) {
        NpyRead e = read_npy(path, req_.max_bytes);
        if (!e.tensor) {
            fail(fmt::format("{}: {}", path, e.error));
            return std::nullopt;
        }
        Tensor expected = std::move(*e.tensor);
        if (computed.type() == ElementType::bf16 && expected.type() == ElementType::f32)
            expected = convert_f32_to_bf16(expected);
        o.expect_path = path;
        o.comparison = compare_tensors(computed, expected, o.tolerance, kernels::resolve_threads(req_.threads));
        if (o.comparison.compared()) o.map = mismatch_map(computed, expected, o);
        add_error_detail(computed, expected, req_, o);
        return expected;
    }

    const LayerShapes& ls_;
    const RunRequest& req_;
    LayerRun r_;
};

}  // namespace

MismatchMap mismatch_map(const Tensor& computed, const Tensor& expected, const OutputRun& o) {
    MismatchMapBuilder map(computed.shape());
    if (o.comparison.mismatches > 0)
        for_each_mismatch(computed, expected, o.tolerance, [&map](size_t i) { map.add(i); });
    return std::move(map).map();
}

void add_error_detail(const Tensor& computed, const Tensor& expected, const RunRequest& request, OutputRun& o) {
    if (request.error_detail && o.comparison.compared() && o.comparison.mismatches > 0)
        o.detail = error_detail(computed, expected, o.tolerance);
}

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

void add_output(LayerRun& run, OutputRun output) {
    if (!output.expect_path.empty() && !output.comparison.matches() && run.status == RunStatus::ok)
        run.status = RunStatus::mismatch;
    run.outputs.push_back(std::move(output));
}

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

LayerRun run_layer(const LayerShapes& layer, const RunRequest& request) {
    LayerRun run = Runner(layer, request).run();
    finish_run(layer, run);
    return run;
}

}  // namespace irlint
