// The tensor family's ops against cases ported from OpenVINO's type_prop tests.

#include <doctest/doctest.h>

#include <limits>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {



constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::vector<int64_t> exact(const std::optional<TensorValue>& v) {
    std::vector<int64_t> out;
    if (v)
        for (const ValueBounds& b : *v) out.push_back(b.exact() ? b.lo : -999);
    return out;
}

OpRun gather(int version, const std::string& data, const std::string& indices, std::map<size_t, TensorValue> values,
             std::vector<std::pair<std::string, std::string>> attrs = {}) {
    return run_op({"Gather", version, std::move(attrs), {In(data), In(indices, i64), In("", i64)}, std::move(values)});
}

}  // namespace

TEST_CASE("ops-b2 Gather shapes") {
    CHECK(gather(1, "3,4", "2", {{2, V({0})}}).str() == "[2,4]");
    CHECK(gather(8, "3,4", "5", {{2, V({-1})}}).str() == "[3,5]");
    CHECK(gather(7, "2,3,4", "2,5", {{2, V({2})}}, {{"batch_dims", "1"}}).str() == "[2,3,5]");
    CHECK(gather(8, "2,3,4", "2,5", {{2, V({-1})}}, {{"batch_dims", "-1"}}).str() == "[2,3,5]");
    CHECK(gather(8, "2..5,3", "?,4", {{2, V({1})}}).str() == "[2..5,?,4]");
    const auto r = gather(8, "3,4", "2", {{2, V({0})}});
    CHECK(r.outputs[0].type == ElementType::f32);
}

TEST_CASE("ops-b2 Gather dynamic and unknown axis") {
    CHECK(gather(8, "...", "2", {{2, V({0})}}).str() == "[...]");
    const auto r = gather(8, "3,4", "2,2", {});
    CHECK(r.ok());
    CHECK(r.str() == "[?,?,?]");
    CHECK(r.unknown.has_value());
    CHECK(gather(7, "2,3,4", "2..4,5", {}, {{"batch_dims", "1"}}).str() == "[2,?,?]");
}

TEST_CASE("ops-b2 Gather invalid") {
    CHECK(gather(8, "3,4", "2", {{2, V({2})}}).problem() == "axis 2 is out of range [-2, 1] for data rank 2");
    CHECK(gather(7, "2,3,4", "2,5", {{2, V({0})}}, {{"batch_dims", "1"}}).problem() ==
          "batch_dims 1 is greater than axis 0: it must be <= axis");
    CHECK(gather(7, "2,3,4", "2", {{2, V({2})}}, {{"batch_dims", "2"}}).problem() ==
          "batch_dims 2 is greater than indices rank 1");
    CHECK(gather(7, "3,3,4", "2,5", {{2, V({2})}}, {{"batch_dims", "1"}}).problem() ==
          "data [3,3,4] and indices [2,5] differ in dim 0 below batch_dims 1");
    CHECK(gather(8, "2,3,4", "2,5", {{2, V({2})}}, {{"batch_dims", "-3"}}).problem() ==
          "batch_dims -3 is out of range [-2, 2] for indices rank 2");
    const auto r = run_op({"Gather", 8, {}, {In("3,4"), In("2"), In("", i64)}, {{2, V({0})}}});
    CHECK(r.problem() == "indices element type f32 is not an integer type");
    const auto axis = run_op({"Gather", 8, {}, {In("3,4"), In("2", i64), In("2", i64)}, {}});
    CHECK(axis.problem() == "axis input must be a scalar or have 1 element, it is [2]");
}

TEST_CASE("ops-b2 Gather values") {
    auto r = gather(8, "4", "2", {{0, V({1, 3, 224, 224})}, {1, V({2, 3})}, {2, V({0})}});
    CHECK(r.str() == "[2]");
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{224, 224});
    r = gather(8, "4", "", {{0, V({1, 3, 224, 224})}, {1, V({-3})}, {2, V({0})}});
    CHECK(r.str() == "[]");
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{3});
    // Gather-1 takes no negative indices: no value.
    r = gather(1, "4", "", {{0, V({1, 3, 224, 224})}, {1, V({-3})}, {2, V({0})}});
    CHECK_FALSE(r.outputs[0].value);
    // Bounds pass through per element.
    TensorValue shape{{1, 1}, {2, 5}, {0, ValueBounds::kUnbounded}};
    r = gather(8, "3", "2", {{0, shape}, {1, V({2, 1})}, {2, V({0})}});
    REQUIRE(r.outputs[0].value);
    CHECK(r.outputs[0].value->at(0).hi == ValueBounds::kUnbounded);
    CHECK(r.outputs[0].value->at(1).lo == 2);
    CHECK(r.outputs[0].value->at(1).hi == 5);
    // An empty output gathers nothing, whatever its other dims.
    r = gather(8, "0,1000000000000", "0", {{0, TensorValue{}}, {1, TensorValue{}}, {2, V({0})}});
    CHECK(r.str() == "[0,1000000000000]");
    REQUIRE(r.outputs[0].value);
    CHECK(r.outputs[0].value->empty());
    // A 2-D gather along axis 1.
    r = gather(8, "2,3", "1", {{0, V({1, 2, 3, 4, 5, 6})}, {1, V({2})}, {2, V({1})}});
    CHECK(r.str() == "[2,1]");
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{3, 6});
}

TEST_CASE("ops-b2 GatherND and GatherElements") {
    auto nd = [](int v, const std::string& d, const std::string& i, const std::string& b) {
        return run_op({"GatherND", v, {{"batch_dims", b}}, {In(d), In(i, i32)}, {}});
    };
    CHECK(nd(8, "2,3,4", "2,1", "0").str() == "[2,3,4]");
    CHECK(nd(8, "2,3,4,5", "2,3,1", "2").str() == "[2,3,5]");
    CHECK(nd(5, "2,3,4,5", "2,3,1", "2").str() == "[6,5]");
    CHECK(nd(8, "2,3,4", "2,?", "0").str() == "[...]");
    CHECK(nd(8, "2,3", "2,3", "0").problem() == "indices tuples of 3 values and batch_dims 0 exceed data rank 2");
    CHECK(nd(8, "2,3", "3,1", "1").problem() == "batch dim 0 of data [2,3] and indices [3,1] differ");
    CHECK(nd(8, "", "3,1", "0").problem() == "data rank must be at least 1");

    auto ge = [](const std::string& d, const std::string& i, const std::string& axis) {
        return run_op({"GatherElements", 6, {{"axis", axis}}, {In(d), In(i, i64)}, {}});
    };
    CHECK(ge("3,7,5", "3,10,5", "1").str() == "[3,10,5]");
    CHECK(ge("3,7,5", "3,10,5", "-2").str() == "[3,10,5]");
    CHECK(ge("3,?,5", "...", "1").str() == "[3,?,5]");
    CHECK(ge("...", "3,10..12,5", "1").str() == "[3,10..12,5]");
    CHECK(ge("3,2..8,5", "?,4,?", "0").str() == "[?,4,5]");
    CHECK(ge("3,2..8,5", "?,10,?", "0").problem() ==
          "data [3,2..8,5] and indices [?,10,?] differ in dim 1 (not the axis 0)");
    CHECK(ge("3,7,5", "3,10,6", "1").problem() == "data [3,7,5] and indices [3,10,6] differ in dim 2 (not the axis 1)");
    CHECK(ge("3,7,5", "3,10", "1").problem() == "data rank 3 and indices rank 2 differ");
    CHECK(ge("3,7,5", "3,10,5", "3").problem() == "axis 3 is out of range [-3, 2] for rank 3");
}

namespace {

OpRun strided(const std::string& data, std::map<size_t, TensorValue> values,
              std::vector<std::pair<std::string, std::string>> attrs, size_t n = 0) {
    const std::string len = n ? std::to_string(n) : std::to_string(values.count(1) ? values.at(1).size() : 1);
    return run_op({"StridedSlice", 1, std::move(attrs), {In(data), In(len, i64), In(len, i64), In(len, i64)},
                   std::move(values)});
}

}  // namespace

TEST_CASE("ops-b2 StridedSlice shapes") {
    CHECK(strided("2,3,4", {{1, V({1, 0})}, {2, V({2, 2})}, {3, V({1, 1})}}, {{"begin_mask", "0,0"}, {"end_mask", "0,0"}})
              .str() == "[1,2,4]");
    CHECK(strided("2,3,4", {{1, V({5, 1})}, {2, V({0, 3})}, {3, V({1, 1})}}, {{"begin_mask", "1,0"}, {"end_mask", "1,0"}})
              .str() == "[2,2,4]");
    CHECK(strided("2,3,4", {{1, V({0})}, {2, V({1})}, {3, V({1})}},
                  {{"begin_mask", "0"}, {"end_mask", "0"}, {"shrink_axis_mask", "1"}})
              .str() == "[3,4]");
    CHECK(strided("2,3,4", {{1, V({0})}, {2, V({0})}, {3, V({1})}},
                  {{"begin_mask", "0"}, {"end_mask", "0"}, {"new_axis_mask", "1"}})
              .str() == "[1,2,3,4]");
    CHECK(strided("2,3,4", {{1, V({0, 1})}, {2, V({0, 3})}, {3, V({1, 1})}},
                  {{"begin_mask", "0,0"}, {"end_mask", "0,0"}, {"ellipsis_mask", "1,0"}})
              .str() == "[2,3,2]");
    CHECK(strided("10", {{1, V({9})}, {2, V({2})}, {3, V({-2})}}, {{"begin_mask", "0"}, {"end_mask", "0"}}).str() ==
          "[4]");
    CHECK(strided("10", {{1, V({0})}, {2, V({0})}, {3, V({-1})}}, {{"begin_mask", "1"}, {"end_mask", "1"}}).str() ==
          "[10]");
}

TEST_CASE("ops-b2 StridedSlice intervals and unknown values") {
    CHECK(strided("2..10", {{1, V({1})}, {2, V({5})}, {3, V({1})}}, {{"begin_mask", "0"}, {"end_mask", "0"}}).str() ==
          "[1..4]");
    CHECK(strided("?", {{1, V({1})}, {2, V({-1})}, {3, V({1})}}, {{"begin_mask", "0"}, {"end_mask", "0"}}).str() ==
          "[?]");
    CHECK(strided("?,3", {{1, V({0})}, {2, V({2})}, {3, V({1})}}, {{"begin_mask", "0"}, {"end_mask", "0"}}).str() ==
          "[..2,3]");
    const auto r = strided("2,3", {}, {{"begin_mask", "0,0"}, {"end_mask", "0,0"}}, 2);
    CHECK(r.str() == "[..2,..3]");
    CHECK(r.unknown.has_value());
    CHECK(strided("...", {}, {{"begin_mask", "0"}, {"end_mask", "0"}}, 2).str() == "[...]");
}

TEST_CASE("ops-b2 StridedSlice values and invalid") {
    auto r = strided("4", {{0, V({1, 3, 224, 224})}, {1, V({1})}, {2, V({3})}, {3, V({1})}},
                     {{"begin_mask", "0"}, {"end_mask", "0"}});
    CHECK(r.str() == "[2]");
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{3, 224});
    r = strided("4", {{0, V({1, 3, 224, 224})}, {1, V({-1})}, {2, V({0})}, {3, V({1})}},
                {{"begin_mask", "0"}, {"end_mask", "0"}, {"shrink_axis_mask", "1"}});
    CHECK(r.str() == "[]");
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{224});
    r = strided("4", {{0, V({1, 3, 224, 224})}, {1, V({0})}, {2, V({0})}, {3, V({-1})}},
                {{"begin_mask", "1"}, {"end_mask", "1"}});
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{224, 224, 3, 1});
    // A 2-D value sliced on its second axis (new axis in front).
    r = strided("2,3", {{0, V({1, 2, 3, 4, 5, 6})}, {1, V({0, 0, 1})}, {2, V({0, 0, 3})}, {3, V({1, 1, 2})}},
                {{"begin_mask", "0,1,0"}, {"end_mask", "0,1,0"}, {"new_axis_mask", "1,0,0"}});
    CHECK(r.str() == "[1,2,1]");
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{2, 5});
    // Bounds of a ShapeOf of dynamic dims pass through.
    r = strided("3", {{0, TensorValue{{1, 1}, {2, 8}, {0, ValueBounds::kUnbounded}}}, {1, V({1})}, {2, V({3})},
                      {3, V({1})}},
                {{"begin_mask", "0"}, {"end_mask", "0"}});
    REQUIRE(r.outputs[0].value);
    CHECK(r.outputs[0].value->at(0).hi == 8);
    CHECK(r.outputs[0].value->at(1).hi == ValueBounds::kUnbounded);
    // Begin known only as bounds: the dim spans the slices of every begin.
    r = strided("10", {{1, TensorValue{{2, 4}}}, {2, V({8})}, {3, V({1})}}, {{"begin_mask", "0"}, {"end_mask", "0"}});
    CHECK(r.str() == "[4..6]");
    CHECK_FALSE(r.outputs[0].value);

    CHECK(strided("4", {{1, V({0})}, {2, V({1})}, {3, V({0})}}, {{"begin_mask", "0"}, {"end_mask", "0"}}).problem() ==
          "strides[0] is 0: strides must be non-zero");
    CHECK(strided("4", {{1, V({0})}, {2, V({1})}, {3, V({1})}},
                  {{"begin_mask", "0,0"}, {"end_mask", "0,0"}, {"ellipsis_mask", "1,1"}})
              .problem() == "ellipsis_mask [1,1] sets more than one ellipsis");
    CHECK(strided("4", {{1, V({0, 0})}, {2, V({1, 1})}, {3, V({1, 1})}}, {{"begin_mask", "0"}, {"end_mask", "0"}})
              .problem() == "data rank 1 plus 0 new axes is less than the 2 begin/end values");
    const auto missing = strided("4", {{1, V({0})}, {2, V({1})}, {3, V({1})}}, {{"end_mask", "0"}});
    CHECK(missing.problem() == "begin_mask is missing (a list of integers)");
    const auto two_d = run_op({"StridedSlice", 1, {{"begin_mask", "0"}, {"end_mask", "0"}},
                               {In("4"), In("1,1", i64), In("1", i64)}, {}});
    CHECK(two_d.problem() == "begin input must be 1D (has rank 2)");
}

namespace {

OpRun slice(const std::string& data, std::map<size_t, TensorValue> values, bool axes = true) {
    const std::string len = std::to_string(values.count(1) ? values.at(1).size() : 1);
    std::vector<OpInput> in{In(data), In(len, i64), In(len, i64), In(len, i64)};
    if (axes) in.push_back(In(len, i64));
    return run_op({"Slice", 8, {}, in, std::move(values)});
}

}  // namespace

TEST_CASE("ops-b2 Slice") {
    CHECK(slice("10,20", {{1, V({1})}, {2, V({8})}, {3, V({2})}, {4, V({1})}}).str() == "[10,4]");
    CHECK(slice("10,20", {{1, V({-1})}, {2, V({-11})}, {3, V({-1})}, {4, V({0})}}).str() == "[10,20]");
    CHECK(slice("10,20", {{1, V({0, 0})}, {2, V({5, 5})}, {3, V({1, 1})}}, false).str() == "[5,5]");
    CHECK(slice("?,2..8", {{1, V({1, 1})}, {2, V({5, 5})}, {3, V({1, 1})}}, false).str() == "[..4,1..4]");
    const auto unknown = run_op({"Slice", 8, {}, {In("10,20"), In("1", i64), In("1", i64), In("1", i64),
                                                   In("1", i64)}, {}});
    CHECK(unknown.str() == "[..10,..20]");
    CHECK(unknown.unknown.has_value());
    auto r = slice("4", {{0, V({1, 3, 224, 224})}, {1, V({-2})}, {2, V({kMax})}, {3, V({1})}, {4, V({0})}});
    CHECK(r.str() == "[2]");
    CHECK(exact(r.outputs[0].value) == std::vector<int64_t>{224, 224});
    CHECK(slice("10,20", {{1, V({0, 0})}, {2, V({5, 5})}, {3, V({1, 1})}, {4, V({1, -1})}}).problem() ==
          "axes [1,-1] are not unique");
    CHECK(slice("10,20", {{1, V({0})}, {2, V({5})}, {3, V({0})}, {4, V({1})}}).problem() ==
          "step[0] is 0: steps must be non-zero");
    CHECK(slice("10,20", {{1, V({0})}, {2, V({5})}, {3, V({1})}, {4, V({2})}}).problem() ==
          "axes: axis 2 is out of range [-2, 1] for data rank 2");
}

namespace {

OpRun pad(int v, const std::string& data, TensorValue begin, TensorValue end, const std::string& mode = "constant") {
    const std::string n = std::to_string(begin.size());
    return run_op({"Pad", v, {{"pad_mode", mode}}, {In(data), In(n, i64), In(n, i64)}, {{1, begin}, {2, end}}});
}

}  // namespace

TEST_CASE("ops-b2 Pad") {
    CHECK(pad(1, "1,3,4,4", V({0, 0, 1, 1}), V({0, 0, 2, 2})).str() == "[1,3,7,7]");
    CHECK(pad(12, "1,3,4,4", V({0, 0, -1, -1}), V({0, 0, 0, 0})).str() == "[1,3,3,3]");
    CHECK(pad(1, "2..5,?", V({1, 1}), V({1, 0})).str() == "[4..7,1..]");
    CHECK(pad(1, "1,3,4,4", V({0, 0, -1, 0}), V({0, 0, 0, 0})).str() == "[1,3,3,4]");
    // Pads known as bounds (a ShapeOf-derived value) pad the dim's bounds.
    CHECK(pad(12, "4,?", TensorValue{{1, 3}, {0, 0}}, V({0, 2})).str() == "[5..7,2..]");
    CHECK(pad(12, "4", TensorValue{{0, ValueBounds::kUnbounded}}, V({0})).str() == "[4..]");
    // Pads that take a dim below 0 leave it dynamic, as OpenVINO's padded bound does.
    CHECK(pad(12, "2,3..9", V({-5, -4}), V({0, 0})).str() == "[?,..5]");
    CHECK(pad(1, "1,3,1,4", V({0, 0, 1, 0}), V({0, 0, 0, 0}), "reflect").problem() ==
          "pad_mode reflect needs data dim 2 to be at least 2, it is 1");
    CHECK(pad(1, "1,3,4,4", V({0, 0, 4, 0}), V({0, 0, 0, 0}), "reflect").problem() ==
          "pad_mode reflect needs pads_begin[2] 4 and pads_end[2] 0 to be at most data dim 2 (4) - 1");
    CHECK(pad(1, "1,3,4,4", V({0, 0, 4, 0}), V({0, 0, 0, 0}), "symmetric").ok());
    CHECK(pad(1, "1,3,4,4", V({0, 0}), V({0, 0})).problem() ==
          "pads_begin has 2 and pads_end 2 values: data rank 4 needs that many");
    CHECK(pad(1, "4", V({0}), V({0}), "wrap").problem() ==
          "pad_mode=\"wrap\" is not one of constant, edge, reflect, symmetric");
    const auto unknown = run_op({"Pad", 1, {{"pad_mode", "edge"}}, {In("1,3,4"), In("3", i64), In("3", i64)}, {}});
    CHECK(unknown.str() == "[?,?,?]");
    CHECK(unknown.unknown.has_value());
    const auto value = run_op({"Pad", 12, {{"pad_mode", "constant"}},
                               {In("1,3"), In("2", i64), In("2", i64), In("", ElementType::f16)},
                               {{1, V({0, 0})}, {2, V({0, 0})}}});
    CHECK(value.problem() == "data element type f32 and pad_value element type f16 differ");
}

TEST_CASE("ops-b2 Interpolate") {
    const std::vector<std::pair<std::string, std::string>> sizes_attrs{{"mode", "nearest"},
                                                                       {"shape_calculation_mode", "sizes"}};
    auto r = run_op({"Interpolate", 4, sizes_attrs, {In("1,3,10,10"), In("2", i64), In("2"), In("2", i64)},
                     {{1, V({20, 30})}, {3, V({2, 3})}}});
    CHECK(r.str() == "[1,3,20,30]");
    CHECK(r.outputs[0].type == ElementType::f32);
    auto padded = sizes_attrs;
    padded.push_back({"pads_begin", "0,0,1,1"});
    padded.push_back({"pads_end", "0,0,1,1"});
    r = run_op({"Interpolate", 4, padded, {In("1,3,10,10"), In("1", i64), In("1"), In("1", i64)},
                {{1, V({20})}, {3, V({3})}}});
    CHECK(r.str() == "[1,3,12,20]");
    r = run_op({"Interpolate", 4, sizes_attrs, {In("1,3,10,10"), In("4", i64), In("4")}, {{1, V({1, 3, 5, 6})}}});
    CHECK(r.str() == "[1,3,5,6]");
    r = run_op({"Interpolate", 4, {{"mode", "linear"}, {"shape_calculation_mode", "scales"}},
                {In("1,3,10,10"), In("2", i64), In("2"), In("2", i64)}, {{3, V({2, 3})}}});
    CHECK(r.str() == "[1,3,?,?]");
    CHECK(r.unknown.has_value());
    r = run_op({"Interpolate", 11, sizes_attrs, {In("1,3,10,?"), In("2", i64), In("2", i64)},
                {{1, V({20, 30})}, {2, V({2, 3})}}});
    CHECK(r.str() == "[1,3,20,30]");
    r = run_op({"Interpolate", 0, {{"axes", "2,3"}, {"mode", "linear"}}, {In("1,3,10,10"), In("2", i64)},
                {{1, V({5, 6})}}});
    CHECK(r.str() == "[1,3,5,6]");
    r = run_op({"Interpolate", 11, sizes_attrs, {In("..."), In("2", i64), In("2", i64)}, {}});
    CHECK(r.str() == "[...]");
    r = run_op({"Interpolate", 11, sizes_attrs, {In("1,3,10,10"), In("2", i64), In("2", i64)},
                {{1, V({20, 30})}, {2, V({2, 4})}}});
    CHECK(r.problem() == "axes [2,4]: every axis must be less than data rank 4 (and >= 0)");
    r = run_op({"Interpolate", 11, sizes_attrs, {In("1,3,10,10"), In("1", i64), In("2", i64)},
                {{1, V({20})}, {2, V({2, 3})}}});
    CHECK(r.problem() == "sizes has 1 values for 2 axes");
    r = run_op({"Interpolate", 4, sizes_attrs, {In("1,3,10,10"), In("2"), In("2")}, {{1, V({20, 30})}}});
    CHECK(r.problem() == "sizes element type f32 is not one of i32, i64, u32, u64");
    r = run_op({"Interpolate", 11, {{"mode", "cubic"}, {"shape_calculation_mode", "scales"}},
                {In("1,3,10,10"), In("2", i64), In("2", i64)}, {}});
    CHECK(r.problem() == "scales element type i64 is not one of f32, f16, bf16");
    r = run_op({"Interpolate", 4, {{"mode", "bilinear_pillow"}, {"shape_calculation_mode", "sizes"}},
                {In("1,3,10,10"), In("2", i64), In("2")}, {}});
    CHECK(r.problem() == "mode=bilinear_pillow needs Interpolate-11");
}

TEST_CASE("ops-b2 Scatter updates") {
    const auto su = [](const std::string& u, int64_t axis) {
        return run_op({"ScatterUpdate", 3, {}, {In("1000,256,10,15"), In("125,20", i64), In(u), In("", i64)},
                       {{3, V({axis})}}});
    };
    CHECK(su("1000,125,20,10,15", 1).str() == "[1000,256,10,15]");
    CHECK(su("1000,125,20,10,15", 1).ok());
    CHECK(su("1000,125,21,10,15", 1).problem() ==
          "updates [1000,125,21,10,15] must be data[:axis] + indices + data[axis+1:] = [1000,125,20,10,15]");
    CHECK(su("1000,125,20,10", 1).problem() == "updates rank 4 must be indices rank 2 + data rank 4 - 1");

    const auto nd = [](int v, const std::string& i, const std::string& u) {
        return run_op({"ScatterNDUpdate", v, {}, {In("1000,256,10,15"), In(i, i64), In(u)}, {}});
    };
    CHECK(nd(3, "25,125,3", "25,125,15").str() == "[1000,256,10,15]");
    CHECK(nd(15, "25,125,3", "25,125,15").ok());
    CHECK(nd(3, "25,125,5", "25,125").problem() == "last dim of indices 5 exceeds data rank 4");
    CHECK(nd(3, "25,125,3", "25,125,15,1").problem() ==
          "updates rank 4 must be data rank 4 + indices rank 3 - 3 - 1 = 3");
    CHECK(nd(3, "25,125,3", "25,124,15").problem() == "updates [25,124,15] must be indices[:-1] + data[3:] = [25,125,15]");
    const auto bad = run_op({"ScatterNDUpdate", 15, {{"reduction", "mean"}},
                             {In("4"), In("1,1", i64), In("1")}, {}});
    CHECK(bad.problem() == "reduction=\"mean\" is not one of none, sum, sub, prod, min, max");

    const auto seu = [](int v, const std::string& i, const std::string& u, int64_t axis) {
        return run_op({"ScatterElementsUpdate", v, {}, {In("2,4,5,7"), In(i, i64), In(u), In("", i64)},
                       {{3, V({axis})}}});
    };
    CHECK(seu(3, "2,2,2,2", "2,2,2,2", 1).str() == "[2,4,5,7]");
    CHECK(seu(12, "2,2,2,2", "2,2,2,2", -1).ok());
    CHECK(seu(3, "2,2,2", "2,2,2", 1).problem() == "indices rank 3 and data rank 4 must be equal");
    CHECK(seu(3, "2,2,2,2", "2,2,2,3", 1).problem() == "indices [2,2,2,2] and updates [2,2,2,3] must have equal shapes");
    CHECK(seu(3, "2,2,2,2", "2,2,2,2", 4).problem() == "axis 4 is out of range [-4, 3] for data rank 4");
    const auto types = run_op({"ScatterElementsUpdate", 3, {}, {In("2"), In("2", i64), In("2", i32), In("", i64)}, {}});
    CHECK(types.problem() == "data element type f32 and updates element type i32 differ");
}

TEST_CASE("ops-b2 NonZero OneHot Bucketize") {
    auto r = run_op({"NonZero", 3, {}, {In("3,5")}, {}});
    CHECK(r.str() == "[2,..15]");
    CHECK(r.outputs[0].type == ElementType::i64);
    r = run_op({"NonZero", 3, {{"output_type", "i32"}}, {In("3,?")}, {}});
    CHECK(r.str() == "[2,?]");
    CHECK(r.outputs[0].type == ElementType::i32);
    CHECK(run_op({"NonZero", 3, {}, {In("...")}, {}}).str() == "[?,?]");
    CHECK(run_op({"NonZero", 3, {}, {In("")}, {}}).str() == "[?,?]");
    CHECK(run_op({"NonZero", 3, {}, {In("2..3,4")}, {}}).str() == "[2,..12]");
    CHECK(run_op({"NonZero", 3, {{"output_type", "f32"}}, {In("3")}, {}}).problem() ==
          "output_type=f32 is not one of i32, i64");
    // A known input (OpenVINO folds a constant source): the count, and the coordinates as values.
    r = run_op({"NonZero", 3, {}, {In("2,2", i64)}, {{0, V({0, 7, 3, 0})}}});
    CHECK(r.str() == "[2,2]");
    REQUIRE(r.outputs[0].value);
    CHECK(r.outputs[0].value->size() == 4);
    CHECK((*r.outputs[0].value)[1].lo == 1);  // the second one's row
    CHECK(run_op({"NonZero", 3, {}, {In("3")}, {}}, {{0, {0.0, 0.5, 0.0}}}).str() == "[1,1]");
    CHECK(run_op({"NonZero", 3, {}, {In("", i64)}, {{0, V({5})}}}).str() == "[1,1]");  // a scalar not zero
    CHECK(run_op({"NonZero", 3, {}, {In("", i64)}, {{0, V({0})}}}).str() == "[0,0]");
    CHECK(run_op({"NonZero", 3, {}, {In("2", i64)}, {{0, TensorValue{{0, 4}, {1, 1}}}}}).str() == "[1,..2]");

    const auto oh = [](const std::string& indices, int64_t axis, std::map<size_t, TensorValue> values) {
        return run_op({"OneHot", 1, {{"axis", std::to_string(axis)}},
                       {In(indices, i64), In("", i64), In("", ElementType::u8), In("", ElementType::u8)},
                       std::move(values)});
    };
    r = oh("3", -1, {{1, V({5})}});
    CHECK(r.str() == "[3,5]");
    CHECK(r.outputs[0].type == ElementType::u8);
    CHECK(oh("3,2", 0, {{1, V({5})}}).str() == "[5,3,2]");
    CHECK(oh("3,2", 1, {}).str() == "[3,?,2]");
    CHECK(oh("3", 2, {{1, V({5})}}).problem() == "axis 2 is out of range [-2, 1] for indices rank 1");
    CHECK(oh("3", 0, {{1, V({-5})}}).problem() == "depth -5 is negative");

    r = run_op({"Bucketize", 3, {{"output_type", "i32"}}, {In("2,3"), In("4")}, {}});
    CHECK(r.str() == "[2,3]");
    CHECK(r.outputs[0].type == ElementType::i32);
    CHECK(run_op({"Bucketize", 3, {}, {In("2"), In("4,1")}, {}}).problem() ==
          "buckets input must be a 1D tensor, it is [4,1]");
}

TEST_CASE("ops-b2 Embeddings") {
    auto r = run_op({"EmbeddingBagOffsetsSum", 3, {}, {In("5,2,6"), In("4", i64), In("3", i64), In("", i64), In("4")}, {}});
    CHECK(r.str() == "[3,2,6]");
    CHECK(r.outputs[0].type == ElementType::f32);
    CHECK(run_op({"EmbeddingBagOffsets", 15, {{"reduction", "mean"}}, {In("5,?"), In("4", i32), In("?", i32)}, {}})
              .str() == "[?,?]");
    CHECK(run_op({"EmbeddingBagOffsetsSum", 3, {}, {In("5,2"), In("4", i64), In("3", i32)}, {}}).problem() ==
          "input 2 element type i32 and indices element type i64 differ");
    CHECK(run_op({"EmbeddingBagOffsetsSum", 3, {}, {In("5,2"), In("4", i64), In("3", i64), In("", i64), In("3")}, {}})
              .problem() == "indices [4] and per_sample_weights [3] must have the same shape");
    CHECK(run_op({"EmbeddingBagOffsets", 15, {{"reduction", "max"}}, {In("5,2"), In("4", i64), In("3", i64)}, {}})
              .problem() == "reduction=\"max\" is not one of sum, mean");

    CHECK(run_op({"EmbeddingBagPackedSum", 3, {}, {In("5,2,6"), In("3,4", i64)}, {}}).str() == "[3,2,6]");
    CHECK(run_op({"EmbeddingBagPacked", 15, {{"reduction", "mean"}}, {In("5,2"), In("3,4", i64), In("3,4")}, {}})
              .problem() == "per_sample_weights can only be used with reduction sum, not mean");
    CHECK(run_op({"EmbeddingBagPacked", 15, {}, {In("5,2"), In("?,4", i64), In("3,4")}, {}}).str() == "[3,2]");
    CHECK(run_op({"EmbeddingBagPackedSum", 3, {}, {In("5,2"), In("3", i64)}, {}}).problem() ==
          "indices must be 2D, it is [3]");

    const auto seg = [](std::map<size_t, TensorValue> values) {
        return run_op({"EmbeddingSegmentsSum", 3, {},
                       {In("5,2,6"), In("4", i64), In("4", i64), In("", i64), In("", i64), In("4")}, std::move(values)});
    };
    CHECK(seg({{3, V({7})}}).str() == "[7,2,6]");
    const auto unknown = seg({});
    CHECK(unknown.str() == "[?,2,6]");
    CHECK(unknown.unknown.has_value());
    CHECK(run_op({"EmbeddingSegmentsSum", 3, {}, {In("5,2"), In("4", i64), In("3", i64), In("", i64)}, {}})
              .problem() == "indices [4] and segment_ids [3] must have the same shape");
    CHECK(run_op({"EmbeddingSegmentsSum", 3, {}, {In(""), In("4", i64), In("4", i64), In("", i64)}, {{3, V({2})}}})
              .problem() == "emb_table must not be a scalar");
}

TEST_CASE("ops-b2 Unique") {
    auto r = run_op({"Unique", 10, {}, {In("2,3")}, {}});
    REQUIRE(r.outputs.size() == 4);
    CHECK(r.str(0) == "[1..6]");
    CHECK(r.str(1) == "[1..6]");
    CHECK(r.str(2) == "[6]");
    CHECK(r.str(3) == "[1..6]");
    CHECK(r.outputs[0].type == ElementType::f32);
    CHECK(r.outputs[1].type == ElementType::i64);
    CHECK(r.outputs[3].type == ElementType::i64);
    r = run_op({"Unique", 10, {{"index_element_type", "i32"}}, {In("?,3")}, {}});
    CHECK(r.str(0) == "[?]");
    CHECK(r.str(2) == "[?]");
    CHECK(r.outputs[2].type == ElementType::i32);
    r = run_op({"Unique", 10, {}, {In("2,3"), In("", i64)}, {{1, V({-1})}}});
    CHECK(r.str(0) == "[2,1..3]");
    CHECK(r.str(1) == "[1..6]");
    CHECK(r.str(2) == "[3]");
    r = run_op({"Unique", 10, {}, {In("2,0"), In("1", i32)}, {{1, V({1})}}});
    CHECK(r.str(0) == "[2,0]");
    CHECK(r.str(1) == "[0]");
    CHECK(r.str(3) == "[0]");
    CHECK(run_op({"Unique", 10, {}, {In("2,3"), In("", i64)}, {{1, V({2})}}}).problem() ==
          "axis 2 is out of range [-2, 1] for data rank 2");
    CHECK(run_op({"Unique", 10, {{"index_element_type", "u8"}}, {In("2,3")}, {}}).problem() ==
          "index_element_type=u8 is not one of i32, i64");
    // A Constant's data gives the counts (OpenVINO reads the data of a Constant input, nothing computed).
    OpCase known{"Unique", 10, {}, {In("2,3", i64)}, {{0, V({4, 1, 4, 4, 2, 4})}}};
    CHECK(run_op(known).str(0) == "[1..6]");
    known.inputs[0].stored_const = true;
    r = run_op(known);
    CHECK(r.str(0) == "[3]");
    CHECK(r.str(1) == "[3]");
    CHECK(r.str(2) == "[6]");
    CHECK(r.str(3) == "[3]");
    known.inputs.push_back(In("", i64));
    known.values[1] = V({1});  // columns [4,4], [1,2], [4,4]: two distinct
    r = run_op(known);
    CHECK(r.str(0) == "[2,2]");
    CHECK(r.str(2) == "[3]");
}

TEST_CASE("ops-b2 bounds and dynamic inputs") {
    // Slice with a start known only as bounds (a ShapeOf-derived value): the dim spans every start.
    auto r = slice("10", {{1, TensorValue{{1, 3}}}, {2, V({kMax})}, {3, V({1})}, {4, V({0})}});
    CHECK(r.str() == "[7..9]");
    CHECK_FALSE(r.outputs[0].value);
    // ScatterUpdate with an unknown axis checks ranks only; the output is the data's shape.
    r = run_op({"ScatterUpdate", 3, {}, {In("?,4..6"), In("2", i32), In("?,2"), In("", i64)}, {}});
    CHECK(r.str() == "[?,4..6]");
    CHECK(run_op({"ScatterUpdate", 3, {}, {In("..."), In("2", i32), In("3"), In("", i64)}, {}}).str() == "[...]");
    // GatherND keeps intervals.
    CHECK(run_op({"GatherND", 8, {}, {In("2..4,3,?"), In("5..6,1", i64)}, {}}).str() == "[5..6,3,?]");
    // OneHot depth known as bounds.
    r = run_op({"OneHot", 1, {{"axis", "-1"}}, {In("2", i64), In("", i64), In(""), In("")}, {{1, TensorValue{{3, 8}}}}});
    CHECK(r.str() == "[2,3..8]");
    CHECK(r.outputs[0].type == ElementType::f32);
    CHECK(run_op({"OneHot", 1, {{"axis", "0"}}, {In("...", i64), In("", i64), In(""), In("")}, {}}).str() == "[...]");
    CHECK(run_op({"OneHot", 1, {{"axis", "0"}}, {In("2", i64), In("1", i64), In(""), In("")}, {}}).problem() ==
          "depth input must be a scalar, it is [1]");
    // Interpolate sizes known as bounds.
    r = run_op({"Interpolate", 11, {{"mode", "nearest"}, {"shape_calculation_mode", "sizes"}},
                {In("1,3,?,?"), In("2", i64), In("2", i64)}, {{1, TensorValue{{1, 8}, {0, ValueBounds::kUnbounded}}}, {2, V({2, 3})}}});
    CHECK(r.str() == "[1,3,1..8,?]");
}

// ---------------------------------------------------------------------------------------------- type_prop cases

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kI32Min = std::numeric_limits<int32_t>::min();


TensorValue values_of(const std::vector<int64_t>& v) {
    TensorValue out;
    for (const int64_t x : v) out.push_back({x, x});
    return out;
}

// A value ShapeOf gives of a 1-D shape [dim], minus `offset`: OpenVINO's start_stop_as_interval inputs.
TensorValue shape_of_minus(const std::string& dim, int64_t offset) {
    const Dim d = S(dim).dims.at(0);
    return TensorValue{{d.min() - offset, d.has_upper_bound() ? d.max() - offset : kU}};
}

// Slice-8 of Const start/stop/step (and axes) of element type t.
OpRun slice_of(const Shape& data, const std::vector<int64_t>& start, const std::vector<int64_t>& stop,
               const std::vector<int64_t>& step, std::optional<std::vector<int64_t>> axes = std::nullopt,
               ElementType t = i32) {
    const std::string n = std::to_string(start.size());
    OpCase c{"Slice",
             8,
             {},
             {OpInput{data, t}, In(n, t), In(n, t), In(n, t)},
             {{1, values_of(start)}, {2, values_of(stop)}, {3, values_of(step)}}};
    if (axes) {
        c.inputs.push_back(In(std::to_string(axes->size()), t));
        c.values[4] = values_of(*axes);
    }
    return run_op(c);
}
OpRun slice_of(const std::string& data, const std::vector<int64_t>& start, const std::vector<int64_t>& stop,
               const std::vector<int64_t>& step, std::optional<std::vector<int64_t>> axes = std::nullopt,
               ElementType t = i32) {
    return slice_of(S(data), start, stop, step, std::move(axes), t);
}

std::vector<int64_t> iota(size_t n) {
    std::vector<int64_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(i);
    return v;
}

// A shape whose dim i has the symbol 100 + i.
Shape with_symbols(const std::string& text) {
    Shape s = S(text);
    for (size_t i = 0; i < s.rank(); ++i) s.dims[i] = s.dims[i].with_symbol(static_cast<uint32_t>(100 + i));
    return s;
}

std::vector<uint32_t> symbols_of(const Shape& s) {
    std::vector<uint32_t> out;
    for (const Dim& d : s.dims) out.push_back(d.symbol());
    return out;
}

}  // namespace

TEST_CASE("type_prop Slice-8: Const start, stop, step and axes") {
    const std::vector<int64_t> start{1, 1, -20, 9, 9, 9, 9, 20}, stop{8, 8, 20, -11, 0, -10, -11, -20},
        step{1, 2, 1, -1, -1, -1, -2, -1};
    CHECK(slice_of("10,10,10,10,10,10,10,10", start, stop, step, iota(8)).str() == "[7,4,10,10,9,9,5,10]");
    CHECK(slice_of("10,10,10,10,10,10,10,10", start, stop, step).str() == "[7,4,10,10,9,9,5,10]");
    CHECK(slice_of("10,10,10,10,10,10,10,10", start, stop, step, std::vector<int64_t>{2, 0, 3, 7, 1, 5, 6, 4}).str() ==
          "[4,9,7,10,10,9,5,10]");
    CHECK(slice_of("5,5,5,5,9,9", {0, 0, 0, 0, 0, 0}, {5, 5, 5, 5, 9, 9}, {2, 3, 4, 5, 2, 3}).str() == "[3,2,2,1,5,3]");
    CHECK(slice_of("5,5,5,5,9,9", {5, 5, 5, 5, 9, 9}, {0, 0, 0, 0, 0, 0}, {-2, -3, -4, -5, -2, -3}).str() ==
          "[2,2,1,1,4,3]");
    CHECK(slice_of("5,5,5,5,9,9", {0, 0, 0, 5, 0, 10}, {5, 5, 5, 5, 9, 9}, {2, -3, 1, 5, 2, 1}).str() ==
          "[3,0,5,0,5,0]");
    CHECK(slice_of("1..5,10..20,20..30,16,30..40", {0, 2, 10, 0, 35}, {1, 8, 25, 16, 40}, {1, 1, 1, 1, 1}, iota(5))
              .str() == "[1,6,10..15,16,..5]");
    CHECK(slice_of("...", start, stop, step, iota(8)).str() == "[...]");
    const auto r = slice_of(with_symbols("10,10,10,10,10,20,20..30,30,2..5,?"), {1, 1, -20, 9, 10, 9},
                            {8, 8, 20, -11, 25, 0}, {1, 2, 1, -1, 1, -1}, std::vector<int64_t>{1, 0, 2, 3, 6, 4});
    CHECK(r.str() == "[4,7,10,10,9,20,10..15,30,2..5,?]");
    CHECK(symbols_of(r.shape()) == std::vector<uint32_t>{0, 0, 102, 103, 0, 105, 0, 107, 108, 109});
    CHECK(slice_of("10,11,12,2", {0, 0, 0, 0}, {1, 5, 20, 20}, {1, 1, 1, 1}, std::nullopt, i64).str() == "[1,5,12,2]");
}

TEST_CASE("type_prop Slice-8: i32 and i64 limits slice to the ends of dynamic dims") {
    CHECK(slice_of("10,10..20,10..20,10..20,10..20,10..20,30..40,..50,?",
                   {2, 2, kI32Min, kI32Min, kI32Min, kI32Min, kI32Min, 0, 0},
                   {10, kI32Max, 5, 10, 15, 25, kI32Max, 50, kI32Max}, std::vector<int64_t>(9, 1), iota(9))
              .str() == "[8,8..18,5,10,10..15,10..20,30..40,..50,?]");
    const std::vector<int64_t> rev_start{9,       kI32Max, kI32Max, kI32Max, kI32Max, kI32Max, kI32Max,
                                         kI32Max, 20,      20,      20,      20,      kI32Max};
    const std::vector<int64_t> rev_stop{1, 1, 4, 10, 10, 15, 25, kI32Min, -21, kI32Min, kI32Min, kI32Min, kI32Min};
    const std::string rev_data = "10,10..20,10..20,10..20,11..20,10..20,10..20,30..40,20,20,..20,?,?";
    CHECK(slice_of(rev_data, rev_start, rev_stop, std::vector<int64_t>(13, -1), iota(13)).str() ==
          "[8,8..18,5..15,..9,..9,..4,0,30..40,20,20,..20,..21,?]");
    std::vector<int64_t> rev_start64 = rev_start, rev_stop64 = rev_stop;
    for (int64_t& v : rev_start64) v = v == kI32Max ? kMax : v;
    for (int64_t& v : rev_stop64) v = v == kI32Min ? kMin : v;
    std::vector<int64_t> steps64(13, -1);
    steps64[1] = -2;
    CHECK(slice_of(rev_data, rev_start64, rev_stop64, steps64, iota(13), i64).str() ==
          "[8,4..9,5..15,..9,..9,..4,0,30..40,20,20,..20,..21,?]");
    CHECK(slice_of("?,?,?,?", {2, 10, 35, kI32Min}, {8, 25, 40, -3}, {1, 1, 1, 1}, iota(4)).str() ==
          "[..6,..15,..5,?]");
    CHECK(slice_of("?,?,?", {-8, -25, -40}, {-2, -10, -35}, {1, 1, 1}, iota(3)).str() == "[..6,..15,..5]");
    CHECK(slice_of("?,?,?", {8, 25, 40}, {2, 10, 35}, {-1, -1, -1}, iota(3)).str() == "[..6,..15,..5]");
    CHECK(slice_of("?,?,?", {-2, -10, -35}, {-8, -25, -40}, {-1, -1, -1}, iota(3)).str() == "[..6,..15,..5]");
    CHECK(slice_of("?,?,?,?,?,?", {5, 5, 5, -10, kI32Max, kI32Max}, {-10, -10, kI32Min, 5, 5, kI32Min},
                   {-1, -2, -1, -1, -1, -1}, iota(6))
              .str() == "[..6,..3,..6,?,?,?]");
    CHECK(slice_of("..2000,?,4", {0, 0, 0}, {kI32Max, kI32Max, kI32Max}, {1, 1, 1}, iota(3)).str() == "[..2000,?,4]");
    CHECK(slice_of("..2000,?,4", {0, 0, 0}, {kMax, kMax, kMax}, {1, 1, 1}, iota(3), i64).str() == "[..2000,?,4]");
    CHECK(slice_of("..2000,?,4", {1}, {kI32Max}, {1}, std::vector<int64_t>{1}).str() == "[..2000,?,4]");
    CHECK(slice_of("..2000,?,4", {1}, {kMax}, {1}, std::vector<int64_t>{1}, i64).str() == "[..2000,?,4]");
    CHECK(slice_of("?,?,?", {kMax, kMax, kMax}, {kMin, kMin, kMin}, {-1, -1, -1}, iota(3), i64).str() == "[?,?,?]");
    CHECK(slice_of("?,?,?", {kMin, kMin, kMin}, {kMax, kMax, kMax}, {1, 1, 1}, iota(3), i64).str() == "[?,?,?]");
    const std::string i32_max_dims = "?,?,.." + std::to_string(kI32Max) + ",.." + std::to_string(kI32Max);
    const std::string expected = "[" + i32_max_dims + "]";
    CHECK(slice_of(i32_max_dims, {kI32Min, kI32Min, kI32Min, kI32Min}, {kI32Max, kI32Max, kI32Max, kI32Max},
                   {1, 1, 1, 1}, iota(4))
              .str() == expected);
    CHECK(slice_of(i32_max_dims, {kI32Max, kI32Max, kI32Max, kI32Max}, {kI32Min, kI32Min, kI32Min, kI32Min},
                   {-1, -1, -1, -1}, iota(4))
              .str() == expected);
    CHECK(slice_of("?", {0}, {-2}, {1}, std::vector<int64_t>{0}).str() == "[?]");
    CHECK(slice_of("20..", {-7}, {kI32Max}, {1}, std::vector<int64_t>{0}).str() == "[7]");
    CHECK(slice_of("1,256,?", {-7}, {kMax}, {1}, std::vector<int64_t>{2}, i64).str() == "[1,256,..7]");
    // An i64 INT32_MAX is a number like any other.
    CHECK(slice_of("?", {0}, {kI32Max}, {1}, std::vector<int64_t>{0}, i64).str() ==
          "[.." + std::to_string(kI32Max) + "]");
}

TEST_CASE("type_prop Slice-8: start, stop and step of unknown values but known length") {
    const std::string data = "..10,1..10,10,3..5,?,100..,..8,4..8,16";
    const auto unknown = [](const Shape& d, const std::string& n, bool axes) {
        OpCase c{"Slice", 8, {}, {OpInput{d, i32}, In(n, i32), In(n, i32), In(n, i32)}, {}};
        if (axes) {
            c.inputs.push_back(In(n, i32));
            c.values[4] = values_of(iota(static_cast<size_t>(std::stoi(n))));
        }
        return run_op(c);
    };
    // Without axes, the first seven dims are sliced; the last two, beyond start's length, stay.
    auto r = unknown(with_symbols(data), "7", false);
    CHECK(r.str() == "[..10,..10,..10,..5,?,?,..8,4..8,16]");
    CHECK(r.unknown.has_value());
    CHECK(symbols_of(r.shape()) == std::vector<uint32_t>{100, 0, 0, 0, 0, 0, 106, 107, 108});
    CHECK(unknown(S(data), "7", true).str() == "[..10,..10,..10,..5,?,?,..8,4..8,16]");
    auto mixed = [](std::vector<int64_t> axes) {
        return run_op({"Slice",
                       8,
                       {},
                       {In("5..10,2,7,..4", i32), In("3", i32), In("3", i32), In("3", i32), In("3", i32)},
                       {{4, values_of(axes)}}});
    };
    CHECK(mixed({0, 3, 1}).str() == "[..10,..2,7,..4]");
    CHECK(mixed({-4, -1, -3}).str() == "[..10,..2,7,..4]");
    // Unknown axes: any dim may be sliced.
    r = run_op({"Slice", 8, {}, {In("5,10,15", i64), In("?", i64), In("1", i64), In("1", i64), In("1", i64)}, {}});
    CHECK(r.str() == "[..5,..10,..15]");
    r = run_op({"Slice", 8, {}, {In("..."), In("...", i32), In("...", i32), In("...", i32), In("...", i32)}, {}});
    CHECK(r.str() == "[...]");
}

TEST_CASE("type_prop Slice-8: start and stop bounded by ShapeOf") {
    const auto bounded = [](TensorValue start, TensorValue stop) {
        return run_op({"Slice",
                       8,
                       {},
                       {In("1,10", i64), In("2", i64), In("2", i64), In("2", i64)},
                       {{1, std::move(start)}, {2, std::move(stop)}, {3, V({1, 1})}}});
    };
    CHECK(bounded(V({0, 0}), TensorValue{{1, 1}, {5, 7}}).str() == "[1,5..7]");
    CHECK(bounded(TensorValue{{0, 0}, {3, 5}}, V({1, 7})).str() == "[1,2..4]");
    CHECK(bounded(TensorValue{{0, 0}, {3, 5}}, TensorValue{{2, 2}, {6, 7}}).str() == "[1,1..4]");
    // A Slice of a ShapeOf keeps the dim's symbol in its value.
    TensorValue shape{{3, 7}, {4, 4}};
    shape[0].symbol = 9;
    const auto r = run_op({"Slice",
                           8,
                           {},
                           {In("2", i64), In("1", i64), In("1", i64), In("1", i64)},
                           {{0, shape}, {1, V({0})}, {2, V({1})}, {3, V({1})}}});
    REQUIRE(r.outputs.at(0).value);
    CHECK(r.outputs[0].value->at(0).lo == 3);
    CHECK(r.outputs[0].value->at(0).hi == 7);
    CHECK(r.outputs[0].value->at(0).symbol == 9);
}

TEST_CASE("type_prop Slice-8: start_stop_as_interval") {
    struct Case {
        const char *data, *start, *stop;
        int64_t start_offset, stop_offset, step;
        const char* out;
    };
    const Case cases[] = {
        {"1024", "0..20", "10..20", 0, 0, 1, "[..20]"},
        {"?", "0..20", "10..20", 10, 0, 1, "[..20]"},
        {"1024", "..10", "..5", 0, 10, 1, "[1004..1019]"},
        {"120..1024", "..10", "..5", 0, 10, 1, "[100..1019]"},
        {"1024", "..1030", "..2000", 1025, 10, 1, "[..1024]"},
        {"1024", "1..12", "..18", 10, 0, 2, "[..9]"},
        {"1024", "10..20", "..20", 0, 10, 2, "[..507]"},
        {"100..1024", "10..20", "..20", 0, 10, 2, "[..507]"},
        {"1024", "10", "30", 0, 0, 2, "[10]"},
        {"20..1024", "10..15", "30..40", 0, 0, 2, "[3..15]"},
        {"1024", "..20", "10..20", 10, 0, -1, "[..1013]"},
        {"?", "..20", "10..20", 10, 0, -1, "[?]"},
        {"1024", "30", "10", 35, 40, -1, "[25]"},
        {"1024", "..2000", "..1030", 10, 1026, -1, "[..1024]"},
        {"1024", "30", "10", 0, 0, -2, "[10]"},
        {"1024", "20..30", "10", 0, 0, -2, "[5..10]"},
        {"1024", "20..30", "10", 40, 0, -2, "[497..502]"},
        {"1024", "20..30", "10..15", 0, 0, -2, "[3..10]"},
        {"10..1024", "20..30", "10..15", 0, 0, -2, "[..10]"},
    };
    for (const Case& c : cases) {
        INFO(c.data << " start " << c.start << "-" << c.start_offset << " stop " << c.stop << "-" << c.stop_offset
                    << " step " << c.step);
        const auto r = run_op({"Slice",
                               8,
                               {},
                               {In(c.data), In("1", i64), In("1", i64), In("1", i64)},
                               {{1, shape_of_minus(c.start, c.start_offset)},
                                {2, shape_of_minus(c.stop, c.stop_offset)},
                                {3, V({c.step})}}});
        CHECK(r.str() == c.out);
    }
}

TEST_CASE("type_prop Slice-8: rejected inputs") {
    const std::vector<int64_t> start{1, 1, -20, 9, 9, 9, 9, 20}, stop{8, 8, 20, -11, 0, -10, -11, -20},
        step{1, 2, 1, -1, -1, -1, -2, -1};
    const std::string data8 = "10,10,10,10,10,10,10,10";
    CHECK(slice_of(data8, start, stop, step, std::vector<int64_t>{2, 0, -20, 7, 1, 20, 6, 4}).problem() ==
          "axes: axis -20 is out of range [-8, 7] for data rank 8");
    CHECK(slice_of(data8, start, stop, step, std::vector<int64_t>{2, 0, 9, 7, 1, 20, 6, 4}).problem() ==
          "axes: axis 9 is out of range [-8, 7] for data rank 8");
    CHECK(run_op({"Slice",
                  8,
                  {},
                  {In(data8, i32), In("2", i32), In("2", i32), In("2", i32), In("2", i32)},
                  {{4, V({-15, 7})}}})
              .problem() == "axes: axis -15 is out of range [-8, 7] for data rank 8");
    std::vector<int64_t> zero_step = step;
    zero_step[2] = 0;
    CHECK(slice_of(data8, start, stop, zero_step).problem() == "step[2] is 0: steps must be non-zero");
    CHECK(
        slice_of("100,100,100,100", {2, 10, 35, 10}, {8, 25, 40, 20}, {1, 1, 1, 100}, std::vector<int64_t>{2, 1, 2, 3})
            .problem() == "axes [2,1,2,3] are not unique");
    CHECK(!slice_of("100,100,100", {2, 10, 35}, {8, 25, 40}, {1, 0, 1}, std::vector<int64_t>{1, 2, 3}).ok());
    CHECK(
        !slice_of("100,100,100,100", {2, 10, 35, 10}, {8, 25, 40, 20}, {1, 1, 1, 100}, iota(4), ElementType::f32).ok());

    const auto with = [](size_t wrong, const std::string& shape, std::optional<ElementType> type) {
        std::vector<OpInput> in{In("100,100,100,100", i32), In("3", i32), In("3", i32), In("3", i32), In("3", i32)};
        in[wrong] = In(shape, type);
        return run_op({"Slice", 8, {}, in, {}});
    };
    CHECK(with(1, "", i32).problem() == "start input must be 1D (has rank 0)");
    CHECK(with(2, "", i32).problem() == "stop input must be 1D (has rank 0)");
    CHECK(with(3, "", i32).problem() == "step input must be 1D (has rank 0)");
    CHECK(with(4, "", i32).problem() == "axes input must be 1D (has rank 0)");
    CHECK(with(0, "", i32).problem() == "data is a scalar: Slice needs a rank of at least 1");
    CHECK(with(1, "2", i32).problem() == "start [2], stop [3] and step [3] shapes are not compatible");
    CHECK(with(2, "2", i32).problem() == "start [3], stop [2] and step [3] shapes are not compatible");
    CHECK(with(3, "2", i32).problem() == "start [3], stop [3] and step [2] shapes are not compatible");
    CHECK(with(4, "2", i32).problem() == "axes shape [2] is not compatible with start shape [3]");
    CHECK(with(1, "5", i32).problem() == "start has 5 values, more than data rank 4");
    CHECK(with(4, "5", i32).problem() == "axes has 5 values, more than data rank 4");
    for (const auto bad : {ElementType::f32, ElementType::boolean})
        for (size_t i = 1; i <= 4; ++i) CHECK_FALSE(with(i, "3", bad).ok());
}

namespace {

// StridedSlice-1 of Const begin, end and strides (i64).
OpRun strided_of(const Shape& data, const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                 const std::vector<int64_t>& strides, Attrs masks) {
    const std::string n = std::to_string(begin.size());
    return run_op({"StridedSlice",
                   1,
                   std::move(masks),
                   {OpInput{data, ElementType::f32}, In(n, i64), In(n, i64), In(n, i64)},
                   {{1, values_of(begin)}, {2, values_of(end)}, {3, values_of(strides)}}});
}
OpRun strided_of(const std::string& data, const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                 const std::vector<int64_t>& strides, Attrs masks) {
    return strided_of(S(data), begin, end, strides, std::move(masks));
}

std::string mask_of(size_t n, int bit) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(bit);
    return s;
}

}  // namespace

TEST_CASE("type_prop StridedSlice-1: begin and end masks, strides, out-of-bounds values") {
    const std::vector<int64_t> begin{0, 2, 4, 10, -1, -2, -4, -10}, end{1, 3, 4, 5, -1, -3, -4, -5};
    const std::vector<int64_t> ones(8, 1), back(8, -1);
    const Attrs begin_masked{{"begin_mask", mask_of(8, 1)}, {"end_mask", mask_of(8, 0)}};
    const Attrs end_masked{{"begin_mask", mask_of(8, 0)}, {"end_mask", mask_of(8, 1)}};
    std::vector<int64_t> begin_pos = begin;
    begin_pos[7] = 10;
    auto r = strided_of(with_symbols("4,4,4,4,4,4,4,4"), begin_pos, end, ones, begin_masked);
    CHECK(r.str() == "[1,3,4,4,3,1,0,0]");
    CHECK(symbols_of(r.shape()) == std::vector<uint32_t>{0, 0, 102, 103, 0, 0, 0, 0});
    r = strided_of(with_symbols("4,4,4,4,4,4,4,4"), begin, end, back, begin_masked);
    CHECK(r.str() == "[2,0,0,0,0,2,3,4]");
    CHECK(symbols_of(r.shape()) == std::vector<uint32_t>{0, 0, 0, 0, 0, 0, 0, 107});
    r = strided_of(with_symbols("4,4,4,4,4,4,4,4"), begin, end, ones, end_masked);
    CHECK(r.str() == "[4,2,0,0,1,2,4,4]");
    CHECK(symbols_of(r.shape()) == std::vector<uint32_t>{100, 0, 0, 0, 0, 0, 106, 107});
    CHECK(strided_of("4,4,4,4,4,4,4,4", begin, end, back, end_masked).str() == "[1,3,4,4,4,3,1,1]");
    const Attrs all_masked{{"begin_mask", mask_of(8, 1)}, {"end_mask", mask_of(8, 1)}};
    CHECK(strided_of("4,4,4,4,4,4,4,4", begin, end, {1, 2, 3, 10, -1, -2, -3, -10}, all_masked).str() ==
          "[4,2,2,1,4,2,2,1]");
    const Attrs no_masks{{"begin_mask", mask_of(8, 0)}, {"end_mask", mask_of(8, 0)}};
    CHECK(strided_of("3,3,3,3,3,3,3,3", {0, 0, 0, 0, 1, 1, 1, 1}, {1, 2, 3, 4, 1, 2, 3, 4}, ones, no_masks).str() ==
          "[1,2,3,3,0,1,2,2]");
    CHECK(strided_of("3,3,3,3,3,3,3,3", {-1, -1, -1, -1, -2, -2, -2, -2}, {1, 2, 3, 4, 1, 2, 3, 4}, ones, no_masks)
              .str() == "[0,0,1,1,0,1,2,2]");
    const Attrs three{{"begin_mask", "0,0,0"}, {"end_mask", "0,0,0"}};
    r = strided_of(with_symbols("3,4,5"), {10, 2}, {-10, -10}, {-1, -1}, three);
    CHECK(r.str() == "[3,3,5]");
    CHECK(symbols_of(r.shape()) == std::vector<uint32_t>{100, 0, 102});
    const Attrs five{{"begin_mask", mask_of(5, 0)}, {"end_mask", mask_of(5, 0)}};
    CHECK(strided_of("5,5,5,5,5", {5, 5, 5, 5, 5}, {5, 5, 5, 5, 5}, {1, 2, 5, -2, -5}, five).str() == "[0,0,0,0,0]");
    const Attrs two{{"begin_mask", "0,0"}, {"end_mask", "0,0"}};
    CHECK(strided_of("..20,?", {20, 20}, {kMin, kMin}, {-1, -1}, two).str() == "[..20,..21]");
    CHECK(strided_of("1,256,?", {0, 0, -7}, {0, 0, kMax}, {1, 1, 1}, {{"begin_mask", "1,1,0"}, {"end_mask", "1,1,0"}})
              .str() == "[1,256,..7]");
    CHECK(strided_of("10,11,12", {0, 0, 0, 0}, {1, 5, 20, 20}, {1, 1, 1, 1},
                     {{"begin_mask", "0,0,0"},
                      {"end_mask", "0,0,0"},
                      {"new_axis_mask", "1,0,0"},
                      {"shrink_axis_mask", "0,0,1"},
                      {"ellipsis_mask", "0,0,0"}})
              .str() == "[1,5,12]");
    // Masks longer than begin: the extra entries are not read.
    CHECK(strided_of("1,2,3,4", {0}, {kMax}, {1}, {{"begin_mask", "1,1,1,1,1"}, {"end_mask", "0,0,0,0,0"}}).str() ==
          "[1,2,3,4]");
    CHECK(strided_of("1,2,3,4", {0, 0, 0, 0}, {2, 2, 2, 2}, {1, 1, 1, 1},
                     {{"begin_mask", "1,1,0,1,1"}, {"end_mask", "0,0,1,0,0"}})
              .str() == "[1,2,3,2]");
}

TEST_CASE("type_prop StridedSlice-1: i32 limits of begin and end stand for int64's") {
    const auto i32_strided = [](const std::string& data, std::vector<int64_t> begin, std::vector<int64_t> end,
                                std::vector<int64_t> strides) {
        const std::string n = std::to_string(begin.size());
        const Attrs masks{{"begin_mask", mask_of(begin.size(), 0)}, {"end_mask", mask_of(begin.size(), 0)}};
        return run_op({"StridedSlice",
                       1,
                       masks,
                       {In(data), In(n, i32), In(n, i32), In(n, i32)},
                       {{1, values_of(begin)}, {2, values_of(end)}, {3, values_of(strides)}}});
    };
    CHECK(i32_strided("..2000,?,4", {0, 0, 0}, {kI32Max, kI32Max, kI32Max}, {1, 1, 1}).str() == "[..2000,?,4]");
    CHECK(i32_strided("?,?", {kI32Max, 5}, {kI32Min, kI32Min}, {-1, -1}).str() == "[?,..6]");
    CHECK(i32_strided("20..", {-7}, {kI32Max}, {1}).str() == "[7]");
}

TEST_CASE("type_prop StridedSlice-1: masks of unequal lengths or other values than 0 and 1") {
    const auto with_masks = [](Attrs masks) {
        return run_op({"StridedSlice", 1, std::move(masks), {In("2,4,6,8"), In("4", i64), In("4", i64)}, {}});
    };
    auto r = with_masks({{"begin_mask", "1,0,1,0"}, {"end_mask", "1,0,1,0"}, {"new_axis_mask", "1,0,1,0,1"}});
    CHECK(r.problem() ==
          "begin_mask has 4 entries, new_axis_mask 5: the masks must be as long as begin_mask, or empty");
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
    CHECK(with_masks({{"begin_mask", "1,0,1"}, {"end_mask", "1,0"}}).problem() ==
          "begin_mask has 3 entries, end_mask 2: the masks must be as long as begin_mask, or empty");
    CHECK(with_masks({{"begin_mask", ""}, {"end_mask", "0,0"}}).problem() ==
          "begin_mask has 0 entries, end_mask 2: the masks must be as long as begin_mask, or empty");
    CHECK(with_masks({{"begin_mask", "0,0"}, {"end_mask", ""}, {"shrink_axis_mask", "0"}}).problem() ==
          "begin_mask has 2 entries, shrink_axis_mask 1: the masks must be as long as begin_mask, or empty");
    CHECK(with_masks({{"begin_mask", "0,0"}, {"end_mask", "0,0"}, {"ellipsis_mask", "1,0,0"}}).problem() ==
          "begin_mask has 2 entries, ellipsis_mask 3: the masks must be as long as begin_mask, or empty");
    CHECK(with_masks({{"begin_mask", "1,0,1,0"}, {"end_mask", "1,0,1,2"}}).problem() ==
          "end_mask [1,0,1,2] holds 2: mask entries are 0 or 1");
    // Empty masks are allowed beside the others.
    r = with_masks({{"begin_mask", "1,0,0,0"}, {"end_mask", ""}, {"new_axis_mask", ""}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[..2,..4,..6,..8]");
}

TEST_CASE("type_prop StridedSlice-1: element types, ranks and unknown begin, end, strides") {
    const Attrs masks{{"begin_mask", "1,0,1,0"}, {"end_mask", "1,0,1,0"}};
    CHECK(run_op({"StridedSlice", 1, masks, {In("2,4,6,8"), In("4", ElementType::f16), In("4", i64)}, {}}).problem() ==
          "begin element type f16 is not an integer type");
    CHECK(run_op({"StridedSlice", 1, masks, {In("2,4,6,8"), In("4", i64), In("4", ElementType::boolean)}, {}})
              .problem() == "end element type boolean is not an integer type");
    CHECK(run_op({"StridedSlice", 1, masks, {In("2,4,6,8"), In("4,5", i64), In("4", i64)}, {}}).problem() ==
          "begin input must be 1D (has rank 2)");
    CHECK(run_op({"StridedSlice", 1, masks, {In("2,4,6,8"), In("4", i64), In("4,5", i64)}, {}}).problem() ==
          "end input must be 1D (has rank 2)");
    // Default strides from end's length, begin of unknown rank.
    auto r = run_op({"StridedSlice",
                     1,
                     {{"begin_mask", "0,0"}, {"end_mask", "0,0"}},
                     {OpInput{with_symbols("2,4,6,8"), ElementType::f32}, In("...", i64), In("2", i64)},
                     {}});
    CHECK(r.str() == "[..2,..4,6,8]");
    CHECK(symbols_of(r.shape()) == std::vector<uint32_t>{0, 0, 102, 103});

    struct Case {
        const char *data, *begin, *end, *strides;
        Attrs masks;
        const char* out;
    };
    const Case cases[] = {
        {"1,200,300,3",
         "4",
         "4",
         "4",
         {{"begin_mask", "0,0,0,0"},
          {"end_mask", "0,0,0,0"},
          {"new_axis_mask", "0,0,0,0"},
          {"shrink_axis_mask", "0,1,0,0"},
          {"ellipsis_mask", "0,0,0,0"}},
         "[..1,..300,..3]"},
        {"1,200,300,3",
         "4",
         "4",
         "4",
         {{"begin_mask", "1,0,0,0"}, {"end_mask", "1,0,0,0"}, {"shrink_axis_mask", "0,1,0,1"}},
         "[..1,..300]"},
        {"1,200,200,3",
         "4",
         "4",
         "4",
         {{"begin_mask", "1,0,0,0"}, {"end_mask", "1,0,0,0"}, {"new_axis_mask", "0,0,1,0"}},
         "[..1,..200,1,..200,3]"},
        {"1,200,200,3", "4", "4", "4", {{"begin_mask", "1,0,0,0"}, {"end_mask", "1,0,0,0"}}, "[..1,..200,..200,..3]"},
        {"8..,200,200,3", "4", "4", "4", {{"begin_mask", "0,0,0,0"}, {"end_mask", "0,0,0,0"}}, "[?,..200,..200,..3]"},
        {"8..40,200,100..200,3",
         "4",
         "4",
         "4",
         {{"begin_mask", "0,0,0,0"}, {"end_mask", "0,0,0,0"}, {"shrink_axis_mask", "1,0,0,0"}},
         "[..200,..200,..3]"},
        {"...",
         "4",
         "4",
         "4",
         {{"begin_mask", "1,0,1,0"}, {"end_mask", "0,0,0,0"}, {"new_axis_mask", "1,0,0,0"}},
         "[...]"},
        {"?,?,?,?",
         "4",
         "4",
         "4",
         {{"begin_mask", "1,0,1,0"}, {"end_mask", "0,0,0,0"}, {"new_axis_mask", "1,0,0,0"}},
         "[1,?,?,?,?]"},
        {"3,5,4", "...", "3", "...", {{"begin_mask", "1,0,1,0"}, {"end_mask", "0,0,0,0"}}, "[..3,..5,..4]"},
        {"3,5,4",
         "...",
         "3",
         "3",
         {{"begin_mask", "0,0,1,0"}, {"end_mask", "0,0,0,0"}, {"ellipsis_mask", "0,1,0,0"}},
         "[..3,5,..4]"},
        {"3,5,4", "...", "...", "...", {{"begin_mask", "1,0,1,0"}, {"end_mask", "0,0,0,0"}}, "[...]"},
    };
    for (const Case& c : cases) {
        INFO(c.data << " begin " << c.begin << " end " << c.end << " strides " << c.strides);
        r = run_op(
            {"StridedSlice", 1, c.masks, {In(c.data), In(c.begin, i32), In(c.end, i32), In(c.strides, i32)}, {}});
        CHECK(r.str() == c.out);
    }
}

TEST_CASE("type_prop StridedSlice-1: begin and end bounded by ShapeOf") {
    const Attrs masks{{"begin_mask", "0,0"}, {"end_mask", "0,0"}};
    const auto bounded = [&masks](TensorValue begin, TensorValue end) {
        return run_op({"StridedSlice",
                       1,
                       masks,
                       {In("1,10", i64), In("2", i64), In("2", i64), In("2", i64)},
                       {{1, std::move(begin)}, {2, std::move(end)}, {3, V({1, 1})}}});
    };
    CHECK(bounded(V({0, 0}), TensorValue{{1, 1}, {5, 7}}).str() == "[1,5..7]");
    CHECK(bounded(TensorValue{{0, 0}, {3, 5}}, V({1, 7})).str() == "[1,2..4]");
    CHECK(bounded(TensorValue{{0, 0}, {3, 5}}, TensorValue{{2, 2}, {6, 7}}).str() == "[1,1..4]");

    struct Case {
        const char *data, *begin, *end;
        int64_t begin_offset, end_offset, stride;
        const char* out;
    };
    const Case cases[] = {
        {"1024", "0..20", "10..20", 0, 0, 1, "[..20]"},
        {"1024", "0..20", "10..20", 10, 0, 1, "[..20]"},
        {"?", "0..20", "10..20", 10, 0, 1, "[..20]"},
        {"1024", "10..20", "..20", 0, 10, 1, "[..1013]"},
        {"1024", "..10", "..5", 0, 10, 1, "[1004..1019]"},
        {"120..1024", "..10", "..5", 0, 10, 1, "[100..1019]"},
        {"1024", "..1030", "..2000", 1025, 10, 1, "[..1024]"},
        {"1024", "..10", "10..20", 10, 0, 1, "[..20]"},
        {"1024", "1..12", "..18", 10, 0, 2, "[..9]"},
        {"1024", "10..20", "..20", 0, 10, 2, "[..507]"},
        {"100..1024", "10..20", "..20", 0, 10, 2, "[..507]"},
        {"1024", "10", "30", 0, 0, 2, "[10]"},
        {"1024", "10..15", "30", 0, 0, 2, "[8..10]"},
        {"1024", "10..15", "30..40", 0, 0, 2, "[8..15]"},
        {"20..1024", "10..15", "30..40", 0, 0, 2, "[3..15]"},
        {"1024", "..20", "10..20", 10, 0, -1, "[..1013]"},
        {"?", "..20", "10..20", 10, 0, -1, "[?]"},
        {"1024", "10..20", "..20", 0, 10, -1, "[..20]"},
        {"1024", "30", "10", 35, 40, -1, "[25]"},
        {"1024", "..2000", "..1030", 10, 1026, -1, "[..1024]"},
        {"1024", "30", "10", 0, 0, -2, "[10]"},
        {"1024", "20..30", "10", 0, 0, -2, "[5..10]"},
        {"1024", "20..30", "10", 40, 0, -2, "[497..502]"},
        {"100..1024", "20..30", "10", 40, 0, -2, "[35..502]"},
        {"1024", "20..30", "10..15", 0, 0, -2, "[3..10]"},
        {"10..1024", "20..30", "10..15", 0, 0, -2, "[..10]"},
    };
    for (const Case& c : cases) {
        INFO(c.data << " begin " << c.begin << "-" << c.begin_offset << " end " << c.end << "-" << c.end_offset
                    << " stride " << c.stride);
        const auto r = run_op({"StridedSlice",
                               1,
                               {{"begin_mask", "0"}, {"end_mask", "0"}},
                               {In(c.data), In("1", i64), In("1", i64), In("1", i64)},
                               {{1, shape_of_minus(c.begin, c.begin_offset)},
                                {2, shape_of_minus(c.end, c.end_offset)},
                                {3, V({c.stride})}}});
        CHECK(r.str() == c.out);
    }
}

TEST_CASE("type_prop Gather-1: indices and axis of any element type") {
    auto r = run_op({"Gather", 1, {}, {In("3,4"), In("2", ElementType::f32), In("", i64)}, {{2, V({0})}}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,4]");
    // A floating-point axis is read, truncated.
    r = run_op({"Gather", 1, {}, {In("3,4"), In("2,5", i64), In("", ElementType::f32)}, {}}, {{2, {1.0}}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[3,2,5]");
    CHECK_FALSE(r.unknown);
    for (const int v : {7, 8}) {
        CHECK(run_op({"Gather", v, {}, {In("3,4"), In("2", ElementType::f32), In("", i64)}, {{2, V({0})}}}).problem() ==
              "indices element type f32 is not an integer type");
        CHECK(run_op({"Gather", v, {}, {In("3,4"), In("2", i64), In("", ElementType::f32)}, {}}).problem() ==
              "axis element type f32 is not an integer type");
    }
}

TEST_CASE("invariants Interpolate: axes not known change at most one dim each") {
    const std::vector<std::pair<std::string, std::string>> sizes_attrs{{"mode", "nearest"},
                                                                       {"shape_calculation_mode", "sizes"}};
    const auto r = run_op({"Interpolate", 11, sizes_attrs, {In("1,64,64,64"), In("2", i32), In("2", i32)}, {}});
    REQUIRE(r.unknown);
    CHECK(r.str() == "[?,?,?,?]");
    CHECK(r.broken({"1,128,128,64"}).empty());
    CHECK(r.broken({"2,128,128,64"}) == "output 0: Interpolate changes at most 2 dims of [1,64,64,64] (one per "
                                        "axis); declared [2,128,128,64] differs at dims 0, 1, 2");
    CHECK(r.broken({"1,128,128"}) == "output 0: Interpolate keeps the rank of [1,64,64,64]; declared [1,128,128] has rank 3");
    // Axes known, sizes not: the other dims are kept, the axes' are any.
    const auto sized = run_op({"Interpolate", 11, sizes_attrs, {In("1,64,64,64"), In("2", i32), In("2", i32)},
                               {{2, V({1, 2})}}});
    REQUIRE(sized.unknown);
    CHECK(sized.str() == "[1,?,?,64]");
    CHECK(sized.invariants.size() == 1);
}

TEST_CASE("type_prop Interpolate-4/11: scales beyond the axes' count are not read") {
    const Attrs scales_attrs{{"mode", "nearest"}, {"shape_calculation_mode", "scales"}};
    auto r = run_op(
        {"Interpolate", 4, scales_attrs, {In("2,2,30,60"), In("2", i32), In("3"), In("2", i64)}, {{3, V({2, 3})}}},
        {{2, {0.5, 0.5, 4.0}}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,2,15,30]");
    r = run_op({"Interpolate", 11, scales_attrs, {In("2,2,30,60"), In("4"), In("2", i64)}, {{2, V({2, 3})}}},
               {{1, {0.5, 0.5, 4.0, 4.0}}});
    CHECK(r.str() == "[2,2,15,30]");
    r = run_op(
        {"Interpolate", 4, scales_attrs, {In("2,2,30,60"), In("2", i32), In("1"), In("2", i64)}, {{3, V({2, 3})}}},
        {{2, {0.5}}});
    CHECK(r.problem() == "1 scales for 2 axes: there must be a scale for every axis");
}

TEST_CASE("ops-b2 Scatter updates on a shape vector: the updates replace the indexed elements, bounds and symbols kept") {
    const auto str = [](const OpRun& r) {
        if (r.outputs.empty() || !r.outputs[0].value) return std::string("<none>");
        std::string s;
        for (const ValueBounds& b : *r.outputs[0].value)
            s += (s.empty() ? "" : ",") + (b.exact() ? std::to_string(b.lo) : std::to_string(b.lo) + "..");
        return s;
    };
    TensorValue n{{1, ValueBounds::kUnbounded}};
    n[0].symbol = 3;
    const TensorValue shape = V({1, 3, 640, 640});
    auto r = run_op({"ScatterUpdate", 3, {}, {In("4", i64), In("2", i64), In("2", i64), In("", i64)},
                     {{0, shape}, {1, V({0, 2})}, {2, TensorValue{n[0], {320, 320}}}, {3, V({0})}}});
    CHECK(str(r) == "1..,3,320,640");
    CHECK(r.outputs[0].value->at(0).symbol == 3);
    // A later index wins; a negative or out-of-range index, or an unknown update, leaves the values unknown.
    r = run_op({"ScatterUpdate", 3, {}, {In("4", i64), In("2", i64), In("2", i64), In("", i64)},
                {{0, shape}, {1, V({1, 1})}, {2, V({7, 8})}, {3, V({0})}}});
    CHECK(str(r) == "1,8,640,640");
    r = run_op({"ScatterUpdate", 3, {}, {In("4", i64), In("1", i64), In("1", i64), In("", i64)},
                {{0, shape}, {1, V({4})}, {2, V({7})}, {3, V({0})}}});
    CHECK(str(r) == "<none>");
    r = run_op({"ScatterUpdate", 3, {}, {In("4", i64), In("1", i64), In("1", i64), In("", i64)},
                {{0, shape}, {1, V({-1})}, {2, V({7})}, {3, V({0})}}});
    CHECK(str(r) == "<none>");
    r = run_op({"ScatterUpdate", 3, {}, {In("4", i64), In("1", i64), In("1", i64), In("", i64)},
                {{0, shape}, {1, V({1})}, {3, V({0})}}});
    CHECK(str(r) == "<none>");
    r = run_op({"ScatterNDUpdate", 3, {}, {In("4", i64), In("2,1", i64), In("2", i64)},
                {{0, shape}, {1, V({3, 2})}, {2, V({32, 16})}}});
    CHECK(str(r) == "1,3,16,32");
    // ScatterNDUpdate-15 and ScatterElementsUpdate-12 replace only with reduction none.
    r = run_op({"ScatterNDUpdate", 15, {{"reduction", "sum"}}, {In("4", i64), In("1,1", i64), In("1", i64)},
                {{0, shape}, {1, V({3})}, {2, V({32})}}});
    CHECK(str(r) == "<none>");
    r = run_op({"ScatterElementsUpdate", 12, {{"reduction", "none"}}, {In("4", i64), In("1", i64), In("1", i64), In("", i64)},
                {{0, shape}, {1, V({0})}, {2, V({2})}, {3, V({0})}}});
    CHECK(str(r) == "2,3,640,640");
    r = run_op({"ScatterElementsUpdate", 12, {{"reduction", "max"}}, {In("4", i64), In("1", i64), In("1", i64), In("", i64)},
                {{0, shape}, {1, V({0})}, {2, V({2})}, {3, V({0})}}});
    CHECK(str(r) == "<none>");
}

TEST_CASE("invariants Gather: the data dims around some axis") {
    const auto r = gather(8, "3,4,5", "2,6", {});
    REQUIRE(r.unknown.has_value());
    CHECK(r.broken({"3,2,6,5"}).empty());
    CHECK(r.broken({"2,6,4,5"}).empty());
    CHECK(r.broken({"3,4,2,7"}) == "output 0: Gather puts indices [2,6] in place of one dim of [3,4,5]; declared "
                                   "[3,4,2,7] fits no axis");
    const auto b = gather(7, "2,3,4", "2,5", {}, {{"batch_dims", "1"}});
    CHECK(b.broken({"2,3,5"}).empty());
    CHECK(b.broken({"2,5,4"}).empty());
    CHECK(b.broken({"5,3,4"}) == "output 0: Gather puts indices [2,5] in place of one dim of [2,3,4] after batch_dims "
                                 "1; declared [5,3,4] fits no axis");
}

TEST_CASE("invariants Slice and StridedSlice: no dim grows") {
    const auto r = run_op({"Slice", 8, {}, {In("4,10"), In("1", i64), In("1", i64), In("1", i64)}, {}});
    REQUIRE(r.unknown.has_value());
    CHECK(r.broken({"4,6"}).empty());
    CHECK(r.broken({"4,11"}) == "output 0: Slice takes at most each dim of [4,10], declared [4,11] has 11 at dim 1");
    const auto s = run_op({"StridedSlice", 1, {{"begin_mask", "0"}, {"end_mask", "0"}},
                           {In("4"), In("1", i64), In("1", i64), In("1", i64)}, {}});
    REQUIRE(s.unknown.has_value());
    CHECK(s.invariants.size() == 1);
    CHECK(s.str() == "[..4]");  // the inferred bound is the invariant the engine compares
}
