// OpenVINO's type_prop cases (src/core/tests/type_prop/<op>.cpp) for the shape and tensor ops that the other op
// tests cover only in part: Split, VariadicSplit, Concat, Transpose, Squeeze, Unsqueeze, Tile, Pad, Interpolate,
// Gather, Broadcast, ScatterUpdate, MatMul. Each CHECK is one OpenVINO case (or one row of a parameterized suite), its
// expected output in irlint's spelling ("0..8" is printed "..8", an unbounded "0.." as "?"); "rejected" where OpenVINO
// throws.

#include <doctest/doctest.h>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {




OpInput I64(const std::string& shape) { return In(shape, i64); }

// Every output's shape in a row ("[6,2][6,1]"), or "rejected: <the first problem>".
std::string outputs(const OpRun& r) {
    if (!r.ok()) return "rejected: " + r.problem();
    std::string s;
    for (size_t i = 0; i < r.outputs.size(); ++i) s += r.str(i);
    return s;
}

bool rejected(const OpRun& r) { return !r.ok(); }
bool has_problem(const std::string& outputs_text) { return outputs_text.rfind("rejected: ", 0) == 0; }

std::string count_of(std::initializer_list<int64_t> v) { return std::to_string(v.size()); }

OpRun variadic_split(const char* data, int64_t axis, std::initializer_list<int64_t> lengths) {
    return run_op(
        {"VariadicSplit", 1, {}, {In(data), I64(""), I64(count_of(lengths))}, {{1, V({axis})}, {2, V(lengths)}}});
}

OpRun split(const char* data, int64_t axis, int num_splits) {
    return run_op({"Split", 1, {{"num_splits", std::to_string(num_splits)}}, {In(data), I64("")}, {{1, V({axis})}}});
}

OpRun concat(std::vector<const char*> inputs, int64_t axis) {
    OpCase c{"Concat", 0, {{"axis", std::to_string(axis)}}, {}, {}};
    for (const char* s : inputs) c.inputs.push_back(In(s));
    return run_op(c);
}

OpRun transpose(const char* data, const char* order_shape, std::optional<std::vector<int64_t>> order) {
    OpCase c{"Transpose", 1, {}, {In(data), I64(order_shape)}, {}};
    if (order) {
        TensorValue v;
        for (const int64_t x : *order) v.push_back({x, x});
        c.values[1] = v;
    }
    return run_op(c);
}

OpRun unsqueeze(const char* data, std::initializer_list<int64_t> axes) {
    return run_op({"Unsqueeze", 0, {}, {In(data), I64(count_of(axes))}, {{1, V(axes)}}});
}

OpRun squeeze(int version, const char* data, std::initializer_list<int64_t> axes, Attrs attrs = {}) {
    return run_op({"Squeeze", version, std::move(attrs), {In(data), I64(count_of(axes))}, {{1, V(axes)}}});
}

OpRun pad(int version, const char* data, std::initializer_list<int64_t> begin, std::initializer_list<int64_t> end,
          const char* mode) {
    return run_op({"Pad",
                   version,
                   {{"pad_mode", mode}},
                   {In(data), I64(count_of(begin)), I64(count_of(end))},
                   {{1, V(begin)}, {2, V(end)}}});
}

OpRun gather(int version, const char* data, const char* indices, std::optional<int64_t> axis, int64_t batch_dims) {
    OpCase c{"Gather", version, {}, {In(data), I64(indices), I64("")}, {}};
    if (version > 1) c.attrs.push_back({"batch_dims", std::to_string(batch_dims)});
    if (axis) c.values[2] = V({*axis});
    return run_op(c);
}

Attrs interpolate_attrs(const char* mode, const char* pads_begin, const char* pads_end) {
    return {{"mode", "nearest"}, {"shape_calculation_mode", mode}, {"pads_begin", pads_begin}, {"pads_end", pads_end}};
}

}  // namespace

TEST_CASE("type_prop VariadicSplit-1: static, dynamic and interval dims") {
    CHECK(outputs(variadic_split("6,2", 0, {6})) == "[6,2]");
    CHECK(outputs(variadic_split("6,2,10", -1, {6, -1, 3})) == "[6,2,6][6,2,1][6,2,3]");
    CHECK(outputs(variadic_split("1,20,3", 1, {-1, 10, 3, 5})) == "[1,2,3][1,10,3][1,3,3][1,5,3]");
    CHECK(outputs(variadic_split("2..6,2", 0, {4})) == "[4,2]");
    // The -1 of an interval dim is not narrowed: OpenVINO leaves it dynamic.
    CHECK(outputs(variadic_split("2..6,2", 0, {4, 1, -1})) == "[4,2][1,2][?,2]");
    CHECK(outputs(variadic_split("12,?", -2, {7, -1, 2})) == "[7,?][3,?][2,?]");
    CHECK(outputs(variadic_split("?,?,6", 2, {3, 1, 2})) == "[?,?,3][?,?,1][?,?,2]");
    CHECK(outputs(variadic_split("?,6", 1, {6, 0})) == "[?,6][?,0]");
    CHECK(outputs(variadic_split("2..4,?", 1, {4, 1, -1, 3})) == "[2..4,4][2..4,1][2..4,?][2..4,3]");
    CHECK(outputs(variadic_split("...", 1, {4, 1, -1, 3})) == "[...][...][...][...]");
    CHECK(rejected(variadic_split("6,2", 0, {2, 2})));
    CHECK(rejected(variadic_split("6,2", 0, {-1, -1, 2})));
    CHECK(rejected(variadic_split("6,2", 0, {-2, 8})));
    CHECK(rejected(variadic_split("6,2", 2, {6})));
}

TEST_CASE("type_prop Split-1: even parts, floored interval bounds") {
    CHECK(outputs(split("6,2", 0, 2)) == "[3,2][3,2]");
    CHECK(outputs(split("?,2", 0, 2)) == "[?,2][?,2]");
    CHECK(outputs(split("2..6,2", 0, 2)) == "[1..3,2][1..3,2]");
    CHECK(outputs(split("2..7,2", 0, 2)) == "[1..3,2][1..3,2]");
    CHECK(outputs(split("..6,2", 0, 2)) == "[..3,2][..3,2]");
    CHECK(outputs(split("...", 0, 2)) == "[...][...]");
    CHECK(rejected(split("7,2", 0, 2)));
    CHECK(rejected(split("6,2", -3, 2)));
}

TEST_CASE("type_prop Concat-0: merged dims, summed axis, dynamic ranks") {
    CHECK(outputs(concat({"2,3,4", "2,7,4", "2,2,4"}, 1)) == "[2,12,4]");
    CHECK(outputs(concat({"2,3,4", "3,3,4", "2,3,4"}, -3)) == "[7,3,4]");
    CHECK(rejected(concat({"2,3,4", "2,7,4", "2,2,5"}, 1)));
    CHECK(rejected(concat({"2,3,4", "2,7,4", "2,2,4"}, 3)));
    CHECK(rejected(concat({"2,3,4", "2,7,4", "2,2,4"}, -4)));
    CHECK(rejected(concat({"2,3,4", "2,7", "2,2,4"}, 1)));
    CHECK(rejected(concat({"", ""}, 0)));
    CHECK(outputs(concat({"...", "...", "..."}, 1)) == "[...]");
    // A dynamic-rank input adds an unknown length to the axis.
    CHECK(outputs(concat({"2,?,4", "...", "..."}, 1)) == "[2,?,4]");
    CHECK(outputs(concat({"2,?,4", "...", "2,3,?"}, 1)) == "[2,3..,4]");
    CHECK(outputs(concat({"2,3,?", "...", "2,3,4"}, 1)) == "[2,6..,4]");
    CHECK(outputs(concat({"2,2..4,?", "...", "2..3,2..4,4"}, 1)) == "[2,4..,4]");
    CHECK(outputs(concat({"2..6,3..8,?", "1..3,2..5,?"}, 1)) == "[2..3,5..13,?]");
    CHECK(outputs(concat({"4,1..3,?,2..6", "4..,3..8,1..9,?"}, -2)) == "[4,3,1..,2..6]");
    CHECK(outputs(concat({"2", "?"}, 0)) == "[2..]");
    CHECK(outputs(concat({"...", "2,3"}, 0)) == "[2..,3]");
}

TEST_CASE("type_prop Transpose-1: order values, empty order, unknown order") {
    CHECK(outputs(transpose("2,4,6,8", "4", std::vector<int64_t>{2, 1, 0, 3})) == "[6,4,2,8]");
    CHECK(outputs(transpose("2,4,6,8", "0", std::vector<int64_t>{})) == "[8,6,4,2]");
    CHECK(outputs(transpose("2,4,6,8", "0", std::nullopt)) == "[8,6,4,2]");
    CHECK(outputs(transpose("2,4,6,8", "4", std::nullopt)) == "[?,?,?,?]");
    CHECK(outputs(transpose("2,4,6,8", "?", std::nullopt)) == "[?,?,?,?]");
    CHECK(outputs(transpose("2,4,6,8", "...", std::nullopt)) == "[?,?,?,?]");
    CHECK(outputs(transpose("...", "4", std::nullopt)) == "[?,?,?,?]");
    CHECK(outputs(transpose("...", "0", std::nullopt)) == "[...]");
    CHECK(outputs(transpose("...", "4", std::vector<int64_t>{2, 1, 0, 3})) == "[?,?,?,?]");
    CHECK(outputs(transpose("", "0", std::vector<int64_t>{})) == "[]");
    CHECK(rejected(transpose("2,4,6,8", "3", std::nullopt)));
    CHECK(rejected(transpose("2,4,6,8", "2,2", std::nullopt)));
    CHECK(rejected(transpose("2,4,6,8", "4", std::vector<int64_t>{2, 1, 0, 0})));
    CHECK(rejected(transpose("2,4,6,8", "4", std::vector<int64_t>{2, 1, 0, 4})));
    // OpenVINO reads the order as unsigned: a negative axis is no permutation.
    CHECK(rejected(transpose("2,4,6,8", "4", std::vector<int64_t>{2, 1, 0, -1})));
    CHECK(rejected(run_op({"Transpose", 1, {}, {In("2,4,6,8"), In("4")}, {}})));
}

TEST_CASE("type_prop Unsqueeze-0: edges, inside, repeated axes, dynamic ranks") {
    CHECK(outputs(unsqueeze("...", {-1, -5})) == "[...]");
    CHECK(outputs(unsqueeze("?,?,?", {-1, -5})) == "[1,?,?,?,1]");
    CHECK(outputs(unsqueeze("?,?,?,?,?", {1, 2})) == "[?,1,1,?,?,?,?]");
    CHECK(outputs(unsqueeze("3..5,..2", {0})) == "[1,3..5,..2]");
    CHECK(outputs(unsqueeze("2,?,4,2..7,6", {3, 1, 5})) == "[2,1,?,1,4,1,2..7,6]");
    CHECK(outputs(unsqueeze("", {0})) == "[1]");
    CHECK(outputs(unsqueeze("0", {-1})) == "[0,1]");
    CHECK(outputs(unsqueeze("5", {-2})) == "[1,5]");
    CHECK(outputs(unsqueeze("2,3,6", {-1, -5})) == "[1,2,3,6,1]");
    CHECK(outputs(unsqueeze("5", {1, -1})) == "[5,1,1]");
    CHECK(outputs(unsqueeze("3,6,7,3", {-2, 3, 1})) == "[3,1,6,1,7,1,3]");
    CHECK(outputs(unsqueeze("5", {1, -1, 1})) == "[5,1,1]");
    CHECK(outputs(unsqueeze("2,3,4", {1, -1, 1})) == "[2,1,3,4,1]");
    CHECK(outputs(unsqueeze("2,3,4", {-1, -1, 1})) == "[2,1,3,4,1]");
    CHECK(outputs(unsqueeze("2,3,4", {-1, 4, -1})) == "[2,3,4,1]");
    CHECK(outputs(unsqueeze("2,3,4", {4, 4, -2, -2, -1, -1})) == "[2,3,4,1,1]");
    CHECK(rejected(unsqueeze("4,1,4,1,8", {6})));
    CHECK(rejected(unsqueeze("4,1,4,1,8", {-7})));
    CHECK(rejected(unsqueeze("4,1,4,1,8", {})));
}

TEST_CASE("type_prop Squeeze-0/15: axes at ones, skipped axes, no axes") {
    CHECK(outputs(squeeze(0, "1,2,3,4", {0, 2})) == "[2,3,4]");
    CHECK(outputs(squeeze(0, "1", {0})) == "[]");
    CHECK(outputs(squeeze(0, "", {0})) == "[]");
    CHECK(outputs(squeeze(0, "1,2", {-2, -2})) == "[2]");
    CHECK(outputs(squeeze(0, "1,4,1,4,1,8", {-6, -4})) == "[4,4,1,8]");
    CHECK(outputs(squeeze(0, "?,?,?,?,?,?", {0, 2})) == "[?,?,?,?]");
    CHECK(outputs(squeeze(0, "?,1,?", {0, 2})) == "[1]");
    CHECK(outputs(squeeze(0, "...", {0, 2})) == "[...]");
    CHECK(outputs(squeeze(0, "1,2,?,4", {2})) == "[1,2,4]");
    CHECK(outputs(squeeze(0, "1,1,?", {1})) == "[1,?]");
    CHECK(outputs(squeeze(0, "2,4", {1})) == "[2,4]");
    CHECK(rejected(squeeze(0, "1,4,1,4,1,8", {-6, -10})));
    CHECK(outputs(run_op({"Squeeze", 0, {}, {In("1,4,1,4,1,8")}, {}})) == "[4,4,8]");
    CHECK(outputs(run_op({"Squeeze", 0, {}, {In("2..5,3..4,6")}, {}})) == "[2..5,3..4,6]");
    CHECK(outputs(run_op({"Squeeze", 0, {}, {In("0..1")}, {}})) == "[...]");
    CHECK(outputs(run_op({"Squeeze", 0, {}, {In("?,1,?")}, {}})) == "[...]");
    CHECK(outputs(run_op({"Squeeze", 0, {}, {In("?,?,?,?,?,?")}, {}})) == "[...]");
    // allow_axis_skip: an axis at a dim that may or may not be 1 leaves the rank unknown.
    const Attrs skip{{"allow_axis_skip", "true"}};
    CHECK(outputs(squeeze(15, "1,2,?,4", {2}, skip)) == "[...]");
    CHECK(outputs(squeeze(15, "1,2,?,4", {0, 2}, skip)) == "[...]");
    CHECK(outputs(squeeze(15, "1,2,?,4", {0}, skip)) == "[2,?,4]");
    CHECK(outputs(squeeze(15, "1,2,?", {0, 1}, skip)) == "[2,?]");
    CHECK(outputs(squeeze(15, "1,2,?,4", {}, skip)) == "[...]");
}

TEST_CASE("type_prop Pad-1/12: intervals, negative pads, modes, rejected inputs") {
    for (const int v : {1, 12}) {
        INFO("Pad-" << v);
        CHECK(outputs(pad(v, "1..2,4..10,3..8,1..2", {0, 2, 1, 0}, {0, 1, 1, 0}, "reflect")) ==
              "[1..2,7..13,5..10,1..2]");
        CHECK(outputs(pad(v, "?,0..10,2..,2..8,3..10,5", {2, 0, 1, 3, 2, 1}, {-3, -2, -2, -3, -1, -3}, "reflect")) ==
              "[?,..8,1..,2..8,4..11,3]");
        CHECK(outputs(pad(v, "?,0..10,2..,2..8,3..10,5", {-1, -1, -2, -3, -8, -4}, {0, 2, 0, 3, 5, 4}, "reflect")) ==
              "[?,1..11,?,2..8,..7,5]");
        CHECK(outputs(pad(v, "1,23..48,23..48,1", {0, 1, 1, 0}, {0, 1, 1, 0}, "reflect")) == "[1,25..50,25..50,1]");
        CHECK(outputs(pad(v, "1,0..48,?,20..,5..,10,12", {1, 2, 1, 2, 0, 0, 0}, {0, 3, 0, 1, 0, 5, 0}, "edge")) ==
              "[2,5..53,1..,23..,5..,15,12]");
        CHECK(rejected(pad(v, "1,5,0,2", {0, 1, 2, 3}, {0, 1, 2, 3}, "edge")));
        CHECK(rejected(pad(v, "1,5,1,2", {0, 1, 2, 3}, {0, 1, 2, 3}, "reflect")));
        const Attrs constant{{"pad_mode", "constant"}};
        CHECK(outputs(run_op({"Pad", v, constant, {In("1,2,3"), I64("1"), I64("1"), In("")}, {}})) == "[?,?,?]");
        CHECK(outputs(run_op({"Pad", v, constant, {In("..."), I64("1"), I64("1"), In("")}, {}})) == "[...]");
        CHECK(rejected(run_op({"Pad", v, constant, {In("1,2,3"), I64("1"), I64("1"), In("1")}, {}})));
        CHECK(rejected(run_op({"Pad", v, constant, {In("1,2,3"), I64("1"), I64("1"), In("", ElementType::f16)}, {}})));
        const Attrs symmetric{{"pad_mode", "symmetric"}};
        CHECK(rejected(run_op({"Pad", v, symmetric, {In("1,2,3"), I64("1,2"), I64("1")}, {}})));
        CHECK(rejected(run_op({"Pad", v, symmetric, {In("1,2,3"), I64("4"), I64("1")}, {}})));
        const Attrs reflect{{"pad_mode", "reflect"}};
        CHECK(rejected(run_op({"Pad", v, reflect, {In("1,2,3"), In("1"), I64("1")}, {}})));
        CHECK(rejected(run_op({"Pad", v, reflect, {In("1,2,3"), I64("1"), In("1")}, {}})));
    }
}

TEST_CASE("type_prop Tile-0: negative repeats, repeats longer or shorter than the rank, intervals") {
    auto tile = [](const char* data, std::initializer_list<int64_t> repeats) {
        return outputs(run_op({"Tile", 0, {}, {In(data), I64(count_of(repeats))}, {{1, V(repeats)}}}));
    };
    CHECK(tile("?,3,4,..5,4..", {-1, -2, 1, -1, -1}) == "[0,0,4,0,0]");
    CHECK(tile("1,2", {0, 0}) == "[0,0]");
    CHECK(tile("3,7,1,2,4", {2, 1, 7, 1, 2}) == "[6,7,7,2,8]");
    CHECK(tile("1,2,4", {2, 1}) == "[1,4,4]");
    CHECK(tile("3,6,7,1,2,4", {2, 2}) == "[3,6,7,1,4,8]");
    CHECK(tile("1,2,4", {2, 1, 1, 1}) == "[2,1,2,4]");
    CHECK(tile("1,2,4", {2, 1, 2, 3, 4}) == "[2,1,2,6,16]");
    CHECK(tile("1..5,2..", {0, 0}) == "[0,0]");
    CHECK(tile("3..,..7,?,2..3,..2", {2, 1, 7, 1, 2}) == "[6..,..7,?,2..3,..4]");
    CHECK(tile("3,6,7..9,1,2..8,4", {2, 2}) == "[3,6,7..9,1,4..16,8]");
    CHECK(tile("?,?,?", {2, 1, 2, 3, 4}) == "[2,1,?,?,?]");
    CHECK(outputs(run_op({"Tile", 0, {}, {In("6,8,10"), In("2", i32)}, {}})) == "[?,?,?]");
    CHECK(outputs(run_op({"Tile", 0, {}, {In("6,8,10"), In("5", i32)}, {}})) == "[?,?,?,?,?]");
    CHECK(outputs(run_op({"Tile", 0, {}, {In("..."), In("5", i32)}, {}})) == "[...]");
    CHECK(outputs(run_op({"Tile", 0, {}, {In("..."), In("...", i32)}, {}})) == "[...]");
    CHECK(rejected(run_op({"Tile", 0, {}, {In("2,3,4"), In("3")}, {}})));
    CHECK(rejected(run_op({"Tile", 0, {}, {In("2,3,4"), In("3,1", ElementType::i16)}, {}})));
}

TEST_CASE("type_prop Interpolate-0/4/11: pads, scales of intervals, unknown axes, rank-1 inputs") {
    const Attrs no_pads = interpolate_attrs("scales", "0,0,0,0", "0,0,0,0");
    auto r =
        run_op({"Interpolate", 4, no_pads, {In("2,2,30,60"), In("2", i32), In("2"), In("2", i64)}, {{3, V({2, 3})}}},
               {{2, {0.5, 0.5}}});
    CHECK(outputs(r) == "[2,2,15,30]");
    // Axes of unknown values: every dim unknown.
    r = run_op({"Interpolate", 4, no_pads, {In("2,2,30,60"), In("2", i32), In("2"), In("2", i32)}, {}},
               {{2, {0.5, 0.5}}});
    CHECK(outputs(r) == "[?,?,?,?]");
    r = run_op({"Interpolate",
                4,
                interpolate_attrs("scales", "0,1,0,0", "0,1,0,0"),
                {In("2,2,?,5..30"), In("2", i32), In("2"), In("2", i64)},
                {{3, V({2, 3})}}},
               {{2, {0.5, 0.5}}});
    CHECK(outputs(r) == "[2,4,?,2..15]");
    r = run_op({"Interpolate",
                4,
                interpolate_attrs("scales", "0,0,0,1", "1,1,0,1"),
                {In("1..2,?,10,5..30"), In("2", i32), In("2"), In("2", i64)},
                {{3, V({2, 3})}}},
               {{2, {0.5, 0.5}}});
    CHECK(outputs(r) == "[2..3,1..,5,3..16]");
    r = run_op({"Interpolate",
                4,
                interpolate_attrs("scales", "0,0,0,0,0", "0,0,0,0,0"),
                {In("2,2,12..800,?,24.."), In("3", i32), In("3"), In("3", i64)},
                {{3, V({2, 3, 4})}}},
               {{2, {0.5, 0.25, 0.125}}});
    CHECK(outputs(r) == "[2,2,6..400,?,3..]");
    r = run_op({"Interpolate", 4, no_pads, {In("..."), In("2", i32), In("2"), In("2", i64)}, {{3, V({2, 3})}}},
               {{2, {0.5, 0.5}}});
    CHECK(outputs(r) == "[...]");
    // The input the mode reads and the axes must be 1-D.
    const Attrs sizes = interpolate_attrs("sizes", "0,0,0,0", "0,0,0,0");
    CHECK(rejected(
        run_op({"Interpolate", 4, sizes, {In("1,3,30,60"), In("1,2", i32), In("2"), In("2", i64)}, {{3, V({2, 3})}}},
               {{2, {6, 12}}})));
    CHECK(rejected(run_op({"Interpolate",
                           4,
                           no_pads,
                           {In("1,3,30,60"), In("2", i32), In(""), In("2", i64)},
                           {{1, V({10, 20})}, {3, V({2, 3})}}})));
    CHECK(rejected(run_op(
        {"Interpolate", 4, no_pads, {In("1,3,30,60"), In("2", i32), In("2"), In("1,2", i32)}, {{1, V({10, 20})}}},
        {{2, {6, 12}}})));
    // Without axes, a scale for every dim.
    CHECK(rejected(run_op({"Interpolate", 4, no_pads, {In("1,3,30,60"), In("2", i32), In("2")}, {{1, V({10, 20})}}},
                          {{2, {6, 12}}})));

    r = run_op({"Interpolate",
                0,
                {{"axes", "3,1"}, {"pads_begin", "0,0,0,0"}, {"pads_end", "0,0,0,0"}, {"mode", "linear"}},
                {In("2,4,12,12"), I64("1")},
                {}});
    CHECK(outputs(r) == "[2,?,12,?]");
    r = run_op({"Interpolate", 0, {{"axes", "2,3"}, {"mode", "linear"}}, {In("?,?,?,?,?,?"), In("?", i32)}, {}});
    CHECK(outputs(r) == "[?,?,?,?,?,?]");

    r = run_op({"Interpolate",
                11,
                interpolate_attrs("scales", "1,0,0,0", "0,1,0,0"),
                {In("1,3,30,60"), In("2"), I64("2")},
                {{2, V({2, 3})}}},
               {{1, {0.2, 0.2}}});
    CHECK(outputs(r) == "[2,4,6,12]");
    r = run_op({"Interpolate",
                11,
                interpolate_attrs("scales", "0,0,0,0", "0,0,0,0"),
                {In("?,?,?,?,?,?,?,?"), In("?"), I64("?")},
                {}});
    CHECK(outputs(r) == "[?,?,?,?,?,?,?,?]");
    r = run_op({"Interpolate",
                11,
                interpolate_attrs("scales", "0,2,1,0,0", "1,1,0,1,0"),
                {In("1..3,3,1..10,10..,10..20"), In("3"), I64("3")},
                {{2, V({2, 3, 4})}}},
               {{1, {2.0, 3.0, 1.0}}});
    CHECK(outputs(r) == "[2..4,6,4..22,33..,10..20]");
    r = run_op({"Interpolate",
                11,
                interpolate_attrs("sizes", "0,0,0,0", "0,0,0,0"),
                {In("1..3,3,1..10,10.."), In("2", i32), I64("2")},
                {{1, V({200, 300})}, {2, V({2, 3})}}});
    CHECK(outputs(r) == "[1..3,3,200,300]");
    r = run_op({"Interpolate", 11, no_pads, {In("2,2,30,60"), In("2"), In("2", i32)}, {}}, {{1, {0.5, 0.5}}});
    CHECK(outputs(r) == "[?,?,?,?]");
    // Without axes: as many scales or sizes as dims; unknown scales of a known count leave the dims unknown.
    CHECK(rejected(run_op({"Interpolate", 11, no_pads, {In("1,3,30,60"), In("2")}, {}}, {{1, {0.2, 0.2}}})));
    CHECK(rejected(run_op({"Interpolate", 11, sizes, {In("1,3,30,60"), In("2", i32)}, {{1, V({6, 12})}}})));
    r = run_op({"Interpolate", 11, no_pads, {In("1,3,30,60"), In("4")}, {}}, {{1, {1, 1, 0.2, 0.2}}});
    CHECK(outputs(r) == "[1,3,6,12]");
    CHECK(outputs(run_op({"Interpolate", 11, no_pads, {In("1,3,30,60"), In("2")}, {}})) == "[?,?,?,?]");
}

TEST_CASE("type_prop Gather-7/8: batch dims of intervals, unknown axis, dynamic ranks") {
    for (const int v : {7, 8}) {
        INFO("Gather-" << v);
        CHECK(outputs(gather(v, "1..7,20,20", "7..10,3,8", 1, 1)) == "[7,3,8,20]");
        CHECK(outputs(gather(v, "1..7,1..3,200,400", "7..10,2..10,3,8", 3, 1)) == "[7,1..3,200,2..10,3,8]");
        CHECK(outputs(gather(v, "1..7,1..3,200,400", "7..10,2..10,3,8", 2, 2)) == "[7,2..3,3,8,400]");
        CHECK(outputs(gather(v, "1..7,1..3,200,400", "7..10,2..10,3,8", 3, 2)) == "[7,2..3,200,3,8]");
        CHECK(outputs(gather(v, "7..,..3,200,400", "7..10,2..10,3,8", 3, 1)) == "[7..10,..3,200,2..10,3,8]");
        CHECK(outputs(gather(v, "...", "7,3,8", 3, 2)) == "[...]");
        CHECK(outputs(gather(v, "1,1,200,400", "2,2", std::nullopt, 0)) == "[?,?,?,?,?]");
        CHECK(outputs(gather(v, "2,1,200,400", "2,2", std::nullopt, 1)) == "[2,?,?,?]");
        CHECK(outputs(gather(v, "3", "", 0, 0)) == "[]");
        CHECK(outputs(gather(v, "2,3,4", "2,5", 2, -1)) == "[2,3,5]");
        CHECK(rejected(gather(v, "1..7,20,20", "8..10,3,8", 1, 1)));
        CHECK(rejected(gather(v, "1,3,20", "1,3,8", 1, 2)));
        CHECK(rejected(gather(v, "1,20,20,22,22", "1,3", 4, 3)));
        CHECK(rejected(gather(v, "2,3,4", "2,5", 0, -1)));
        CHECK(rejected(gather(v, "3,4", "2", -3, 0)));
    }
    CHECK(outputs(gather(8, "2,1,200,400", "2,2", std::nullopt, -1)) == "[2,?,?,?]");
}

TEST_CASE("Gather of a scalar along a known axis: rejected, not written past the output's rank") {
    // OpenVINO's formula gives rank data + indices - 1 but writes every indices dim into it.
    for (const int v : {1, 7, 8}) {
        INFO("Gather-" << v);
        CHECK(outputs(gather(v, "", "2,2", 0, 0)) ==
              "rejected: data is a scalar; Gather needs data of rank 1 or more (indices [2,2])");
        CHECK(rejected(gather(v, "", "2", 0, 0)));
        // An unknown axis writes nothing: OpenVINO gives the rank only.
        CHECK(outputs(gather(v, "", "2,2", std::nullopt, 0)) == "[?]");
    }
}

TEST_CASE("type_prop Broadcast-1/3: explicit axes_mapping checks, dynamic ranks and values") {
    const Attrs ex{{"mode", "explicit"}};
    for (const int v : {1, 3}) {
        INFO("Broadcast-" << v);
        auto bc = [v, &ex](std::vector<OpInput> in, std::map<size_t, TensorValue> values) {
            return outputs(run_op({"Broadcast", v, ex, std::move(in), std::move(values)}));
        };
        CHECK(bc({In("3,1"), I64("3"), I64("2")}, {{1, V({2, 3, 1})}, {2, V({1, 2})}}) == "[2,3,1]");
        CHECK(bc({In("16"), I64("4"), I64("1")}, {{1, V({1, 16, 50, 50})}, {2, V({1})}}) == "[1,16,50,50]");
        CHECK(bc({In("16"), I64("4"), I64("1")},
                 {{1, TensorValue{{0, ValueBounds::kUnbounded}, {16, 16}, {50, 50}, {50, 50}}}, {2, V({1})}}) ==
              "[?,16,50,50]");
        CHECK(bc({In("..."), I64("..."), I64("...")}, {}) == "[...]");
        CHECK(bc({In("..."), I64("..."), I64("3")}, {{2, V({0, 1, 2})}}) == "[...]");
        CHECK(bc({In("..."), I64("?"), I64("3")}, {{2, V({0, 1, 2})}}) == "[...]");
        // A dynamic-rank data input skips the axes_mapping checks.
        CHECK(bc({In("..."), I64("3"), I64("3")}, {{1, V({1, 2, 3})}, {2, V({0, 2, 1})}}) == "[1,2,3]");
        CHECK(bc({In("?,?,?"), I64("4"), I64("...")}, {{1, V({1, 1, 5, 10})}}) == "[1,1,5,10]");
        CHECK(bc({In("1,2,3,4"), I64("?"), I64("4")}, {{2, V({0, 2, 1, 3})}}) == "[...]");
        CHECK(bc({In("4"), I64("4"), I64("...")}, {{1, V({1, 4, 2, 3})}}) == "[1,4,2,3]");
        CHECK(bc({In("4"), I64("4"), I64("1")}, {{1, V({1, 4, 2, 3})}, {2, V({1})}}) == "[1,4,2,3]");
        CHECK(bc({In("..."), I64("4"), I64("...")}, {}) == "[?,?,?,?]");
        CHECK(bc({In("2"), I64("4"), I64("1")}, {{2, V({1})}}) == "[?,?,?,?]");
        CHECK(has_problem(bc({In("3,1"), I64("3"), I64("3")}, {{1, V({2, 3, 1})}, {2, V({1, 2, 3})}})));
        CHECK(has_problem(bc({In("?,?,?"), I64("4"), I64("4")}, {{1, V({1, 1, 5, 10})}, {2, V({0, 2, 1, 3})}})));
        CHECK(has_problem(bc({In("3,1"), I64("3"), I64("2")}, {{1, V({2, 1, 3})}, {2, V({2, 1})}})));
        CHECK(has_problem(bc({In("3,1"), I64("3"), I64("2")}, {{1, V({2, 3, 1})}, {2, V({1, 3})}})));
        CHECK(has_problem(bc({In("3,2"), I64("3"), I64("2")}, {{1, V({2, 3, 3})}, {2, V({1, 2})}})));
        CHECK(has_problem(bc({In("2,4"), I64("1"), I64("2,2")}, {})));
        CHECK(has_problem(bc({In("2,4"), I64("")}, {})));
        CHECK(has_problem(bc({In("2,4"), In("1", ElementType::boolean), I64("2")}, {})));
        CHECK(has_problem(bc({In("1,4,1"), In("2", ElementType::i16)}, {})));
    }
}

TEST_CASE("type_prop Broadcast-1/3 numpy and Broadcast-3 bidirectional") {
    const Attrs np{{"mode", "numpy"}}, bi{{"mode", "bidirectional"}};

    auto bc = [](int v, const Attrs& mode, std::vector<OpInput> in, std::map<size_t, TensorValue> values = {}) {
        return outputs(run_op({"Broadcast", v, mode, std::move(in), std::move(values)}));
    };
    for (const int v : {1, 3}) {
        INFO("Broadcast-" << v);
        CHECK(bc(v, np, {In("..."), I64("?")}) == "[...]");
        CHECK(bc(v, np, {In("..."), I64("3")}, {{1, V({1, 2, 3})}}) == "[1,2,3]");
        CHECK(bc(v, np, {In("?,?"), I64("3")}, {{1, V({1, 2, 3})}}) == "[1,2,3]");
        CHECK(bc(v, np, {In("3,4,5,6"), I64("...")}) == "[...]");
        CHECK(bc(v, np, {In("1,2,3"), I64("?")}) == "[...]");
        CHECK(bc(v, np, {In("1,2,3"), I64("3")}, {{1, V({3, 2, 3})}}) == "[3,2,3]");
        CHECK(bc(v, np, {In("2,3,?"), I64("4")}, {{1, V({1, 2, 3, 4})}}) == "[1,2,3,4]");
        CHECK(bc(v, np, {In("?,3,?"), I64("4")}, {{1, V({1, 2, 3, 4})}}) == "[1,2,3,4]");
        CHECK(has_problem(bc(v, np, {In("?,999,3,4"), I64("4")}, {{1, V({1, 2, 3, 4})}})));
        CHECK(has_problem(bc(v, np, {In("?,?,?,888"), I64("4")}, {{1, V({1, 2, 3, 4})}})));
        CHECK(has_problem(bc(v, np, {In("5,?,?,?"), I64("4")}, {{1, V({1, 2, 3, 4})}})));
    }
    // Numpy Broadcast-3 takes the target's bounds without checking interval dims against them.
    CHECK(bc(3, np, {In("4..8,2..4"), I64("2")}, {{1, TensorValue{{1, 1}, {5, 6}}}}) == "[1,5..6]");
    CHECK(bc(3, np, {In("?,2,1,?,4..8,?,1..8,1..10,4..18"), I64("9")},
             {{1, TensorValue{{0, kU}, {2, 2}, {3, 9}, {4, 10}, {0, kU}, {5, 11}, {0, kU}, {6, 20}, {1, 10}}}}) ==
          "[?,2,3..9,4..10,?,5..11,?,6..20,1..10]");
    CHECK(rejected(run_op({"Broadcast", 3, bi, {In("1,4,1"), In("2", ElementType::i16), In("3")}, {}})));
    CHECK(bc(3, bi, {In("1,4,1"), I64("2")}, {{1, V({1, 4})}}) == "[1,4,4]");
    CHECK(bc(3, bi, {In("3,1"), I64("3")}, {{1, V({2, 1, 6})}}) == "[2,3,6]");
    CHECK(bc(3, bi, {In("1,3,1"), I64("2")}, {{1, V({3, 1})}}) == "[1,3,1]");
    CHECK(bc(3, bi, {In("1,2,3,1"), I64("4")}, {{1, V({2, 2, 3, 2})}}) == "[2,2,3,2]");
    CHECK(bc(3, bi, {In("5,2,3,1"), I64("3")}, {{1, V({1, 3, 6})}}) == "[5,2,3,6]");
    CHECK(has_problem(bc(3, bi, {In("4,3,2"), I64("3")}, {{1, V({8, 6, 4})}})));
    CHECK(has_problem(bc(3, bi, {In("1,1,2"), I64("2")}, {{1, V({2, 3})}})));
    CHECK(bc(3, bi, {In("..."), I64("?")}) == "[...]");
    CHECK(bc(3, bi, {In("..."), I64("3")}, {{1, V({2, 4, 6})}}) == "[...]");
    CHECK(bc(3, bi, {In("?,?,?,?"), I64("3")}, {{1, V({8, 6, 4})}}) == "[?,8,6,4]");
    CHECK(bc(3, bi, {In("?,?,?,?"), I64("5")}, {{1, V({8, 6, 1, 5, 1})}}) == "[8,6,?,5,?]");
    CHECK(bc(3, bi, {In("1,2,3,1"), I64("?")}) == "[...]");
    CHECK(bc(3, bi, {In("16,1,?"), I64("4")}, {{1, V({1, 1, 50, 50})}}) == "[1,16,50,50]");
    CHECK(bc(3, bi, {In("?,1,?"), I64("4")}, {{1, V({1, 1, 50, 50})}}) == "[1,?,50,50]");
    CHECK(bc(3, bi, {In("16,?,?"), I64("4")}, {{1, V({1, 1, 50, 50})}}) == "[1,16,50,50]");
    CHECK(bc(3, bi, {In("?,?,?"), I64("4")}, {{1, V({1, 1, 50, 50})}}) == "[1,?,50,50]");
    CHECK(bc(3, bi, {In("4..8,1"), I64("3")}) == "[?,4..8,?]");
    CHECK(bc(3, bi, {In("?,2,1..10,4..8,1"), I64("3")}) == "[?,2,?,4..8,?]");
    CHECK(bc(3, bi, {In("?,2,1,4..8,1..10"), I64("5")}) == "[?,2,?,4..8,?]");
}

TEST_CASE("type_prop ScatterUpdate-3: shapes, element types, updates against data and indices") {
    const auto f32 = ElementType::f32;
    auto scatter = [](const char* data, const char* indices, const char* updates, const char* axis_shape,
                      std::optional<int64_t> axis, std::array<ElementType, 4> types) {
        OpCase c{"ScatterUpdate",
                 3,
                 {},
                 {In(data, types[0]), In(indices, types[1]), In(updates, types[2]), In(axis_shape, types[3])},
                 {}};
        if (axis) c.values[3] = V({*axis});
        return run_op(c);
    };
    const std::array<ElementType, 4> usual{f32, i32, f32, i32};
    CHECK(outputs(scatter("2,3,4", "2,1", "2,2,1,4", "1", 1, usual)) == "[2,3,4]");
    const auto u8 = ElementType::u8;
    const auto r = scatter("2,3,4", "2,1", "2,2,1,4", "1", 1, {u8, i32, u8, i32});
    CHECK(outputs(r) == "[2,3,4]");
    CHECK(r.outputs[0].type == u8);
    CHECK(outputs(scatter("?,2..8,1..9,4", "2,1", "3,2,1,2,4", "", 1, usual)) == "[?,2..8,1..9,4]");
    CHECK(outputs(scatter("...", "2,1", "2,2,1,4", "", 1, usual)) == "[...]");
    CHECK(outputs(scatter("2,3,4", "2,1", "2,2,1,4", "", std::nullopt, usual)) == "[2,3,4]");
    CHECK(rejected(scatter("2,3,4", "2,1", "2,2,1,4", "1", 1, {f32, i32, ElementType::u32, i32})));
    CHECK(rejected(scatter("2,3,4", "2,1", "2,2,1,4", "1", 1, {f32, ElementType::f16, f32, i64})));
    CHECK(rejected(
        scatter("2,3,4", "2,1", "2,2,1,4", "1", 1, {ElementType::i16, ElementType::u64, ElementType::i16, f32})));
    CHECK(rejected(scatter("2,3,4", "2,1", "2,1,4", "", 0, usual)));
    CHECK(rejected(scatter("2,3,4", "2,1", "2,2,1,4", "", 0, usual)));
    CHECK(rejected(scatter("2,3,4", "2,1", "2,3,1,4", "", 1, usual)));
    CHECK(rejected(scatter("2,3,4", "2,1", "3,2,1,4", "", 1, usual)));
    CHECK(rejected(scatter("2,3,4", "2,1", "2,2,1,5", "", 1, usual)));
    CHECK(rejected(scatter("2,3,4", "2,1", "2,2,1,4", "2", 1, usual)));
    CHECK(rejected(scatter("2,3,4", "2,1", "2,2,1,4", "", 3, usual)));
}

TEST_CASE("type_prop MatMul-0: 1-D promotion, transposes, batch broadcast, dynamic K") {
    auto matmul = [](const char* a, const char* b, bool transpose_a = false, bool transpose_b = false) {
        return outputs(
            run_op({"MatMul",
                    0,
                    {{"transpose_a", transpose_a ? "true" : "false"}, {"transpose_b", transpose_b ? "true" : "false"}},
                    {In(a), In(b)},
                    {}}));
    };
    CHECK(matmul("2,3", "3") == "[2]");
    CHECK(matmul("3", "3,4") == "[4]");
    CHECK(matmul("3", "3") == "[]");
    CHECK(matmul("3", "3", true, true) == "[]");
    CHECK(matmul("2,2,3", "3,4") == "[2,2,4]");
    CHECK(matmul("1,2,3", "5,3,4") == "[5,2,4]");
    CHECK(matmul("3,2", "3,4", true) == "[2,4]");
    CHECK(matmul("2,3", "4,3", false, true) == "[2,4]");
    CHECK(matmul("3", "2,3,4") == "[2,4]");
    CHECK(matmul("2,3,4", "4") == "[2,3]");
    CHECK(matmul("...", "3,4") == "[...]");
    CHECK(matmul("?,?", "?,?") == "[?,?]");
    CHECK(matmul("?,?,?", "?") == "[?,?]");
    CHECK(matmul("?", "?") == "[]");
    CHECK(matmul("2..5,3..6", "4..8,?") == "[2..5,?]");
    // K dims are not checked when one is dynamic, even without a common value.
    CHECK(matmul("2..5,3", "4..8,?") == "[2..5,?]");
    CHECK(matmul("?,2,3", "5,1,3,4") == "[5,?,2,4]");
    CHECK(matmul("1..3,2,3", "5,3,4") == "[5,2,4]");
    CHECK(matmul("2..3,2,3", "1..5,3,4") == "[2..3,2,4]");
    CHECK(has_problem(matmul("2,3", "4,3")));
    CHECK(has_problem(matmul("2,2,3", "3,3,4")));
    CHECK(has_problem(matmul("", "3")));
}

TEST_CASE("type_prop ExtractImagePatches-3: patch counts per bound, zero-size images, attribute checks") {
    auto patches = [](const char* data, const char* sizes, const char* strides, const char* rates, const char* pad,
                      ElementType type = ElementType::i32) {
        return run_op({"ExtractImagePatches",
                       3,
                       {{"sizes", sizes}, {"strides", strides}, {"rates", rates}, {"auto_pad", pad}},
                       {In(data, type)},
                       {}});
    };
    const auto r = patches("64,3,10,10", "3,3", "5,5", "1,1", "valid");
    CHECK(outputs(r) == "[64,27,2,2]");
    CHECK(r.outputs[0].type == i32);
    CHECK(outputs(patches("64,3,12,12", "3,3", "5,5", "1,1", "valid", i64)) == "[64,27,2,2]");
    CHECK(outputs(patches("64,3,33,43", "3,3", "5,5", "2,2", "valid")) == "[64,27,6,8]");
    CHECK(outputs(patches("64,3,9,9", "3,3", "5,5", "2,2", "valid")) == "[64,27,1,1]");
    CHECK(outputs(patches("?,?,?,?", "3,3", "5,5", "2,2", "valid")) == "[?,?,?,?]");
    CHECK(outputs(patches("?,3,14,23", "3,3", "5,5", "1,1", "valid")) == "[?,27,3,5]");
    CHECK(outputs(patches("1..10,3..4,10..51,13..71", "3,3", "5,5", "1,1", "valid")) == "[1..10,27..36,2..10,3..14]");
    CHECK(outputs(patches("64,3,31,27", "3,3", "5,5", "1,1", "same_lower")) == "[64,27,7,6]");
    CHECK(outputs(patches("64,3,9,9", "3,3", "5,5", "1,1", "same_lower")) == "[64,27,2,2]");
    CHECK(outputs(patches("64,3,23,11", "3,3", "5,5", "1,1", "same_upper")) == "[64,27,5,3]");
    CHECK(outputs(patches("64,3,6,11", "3,3", "5,5", "1,1", "same_upper")) == "[64,27,2,3]");
    CHECK(outputs(patches("64,0,0,0", "3,3", "5,5", "1,1", "valid")) == "[64,0,0,0]");
    CHECK(outputs(patches("64,3,10,10", "3,3", "15,15", "1,1", "valid")) == "[64,27,1,1]");
    CHECK(outputs(patches("64,3,10,10", "3,3", "15,15", "1,1", "same_upper")) == "[64,27,1,1]");
    CHECK(outputs(patches("...", "3,3", "5,5", "1,1", "valid", i64)) == "[?,?,?,?]");
    CHECK(outputs(patches("1..10,3..4,10..51,13..71", "1,1", "5,5", "1,1", "same_lower")) ==
          "[1..10,3..4,2..11,3..15]");
    // A patch larger than the image gives no patch.
    CHECK(outputs(patches("1,1,2,2", "3,3", "1,1", "1,1", "valid")) == "[1,9,0,0]");
    CHECK(rejected(patches("?,?,?", "3,3", "5,5", "1,1", "valid")));
    CHECK(rejected(patches("?,?,?,?,?", "3,3", "5,5", "1,1", "valid")));
    CHECK(rejected(patches("...", "3", "5,5", "1,1", "valid")));
    CHECK(rejected(patches("...", "3,3", "5,5,1", "1,1", "valid")));
    CHECK(rejected(patches("...", "3,3", "5,0", "1,1", "valid")));
    CHECK(rejected(patches("...", "3,3", "5,5", "1", "valid")));
    CHECK(rejected(patches("...", "3,3", "5,5", "0,1", "valid")));
    CHECK(rejected(patches("...", "3,3", "5,5", "1,1", "explicit")));
    // Hostile attributes: no overflow, the dims stay unknown.
    CHECK(outputs(patches("1,1,5,5", "9223372036854775807,2", "1,1", "9223372036854775807,1", "valid")) == "[1,?,?,4]");
}
