#pragma once
// Element-wise comparison of a computed tensor with an expected one, under the contract's tolerance:
// |actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, integers exact by default.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/tensor.hpp"

namespace irlint {

struct Tolerance {
    double atol = 0;
    double rtol = 0;
};
Tolerance default_tolerance(ElementType t);

// Absolute-error histogram buckets: exact, then one per decade below 1e-6 ... 1, then >= 1 and NaN/inf.
inline constexpr int kErrorBuckets = 10;
const std::array<const char*, kErrorBuckets>& error_bucket_labels();

struct Comparison {
    std::string problem;  // set when the tensors cannot be compared element-wise (shape or type)
    size_t total = 0;
    size_t mismatches = 0;
    double max_abs_err = 0;
    double max_rel_err = 0;  // over elements whose expected value is not 0
    double mean_abs_err = 0;
    std::optional<size_t> first_mismatch;  // flat index
    double first_expected = 0, first_actual = 0;
    std::array<size_t, kErrorBuckets> histogram{};
    bool compared() const { return problem.empty(); }
    bool matches() const { return compared() && mismatches == 0; }
};

// Large floating-point tensors are compared on up to `threads` threads, to the same result as on one.
Comparison compare_tensors(const Tensor& actual, const Tensor& expected, const Tolerance& tolerance, int threads = 1);

// Chunks of this many elements are compared (and their errors summed) one at a time.
inline constexpr size_t kCompareChunk = 2048;

// A comparison fed the actual tensor piece by piece, in order: for a run that computes its output a batch at
// a time and keeps none of it. When it stays conclusive, result() is what compare_tensors would give on
// the whole tensors, to the bit; a piece with a mismatch, or with a difference only compare_tensors judges
// (integers, booleans), makes it inconclusive, and the caller compares whole tensors instead.
class PiecewiseComparison {
public:
    // `expected` must have the actual tensor's type and shape, and outlive the comparison.
    PiecewiseComparison(const Tensor& expected, const Tolerance& tolerance);
    ~PiecewiseComparison();
    PiecewiseComparison(const PiecewiseComparison&) = delete;
    PiecewiseComparison& operator=(const PiecewiseComparison&) = delete;

    // The actual elements [first, first + n), `first` a multiple of kCompareChunk.
    void add(const std::byte* actual, size_t first, size_t n);
    bool conclusive() const { return conclusive_; }
    Comparison result() const;

private:
    struct Totals;
    const Tensor& expected_;
    Tolerance tolerance_;
    size_t element_bytes_;
    bool conclusive_ = true;
    std::unique_ptr<Totals> totals_;
};

// Calls on_mismatch with the flat index of every element outside the tolerance, in order: a second pass,
// for the rare comparison that found mismatches.
using MismatchVisitor = std::function<void(size_t flat_index)>;
void for_each_mismatch(const Tensor& actual, const Tensor& expected, const Tolerance& tolerance,
                       const MismatchVisitor& on_mismatch);

}  // namespace irlint
