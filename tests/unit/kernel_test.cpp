// The pooling kernels (exec/kernels/pool_kernels.hpp) against three references: the worked examples of the
// specifications in ../shared/specs (with their known mistakes corrected), OpenVINO's own reference
// tests, and a randomized comparison with the plain loops of pool_oracle.
//
// OpenVINO reference cases reproduced with their expected values (openvinotoolkit/openvino,
// src/plugins/template/tests/functional/op_reference/):
//   avg_pool.cpp, AvgPool-1 and AvgPool-14, each case for f32, f16 and bf16:
//     1D [1,1,5] k2 pads_end 1 exclude-pad; 1D [1,1,8] k3 s2 ceil include-pad; 2D [1,1,3,3] k2;
//     2D [1,1,4,4] k3 ceil; 2D [1,1,2,2] k2 pads 1 ceil; 2D [1,1,1,5] k3 s(1,2) pads 1 ceil exclude-pad;
//     the same with include-pad; 2D [1,1,3,3] k2 same_upper include-pad; the same with same_lower;
//     3D [1,1,2,2,2] k(1,1,2) valid ceil; 2D [1,1,3,3] k2 s2 pads 1 ceil (windows wholly in the padding)
//   avg_pool.cpp, AvgPool-14 only: 3D [1,1,2,2,2] k(1,1,2) valid ceil_torch; 2D [1,1,3,3] k2 s2 pads 1 ceil_torch
//   max_pool.cpp, MaxPool-8 (floor) and MaxPool-14 (each case with the rounding type that test gives it),
//   24 cases each:
//     1D [1,1,9] i32: k2 s1; k2 s2; k2 s2 same_lower; k2 s2 same_upper; k2 s2 d2 (i32 indices);
//        k3 s3 pads 2/2; 1D [1,2,4] f32 k3 (i32 indices); the same with axis 2
//     2D [1,1,3,3] i32 k2; [1,1,4,4] i32: k2; k2 s2; k2 d2; k3; [1,1,5,5] i32: k2 s(2,3); k2 s(3,2);
//        k2 s2 d2; k3 s2 pads 1/1; k3 s2 pads_end (2,1); [1,2,3,3] i64 k2 axis 2; [1,1,2,2] i32 k1
//     3D [1,1,3,3,3] i32: k2; k2 s2 d2 pads 1/1; k(1,3,3); k(1,2,2) axis 3
//   adaptive_avg_pool.cpp: [2,3,7] -> 3, [1,3,7,10] -> (3,3), [2,2,3,3,3] -> (2,2,2); each for f32, f16, bf16
//   adaptive_max_pool.cpp: the same three shapes, each for f32, f16, bf16, i64, i32, i16, i8, i64 indices

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "core/text.hpp"
#include "exec/compare/compare.hpp"
#include "exec/compare/compare_sink.hpp"
#include "core/half.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "pool_oracle.hpp"

using namespace irlint;
using irlint::test::make_tensor;

namespace {

const PoolOp kAvg1{PoolKind::avg_pool, 1};
const PoolOp kAvg14{PoolKind::avg_pool, 14};
const PoolOp kAvg16{PoolKind::avg_pool, 16};
const PoolOp kMax1{PoolKind::max_pool, 1};
const PoolOp kMax8{PoolKind::max_pool, 8};
const PoolOp kMax14{PoolKind::max_pool, 14};
const PoolOp kAdaptiveAvg{PoolKind::adaptive_avg_pool, 8};
const PoolOp kAdaptiveMax{PoolKind::adaptive_max_pool, 8};

std::string op_name(const PoolOp& op) { return fmt::format("{}-{}", op.type_name(), op.version); }
std::string type_name(ElementType t) { return std::string(element_type_name(t)); }

std::vector<double> iota(size_t n, double first = 1) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = first + static_cast<double>(i);
    return v;
}

// ---- comparing tensors ---------------------------------------------------------------------------------

std::string shape_or_type_difference(const Tensor& actual, const Tensor& expected) {
    if (actual.type() != expected.type())
        return fmt::format("element type {} instead of {}", type_name(actual.type()), type_name(expected.type()));
    if (actual.shape() != expected.shape())
        return fmt::format("shape [{}] instead of [{}]", join_ints(actual.shape()), join_ints(expected.shape()));
    return "";
}

std::string element_difference(const Tensor& actual, const Tensor& expected, size_t i) {
    return fmt::format("element {} (at [{}]) is {} instead of {}", i, join_ints(unravel_index(i, expected.shape())),
                       actual.value_as_double(i), expected.value_as_double(i));
}

// Empty when the tensors agree within `tol` element by element (NaN equals NaN), else the first difference.
std::string difference(const Tensor& actual, const Tensor& expected, const Tolerance& tol) {
    if (auto d = shape_or_type_difference(actual, expected); !d.empty()) return d;
    for (size_t i = 0; i < actual.size(); ++i) {
        const double a = actual.value_as_double(i), e = expected.value_as_double(i);
        const bool agree = (std::isnan(a) && std::isnan(e)) || a == e || std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e);
        if (!agree) return element_difference(actual, expected, i);
    }
    return "";
}

// Empty when the tensors hold the same bits, else the first difference.
std::string bit_difference(const Tensor& actual, const Tensor& expected) {
    if (auto d = shape_or_type_difference(actual, expected); !d.empty()) return d;
    const size_t width = static_cast<size_t>(element_type_bits(actual.type()) / 8);
    for (size_t i = 0; i < actual.size(); ++i) {
        if (std::memcmp(actual.bytes() + i * width, expected.bytes() + i * width, width) != 0) {
            std::string bits;
            if (width == 2)
                bits = fmt::format(" (bits {:#06x} instead of {:#06x})", actual.data<uint16_t>()[i], expected.data<uint16_t>()[i]);
            return element_difference(actual, expected, i) + bits;
        }
    }
    return "";
}

bool exact_type(ElementType t) { return !is_float_type(t) || t == ElementType::f16 || t == ElementType::bf16; }

void check_bits(const Tensor& actual, const Tensor& expected, const std::string& what) {
    const std::string d = bit_difference(actual, expected);
    CHECK_MESSAGE(d.empty(), what << ": " << d);
}

void check_close(const Tensor& actual, const Tensor& expected, const std::string& what) {
    const std::string d = difference(actual, expected, default_tolerance(expected.type()));
    CHECK_MESSAGE(d.empty(), what << ": " << d);
}

// ---- running --------------------------------------------------------------------------------------------

std::vector<Tensor> run_ok(const PoolOp& op, const PoolingDesc& desc, const Tensor& input, int threads = 1) {
    PoolRunResult r = run_pool(op, desc, input, KernelOptions{threads});
    REQUIRE_MESSAGE(r.ok(), op_name(op) << ": " << r.error);
    REQUIRE(r.outputs.size() == op.output_count());
    return std::move(r.outputs);
}

std::vector<Tensor> run_adaptive_ok(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                                    const std::vector<int64_t>& output_size, int threads = 1) {
    PoolRunResult r = run_adaptive_pool(op, desc, input, output_size, KernelOptions{threads});
    REQUIRE_MESSAGE(r.ok(), op_name(op) << ": " << r.error);
    REQUIRE(r.outputs.size() == op.output_count());
    return std::move(r.outputs);
}

std::vector<Tensor> oracle_ok(const PoolOp& op, const PoolingDesc& desc, const Tensor& input) {
    oracle::Result r = oracle::pool(op, desc, input);
    REQUIRE_MESSAGE(r.ok(), r.error);
    return std::move(r.outputs);
}

std::vector<Tensor> adaptive_oracle_ok(const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                                       const std::vector<int64_t>& output_size) {
    oracle::Result r = oracle::adaptive_pool(op, desc, input, output_size);
    REQUIRE_MESSAGE(r.ok(), r.error);
    return std::move(r.outputs);
}

// ---- fixed examples: each is checked against the kernel and against the oracle ---------------------------

struct MaxExample {
    std::string name;
    PoolingDesc desc;
    ElementType type = ElementType::f32;
    std::vector<int64_t> input_shape;
    std::vector<double> input;
    std::vector<int64_t> output_shape;
    std::vector<double> values;
    std::vector<double> indices;
};

void check_max_example(const PoolOp& op, const MaxExample& e) {
    INFO(op_name(op) << " " << e.name);
    const Tensor input = make_tensor(e.type, e.input_shape, e.input);
    const Tensor values = make_tensor(e.type, e.output_shape, e.values);
    const auto kernel = run_ok(op, e.desc, input);
    const auto oracle = oracle_ok(op, e.desc, input);
    check_bits(kernel[0], values, "kernel values");
    check_bits(oracle[0], values, "oracle values");
    if (op.has_index_output()) {
        const Tensor indices = make_tensor(e.desc.index_type, e.output_shape, e.indices);
        check_bits(kernel[1], indices, "kernel indices");
        check_bits(oracle[1], indices, "oracle indices");
    }
}

struct AvgExample {
    std::string name;
    PoolingDesc desc;
    std::vector<int64_t> input_shape;
    std::vector<double> input;
    std::vector<int64_t> output_shape;
    std::vector<double> expected;
};

void check_avg_example(const PoolOp& op, const AvgExample& e, ElementType type) {
    INFO(op_name(op) << " " << type_name(type) << " " << e.name);
    const Tensor input = make_tensor(type, e.input_shape, e.input);
    const Tensor expected = make_tensor(type, e.output_shape, e.expected);
    check_close(run_ok(op, e.desc, input)[0], expected, "kernel");
    check_close(oracle_ok(op, e.desc, input)[0], expected, "oracle");
}

struct AdaptiveExample {
    std::string name;
    std::vector<int64_t> input_shape;
    std::vector<double> input;
    std::vector<int64_t> output_size;
    std::vector<double> values;
    std::vector<double> indices;  // AdaptiveMaxPool only
};

std::vector<int64_t> adaptive_output_shape(const AdaptiveExample& e) {
    std::vector<int64_t> shape{e.input_shape[0], e.input_shape[1]};
    shape.insert(shape.end(), e.output_size.begin(), e.output_size.end());
    return shape;
}

void check_adaptive_example(const PoolOp& op, const AdaptiveExample& e, ElementType type) {
    INFO(op_name(op) << " " << type_name(type) << " " << e.name);
    PoolingDesc desc;
    desc.index_type = ElementType::i64;
    const Tensor input = make_tensor(type, e.input_shape, e.input);
    const Tensor values = make_tensor(type, adaptive_output_shape(e), e.values);
    const auto kernel = run_adaptive_ok(op, desc, input, e.output_size);
    const auto oracle = adaptive_oracle_ok(op, desc, input, e.output_size);
    check_close(kernel[0], values, "kernel values");
    check_close(oracle[0], values, "oracle values");
    if (op.has_index_output()) {
        const Tensor indices = make_tensor(ElementType::i64, adaptive_output_shape(e), e.indices);
        check_bits(kernel[1], indices, "kernel indices");
        check_bits(oracle[1], indices, "oracle indices");
    }
}

PoolingDesc window(std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads_begin = {},
                   std::vector<int64_t> pads_end = {}, std::vector<int64_t> dilations = {}) {
    PoolingDesc d;
    d.kernel = std::move(kernel);
    d.strides = std::move(strides);
    d.pads_begin = std::move(pads_begin);
    d.pads_end = std::move(pads_end);
    d.dilations = std::move(dilations);
    return d;
}

PoolingDesc with(PoolingDesc d, PadType pad, RoundingType rounding = RoundingType::floor) {
    d.auto_pad = pad;
    d.rounding = rounding;
    return d;
}

}  // namespace

// ---- the specifications' examples ---------------------------------------------------------------------

TEST_CASE("kernel: the eight MaxPool examples of pooling-shape-rules.ja.txt") {
    const std::vector<double> signed3x3{-1, 2, 3, 4, 5, -6, -7, 8, 9};
    PoolingDesc axis2 = window({2, 2}, {1, 1}, {0, 0}, {0, 0}, {1, 1});
    axis2.axis = 2;
    const std::vector<MaxExample> examples{
        // The spec prints -6 with index 5 at output[1][3]. That window covers rows 0..1 and columns 2..3;
        // column 3 is padding, so it holds input[0][2] = 3 and input[1][2] = -6, and the maximum is 3 at
        // flat index 2.
        {"example 1: explicit pads 1/1", window({2, 2}, {1, 1}, {1, 1}, {1, 1}), ElementType::f32, {1, 1, 3, 3},
         signed3x3, {1, 1, 4, 4},
         {-1, 2, 3, 3, 4, 5, 5, 3, 4, 8, 9, 9, -7, 8, 9, 9},
         {0, 1, 2, 2, 3, 4, 4, 2, 3, 7, 8, 8, 6, 7, 8, 8}},
        {"example 2: 1D valid", with(window({3}, {1}), PadType::valid), ElementType::f32, {1, 1, 7},
         {-1, 2, 3, 5, -7, 9, 1}, {1, 1, 5}, {3, 5, 5, 9, 9}, {2, 3, 3, 5, 5}},
        {"example 3: same_lower", with(window({2, 2}, {1, 1}), PadType::same_lower), ElementType::f32, {1, 1, 3, 3},
         signed3x3, {1, 1, 3, 3}, {-1, 2, 3, 4, 5, 5, 4, 8, 9}, {0, 1, 2, 3, 4, 4, 3, 7, 8}},
        {"example 4: same_upper, two channels", with(window({2, 2}, {1, 1}), PadType::same_upper), ElementType::f32,
         {1, 2, 3, 3}, {-1, 2, 3, 4, 5, -6, -7, 8, 9, 2, -1, 5, 6, -7, 1, 8, 2, -3}, {1, 2, 3, 3},
         {5, 5, 3, 8, 9, 9, 8, 9, 9, 6, 5, 5, 8, 2, 1, 8, 2, -3},
         {4, 4, 2, 7, 8, 8, 7, 8, 8, 12, 11, 11, 15, 16, 14, 15, 16, 17}},
        {"example 5: ceil_torch", with(window({2, 2}, {2, 2}, {1, 1}, {1, 1}), PadType::explicit_pads,
                                       RoundingType::ceil_torch),
         ElementType::f32, {1, 1, 3, 3}, iota(9), {1, 1, 2, 2}, {1, 3, 7, 9}, {0, 2, 6, 8}},
        {"example 6: valid with ceil", with(window({2, 2}, {2, 2}), PadType::valid, RoundingType::ceil),
         ElementType::f32, {1, 1, 3, 3}, signed3x3, {1, 1, 2, 2}, {5, 3, 8, 9}, {4, 2, 7, 8}},
        {"example 7: dilations 2", window({2, 2}, {1, 1}, {1, 1}, {1, 1}, {2, 2}), ElementType::f32, {1, 1, 3, 3},
         iota(9), {1, 1, 3, 3}, {5, 6, 5, 8, 9, 8, 5, 6, 5}, {4, 5, 4, 7, 8, 7, 4, 5, 4}},
        {"example 8: axis 2", axis2, ElementType::f32, {1, 2, 3, 3}, iota(18), {1, 2, 2, 2},
         {5, 6, 8, 9, 14, 15, 17, 18}, {4, 5, 7, 8, 4, 5, 7, 8}},
    };
    for (const MaxExample& e : examples) check_max_example(kMax14, e);
    for (const MaxExample& e : examples) {
        const bool v8_attrs = e.desc.rounding != RoundingType::ceil_torch;
        if (v8_attrs) check_max_example(kMax8, e);
        const bool v1_attrs = v8_attrs && e.desc.dilations.empty() && e.desc.axis == 0;
        if (v1_attrs) check_max_example(kMax1, e);
    }
}

namespace {
// The AvgPool-1 examples run on 1x3x32x32 with input[c][h][w] = 1024c + 32h + w.
const std::vector<int64_t> kSpecInput{1, 3, 32, 32};
double spec_cell(const Tensor& out, int64_t c, int64_t h, int64_t w) {
    const int64_t side = out.shape()[2];
    return out.value_as_double(static_cast<size_t>((c * side + h) * side + w));
}
}  // namespace

TEST_CASE("kernel: the five AvgPool-1 examples, with the output sizes OpenVINO computes") {
    const Tensor input = make_tensor(ElementType::f32, kSpecInput, iota(3 * 32 * 32, 0));
    auto run_example = [&](const PoolingDesc& desc, int64_t side) {
        auto out = run_ok(kAvg1, desc, input);
        CHECK(out[0].shape() == std::vector<int64_t>{1, 3, side, side});
        check_close(out[0], oracle_ok(kAvg1, desc, input)[0], "kernel against the oracle");
        return std::move(out[0]);
    };
    SUBCASE("same_upper, kernel 2, stride 2: 16x16, not the 32x32 the spec declares") {
        PoolingDesc d = with(window({2, 2}, {2, 2}, {0, 0}, {1, 1}), PadType::same_upper);
        const Tensor out = run_example(d, 16);
        CHECK(spec_cell(out, 0, 0, 0) == 16.5);  // mean of 0, 1, 32, 33
        CHECK(spec_cell(out, 0, 15, 15) == 1006.5);
        CHECK(spec_cell(out, 2, 0, 0) == 2064.5);
    }
    SUBCASE("same_upper, kernel 5, stride 2, exclude-pad false: 16x16 with pads 1/2 counted") {
        PoolingDesc d = with(window({5, 5}, {2, 2}, {0, 0}, {1, 1}), PadType::same_upper);
        d.exclude_pad = false;
        const Tensor out = run_example(d, 16);
        CHECK(spec_cell(out, 0, 0, 0) == doctest::Approx(792.0 / 25));     // rows and columns 0..3 of 25 taps
        CHECK(spec_cell(out, 0, 15, 15) == doctest::Approx(8910.0 / 25));  // rows and columns 29..31
    }
    SUBCASE("explicit pads 1, kernel 5, stride 3, exclude-pad true: 10x10") {
        const Tensor out = run_example(window({5, 5}, {3, 3}, {1, 1}, {1, 1}), 10);
        CHECK(spec_cell(out, 0, 0, 0) == 49.5);  // 792 over the 16 taps inside
        CHECK(spec_cell(out, 0, 9, 9) == 924);   // the full window centred on (28, 28)
    }
    SUBCASE("explicit pads 1, kernel 5, stride 2, exclude-pad false: 15x15") {
        PoolingDesc d = window({5, 5}, {2, 2}, {1, 1}, {1, 1});
        d.exclude_pad = false;
        const Tensor out = run_example(d, 15);
        CHECK(spec_cell(out, 0, 0, 0) == doctest::Approx(792.0 / 25));
        CHECK(spec_cell(out, 0, 14, 14) == 957);  // centred on (29, 29)
    }
    SUBCASE("valid, kernel 5, stride 2: 14x14, pads ignored") {
        const Tensor out = run_example(with(window({5, 5}, {2, 2}, {1, 1}, {1, 1}), PadType::valid), 14);
        CHECK(spec_cell(out, 0, 0, 0) == 66);
        CHECK(spec_cell(out, 0, 13, 13) == 924);
    }
}

TEST_CASE("kernel: the AdaptiveAvgPool-8 example, 32x32 to 16x16, averages 2x2 blocks") {
    const Tensor input = make_tensor(ElementType::f32, kSpecInput, iota(3 * 32 * 32, 0));
    const auto out = run_adaptive_ok(kAdaptiveAvg, PoolingDesc{}, input, {16, 16});
    REQUIRE(out[0].shape() == std::vector<int64_t>{1, 3, 16, 16});
    int wrong = 0;
    for (int64_t c = 0; c < 3; ++c)
        for (int64_t i = 0; i < 16; ++i)
            for (int64_t j = 0; j < 16; ++j)
                wrong += spec_cell(out[0], c, i, j) != 1024.0 * c + 64 * i + 2 * j + 16.5;
    CHECK(wrong == 0);
}

TEST_CASE("kernel: AdaptiveMaxPool-8 on the same input picks each block's bottom-right element") {
    const Tensor input = make_tensor(ElementType::f32, kSpecInput, iota(3 * 32 * 32, 0));
    PoolingDesc desc;
    desc.index_type = ElementType::i32;
    const auto out = run_adaptive_ok(kAdaptiveMax, desc, input, {16, 16});
    REQUIRE(out[1].type() == ElementType::i32);
    int wrong = 0;
    for (int64_t c = 0; c < 3; ++c) {
        for (int64_t i = 0; i < 16; ++i) {
            for (int64_t j = 0; j < 16; ++j) {
                const int64_t within_plane = (2 * i + 1) * 32 + 2 * j + 1;  // no batch or channel offset
                wrong += spec_cell(out[0], c, i, j) != 1024.0 * c + within_plane;
                wrong += out[1].data<int32_t>()[(c * 16 + i) * 16 + j] != within_plane;
            }
        }
    }
    CHECK(wrong == 0);
}

// ---- OpenVINO's op_reference tests ----------------------------------------------------------------------

namespace {

AvgExample avg_case(std::string name, std::vector<int64_t> in_shape, std::vector<int64_t> out_shape,
                    std::vector<double> input, std::vector<double> expected, PoolingDesc desc, bool exclude_pad,
                    RoundingType rounding, PadType pad) {
    desc.exclude_pad = exclude_pad;
    desc.rounding = rounding;
    desc.auto_pad = pad;
    return {std::move(name), std::move(desc), std::move(in_shape), std::move(input), std::move(out_shape),
            std::move(expected)};
}

// avg_pool.cpp's list for AvgPool-1 (AvgPool-14 runs it too); NOTSET pads are explicit ones.
std::vector<AvgExample> openvino_avg_pool_cases() {
    using R = RoundingType;
    using P = PadType;
    return {
        avg_case("1D pads_end 1", {1, 1, 5}, {1, 1, 5}, iota(5), {1.5, 2.5, 3.5, 4.5, 5}, window({2}, {1}, {0}, {1}),
                 true, R::floor, P::explicit_pads),
        avg_case("1D ceil, no pads, include-pad", {1, 1, 8}, {1, 1, 4}, iota(8), {2, 4, 6, 7.5},
                 window({3}, {2}, {0}, {0}), false, R::ceil, P::explicit_pads),
        avg_case("2D 3x3 k2", {1, 1, 3, 3}, {1, 1, 2, 2}, iota(9), {3, 4, 6, 7}, window({2, 2}, {1, 1}, {0, 0}, {0, 0}),
                 true, R::floor, P::explicit_pads),
        avg_case("2D 4x4 k3 ceil", {1, 1, 4, 4}, {1, 1, 2, 2}, iota(16), {6, 7, 10, 11},
                 window({3, 3}, {1, 1}, {0, 0}, {0, 0}), true, R::ceil, P::explicit_pads),
        avg_case("2D 2x2 pads 1 ceil", {1, 1, 2, 2}, {1, 1, 3, 3}, iota(4), {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4},
                 window({2, 2}, {1, 1}, {1, 1}, {1, 1}), true, R::ceil, P::explicit_pads),
        avg_case("2D 1x5 k3 s(1,2) pads 1 exclude-pad", {1, 1, 1, 5}, {1, 1, 1, 3}, iota(5), {1.5, 3, 4.5},
                 window({3, 3}, {1, 2}, {1, 1}, {1, 1}), true, R::ceil, P::explicit_pads),
        avg_case("2D 1x5 k3 s(1,2) pads 1 include-pad", {1, 1, 1, 5}, {1, 1, 1, 3}, {2.5, 2, 12, 4, 5}, {0.5, 2, 1},
                 window({3, 3}, {1, 2}, {1, 1}, {1, 1}), false, R::ceil, P::explicit_pads),
        avg_case("2D same_upper include-pad", {1, 1, 3, 3}, {1, 1, 3, 3}, iota(9),
                 {3, 4, 2.25, 6, 7, 3.75, 3.75, 4.25, 2.25}, window({2, 2}, {1, 1}, {0, 0}, {0, 0}), false, R::ceil,
                 P::same_upper),
        avg_case("2D same_lower include-pad", {1, 1, 3, 3}, {1, 1, 3, 3}, iota(9),
                 {0.25, 0.75, 1.25, 1.25, 3, 4, 2.75, 6, 7}, window({2, 2}, {1, 1}, {0, 0}, {0, 0}), false, R::ceil,
                 P::same_lower),
        avg_case("3D valid k(1,1,2)", {1, 1, 2, 2, 2}, {1, 1, 2, 2, 1}, iota(8), {1.5, 3.5, 5.5, 7.5},
                 window({1, 1, 2}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}), true, R::ceil, P::valid),
        avg_case("2D ceil, windows wholly in the padding give 0", {1, 1, 3, 3}, {1, 1, 3, 3}, iota(9),
                 {1, 2.5, 0, 5.5, 7, 0, 0, 0, 0}, window({2, 2}, {2, 2}, {1, 1}, {1, 1}), true, R::ceil,
                 P::explicit_pads),
    };
}

std::vector<AvgExample> openvino_avg_pool_v14_only_cases() {
    return {
        avg_case("3D valid k(1,1,2) ceil_torch", {1, 1, 2, 2, 2}, {1, 1, 2, 2, 1}, iota(8), {1.5, 3.5, 5.5, 7.5},
                 window({1, 1, 2}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}), true, RoundingType::ceil_torch, PadType::valid),
        avg_case("2D pads 1 ceil_torch drops the windows in the padding", {1, 1, 3, 3}, {1, 1, 2, 2}, iota(9),
                 {1, 2.5, 5.5, 7}, window({2, 2}, {2, 2}, {1, 1}, {1, 1}), true, RoundingType::ceil_torch,
                 PadType::explicit_pads),
    };
}

}  // namespace

TEST_CASE("kernel: OpenVINO's AvgPool reference cases, f32 f16 bf16") {
    for (ElementType type : {ElementType::f32, ElementType::f16, ElementType::bf16}) {
        for (const AvgExample& e : openvino_avg_pool_cases()) {
            check_avg_example(kAvg1, e, type);
            check_avg_example(kAvg14, e, type);
        }
        for (const AvgExample& e : openvino_avg_pool_v14_only_cases()) check_avg_example(kAvg14, e, type);
    }
}

namespace {

struct OpenVinoMaxCase {
    MaxExample example;
    RoundingType v14_rounding;  // the MaxPool-8 run is always floor
};

MaxExample max_case(std::string name, ElementType type, std::vector<int64_t> in_shape, std::vector<double> input,
                    std::vector<int64_t> out_shape, std::vector<double> values, ElementType index_type,
                    std::vector<double> indices, PoolingDesc desc, PadType pad = PadType::explicit_pads,
                    int64_t axis = 0) {
    desc.index_type = index_type;
    desc.auto_pad = pad;
    desc.axis = axis;
    return {std::move(name), std::move(desc), type, std::move(in_shape), std::move(input), std::move(out_shape),
            std::move(values), std::move(indices)};
}

std::vector<OpenVinoMaxCase> openvino_max_pool_cases() {
    using E = ElementType;
    using R = RoundingType;
    const std::vector<double> a4x4{8, -9, 1, -16, -14, 15, -17, 19, -13, 3, 10, 17, 16, -11, -15, 20};
    const std::vector<double> b5x5{0,  -2, 24, 13, 7,  -5, -4, 4, 21, -18, 81, 20, -15,
                                   37, 23, 41, 18, 42, 8,  32, 9, 57, 58,  29, 3};
    const std::vector<double> c3x3x3{0,  1,  2,  3,  4,  5, 6, 7, 8,   10,  20, 30, 40, -20,
                                     60, 70, 80, 50, 50, 1, 2, 3, -15, -10, 50, 30, 81};
    const std::vector<double> f2x4{1.0, 2.0, 3.0, 4.0, 0.0, -3.14, -2.71, 5.0};
    return {
        {max_case("1D k2", E::i32, {1, 1, 9}, iota(9), {1, 1, 8}, {2, 3, 4, 5, 6, 7, 8, 9}, E::i64,
                  {1, 2, 3, 4, 5, 6, 7, 8}, window({2}, {1}, {}, {}, {1})),
         R::floor},
        {max_case("1D k2 s2", E::i32, {1, 1, 9}, iota(9), {1, 1, 4}, {2, 4, 6, 8}, E::i64, {1, 3, 5, 7},
                  window({2}, {2}, {}, {}, {1})),
         R::floor},
        {max_case("1D k2 s2 same_lower", E::i32, {1, 1, 9}, iota(9), {1, 1, 5}, {1, 3, 5, 7, 9}, E::i64,
                  {0, 2, 4, 6, 8}, window({2}, {2}, {}, {}, {1}), PadType::same_lower),
         R::floor},
        {max_case("1D k2 s2 same_upper", E::i32, {1, 1, 9}, iota(9), {1, 1, 5}, {2, 4, 6, 8, 9}, E::i64,
                  {1, 3, 5, 7, 8}, window({2}, {2}, {}, {}, {1}), PadType::same_upper),
         R::floor},
        {max_case("1D k2 s2 d2", E::i32, {1, 1, 9}, iota(9), {1, 1, 4}, {3, 5, 7, 9}, E::i32, {2, 4, 6, 8},
                  window({2}, {2}, {}, {}, {2})),
         R::ceil},
        {max_case("1D f32 two channels k3", E::f32, {1, 2, 4}, f2x4, {1, 2, 2}, {3, 4, 0, 5}, E::i32, {2, 3, 4, 7},
                  window({3}, {1}, {}, {}, {1})),
         R::ceil},
        {max_case("1D f32 two channels k3 axis 2", E::f32, {1, 2, 4}, f2x4, {1, 2, 2}, {3, 4, 0, 5}, E::i32,
                  {2, 3, 0, 3}, window({3}, {1}, {}, {}, {1}), PadType::explicit_pads, 2),
         R::ceil_torch},
        {max_case("1D k3 s3 pads 2/2", E::i32, {1, 1, 9}, {1, 9, 3, 8, 5, 2, 6, 4, 7}, {1, 1, 4}, {1, 9, 6, 7}, E::i32,
                  {0, 1, 6, 8}, window({3}, {3}, {2}, {2}, {1})),
         R::ceil_torch},
        {max_case("2D 3x3 k2", E::i32, {1, 1, 3, 3}, {3, 9, 10, 5, 7, 2, 18, 8, -2}, {1, 1, 2, 2}, {9, 10, 18, 8},
                  E::i32, {1, 2, 6, 7}, window({2, 2}, {1, 1}, {}, {}, {1, 1})),
         R::floor},
        {max_case("2D 4x4 k2", E::i32, {1, 1, 4, 4}, a4x4, {1, 1, 3, 3}, {15, 15, 19, 15, 15, 19, 16, 10, 20}, E::i32,
                  {5, 5, 7, 5, 5, 7, 12, 10, 15}, window({2, 2}, {1, 1}, {}, {}, {1, 1})),
         R::floor},
        {max_case("2D 4x4 k2 s2", E::i32, {1, 1, 4, 4}, a4x4, {1, 1, 2, 2}, {15, 19, 16, 20}, E::i32, {5, 7, 12, 15},
                  window({2, 2}, {2, 2}, {}, {}, {1, 1})),
         R::floor},
        {max_case("2D 4x4 k2 d2", E::i32, {1, 1, 4, 4}, a4x4, {1, 1, 2, 2}, {10, 17, 16, 20}, E::i32,
                  {10, 11, 12, 15}, window({2, 2}, {1, 1}, {}, {}, {2, 2})),
         R::floor},
        {max_case("2D 4x4 k3", E::i32, {1, 1, 4, 4}, a4x4, {1, 1, 2, 2}, {15, 19, 16, 20}, E::i32, {5, 7, 12, 15},
                  window({3, 3}, {1, 1}, {}, {}, {1, 1})),
         R::floor},
        {max_case("2D 5x5 k2 s(2,3)", E::i32, {1, 1, 5, 5}, b5x5, {1, 1, 2, 2}, {0, 21, 81, 37}, E::i32,
                  {0, 8, 10, 13}, window({2, 2}, {2, 3}, {}, {}, {1, 1})),
         R::floor},
        {max_case("2D 5x5 k2 s(3,2)", E::i32, {1, 1, 5, 5}, b5x5, {1, 1, 2, 2}, {0, 24, 57, 58}, E::i32,
                  {0, 2, 21, 22}, window({2, 2}, {3, 2}, {}, {}, {1, 1})),
         R::floor},
        {max_case("2D 5x5 k2 s2 d2", E::i32, {1, 1, 5, 5}, b5x5, {1, 1, 2, 2}, {81, 24, 81, 58}, E::i32,
                  {10, 2, 10, 22}, window({2, 2}, {2, 2}, {}, {}, {2, 2})),
         R::floor},
        {max_case("2D 5x5 k3 s2 pads 1/1", E::i32, {1, 1, 5, 5}, b5x5, {1, 1, 3, 3},
                  {0, 24, 21, 81, 42, 37, 57, 58, 32}, E::i32, {0, 2, 8, 10, 17, 13, 21, 22, 19},
                  window({3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1})),
         R::ceil},
        {max_case("2D 5x5 k3 s2 pads_end (2,1)", E::i32, {1, 1, 5, 5}, b5x5, {1, 1, 3, 2}, {81, 37, 81, 58, 58, 58},
                  E::i32, {10, 13, 10, 22, 22, 22}, window({3, 3}, {2, 2}, {}, {2, 1}, {1, 1})),
         R::floor},
        {max_case("2D i64 two channels k2 axis 2", E::i64, {1, 2, 3, 3},
                  {0, -2, 24, 13, 7, -5, -4, 4, 21, -18, 81, 20, -15, 37, 23, 41, 18, 42}, {1, 2, 2, 2},
                  {13, 24, 13, 21, 81, 81, 41, 42}, E::i64, {3, 2, 3, 8, 1, 1, 6, 8},
                  window({2, 2}, {1, 1}, {}, {}, {1, 1}), PadType::explicit_pads, 2),
         R::ceil_torch},
        {max_case("2D k1", E::i32, {1, 1, 2, 2}, iota(4), {1, 1, 2, 2}, iota(4), E::i32, {0, 1, 2, 3},
                  window({1, 1}, {1, 1}, {}, {}, {1, 1})),
         R::ceil_torch},
        {max_case("3D k2", E::i32, {1, 1, 3, 3, 3}, c3x3x3, {1, 1, 2, 2, 2}, {40, 60, 80, 80, 50, 60, 80, 81}, E::i32,
                  {12, 14, 16, 16, 18, 14, 16, 26}, window({2, 2, 2}, {1, 1, 1}, {}, {}, {1, 1, 1})),
         R::floor},
        {max_case("3D k2 s2 d2 pads 1/1: every window holds only the centre", E::i32, {1, 1, 3, 3, 3}, c3x3x3,
                  {1, 1, 2, 2, 2}, {-20, -20, -20, -20, -20, -20, -20, -20}, E::i32, {13, 13, 13, 13, 13, 13, 13, 13},
                  window({2, 2, 2}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {2, 2, 2})),
         R::floor},
        {max_case("3D k(1,3,3)", E::i32, {1, 1, 3, 3, 3}, c3x3x3, {1, 1, 3, 1, 1}, {8, 80, 81}, E::i32, {8, 16, 26},
                  window({1, 3, 3}, {1, 1, 1}, {}, {}, {1, 1, 1})),
         R::ceil},
        {max_case("3D k(1,2,2) axis 3", E::i32, {1, 1, 3, 3, 3}, c3x3x3, {1, 1, 3, 2, 2},
                  {4, 5, 7, 8, 40, 60, 80, 80, 50, 2, 50, 81}, E::i32, {4, 5, 7, 8, 3, 5, 7, 7, 0, 2, 6, 8},
                  window({1, 2, 2}, {1, 1, 1}, {}, {}, {1, 1, 1}), PadType::explicit_pads, 3),
         R::ceil_torch},
    };
}

}  // namespace

TEST_CASE("kernel: OpenVINO's MaxPool-8 and MaxPool-14 reference cases") {
    for (const OpenVinoMaxCase& c : openvino_max_pool_cases()) {
        check_max_example(kMax8, c.example);
        MaxExample v14 = c.example;
        v14.desc.rounding = c.v14_rounding;
        check_max_example(kMax14, v14);
    }
}

namespace {

const std::vector<double> kAdaptive3D{0,  4,  1, 3, -2, -5, -2, -2, 1, -3, 1,  -3, -4, 0,  -2, 1, -1, -2, 3, -1, -3,
                                      -1, -2, 3, 4, -3, -4, 1,  2,  0, -4, -5, -2, -2, -3, 2,  3, 1,  -5, 2, -4, -2};
const std::vector<double> kAdaptive5D{
    -5, 1,  -3, -4, 4,  -4, 3,  -3, -1, 0,  0,  -2, -4, 2,  0,  -4, -5, -2, -4, -4, 0,  -2, 3,  -3, 4,  -1, -4,
    -1, -1, -5, 4,  -1, -2, -3, 0,  4,  -1, -5, -4, 1,  1,  4,  -5, -5, -5, 4,  -3, -3, -3, 4,  0,  -3, -5, 1,
    4,  2,  1,  -5, -5, 1,  0,  -4, -1, 2,  -4, -2, 4,  3,  1,  -3, -3, -2, -4, -3, -3, 3,  -1, 1,  2,  2,  -4,
    -5, -4, 1,  3,  -4, -1, 2,  4,  -5, 0,  1,  -2, 0,  0,  -2, 3,  -2, -5, -3, -5, -2, -1, 3,  -2, 4,  3,  -3};

std::vector<AdaptiveExample> openvino_adaptive_avg_cases() {
    return {
        {"3D [2,3,7] -> 3", {2, 3, 7}, kAdaptive3D, {3},
         {1.66666663, 0.66666669, -3., -1.33333337, -1.66666663, -2.33333325, -0.66666669, 0., -0.33333334, 0.,
          1.33333337, -2., -0.66666669, -3.66666675, -2.33333325, 2., -0.66666669, -1.33333337},
         {}},
        {"4D [1,3,7,10] -> (3,3)",
         {1, 3, 7, 10},
         {-2, -3, -4, 3,  -5, 4,  0,  -4, -2, -4, -5, 0,  -3, 0,  -2, 0,  0,  -5, -4, -1, 3,  -1, 0,  -1,
          0,  -2, 0,  4,  1,  4,  0,  -1, -4, 2,  -2, -5, -1, -1, -2, 1,  2,  -2, -1, 2,  0,  -1, 0,  -5,
          4,  4,  3,  0,  -4, -4, -4, -2, 0,  1,  -2, -1, 4,  -2, -4, 1,  -1, -3, -4, -1, 1,  -4,
          -2, -4, -5, 0,  -4, 3,  4,  -5, -4, -2, 0,  2,  -4, -3, 3,  -1, 1,  -4, -5, 4,  2,  -5, 2,  -3,
          0,  4,  3,  3,  1,  2,  -1, -4, 1,  -3, -3, -2, 3,  4,  -2, -5, 1,  4,  4,  -2, 2,  1,  -5, -2,
          -5, 1,  1,  -2, -3, -3, -1, -5, 1,  -3, -5, -3, -4, -1, 4,  -3, 4,  -1, 4,  3,  1,  4,
          -2, -4, -4, 4,  -3, 4,  2,  -3, -2, 4,  -3, 0,  1,  -4, 4,  4,  0,  3,  -1, 3,  3,  -5, 0,  3,
          -3, 1,  -2, 4,  -5, -5, 1,  0,  -1, 0,  -3, -2, 0,  -3, 3,  -2, -2, 0,  -3, 4,  -1, 2,  -2, 2,
          -3, -1, -4, -2, 0,  2,  0,  2,  0,  -3, 4,  3,  -5, -3, -5, 1,  -5, -3, -5, 4,  -3, 3},
         {3, 3},
         {-1.08333337, -0.25000000, -0.91666669, -0.08333334, -0.66666669, 0.75000000,  -0.41666666,
          -1.33333337, -0.58333331, -1.66666663, 0.58333331,  -0.16666667, -0.33333334, -0.41666666,
          -0.16666667, -0.33333334, -0.66666669, -0.75000000, -0.91666669, 0.83333331,  -0.16666667,
          0.,          -0.25000000, -1.16666663, -1.41666663, -0.41666666, -0.08333334},
         {}},
        {"5D [2,2,3,3,3] -> (2,2,2)", {2, 2, 3, 3, 3}, kAdaptive5D, {2, 2, 2},
         {-0.750, -0.250, -1.375, -1.125, -1.125, -0.500, -0.875, -1.250, -0.375, -1.625, -1.,
          -0.500, -0.250, -0.750, -1.875, -0.625, 0.125,  -0.375, -1.625, -1.250, 0.,     -1.,
          0.875,  -0.375, -1.125, -1.375, 0.750,  -1.875, -0.625, -1.125, 1.250,  -1.},
         {}},
    };
}

std::vector<AdaptiveExample> openvino_adaptive_max_cases() {
    return {
        {"3D [2,3,7] -> 3", {2, 3, 7}, kAdaptive3D, {3},
         {4, 3, -2, 1, 1, 0, 1, 3, 3, 3, 4, 1, 2, -2, -2, 3, 2, 2},
         {1, 3, 4, 1, 3, 6, 1, 4, 4, 2, 3, 6, 0, 4, 4, 1, 4, 4}},
        {"4D [1,3,7,10] -> (3,3)",
         {1, 3, 7, 10},
         {0,  -2, -5, -5, 2,  3,  2,  -3, 1,  -2, -4, -1, -1, -1, 2,  -4, 3,  -5, -1, -1, 1,  2,  4,  -2,
          -3, -2, 0,  -5, 2,  -4, -1, -4, 4,  2,  1,  -2, 2,  -3, 0,  1,  -3, 3,  -1, 4,  0,  2,  0,  3,
          4,  -4, 1,  4,  -1, -5, -2, 4,  -3, 3,  2,  1,  0,  4,  2,  -5, 2,  -5, -2, -1, 4,  2,
          0,  4,  -2, 0,  -5, -3, 4,  -4, -2, -2, 2,  1,  4,  3,  2,  -5, -4, -4, 0,  1,  4,  -4, -3, 3,
          3,  4,  -2, -3, -4, -2, 0,  1,  -1, 3,  -2, 2,  0,  -3, -1, -1, 0,  0,  2,  2,  -2, 1,  -3, 1,
          2,  4,  3,  -5, -4, 1,  -4, 2,  0,  -2, -5, 2,  -3, -2, -3, -4, 2,  -2, -4, 2,  -4, -3,
          1,  -5, -1, -5, 2,  1,  3,  4,  3,  0,  -5, 4,  -3, -4, -1, 2,  -4, 2,  0,  -5, -3, 0,  2,  -3,
          -5, 3,  -2, -1, -5, -4, -5, 0,  -5, -1, -3, 3,  3,  -4, -3, -4, -5, 4,  -1, 1,  -1, -4, 1,  -3,
          -4, -1, -2, -3, -5, 2,  2,  -5, 1,  1,  -5, -4, 0,  2,  4,  2,  0,  2,  4,  0,  -5, 2},
         {3, 3},
         {4, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 2, 4, 4, 3, 4, 4, 3, 3, 4, 4, 4},
         {22, 5, 16, 22, 43, 48, 43, 43, 48, 1, 6, 6, 20, 25, 49, 50, 43, 49, 11, 6, 7, 41, 25, 36, 41, 66, 66}},
        {"5D [2,2,3,3,3] -> (2,2,2)", {2, 2, 3, 3, 3}, kAdaptive5D, {2, 2, 2},
         {4, 4, 4, 4, 3, 3, 4, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 3, 4, 3, 4, 3, 3, 1, 4, 4, 3, 3, 4, 3},
         {4, 4, 4, 4, 22, 22, 24, 22, 3, 14, 3, 8, 18, 14, 22, 14,
          0, 13, 12, 13, 12, 13, 12, 13, 3, 2, 7, 7, 22, 22, 24, 22}},
    };
}

}  // namespace

TEST_CASE("kernel: OpenVINO's AdaptiveAvgPool-8 reference cases, f32 f16 bf16") {
    for (ElementType type : {ElementType::f32, ElementType::f16, ElementType::bf16})
        for (const AdaptiveExample& e : openvino_adaptive_avg_cases()) check_adaptive_example(kAdaptiveAvg, e, type);
}

TEST_CASE("kernel: OpenVINO's AdaptiveMaxPool-8 reference cases, float and integer types") {
    using E = ElementType;
    for (ElementType type : {E::f32, E::f16, E::bf16, E::i64, E::i32, E::i16, E::i8})
        for (const AdaptiveExample& e : openvino_adaptive_max_cases()) check_adaptive_example(kAdaptiveMax, e, type);
}

// ---- edges of the semantics ----------------------------------------------------------------------------

TEST_CASE("kernel: a MaxPool window with no input element yields lowest() and its channel's first index") {
    // Pads 3 before a kernel of 2: the first window lies wholly in the padding.
    PoolingDesc desc = window({2}, {2}, {3}, {0});
    struct Expect {
        ElementType type;
        double lowest;
    };
    for (const Expect& e : {Expect{ElementType::f32, -FLT_MAX}, Expect{ElementType::f64, -DBL_MAX},
                            Expect{ElementType::i32, std::numeric_limits<int32_t>::lowest()},
                            Expect{ElementType::u8, 0}, Expect{ElementType::i8, -128}}) {
        INFO(type_name(e.type));
        const Tensor input = make_tensor(e.type, {2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        const auto out = run_ok(kMax8, desc, input);
        REQUIRE(out[0].shape() == std::vector<int64_t>{2, 2, 3});
        CHECK(out[0].value_as_double(9) == e.lowest);        // batch 1, channel 1, window 0
        CHECK(out[1].data<int64_t>()[9] == 1 * 6 + 1 * 3);  // b*C*S + c*S
        CHECK(out[0].value_as_double(10) == 10);             // window 1: padding and the channel's first element
        check_bits(out[1], oracle_ok(kMax8, desc, input)[1], "kernel indices against the oracle");
    }
}

TEST_CASE("kernel: f16 and bf16 MaxPool windows in the padding give the type's own lowest(), not -inf") {
    // OpenVINO's reference starts at numeric_limits<float16>::lowest() = -65504 (bits 0xFBFF) and
    // numeric_limits<bfloat16>::lowest() = bits 0xFF7F: a value of the element type, not float's.
    PoolingDesc desc = window({2}, {2}, {3}, {0});
    const struct {
        ElementType type;
        uint16_t lowest_bits;
    } cases[] = {{ElementType::f16, 0xFBFF}, {ElementType::bf16, 0xFF7F}};
    for (const auto& c : cases) {
        INFO(type_name(c.type));
        const Tensor input = make_tensor(c.type, {1, 1, 3}, {1, 2, 3});
        const auto out = run_ok(kMax8, desc, input);
        CHECK(out[0].data<uint16_t>()[0] == c.lowest_bits);
        CHECK(out[1].data<int64_t>()[0] == 0);
        check_bits(out[0], oracle_ok(kMax8, desc, input)[0], "kernel against the oracle");
    }
}

TEST_CASE("kernel: an f16 value equal to the type's lowest() is never picked, as in OpenVINO") {
    // The reference compares with a strict '>' against -65504, so a window holding only -65504 and -inf
    // reports -65504 at the channel's first index.
    PoolingDesc desc = window({2}, {2});
    const Tensor input = make_tensor(ElementType::f16, {1, 1, 4}, {1, 2, -65504, -INFINITY});
    const auto out = run_ok(kMax8, desc, input);
    CHECK(out[0].data<uint16_t>()[1] == 0xFBFF);
    CHECK(out[1].data<int64_t>()[1] == 0);
    check_bits(out[1], oracle_ok(kMax8, desc, input)[1], "kernel indices against the oracle");
}

TEST_CASE("kernel: MaxPool never picks NaN, keeps the first of equal maxima, and -inf loses to lowest()") {
    PoolingDesc desc = window({3}, {3});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Tensor input = make_tensor(ElementType::f32, {1, 1, 12}, {nan, 1, nan, 2, 7, 7, nan, nan, nan, -INFINITY,
                                                                   -INFINITY, nan});
    const auto out = run_ok(kMax8, desc, input);
    CHECK(out[0].value_as_double(0) == 1);
    CHECK(out[1].data<int64_t>()[0] == 1);
    CHECK(out[0].value_as_double(1) == 7);
    CHECK(out[1].data<int64_t>()[1] == 4);  // the first 7
    CHECK(out[0].value_as_double(2) == -FLT_MAX);
    CHECK(out[1].data<int64_t>()[2] == 0);  // nothing beat lowest(): the channel's first element
    CHECK(out[0].value_as_double(3) == -FLT_MAX);
    CHECK(out[1].data<int64_t>()[3] == 0);
}

TEST_CASE("kernel: of 0 and -0, the one first in D, H, W order wins, with indices or without") {
    // Rows (-4, 0) and (-0, -3): in row-major order 0 comes before -0, and -0 > 0 is false.
    const Tensor input = make_tensor(ElementType::f32, {1, 1, 2, 2}, {-4, 0, -0.0, -3});
    for (const PoolOp& op : {kMax1, kMax8}) {
        INFO(op_name(op));
        const auto out = run_ok(op, window({2, 2}, {1, 1}), input);
        CHECK(out[0].value_as_double(0) == 0);
        CHECK_FALSE(std::signbit(out[0].value_as_double(0)));
        if (op.has_index_output()) CHECK(out[1].data<int64_t>()[0] == 1);
    }
}

TEST_CASE("kernel: u8 windows of zeros keep index 0 of the channel, since 0 is u8's lowest()") {
    const Tensor input = make_tensor(ElementType::u8, {1, 2, 4}, {5, 0, 0, 0, 0, 0, 0, 9});
    const auto out = run_ok(kMax8, window({2}, {2}), input);
    CHECK(test::values_of(out[0]) == std::vector<double>{5, 0, 0, 9});
    CHECK(test::values_of(out[1]) == std::vector<double>{0, 0, 4, 7});
}

TEST_CASE("kernel: MaxPool axis: negative values count from the end, indices shrink modulo the trailing size") {
    const Tensor input = make_tensor(ElementType::f32, {2, 2, 2, 2}, iota(16));
    for (int64_t axis : {2, -2}) {
        PoolingDesc desc = window({2, 2}, {1, 1});
        desc.axis = axis;
        desc.index_type = ElementType::i32;
        const auto out = run_ok(kMax14, desc, input);
        CHECK(test::values_of(out[1]) == std::vector<double>{3, 3, 3, 3});
    }
    for (int64_t axis : {1, -3}) {
        PoolingDesc desc = window({2, 2}, {1, 1});
        desc.axis = axis;
        CHECK(test::values_of(run_ok(kMax14, desc, input)[1]) == std::vector<double>{3, 7, 3, 7});
    }
    CHECK(test::values_of(run_ok(kMax14, window({2, 2}, {1, 1}), input)[1]) == std::vector<double>{3, 7, 11, 15});
}

TEST_CASE("kernel: AvgPool-16 dilations; AvgPool-1 and MaxPool-1 have none") {
    const Tensor input = make_tensor(ElementType::f32, {1, 1, 5}, {1, 2, 4, 8, 16});
    CHECK(test::values_of(run_ok(kAvg16, window({2}, {1}, {0}, {0}, {2}), input)[0]) ==
          std::vector<double>{2.5, 5, 10});
    const auto plain = run_ok(kMax1, window({2}, {2}), input);
    CHECK(test::values_of(plain[0]) == std::vector<double>{2, 8});
}

TEST_CASE("kernel: a large AvgPool window sums its own taps, whatever lies before it in the line") {
    // OpenVINO adds up each window's taps. A window of 1.5s after a window holding 1e20 averages to 1.5;
    // a running total over the line would have absorbed the 1.5s into the 1e20 and give 0.
    std::vector<double> line(24, 1.5);
    line[0] = 1e20;
    for (ElementType type : {ElementType::f32, ElementType::f64}) {
        INFO(type_name(type));
        const Tensor input = make_tensor(type, {1, 1, 24}, line);
        const auto apart = run_ok(kAvg1, window({8}, {8}), input);
        CHECK(apart[0].value_as_double(1) == 1.5);
        CHECK(apart[0].value_as_double(2) == 1.5);
        const auto sliding = run_ok(kAvg1, window({12}, {1}), input);
        CHECK(sliding[0].value_as_double(12) == 1.5);
    }
}

TEST_CASE("kernel: integer AvgPool wraps its sum to the element type and truncates the quotient") {
    // OpenVINO sums in the element type and divides in integer arithmetic.
    CHECK(test::values_of(run_ok(kAvg1, window({2}, {2}), make_tensor(ElementType::i32, {1, 1, 4}, {1, 2, -1, -2}))[0]) ==
          std::vector<double>{1, -1});
    CHECK(test::values_of(run_ok(kAvg1, window({2}, {2}), make_tensor(ElementType::u8, {1, 1, 4}, {255, 255, 3, 4}))[0]) ==
          std::vector<double>{127, 3});  // 510 wraps to 254
    CHECK(test::values_of(run_ok(kAvg1, window({3}, {3}), make_tensor(ElementType::i64, {1, 1, 3}, {7, 7, 6}))[0]) ==
          std::vector<double>{6});
}

TEST_CASE("kernel: AdaptiveAvgPool on i8 and u8 rounds the quotient to nearest even") {
    const Tensor u8 = make_tensor(ElementType::u8, {1, 1, 6}, {1, 2, 2, 3, 7, 8});
    CHECK(test::values_of(run_adaptive_ok(kAdaptiveAvg, PoolingDesc{}, u8, {3})[0]) == std::vector<double>{2, 2, 8});
    const Tensor i8 = make_tensor(ElementType::i8, {1, 1, 4}, {-1, -2, -3, -4});
    CHECK(test::values_of(run_adaptive_ok(kAdaptiveAvg, PoolingDesc{}, i8, {2})[0]) == std::vector<double>{-2, -4});
}

TEST_CASE("kernel: bf16 AdaptiveAvgPool divides by the element count itself, as OpenVINO's reference does") {
    // 257 ones: the bf16 running sum sticks at 256 (256 + 1 rounds back to 256). OpenVINO's adaptive
    // reference divides that sum by the count as a float, 257, giving bf16(0.99611) = 0x3F7F; rounding
    // the divisor to bf16 first would divide by 256 and give 1.0.
    const Tensor input = make_tensor(ElementType::bf16, {1, 1, 257}, std::vector<double>(257, 1.0));
    const auto out = run_adaptive_ok(kAdaptiveAvg, PoolingDesc{}, input, {1});
    CHECK(out[0].data<uint16_t>()[0] == 0x3F7F);
    check_bits(out[0], adaptive_oracle_ok(kAdaptiveAvg, PoolingDesc{}, input, {1})[0], "kernel against the oracle");
}

TEST_CASE("kernel: bf16 AvgPool rounds the running sum and the divisor to bf16, as OpenVINO's reference does") {
    // The same 257 ones through AvgPool: here the reference divides by bfloat16(257) = 256, so 256 / 256.
    const Tensor input = make_tensor(ElementType::bf16, {1, 1, 257}, std::vector<double>(257, 1.0));
    const auto out = run_ok(kAvg1, window({257}, {1}), input);
    CHECK(out[0].data<uint16_t>()[0] == 0x3F80);
    check_bits(out[0], oracle_ok(kAvg1, window({257}, {1}), input)[0], "kernel against the oracle");
}

TEST_CASE("kernel: AdaptiveMaxPool index is the first maximum in row-major order within the plane") {
    const Tensor input = make_tensor(ElementType::i32, {1, 2, 2, 3}, {1, 5, 5, 5, 2, 5, 9, 9, 0, 9, 0, 0});
    PoolingDesc desc;
    const auto out = run_adaptive_ok(kAdaptiveMax, desc, input, {1, 1});
    CHECK(test::values_of(out[0]) == std::vector<double>{5, 9});
    CHECK(test::values_of(out[1]) == std::vector<double>{1, 0});
}

TEST_CASE("kernel: adaptive output_size 0 gives an empty output") {
    const Tensor input = make_tensor(ElementType::f32, {1, 1, 4}, iota(4));
    const auto out = run_adaptive_ok(kAdaptiveMax, PoolingDesc{}, input, {0});
    CHECK(out[0].shape() == std::vector<int64_t>{1, 1, 0});
    CHECK(out[1].size() == 0);
}

TEST_CASE("kernel: layers that cannot run say why") {
    const Tensor input4d = make_tensor(ElementType::f32, {1, 1, 2, 2}, iota(4));
    SUBCASE("the rank is not 3, 4 or 5") {
        const PoolRunResult r = run_pool(kMax8, window({2}, {1}), make_tensor(ElementType::f32, {2, 2}, iota(4)));
        CHECK(r.error.find("3D, 4D or 5D") != std::string::npos);
    }
    SUBCASE("the kernel is larger than the padded input") {
        const PoolRunResult r = run_pool(kAvg1, window({3, 3}, {1, 1}), input4d);
        CHECK(r.error.find("larger than the padded input") != std::string::npos);
        CHECK(r.outputs.empty());
    }
    SUBCASE("indices of an element type other than i32 and i64") {
        PoolingDesc d = window({2, 2}, {1, 1});
        d.index_type = ElementType::f32;
        CHECK(run_pool(kMax8, d, input4d).error.find("i32 or i64") != std::string::npos);
    }
    SUBCASE("an adaptive op through run_pool and a plain one through run_adaptive_pool") {
        CHECK_FALSE(run_pool(kAdaptiveAvg, window({2, 2}, {1, 1}), input4d).ok());
        CHECK_FALSE(run_adaptive_pool(kMax8, PoolingDesc{}, input4d, {1, 1}).ok());
    }
    SUBCASE("output_size with the wrong number of values") {
        CHECK(run_adaptive_pool(kAdaptiveAvg, PoolingDesc{}, input4d, {1}).error.find("spatial axes") !=
              std::string::npos);
    }
}

// ---- randomized comparison with the oracle -----------------------------------------------------------

namespace {

struct RandomCase {
    PoolOp op;
    PoolingDesc desc;
    Tensor input;
    std::vector<int64_t> output_size;  // adaptive ops
};

std::string describe(const RandomCase& c) {
    const PoolingDesc& d = c.desc;
    std::string text = fmt::format("{} {} input [{}]", op_name(c.op), type_name(c.input.type()), join_ints(c.input.shape()));
    if (c.op.is_adaptive()) return text + fmt::format(" output_size [{}] index {}", join_ints(c.output_size), type_name(d.index_type));
    return text + fmt::format(" kernel [{}] strides [{}] dilations [{}] pads [{}]/[{}] auto_pad={} rounding={} "
                              "exclude_pad={} axis={} index {}",
                              join_ints(d.kernel), join_ints(d.strides), join_ints(d.dilations), join_ints(d.pads_begin),
                              join_ints(d.pads_end), pad_type_name(d.auto_pad), rounding_type_name(d.rounding),
                              d.exclude_pad, d.axis, type_name(d.index_type));
}

class RandomCases {
public:
    // small: windows of 1 to 3 taps on sides up to 9, every route's border handling.
    // wide: windows of 1 to 7 taps, strides 1 to 6, dilations 1 to 3 on lines up to 48 long: the W pass
    // splits lines into stride phases (2, 3, 4 and the general case) and combines taps in groups of four.
    // large: windows of 8 to 12 undilated taps on sides up to 24, the sizes that take the kernels'
    // running routes (van Herk maxima and sums) instead of visiting every tap.
    enum class Size { small, wide, large, many_planes };
    explicit RandomCases(uint64_t seed, Size size = Size::small) : rng_(seed), size_(size) {}

    RandomCase next() {
        RandomCase c;
        c.op = pick(std::vector<PoolOp>{kAvg1, kAvg14, kAvg16, kMax1, kMax8, kMax14, kAdaptiveAvg, kAdaptiveMax});
        c.desc.index_type = chance(0.5) ? ElementType::i32 : ElementType::i64;
        std::vector<int64_t> shape;
        for (;;) {  // until OpenVINO would accept the layer
            shape = random_shape();
            if (c.op.is_adaptive()) break;
            c.desc = random_window(c.op, shape.size(), c.desc.index_type);
            if (!infer_pool_shape(c.op, c.desc, shape_from_port_dims(shape)).error) break;
        }
        if (c.op.is_adaptive())
            for (size_t i = 2; i < shape.size(); ++i) c.output_size.push_back(between(1, shape[i] + 2));
        c.input = random_tensor(pick(types_for(c.op)), shape, specials_for(c.op));
        return c;
    }

private:
    enum class Specials { none, no_nan, all };

    int64_t between(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    template <class T>
    T pick(const std::vector<T>& options) {
        return options[static_cast<size_t>(between(0, static_cast<int64_t>(options.size()) - 1))];
    }

    // Averages of i32/i64 through AdaptiveAvgPool are left out: for a negative sum OpenVINO's reference
    // divides an unsigned conversion of it, which is no average at all, and the op is specified for floats.
    static std::vector<ElementType> types_for(const PoolOp& op) {
        using E = ElementType;
        if (op.kind == PoolKind::adaptive_avg_pool) return {E::f32, E::f64, E::f16, E::bf16, E::i8, E::u8};
        return {E::f32, E::f64, E::f16, E::bf16, E::i8, E::u8, E::i32, E::i64};
    }

    // Averages stay finite. AdaptiveMaxPool gets no NaN: the reference's per-row std::max_element lets a NaN
    // at the start of a row through, an artefact the oracle does not model.
    static Specials specials_for(const PoolOp& op) {
        if (op.kind == PoolKind::max_pool) return Specials::all;
        if (op.kind == PoolKind::adaptive_max_pool) return Specials::no_nan;
        return Specials::none;
    }

    std::vector<int64_t> random_shape() {
        if (size_ == Size::large) {
            std::vector<int64_t> shape{between(1, 2), between(1, 2)};
            for (int64_t i = 2, rank = between(3, 4); i < rank; ++i) shape.push_back(between(6, 24));
            return shape;
        }
        if (size_ == Size::wide) {
            std::vector<int64_t> shape{between(1, 2), between(1, 2)};
            for (int64_t i = 2, rank = between(3, 5); i + 1 < rank; ++i) shape.push_back(between(1, 5));
            shape.push_back(between(8, 48));
            return shape;
        }
        const int64_t rank = between(3, 5);
        const int64_t max_side = rank == 5 ? 5 : rank == 4 ? 7 : 9;
        // Many small planes are stacked into one kernel call; stacks end short when the count does not divide.
        if (size_ == Size::many_planes) {
            std::vector<int64_t> shape{between(1, 3), between(4, 60)};
            for (int64_t i = 2; i < rank; ++i) shape.push_back(between(1, max_side));
            return shape;
        }
        std::vector<int64_t> shape{between(1, 2), between(1, 3)};
        for (int64_t i = 2; i < rank; ++i) shape.push_back(between(1, max_side));
        return shape;
    }

    PoolingDesc random_window(const PoolOp& op, size_t rank, ElementType index_type) {
        PoolingDesc d;
        for (size_t i = 2; i < rank; ++i) {
            const bool large = size_ == Size::large, wide = size_ == Size::wide;
            d.kernel.push_back(large ? between(8, 12) : wide ? between(1, 7) : between(1, 3));
            d.strides.push_back(large ? between(1, 4) : wide ? between(1, 6) : between(1, 3));
            d.pads_begin.push_back(large || wide ? between(0, 5) : between(0, 2));
            d.pads_end.push_back(large || wide ? between(0, 5) : between(0, 2));
            if (op.has_dilations()) d.dilations.push_back(large ? 1 : between(1, 3));
        }
        d.auto_pad = pick(std::vector<PadType>{PadType::explicit_pads, PadType::explicit_pads, PadType::same_upper,
                                               PadType::same_lower, PadType::valid});
        std::vector<RoundingType> roundings{RoundingType::floor, RoundingType::ceil};
        if (op.has_ceil_torch()) roundings.push_back(RoundingType::ceil_torch);
        d.rounding = pick(roundings);
        d.exclude_pad = chance(0.5);
        if (op.has_axis()) d.axis = between(-static_cast<int64_t>(rank), static_cast<int64_t>(rank) - 1);
        d.index_type = index_type;
        return d;
    }

    // Float values lie on a grid coarse enough that every window sum is exact in the element type's float
    // computation, so any summation order gives the same f32 result; a quarter of the values are small
    // integers, so equal maxima are common.
    double grid_value(ElementType t) {
        if (chance(0.25)) return static_cast<double>(between(-2, 2));
        switch (t) {
            case ElementType::f64: return std::uniform_real_distribution<double>(-16, 16)(rng_);
            case ElementType::bf16: return static_cast<double>(between(-128, 128)) / 8;
            default: return static_cast<double>(between(-1024, 1024)) / 64;  // f32, f16
        }
    }

    double float_special(ElementType t, Specials specials) {
        const double lowest = t == ElementType::f16    ? -65504.0
                              : t == ElementType::bf16 ? static_cast<double>(bf16_to_float(0xFF7F))
                              : t == ElementType::f32  ? -static_cast<double>(FLT_MAX)
                                                       : -DBL_MAX;
        std::vector<double> options{INFINITY, -INFINITY, -0.0, lowest};
        if (specials == Specials::all) options.push_back(std::numeric_limits<double>::quiet_NaN());
        return pick(options);
    }

    template <class T>
    T integer_value(Specials specials) {
        constexpr T lowest = std::numeric_limits<T>::lowest(), highest = std::numeric_limits<T>::max();
        if (specials != Specials::none && chance(0.06)) return chance(0.5) ? lowest : highest;
        if (chance(0.25)) return static_cast<T>(between(0, 2));
        // i64 sums for averages stay far from overflow; everything else spans its type.
        if (std::is_same_v<T, int64_t> && specials == Specials::none)
            return static_cast<T>(between(-(int64_t{1} << 40), int64_t{1} << 40));
        return static_cast<T>(between(lowest, static_cast<int64_t>(highest)));
    }

    template <class T>
    void fill_integers(Tensor& t, Specials specials) {
        for (size_t i = 0; i < t.size(); ++i) t.mutable_data<T>()[i] = integer_value<T>(specials);
    }

    Tensor random_tensor(ElementType type, const std::vector<int64_t>& shape, Specials specials) {
        Tensor t(type, shape);
        switch (type) {
            case ElementType::i8: fill_integers<int8_t>(t, specials); return t;
            case ElementType::u8: fill_integers<uint8_t>(t, specials); return t;
            case ElementType::i32: fill_integers<int32_t>(t, specials); return t;
            case ElementType::i64: fill_integers<int64_t>(t, specials); return t;
            default: break;
        }
        std::vector<double> values(t.size());
        for (double& v : values) v = specials != Specials::none && chance(0.06) ? float_special(type, specials) : grid_value(type);
        return make_tensor(type, shape, values);
    }

    std::mt19937_64 rng_;
    Size size_ = Size::small;
};

std::vector<Tensor> run_kernel(const RandomCase& c, int threads) {
    const PoolRunResult r = c.op.is_adaptive() ? run_adaptive_pool(c.op, c.desc, c.input, c.output_size, {threads})
                                               : run_pool(c.op, c.desc, c.input, {threads});
    return r.ok() ? r.outputs : std::vector<Tensor>{};
}

// Empty when the outputs written batch by batch into a ComparingSink (batches of `batch` elements per
// thread, the last chunk of each kept for the next) equal the whole outputs `whole` element for element.
std::string check_in_batches(const RandomCase& c, const std::vector<Tensor>& whole, int threads, int64_t batch) {
    std::vector<ComparingSink::Output> plan;
    for (const Tensor& t : whole) plan.push_back({{t.type(), t.shape()}, &t, Tolerance{}});
    ComparingSink sink(std::move(plan), batch, batch);
    bool asked = false;
    const SinkChooser choose = [&](const std::vector<OutputSpec>& specs) -> kernels::OutputSink* {
        asked = specs.size() == whole.size();
        return &sink;
    };
    const PoolRunResult r = c.op.is_adaptive() ? run_adaptive_pool(c.op, c.desc, c.input, c.output_size, {threads}, choose)
                                               : run_pool(c.op, c.desc, c.input, {threads}, choose);
    if (!r.ok()) return "the run into the sink failed: " + r.error;
    if (!asked) return whole[0].size() == 0 || c.input.size() == 0 ? "" : "the sink was not asked for";
    if (!r.outputs.empty()) return "a run into the sink kept whole outputs";
    if (!sink.conclusive()) return fmt::format("batches of {} on {} thread(s) differ from the whole outputs", batch, threads);
    for (size_t i = 0; i < whole.size(); ++i) {
        const Comparison cmp = sink.result(i);
        if (cmp.total != whole[i].size() || cmp.histogram[0] != cmp.total || cmp.max_abs_err != 0)
            return fmt::format("output {} in batches of {}: {} of {} elements compared exact", i, batch, cmp.histogram[0],
                               whole[i].size());
    }
    return "";
}

// Empty when the kernel agrees with the oracle on one thread, bit for bit with itself on two, and in batches.
std::string check_random_case(const RandomCase& c) {
    const oracle::Result expected = c.op.is_adaptive() ? oracle::adaptive_pool(c.op, c.desc, c.input, c.output_size)
                                                       : oracle::pool(c.op, c.desc, c.input);
    if (!expected.ok()) return "the oracle failed: " + expected.error;
    const std::vector<Tensor> one = run_kernel(c, 1), two = run_kernel(c, 2);
    if (one.size() != expected.outputs.size() || two.size() != one.size()) return "the kernel failed or gave too few outputs";
    for (size_t i = 0; i < one.size(); ++i) {
        const bool exact = i == 1 || c.op.kind == PoolKind::max_pool || c.op.kind == PoolKind::adaptive_max_pool ||
                           exact_type(c.input.type());
        std::string d = exact ? bit_difference(one[i], expected.outputs[i])
                              : difference(one[i], expected.outputs[i], default_tolerance(c.input.type()));
        if (!d.empty()) return fmt::format("output {}: {}", i, d);
        if (d = bit_difference(two[i], one[i]); !d.empty()) return fmt::format("output {} on two threads: {}", i, d);
    }
    for (const auto& [threads, batch] : {std::pair{1, int64_t{1}}, std::pair{2, int64_t{37}}, std::pair{1, int64_t{5000}}})
        if (std::string d = check_in_batches(c, one, threads, batch); !d.empty()) return d;
    return "";
}

// Runs `count` cases of the given size; stops after five failures.
void check_random_cases(uint64_t seed, RandomCases::Size size, int count) {
    RandomCases cases(seed, size);
    int failures = 0;
    for (int run = 0; run < count && failures < 5; ++run) {
        const RandomCase c = cases.next();
        const std::string problem = check_random_case(c);
        if (!problem.empty()) ++failures;
        CHECK_MESSAGE(problem.empty(), "case " << run << ": " << describe(c) << ": " << problem);
    }
}

}  // namespace

TEST_CASE("kernel: random layers agree with the oracle, on one thread and on two") {
    check_random_cases(0x1f2e3d4c5b6a7988ULL, RandomCases::Size::small, 2000);
}

TEST_CASE("kernel: wide lines (stride phases, taps in groups) agree with the oracle") {
    check_random_cases(0x7a11e5c0ffee1234ULL, RandomCases::Size::wide, 1000);
}

TEST_CASE("kernel: many small planes (stacked into one kernel call) agree with the oracle") {
    check_random_cases(0x57ac4edb1a9e5ULL, RandomCases::Size::many_planes, 400);
}

TEST_CASE("kernel: H windows that tile their planes (1 to 4 taps, dilated, stacked planes) agree with the oracle") {
    // Windows along H that tile each plane (every window whole, the plane out x stride rows long) run as one
    // loop over every output row of a stack of planes. The values are multiples of 1/64 of at most 16 in
    // magnitude, so that every window's sum is exact in any order and a wrong row shows in the bits.
    std::mt19937_64 rng(0x711ed4a5);
    std::uniform_int_distribution<int> sixty_fourths(-1024, 1024);
    const auto random_input = [&](const std::vector<int64_t>& shape) {
        std::vector<double> v(static_cast<size_t>(shape[0] * shape[1] * shape[2] * shape[3]));
        for (double& x : v) x = sixty_fourths(rng) / 64.0;
        return make_tensor(ElementType::f32, shape, v);
    };
    struct Tiling {
        int64_t kernel, stride, dilation;
    };
    for (const Tiling t : {Tiling{1, 1, 1}, Tiling{2, 2, 1}, Tiling{3, 3, 1}, Tiling{4, 4, 1}, Tiling{2, 4, 2}}) {
        const Tensor input = random_input({2, 7, t.stride * 5, 9});
        const PoolingDesc desc = window({t.kernel, 2}, {t.stride, 1}, {0, 0}, {0, 0}, {t.dilation, 1});
        for (const PoolOp& op : {kAvg16, kMax14}) {
            INFO(op_name(op) << " kernel " << t.kernel << " stride " << t.stride << " dilation " << t.dilation);
            const std::vector<Tensor> one = run_ok(op, desc, input), two = run_ok(op, desc, input, 2);
            const std::vector<Tensor> oracle = oracle_ok(op, desc, input);
            REQUIRE(one[0].shape() == std::vector<int64_t>{2, 7, 5, 8});
            check_bits(one[0], oracle[0], "against the oracle");
            check_bits(two[0], one[0], "two threads against one");
        }
    }
    const Tensor input = random_input({1, 64, 28, 28});  // an adaptive pool's 28 to 7, on one thread and two
    const std::vector<Tensor> oracle = adaptive_oracle_ok(kAdaptiveAvg, PoolingDesc{}, input, {7, 7});
    for (int threads : {1, 2}) {
        const std::vector<Tensor> out = run_adaptive_ok(kAdaptiveAvg, PoolingDesc{}, input, {7, 7}, threads);
        check_bits(out[0], oracle[0], "adaptive 28 to 7");
    }
}

TEST_CASE("kernel: large undilated windows (van Herk running maxima and sums) agree with the oracle") {
    check_random_cases(0x5eed0fb16c0ffee5ULL, RandomCases::Size::large, 300);
}

TEST_CASE("kernel: small planes are stacked in counts the threads share evenly; large and 3D planes are not") {
    using namespace irlint::kernels;
    auto plane_2d = [](int64_t in, int64_t out) {
        PlaneGeometry g;
        g.axes[0] = axis_taps(1, 1, 1, 1, 1, 0);
        g.axes[1] = adaptive_taps(in, out);
        g.axes[2] = adaptive_taps(in, out);
        return g;
    };
    // 28x28 planes: 20 fit the 16384-element target, so 512 planes make 26 stacks, the last of 12 planes.
    const PlaneWork small(plane_2d(28, 7), 512, 2);
    CHECK(small.units() == 26);
    CHECK(small.first_plane(25) == 500);
    CHECK(small.slab(0).geometry.axes[0].in == 20);
    CHECK(small.slab(25).geometry.axes[0].in == 12);
    CHECK(small.slab(25).geometry.out_size() == 12 * 49);
    // 5 planes of 10x10 on 2 threads: one stack would idle a thread, so two stacks of 3 and 2.
    const PlaneWork few(plane_2d(10, 5), 5, 2);
    CHECK(few.units() == 2);
    CHECK(few.slab(0).geometry.axes[0].in == 3);
    CHECK(few.slab(1).geometry.axes[0].in == 2);
    CHECK(few.first_plane(1) == 3);
    // 112x112 planes are too large to stack: one unit a plane.
    const PlaneWork large(plane_2d(112, 56), 64, 2);
    CHECK(large.units() == 64);
    CHECK(large.first_plane(63) == 63);
    CHECK(large.slab(63).geometry.axes[0].in == 1);
    // A 3D plane pools its D axis: never stacked.
    PlaneGeometry cube = plane_2d(8, 4);
    cube.axes[0] = adaptive_taps(8, 4);
    const PlaneWork cubes(cube, 100, 2);
    CHECK(cubes.units() == 100);
}

TEST_CASE("kernel: f16 MaxPool compared as 16-bit keys picks what the float comparison picks, NaN and -0 included") {
    // Without NaN and -0 the f16 kernel compares integer keys; a slab with either widens to float, with
    // indices or without. Both must agree bit for bit with the oracle: values, first maxima among equal
    // ones, lowest() and indices. The specials sit in the first plane and in the last.
    PoolingDesc desc = window({3, 3}, {2, 2}, {1, 1}, {1, 1});
    std::mt19937 rng(16);
    for (const bool with_specials : {false, true}) {
        for (const int64_t side : {9, 160}) {  // planes stacked into one slab, or a plane to a slab
            const std::vector<int64_t> shape{2, 3, side, side + 2};
            std::vector<double> values(static_cast<size_t>(6 * side * (side + 2)));
            for (double& v : values) v = static_cast<double>(static_cast<int>(rng() % 41) - 20) / 4;  // many ties
            values[5] = -65504, values[6] = -INFINITY, values[7] = 65504, values[8] = INFINITY, values[9] = 0x1p-24;
            if (with_specials) {
                values[40] = -0.0, values[41] = std::numeric_limits<double>::quiet_NaN();
                values[values.size() - 3] = -0.0, values[values.size() - 30] = std::numeric_limits<double>::quiet_NaN();
            }
            INFO("NaN and -0 in the input: " << with_specials << ", planes of " << side);
            const Tensor input = make_tensor(ElementType::f16, shape, values);
            for (int threads : {1, 2}) {
                const PoolRunResult r = run_pool(kMax8, desc, input, KernelOptions{threads});
                REQUIRE(r.ok());
                const auto expected = oracle_ok(kMax8, desc, input);
                check_bits(r.outputs[0], expected[0], "f16 values against the oracle");
                check_bits(r.outputs[1], expected[1], "indices against the oracle");
                const PoolRunResult values_only = run_pool(kMax1, desc, input, KernelOptions{threads});
                REQUIRE(values_only.ok());
                check_bits(values_only.outputs[0], expected[0], "f16 values without indices against the oracle");
            }
        }
    }
}

TEST_CASE("kernel: a run into a ComparingSink gives compare_tensors' result to the bit, and stops at a mismatch") {
    // 8 planes of 64x64 outputs: 16 comparison chunks, in batches that end inside chunks and planes.
    std::mt19937 rng(0x51c);
    std::uniform_real_distribution<float> value(-10.0f, 10.0f);
    std::vector<double> values(8 * 64 * 64);
    for (double& v : values) v = value(rng);
    const Tensor input = make_tensor(ElementType::f32, {1, 8, 64, 64}, values);
    const PoolingDesc desc = window({3, 3}, {1, 1}, {1, 1}, {1, 1});
    const Tensor whole = run_ok(kAvg14, desc, input)[0];
    const Tolerance tolerance = default_tolerance(ElementType::f32);
    std::vector<double> near(whole.size()), off(whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
        const double v = whole.data<float>()[i];
        near[i] = v * (1 + (static_cast<double>(i % 13) - 6) * 1e-7);  // errors within the tolerance
        off[i] = i == 20000 ? v + 1 : v;
    }
    const Tensor near_expected = make_tensor(ElementType::f32, whole.shape(), near);
    const Tensor off_expected = make_tensor(ElementType::f32, whole.shape(), off);
    const Comparison reference = compare_tensors(whole, near_expected, tolerance);
    REQUIRE(reference.matches());
    ComparingSink usual({{{ElementType::f32, whole.shape()}, &near_expected, tolerance}});
    CHECK(usual.batch_elements(1) == 8192);
    CHECK(usual.batch_elements(2) == 2 * 65536);
    REQUIRE(reference.max_abs_err > 0);
    for (const int threads : {1, 2}) {
        for (const int64_t batch : {int64_t{1000}, int64_t{4096}, ComparingSink::kBatchElementsOnOneThread,
                                    ComparingSink::kBatchElementsPerThread}) {
            INFO(threads << " thread(s), batches of " << batch << " per thread");
            ComparingSink sink({{{ElementType::f32, whole.shape()}, &near_expected, tolerance}}, batch, batch);
            const PoolRunResult r = run_pool(kAvg14, desc, input, {threads}, [&](const auto&) { return &sink; });
            REQUIRE(r.ok());
            REQUIRE(sink.conclusive());
            const Comparison c = sink.result(0);
            CHECK(c.total == whole.size());
            CHECK(c.histogram == reference.histogram);
            CHECK(std::memcmp(&c.max_abs_err, &reference.max_abs_err, sizeof(double)) == 0);
            CHECK(std::memcmp(&c.max_rel_err, &reference.max_rel_err, sizeof(double)) == 0);
            CHECK(std::memcmp(&c.mean_abs_err, &reference.mean_abs_err, sizeof(double)) == 0);

            ComparingSink mismatched({{{ElementType::f32, whole.shape()}, &off_expected, tolerance}}, batch, batch);
            REQUIRE(run_pool(kAvg14, desc, input, {threads}, [&](const auto&) { return &mismatched; }).ok());
            CHECK_FALSE(mismatched.conclusive());
        }
    }
}

#include "exec/kernels/plane_kernels.hpp"
#ifdef IRLINT_HAVE_AVX2_KERNELS

TEST_CASE("kernel: the AVX2 and the baseline copies of the plane kernels give the same bits") {
    using namespace irlint::kernels;
    if (!cpu::has_avx2()) return;  // nothing to compare on this CPU
    struct Window {
        int64_t kernel, stride, dilation, pad;
    };
    const Window windows[] = {{3, 2, 1, 1}, {5, 1, 1, 2}, {2, 2, 1, 0}, {3, 1, 2, 1}, {15, 1, 1, 7}, {4, 3, 1, 3}};
    std::mt19937 rng(0xa5c2);
    std::uniform_real_distribution<float> value(-100.0f, 100.0f);
    int compared = 0;
    for (const Window& w : windows) {
        const int64_t h_in = 37, w_in = 29;
        auto taps = [&](int64_t in) {
            const int64_t out = (in + 2 * w.pad - w.dilation * (w.kernel - 1) - 1) / w.stride + 1;
            return axis_taps(in, out, w.kernel, w.stride, w.dilation, w.pad);
        };
        PlaneGeometry g;
        g.axes[0] = axis_taps(1, 1, 1, 1, 1, 0);
        g.axes[1] = taps(h_in);
        g.axes[2] = taps(w_in);
        std::vector<float> in(static_cast<size_t>(h_in * w_in));
        for (float& v : in) v = value(rng);
        const auto out_size = static_cast<size_t>(g.out_size());
        for (const bool pads_in_avg : {false, true}) {
            const AvgDivisor divisor{pads_in_avg, static_cast<double>(w.kernel * w.kernel)};
            std::vector<float> wide(out_size), base(out_size);
            AvgScratch<float> s1, s2;
            avg_pool_plane<float>(avx2::Isa{}, in.data(), g, divisor, s1, wide.data());
            avg_pool_plane<float>(baseline::Isa{}, in.data(), g, divisor, s2, base.data());
            CHECK(std::memcmp(wide.data(), base.data(), out_size * sizeof(float)) == 0);
            ++compared;
        }
        using Traits = Plain<float, float>;
        std::vector<float> wide(out_size), base(out_size);
        std::vector<int32_t> wide_idx(out_size), base_idx(out_size);
        MaxScratch<float, int32_t> s1, s2;
        max_pool_plane_indexed<Traits, float, int32_t>(avx2::Isa{}, in.data(), g, s1, wide.data(), wide_idx.data());
        max_pool_plane_indexed<Traits, float, int32_t>(baseline::Isa{}, in.data(), g, s2, base.data(), base_idx.data());
        CHECK(wide == base);
        CHECK(wide_idx == base_idx);
        ++compared;
    }
    CHECK(compared == 18);
}
#endif
