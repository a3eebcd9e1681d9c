#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "exec/compare/compare.hpp"
#include "pool_oracle.hpp"

using namespace irlint;
using irlint::test::kInf;
using irlint::test::kNaN;
using irlint::test::make_tensor;

namespace {


Tensor f64(const std::vector<double>& values) {
    return make_tensor(ElementType::f64, {static_cast<int64_t>(values.size())}, values);
}

template <class T>
Tensor integers(ElementType type, std::vector<T> values) {
    Tensor t(type, {static_cast<int64_t>(values.size())});
    for (size_t i = 0; i < values.size(); ++i) t.mutable_data<T>()[i] = values[i];
    return t;
}

}  // namespace

TEST_CASE("compare: default tolerances follow the contract") {
    auto same = [](Tolerance t, double atol, double rtol) { return t.atol == atol && t.rtol == rtol; };
    CHECK(same(default_tolerance(ElementType::f64), 1e-6, 1e-5));
    CHECK(same(default_tolerance(ElementType::f32), 1e-6, 1e-5));
    CHECK(same(default_tolerance(ElementType::f16), 1e-3, 1e-3));
    CHECK(same(default_tolerance(ElementType::bf16), 1e-2, 1e-2));
    for (ElementType t : {ElementType::i8, ElementType::u8, ElementType::i32, ElementType::i64, ElementType::u64})
        CHECK(same(default_tolerance(t), 0, 0));
}

TEST_CASE("compare: identical tensors match and every error is exact") {
    const Tensor t = make_tensor(ElementType::f32, {2, 2}, {1, -2, 0.5, 1e30});
    const Comparison c = compare_tensors(t, t, default_tolerance(ElementType::f32));
    CHECK(c.matches());
    CHECK(c.total == 4);
    CHECK(c.mismatches == 0);
    CHECK_FALSE(c.first_mismatch.has_value());
    CHECK(c.histogram[0] == 4);
    CHECK(c.max_abs_err == 0);
    CHECK(c.mean_abs_err == 0);
}

TEST_CASE("compare: NaN equals NaN; NaN or infinity against a number is a mismatch") {
    CHECK(compare_tensors(f64({kNaN, 1}), f64({kNaN, 1}), {}).matches());
    const Comparison c = compare_tensors(f64({kNaN, 1, kInf}), f64({1, kNaN, 1}), {1e-6, 1e-5});
    CHECK(c.compared());
    CHECK(c.mismatches == 3);
    CHECK(c.histogram[kErrorBuckets - 1] == 3);  // the NaN / infinity bucket
    REQUIRE(c.first_mismatch.has_value());
    CHECK(*c.first_mismatch == 0);
    CHECK(std::isnan(c.first_actual));
    CHECK(c.first_expected == 1);
}

TEST_CASE("compare: an infinity equals the same infinity under any tolerance, zero included") {
    const Tensor infinities = f64({kInf, -kInf});
    CHECK(compare_tensors(infinities, infinities, default_tolerance(ElementType::f64)).matches());
    CHECK(compare_tensors(infinities, infinities, {0, 0}).matches());  // rtol * |inf| must not turn into NaN
    CHECK(compare_tensors(f64({kInf}), f64({-kInf}), default_tolerance(ElementType::f64)).mismatches == 1);
}

TEST_CASE("compare: an element matches when |actual - expected| <= atol + rtol * |expected|, bound included") {
    // atol 0.5 and rtol 0.25 are exact in binary: the bound for |expected| = 2 is exactly 1, for 0 it is 0.5.
    const Tolerance tol{0.5, 0.25};
    const Tensor expected = f64({2, -2, 2, -2, 0, 0});
    const Tensor actual = f64({3, -3, 3.0000001, -1, 0.5, -0.5000001});
    const Comparison c = compare_tensors(actual, expected, tol);
    CHECK(c.mismatches == 2);
    REQUIRE(c.first_mismatch.has_value());
    CHECK(*c.first_mismatch == 2);
    CHECK(c.first_expected == 2);
    CHECK(c.first_actual == 3.0000001);
    CHECK(c.max_abs_err == doctest::Approx(1.0000001));
    CHECK(c.max_rel_err == doctest::Approx(0.50000005));  // the two zero expectations are left out
    CHECK(c.mean_abs_err == doctest::Approx((4 + 0.0000001 + 1 + 0.0000001) / 6));
}

TEST_CASE("compare: max_rel_err leaves out elements whose expected value is 0") {
    const Comparison c = compare_tensors(f64({1, 5}), f64({0, 4}), {10, 0});
    CHECK(c.matches());
    CHECK(c.max_abs_err == 1);
    CHECK(c.max_rel_err == 0.25);
}

TEST_CASE("compare: integers are exact by default, beyond double precision too") {
    const Tolerance exact = default_tolerance(ElementType::i32);
    CHECK(compare_tensors(integers<int32_t>(ElementType::i32, {5, 100}), integers<int32_t>(ElementType::i32, {6, 100}),
                          exact)
              .mismatches == 1);
    CHECK(compare_tensors(integers<int32_t>(ElementType::i32, {5, 100}), integers<int32_t>(ElementType::i32, {6, 100}),
                          {1, 0})
              .matches());
    // 2^60 and 2^60 + 1 are the same double.
    const int64_t big = int64_t{1} << 60;
    CHECK(compare_tensors(integers<int64_t>(ElementType::i64, {big}), integers<int64_t>(ElementType::i64, {big + 1}),
                          default_tolerance(ElementType::i64))
              .mismatches == 1);
    const uint64_t huge = uint64_t{1} << 63;
    CHECK(compare_tensors(integers<uint64_t>(ElementType::u64, {huge}), integers<uint64_t>(ElementType::u64, {huge + 1}),
                          default_tolerance(ElementType::u64))
              .mismatches == 1);
    CHECK(compare_tensors(integers<uint64_t>(ElementType::u64, {huge}), integers<uint64_t>(ElementType::u64, {huge}),
                          default_tolerance(ElementType::u64))
              .matches());
}

TEST_CASE("compare: a shape or element-type difference is a problem, not element mismatches") {
    const Comparison shapes = compare_tensors(make_tensor(ElementType::f32, {2, 2}, {1, 2, 3, 4}),
                                              make_tensor(ElementType::f32, {4}, {1, 2, 3, 4}), {});
    CHECK_FALSE(shapes.compared());
    CHECK_FALSE(shapes.matches());
    CHECK(shapes.problem.find("2,2") != std::string::npos);
    CHECK(shapes.problem.find("[4]") != std::string::npos);
    CHECK(shapes.mismatches == 0);

    const Comparison types = compare_tensors(make_tensor(ElementType::f16, {2}, {1, 2}),
                                             make_tensor(ElementType::f32, {2}, {1, 2}), {});
    CHECK_FALSE(types.compared());
    CHECK(types.problem.find("f16") != std::string::npos);
    CHECK(types.problem.find("f32") != std::string::npos);
}

TEST_CASE("compare: the histogram puts each absolute error in its decade") {
    const Tensor expected = f64(std::vector<double>(kErrorBuckets, 0.0));
    const Tensor actual = f64({0, 5e-8, 5e-7, 5e-6, 5e-5, 5e-4, 5e-3, 0.5, 5, kNaN});
    const Comparison c = compare_tensors(actual, expected, {});
    for (int b = 0; b < kErrorBuckets; ++b) CHECK_MESSAGE(c.histogram[static_cast<size_t>(b)] == 1, "bucket " << b);
    CHECK(c.mismatches == kErrorBuckets - 1);

    const auto& labels = error_bucket_labels();
    std::set<std::string> distinct(labels.begin(), labels.end());
    CHECK(distinct.size() == kErrorBuckets);
    CHECK_FALSE(distinct.count(""));
}

TEST_CASE("compare: f16 values compare as their decoded floats") {
    const Tensor a = make_tensor(ElementType::f16, {3}, {1.0, 2.0, 1000.0});
    const Tensor b = make_tensor(ElementType::f16, {3}, {1.0009765625, 2.0, 1001.0});
    const Comparison c = compare_tensors(a, b, default_tolerance(ElementType::f16));
    CHECK(c.matches());  // 1e-3 + 1e-3 * 1001 covers the difference of 1 at 1000
    CHECK(c.max_abs_err == 1);
}

TEST_CASE("compare: empty tensors match") {
    const Tensor empty(ElementType::f32, {0, 3});
    const Comparison c = compare_tensors(empty, empty, {});
    CHECK(c.matches());
    CHECK(c.total == 0);
    CHECK(c.mean_abs_err == 0);
}

namespace {

// Pseudo-random values in [0, 1) with 24 bits, so exact floats.
struct UnitSequence {
    uint64_t state;
    double operator()() {
        state = state * 6364136223846793005u + 1442695040888963407u;
        return static_cast<double>(state >> 40) * 0x1p-24;
    }
};

// Pseudo-random values of many magnitudes and their outputs with errors of every size; every `special`-th
// element of the actual side is NaN or an infinity (0: none). All are exact floats.
std::pair<std::vector<double>, std::vector<double>> noisy_pair(size_t n, size_t special) {
    std::vector<double> actual(n), expected(n);
    UnitSequence next{99};
    for (size_t i = 0; i < n; ++i) {
        const double x = (next() - 0.5) * std::pow(10.0, static_cast<int>(next() * 10) - 6);
        expected[i] = static_cast<float>(i % 97 == 0 ? 0.0 : x);
        actual[i] = static_cast<float>(expected[i] + x * std::pow(10.0, -static_cast<int>(next() * 8)));
        if (special && i % special == special - 1) actual[i] = i % 2 ? kNaN : -kInf;
    }
    return {actual, expected};
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_same(const Comparison& a, const Comparison& b) {
    CHECK(a.mismatches == b.mismatches);
    CHECK(same_bits(a.max_abs_err, b.max_abs_err));
    CHECK(same_bits(a.max_rel_err, b.max_rel_err));
    CHECK(same_bits(a.mean_abs_err, b.mean_abs_err));
    CHECK(a.first_mismatch == b.first_mismatch);
    CHECK(same_bits(a.first_actual, b.first_actual));
    CHECK(a.histogram == b.histogram);
}

}  // namespace

TEST_CASE("compare: f32 gives the statistics of the same values as f64, to the bit, on one thread and two") {
    for (size_t special : {size_t{0}, size_t{5000}}) {
        const size_t n = 2048 * 300 + 5;  // whole chunks of eight-element groups, then a short last chunk
        const auto [actual, expected] = noisy_pair(n, special);
        const std::vector<int64_t> shape{static_cast<int64_t>(n)};
        const Tolerance tolerance = default_tolerance(ElementType::f32);
        const Comparison wide = compare_tensors(make_tensor(ElementType::f64, shape, actual),
                                                make_tensor(ElementType::f64, shape, expected), tolerance);
        const Tensor a = make_tensor(ElementType::f32, shape, actual), e = make_tensor(ElementType::f32, shape, expected);
        const Comparison one = compare_tensors(a, e, tolerance, 1), two = compare_tensors(a, e, tolerance, 2);
        CHECK(wide.mismatches > n / 4);
        CHECK(wide.histogram[kErrorBuckets - 1] == (special ? n / special : 0));
        CHECK(wide.max_rel_err > 0);
        check_same(one, wide);
        check_same(two, wide);
    }
}

TEST_CASE("compare: negative tolerances and zero expected values give the same f32 and f64 results") {
    const auto [actual, expected] = noisy_pair(4096, 0);
    const std::vector<int64_t> shape{4096};
    for (const Tolerance tolerance : {Tolerance{-1e-3, 1e-2}, Tolerance{1e-3, -1e-2}, Tolerance{0, 0}}) {
        const Comparison f32 = compare_tensors(make_tensor(ElementType::f32, shape, actual),
                                               make_tensor(ElementType::f32, shape, expected), tolerance);
        check_same(f32, compare_tensors(make_tensor(ElementType::f64, shape, actual),
                                        make_tensor(ElementType::f64, shape, expected), tolerance));
        CHECK(f32.mismatches > 0);
    }
}

namespace {

// Chunks mostly within the tolerance, as the comparison's float shortcut expects, with values of one kind
// that tests one of its arguments: signs that change around 0, a zero on one side, subnormals, exponents so
// far apart that a float subtraction rounds, values near the largest float whose difference overflows a
// float, errors within a few ulps of atol + rtol |e|, and relative errors that rise in the middle of a
// chunk. How often they come changes from chunk to chunk, from every element to one in 64. A tensor has one
// kind only, so that no kind's errors outweigh another's in the sums. All are exact floats.
std::pair<std::vector<double>, std::vector<double>> awkward_pair(size_t n, const Tolerance& tol, uint64_t kind) {
    std::vector<double> actual(n), expected(n);
    uint64_t state = kind + 7;
    const auto next = [&state] {
        state = state * 6364136223846793005u + 1442695040888963407u;
        return state >> 33;
    };
    const auto unit = [&] { return static_cast<double>(next() % (1u << 24)) * 0x1p-24; };  // [0, 1)
    for (size_t i = 0; i < n; ++i) {
        const double sign = next() % 2 ? 1.0 : -1.0;
        auto e = static_cast<float>(sign * (unit() + 0.01) * std::pow(10.0, static_cast<int>(next() % 6) - 3));
        auto a = static_cast<float>(e + (unit() - 0.5) * 1e-7 * e);
        const uint64_t rarity = uint64_t{1} << (i / 1024 % 7);
        if (next() % rarity == 0) switch (kind % 9) {
                case 0: e = static_cast<float>(sign * 1e-9), a = -e; break;
                case 1: a = 0, e = static_cast<float>(sign * unit() * 1e-6); break;
                case 2: e = 0, a = static_cast<float>(sign * unit() * 1e-6); break;
                case 3:
                    e = static_cast<float>(static_cast<double>(next() % 64) * 0x1p-149);
                    a = static_cast<float>(static_cast<double>(next() % 64) * 0x1p-149);
                    break;
                case 4: a = static_cast<float>(sign), e = static_cast<float>(sign * 1e-30 * unit()); break;
                case 5: a = static_cast<float>(e * (next() % 2 ? 3 + unit() : unit() / 2)); break;  // may round
                case 6: a = FLT_MAX, e = -0.75f * FLT_MAX; break;
                case 7: {
                    const double bound = tol.atol + tol.rtol * std::fabs(static_cast<double>(e));
                    a = static_cast<float>(e + bound);
                    for (uint64_t step = next() % 5; step > 0; --step) a = std::nextafter(a, next() % 2 ? FLT_MAX : -FLT_MAX);
                    break;
                }
                default: e = static_cast<float>(sign * 1e-20), a = static_cast<float>(e * (1 + 2 * unit())); break;
            }
        actual[i] = a, expected[i] = e;
    }
    return {actual, expected};
}

}  // namespace

TEST_CASE("compare: f32 values that test every float shortcut give the f64 results to the bit, under any tolerance") {
    const size_t n = 1024 * 7;
    const std::vector<int64_t> shape{static_cast<int64_t>(n)};
    for (const Tolerance tolerance : {default_tolerance(ElementType::f32), Tolerance{0, 1e-5}, Tolerance{1e-6, 0},
                                      Tolerance{1e-40, 1e-3}, Tolerance{1e-50, 1e-7}, Tolerance{0, 0.3},
                                      Tolerance{0, double{0.3f}}, Tolerance{double{1e-4f}, double{0.01f}}, Tolerance{1e-30, 4.1},
                                      Tolerance{3e38, 1e30}, Tolerance{0, 0}})
        for (uint64_t kind = 0; kind < 45; ++kind) {
            CAPTURE(tolerance.atol);
            CAPTURE(tolerance.rtol);
            CAPTURE(kind);
            const auto [actual, expected] = awkward_pair(n, tolerance, kind);
            const Comparison wide = compare_tensors(make_tensor(ElementType::f64, shape, actual),
                                                    make_tensor(ElementType::f64, shape, expected), tolerance);
            const Tensor a = make_tensor(ElementType::f32, shape, actual);
            const Tensor e = make_tensor(ElementType::f32, shape, expected);
            CHECK(wide.histogram[kErrorBuckets - 1] == 0);
            check_same(compare_tensors(a, e, tolerance, 1), wide);
        }
}

TEST_CASE("compare: f32 errors of magnitudes far apart, whose sums round in some orders, give the f64 sum to the bit") {
    const size_t n = 2048 * 4;
    std::vector<double> actual(n), expected(n);
    UnitSequence unit{11};
    for (size_t i = 0; i < n; ++i) {
        const size_t chunk = i / 2048;  // decades apart: 40 in chunks 1 and 3, 2 in chunk 2
        const int decades = chunk == 2 ? 2 : 40;
        const auto e = static_cast<float>((1 + unit()) * std::pow(10.0, static_cast<int>(unit() * decades) - decades / 2));
        expected[i] = e;
        actual[i] = static_cast<float>(e * (1 + (unit() + 0.01) * 1e-5));
    }
    actual[0] = static_cast<float>(expected[0] * 1.4);  // the float shortcut's reach from here on: 0.4 |e|
    const std::vector<int64_t> shape{static_cast<int64_t>(n)};
    for (const Tolerance tolerance : {Tolerance{0, 1}, default_tolerance(ElementType::f32)}) {
        const Comparison wide = compare_tensors(make_tensor(ElementType::f64, shape, actual),
                                                make_tensor(ElementType::f64, shape, expected), tolerance);
        const Tensor a = make_tensor(ElementType::f32, shape, actual), e = make_tensor(ElementType::f32, shape, expected);
        CHECK(wide.histogram[0] == 0);
        check_same(compare_tensors(a, e, tolerance, 1), wide);
    }
}

TEST_CASE("compare: fed piece by piece, a comparison within the tolerance gives compare_tensors' result to the bit") {
    const size_t n = 2048 * 40 + 5;
    const auto [actual, expected] = noisy_pair(n, 0);
    const std::vector<int64_t> shape{static_cast<int64_t>(n)};
    const Tolerance loose{1e3, 0};
    for (const ElementType type : {ElementType::f32, ElementType::f64, ElementType::f16, ElementType::bf16}) {
        const Tensor a = make_tensor(type, shape, actual), e = make_tensor(type, shape, expected);
        const size_t bytes = static_cast<size_t>(element_type_bits(type) / 8);
        const Comparison whole = compare_tensors(a, e, loose, 2);
        REQUIRE(whole.matches());
        CHECK(whole.max_abs_err > 0);
        for (const size_t piece : {kCompareChunk, kCompareChunk * 7, n}) {
            INFO(element_type_name(type) << " in pieces of " << piece);
            PiecewiseComparison pieces(e, loose);
            for (size_t first = 0; first < n; first += piece)
                pieces.add(a.bytes() + first * bytes, first, std::min(piece, n - first));
            REQUIRE(pieces.conclusive());
            const Comparison c = pieces.result();
            CHECK(c.total == n);
            check_same(c, whole);
        }
    }
}

TEST_CASE("compare: a piece with a mismatch, or integers that differ, leave the judgement to whole tensors") {
    const std::vector<int64_t> shape{5000};
    std::vector<double> values(5000, 1.0), other = values;
    other[4100] = 2.0;
    for (const ElementType type : {ElementType::f32, ElementType::i32}) {
        const Tensor a = make_tensor(type, shape, values), e = make_tensor(type, shape, other);
        PiecewiseComparison pieces(e, Tolerance{0.5, 0});  // 1 against 2 is outside; integers differ at all
        pieces.add(a.bytes(), 0, kCompareChunk * 2);
        CHECK(pieces.conclusive());  // the difference is in the third chunk
        pieces.add(a.bytes() + kCompareChunk * 2 * static_cast<size_t>(element_type_bits(type) / 8), kCompareChunk * 2,
                   5000 - kCompareChunk * 2);
        CHECK_FALSE(pieces.conclusive());
    }
    const Tensor a = make_tensor(ElementType::i32, shape, values), e = make_tensor(ElementType::i32, shape, other);
    PiecewiseComparison within(e, Tolerance{5, 0});
    within.add(a.bytes(), 0, 5000);
    CHECK_FALSE(within.conclusive());  // within its tolerance, but only compare_tensors judges integers
}
