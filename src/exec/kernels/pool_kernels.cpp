#include "exec/kernels/pool_kernels.hpp"

#include <optional>

#include <fmt/format.h>

#include "core/text.hpp"
#include "exec/kernels/plane_scratch.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/kernels/plane_runs.hpp"

namespace irlint {

using namespace kernels;

namespace {

Shape static_shape(const std::vector<int64_t>& dims) {
    Shape s;
    for (int64_t d : dims) s.dims.emplace_back(d);
    return s;
}

std::vector<int64_t> output_dims(const Shape& s) {
    std::vector<int64_t> dims;
    for (const Dim& d : s.dims) dims.push_back(d.min());
    return dims;
}

std::optional<std::string> check_input(const PoolOp& op, const Tensor& input) {
    if (input.rank() < 3 || input.rank() > 5)
        return fmt::format("{} takes a 3D, 4D or 5D input; the input has rank {}", op.type_name(), input.rank());
    if (!is_executable_type(input.type()) || (input.type() == ElementType::boolean && op.kind != PoolKind::max_pool))
        return fmt::format("{} does not run on element type {}", op.type_name(), element_type_name(input.type()));
    return std::nullopt;
}

PlaneGeometry plane_geometry(const PoolOp& op, const PoolingDesc& desc, const PoolShape& ps,
                             const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
    PlaneGeometry g;
    const size_t spatial = in.size() - 2, skip = 3 - spatial;
    for (size_t a = 0; a < 3; ++a) {
        if (a < skip) {
            g.axes[a] = axis_taps(1, 1, 1, 1, 1, 0);
            continue;
        }
        const size_t i = a - skip;
        const int64_t dilation = op.has_dilations() && i < desc.dilations.size() ? desc.dilations[i] : 1;
        g.axes[a] = axis_taps(in[i + 2], out[i + 2], desc.kernel[i], desc.strides[i], dilation, ps.pads_begin[i]);
    }
    return g;
}

IndexMapping index_mapping(const PoolingDesc& desc, const std::vector<int64_t>& in) {
    IndexMapping m;
    for (size_t i = 2; i < in.size(); ++i) m.plane_size *= in[i];
    const int64_t rank = static_cast<int64_t>(in.size());
    const int64_t axis = desc.axis < 0 ? desc.axis + rank : desc.axis;
    if (axis > 0) {
        m.modulus = 1;
        for (int64_t i = axis; i < rank; ++i) m.modulus *= in[static_cast<size_t>(i)];
    }
    return m;
}

AvgDivisor avg_divisor(const PoolingDesc& desc, const PoolShape& ps) {
    AvgDivisor d;
    auto nonzero = [](int64_t p) { return p != 0; };
    d.pads_in_avg = !desc.exclude_pad && (std::any_of(ps.pads_begin.begin(), ps.pads_begin.end(), nonzero) ||
                                          std::any_of(ps.pads_end.begin(), ps.pads_end.end(), nonzero));
    for (int64_t k : desc.kernel) d.kernel_taps *= static_cast<double>(k);
    return d;
}

std::vector<OutputSpec> output_specs(const PoolOp& op, ElementType values, ElementType indices,
                                     const std::vector<int64_t>& dims) {
    std::vector<OutputSpec> specs{{values, dims}};
    if (op.has_index_output()) specs.push_back({indices, dims});
    return specs;
}

// Outputs the kernels will fill are left unset: they write every element. Otherwise they are zeros.
std::vector<Tensor> allocate_outputs(const std::vector<OutputSpec>& specs, bool filled_by_kernels) {
    std::vector<Tensor> outputs;
    for (const OutputSpec& s : specs)
        outputs.push_back(filled_by_kernels ? Tensor::uninitialized(s.type, s.shape) : Tensor(s.type, s.shape));
    return outputs;
}

// The caller's sink, or whole tensors allocated into `result`.
kernels::OutputSink& choose(const SinkChooser& choose_sink, const std::vector<OutputSpec>& specs, PoolRunResult& result,
                            std::optional<WholeTensors>& whole) {
    if (kernels::OutputSink* sink = choose_sink ? choose_sink(specs) : nullptr) return *sink;
    result.outputs = allocate_outputs(specs, true);
    return whole.emplace(result.outputs);
}

std::optional<std::string> check_output_budget(const PoolOp& op, ElementType values, ElementType indices,
                                               const std::vector<int64_t>& dims, size_t max_bytes) {
    const auto count = checked_element_count(dims, 64);
    if (!count) return fmt::format("the output [{}] is too large to hold", join_ints(dims));
    size_t bytes = *count * static_cast<size_t>(element_type_bits(values) / 8);
    if (op.has_index_output()) bytes += *count * static_cast<size_t>(element_type_bits(indices) / 8);
    if (bytes > max_bytes)
        return fmt::format("the output [{}] needs {} bytes, over the memory budget of {} bytes", join_ints(dims), bytes,
                           max_bytes);
    return std::nullopt;
}

std::optional<std::string> check_index_type(const PoolOp& op, ElementType t) {
    if (!op.has_index_output() || t == ElementType::i32 || t == ElementType::i64) return std::nullopt;
    return fmt::format("{} writes indices as i32 or i64, not {}", op.type_name(), element_type_name(t));
}

}  // namespace

PoolRunResult run_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input, const KernelOptions& options,
                       const SinkChooser& choose_sink) {
    PoolRunResult result;
    if (op.is_adaptive()) return {fmt::format("{} needs output_size: use run_adaptive_pool", op.type_name()), {}};
    if (auto error = check_input(op, input)) return {*error, {}};
    if (auto error = check_index_type(op, desc.index_type)) return {*error, {}};
    const PoolShape ps = infer_pool_shape(op, desc, static_shape(input.shape()));
    if (ps.error) return {*ps.error, {}};
    const std::vector<int64_t> out_dims = output_dims(ps.output);
    if (auto error = check_output_budget(op, input.type(), desc.index_type, out_dims, options.max_bytes))
        return {*error, {}};
    const std::vector<OutputSpec> specs = output_specs(op, input.type(), desc.index_type, out_dims);
    if (input.size() == 0 || checked_element_count(out_dims, 8) == 0) {
        // Windows over no data at all (an empty spatial axis, padded) give zeros.
        result.outputs = allocate_outputs(specs, false);
        return result;
    }

    std::optional<WholeTensors> whole;
    OutputSink& sink = choose(choose_sink, specs, result, whole);
    const PlaneGeometry g = plane_geometry(op, desc, ps, input.shape(), out_dims);
    const int threads = resolve_threads(options.threads);
    if (op.kind == PoolKind::max_pool) {
        const IndexMapping m = index_mapping(desc, input.shape());
        run_max_planes(g, input, op.has_index_output() ? &m : nullptr, sink, threads);
    } else {
        run_avg_planes(g, avg_divisor(desc, ps), input, sink, threads);
    }
    return result;
}

PoolRunResult run_adaptive_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                                const std::vector<int64_t>& output_size, const KernelOptions& options,
                                const SinkChooser& choose_sink) {
    PoolRunResult result;
    if (!op.is_adaptive()) return {fmt::format("{} is not an adaptive pool", op.type_name()), {}};
    if (auto error = check_input(op, input)) return {*error, {}};
    if (auto error = check_index_type(op, desc.index_type)) return {*error, {}};
    const std::vector<int64_t> size_shape{static_cast<int64_t>(output_size.size())};
    const PoolShape ps = infer_adaptive_shape(static_shape(input.shape()), static_shape(size_shape), output_size);
    if (ps.error) return {*ps.error, {}};
    const std::vector<int64_t> out_dims = output_dims(ps.output);
    if (auto error = check_output_budget(op, input.type(), desc.index_type, out_dims, options.max_bytes))
        return {*error, {}};
    const std::vector<OutputSpec> specs = output_specs(op, input.type(), desc.index_type, out_dims);
    if (checked_element_count(out_dims, 8) == 0) {
        result.outputs = allocate_outputs(specs, true);
        return result;
    }
    for (size_t i = 2; i < input.rank(); ++i)
        if (input.shape()[i] == 0) return {"an adaptive pool bin over an empty axis has no elements", {}};

    std::optional<WholeTensors> whole;
    OutputSink& sink = choose(choose_sink, specs, result, whole);
    const int threads = resolve_threads(options.threads);
    PlaneGeometry g;
    const size_t skip = 5 - input.rank();
    for (size_t a = 0; a < 3; ++a)
        g.axes[a] =
            a < skip ? axis_taps(1, 1, 1, 1, 1, 0) : adaptive_taps(input.shape()[a - skip + 2], out_dims[a - skip + 2]);
    if (op.kind == PoolKind::adaptive_max_pool)
        run_adaptive_max_planes(g, input, sink, threads);
    else
        run_adaptive_avg_planes(g, input, sink, threads);
    return result;
}

}  // namespace irlint
