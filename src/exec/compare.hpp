#pragma once
// Element-wise comparison of a computed tensor with an expected one, under the contract's tolerance:
// |actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, integers exact by default.

#include <array>
#include <cstdint>
#include <functional>
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

// Calls on_mismatch with the flat index of every element outside the tolerance, in order: a second pass,
// for the rare comparison that found mismatches.
using MismatchVisitor = std::function<void(size_t flat_index)>;
void for_each_mismatch(const Tensor& actual, const Tensor& expected, const Tolerance& tolerance,
                       const MismatchVisitor& on_mismatch);

}  // namespace irlint
