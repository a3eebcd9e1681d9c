#include "exec/pool_kernels.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "exec/adaptive_pool_kernel.hpp"
#include "exec/avg_pool_kernel.hpp"
#include "exec/kernel_support.hpp"
#include "exec/max_pool_kernel.hpp"

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

// MaxPool indices: the flat position in the whole input tensor, reduced modulo the size of the dims from
// `axis` on when axis is not 0.
struct IndexMapping {
    int64_t plane_size = 1;
    int64_t modulus = 0;  // 0: none
    int64_t map(int64_t plane, int64_t spatial) const {
        const int64_t flat = plane * plane_size + spatial;
        return modulus ? flat % modulus : flat;
    }
};

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

template <class I, class Out>
void store_indices(const I* spatial, size_t n, int64_t plane, int64_t base, const IndexMapping& m, Out* out) {
    for (size_t i = 0; i < n; ++i) {
        const auto at = static_cast<int64_t>(spatial[i]);
        out[i] = static_cast<Out>(m.map(plane, at < 0 ? 0 : base + at));  // no winner: the plane's first element
    }
}

// Indices of a slab: positions relative to the slab's first input element, made plane positions by `base`.
template <class I>
void write_indices(Tensor& indices, size_t offset, const std::vector<I>& spatial, int64_t plane, int64_t base,
                   const IndexMapping& m) {
    if (indices.type() == ElementType::i32)
        store_indices(spatial.data(), spatial.size(), plane, base, m, indices.mutable_data<int32_t>() + offset);
    else
        store_indices(spatial.data(), spatial.size(), plane, base, m, indices.mutable_data<int64_t>() + offset);
}

// A slab's input as the kernels compute with it: the tensor's own memory, or a float copy for halves.
template <class Traits>
const typename Traits::Value* input_values(const Tensor& t, int64_t offset, int64_t count,
                                           std::vector<typename Traits::Value>& copy) {
    const auto* stored = t.data<typename Traits::Stored>() + offset;
    if constexpr (!Traits::is_half) {
        return stored;
    } else {
        copy.resize(static_cast<size_t>(count));
        for (int64_t i = 0; i < count; ++i) copy[static_cast<size_t>(i)] = Traits::load(stored[i]);
        return copy.data();
    }
}

// Where a slab's results go: straight into the output tensor, or into a float buffer for halves.
template <class Traits>
class OutputValues {
public:
    using V = typename Traits::Value;
    explicit OutputValues(Tensor& tensor) : tensor_(tensor) {}
    V* target(int64_t offset, int64_t count) {
        if constexpr (Traits::is_half) {
            buffer_.resize(static_cast<size_t>(count));
            return buffer_.data();
        } else {
            (void)count;
            return tensor_.mutable_data<V>() + offset;
        }
    }
    void commit(int64_t offset, int64_t count) {
        if constexpr (Traits::is_half) {
            auto* dst = tensor_.mutable_data<typename Traits::Stored>() + offset;
            for (int64_t i = 0; i < count; ++i) dst[i] = Traits::store(buffer_[static_cast<size_t>(i)]);
        }
    }

private:
    Tensor& tensor_;
    std::vector<V> buffer_;
};

// Runs body(worker, plane, slab) over every slab of every plane on up to `threads` threads; each thread
// has its own Worker (scratch buffers) for all the slabs it takes.
template <class Worker, class Body>
void for_each_slab(const Tensor& input, const PlaneGeometry& g, int threads, Body&& body) {
    const int64_t planes = input.shape()[0] * input.shape()[1];
    const std::vector<Slab> slabs = plane_slabs(g, planes, threads);
    const auto per_plane = static_cast<int64_t>(slabs.size());
    parallel_for(planes * per_plane, threads, [&](int64_t begin, int64_t end) {
        Worker worker(g);
        for (int64_t t = begin; t < end; ++t) body(worker, t / per_plane, slabs[static_cast<size_t>(t % per_plane)]);
    });
}

struct NoScratch {};

// The buffers one thread reuses from slab to slab.
template <class Traits, class Scratch, class I = int64_t>
struct Worker {
    using V = typename Traits::Value;
    Scratch scratch;
    std::vector<V> copy;
    std::vector<I> spatial;
    explicit Worker(const PlaneGeometry&) {}
};

template <class Traits, class I>
void run_max_indexed(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, std::vector<Tensor>& outputs,
                     int threads) {
    using V = typename Traits::Value;
    using W = Worker<Traits, MaxScratch<V, I>, I>;
    for_each_slab<W>(input, g, threads, [&](W& w, int64_t p, const Slab& slab) {
        const PlaneGeometry& sg = slab.geometry;
        OutputValues<Traits> values(outputs[0]);
        const int64_t out_at = p * g.out_size() + slab.out_offset;
        const V* in = input_values<Traits>(input, p * g.in_size() + slab.in_offset, sg.in_size(), w.copy);
        w.spatial.resize(static_cast<size_t>(sg.out_size()));
        max_pool_plane_indexed<Traits, V, I>(in, sg, w.scratch, values.target(out_at, sg.out_size()), w.spatial.data());
        values.commit(out_at, sg.out_size());
        write_indices(outputs[1], static_cast<size_t>(out_at), w.spatial, p, slab.in_offset, m);
    });
}

// Runs plane(input, slab geometry, scratch, output) over every slab for ops with one output.
template <class Traits, class Scratch, class PlaneFn>
void run_value_slabs(const PlaneGeometry& g, const Tensor& input, Tensor& output, int threads, PlaneFn&& plane) {
    using V = typename Traits::Value;
    using W = Worker<Traits, Scratch>;
    for_each_slab<W>(input, g, threads, [&](W& w, int64_t p, const Slab& slab) {
        const PlaneGeometry& sg = slab.geometry;
        OutputValues<Traits> values(output);
        const int64_t out_at = p * g.out_size() + slab.out_offset;
        const V* in = input_values<Traits>(input, p * g.in_size() + slab.in_offset, sg.in_size(), w.copy);
        plane(in, sg, w.scratch, values.target(out_at, sg.out_size()));
        values.commit(out_at, sg.out_size());
    });
}

template <class Traits>
void run_max(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, std::vector<Tensor>& outputs,
             int threads) {
    using V = typename Traits::Value;
    if (outputs.size() > 1) {
        // 32-bit positions while a plane allows: half the memory traffic, twice the vector width.
        if (g.in_size() < std::numeric_limits<int32_t>::max())
            run_max_indexed<Traits, int32_t>(g, input, m, outputs, threads);
        else
            run_max_indexed<Traits, int64_t>(g, input, m, outputs, threads);
        return;
    }
    auto plane = [](const V* in, const PlaneGeometry& sg, MaxScratch<V>& s, V* out) {
        max_pool_plane<Traits, V>(in, sg, s, out);
    };
    run_value_slabs<Traits, MaxScratch<V>>(g, input, outputs[0], threads, plane);
}

template <class Traits>
void run_avg(const PlaneGeometry& g, const AvgDivisor& divisor, const Tensor& input, Tensor& output, int threads) {
    using V = typename Traits::Value;
    auto plane = [&](const V* in, const PlaneGeometry& sg, AvgScratch<V>& s, V* out) {
        if constexpr (Traits::is_half)
            avg_pool_plane_rounded<Traits>(in, sg, divisor, out);
        else
            avg_pool_plane<V>(in, sg, divisor, s, out);
    };
    run_value_slabs<Traits, AvgScratch<V>>(g, input, output, threads, plane);
}

template <class Traits>
void run_adaptive_avg(const PlaneGeometry& g, const Tensor& input, Tensor& output, int threads) {
    using V = typename Traits::Value;
    constexpr bool separable = std::is_floating_point_v<typename Traits::Stored>;  // f32, f64
    auto plane = [](const V* in, const PlaneGeometry& sg, AvgScratch<V>& s, V* out) {
        if constexpr (separable)
            avg_pool_plane<V>(in, sg, AvgDivisor{}, s, out);
        else
            adaptive_avg_plane<Traits>(in, sg, out);
    };
    run_value_slabs<Traits, AvgScratch<V>>(g, input, output, threads, plane);
}

// AdaptiveMaxPool indices carry no batch or channel offset: positions within the plane.
template <class Traits>
void run_adaptive_max(const PlaneGeometry& g, const Tensor& input, std::vector<Tensor>& outputs, int threads) {
    using V = typename Traits::Value;
    using W = Worker<Traits, NoScratch>;
    const IndexMapping within_plane;
    for_each_slab<W>(input, g, threads, [&](W& w, int64_t p, const Slab& slab) {
        const PlaneGeometry& sg = slab.geometry;
        OutputValues<Traits> values(outputs[0]);
        const int64_t out_at = p * g.out_size() + slab.out_offset;
        const V* in = input_values<Traits>(input, p * g.in_size() + slab.in_offset, sg.in_size(), w.copy);
        w.spatial.resize(static_cast<size_t>(sg.out_size()));
        adaptive_max_plane<V>(in, sg, values.target(out_at, sg.out_size()), w.spatial.data());
        values.commit(out_at, sg.out_size());
        write_indices(outputs[1], static_cast<size_t>(out_at), w.spatial, 0, slab.in_offset, within_plane);
    });
}

AvgDivisor avg_divisor(const PoolingDesc& desc, const PoolShape& ps) {
    AvgDivisor d;
    auto nonzero = [](int64_t p) { return p != 0; };
    d.pads_in_avg = !desc.exclude_pad && (std::any_of(ps.pads_begin.begin(), ps.pads_begin.end(), nonzero) ||
                                          std::any_of(ps.pads_end.begin(), ps.pads_end.end(), nonzero));
    for (int64_t k : desc.kernel) d.kernel_taps *= static_cast<double>(k);
    return d;
}

// Outputs the kernels will fill are left unset: they write every element. Otherwise they are zeros.
std::vector<Tensor> allocate_outputs(const PoolOp& op, ElementType values, ElementType indices,
                                     const std::vector<int64_t>& dims, bool filled_by_kernels) {
    auto make = [&](ElementType t) { return filled_by_kernels ? Tensor::uninitialized(t, dims) : Tensor(t, dims); };
    std::vector<Tensor> outputs;
    outputs.push_back(make(values));
    if (op.has_index_output()) outputs.push_back(make(indices));
    return outputs;
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

PoolRunResult run_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input, const KernelOptions& options) {
    PoolRunResult result;
    if (op.is_adaptive()) return {fmt::format("{} needs output_size: use run_adaptive_pool", op.type_name()), {}};
    if (auto error = check_input(op, input)) return {*error, {}};
    if (auto error = check_index_type(op, desc.index_type)) return {*error, {}};
    const PoolShape ps = infer_pool_shape(op, desc, static_shape(input.shape()));
    if (ps.error) return {*ps.error, {}};
    const std::vector<int64_t> out_dims = output_dims(ps.output);
    if (auto error = check_output_budget(op, input.type(), desc.index_type, out_dims, options.max_bytes))
        return {*error, {}};
    // Windows over no data at all (an empty spatial axis, padded) give zeros.
    result.outputs = allocate_outputs(op, input.type(), desc.index_type, out_dims, input.size() != 0);
    if (result.outputs[0].size() == 0 || input.size() == 0) return result;

    const PlaneGeometry g = plane_geometry(op, desc, ps, input.shape(), out_dims);
    const int threads = resolve_threads(options.threads);
    visit_element_type(input.type(), [&](auto traits) {
        using Traits = decltype(traits);
        if (op.kind == PoolKind::max_pool) {
            run_max<Traits>(g, input, index_mapping(desc, input.shape()), result.outputs, threads);
        } else {
            run_avg<Traits>(g, avg_divisor(desc, ps), input, result.outputs[0], threads);
        }
    });
    return result;
}

PoolRunResult run_adaptive_pool(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                                const std::vector<int64_t>& output_size, const KernelOptions& options) {
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
    result.outputs = allocate_outputs(op, input.type(), desc.index_type, out_dims, true);
    if (result.outputs[0].size() == 0) return result;
    for (size_t i = 2; i < input.rank(); ++i)
        if (input.shape()[i] == 0) return {"an adaptive pool bin over an empty axis has no elements", {}};

    const int threads = resolve_threads(options.threads);
    PlaneGeometry g;
    const size_t skip = 5 - input.rank();
    for (size_t a = 0; a < 3; ++a)
        g.axes[a] =
            a < skip ? axis_taps(1, 1, 1, 1, 1, 0) : adaptive_taps(input.shape()[a - skip + 2], out_dims[a - skip + 2]);
    visit_element_type(input.type(), [&](auto traits) {
        using Traits = decltype(traits);
        if (op.kind == PoolKind::adaptive_max_pool)
            run_adaptive_max<Traits>(g, input, result.outputs, threads);
        else
            run_adaptive_avg<Traits>(g, input, result.outputs[0], threads);
    });
    return result;
}

}  // namespace irlint
