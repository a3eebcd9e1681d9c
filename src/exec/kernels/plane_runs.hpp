#pragma once
// How a plane kernel runs over a whole tensor: every plane, or slab of a plane, on the worker threads,
// with halves widened to float on the way in and rounded back on the way out. Each pooling family runs
// from its own translation unit (max_pool_run.cpp, avg_pool_run.cpp, adaptive_pool_run.cpp), so that a
// build compiles their many instantiations in parallel.

#include <cstdint>
#include <optional>
#include <vector>

#include "exec/kernels/kernel_support.hpp"
#include "exec/tensor.hpp"

namespace irlint::kernels {

struct AvgDivisor;

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

// Where a run writes its outputs (values, then indices where the op has them). A batch of consecutive
// units writes into a window: tensors whose element 0 stands for output element `origin`.
class OutputSink {
public:
    struct Window {
        std::vector<Tensor>* tensors = nullptr;
        int64_t origin = 0;
    };
    virtual ~OutputSink() = default;
    // How many output elements a batch written by `threads` threads may write (a unit larger than that is a
    // batch of its own); 0: no limit. Asked once, before the first batch.
    virtual int64_t batch_elements(int threads) = 0;
    // True when the rest of the outputs is not wanted any more: the run ends after the current batch.
    virtual bool stopped() const { return false; }
    // Where the batch that writes the output elements [first, last) writes them.
    virtual Window window(int64_t first, int64_t last) = 0;
    // Every output element before `end` is written.
    virtual void filled(int64_t end) = 0;
};

// The usual sink: the whole output tensors, in one batch.
class WholeTensors final : public OutputSink {
public:
    explicit WholeTensors(std::vector<Tensor>& outputs) : outputs_(outputs) {}
    int64_t batch_elements(int) override { return 0; }
    Window window(int64_t, int64_t) override { return {&outputs_, 0}; }
    void filled(int64_t) override {}

private:
    std::vector<Tensor>& outputs_;
};

// Each computes the outputs from `input`, plane by plane, into `sink`; MaxPool writes indices when given
// their mapping.
void run_max_planes(const PlaneGeometry& g, const Tensor& input, const IndexMapping* indices, OutputSink& sink,
                    int threads);
void run_avg_planes(const PlaneGeometry& g, const AvgDivisor& divisor, const Tensor& input, OutputSink& sink,
                    int threads);
void run_adaptive_avg_planes(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads);
void run_adaptive_max_planes(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads);

// Where a slab's spatial indices go in the tensor: `plane` is the slab's first plane, `base` its first
// input element there, `plane_outputs` the outputs of one plane (a stack's outputs run on across planes).
struct SlabIndices {
    int64_t plane = 0, base = 0, plane_outputs = 1;
};

template <class I, class Out>
void store_indices(const I* spatial, size_t n, const SlabIndices& at_slab, const IndexMapping& m, Out* out) {
    for (size_t i = 0; i < n; ++i) {
        const auto at = static_cast<int64_t>(spatial[i]);
        // No winner: the first element of the output's own plane.
        const int64_t own_plane = at_slab.plane + static_cast<int64_t>(i) / at_slab.plane_outputs;
        out[i] = static_cast<Out>(at < 0 ? m.map(own_plane, 0) : m.map(at_slab.plane, at_slab.base + at));
    }
}

template <class I>
void write_indices(Tensor& indices, size_t offset, const std::vector<I>& spatial, const SlabIndices& at_slab,
                   const IndexMapping& m) {
    if (indices.type() == ElementType::i32)
        store_indices(spatial.data(), spatial.size(), at_slab, m, indices.mutable_data<int32_t>() + offset);
    else
        store_indices(spatial.data(), spatial.size(), at_slab, m, indices.mutable_data<int64_t>() + offset);
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
        Traits::load_n(stored, copy.data(), static_cast<size_t>(count));
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
            Traits::store_n(buffer_.data(), tensor_.mutable_data<typename Traits::Stored>() + offset,
                            static_cast<size_t>(count));
        }
    }

private:
    Tensor& tensor_;
    std::vector<V> buffer_;
};

// Runs body(worker, first plane, slab, window) over every unit of PlaneWork on up to `threads` threads, in
// the sink's batches; each thread has its own Worker (scratch buffers) for all the units it takes.
template <class Worker, class Body>
void for_each_slab(const Tensor& input, const PlaneGeometry& g, int requested_threads, OutputSink& sink, Body&& body) {
    const int64_t planes = input.shape()[0] * input.shape()[1];
    const int threads = threads_for(g, planes, requested_threads);
    const PlaneWork work(g, planes, threads);
    std::vector<std::optional<Worker>> workers(static_cast<size_t>(threads));
    const int64_t batch = sink.batch_elements(threads);
    for (int64_t first = 0; first < work.units() && !sink.stopped();) {
        const int64_t last = batch > 0 ? work.batch_end(first, batch) : work.units();
        const OutputSink::Window window = sink.window(work.output_begin(first), work.output_end(last - 1));
        parallel_parts(last - first, threads, [&](int part, int64_t begin, int64_t end) {
            std::optional<Worker>& worker = workers[static_cast<size_t>(part)];
            if (!worker) worker.emplace(g);
            for (int64_t u = first + begin; u < first + end; ++u) body(*worker, work.first_plane(u), work.slab(u), window);
        });
        sink.filled(work.output_end(last - 1));
        first = last;
    }
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

// How a slab's values reach a plane kernel and its results the output tensor: compute(values in, scratch,
// values out) runs the kernel on the tensor's own memory, or on a float copy for halves. F16 MaxPool has a
// policy of its own, where each slab picks its route and the scratch for it (max_pool_run.cpp).
template <class Traits>
struct SlabValues {
    template <class W, class Compute>
    static void run(W& w, const Tensor& input, int64_t in_at, Tensor& output, int64_t out_at, const PlaneGeometry& sg,
                    Compute&& compute) {
        OutputValues<Traits> values(output);
        compute(input_values<Traits>(input, in_at, sg.in_size(), w.copy), w.scratch, values.target(out_at, sg.out_size()));
        values.commit(out_at, sg.out_size());
    }
};

// Runs plane(input, slab geometry, scratch, output) over every slab for ops with one output.
template <class Traits, class Scratch, class Values = SlabValues<Traits>, class PlaneFn>
void run_value_slabs(const PlaneGeometry& g, const Tensor& input, OutputSink& sink, int threads, PlaneFn&& plane) {
    using W = Worker<Traits, Scratch>;
    for_each_slab<W>(input, g, threads, sink, [&](W& w, int64_t p, const Slab& slab, const OutputSink::Window& out) {
        const PlaneGeometry& sg = slab.geometry;
        const int64_t out_at = p * g.out_size() + slab.out_offset - out.origin;
        Values::run(w, input, p * g.in_size() + slab.in_offset, (*out.tensors)[0], out_at, sg,
                    [&](const auto* in, auto& scratch, auto* values) { plane(in, sg, scratch, values); });
    });
}

// The same for ops with values and indices: plane(input, slab geometry, scratch, values, spatial indices),
// whose indices `m` makes tensor positions.
template <class Traits, class Scratch, class I, class Values = SlabValues<Traits>, class PlaneFn>
void run_indexed_slabs(const PlaneGeometry& g, const Tensor& input, const IndexMapping& m, OutputSink& sink,
                       int threads, PlaneFn&& plane) {
    using W = Worker<Traits, Scratch, I>;
    for_each_slab<W>(input, g, threads, sink, [&](W& w, int64_t p, const Slab& slab, const OutputSink::Window& out) {
        const PlaneGeometry& sg = slab.geometry;
        std::vector<Tensor>& outputs = *out.tensors;
        const int64_t out_at = p * g.out_size() + slab.out_offset - out.origin;
        w.spatial.resize(static_cast<size_t>(sg.out_size()));
        Values::run(w, input, p * g.in_size() + slab.in_offset, outputs[0], out_at, sg,
                    [&](const auto* in, auto& scratch, auto* values) { plane(in, sg, scratch, values, w.spatial.data()); });
        const SlabIndices at_slab{p, slab.in_offset, g.out_size()};
        write_indices(outputs[1], static_cast<size_t>(out_at), w.spatial, at_slab, m);
    });
}

}  // namespace irlint::kernels
