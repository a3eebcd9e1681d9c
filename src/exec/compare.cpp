#include "exec/compare.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "core/text.hpp"
#include "exec/half.hpp"
#include "exec/kernel_support.hpp"

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

// The comparison runs over chunks: both sides are widened to double into small buffers (f16 in bulk).
// A first loop finds each element's error and whether it is within the tolerance; only a chunk that has
// errors other than zero takes the second, which sums and bounds them over eight lanes (so the compiler
// vectorizes it) and builds the histogram without a logarithm: a finite error's bucket is the number of
// decade bounds it reaches, and the count of errors reaching each bound is one more sum.
constexpr size_t kChunk = 2048;
constexpr size_t kLanes = 8;
constexpr std::array<double, 7> kDecadeBounds{1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1.0};

struct Chunk {
    double actual[kChunk];
    double expected[kChunk];
    double error[kChunk];
    uint8_t equal[kChunk];  // integers under zero tolerance: equal as integers (doubles lose bits above 2^53)
    size_t size = 0;
};

struct Lanes {
    double abs_sum[kLanes]{};
    double max_abs[kLanes]{};
    double max_rel[kLanes]{};
    size_t non_finite[kLanes]{};
    size_t reaches[kDecadeBounds.size()][kLanes]{};
};

inline bool same_value(double a, double e) { return a == e || (a != a && e != e); }  // NaN matches NaN

inline double error_of(double a, double e) { return same_value(a, e) ? 0.0 : std::fabs(a - e); }

inline bool within(double err, double e, const Tolerance& tol) {
    return err == 0 || (err <= DBL_MAX && err <= tol.atol + tol.rtol * std::fabs(e));
}

inline bool chunk_ok(const Chunk& c, size_t i, bool exact, const Tolerance& tol) {
    return exact ? c.equal[i] != 0 : within(c.error[i], c.expected[i], tol);
}

struct ChunkCounts {
    size_t bad = 0, non_zero = 0;
};

// Each element's error into the chunk; how many are outside the tolerance and how many are not zero.
template <bool Exact>
IRLINT_PLANE_KERNEL ChunkCounts find_errors(Chunk& c, const Tolerance& tol) {
    ChunkCounts n;
    for (size_t i = 0; i < c.size; ++i) {
        const double err = error_of(c.actual[i], c.expected[i]);
        c.error[i] = err;
        const bool ok = Exact ? c.equal[i] != 0 : within(err, c.expected[i], tol);
        n.bad += !ok;
        n.non_zero += err != 0;
    }
    return n;
}

inline void tally(Lanes& l, size_t lane, double err, double e) {
    const bool finite = err <= DBL_MAX;
    const double counted = finite ? err : 0.0;
    const double magnitude = std::fabs(e);
    const double rel = finite && e != 0 && magnitude <= DBL_MAX ? counted / magnitude : 0.0;
    l.abs_sum[lane] += counted;
    l.max_abs[lane] = counted > l.max_abs[lane] ? counted : l.max_abs[lane];
    l.max_rel[lane] = rel > l.max_rel[lane] ? rel : l.max_rel[lane];
    l.non_finite[lane] += !finite;
    for (size_t b = 0; b < kDecadeBounds.size(); ++b) l.reaches[b][lane] += finite && err >= kDecadeBounds[b];
}

IRLINT_PLANE_KERNEL void tally_errors(Lanes& l, const Chunk& c) {
    size_t i = 0;
    for (; i + kLanes <= c.size; i += kLanes)
        for (size_t k = 0; k < kLanes; ++k) tally(l, k, c.error[i + k], c.expected[i + k]);
    for (size_t k = 0; i + k < c.size; ++k) tally(l, k, c.error[i + k], c.expected[i + k]);
}

// The element type's values of [begin, begin + n) widened to double; `equal` where integers compare exactly.
template <class Traits>
void widen(const Tensor& actual, const Tensor& expected, size_t begin, size_t n, bool exact, Chunk& c) {
    using S = typename Traits::Stored;
    const S* a = actual.data<S>() + begin;
    const S* e = expected.data<S>() + begin;
    c.size = n;
    if constexpr (std::is_same_v<Traits, kernels::F16>) {
        float fa[kChunk], fe[kChunk];
        f16_to_float_n(a, fa, n);
        f16_to_float_n(e, fe, n);
        for (size_t i = 0; i < n; ++i) c.actual[i] = fa[i], c.expected[i] = fe[i];
    } else {
        for (size_t i = 0; i < n; ++i) c.actual[i] = static_cast<double>(Traits::load(a[i]));
        for (size_t i = 0; i < n; ++i) c.expected[i] = static_cast<double>(Traits::load(e[i]));
    }
    if (exact)
        for (size_t i = 0; i < n; ++i) c.equal[i] = a[i] == e[i];
}

void widen_boolean(const Tensor& actual, const Tensor& expected, size_t begin, size_t n, Chunk& c) {
    const uint8_t* a = actual.data<uint8_t>() + begin;
    const uint8_t* e = expected.data<uint8_t>() + begin;
    c.size = n;
    for (size_t i = 0; i < n; ++i) {
        c.actual[i] = a[i] != 0, c.expected[i] = e[i] != 0;
        c.equal[i] = (a[i] != 0) == (e[i] != 0);
    }
}

// Calls visit(chunk) for the consecutive chunks of the two tensors, widened.
template <class Visit>
void for_each_chunk(const Tensor& actual, const Tensor& expected, bool exact, Visit&& visit) {
    auto chunk = std::make_unique<Chunk>();
    const auto run = [&](auto widen_range) {
        for (size_t begin = 0; begin < actual.size(); begin += kChunk) {
            widen_range(begin, std::min(kChunk, actual.size() - begin), *chunk);
            visit(begin, *chunk);
        }
    };
    if (actual.type() == ElementType::boolean) {
        run([&](size_t b, size_t n, Chunk& c) { widen_boolean(actual, expected, b, n, c); });
        return;
    }
    kernels::visit_element_type(actual.type(), [&](auto traits) {
        using Traits = decltype(traits);
        run([&](size_t b, size_t n, Chunk& c) { widen<Traits>(actual, expected, b, n, exact, c); });
    });
}

std::optional<std::string> incomparable(const Tensor& actual, const Tensor& expected) {
    if (actual.shape() != expected.shape())
        return fmt::format("shape [{}] expected, irlint computed [{}]", join_ints(expected.shape()),
                           join_ints(actual.shape()));
    if (actual.type() != expected.type())
        return fmt::format("element type {} expected, irlint computed {}", element_type_name(expected.type()),
                           element_type_name(actual.type()));
    return std::nullopt;
}

bool exact_integers(const Tensor& t, const Tolerance& tol) {
    return (is_integer_type(t.type()) || t.type() == ElementType::boolean) && tol.atol == 0 && tol.rtol == 0;
}

// The totals of the lanes; `non_zero` errors were tallied, the rest were 0.
void summarize(const Lanes& l, size_t non_zero, Comparison& c) {
    double abs_sum = 0;
    size_t reaches[kDecadeBounds.size()]{}, non_finite = 0;
    const size_t exact = c.total - non_zero;
    for (size_t k = 0; k < kLanes; ++k) {
        abs_sum += l.abs_sum[k];
        c.max_abs_err = std::max(c.max_abs_err, l.max_abs[k]);
        c.max_rel_err = std::max(c.max_rel_err, l.max_rel[k]);
        non_finite += l.non_finite[k];
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) reaches[b] += l.reaches[b][k];
    }
    c.histogram[0] = exact;
    c.histogram[1] = c.total - exact - non_finite - reaches[0];
    for (size_t b = 1; b < kDecadeBounds.size(); ++b) c.histogram[b + 1] = reaches[b - 1] - reaches[b];
    c.histogram[kErrorBuckets - 2] = reaches[kDecadeBounds.size() - 1];
    c.histogram[kErrorBuckets - 1] = non_finite;
    c.mean_abs_err = c.total ? abs_sum / static_cast<double>(c.total) : 0;
}

}  // namespace

Comparison compare_tensors(const Tensor& actual, const Tensor& expected, const Tolerance& tol) {
    Comparison c;
    if (auto problem = incomparable(actual, expected)) {
        c.problem = std::move(*problem);
        return c;
    }
    c.total = actual.size();
    const bool exact = exact_integers(actual, tol);
    Lanes lanes;
    size_t non_zero = 0;
    for_each_chunk(actual, expected, exact, [&](size_t begin, Chunk& chunk) {
        const ChunkCounts n = exact ? find_errors<true>(chunk, tol) : find_errors<false>(chunk, tol);
        c.mismatches += n.bad;
        non_zero += n.non_zero;
        if (n.non_zero) tally_errors(lanes, chunk);
        if (c.first_mismatch || n.bad == 0) return;
        for (size_t i = 0; i < chunk.size; ++i) {
            if (chunk_ok(chunk, i, exact, tol)) continue;
            c.first_mismatch = begin + i;
            c.first_expected = chunk.expected[i];
            c.first_actual = chunk.actual[i];
            break;
        }
    });
    summarize(lanes, non_zero, c);
    return c;
}

void for_each_mismatch(const Tensor& actual, const Tensor& expected, const Tolerance& tol,
                       const MismatchVisitor& on_mismatch) {
    if (incomparable(actual, expected)) return;
    const bool exact = exact_integers(actual, tol);
    for_each_chunk(actual, expected, exact, [&](size_t begin, Chunk& chunk) {
        find_errors<false>(chunk, tol);
        for (size_t i = 0; i < chunk.size; ++i)
            if (!chunk_ok(chunk, i, exact, tol)) on_mismatch(begin + i);
    });
}

}  // namespace irlint
