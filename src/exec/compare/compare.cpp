#include "exec/compare/compare.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "core/text.hpp"
#include "core/half.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/kernels/worker_pool.hpp"

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
constexpr size_t kChunk = kCompareChunk;
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

// What one chunk adds to the sum of the errors, in the order it is added: its four lanes, then the
// elements past its last whole group one by one. Kept per chunk so that chunks compared on several threads
// are added up in the order of one thread, to the same bits.
struct ChunkSum {
    std::array<double, 4> lanes{};
    std::array<double, 3> tail{};
    size_t tail_size = 0;
};

void add_in_order(double& total, const ChunkSum& s) {
    for (double lane : s.lanes) total += lane;
    for (size_t i = 0; i < s.tail_size; ++i) total += s.tail[i];
}

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
ChunkCounts find_errors(Chunk& c, const Tolerance& tol, bool exact) {
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
void add_errors(Chunk& c, ErrorTotals& t) {
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

// Floating-point chunks need no widened buffers: one loop reads both sides and does what find_errors and
// add_errors do together, in the same lanes and the same order of additions, so the totals are the same
// bits; the comparison then runs near memory speed even when every element differs. The tally packs three
// counts per lane (a chunk gives a lane fewer than 2^20 of each): outside the tolerance, not zero, not finite.
constexpr int kTallyShift = 21;
constexpr uint64_t kTallyMask = (uint64_t{1} << kTallyShift) - 1;

// Four values of the element type, read at once.
template <class T>
struct FourOf;
template <>
struct FourOf<float> {
    using type = float __attribute__((vector_size(4 * sizeof(float))));
};
template <>
struct FourOf<double> {
    using type = Vec4;
};

template <class T>
ChunkCounts compare_floats(const T* IRLINT_RESTRICT a, const T* IRLINT_RESTRICT e, size_t n,
                                               const Tolerance& tol, ErrorTotals& t, ChunkSum& chunk_sum) {
    using In4 = typename FourOf<T>::type;
    const size_t whole = n / 4 * 4;
    const Vec4 zero{}, one = zero + 1.0, huge = zero + DBL_MAX, atol = zero + tol.atol, rtol = zero + tol.rtol;
    const Count4 bad_bit = Count4{} + 1, non_zero_bit = bad_bit << kTallyShift, non_finite_bit = non_zero_bit << kTallyShift;
    Vec4 sum{}, max_abs{}, max_rel{};
    Count4 tally{}, reaches[kDecadeBounds.size()]{};
    for (size_t i = 0; i < whole; i += 4) {
        In4 a_in, e_in;
        std::memcpy(&a_in, a + i, sizeof a_in);
        std::memcpy(&e_in, e + i, sizeof e_in);
        const Vec4 av = __builtin_convertvector(a_in, Vec4), ev = __builtin_convertvector(e_in, Vec4);
        const Vec4 difference = av - ev;
        const Vec4 diff = difference < zero ? -difference : difference;
        const Count4 same = (av == ev) | ((av != av) & (ev != ev));  // NaN matches NaN
        const Vec4 err = same ? zero : diff;
        const Vec4 magnitude = ev < zero ? -ev : ev;
        const Vec4 scaled = rtol * magnitude;  // apart from the sum: never fused into one rounding
        const Count4 finite = err <= huge;
        const Vec4 bound = finite ? atol + scaled : zero - 1.0;
        const Vec4 slack = err == zero ? one : bound - err;
        tally += (~(slack >= zero) & bad_bit) + ((err != zero) & non_zero_bit) + (~finite & non_finite_bit);
        const Vec4 kept = finite ? err : zero;
        const Vec4 quotient = kept / magnitude;
        const Vec4 rel = ((magnitude > zero) & (magnitude <= huge)) ? quotient : zero;
        sum += kept;
        max_abs = kept > max_abs ? kept : max_abs;
        max_rel = rel > max_rel ? rel : max_rel;
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) reaches[b] -= kept >= kDecadeBounds[b];
    }
    ChunkCounts counts;
    for (size_t k = 0; k < 4; ++k) {
        const auto lane = static_cast<uint64_t>(tally[k]);
        counts.bad += lane & kTallyMask;
        counts.non_zero += (lane >> kTallyShift) & kTallyMask;
        t.non_finite += lane >> (2 * kTallyShift);
        chunk_sum.lanes[k] = sum[k];
        t.max_abs = std::max(t.max_abs, max_abs[k]);
        t.max_rel = std::max(t.max_rel, max_rel[k]);
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) t.reaches[b] += static_cast<size_t>(reaches[b][k]);
    }
    for (size_t i = whole; i < n; ++i) {
        const double av = a[i], ev = e[i];
        const double diff = std::fabs(av - ev);
        const double err = av == ev || (av != av && ev != ev) ? 0.0 : diff;
        const bool finite = err <= DBL_MAX;
        counts.bad += !(err == 0 || (finite && err <= tol.atol + tol.rtol * std::fabs(ev)));
        counts.non_zero += err != 0;
        t.non_finite += !finite;
        const double kept = finite ? err : 0.0, magnitude = std::fabs(ev);
        chunk_sum.tail[chunk_sum.tail_size++] = kept;
        t.max_abs = std::max(t.max_abs, kept);
        if (magnitude > 0 && magnitude <= DBL_MAX) t.max_rel = std::max(t.max_rel, kept / magnitude);
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) t.reaches[b] += kept >= kDecadeBounds[b];
    }
    t.non_zero += counts.non_zero;
    return counts;
}

// Eight floats in one value, and a comparison's lanes (all ones where true). The helpers below are
// inlined into their callers in this file, so the compilers' note that passing such a value depends on AVX
// does not concern them. They take them by reference all the same: GCC's note for a parameter, given at the
// end of the file, ignores the pragma, which stays on for the rest (return values, and clang's warning).
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
using Float8 = float __attribute__((vector_size(8 * sizeof(float))));
using Mask8 = decltype(Float8{} < Float8{});

inline Float8 magnitude_of(const Float8& x) {  // one AND with the sign bit's complement
    Mask8 bits;
    std::memcpy(&bits, &x, sizeof x);
    bits &= INT32_MAX;
    Float8 magnitude;
    std::memcpy(&magnitude, &bits, sizeof magnitude);
    return magnitude;
}

inline Float8 min_of(const Float8& x, const Float8& y) { return x < y ? x : y; }

inline bool any_lane(const Mask8& mask) {
    const auto folded = __builtin_shufflevector(mask, mask, 0, 1, 2, 3) | __builtin_shufflevector(mask, mask, 4, 5, 6, 7);
#if defined(__x86_64__)
    __m128 lanes;  // the sign bits in one instruction (SSE, so in the baseline and in the AVX2 copy)
    std::memcpy(&lanes, &folded, sizeof lanes);
    return _mm_movemask_ps(lanes) != 0;
#else
    uint64_t words[2];
    std::memcpy(words, &folded, sizeof words);
    return (words[0] | words[1]) != 0;
#endif
}

// The largest float not above x >= 0 (FLT_MAX above it), and the smallest float not below x.
float float_at_most(double x) {
    if (!(x < FLT_MAX)) return FLT_MAX;
    const auto f = static_cast<float>(x);
    return static_cast<double>(f) > x ? std::nextafter(f, 0.0f) : f;
}

float float_at_least(double x) {
    const auto f = static_cast<float>(x);
    return static_cast<double>(f) < x ? std::nextafter(f, FLT_MAX) : f;
}

// The usual chunk of f32, f16 or bf16 values, with the totals of compare_floats to the bit and under half
// its instructions: whole blocks of sixteen, tolerances not negative and, as it turns out, every value
// finite (a sum of the errors that is not finite says otherwise). Most elements are judged in float, eight
// at a time, and only their sum is taken in double. An error |fl(a - e)| below |e| / 2 is exact: a
// subtraction rounds only when the signs differ (the error is then at least |e|) or when a > 2e or
// a < e / 2 (at least e / 2, a float unless the difference is subnormal, and those are exact), so it is
// the double error. It is then certainly within the tolerance below fl(fl(rtol' |e|) + atol'), and its
// relative error certainly not above the largest so far, R, below fl(R' |e|): the primed factors are
// rounded down to floats after a shrink of 2^-20 that covers the float roundings, and the comparisons are
// strict, which covers the subnormal products (an exact error is a multiple of the smallest subnormal, as
// they are). A block with any other non-zero error goes through compare_floats' double arithmetic. A
// float error reaches a decade bound exactly when it reaches the bound rounded up to a float. On the
// usual data (errors of 1e-9 to 1e-6) this halves the time of a comparison whose every element differs;
// reading both arrays once is then the larger part.
class FiniteFloatChunk {
public:
    FiniteFloatChunk(const Tolerance& tol, double max_rel)
        : atol_(tol.atol), rtol_(tol.rtol), max_rel_(max_rel),
          atol_f_(Float8{} + float_at_most(tol.atol * kShrink)),
          rtol_f_(Float8{} + float_at_most(tol.rtol * kShrink)),
          reach_(reach_of(max_rel)) {}

    bool compare(const float* a, const float* e, size_t n, ErrorTotals& t, ChunkCounts& counts,
                 ChunkSum& chunk_sum) {
        for (size_t i = in_float(a, e, 0, n); i < n; i = in_float(a, e, i + 16, n)) {
            in_double(a + i, e + i, errors_ + i);
            in_double(a + i + 8, e + i + 8, errors_ + i + 8);
        }
        if (!all_finite(sum_)) return false;
        finish(n, t, counts, chunk_sum);
        return true;
    }

private:
    static constexpr double kShrink = 1 - 0x1p-20;

    // The factor of |e| below which an error is exact and its relative error not above max_rel.
    static Float8 reach_of(double max_rel) { return Float8{} + std::min(float_at_most(max_rel * kShrink), 0.5f); }

    static bool all_finite(const Vec4& x) {
        const Vec4 zero{};
        const Count4 finite = (x - x) == zero;
        return (finite[0] & finite[1] & finite[2] & finite[3]) != 0;
    }

    // The blocks of sixteen from `first` on that the float test clears, up to the first it cannot clear
    // (returned) or n. The running totals are held in locals: the compiler then keeps them in registers.
    size_t in_float(const float* IRLINT_RESTRICT a, const float* IRLINT_RESTRICT e, size_t first, size_t n) {
        const Float8 atol = atol_f_, rtol = rtol_f_, reach = reach_;
        Float8 largest = largest_;
        Mask8 non_zero_count = non_zero_;
        Vec4 sum = sum_;
        float* IRLINT_RESTRICT errors = errors_;
        // A group's errors, which are not zero, and which the float test cannot clear.
        const auto judge = [&](size_t i, Float8& err, Mask8& non_zero) {
            Float8 av, ev;
            std::memcpy(&av, a + i, sizeof av);
            std::memcpy(&ev, e + i, sizeof ev);
            const Float8 magnitude = magnitude_of(ev);
            err = magnitude_of(av - ev);
            non_zero = err != 0;
            const Float8 sure_bound = min_of(rtol * magnitude + atol, reach * magnitude);
            return (err >= sure_bound) & non_zero;
        };
        const auto add = [&](size_t i, const Float8& err, const Mask8& non_zero) {
            non_zero_count -= non_zero;
            largest = err > largest ? err : largest;
            std::memcpy(errors + i, &err, sizeof err);
            const float* stored = errors + i;  // read back: GCC widens four at once from memory, two from a register
            sum += Vec4{stored[0], stored[1], stored[2], stored[3]};
            sum += Vec4{stored[4], stored[5], stored[6], stored[7]};
        };
        size_t i = first;
        for (; i < n; i += 16) {
            Float8 err0, err1;
            Mask8 non_zero0, non_zero1;
            if (any_lane(judge(i, err0, non_zero0) | judge(i + 8, err1, non_zero1))) break;
            add(i, err0, non_zero0);
            add(i + 8, err1, non_zero1);
        }
        largest_ = largest;
        non_zero_ = non_zero_count;
        sum_ = sum;
        return i;
    }

    // Eight elements the float test cannot clear, as compare_floats computes them; their decades
    // counted here, 0 left in `errors` for the float passes.
    void in_double(const float* a, const float* e, float* errors) {
        for (size_t half = 0; half < 8; half += 4) {
            const Vec4 av{a[half], a[half + 1], a[half + 2], a[half + 3]};
            const Vec4 ev{e[half], e[half + 1], e[half + 2], e[half + 3]};
            const Vec4 zero{}, difference = av - ev;
            const Vec4 err = difference < zero ? -difference : difference, magnitude = ev < zero ? -ev : ev;
            const Vec4 scaled = rtol_ * magnitude;  // apart from the sum: never fused into one rounding
            bad_ -= err > atol_ + scaled;
            slow_non_zero_ -= err != zero;
            sum_ += err;
            slow_largest_ = err > slow_largest_ ? err : slow_largest_;
            const Vec4 rel = magnitude > zero ? err / magnitude : zero;
            for (size_t k = 0; k < 4; ++k) max_rel_ = std::max(max_rel_, rel[k]);
            for (size_t b = 0; b < kDecadeBounds.size(); ++b) slow_reaches_[b] -= err >= kDecadeBounds[b];
            for (size_t k = 0; k < 4; ++k) errors[half + k] = 0;
        }
        reach_ = reach_of(max_rel_);
    }

    void finish(size_t n, ErrorTotals& t, ChunkCounts& counts, ChunkSum& chunk_sum) const {
        double largest = 0;
        for (size_t k = 0; k < 8; ++k) {
            counts.non_zero += static_cast<size_t>(non_zero_[k]);
            largest = std::max(largest, static_cast<double>(largest_[k]));
        }
        for (size_t k = 0; k < 4; ++k) {
            counts.bad += static_cast<size_t>(bad_[k]);
            counts.non_zero += static_cast<size_t>(slow_non_zero_[k]);
            chunk_sum.lanes[k] = sum_[k];
            largest = std::max(largest, slow_largest_[k]);
            for (size_t b = 0; b < kDecadeBounds.size(); ++b) t.reaches[b] += static_cast<size_t>(slow_reaches_[b][k]);
        }
        t.max_abs = std::max(t.max_abs, largest);
        t.max_rel = std::max(t.max_rel, max_rel_);
        t.non_zero += counts.non_zero;
        count_decades(n, largest, t);
    }

    // How many float errors reach each decade bound, one pass per bound below the largest error: the
    // errors of a chunk mostly share one or two decades, so most bounds cost nothing.
    void count_decades(size_t n, double largest, ErrorTotals& t) const {
        for (size_t b = 0; b < kDecadeBounds.size() && kDecadeBounds[b] <= largest; ++b) {
            const Float8 bound = Float8{} + float_at_least(kDecadeBounds[b]);
            Mask8 reached[4]{};
            const auto count = [&](size_t i, Mask8& into) {
                Float8 err;
                std::memcpy(&err, errors_ + i, sizeof err);
                into -= err >= bound;
            };
            size_t i = 0;
            for (; i + 32 <= n; i += 32)
                for (size_t k = 0; k < 4; ++k) count(i + 8 * k, reached[k]);
            for (; i < n; i += 8) count(i, reached[0]);
            const Mask8 total = reached[0] + reached[1] + reached[2] + reached[3];
            for (size_t k = 0; k < 8; ++k) t.reaches[b] += static_cast<size_t>(total[k]);
        }
    }

    const double atol_, rtol_;
    double max_rel_;
    const Float8 atol_f_, rtol_f_;
    Float8 reach_, largest_{};
    Mask8 non_zero_{};
    Vec4 sum_{}, slow_largest_{};
    Count4 bad_{}, slow_non_zero_{}, slow_reaches_[kDecadeBounds.size()]{};
    float errors_[kChunk];
};

bool compare_finite_floats(const float* a, const float* e, size_t n, const Tolerance& tol, ErrorTotals& t,
                           ChunkCounts& counts, ChunkSum& chunk_sum) {
    if (n % 16 != 0 || !(tol.atol >= 0) || !(tol.rtol >= 0)) return false;
    FiniteFloatChunk chunk(tol, t.max_rel);
    return chunk.compare(a, e, n, t, counts, chunk_sum);
}

// n f16 or bf16 values as floats (f16 in bulk).
template <class Traits>
void widen_halves(const uint16_t* in, float* out, size_t n) {
    if constexpr (std::is_same_v<Traits, kernels::F16>)
        f16_to_float_n(in, out, n);
    else
        for (size_t i = 0; i < n; ++i) out[i] = Traits::load(in[i]);
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
                counts = kernels::with_best_isa([&] { return find_errors(c, tol, exact); });
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

namespace {

// The first element of [begin, begin + n) outside the tolerance, with its values: the chunk is widened
// again, which a comparison does once at most.
void note_first_mismatch(const Tensor& actual, const Tensor& expected, size_t begin, size_t n, const Tolerance& tol,
                         Comparison& c) {
    auto chunk = std::make_unique<Chunk>();
    kernels::visit_element_type(actual.type(), [&](auto traits) {
        widen<decltype(traits)>(actual, expected, begin, n, false, *chunk);
    });
    kernels::with_best_isa([&] { return find_errors(*chunk, tol, false); });
    for (size_t i = 0; i < n; ++i) {
        if (chunk_ok(*chunk, i, false, tol)) continue;
        c.first_mismatch = begin + i;
        c.first_expected = chunk->expected[i];
        c.first_actual = chunk->actual[i];
        return;
    }
}

ChunkCounts compare_float_chunk(const float* a, const float* e, size_t n, const Tolerance& tol, ErrorTotals& totals,
                                ChunkSum& sum) {
    return kernels::with_best_isa([&] {
        ChunkCounts counts;
        if (compare_finite_floats(a, e, n, tol, totals, counts, sum)) return counts;
        return compare_floats(a, e, n, tol, totals, sum);
    });
}

// What a run of consecutive chunks found: its totals, its chunks' sums and where the first chunk with a
// mismatch begins. The run that begins the tensor adds its chunks' sums in order into totals.abs_sum; a
// later run keeps them, to be added in order after those of the runs before it.
struct RangeResult {
    ErrorTotals totals;
    std::vector<ChunkSum> sums;
    size_t mismatches = 0;
    std::optional<size_t> first_bad_chunk;
};

// One chunk of a floating-point type whose bytes differ on the two sides: its errors into `t` and `sum`,
// halves converted to float first.
ChunkCounts compare_differing_chunk(ElementType type, const std::byte* actual, const std::byte* expected, size_t n,
                                    const Tolerance& tol, ErrorTotals& t, ChunkSum& sum) {
    const auto* a = reinterpret_cast<const uint16_t*>(actual);
    const auto* e = reinterpret_cast<const uint16_t*>(expected);
    float widened_actual[kChunk], widened_expected[kChunk];
    switch (type) {
        case ElementType::f64:
            return kernels::with_best_isa([&] {
                return compare_floats(reinterpret_cast<const double*>(actual), reinterpret_cast<const double*>(expected),
                                      n, tol, t, sum);
            });
        case ElementType::f32:
            return compare_float_chunk(reinterpret_cast<const float*>(actual), reinterpret_cast<const float*>(expected),
                                       n, tol, t, sum);
        case ElementType::f16:
            widen_halves<kernels::F16>(a, widened_actual, n);
            widen_halves<kernels::F16>(e, widened_expected, n);
            return compare_float_chunk(widened_actual, widened_expected, n, tol, t, sum);
        default:  // bf16
            widen_halves<kernels::BF16>(a, widened_actual, n);
            widen_halves<kernels::BF16>(e, widened_expected, n);
            return compare_float_chunk(widened_actual, widened_expected, n, tol, t, sum);
    }
}

// The chunks [first, last) of two floating-point tensors, skipping those that are byte for byte the same.
RangeResult compare_chunks(const Tensor& actual, const Tensor& expected, const Tolerance& tol, size_t first,
                           size_t last) {
    const size_t element_bytes = element_type_bits(actual.type()) / 8;
    RangeResult r;
    const bool begins_sum = first == 0;
    if (!begins_sum) r.sums.reserve(last - first);  // grown one by one, it costs more than the comparison
    for (size_t chunk = first; chunk < last; ++chunk) {
        const size_t begin = chunk * kChunk, n = std::min(kChunk, actual.size() - begin);
        const std::byte* a = actual.bytes() + begin * element_bytes;
        const std::byte* e = expected.bytes() + begin * element_bytes;
        if (std::memcmp(a, e, n * element_bytes) == 0) continue;
        ChunkSum sum;
        const ChunkCounts counts = compare_differing_chunk(actual.type(), a, e, n, tol, r.totals, sum);
        if (begins_sum)
            add_in_order(r.totals.abs_sum, sum);
        else
            r.sums.push_back(sum);
        r.mismatches += counts.bad;
        if (counts.bad && !r.first_bad_chunk) r.first_bad_chunk = chunk;
    }
    return r;
}

// Below this many chunks per thread (a megabyte of f32 on each side) waking threads costs more than it saves.
constexpr size_t kChunksPerThread = 128;

void compare_floating(const Tensor& actual, const Tensor& expected, const Tolerance& tol, int threads, Comparison& c,
                      ErrorTotals& totals) {
    const size_t chunks = (actual.size() + kChunk - 1) / kChunk;
    const size_t parts = std::clamp<size_t>(chunks / kChunksPerThread, 1, static_cast<size_t>(std::max(threads, 1)));
    std::vector<RangeResult> ranges(parts);
    const auto compare_part = [&](int part) {
        const auto p = static_cast<size_t>(part);
        ranges[p] = compare_chunks(actual, expected, tol, chunks * p / parts, chunks * (p + 1) / parts);
    };
    if (parts == 1)
        compare_part(0);
    else
        kernels::WorkerPool::shared().run(static_cast<int>(parts), compare_part);
    std::optional<size_t> first_bad_chunk;
    totals.abs_sum = ranges.front().totals.abs_sum;
    for (const RangeResult& r : ranges) {
        for (const ChunkSum& sum : r.sums) add_in_order(totals.abs_sum, sum);
        totals.max_abs = std::max(totals.max_abs, r.totals.max_abs);
        totals.max_rel = std::max(totals.max_rel, r.totals.max_rel);
        totals.non_zero += r.totals.non_zero;
        totals.non_finite += r.totals.non_finite;
        for (size_t b = 0; b < kDecadeBounds.size(); ++b) totals.reaches[b] += r.totals.reaches[b];
        c.mismatches += r.mismatches;
        if (!first_bad_chunk) first_bad_chunk = r.first_bad_chunk;
    }
    if (first_bad_chunk) {
        const size_t begin = *first_bad_chunk * kChunk;
        note_first_mismatch(actual, expected, begin, std::min(kChunk, actual.size() - begin), tol, c);
    }
}

bool is_floating(ElementType t) {
    return t == ElementType::f64 || t == ElementType::f32 || t == ElementType::f16 || t == ElementType::bf16;
}

}  // namespace

Comparison compare_tensors(const Tensor& actual, const Tensor& expected, const Tolerance& tol, int threads) {
    Comparison c;
    if (auto problem = incomparable(actual, expected)) {
        c.problem = std::move(*problem);
        return c;
    }
    c.total = actual.size();
    ErrorTotals totals;
    if (is_floating(actual.type())) {
        compare_floating(actual, expected, tol, threads, c, totals);
        summarize(totals, c);
        return c;
    }
    const bool exact = exact_integers(actual, tol);
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
        if (n.non_zero) kernels::with_best_isa([&] { add_errors(chunk, totals); });
    });
    summarize(totals, c);
    return c;
}

struct PiecewiseComparison::Totals : ErrorTotals {};

PiecewiseComparison::PiecewiseComparison(const Tensor& expected, const Tolerance& tolerance)
    : expected_(expected),
      tolerance_(tolerance),
      element_bytes_(static_cast<size_t>(element_type_bits(expected.type()) / 8)),
      totals_(std::make_unique<Totals>()) {}

PiecewiseComparison::~PiecewiseComparison() = default;

void PiecewiseComparison::add(const std::byte* actual, size_t first, size_t n) {
    const bool floating = is_floating(expected_.type());
    for (size_t at = 0; at < n && conclusive_; at += kChunk) {
        const size_t size = std::min(kChunk, n - at);
        const std::byte* a = actual + at * element_bytes_;
        const std::byte* e = expected_.bytes() + (first + at) * element_bytes_;
        if (std::memcmp(a, e, size * element_bytes_) == 0) continue;
        ChunkSum sum;
        conclusive_ = floating && compare_differing_chunk(expected_.type(), a, e, size, tolerance_, *totals_, sum).bad == 0;
        add_in_order(totals_->abs_sum, sum);
    }
}

Comparison PiecewiseComparison::result() const {
    Comparison c;
    c.total = expected_.size();
    summarize(*totals_, c);
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
