#include "exec/compare.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

Tolerance default_tolerance(ElementType t) {
    switch (t) {
        case ElementType::f64:
        case ElementType::f32:
            return {1e-6, 1e-5};
        case ElementType::f16:
            return {1e-3, 1e-3};
        case ElementType::bf16:
            return {1e-2, 1e-2};
        default:
            return {0, 0};
    }
}

const std::array<const char*, kErrorBuckets>& error_bucket_labels() {
    static const std::array<const char*, kErrorBuckets> labels{
        "0",         "(0, 1e-7)", "[1e-7, 1e-6)", "[1e-6, 1e-5)", "[1e-5, 1e-4)", "[1e-4, 1e-3)", "[1e-3, 1e-2)",
        "[1e-2, 1)", ">= 1",      "nan/inf"};
    return labels;
}

namespace {

size_t bucket_of(double err) {
    if (err == 0) return 0;
    if (!std::isfinite(err)) return kErrorBuckets - 1;
    if (err >= 1) return kErrorBuckets - 2;
    if (err >= 1e-2) return 7;
    const int decade = static_cast<int>(std::floor(std::log10(err)));  // -7 .. -3 map to buckets 2 .. 6
    return static_cast<size_t>(std::clamp(decade + 9, 1, 6));
}

// Integers compare exactly as integers: doubles lose precision above 2^53.
bool integers_equal(const Tensor& a, const Tensor& b, size_t i) {
    if (a.type() == ElementType::u64) return a.data<uint64_t>()[i] == b.data<uint64_t>()[i];
    if (a.type() == ElementType::i64) return a.data<int64_t>()[i] == b.data<int64_t>()[i];
    return a.value_as_double(i) == b.value_as_double(i);
}

}  // namespace

Comparison compare_tensors(const Tensor& actual, const Tensor& expected, const Tolerance& tol) {
    return compare_tensors(actual, expected, tol, nullptr);
}

Comparison compare_tensors(const Tensor& actual, const Tensor& expected, const Tolerance& tol,
                           const MismatchVisitor& on_mismatch) {
    Comparison c;
    if (actual.shape() != expected.shape()) {
        c.problem = fmt::format("shape [{}] expected, irlint computed [{}]", join_ints(expected.shape()),
                                join_ints(actual.shape()));
        return c;
    }
    if (actual.type() != expected.type()) {
        c.problem = fmt::format("element type {} expected, irlint computed {}", element_type_name(expected.type()),
                                element_type_name(actual.type()));
        return c;
    }
    const bool exact_integers = is_integer_type(actual.type()) && tol.atol == 0 && tol.rtol == 0;
    c.total = actual.size();
    double abs_sum = 0;
    for (size_t i = 0; i < c.total; ++i) {
        const double a = actual.value_as_double(i), e = expected.value_as_double(i);
        const bool same = a == e || (std::isnan(a) && std::isnan(e));  // equal infinities too
        const double err = same ? 0 : std::fabs(a - e);
        const bool ok = exact_integers ? integers_equal(actual, expected, i)
                                       : same || (std::isfinite(err) && err <= tol.atol + tol.rtol * std::fabs(e));
        ++c.histogram[bucket_of(err)];
        if (std::isfinite(err)) {
            abs_sum += err;
            c.max_abs_err = std::max(c.max_abs_err, err);
            if (e != 0 && std::isfinite(e)) c.max_rel_err = std::max(c.max_rel_err, err / std::fabs(e));
        }
        if (!ok) {
            if (!c.first_mismatch) {
                c.first_mismatch = i;
                c.first_expected = e;
                c.first_actual = a;
            }
            ++c.mismatches;
            if (on_mismatch) on_mismatch(i);
        }
    }
    c.mean_abs_err = c.total ? abs_sum / static_cast<double>(c.total) : 0;
    return c;
}

}  // namespace irlint
