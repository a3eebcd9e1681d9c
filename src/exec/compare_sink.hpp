#pragma once
// A run that only compares its outputs keeps none of them: the kernels write a batch of output elements at
// a time into a buffer, which is compared with the expected tensors and then reused. A pooling output is
// often as large as its input, and a fresh page of memory costs about as much as pooling the elements
// written to it (bench/README.md); the buffer takes its pages once.

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/compare.hpp"
#include "exec/plane_runs.hpp"
#include "exec/pool_kernels.hpp"

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
    ComparingSink(std::vector<Output> outputs, int threads, int64_t batch_elements_per_thread = kBatchElementsPerThread);

    int64_t batch_elements() const override { return batch_elements_; }
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
    int64_t batch_elements_ = 0;
    int64_t begin_ = 0;  // a multiple of kCompareChunk: what lies before was compared
    int64_t end_ = 0;    // what lies before was written
    double compare_ms_ = 0;
};

}  // namespace irlint
