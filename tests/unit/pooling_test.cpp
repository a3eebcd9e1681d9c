#include <doctest/doctest.h>

#include "rules/pool_rules.hpp"
#include "rules/pooling.hpp"
#include "op_test_util.hpp"

using namespace irlint;
using irlint::test::S;

namespace {
PoolingDesc desc(std::vector<int64_t> k, std::vector<int64_t> s, std::vector<int64_t> pb, std::vector<int64_t> pe,
                 RoundingType r = RoundingType::floor, PadType p = PadType::explicit_pads) {
    PoolingDesc d;
    d.kernel = std::move(k);
    d.strides = std::move(s);
    d.pads_begin = std::move(pb);
    d.pads_end = std::move(pe);
    d.rounding = r;
    d.auto_pad = p;
    return d;
}
const PoolOp avg1{PoolKind::avg_pool, 1};
const PoolOp avg14{PoolKind::avg_pool, 14};
const PoolOp max1{PoolKind::max_pool, 1};
const PoolOp max8{PoolKind::max_pool, 8};
}  // namespace

TEST_CASE("pooled_length: the formula for each rounding type") {
    const AxisWindow w{1, 1, 5, 2, 1};
    CHECK(pooled_length(32, w, RoundingType::floor) == 15);  // floor((32+1+1-5)/2)+1
    CHECK(pooled_length(32, w, RoundingType::ceil) == 16);
    CHECK(pooled_length(32, w, RoundingType::ceil_torch) == 16);  // window 15 starts at 30 < 33
    const AxisWindow t{1, 1, 2, 2, 1};
    CHECK(pooled_length(5, t, RoundingType::ceil) == 4);
    CHECK(pooled_length(5, t, RoundingType::ceil_torch) == 3);  // window 3 would start at 6 = 5+1
    CHECK(pooled_length(Dim::kInf, t, RoundingType::floor) == Dim::kInf);
}

TEST_CASE("pooled_length: ceil_torch keeps the window when input and pads_begin are both 0") {
    // OpenVINO compares q*s > in + pb - 1 in unsigned arithmetic; with in + pb == 0 the right side wraps.
    const AxisWindow w{0, 2, 2, 1, 1};
    CHECK(pooled_length(0, w, RoundingType::ceil_torch) == 1);
}

TEST_CASE("pooled_length: overflow is reported, not wrapped") {
    const AxisWindow w{Dim::kInf - 1, 5, 1, 1, 1};
    CHECK_FALSE(pooled_length(10, w, RoundingType::floor).has_value());
    CHECK_FALSE(dilated_kernel(Dim::kInf / 2, 4).has_value());
}

TEST_CASE("same padding splits the total with the odd pad at the end (upper) or the beginning (lower)") {
    const AxisWindow w{0, 0, 5, 2, 1};
    CHECK(same_padding(32, w, PadType::same_upper) == std::pair<int64_t, int64_t>{1, 2});
    CHECK(same_padding(32, w, PadType::same_lower) == std::pair<int64_t, int64_t>{2, 1});
    CHECK(same_padding(32, AxisWindow{0, 0, 2, 2, 1}, PadType::same_upper) == std::pair<int64_t, int64_t>{0, 0});
}

TEST_CASE("AvgPool-1 spec examples: same_upper with stride 2 halves the input") {
    auto r = infer_pool_shape(avg1, desc({2, 2}, {2, 2}, {0, 0}, {1, 1}, RoundingType::floor, PadType::same_upper),
                              S("1,3,32,32"));
    REQUIRE_FALSE(r.error);
    CHECK(r.output.str() == "[1,3,16,16]");
    CHECK(r.pads_begin == std::vector<int64_t>{0, 0});  // written pads are ignored under same_*
    CHECK(r.pads_end == std::vector<int64_t>{0, 0});
    auto r5 = infer_pool_shape(avg1, desc({5, 5}, {2, 2}, {0, 0}, {1, 1}, RoundingType::floor, PadType::same_upper),
                               S("1,3,32,32"));
    CHECK(r5.output.str() == "[1,3,16,16]");
    CHECK(r5.pads_begin == std::vector<int64_t>{1, 1});
    CHECK(r5.pads_end == std::vector<int64_t>{2, 2});
}

TEST_CASE("AvgPool-1 spec examples that are right") {
    CHECK(infer_pool_shape(avg1, desc({5, 5}, {3, 3}, {1, 1}, {1, 1}), S("1,3,32,32")).output.str() ==
          "[1,3,10,10]");
    CHECK(infer_pool_shape(avg1, desc({5, 5}, {2, 2}, {1, 1}, {1, 1}), S("1,3,32,32")).output.str() ==
          "[1,3,15,15]");
    auto valid = infer_pool_shape(avg1, desc({5, 5}, {2, 2}, {1, 1}, {1, 1}, RoundingType::floor, PadType::valid),
                                  S("1,3,32,32"));
    CHECK(valid.output.str() == "[1,3,14,14]");
    CHECK(valid.pads_begin == std::vector<int64_t>{0, 0});
}

TEST_CASE("valid keeps rounding_type: 3x3, kernel 2, stride 2, ceil gives 2x2") {
    auto r = infer_pool_shape(max8, desc({2, 2}, {2, 2}, {}, {}, RoundingType::ceil, PadType::valid),
                              S("1,1,3,3"));
    CHECK(r.output.str() == "[1,1,2,2]");
}

TEST_CASE("the axis formula shows the numbers") {
    auto r = infer_pool_shape(avg1, desc({5, 5}, {2, 2}, {1, 1}, {1, 1}), S("1,3,32,32"));
    REQUIRE(r.axis_formulas.size() == 2);
    CHECK(r.axis_formulas[0] == "floor((32+1+1-5)/2)+1 = 15");
    auto t = infer_pool_shape(avg14, desc({2, 2}, {2, 2}, {1, 1}, {1, 1}, RoundingType::ceil_torch),
                              S("1,3,5,5"));
    CHECK(t.axis_formulas[0] ==
          "ceil((5+1+1-2)/2)+1 = 4, minus the last window, which would start in the padding (ceil_torch) = 3");
    auto v = infer_pool_shape(avg1, desc({5, 5}, {2, 2}, {1, 1}, {1, 1}, RoundingType::floor, PadType::valid),
                              S("1,3,32,32"));
    CHECK(v.axis_formulas[0] == "valid: floor((32-5)/2)+1 = 14");
    PoolingDesc d = desc({3}, {1}, {}, {});
    d.dilations = {2};
    auto dil = infer_pool_shape(max8, d, S("1,7,13"));
    CHECK(dil.axis_formulas[0] == "floor((13+0+0-((3-1)*2+1))/1)+1 = 9");
}

TEST_CASE("validation errors name the attribute and the numbers") {
    auto zero_stride = infer_pool_shape(avg1, desc({3, 3}, {0, 1}, {}, {}), S("1,3,10,10"));
    REQUIRE(zero_stride.error);
    CHECK(zero_stride.error->find("strides 0,1") != std::string::npos);
    auto too_big = infer_pool_shape(max1, desc({9, 3}, {1, 1}, {}, {}), S("1,3,8,8"));
    REQUIRE(too_big.error);
    CHECK(*too_big.error == "dim 2: the kernel after dilation (9) is larger than the padded input 8+0+0 = 8");
    // one name for one thing: the second spatial axis of a 4D tensor is "dim 3", as in the output arithmetic
    auto too_wide = infer_pool_shape(max1, desc({3, 9}, {1, 1}, {}, {}), S("1,3,8,8"));
    REQUIRE(too_wide.error);
    CHECK(*too_wide.error == "dim 3: the kernel after dilation (9) is larger than the padded input 8+0+0 = 8");
    auto one_value = infer_pool_shape(max1, desc({2}, {1}, {0}, {0}), S("1,3,8,8"));
    REQUIRE(one_value.error);
    CHECK(*one_value.error == "kernel has 1 value (2), but the 4D input [1,3,8,8] has 2 spatial axes");
    auto one_axis = infer_pool_shape(max1, desc({2, 2}, {1, 1}, {0, 0}, {0, 0}), S("1,3,8"));
    REQUIRE(one_axis.error);
    CHECK(*one_axis.error == "kernel has 2 values (2,2), but the 3D input [1,3,8] has 1 spatial axis");
    auto torch = infer_pool_shape(max8, desc({2, 2}, {1, 1}, {}, {}, RoundingType::ceil_torch), S("1,3,8,8"));
    REQUIRE(torch.error);
    CHECK(torch.error->find("ceil_torch") != std::string::npos);
    auto no_strides = infer_pool_shape(max1, desc({2, 2}, {}, {}, {}), S("1,3,8,8"));
    REQUIRE(no_strides.error);
    CHECK(no_strides.error->find("strides has 0 values") != std::string::npos);
    auto rank2 = infer_pool_shape(max1, desc({2}, {1}, {}, {}), S("4,3"));
    REQUIRE(rank2.error);
    CHECK(rank2.error->find("3D, 4D or 5D") != std::string::npos);
    auto kernel0 = infer_pool_shape(max1, desc({0, 2}, {1, 1}, {}, {}), S("1,3,8,8"));
    REQUIRE(kernel0.error);
    CHECK(kernel0.error->find("kernel 0,2") != std::string::npos);
    auto batch0 = infer_pool_shape(max1, desc({2, 2}, {1, 1}, {}, {}), S("0,3,8,8"));
    REQUIRE(batch0.error);
    CHECK(batch0.error->find("batch") != std::string::npos);
}

TEST_CASE("AvgPool with exclude-pad rejects a window that can lie wholly in the padding; MaxPool does not") {
    PoolingDesc d = desc({2}, {1}, {2}, {0});
    d.exclude_pad = true;
    CHECK(infer_pool_shape(avg1, d, S("1,1,8")).error);
    d.exclude_pad = false;
    CHECK_FALSE(infer_pool_shape(avg1, d, S("1,1,8")).error);
    CHECK_FALSE(infer_pool_shape(max1, d, S("1,1,8")).error);
}

TEST_CASE("intervals and dynamic dims propagate per bound") {
    auto r = infer_pool_shape(max8, desc({2, 2}, {2, 2}, {0, 0}, {0, 0}), S("?,64,198..,2..10"));
    CHECK(r.output.str() == "[?,64,99..,1..5]");
    auto same = infer_pool_shape(max1, desc({2, 2}, {1, 1}, {}, {}, RoundingType::floor, PadType::same_upper),
                                 S("1..2,2..3,16..32,?"));
    CHECK(same.output.str() == "[1..2,2..3,?,?]");
    auto dyn_rank = infer_pool_shape(max1, desc({2, 2, 2}, {1, 1, 1}, {}, {}), Shape::dynamic_rank());
    CHECK(dyn_rank.output.str() == "[?,?,?,?,?]");
}

TEST_CASE("adaptive pools take the spatial dims from output_size") {
    CHECK(infer_adaptive_shape(S("1,6,8,9"), S("2"), std::vector<int64_t>{5, 7}).output.str() == "[1,6,5,7]");
    CHECK(infer_adaptive_shape(S("1,6,8,9"), S("2"), std::nullopt).output.str() == "[1,6,?,?]");
    CHECK(*infer_adaptive_shape(S("1,6,8,9"), S("3"), std::vector<int64_t>{5, 7, 8}).error ==
          "output_size has shape [3], but the 4D input has 2 spatial axes");
    CHECK(*infer_adaptive_shape(S("1,6,8,9"), Shape::dynamic_rank(), std::vector<int64_t>{5, 7, 8}).error ==
          "output_size holds 3 values (5,7,8), but the 4D input has 2 spatial axes");
    // OpenVINO propagates intervals of output_size's values to the output
    // (type_prop adaptive_avg_pool / adaptive_max_pool: preserve_partial_values_and_symbols_on_output_shape_input)
    const PoolShape partial =
        infer_adaptive_shape_from_dims(S("1,6,8,9,10"), S("3"), S("2..6,3,12..13").dims);
    REQUIRE_FALSE(partial.error);
    CHECK(partial.output.str() == "[1,6,2..6,3,12..13]");
    CHECK(partial.axis_formulas ==
          std::vector<std::string>{"output_size = 2..6", "output_size = 3", "output_size = 12..13"});
    CHECK(infer_adaptive_shape_from_dims(S("1,6,8,9"), S("2"), S("?,5..").dims).output.str() ==
          "[1,6,?,5..]");
    CHECK(infer_adaptive_shape(S("1,6"), S("1"), std::vector<int64_t>{1}).error);
    CHECK(infer_adaptive_shape(Shape::dynamic_rank(), S("3"), std::nullopt).output.rank_dynamic);
}

TEST_CASE("op versions follow the opset") {
    CHECK(pool_op_for("AvgPool", 13)->version == 1);
    CHECK(pool_op_for("AvgPool", 14)->version == 14);
    CHECK(pool_op_for("avgpool", 16)->version == 16);
    CHECK(pool_op_for("MaxPool", 7)->version == 1);
    CHECK(pool_op_for("MaxPool", 8)->version == 8);
    CHECK(pool_op_for("MaxPool", 15)->version == 14);
    CHECK_FALSE(pool_op_for("AdaptiveAvgPool", 7).has_value());
    CHECK(pool_op_for("AdaptiveMaxPool", 8)->has_index_output());
    CHECK_FALSE(PoolOp{PoolKind::avg_pool, 1}.has_ceil_torch());
    CHECK(PoolOp{PoolKind::avg_pool, 16}.has_dilations());
    CHECK_FALSE(PoolOp{PoolKind::avg_pool, 14}.has_dilations());
}

TEST_CASE("suggest_attribute_change finds the single fix") {
    const Shape in = S("1,3,32,32");
    auto ceil = suggest_attribute_change(avg1, desc({5, 5}, {2, 2}, {1, 1}, {1, 1}), in, S("1,3,16,16"));
    CHECK(ceil == "rounding_type=ceil");
    auto pads = suggest_attribute_change(max1, desc({3, 3}, {1, 1}, {0, 0}, {0, 0}), in, S("1,3,31,31"));
    CHECK(pads == "pads_end=1,1");
    auto strides = suggest_attribute_change(max1, desc({2, 2}, {1, 1}, {0, 0}, {0, 0}), in, S("1,3,16,31"));
    CHECK(strides == "strides=2,1");
    CHECK_FALSE(suggest_attribute_change(max1, desc({2, 2}, {1, 1}, {0, 0}, {0, 0}), in, S("1,3,1000,31")));
}

TEST_CASE("MaxPool-8 checks axis against the input rank before anything else") {
    PoolingDesc d = desc({2, 2}, {1, 1}, {}, {});
    d.axis = -5;
    auto r = infer_pool_shape(max8, d, S("1,3,8,8"));
    REQUIRE(r.error);
    CHECK(*r.error == "axis=-5 is out of the range [-4, 3] of the 4D input");
    d.axis = -4;
    CHECK_FALSE(infer_pool_shape(max8, d, S("1,3,8,8")).error);
    d.axis = 7;
    CHECK_FALSE(infer_pool_shape(max8, d, Shape::dynamic_rank()).error);  // checked once the rank is known
    CHECK_FALSE(infer_pool_shape(max1, d, S("1,3,8,8")).error);       // MaxPool-1 has no axis
}

TEST_CASE("list attributes print without doubled brackets") {
    auto r = infer_pool_shape(max1, desc({2, 2}, {}, {}, {}), S("1,3,8,8"));
    REQUIRE(r.error);
    CHECK(r.error->rfind("strides has 0 values, expected one per kernel axis (2)", 0) == 0);
    auto p = infer_pool_shape(max1, desc({2, 2}, {1, 1}, {1, 1, 1}, {}), S("1,3,8,8"));
    CHECK(*p.error == "pads_begin has 3 values (1,1,1), expected one per kernel axis (2)");
}

TEST_CASE("pooled_length: a padded length of exactly INT64_MAX is an overflow, not an unbounded length") {
    const AxisWindow w{Dim::kInf - 4, 0, 1, 1, 1};
    CHECK_FALSE(pooled_length(4, w, RoundingType::floor).has_value());
    CHECK_FALSE(pooled_length(4, w, RoundingType::ceil_torch).has_value());
    const AxisWindow below{Dim::kInf - 5, 0, 1, 1, 1};
    CHECK(pooled_length(4, below, RoundingType::floor) == Dim::kInf - 1);
    const PoolShape s = infer_pool_shape(max1, desc({1, 1}, {1, 1}, {Dim::kInf - 4, 0}, {0, 0}), S("1,1,4,4"));
    REQUIRE(s.error);
    CHECK(*s.error == "dim 2: integer overflow in the output size");
}

TEST_CASE("messages show at most eight values of a list") {
    const PoolShape s = infer_pool_shape(max1, desc({2, 2}, {1, 1}, std::vector<int64_t>(12, 0), {0, 0}),
                                         S("1,1,4,4"));
    REQUIRE(s.error);
    CHECK(*s.error == "pads_begin has 12 values (0,0,0,0,0,0,0,0,...), expected one per kernel axis (2)");
}

TEST_CASE("suggest_attribute_change: a huge value is not searched one value at a time") {
    // No stride gives 1000 windows on 32; a search up to twice 10^12 would not end.
    const auto hint = suggest_attribute_change(max1, desc({2, 2}, {1000000000000, 1000000000000}, {0, 0}, {0, 0}),
                                               S("1,1,32,32"), S("1,1,1000,1000"));
    CHECK_FALSE(hint.has_value());
    // A stride that is a few units off is still found.
    CHECK(suggest_attribute_change(max1, desc({2, 2}, {4, 4}, {0, 0}, {0, 0}), S("1,1,32,32"),
                                   S("1,1,16,16")) == "strides=2,2");
}
