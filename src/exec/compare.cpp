#include "exec/compare.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
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

// The comparison runs over chunks. A chunk whose bytes are equal on both sides has every error 0 and
// costs one memcmp: that is the usual case, and it runs at memory speed. Any other chunk is widened to
// double into small buffers (f16 in bulk); a first loop finds each element's error and whether it is
// within the tolerance, and a chunk with errors other than 0 is then summed, bounded and counted by
// short loops that each vectorize. The histogram takes no logarithm: a finite error's bucket is the number
// of decade bounds it reaches, and the count of errors reaching a bound is one more sum.
constexpr size_t kChunk = 2048;
constexpr std::array<double, 7> kDecadeBounds{1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1.0};

struct Chunk {
    double actual[kChunk];
    double expected[kChunk];
    double error[kChunk];   // |actual - expected|, 0 where they are the same value; then 0 where not finite
    uint8_t equal[kChunk];  // integers under zero tolerance: equal as integers (doubles lose bits above 2^53)
    size_t size = 0;
    bool identical = false;  // the same bytes on both sides: nothing else was filled in
};

struct ErrorTotals {
    double abs_sum = 0, max_abs = 0, max_rel = 0;
    size_t non_zero = 0, non_finite = 0;
    std::array<size_t, kDecadeBounds.size()> reaches{};
};

inline bool within(double err, double e, const Tolerance& tol) {
    return err == 0 || (err <= DBL_MAX && err <= tol.atol + tol.rtol * std::fabs(e));
}

inline bool chunk_ok(const Chunk& c, size_t i, bool exact, const Tolerance& tol) {
    if (c.identical) return true;
    return exact ? c.equal[i] != 0 : within(c.error[i], c.expected[i], tol);
}

struct ChunkCounts {
    size_t bad = 0, non_zero = 0;
};

// Each element's error into the chunk; how many are outside the tolerance and how many are not zero.
// Branch-free over plain arrays, so that the loop vectorizes.
IRLINT_PLANE_KERNEL ChunkCounts find_errors(Chunk& c, const Tolerance& tol, bool exact) {
    const double atol = tol.atol, rtol = tol.rtol;
    const double* IRLINT_RESTRICT actual = c.actual;
    const double* IRLINT_RESTRICT expected = c.expected;
    const uint8_t* IRLINT_RESTRICT equal = c.equal;
    double* IRLINT_RESTRICT error = c.error;
    const size_t n = c.size;
    constexpr uint64_t kNonZero = uint64_t{1} << 32;  // a chunk has fewer elements than 2^32
    uint64_t tally = 0;
    for (size_t i = 0; i < n; ++i) {
        // Selections between values rather than boolean logic: the vectorizer turns them into blends.
        const double a = actual[i], e = expected[i];
        const double diff = std::fabs(a - e);
        const double err = a == e ? 0.0 : (a != a ? (e != e ? 0.0 : diff) : diff);  // NaN matches NaN
        error[i] = err;
        // Within the tolerance when the slack is not negative; an error that is not finite never is.
        const double bound = err <= DBL_MAX ? atol + rtol * std::fabs(e) : -1.0;
        const double slack = err == 0 ? 1.0 : bound - err;
        tally += (slack >= 0 ? 0 : 1) + (err != 0 ? kNonZero : 0);  // one sum vectorizes, two do not
    }
    uint64_t bad = tally & (kNonZero - 1), non_zero = tally >> 32;
    if (exact) {
        bad = 0;
        for (size_t i = 0; i < n; ++i) bad += equal[i] == 0;
    }
    return {bad, non_zero};
}

// Four doubles in one value (GCC's and clang's vector extension): the compiler vectorizes the loops of
// add_errors only when it is told to, as FP sums must keep their order.
using Vec4 = double __attribute__((vector_size(4 * sizeof(double))));
using Count4 = decltype(Vec4{} < Vec4{});  // a comparison's lanes: all ones where true

// The sums and bounds of a chunk's errors (after find_errors), four lanes at a time and the rest one by
// one: the same totals whatever the machine.
IRLINT_PLANE_KERNEL void add_errors(Chunk& c, ErrorTotals& t) {
    const size_t n = c.size, whole = n / 4 * 4;
    uint64_t non_finite = 0;
    for (size_t i = 0; i < n; ++i) {  // a non-finite error counts in its own bucket only
        const bool finite = c.error[i] <= DBL_MAX;
        non_finite += !finite;
        c.error[i] = finite ? c.error[i] : 0.0;
    }
    const Vec4 zero{}, huge = zero + DBL_MAX;
    Vec4 sum{}, max_abs{}, max_rel{};
    Count4 reaches[kDecadeBounds.size()]{};
    for (size_t i = 0; i < whole; i += 4) {
        Vec4 err, e;
        std::memcpy(&err, c.error + i, sizeof err);
        std::memcpy(&e, c.expected + i, sizeof e);
        const Vec4 magnitude = e < zero ? -e : e;
        const Vec4 quotient = err / magnitude;  // kept only where the magnitude is finite and not 0
        const Vec4 rel = ((magnitude > zero) & (magnitude <= huge)) ? quotient : zero;
        sum += err;
        max_abs = err > max_abs ? err : max_abs;
        max_rel = rel > max_rel ? rel : max_rel;
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) reaches[b] -= err >= kDecadeBounds[b];
    }
    for (size_t k = 0; k < 4; ++k) {
        t.abs_sum += sum[k];
        t.max_abs = std::max(t.max_abs, max_abs[k]);
        t.max_rel = std::max(t.max_rel, max_rel[k]);
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) t.reaches[b] += static_cast<size_t>(reaches[b][k]);
    }
    for (size_t i = whole; i < n; ++i) {
        const double err = c.error[i], magnitude = std::fabs(c.expected[i]);
        t.abs_sum += err;
        t.max_abs = std::max(t.max_abs, err);
        if (magnitude > 0 && magnitude <= DBL_MAX) t.max_rel = std::max(t.max_rel, err / magnitude);
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) t.reaches[b] += err >= kDecadeBounds[b];
    }
    t.non_finite += non_finite;
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

bool exact_integers(const Tensor& t, const Tolerance& tol) {
    return (is_integer_type(t.type()) || t.type() == ElementType::boolean) && tol.atol == 0 && tol.rtol == 0;
}

// Calls visit(begin, chunk, counts) for the consecutive chunks of the two tensors: identical, or widened
// with their errors found.
template <class Visit>
void for_each_chunk(const Tensor& actual, const Tensor& expected, const Tolerance& tol, Visit&& visit) {
    const bool exact = exact_integers(actual, tol);
    const size_t element_bytes = actual.byte_size() / std::max<size_t>(actual.size(), 1);
    auto chunk = std::make_unique<Chunk>();
    const auto run = [&](auto widen_range) {
        for (size_t begin = 0; begin < actual.size(); begin += kChunk) {
            const size_t n = std::min(kChunk, actual.size() - begin);
            Chunk& c = *chunk;
            c.size = n;
            c.identical = std::memcmp(actual.bytes() + begin * element_bytes, expected.bytes() + begin * element_bytes,
                                      n * element_bytes) == 0;
            ChunkCounts counts;
            if (!c.identical) {
                widen_range(begin, n, c);
                counts = find_errors(c, tol, exact);
            }
            visit(begin, c, counts);
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

// The comparison's statistics from the totals of the errors that were not 0.
void summarize(const ErrorTotals& t, Comparison& c) {
    c.max_abs_err = t.max_abs;
    c.max_rel_err = t.max_rel;
    const size_t finite_non_zero = t.non_zero - t.non_finite;
    c.histogram[0] = c.total - t.non_zero;
    c.histogram[1] = finite_non_zero - t.reaches[0];
    for (size_t b = 1; b < kDecadeBounds.size(); ++b) c.histogram[b + 1] = t.reaches[b - 1] - t.reaches[b];
    c.histogram[kErrorBuckets - 2] = t.reaches[kDecadeBounds.size() - 1];
    c.histogram[kErrorBuckets - 1] = t.non_finite;
    c.mean_abs_err = c.total ? t.abs_sum / static_cast<double>(c.total) : 0;
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
    ErrorTotals totals;
    for_each_chunk(actual, expected, tol, [&](size_t begin, Chunk& chunk, const ChunkCounts& n) {
        c.mismatches += n.bad;
        if (n.bad && !c.first_mismatch)
            for (size_t i = 0; i < chunk.size; ++i) {
                if (chunk_ok(chunk, i, exact, tol)) continue;
                c.first_mismatch = begin + i;
                c.first_expected = chunk.expected[i];
                c.first_actual = chunk.actual[i];
                break;
            }
        totals.non_zero += n.non_zero;
        if (n.non_zero) add_errors(chunk, totals);
    });
    summarize(totals, c);
    return c;
}

void for_each_mismatch(const Tensor& actual, const Tensor& expected, const Tolerance& tol,
                       const MismatchVisitor& on_mismatch) {
    if (incomparable(actual, expected)) return;
    const bool exact = exact_integers(actual, tol);
    for_each_chunk(actual, expected, tol, [&](size_t begin, const Chunk& chunk, const ChunkCounts& n) {
        if (n.bad == 0) return;
        for (size_t i = 0; i < chunk.size; ++i)
            if (!chunk_ok(chunk, i, exact, tol)) on_mismatch(begin + i);
    });
}

}  // namespace irlint
