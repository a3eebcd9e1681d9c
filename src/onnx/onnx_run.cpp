#include "onnx/onnx_run.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/half.hpp"
#include "exec/io/npy.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "exec/kernels/taps.hpp"
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
        return taps_within(start(o), kernel, dilation, -pad_begin, in + pad_end).count();
    }
};

std::vector<AxisTaps> axes_of(const PoolingDesc& d, const std::vector<int64_t>& pb, const std::vector<int64_t>& pe,
                              const std::vector<int64_t>& in_shape) {
    std::vector<AxisTaps> axes;
    for (size_t a = 0; a < d.kernel.size(); ++a)
        axes.push_back(
            {in_shape[a + 2], pb[a], pe[a], d.kernel[a], d.strides[a], d.dilations.empty() ? 1 : d.dilations[a]});
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
            store_value(output, p * out_plane + i,
                        divisor > 0 ? window_sum(input, p * in_plane, axes, pos) / divisor : 0.0);
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

class OnnxLayer final : public RunnableLayer {
public:
    OnnxLayer(const OnnxCheck& c, size_t node) : c_(c), node_(c.onnx.nodes[node]), pool_(c.pool_for(node)) {}

    const LayerShapes& shapes() const override { return c_.report.layers[node_.index]; }
    std::string op_name() const override { return pool_ ? pool_->op.name() : ""; }
    size_t output_count() const override { return onnx_output_count(pool_->op, layer()); }
    std::string excess_subject() const override { return "the node"; }
    const Layer& layer() const { return c_.model.graphs[0].layers[node_.index]; }

    std::optional<std::string> unusable() const override {
        if (pool_) return std::nullopt;
        const auto op = onnx_pool_op_for(node_.op_type, c_.onnx.default_opset());
        if (!op || !node_.domain.empty())
            return fmt::format(
                "node {} '{}' is a {}: irlint runs AveragePool, MaxPool, GlobalAveragePool and "
                "GlobalMaxPool nodes",
                node_.index, node_.display_name(), node_.op_type);
        return fmt::format("node {} '{}' ({}) cannot run: `irlint check` tells why", node_.index, node_.display_name(),
                           op->name());
    }

    // .npy or TensorProto .pb.
    std::optional<Tensor> read_tensor(const std::string& path, size_t max_bytes, std::string* error) const override {
        TensorRead t = read_tensor_file(path, max_bytes);
        if (!t.tensor) *error = std::move(t.error);
        return std::move(t.tensor);
    }

    std::optional<Tensor> take_input(Tensor x, const std::string& path, std::string* error) const override {
        const auto it = c_.onnx.values.find(node_.inputs[0]);
        const auto declared = it == c_.onnx.values.end() ? std::nullopt : it->second.type;
        if (declared && *declared == ElementType::bf16 && x.type() == ElementType::f32) return convert_f32_to_bf16(x);
        if (declared && *declared != x.type()) {
            *error = fmt::format("{} holds {} data, the node's input is {}", path, element_type_name(x.type()),
                                 element_type_name(*declared));
            return std::nullopt;
        }
        if (auto mismatch = against_graph_input(path, x.shape())) {
            *error = std::move(*mismatch);
            return std::nullopt;
        }
        return x;
    }

    // The windows on this input, under the node's version.
    std::optional<std::string> prepare(const Tensor& x, const RunRequest&) override {
        for (int64_t d : x.shape()) input_.dims.emplace_back(d);
        setup_ = map_onnx_pool(pool_->op, layer(), input_);
        if (!setup_.usable()) return setup_.errors.front();
        shape_ = infer_onnx_pool_shape(pool_->op, setup_, input_);
        if (shape_.error) return fmt::format("{} on {}: {}", pool_->op.name(), input_.str(), *shape_.error);
        return std::nullopt;
    }

    // OpenVINO's kernels where they give ONNX's windows, with ONNX's divisor and index order applied after;
    // the window-by-window kernel where they do not. Only OpenVINO's kernels alone may write into a sink.
    PoolRunResult compute(const Tensor& x, const KernelOptions& options, const SinkChooser& choose) override {
        const OnnxPoolOp& op = pool_->op;
        if (!op.is_global()) {
            const PoolShape openvino = infer_pool_shape(setup_.kernel_op, setup_.desc, input_);
            // OpenVINO's MaxPool gives index 0 to a window whose maximum is the type's lowest value (0 in u8).
            const bool integer_indices = op.has_indices_output() && is_integer_type(x.type());
            if (openvino.error || openvino.output != shape_.output || has_empty_window(setup_, input_, shape_) ||
                integer_indices)
                return run_onnx_windows(op, setup_, shape_, x, options.max_bytes);
        }
        const bool divisor_differs = setup_.count_include_pad && setup_.desc.rounding != RoundingType::floor;
        const bool column_major = setup_.column_major_indices;
        PoolRunResult result = run_pool(setup_.kernel_op, setup_.desc, x, options,
                                        divisor_differs || column_major ? SinkChooser{} : choose);
        if (!result.ok() || result.outputs.empty()) return result;
        if (divisor_differs)
            apply_count_include_pad(setup_.desc, shape_.pads_begin, shape_.pads_end, x, result.outputs[0]);
        if (result.outputs.size() > 1 && setup_.column_major_indices)
            to_column_major_indices(x.shape(), result.outputs[1]);
        return result;
    }

    // The node as OpenVINO's kernels compute it: other producers' conventions are variations of that.
    std::optional<LayerSetup> convention_setup(const Tensor& x) const override {
        return LayerSetup{setup_.kernel_op, setup_.desc, &x};
    }

private:
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

    const OnnxCheck& c_;
    const OnnxNode& node_;
    const OnnxPoolNode* pool_;
    Shape input_;
    OnnxPoolSetup setup_;
    PoolShape shape_;
};

}  // namespace

std::unique_ptr<RunnableLayer> onnx_layer(const OnnxCheck& check, size_t node) {
    return std::make_unique<OnnxLayer>(check, node);
}

LayerRun run_onnx_node(const OnnxCheck& check, size_t node, const RunRequest& request) {
    return run_layer(*onnx_layer(check, node), request);
}

}  // namespace irlint
