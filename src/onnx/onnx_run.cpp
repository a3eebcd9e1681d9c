#include "onnx/onnx_run.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "exec/half.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/io/npy.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "onnx/onnx_divergence.hpp"
#include "onnx/onnx_kernel.hpp"
#include "onnx/onnx_tensor.hpp"

namespace irlint {

namespace {

// One spatial axis of the windows: where each output's window starts and whether it reaches past the
// padded border.
struct AxisTaps {
    int64_t in = 0, pad_begin = 0, pad_end = 0, kernel = 1, stride = 1, dilation = 1;
    int64_t start(int64_t o) const { return o * stride - pad_begin; }
    bool overhangs(int64_t o) const { return start(o) + (kernel - 1) * dilation >= in + pad_end; }
    int64_t taps_in_padded(int64_t o) const {
        int64_t n = 0;
        for (int64_t j = 0; j < kernel; ++j) n += start(o) + j * dilation < in + pad_end;
        return n;
    }
};

std::vector<AxisTaps> axes_of(const PoolingDesc& d, const std::vector<int64_t>& pb, const std::vector<int64_t>& pe,
                              const std::vector<int64_t>& in_shape) {
    std::vector<AxisTaps> axes;
    for (size_t a = 0; a < d.kernel.size(); ++a)
        axes.push_back({in_shape[a + 2], pb[a], pe[a], d.kernel[a], d.strides[a],
                        d.dilations.empty() ? 1 : d.dilations[a]});
    return axes;
}

double window_sum(const Tensor& x, size_t plane_offset, const std::vector<AxisTaps>& axes,
                  const std::vector<int64_t>& out_pos) {
    double sum = 0;
    std::vector<int64_t> j(axes.size(), 0);
    while (true) {
        size_t flat = 0;
        bool inside = true;
        for (size_t a = 0; a < axes.size(); ++a) {
            const int64_t p = axes[a].start(out_pos[a]) + j[a] * axes[a].dilation;
            inside = inside && p >= 0 && p < axes[a].in;
            flat = flat * static_cast<size_t>(axes[a].in) + static_cast<size_t>(std::max<int64_t>(p, 0));
        }
        if (inside) sum += x.value_as_double(plane_offset + flat);
        size_t a = axes.size();
        while (a > 0 && ++j[a - 1] == axes[a - 1].kernel) j[--a] = 0;
        if (a == 0) return sum;
    }
}

}  // namespace

// OpenVINO divides by every kernel tap once some pad is non-zero; ONNX counts only the taps inside the
// padded input, so a ceil-mode window reaching past pads_end gets a smaller divisor.
void apply_count_include_pad(const PoolingDesc& desc, const std::vector<int64_t>& pads_begin,
                             const std::vector<int64_t>& pads_end, const Tensor& input, Tensor& output) {
    const bool padded = std::any_of(pads_begin.begin(), pads_begin.end(), [](int64_t p) { return p != 0; }) ||
                        std::any_of(pads_end.begin(), pads_end.end(), [](int64_t p) { return p != 0; });
    if (!padded || output.size() == 0) return;
    const auto axes = axes_of(desc, pads_begin, pads_end, input.shape());
    const auto& out_shape = output.shape();
    size_t out_plane = 1, in_plane = 1;
    for (size_t a = 0; a < axes.size(); ++a) {
        out_plane *= static_cast<size_t>(out_shape[a + 2]);
        in_plane *= static_cast<size_t>(axes[a].in);
    }
    const size_t planes = output.size() / out_plane;
    std::vector<int64_t> pos(axes.size());
    for (size_t i = 0; i < out_plane; ++i) {
        size_t rest = i;
        bool overhang = false;
        for (size_t a = axes.size(); a-- > 0;) {
            pos[a] = static_cast<int64_t>(rest % static_cast<size_t>(out_shape[a + 2]));
            rest /= static_cast<size_t>(out_shape[a + 2]);
            overhang = overhang || axes[a].overhangs(pos[a]);
        }
        if (!overhang) continue;
        double divisor = 1;
        for (size_t a = 0; a < axes.size(); ++a) divisor *= static_cast<double>(axes[a].taps_in_padded(pos[a]));
        for (size_t p = 0; p < planes; ++p)
            store_value(output, p * out_plane + i, divisor > 0 ? window_sum(input, p * in_plane, axes, pos) / divisor : 0.0);
    }
}

void to_column_major_indices(const std::vector<int64_t>& input_shape, Tensor& indices) {
    if (indices.type() != ElementType::i64 || input_shape.size() < 3) return;
    const std::vector<int64_t> spatial(input_shape.begin() + 2, input_shape.end());
    int64_t plane = 1;
    for (int64_t d : spatial) plane *= d;
    if (plane <= 0) return;
    auto* data = indices.mutable_data<int64_t>();
    for (size_t i = 0; i < indices.size(); ++i) {
        int64_t rest = data[i] % plane, column_major = 0, stride = 1;
        std::vector<int64_t> coord(spatial.size());
        for (size_t a = spatial.size(); a-- > 0;) {
            coord[a] = rest % spatial[a];
            rest /= spatial[a];
        }
        for (size_t a = 0; a < spatial.size(); ++a) {
            column_major += coord[a] * stride;
            stride *= spatial[a];
        }
        data[i] = data[i] - data[i] % plane + column_major;
    }
}

namespace {

class OnnxRunner {
public:
    OnnxRunner(const OnnxCheck& c, size_t node, const RunRequest& req) : c_(c), node_(c.onnx.nodes[node]), req_(req) {}

    LayerRun run() {
        const Layer& l = c_.model.graphs[0].layers[node_.index];
        r_.layer = layer_ref(l);
        r_.version = l.version;
        r_.input_path = req_.input_path;
        if (!execute()) r_.status = RunStatus::error;
        return r_;
    }

private:
    bool fail(std::string message) {
        r_.error = std::move(message);
        return false;
    }

    bool execute() {
        const OnnxPoolNode* pool = c_.pool_for(node_.index);
        if (!pool) return fail(why_not_runnable());
        r_.op_name = pool->op.name();
        const size_t outputs = onnx_output_count(pool->op, node_);
        if (auto excess = excess_files(req_, outputs, "the node")) return fail(*excess);
        auto x = load(req_.input_path, true);
        if (!x) return false;
        r_.input_shape = x->shape();
        r_.input_type = x->type();
        Shape actual;
        for (int64_t d : x->shape()) actual.dims.emplace_back(d);
        const OnnxPoolSetup setup = map_onnx_pool(pool->op, node_, actual);
        if (!setup.usable()) return fail(setup.errors.front());
        const PoolShape shape = infer_onnx_pool_shape(pool->op, setup, actual);
        if (shape.error) return fail(fmt::format("{} on {}: {}", pool->op.name(), actual.str(), *shape.error));
        const auto start = std::chrono::steady_clock::now();
        PoolRunResult result = compute(pool->op, setup, shape, *x, actual);
        if (!result.ok()) return fail(result.error);
        r_.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        result.outputs.resize(std::min(result.outputs.size(), outputs));
        for (size_t i = 0; i < result.outputs.size(); ++i)
            if (!finish_output(i, result.outputs[i])) return false;
        return true;
    }

    // OpenVINO's kernels where they give ONNX's windows, with ONNX's divisor and index order applied after;
    // the window-by-window kernel where they do not.
    PoolRunResult compute(const OnnxPoolOp& op, const OnnxPoolSetup& setup, const PoolShape& shape, const Tensor& x,
                          const Shape& input) {
        if (!op.is_global()) {
            const PoolShape openvino = infer_pool_shape(setup.kernel_op, setup.desc, input);
            // OpenVINO's MaxPool gives index 0 to a window whose maximum is the type's lowest value (0 in u8).
            const bool integer_indices = op.has_indices_output() && is_integer_type(x.type());
            if (openvino.error || openvino.output != shape.output || has_empty_window(setup, input, shape) ||
                integer_indices)
                return run_onnx_windows(op, setup, shape, x, req_.max_bytes);
        }
        PoolRunResult result = run_pool(setup.kernel_op, setup.desc, x, KernelOptions{req_.threads, req_.max_bytes});
        if (!result.ok()) return result;
        if (setup.count_include_pad && setup.desc.rounding != RoundingType::floor)
            apply_count_include_pad(setup.desc, shape.pads_begin, shape.pads_end, x, result.outputs[0]);
        if (result.outputs.size() > 1 && setup.column_major_indices) to_column_major_indices(x.shape(), result.outputs[1]);
        return result;
    }

    std::string why_not_runnable() const {
        const auto op = onnx_pool_op_for(node_.op_type, c_.onnx.default_opset());
        if (!op || !node_.domain.empty())
            return fmt::format("node {} '{}' is a {}: irlint runs AveragePool, MaxPool, GlobalAveragePool and "
                               "GlobalMaxPool nodes",
                               node_.index, node_.display_name(), node_.op_type);
        return fmt::format("node {} '{}' ({}) cannot run: `irlint check` tells why", node_.index, node_.display_name(),
                           op->name());
    }

    std::optional<Tensor> load(const std::string& path, bool is_input) {
        TensorRead t = read_tensor_file(path, req_.max_bytes);
        if (!t.tensor) {
            fail(fmt::format("{}: {}", path, t.error));
            return std::nullopt;
        }
        if (!is_input) return std::move(t.tensor);
        const auto it = c_.onnx.values.find(node_.inputs[0]);
        const auto declared = it == c_.onnx.values.end() ? std::nullopt : it->second.type;
        if (declared && *declared == ElementType::bf16 && t.tensor->type() == ElementType::f32)
            return convert_f32_to_bf16(*t.tensor);
        if (declared && *declared != t.tensor->type()) {
            fail(fmt::format("{} holds {} data, the node's input is {}", path, element_type_name(t.tensor->type()),
                             element_type_name(*declared)));
            return std::nullopt;
        }
        if (auto error = against_graph_input(path, t.tensor->shape())) {
            fail(std::move(*error));
            return std::nullopt;
        }
        return std::move(t.tensor);
    }

    // An array fed to a graph input must have the shape the graph declares (dynamic dims take any length).
    std::optional<std::string> against_graph_input(const std::string& path, const std::vector<int64_t>& dims) const {
        const std::string& name = node_.inputs[0];
        const auto it = c_.onnx.values.find(name);
        if (!c_.onnx.graph_inputs.contains(name) || it == c_.onnx.values.end() || !it->second.shape ||
            it->second.shape->rank_dynamic)
            return std::nullopt;
        const Shape& declared = *it->second.shape;
        const std::string given = fmt::format("[{}]", fmt::join(dims, ","));
        if (declared.rank() != dims.size())
            return fmt::format("{} holds a {} array of rank {}; the graph input '{}' is declared {} (rank {})", path,
                               given, dims.size(), name, declared.str(), declared.rank());
        for (size_t d = 0; d < dims.size(); ++d)
            if (declared.dims[d].is_static() && declared.dims[d].length() != dims[d])
                return fmt::format("{} holds a {} array; the graph input '{}' is declared {}: dim {} is {}, not {}",
                                   path, given, name, declared.str(), d, dims[d], declared.dims[d].length());
        return std::nullopt;
    }

    bool finish_output(size_t i, const Tensor& computed) {
        OutputRun o = output_run(i, computed.type(), computed.shape(), req_);
        if (i < req_.expect_paths.size() && !req_.expect_paths[i].empty()) {
            auto expected = load(req_.expect_paths[i], false);
            if (!expected) return false;
            if (computed.type() == ElementType::bf16 && expected->type() == ElementType::f32)
                expected = convert_f32_to_bf16(*expected);
            o.expect_path = req_.expect_paths[i];
            o.comparison = compare_tensors(computed, *expected, o.tolerance, kernels::resolve_threads(req_.threads));
            add_error_detail(computed, *expected, req_, o);
        }
        if (i < req_.save_paths.size() && !req_.save_paths[i].empty()) {
            if (auto error = write_npy(req_.save_paths[i], computed)) return fail(*error);
            o.saved_path = req_.save_paths[i];
        }
        add_output(r_, std::move(o));
        return true;
    }

    const OnnxCheck& c_;
    const OnnxNode& node_;
    const RunRequest& req_;
    LayerRun r_;
};

}  // namespace

LayerRun run_onnx_node(const OnnxCheck& check, size_t node, const RunRequest& request) {
    LayerRun run = OnnxRunner(check, node, request).run();
    finish_run(check.report.layers[node], run);
    return run;
}

}  // namespace irlint
