#pragma once
// A run that only compares its outputs keeps none of them: the kernels write a batch of output elements at
// a time into a buffer, which is compared with the expected tensors and then reused. A pooling output is
// often as large as its input, and a fresh page of memory costs about as much as pooling the elements
// written to it (bench/README.md); the buffer takes its pages once.

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/compare/compare.hpp"
#include "exec/kernels/plane_runs.hpp"
#include "exec/kernels/pool_kernels.hpp"

namespace irlint {

class ComparingSink final : public kernels::OutputSink {
public:
    // One per output of the run; `expected` is null for an output that is not compared.
    struct Output {
        OutputSpec spec;
        const Tensor* expected = nullptr;
        Tolerance tolerance;
    };
    // Output elements per thread in one batch: 256 KB of f32, which stays in a core's cache until compared.
    static constexpr int64_t kBatchElementsPerThread = 65536;
    // On one thread no batch wakes other threads, so batches are smaller: the buffer's fresh pages are most
    // of what a small layer's run spends beyond its kernel (25 of them for 25,088 f32 outputs).
    static constexpr int64_t kBatchElementsOnOneThread = 8192;
    explicit ComparingSink(std::vector<Output> outputs, int64_t batch_elements_per_thread = kBatchElementsPerThread,
                           int64_t batch_elements_on_one_thread = kBatchElementsOnOneThread);

    int64_t batch_elements(int threads) override;
    bool stopped() const override { return !conclusive(); }
    Window window(int64_t first, int64_t last) override;
    void filled(int64_t end) override;

    // False once an output needs the whole tensors compared (see PiecewiseComparison).
    bool conclusive() const;
    // The comparison of output i, which must have an expected tensor; after the run, when conclusive().
    Comparison result(size_t i) const { return comparisons_[i]->result(); }
    // The time filled() spent comparing, within the run's time.
    double compare_milliseconds() const { return compare_ms_; }

private:
    void reserve(int64_t elements);

    std::vector<Output> outputs_;
    std::vector<std::unique_ptr<PiecewiseComparison>> comparisons_;  // null where not compared
    std::vector<Tensor> buffers_;  // element 0 of each is output element begin_
    int64_t total_ = 0;
    int64_t batch_elements_per_thread_ = 0, batch_elements_on_one_thread_ = 0;
    int64_t batch_elements_ = 0;  // as last asked
    int64_t begin_ = 0;  // a multiple of kCompareChunk: what lies before was compared
    int64_t end_ = 0;    // what lies before was written
    double compare_ms_ = 0;
};

}  // namespace irlint
