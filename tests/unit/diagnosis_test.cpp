// Mismatch diagnosis: the catalog of conventions (exec/diagnosis/conventions.hpp), the mismatch map
// (exec/diagnosis/mismatch_map.hpp) and its views (report/map_view.hpp, report/png.hpp), and the convention hints
// of output-shape-mismatch.
//
// Each convention gets a dump planted under it, computed here independently of the code under test (by
// the plain-loop oracle on a changed description, or by hand for the arithmetic conventions), and must be
// the one and only explanation of that dump.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "exec/diagnosis/conventions.hpp"
#include "core/half.hpp"
#include "exec/diagnosis/mismatch_map.hpp"
#include "pool_oracle.hpp"
#include "report/map_view.hpp"
#include "report/png.hpp"
#include "rules/pool_rules.hpp"

using namespace irlint;
using irlint::test::kInf;
using irlint::test::kNaN;
using irlint::test::make_tensor;

namespace {

const PoolOp kAvg1{PoolKind::avg_pool, 1};
const PoolOp kAvg14{PoolKind::avg_pool, 14};
const PoolOp kAvg16{PoolKind::avg_pool, 16};
const PoolOp kMax8{PoolKind::max_pool, 8};
const PoolOp kMax14{PoolKind::max_pool, 14};


PoolingDesc pooling(std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads_begin,
                    std::vector<int64_t> pads_end, RoundingType rounding = RoundingType::floor) {
    PoolingDesc d;
    d.kernel = std::move(kernel);
    d.strides = std::move(strides);
    d.pads_begin = std::move(pads_begin);
    d.pads_end = std::move(pads_end);
    d.rounding = rounding;
    return d;
}

std::vector<double> iota(size_t n, double first = 1) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = first + static_cast<double>(i);
    return v;
}

std::vector<double> random_values(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal;
    std::vector<double> v(n);
    for (double& x : v) x = normal(rng);
    return v;
}

// Output `index` of the layer computed by the plain-loop oracle: a dump from a producer that follows `desc`.
Tensor oracle_dump(const PoolOp& op, const PoolingDesc& desc, const Tensor& input, size_t index = 0) {
    oracle::Result r = oracle::pool(op, desc, input);
    REQUIRE_MESSAGE(r.ok(), r.error);
    REQUIRE(index < r.outputs.size());
    return std::move(r.outputs[index]);
}

// The ids of the conventions that explain `expected` as output `index` of the layer.
std::vector<std::string> explanations(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                                      const Tensor& expected, size_t index = 0) {
    const PoolRunResult computed = run_pool(op, desc, input);
    REQUIRE_MESSAGE(computed.ok(), computed.error);
    const MismatchedOutput output{index, &computed.outputs[index], &expected, default_tolerance(expected.type())};
    const auto found = explain_mismatches(LayerSetup{op, desc, &input}, {output});
    REQUIRE(found.size() == 1);
    std::vector<std::string> ids;
    for (const Explanation& e : found[0]) ids.push_back(e.convention);
    return ids;
}

using Ids = std::vector<std::string>;

}  // namespace

// ---- one planted dump per convention --------------------------------------------------------------------

TEST_CASE("diagnosis: rounding-floor") {
    // in 6, kernel 3, stride 2: floor 2 windows, ceil and ceil_torch 3.
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 6}, iota(6));
    const PoolingDesc layer = pooling({3}, {2}, {0}, {0}, RoundingType::ceil);
    PoolingDesc producer = layer;
    producer.rounding = RoundingType::floor;
    CHECK(explanations(kMax14, layer, x, oracle_dump(kMax14, producer, x)) == Ids{"rounding-floor"});
}

TEST_CASE("diagnosis: rounding-ceil") {
    // in 3, kernel 2, stride 2, pads 1/1: floor and ceil_torch 2 windows, ceil 3 (the last in the end padding).
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 3}, iota(3));
    const PoolingDesc layer = pooling({2}, {2}, {1}, {1});
    PoolingDesc producer = layer;
    producer.rounding = RoundingType::ceil;
    CHECK(explanations(kAvg14, layer, x, oracle_dump(kAvg14, producer, x)) == Ids{"rounding-ceil"});
}

// H: in 3, kernel 2, stride 2, pads 1/1 (ceil_torch drops the third window, which starts in the padding);
// W: in 4, kernel 3, stride 2, pads 1/1 (ceil_torch keeps it). floor gives 2x2, ceil 3x3, ceil_torch 2x3, and
// no auto_pad gives 2x3 either.
const std::vector<int64_t> kCeilTorchInput{1, 1, 3, 4};
PoolingDesc ceil_torch_example() { return pooling({2, 3}, {2, 2}, {1, 1}, {1, 1}); }

TEST_CASE("diagnosis: rounding-ceil-torch, also on an op version without it") {
    const Tensor x = make_tensor(ElementType::f32, kCeilTorchInput, random_values(12, 1));
    const PoolingDesc layer = ceil_torch_example();
    PoolingDesc producer = layer;
    producer.rounding = RoundingType::ceil_torch;
    const Tensor dump = oracle_dump(kMax14, producer, x);
    CHECK(dump.shape() == std::vector<int64_t>{1, 1, 2, 3});
    CHECK(explanations(kMax14, layer, x, dump) == Ids{"rounding-ceil-torch"});
    CHECK(explanations(kMax8, layer, x, dump) == Ids{"rounding-ceil-torch"});
}

TEST_CASE("diagnosis: exclude-pad-true") {
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 4, 4}, iota(16));
    PoolingDesc layer = pooling({3, 3}, {1, 1}, {1, 1}, {1, 1});
    layer.exclude_pad = false;
    PoolingDesc producer = layer;
    producer.exclude_pad = true;
    CHECK(explanations(kAvg1, layer, x, oracle_dump(kAvg1, producer, x)) == Ids{"exclude-pad-true"});
}

TEST_CASE("diagnosis: exclude-pad-false") {
    // The last ceil window hangs past the padded border, so counting every tap (OpenVINO) and clipping the
    // divisor there (avg-divisor-clipped) differ: the dump counts every tap.
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 4}, {1, 2, 3, 4});
    const PoolingDesc layer = pooling({3}, {2}, {1}, {1}, RoundingType::ceil);
    PoolingDesc producer = layer;
    producer.exclude_pad = false;
    const Tensor dump = oracle_dump(kAvg1, producer, x);
    CHECK(test::values_of(dump)[2] == doctest::Approx(4.0 / 3));
    CHECK(explanations(kAvg1, layer, x, dump) == Ids{"exclude-pad-false"});
}

TEST_CASE("diagnosis: avg-divisor-clipped") {
    // semantics.md: [1, 2, 3, 4], kernel 3, stride 2, pads 1/1, ceil, exclude-pad=false. OpenVINO divides the
    // last window (4, one pad, one tap past the padding) by 3; PyTorch by 2.
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 4}, {1, 2, 3, 4});
    PoolingDesc layer = pooling({3}, {2}, {1}, {1}, RoundingType::ceil);
    layer.exclude_pad = false;
    const Tensor torch = make_tensor(ElementType::f32, {1, 1, 3}, {1, 3, 2});
    CHECK(explanations(kAvg1, layer, x, torch) == Ids{"avg-divisor-clipped"});
}

TEST_CASE("diagnosis: avg-divisor-clipped on a floor-rounded layer speaks of the padding, not of ceil rounding") {
    // exclude-pad=true, floor: no window reaches past the padding, so the clipped divisor counts the pads.
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 4}, {1, 2, 3, 4});
    const PoolingDesc layer = pooling({3}, {1}, {1}, {1});
    PoolingDesc producer = layer;
    producer.exclude_pad = false;
    const Tensor dump = oracle_dump(kAvg1, producer, x);
    const PoolRunResult computed = run_pool(kAvg1, layer, x);
    REQUIRE(computed.ok());
    const MismatchedOutput output{0, &computed.outputs[0], &dump, default_tolerance(ElementType::f32)};
    const auto found = explain_mismatches(LayerSetup{kAvg1, layer, &x}, {output});
    REQUIRE(found[0].size() == 2);
    CHECK(found[0][0].convention == "exclude-pad-false");
    CHECK(found[0][1].convention == "avg-divisor-clipped");
    CHECK(found[0][1].description.find("ceil") == std::string::npos);
    CHECK(found[0][1].description.find("divides each window by its taps on the input and on the padding") !=
          std::string::npos);
}

TEST_CASE("diagnosis: avg-divisor-clipped on integers truncates like the reference") {
    const Tensor x = make_tensor(ElementType::i32, {1, 1, 4}, {10, 20, 30, 41});
    PoolingDesc layer = pooling({3}, {2}, {1}, {1}, RoundingType::ceil);
    layer.exclude_pad = false;
    const Tensor dump = make_tensor(ElementType::i32, {1, 1, 3}, {10, 30, 20});  // 30/3, 91/3, 41/2
    CHECK(explanations(kAvg1, layer, x, dump) == Ids{"avg-divisor-clipped"});
}

TEST_CASE("diagnosis: auto-pad-same-upper and auto-pad-same-lower") {
    // in 7, kernel 4, stride 2: same_upper pads 1/2, same_lower 2/1.
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 7}, iota(7));
    PoolingDesc upper = pooling({4}, {2}, {}, {});
    upper.auto_pad = PadType::same_upper;
    PoolingDesc lower = upper;
    lower.auto_pad = PadType::same_lower;
    CHECK(explanations(kMax8, lower, x, oracle_dump(kMax8, upper, x)) == Ids{"auto-pad-same-upper"});
    CHECK(explanations(kMax8, upper, x, oracle_dump(kMax8, lower, x)) == Ids{"auto-pad-same-lower"});
}

TEST_CASE("diagnosis: pads-swapped") {
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 6}, iota(6));
    const PoolingDesc layer = pooling({2}, {2}, {0}, {1});
    const PoolingDesc producer = pooling({2}, {2}, {1}, {0});
    CHECK(explanations(kMax8, layer, x, oracle_dump(kMax8, producer, x)) == Ids{"pads-swapped"});
}

TEST_CASE("diagnosis: indices-whole-tensor and indices-per-plane") {
    const Tensor x = make_tensor(ElementType::f32, {2, 3, 4, 4}, random_values(96, 2));
    PoolingDesc whole = pooling({2, 2}, {2, 2}, {}, {});
    PoolingDesc plane = whole;
    plane.axis = 2;
    CHECK(explanations(kMax8, plane, x, oracle_dump(kMax8, whole, x, 1), 1) == Ids{"indices-whole-tensor"});
    CHECK(explanations(kMax8, whole, x, oracle_dump(kMax8, plane, x, 1), 1) == Ids{"indices-per-plane"});
    plane.axis = -2;  // the same axis, counted from the end
    CHECK(explanations(kMax8, whole, x, oracle_dump(kMax8, plane, x, 1), 1) == Ids{"indices-per-plane"});
}

TEST_CASE("diagnosis: max-pad-neg-inf") {
    // semantics.md: [5], kernel 1, stride 2, pads_end 2, ceil: the second window covers no input element.
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 1}, {5});
    const PoolingDesc layer = pooling({1}, {2}, {0}, {2}, RoundingType::ceil);
    const Tensor torch = make_tensor(ElementType::f32, {1, 1, 2}, {5, -kInf});
    CHECK(explanations(kMax8, layer, x, torch) == Ids{"max-pad-neg-inf"});
    const Tensor all_neg_inf = make_tensor(ElementType::f16, {1, 1, 2}, {-kInf, -kInf});
    const PoolingDesc plain = pooling({2}, {1}, {0}, {0});
    CHECK(explanations(kMax8, plain, all_neg_inf, make_tensor(ElementType::f16, {1, 1, 1}, {-kInf})) ==
          Ids{"max-pad-neg-inf"});
}

TEST_CASE("diagnosis: max-nan-propagates") {
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 4}, {1, kNaN, 3, 2});
    const PoolingDesc layer = pooling({2}, {2}, {0}, {0});
    const Tensor numpy = make_tensor(ElementType::f32, {1, 1, 2}, {kNaN, 3});
    CHECK(explanations(kMax8, layer, x, numpy) == Ids{"max-nan-propagates"});
    // Its indices point at the NaN (position 1), where OpenVINO's point at the 1 (position 0).
    const Tensor indices = make_tensor(ElementType::i64, {1, 1, 2}, {1, 2});
    CHECK(explanations(kMax8, layer, x, indices, 1) == Ids{"max-nan-propagates"});
}

TEST_CASE("diagnosis: avg-f32-accumulation, f16 and bf16") {
    // A large first tap swallows every later small one when the running sum is rounded to the element type.
    struct Case {
        ElementType type;
        double first, rest;
    };
    for (const Case& c : {Case{ElementType::f16, 2048, 0.5}, Case{ElementType::bf16, 2048, 7}}) {
        std::vector<double> values(16, c.rest);
        values[0] = c.first;
        const Tensor x = make_tensor(c.type, {1, 1, 1, 16}, values);
        const PoolingDesc layer = pooling({1, 16}, {1, 1}, {0, 0}, {0, 0});
        float sum = 0;
        for (int i = 0; i < 16; ++i) sum += static_cast<float>(x.value_as_double(static_cast<size_t>(i)));
        const Tensor dump = make_tensor(c.type, {1, 1, 1, 1}, {sum / 16});
        CAPTURE(element_type_name(c.type));
        CHECK(explanations(kAvg1, layer, x, dump) == Ids{"avg-f32-accumulation"});
    }
}

// ---- what explains nothing ------------------------------------------------------------------------------

TEST_CASE("diagnosis: random noise is explained by no convention") {
    const Tensor x = make_tensor(ElementType::f32, {1, 2, 6, 6}, random_values(72, 3));
    PoolingDesc avg = pooling({3, 3}, {2, 2}, {1, 1}, {1, 1}, RoundingType::ceil);
    avg.exclude_pad = false;
    const Tensor avg_noise = make_tensor(ElementType::f32, {1, 2, 4, 4}, random_values(32, 4));
    CHECK(explanations(kAvg14, avg, x, avg_noise).empty());

    PoolingDesc max = pooling({2, 2}, {2, 2}, {0, 0}, {1, 1}, RoundingType::ceil);
    const PoolRunResult computed = run_pool(kMax8, max, x);
    REQUIRE(computed.ok());
    std::vector<double> noisy = test::values_of(computed.outputs[0]);
    const std::vector<double> noise = random_values(noisy.size(), 5);
    for (size_t i = 0; i < noisy.size(); ++i) noisy[i] += 0.1 * noise[i];
    CHECK(explanations(kMax8, max, x, make_tensor(ElementType::f32, computed.outputs[0].shape(), noisy)).empty());
}

TEST_CASE("diagnosis: nothing to explain when the dump matches irlint") {
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 6}, iota(6));
    const PoolingDesc layer = pooling({2}, {2}, {0}, {0});
    CHECK(explanations(kMax8, layer, x, oracle_dump(kMax8, layer, x)).empty());
}

TEST_CASE("diagnosis: every output is explained on its own, each convention computed once") {
    const Tensor x = make_tensor(ElementType::f32, {1, 1, 6}, iota(6));
    const PoolingDesc layer = pooling({2}, {2}, {0}, {1});
    const PoolingDesc producer = pooling({2}, {2}, {1}, {0});
    const Tensor values = oracle_dump(kMax8, producer, x, 0);
    const Tensor noise = make_tensor(ElementType::i64, {1, 1, 3}, {7, 7, 7});
    const PoolRunResult computed = run_pool(kMax8, layer, x);
    REQUIRE(computed.ok());
    const auto found = explain_mismatches(
        LayerSetup{kMax8, layer, &x},
        {{0, &computed.outputs[0], &values, default_tolerance(ElementType::f32)},
         {1, &computed.outputs[1], &noise, default_tolerance(ElementType::i64)}});
    REQUIRE(found.size() == 2);
    REQUIRE(found[0].size() == 1);
    CHECK(found[0][0].convention == "pads-swapped");
    CHECK(found[1].empty());
}

TEST_CASE("diagnosis: windows far past the data cost only their taps on it; too many taps are declined") {
    // 3D windows of 2^20 taps per axis over a single input element: counted, not visited.
    const Tensor one = make_tensor(ElementType::f32, {1, 1, 1, 1, 1}, {6});
    PoolingDesc wide = pooling({1 << 20, 1 << 20, 1 << 20}, {1, 1, 1}, {1 << 19, 1 << 19, 1 << 19},
                               {1 << 19, 1 << 19, 1 << 19});
    wide.exclude_pad = false;
    const PoolRunResult r = run_pool_with(Arithmetic::avg_divisor_clipped, kAvg16, wide, one);
    REQUIRE_MESSAGE(r.ok(), r.error);
    CHECK(r.outputs[0].shape() == std::vector<int64_t>{1, 1, 2, 2, 2});
    CHECK(r.outputs[0].value_as_double(0) == doctest::Approx(6.0 / std::pow(2.0, 60)));

    const Tensor big = make_tensor(ElementType::f32, {1, 1, 200, 200}, std::vector<double>(40000, 1));
    const PoolingDesc huge = pooling({200, 200}, {1, 1}, {199, 199}, {199, 199});
    CHECK_FALSE(run_pool_with(Arithmetic::avg_divisor_clipped, kAvg1, huge, big).ok());
}

TEST_CASE("diagnosis: the catalog's ids are unique kebab-case, each documented with its description") {
    std::ifstream file(IRLINT_TESTDATA "/../docs/diagnosis.md");
    REQUIRE(file.good());
    std::stringstream docs;
    docs << file.rdbuf();
    std::set<std::string_view> seen;
    for (const Convention& c : convention_catalog()) {
        CAPTURE(c.id);
        CHECK(seen.insert(c.id).second);
        CHECK(c.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string_view::npos);
        CHECK(docs.str().find(fmt::format("### {}\n", c.id)) != std::string::npos);
        CHECK(docs.str().find(std::string(c.description)) != std::string::npos);
    }
}

// ---- the map ----------------------------------------------------------------------------------------------

namespace {

MismatchMap map_of(const std::vector<int64_t>& shape, const std::vector<std::vector<int64_t>>& positions) {
    MismatchMapBuilder b(shape);
    for (const auto& pos : positions) {
        int64_t flat = 0;
        for (size_t i = 0; i < shape.size(); ++i) flat = flat * shape[i] + pos[i];
        b.add(static_cast<size_t>(flat));
    }
    return b.map();
}

}  // namespace

TEST_CASE("map: 4D counts per cell, channel and band") {
    // 2 x 3 x 4 x 5: the last row of channel 1 in both batches, and one interior element of channel 2.
    std::vector<std::vector<int64_t>> positions;
    for (int64_t n = 0; n < 2; ++n)
        for (int64_t w = 0; w < 5; ++w) positions.push_back({n, 1, 3, w});
    positions.push_back({0, 2, 1, 2});
    const MismatchMap m = map_of({2, 3, 4, 5}, positions);
    CHECK(m.mismatches == 11);
    CHECK(m.rows == 4);
    CHECK(m.cols == 5);
    CHECK(m.block_rows == 1);
    CHECK(m.elements_per_position == 6);
    CHECK(m.cell(3, 0) == 2);
    CHECK(m.cell(3, 4) == 2);
    CHECK(m.cell(1, 2) == 1);
    CHECK(m.cell(0, 0) == 0);
    CHECK(m.cell_fraction(3, 0) == doctest::Approx(2.0 / 6));
    CHECK(m.channels == std::vector<size_t>{0, 10, 1});
    CHECK(m.depths.empty());
    CHECK(m.bands.last_row == 10);
    CHECK(m.bands.first_column == 0);  // the corners count in their row
    CHECK(m.bands.last_column == 0);
    CHECK(m.bands.first_row == 0);
    CHECK(m.bands.interior == 1);
}

TEST_CASE("map: a 3D output is one row of columns, with no row bands") {
    const MismatchMap m = map_of({1, 2, 7}, {{0, 0, 0}, {0, 1, 6}, {0, 1, 3}});
    CHECK(m.rows == 1);
    CHECK(m.cols == 7);
    CHECK(m.cell(0, 0) == 1);
    CHECK(m.cell(0, 6) == 1);
    CHECK(m.bands.first_row == 0);
    CHECK(m.bands.last_row == 0);
    CHECK(m.bands.first_column == 1);
    CHECK(m.bands.last_column == 1);
    CHECK(m.bands.interior == 1);
}

TEST_CASE("map: a 5D output sums the depth into the plane and counts per depth plane") {
    const MismatchMap m = map_of({1, 1, 3, 2, 2}, {{0, 0, 0, 0, 0}, {0, 0, 2, 0, 0}, {0, 0, 1, 1, 1}});
    CHECK(m.elements_per_position == 3);
    CHECK(m.cell(0, 0) == 2);
    CHECK(m.cell(1, 1) == 1);
    CHECK(m.depths == std::vector<size_t>{1, 1, 1});
    CHECK(m.bands.first_plane == 1);
    CHECK(m.bands.last_plane == 1);
    CHECK(m.bands.interior == 0);  // every position of a 2x2 plane is on its border
}

TEST_CASE("map: a huge plane is summed into blocks, a huge line into runs") {
    const MismatchMap square = map_of({1, 1, 300, 300}, {{0, 0, 299, 299}, {0, 0, 0, 0}});
    CHECK(square.block_rows == 2);
    CHECK(square.block_cols == 2);
    CHECK(square.grid_rows == 150);
    CHECK(square.cells.size() == 150 * 150);
    CHECK(square.cell(149, 149) == 1);
    CHECK(square.cell_fraction(149, 149) == doctest::Approx(0.25));
    const MismatchMap line = map_of({1, 1, 100000}, {{0, 0, 99999}});
    CHECK(line.block_cols == 2);
    CHECK(line.grid_cols == 50000);
    CHECK(line.cell(0, 49999) == 1);
    const MismatchMap channels = map_of({1, 200000, 1}, {{0, 199999, 0}});
    CHECK(channels.channel_block == 4);
    CHECK(channels.channels.size() == 50000);
    CHECK(channels.channels.back() == 1);
}

TEST_CASE("map: text shades the positions and names the bands") {
    std::vector<std::vector<int64_t>> positions;
    for (int64_t w = 0; w < 4; ++w) positions.push_back({0, 0, 3, w});
    for (int64_t h = 0; h < 3; ++h) positions.push_back({0, 0, h, 3});
    const std::string text = map_text(map_of({1, 1, 4, 4}, positions), Palette::plain(), "");
    // each element counts in one band, so the bands add up: 1 + 4 + 2 = 7
    CHECK(text.find("where: all 7 mismatches on the border: first row 1, last row 4, last column 2 (a corner "
                    "counts once, in its row)\n") != std::string::npos);
    CHECK(text.find("│      ██│\n") != std::string::npos);
    CHECK(text.find("3 │████████│\n") != std::string::npos);
    CHECK(text.find("channels: 1 of 1 with mismatches, all in channel 0\n") != std::string::npos);
    CHECK(text.find("\x1b[") == std::string::npos);
    CHECK(map_text(map_of({1, 1, 4, 4}, positions), Palette::colored(), "").find("\x1b[") != std::string::npos);
}

TEST_CASE("map: text of mismatches inside and on the border, and of large planes") {
    const std::string mixed = map_text(map_of({1, 3, 5, 5}, {{0, 1, 2, 2}, {0, 1, 1, 1}, {0, 2, 0, 4}}),
                                       Palette::plain(), "");
    CHECK(mixed.find("where: 3 mismatches: 2 in the interior, 1 on the border: first row 1\n") != std::string::npos);
    CHECK(mixed.find("channels: 2 of 3 with mismatches, most in channel 1 (2)\n") != std::string::npos);
    const std::string inside = map_text(map_of({1, 1, 5, 5}, {{0, 0, 2, 2}}), Palette::plain(), "");
    CHECK(inside.find("where: 1 mismatch, in the interior\n") != std::string::npos);

    // 100 x 200: two rows of cells per line, four columns per character; the last row stays visible.
    std::vector<std::vector<int64_t>> last_row;
    for (int64_t w = 0; w < 200; ++w) last_row.push_back({0, 0, 99, w});
    const std::string large = map_text(map_of({1, 1, 100, 200}, last_row), Palette::plain(), "");
    CHECK(large.find("a character shows the worst of 7×4 positions") != std::string::npos);
    CHECK(large.find("98 │██████████████████████████████████████████████████│\n") != std::string::npos);
}

TEST_CASE("map: JSON holds the same counts") {
    const std::string json = map_json(map_of({1, 2, 2, 3}, {{0, 1, 1, 2}}));
    CHECK(json ==
          "{\"mismatches\":1,\"plane\":[2,3],\"block\":[1,1],\"elements_per_position\":2,\"cells\":[[0,0,0],[0,0,1]],"
          "\"channels\":[0,1],\"channel_block\":1,\"depths\":[],\"depth_block\":1,\"bands\":{\"first_row\":0,"
          "\"last_row\":1,\"first_column\":0,\"last_column\":0,\"first_plane\":0,\"last_plane\":0,\"interior\":0}}");
}

TEST_CASE("map: a matching output's map holds no cells, and its JSON still lists every cell as 0") {
    const MismatchMap m = map_of({1, 2, 2, 3}, {});
    CHECK(m.cells.empty());
    CHECK(m.cell(1, 2) == 0);
    CHECK(m.cell_fraction(1, 2) == 0);
    CHECK(map_json(m) ==
          "{\"mismatches\":0,\"plane\":[2,3],\"block\":[1,1],\"elements_per_position\":2,\"cells\":[[0,0,0],[0,0,0]],"
          "\"channels\":[0,0],\"channel_block\":1,\"depths\":[],\"depth_block\":1,\"bands\":{\"first_row\":0,"
          "\"last_row\":0,\"first_column\":0,\"last_column\":0,\"first_plane\":0,\"last_plane\":0,\"interior\":0}}");
}

TEST_CASE("map: heatmap panels and their PNG") {
    const MismatchMap small = map_of({1, 1, 4, 4}, {{0, 0, 3, 3}});
    const MismatchMap wide = map_of({1, 1, 2, 64}, {{0, 0, 0, 0}});
    CHECK(heatmap_scale(small) == 16);
    CHECK(heatmap_scale(wide) == 4);
    const RgbImage image = map_heatmap({&small, &wide});
    CHECK(image.width == 256);
    CHECK(image.height == 64 + kHeatmapGap + 8);
    auto pixel = [&](int64_t x, int64_t y) {
        const uint8_t* p = &image.pixels[static_cast<size_t>((y * image.width + x) * 3)];
        return std::vector<int>{p[0], p[1], p[2]};
    };
    CHECK(pixel(0, 0) == std::vector<int>{255, 255, 255});     // nothing mismatches there
    CHECK(pixel(63, 63) == std::vector<int>{165, 0, 38});      // every element of that position mismatches
    CHECK(pixel(100, 10) == std::vector<int>{128, 128, 128});  // beside the narrower panel

    std::string error;
    const auto png = encode_png(image, &error);
    REQUIRE_MESSAGE(png, error);
    CHECK(png->substr(0, 8) == "\x89PNG\r\n\x1a\n");
    CHECK(png->substr(12, 4) == "IHDR");
    auto be32 = [&](size_t at) {
        uint32_t v = 0;
        for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<uint8_t>((*png)[at + i]);
        return v;
    };
    CHECK(be32(16) == 256);
    CHECK(be32(20) == 64 + kHeatmapGap + 8);
    CHECK_FALSE(encode_png(RgbImage{}, &error));
}

// ---- check: the conventions behind declared dims ------------------------------------------------------------

TEST_CASE("check hints name the convention behind the declared dims") {
    CHECK(convention_note("rounding_type=ceil_torch") == " (PyTorch's ceil_mode=True)");
    CHECK(convention_note("auto_pad=same_upper") == " (TensorFlow's SAME padding, ONNX's SAME_UPPER)");
    CHECK(convention_note("rounding_type=ceil").empty());

    // The 2x3 of rounding-ceil-torch's example: no rounding_type or auto_pad of MaxPool-8 gives it (a pads_end
    // value does), ceil_torch of MaxPool-14 does.
    const Shape input = shape_from_port_dims(kCeilTorchInput);
    const Shape declared = shape_from_port_dims({1, 1, 2, 3});
    const PoolingDesc layer = ceil_torch_example();
    CHECK(suggest_attribute_change(kMax14, layer, input, declared) == "rounding_type=ceil_torch");
    CHECK(suggest_attribute_change(kMax8, layer, input, declared) == "pads_end=1,2");
    CHECK(suggest_convention(kMax8, layer, input, declared) ==
          "rounding_type=ceil_torch (PyTorch's ceil_mode=True) would give the declared dims; it needs MaxPool-14 "
          "(opset14 and later)");
    CHECK_FALSE(suggest_convention(kMax14, layer, input, declared));
}
