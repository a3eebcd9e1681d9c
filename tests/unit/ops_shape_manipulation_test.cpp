// The shape manipulation ops of the registry (shape_manipulation_ops.cpp, shape_manipulation_layout_ops.cpp),
// on cases ported from OpenVINO's type_prop tests (src/core/tests/type_prop/<op>.cpp): output shapes,
// element types, propagated values, and the problems OpenVINO rejects a layer for.

#include <doctest/doctest.h>

#include <array>
#include <limits>
#include <optional>
#include <string>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {



TensorValue B(std::initializer_list<std::pair<int64_t, int64_t>> bounds) {
    TensorValue v;
    for (const auto& [lo, hi] : bounds) v.push_back({lo, hi});
    return v;
}

std::string values_str(const std::optional<TensorValue>& v) {
    if (!v) return "<none>";
    std::string s;
    for (const ValueBounds& b : *v) {
        if (!s.empty()) s += ',';
        s += b.exact() ? std::to_string(b.lo)
                       : std::to_string(b.lo) + ".." + (b.hi == kU ? std::string("inf") : std::to_string(b.hi));
    }
    return "{" + s + "}";
}

std::string value_of(const OpRun& r, size_t i = 0) { return i < r.outputs.size() ? values_str(r.outputs[i].value) : "<no output>"; }

OpInput I64(const std::string& shape) { return In(shape, ElementType::i64); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// ---------------------------------------------------------------------------------------------- ShapeOf

TEST_CASE("ops-b1 ShapeOf: static, interval and dynamic dims give rank-1 shapes and bound values") {
    auto r = run_op({"ShapeOf", 0, {}, {In("1,3,224,224")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[4]");
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(value_of(r) == "{1,3,224,224}");

    r = run_op({"ShapeOf", 3, {{"output_type", "i32"}}, {In("2..5,?,..7")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[3]");
    CHECK(r.outputs[0].type == ElementType::i32);
    CHECK(value_of(r) == "{2..5,0..inf,0..7}");

    r = run_op({"ShapeOf", 3, {}, {In("...")}, {}});
    CHECK(r.str() == "[?]");
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(value_of(r) == "<none>");

    r = run_op({"ShapeOf", 3, {}, {In("")}, {}});
    CHECK(r.str() == "[0]");
    CHECK(value_of(r) == "{}");
}

TEST_CASE("ops-b1 ShapeOf-3: output_type other than i32/i64 is an attribute problem") {
    const auto r = run_op({"ShapeOf", 3, {{"output_type", "f32"}}, {In("1,2")}, {}});
    REQUIRE(!r.ok());
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
    CHECK(has(r.problem(), "f32"));
}

// ---------------------------------------------------------------------------------------------- Reshape

namespace {
OpRun reshape(const std::string& data, TensorValue target, bool special_zero,
              std::optional<std::string> target_shape = std::nullopt) {
    if (!target_shape) target_shape = std::to_string(target.size());
    return run_op({"Reshape", 1, {{"special_zero", special_zero ? "true" : "false"}}, {In(data), I64(*target_shape)},
                   {{1, std::move(target)}}});
}
}  // namespace

TEST_CASE("ops-b1 Reshape: static targets, special zero and -1") {
    CHECK(reshape("3,4", V({12}), false).str() == "[12]");
    CHECK(reshape("3,4,5", V({6, 2, 0}), true).str() == "[6,2,5]");
    CHECK(reshape("3,1,2", V({-1, 0}), true).str() == "[6,1]");
    CHECK(reshape("3,1,2", V({0, -1}), true).str() == "[3,2]");
    CHECK(reshape("3,1", V({0, -1}), true).str() == "[3,1]");
    CHECK(reshape("2,2,3", V({0, 0, 1, -1}), true).str() == "[2,2,1,3]");
    CHECK(reshape("1,1280,1,1", V({-1, 1280}), false).str() == "[1,1280]");
    CHECK(reshape("0,1", V({0}), false).str() == "[0]");
    const auto r = reshape("", V({1}), false, std::string());
    CHECK(r.str() == "[]");
    CHECK(r.outputs[0].type == ElementType::f32);
}

TEST_CASE("ops-b1 Reshape: dynamic and interval dims through -1") {
    CHECK(reshape("?,1,2", V({-1, 0}), true).str() == "[?,1]");
    CHECK(reshape("?,1,1", V({0, -1}), true).str() == "[?,1]");
    CHECK(reshape("2,?,3", V({0, 0, 1, -1}), true).str() == "[2,?,1,3]");
    CHECK(reshape("2,1..3,3", V({0, 0, 1, -1}), true).str() == "[2,1..3,1,3]");
    CHECK(reshape("2,1..3,?", V({0, 0, 1, -1}), true).str() == "[2,1..3,1,?]");
    CHECK(reshape("2,1..3", V({-1, 0}), true).str() == "[2,1..3]");
    CHECK(reshape("1..3,2", V({-1, 0}), true).str() == "[1..3,2]");
    CHECK(reshape("1,1..3,2", V({0, -1, 2}), true).str() == "[1,1..3,2]");
    CHECK(reshape("1,1..3,2", V({0, -1}), true).str() == "[1,2..6]");
    CHECK(reshape("1,1..3,1..6", V({0, -1}), true).str() == "[1,1..18]");
    CHECK(reshape("1,1..3,3,1..6", V({0, -1, 3}), true).str() == "[1,1..18,3]");
    CHECK(reshape("1,?,1..6", V({0, -1}), true).str() == "[1,?]");
    CHECK(reshape("1,?,0..6", V({0, -1}), true).str() == "[1,?]");
    CHECK(reshape("1..2,1..3,1..4", V({-1}), true).str() == "[1..24]");
    CHECK(reshape("0..2,0..3,0..4", V({-1}), true).str() == "[..24]");
    CHECK(reshape("?,6,?,?", V({3, 1, 8, 2}), false).str() == "[3,1,8,2]");
}

TEST_CASE("ops-b1 Reshape: OpenVINO's -1 cases (static dims on both sides cancel)") {
    struct Row {
        const char* data;
        TensorValue pattern;
        bool special_zero;
        const char* expected;
    };
    const std::vector<Row> rows{
        {"4,?,2,1,3", V({-1, 12, 2}), false, "[?,12,2]"},
        {"4,2,2..6,1,3", V({-1, 12, 2}), false, "[2..6,12,2]"},
        {"2..4,2,2..6,1,3", V({-1, 12, 2}), false, "[1..6,12,2]"},
        {"2,2..4,2,3", V({1, 4, 3, 1, 1, -1}), false, "[1,4,3,1,1,2..4]"},
        {"2,4,2,3", V({1, 4, 3, 1, 1, -1}), false, "[1,4,3,1,1,4]"},
        {"2,3,2,1,4", V({4, 1, -1, 1, 4}), false, "[4,1,3,1,4]"},
        {"1..2,4,2,3", V({4, 2, 3, -1}), false, "[4,2,3,1..2]"},
        {"2,4,2,3", V({4, 2, 3, -1}), false, "[4,2,3,2]"},
        {"1,1..,1..,512", V({-1, 25088}), false, "[1..,25088]"},
        {"4,0,2,1,3", V({12, 0, 1}), false, "[12,0,1]"},
        {"4,?,2,1,3", V({-1, 12, 0}), true, "[?,12,2]"},
        {"2..4,8,2..6,1,3", V({0, -1, 12, 2}), true, "[2..4,2..6,12,2]"},
        {"2..4,8,6,1,3", V({0, -1, 12, 2}), true, "[2..4,6,12,2]"},
        {"2,10,4,1..5,1..2,3", V({1, 0, 4, 0, 6, 1, -1}), true, "[1,10,4,1..5,6,1,1..2]"},
        {"2,10,4,1..5,2,3", V({1, 0, 4, 0, 6, 1, -1}), true, "[1,10,4,1..5,6,1,2]"},
        {"2,3,2,1,4", V({0, 0, -1, 0, 0}), true, "[2,3,2,1,4]"},
        {"2..4,12,?,1,2", V({0, -1, 3, 4, 3}), true, "[2..4,?,3,4,3]"},
        {"2,1", V({0}), true, "[2]"},
        {"1,?,?", B({{0, kU}, {0, kU}, {1, 1}}), true, "[?,?,1]"},
        {"1..2,2..4,6,2..4,8", B({{3, 5}, {0, 0}, {1, 1}, {0, 0}, {-1, -1}}), true, "[3..5,2..4,1,2..4,10..32]"},
        {"0,0", B({{-1, -1}, {0, kU}, {2, 2}}), true, "[?,?,2]"},
    };
    for (const Row& row : rows) {
        CAPTURE(row.data);
        const auto r = reshape(row.data, row.pattern, row.special_zero);
        CHECK(r.ok());
        CHECK(r.str() == row.expected);
    }
}

TEST_CASE("ops-b1 Reshape: OpenVINO's rejected targets") {
    CHECK(!reshape("2,1", V({0}), false).ok());                 // [0] from 2 elements
    CHECK(!reshape("2,5,4", V({10, -1, 3}), false).ok());       // 40 is not a multiple of 30
    CHECK(!reshape("2,5,4", V({5, 0, -1}), false).ok());        // zero-size output dim, no zero input
    CHECK(!reshape("1..2,2..4,8", V({5, 1, 1, 0}), true).ok()); // '0' beyond the input rank
    CHECK(!reshape("1..2,2..4,6,2..4,8", V({-1, 5, -1}), true).ok());
    CHECK(!reshape("1,2,3", V({100}), false, std::string()).ok());
    const auto r = reshape("1,2,3", V({1}), false, std::string());
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "input has 6 elements, target [] has 1"));
    const auto scalar = run_op({"Reshape", 1, {{"special_zero", "false"}}, {In("3,4"), I64("")}, {}});
    REQUIRE(!scalar.ok());
    CHECK(has(scalar.problem(), "must be one"));
    const auto interval = run_op({"Reshape", 1, {{"special_zero", "false"}}, {In("3,4"), I64("1..3")}, {}});
    CHECK(interval.str() == "[...]");
}

TEST_CASE("ops-b1 Reshape: dynamic-rank input") {
    CHECK(reshape("...", V({3, 1, 8, 2}), false).str() == "[3,1,8,2]");
    CHECK(reshape("...", V({3, 1, 0, 2}), true).str() == "[3,1,?,2]");
    CHECK(reshape("...", V({3, -1, 0, 2}), true).str() == "[3,?,?,2]");
    // Without a special zero, OpenVINO's interval arithmetic bounds the -1 below by 1.
    CHECK(reshape("...", V({2, -1}), false).str() == "[2,1..]");
}

TEST_CASE("ops-b1 Reshape: target values as bounds (from ShapeOf)") {
    auto r = reshape("1..8,16..64,3,200..400", B({{1, 8}, {3, 3}, {16, 64}, {0, 0}}), true);
    CHECK(r.str() == "[1..8,3,16..64,200..400]");
    r = reshape("1..8,16..64,6,200..400", B({{16, 64}, {0, 0}, {-1, -1}}), true);
    CHECK(r.str() == "[16..64,16..64,19..1200]");
    r = reshape("1..8,2,3", B({{1, 8}, {2, 2}, {3, 3}}), false);
    CHECK(r.str() == "[1..8,2,3]");
    r = reshape("?,4", B({{0, kU}, {4, 4}}), false);
    CHECK(r.str() == "[?,4]");
}

TEST_CASE("ops-b1 Reshape: invalid targets") {
    auto r = reshape("1,3,224,224", V({1, 3, 224, 225}), false);
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "input has 150528 elements, target [1,3,224,225] has 151200"));
    r = reshape("2,3,4", V({-1, -1}), false);
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "more than one dimension of the target shape is -1 (at 0 and 1)"));
    r = reshape("2,3,4", V({-2, 12}), false);
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "dim[0] is -2"));
    r = reshape("2,3,4", V({5, -1}), false);
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "do not evenly divide"));
    r = reshape("2,3", V({0, 0, 0}), true);
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "dim[2] is 0"));
    r = reshape("2,3", V({6}), false, "1,1");
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "rank 2"));
    r = reshape("2,3", V({0, -1}), false);
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "zero-size"));
}

TEST_CASE("ops-b1 Reshape: unknown target gives the rank of the target's length") {
    auto r = run_op({"Reshape", 1, {{"special_zero", "false"}}, {In("2,3,4"), I64("3")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[?,?,?]");
    CHECK(r.unknown.has_value());
    r = run_op({"Reshape", 1, {{"special_zero", "false"}}, {In("2,3,4"), I64("?")}, {}});
    CHECK(r.str() == "[...]");
    r = run_op({"Reshape", 1, {}, {In("2,3,4"), I64("3")}, {}});
    REQUIRE(!r.ok());
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
}

TEST_CASE("ops-b1 Reshape passes the input's values through") {
    const auto r = run_op({"Reshape", 1, {{"special_zero", "false"}}, {I64("4"), I64("2")},
                           {{0, B({{1, 1}, {2, 8}, {3, 3}, {4, 4}})}, {1, V({1, 4})}}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,4]");
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(value_of(r) == "{1,2..8,3,4}");
}

// ---------------------------------------------------------------------------------------------- Squeeze

TEST_CASE("ops-b1 Squeeze: axes, no axes, dynamic dims") {
    const auto sq = [](int v, const std::string& data, std::optional<TensorValue> axes,
                       std::vector<std::pair<std::string, std::string>> attrs = {}) {
        OpCase c{"Squeeze", v, std::move(attrs), {In(data)}, {}};
        if (axes) {
            c.inputs.push_back(I64(std::to_string(axes->size())));
            c.values[1] = *axes;
        }
        return run_op(c);
    };
    CHECK(sq(0, "1,4,1,8", V({0, 2})).str() == "[4,8]");
    CHECK(sq(0, "1,4,1,8", V({-4, -2})).str() == "[4,8]");
    CHECK(sq(0, "1,4,1,8", std::nullopt).str() == "[4,8]");
    CHECK(sq(0, "1,4,1,8", V({})).str() == "[4,8]");
    CHECK(sq(0, "?,4,1", std::nullopt).str() == "[...]");
    CHECK(sq(0, "2..5,1", std::nullopt).str() == "[2..5]");
    CHECK(sq(0, "1,4", V({1})).str() == "[1,4]");  // not squeezable: ignored
    CHECK(sq(0, "?,4", V({0})).str() == "[4]");
    CHECK(sq(15, "?,4", V({0}), {{"allow_axis_skip", "true"}}).str() == "[...]");
    CHECK(sq(15, "?,4", V({0}), {{"allow_axis_skip", "false"}}).str() == "[4]");
    CHECK(sq(15, "1,2,3", V({0})).str() == "[2,3]");
    CHECK(sq(0, "...", V({0})).str() == "[...]");
    const auto bad = sq(0, "1,2,3", V({5}));
    REQUIRE(!bad.ok());
    CHECK(has(bad.problem(), "axis 5 is out of range [-3, 2]"));
}

TEST_CASE("ops-b1 Squeeze: unknown single axis, and values passing through") {
    auto r = run_op({"Squeeze", 0, {}, {In("1,2,3"), I64("1")}, {}});
    CHECK(r.str() == "[?,?]");
    CHECK(r.unknown.has_value());
    r = run_op({"Squeeze", 15, {}, {In("1,2,3"), I64("1")}, {}});
    CHECK(r.str() == "[...]");
    r = run_op({"Squeeze", 0, {}, {In("4,2,3"), I64("1")}, {}});
    CHECK(r.str() == "[4,2,3]");
    r = run_op({"Squeeze", 0, {}, {In("1,2,3"), I64("2")}, {}});
    CHECK(r.str() == "[...]");
    for (const int v : {0, 15}) {
        CAPTURE(v);
        const std::string one_less = v == 0 ? "[?,?,?]" : "[...]";
        CHECK(run_op({"Squeeze", v, {}, {In("?,2..8,1..3,4.."), I64("1")}, {}}).str() == one_less);
        CHECK(run_op({"Squeeze", v, {}, {In("?,2..8,1..3,4.."), I64("")}, {}}).str() == one_less);
        CHECK(run_op({"Squeeze", v, {}, {In("?,2..8,1..3,4.."), I64("2")}, {}}).str() == "[...]");
        CHECK(run_op({"Squeeze", v, {}, {In(""), I64("1")}, {}}).str() == "[...]");
        CHECK(run_op({"Squeeze", v, {}, {In("2,2,4"), I64("1")}, {}}).str() == "[2,2,4]");
        CHECK(run_op({"Squeeze", v, {}, {In("1,?,3,4")}, {}}).str() == "[...]");
        const auto bad = run_op({"Squeeze", v, {}, {In("1,4,1,4,1,8"), I64("2")}, {{1, V({-6, -10})}}});
        REQUIRE(!bad.ok());
        CHECK(has(bad.problem(), "axis -10 is out of range [-6, 5]"));
    }
    r = run_op({"Squeeze", 0, {}, {I64("1,3"), I64("1")}, {{0, V({5, 6, 7})}, {1, V({0})}}});
    CHECK(r.str() == "[3]");
    CHECK(value_of(r) == "{5,6,7}");
    r = run_op({"Squeeze", 0, {}, {In("1,2"), I64("1,1")}, {{1, V({0})}}});
    REQUIRE(!r.ok());
}

// ---------------------------------------------------------------------------------------------- Unsqueeze

TEST_CASE("ops-b1 Unsqueeze: axes, repeated axes, unknown axes, values") {
    const auto unsq = [](const std::string& data, TensorValue axes) {
        const std::string n = std::to_string(axes.size());
        return run_op({"Unsqueeze", 0, {}, {In(data), I64(n)}, {{1, std::move(axes)}}});
    };
    CHECK(unsq("3,4", V({0, 3})).str() == "[1,3,4,1]");
    CHECK(unsq("3,4", V({-1})).str() == "[3,4,1]");
    CHECK(unsq("2,3,4", V({4, -1})).str() == "[2,3,4,1]");
    CHECK(unsq("2,3,4", V({1, 1})).str() == "[2,1,3,4]");
    CHECK(unsq("?,2..4", V({1})).str() == "[?,1,2..4]");
    auto r = unsq("3,4", V({}));
    REQUIRE(!r.ok());
    r = unsq("3,4", V({3}));
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "axis 3 is out of range [-3, 2]"));
    r = run_op({"Unsqueeze", 0, {}, {In("3,4"), I64("1")}, {}});
    CHECK(r.str() == "[?,?,?]");
    r = run_op({"Unsqueeze", 0, {}, {In("3,4"), I64("2")}, {}});
    CHECK(r.str() == "[...]");
    r = run_op({"Unsqueeze", 0, {}, {I64(""), I64("1")}, {{0, V({7})}, {1, V({0})}}});
    CHECK(r.str() == "[1]");
    CHECK(value_of(r) == "{7}");
}

// ---------------------------------------------------------------------------------------------- Transpose

TEST_CASE("ops-b1 Transpose: order, empty order, invalid orders") {
    const auto tr = [](const std::string& data, TensorValue order, std::string order_shape = "") {
        if (order_shape.empty()) order_shape = std::to_string(order.size());
        return run_op({"Transpose", 1, {}, {In(data), I64(order_shape)}, {{1, std::move(order)}}});
    };
    CHECK(tr("2,3,4", V({2, 0, 1})).str() == "[4,2,3]");
    CHECK(tr("2,?,1..4", V({2, 0, 1})).str() == "[1..4,2,?]");
    CHECK(tr("2,3,4", V({}), "0").str() == "[4,3,2]");
    CHECK(tr("...", V({1, 0})).str() == "[?,?]");
    CHECK(!tr("...", V({1, 1})).ok());
    auto r = tr("2,3,4", V({0, 0, 1}));
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "[0,0,1] is not a permutation"));
    r = tr("2,3,4", V({0, 1}));
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "must have shape [3]"));
    r = run_op({"Transpose", 1, {}, {In("2,3,4"), I64("3")}, {}});
    CHECK(r.str() == "[?,?,?]");
    CHECK(r.unknown.has_value());
    r = run_op({"Transpose", 1, {}, {In("2,3,4"), In("3", ElementType::f32)}, {{1, V({0, 1, 2})}}});
    REQUIRE(!r.ok());
}

// ---------------------------------------------------------------------------------------------- Concat

TEST_CASE("ops-b1 Concat: static, negative axis, dynamic dims, dynamic rank") {
    auto r = run_op({"Concat", 0, {{"axis", "1"}}, {In("1,2,3"), In("1,5,3"), In("1,1,3")}, {}});
    CHECK(r.str() == "[1,8,3]");
    CHECK(r.outputs[0].type == ElementType::f32);
    r = run_op({"Concat", 0, {{"axis", "-1"}}, {In("2,3"), In("2,4")}, {}});
    CHECK(r.str() == "[2,7]");
    r = run_op({"Concat", 0, {{"axis", "0"}}, {In("?,2..5,3"), In("4,3..8,?")}, {}});
    CHECK(r.str() == "[4..,3..5,3]");
    r = run_op({"Concat", 0, {{"axis", "0"}}, {In("..."), In("2,3")}, {}});
    CHECK(r.str() == "[2..,3]");
    r = run_op({"Concat", 0, {{"axis", "0"}}, {In("..."), In("...")}, {}});
    CHECK(r.str() == "[...]");
}

TEST_CASE("ops-b1 Concat: mismatched dims, ranks, types and axis") {
    auto r = run_op({"Concat", 0, {{"axis", "1"}}, {In("1,2,3"), In("1,2,4")}, {}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "dim 2 = 4"));
    r = run_op({"Concat", 0, {{"axis", "1"}}, {In("1,2,3"), In("1,2")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Concat", 0, {{"axis", "3"}}, {In("1,2,3"), In("1,2,3")}, {}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "axis 3 is out of range [-3, 2]"));
    r = run_op({"Concat", 0, {{"axis", "0"}}, {In("2", ElementType::f32), In("2", ElementType::i32)}, {}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "f32 and i32"));
}

TEST_CASE("ops-b1 Concat: values of shape vectors concatenate") {
    auto r = run_op({"Concat", 0, {{"axis", "0"}}, {I64("2"), I64("1"), I64("1")},
                     {{0, B({{1, 8}, {3, 3}})}, {1, V({-1})}, {2, V({0})}}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[4]");
    CHECK(value_of(r) == "{1..8,3,-1,0}");
    r = run_op({"Concat", 0, {{"axis", "1"}}, {I64("2,1"), I64("2,2")}, {{0, V({1, 2})}, {1, V({3, 4, 5, 6})}}});
    CHECK(value_of(r) == "{1,3,4,2,5,6}");
    r = run_op({"Concat", 0, {{"axis", "0"}}, {I64("2"), I64("1")}, {{0, V({1, 2})}}});
    CHECK(value_of(r) == "<none>");
}

// ---------------------------------------------------------------------------------------------- Split, VariadicSplit

TEST_CASE("ops-b1 Split: num_splits along an axis") {
    auto r = run_op({"Split", 1, {{"num_splits", "5"}}, {In("2,10,4"), I64("")}, {{1, V({1})}}});
    REQUIRE(r.outputs.size() == 5);
    CHECK(r.str(4) == "[2,2,4]");
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("2..10,?"), I64("")}, {{1, V({-2})}}});
    CHECK(r.str(1) == "[1..5,?]");
    // OpenVINO floors both bounds of an interval.
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("3..11,4")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("3..11,4"), I64("")}, {{1, V({0})}}});
    CHECK(r.str(0) == "[1..5,4]");
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("3..,4"), I64("")}, {{1, V({0})}}});
    CHECK(r.str(0) == "[1..,4]");
    r = run_op({"Split", 1, {{"num_splits", "4"}}, {In("0..3,4"), I64("")}, {{1, V({0})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "its maximum must be at least num_splits 4"));
    r = run_op({"Split", 1, {{"num_splits", "3"}}, {In("2,10,4"), I64("")}, {{1, V({1})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "is 10, not divisible by num_splits 3"));
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("2,10,4"), I64("")}, {}});
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[?,?,?]");
    CHECK(r.unknown.has_value());
    r = run_op({"Split", 1, {{"num_splits", "0"}}, {In("2,10,4"), I64("")}, {{1, V({1})}}});
    REQUIRE(!r.ok());
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("2,10,4"), I64("")}, {{1, V({3})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "axis 3 is out of range [-3, 2]"));
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("2,10,4"), In("", ElementType::f32)}, {{1, V({1})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "axis input is f32"));
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {In("2,10,4"), I64("1")}, {{1, V({1})}}});
    REQUIRE(!r.ok());
    r = run_op({"Split", 1, {{"num_splits", "1000000000000"}}, {In("2,10,4"), I64("")}, {{1, V({1})}}});
    CHECK(r.outputs.empty());
    CHECK(r.unknown.has_value());
}

TEST_CASE("ops-b1 Split and VariadicSplit: each part takes its run of the data's values, bounds and symbols") {
    TensorValue shape = B({{1, 1}, {2, kU}, {8400, 8400}, {3, 3}});
    shape[1].symbol = 4;
    auto r = run_op({"VariadicSplit", 1, {}, {I64("4"), I64(""), I64("3")}, {{0, shape}, {1, V({0})}, {2, V({1, -1, 2})}}});
    REQUIRE(r.outputs.size() == 3);
    CHECK(value_of(r, 0) == "{1}");
    CHECK(value_of(r, 1) == "{2..inf}");
    CHECK(r.outputs[1].value->at(0).symbol == 4);
    CHECK(value_of(r, 2) == "{8400,3}");
    // Along axis 1 of a [2,4] tensor: the columns, row by row.
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {I64("2,4"), I64("")},
                {{0, V({1, 2, 3, 4, 5, 6, 7, 8})}, {1, V({-1})}}});
    REQUIRE(r.outputs.size() == 2);
    CHECK(value_of(r, 0) == "{1,2,5,6}");
    CHECK(value_of(r, 1) == "{3,4,7,8}");
    // Unknown data values or a data shape that is not static: shapes only.
    r = run_op({"Split", 1, {{"num_splits", "2"}}, {I64("4"), I64("")}, {{1, V({0})}}});
    CHECK(value_of(r, 0) == "<none>");
    r = run_op({"VariadicSplit", 1, {}, {I64("?"), I64(""), I64("2")}, {{0, V({1, 2})}, {1, V({0})}, {2, V({1, -1})}}});
    CHECK(value_of(r, 0) == "<none>");
}

TEST_CASE("ops-b1 Transpose and Tile: known values rearranged as their evaluate does, bounds and symbols kept") {
    TensorValue data = V({1, 2, 3, 4, 5, 6});  // [2,3]
    data[4] = {2, kU};
    data[4].symbol = 5;
    auto r = run_op({"Transpose", 1, {}, {I64("2,3"), I64("2")}, {{0, data}, {1, V({1, 0})}}});
    CHECK(r.str() == "[3,2]");
    CHECK(value_of(r) == "{1,4,2,2..inf,3,6}");
    CHECK(r.outputs[0].value->at(3).symbol == 5);
    // An empty order reverses the axes.
    r = run_op({"Transpose", 1, {}, {I64("2,3"), I64("0")}, {{0, data}, {1, TensorValue{}}}});
    CHECK(value_of(r) == "{1,4,2,2..inf,3,6}");
    r = run_op({"Tile", 0, {}, {I64("2"), I64("2")}, {{0, V({7, 8})}, {1, V({2, 2})}}});
    CHECK(r.str() == "[2,4]");
    CHECK(value_of(r) == "{7,8,7,8,7,8,7,8}");
    // The ConstantOfShape pattern: a scalar tiled, then the data with its leading 1s.
    r = run_op({"Tile", 0, {}, {I64("1,3"), I64("2")}, {{0, V({1, 2, 3})}, {1, V({2, 1})}}});
    CHECK(value_of(r) == "{1,2,3,1,2,3}");
    r = run_op({"Tile", 0, {}, {I64("3"), I64("1")}, {{1, V({2})}}});
    CHECK(value_of(r) == "<none>");
}

TEST_CASE("ops-b1 VariadicSplit: lengths with -1, intervals, invalid lengths") {
    const auto vs = [](const std::string& data, int64_t axis, TensorValue lengths) {
        const std::string n = std::to_string(lengths.size());
        return run_op({"VariadicSplit", 1, {}, {In(data), I64(""), I64(n)}, {{1, V({axis})}, {2, std::move(lengths)}}});
    };
    auto r = vs("2,10,4", 1, V({3, -1, 2}));
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[2,3,4]");
    CHECK(r.str(1) == "[2,5,4]");
    CHECK(r.str(2) == "[2,2,4]");
    r = vs("2,5..10", -1, V({3, -1}));
    CHECK(r.str(0) == "[2,3]");
    CHECK(r.str(1) == "[2,?]");
    r = vs("2,?", 1, V({3, -1}));
    CHECK(r.str(0) == "[2,3]");
    CHECK(r.str(1) == "[2,?]");
    r = vs("2,10,4", 1, V({3, 3}));
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "sum to 6, not the length 10"));
    r = vs("2,10,4", 1, V({-1, 3, -1}));
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "more than one -1 (at 0 and 2)"));
    r = vs("2,10,4", 1, V({-2, 12}));
    REQUIRE(!r.ok());
    r = run_op({"VariadicSplit", 1, {}, {In("2,10,4"), I64(""), I64("3")}, {{1, V({1})}}});
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(2) == "[2,?,4]");
}

// ---------------------------------------------------------------------------------------------- Range

TEST_CASE("ops-b1 Range: lengths, types, values") {
    const auto range = [](int v, int64_t start, int64_t stop, int64_t step,
                          std::vector<std::pair<std::string, std::string>> attrs = {}) {
        return run_op({"Range", v, std::move(attrs), {I64(""), I64(""), I64("")},
                       {{0, V({start})}, {1, V({stop})}, {2, V({step})}}});
    };
    auto r = range(0, 0, 10, 3);
    CHECK(r.str() == "[4]");
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(value_of(r) == "{0,3,6,9}");
    r = range(4, 10, 0, -2, {{"output_type", "i32"}});
    CHECK(r.str() == "[5]");
    CHECK(r.outputs[0].type == ElementType::i32);
    CHECK(value_of(r) == "{10,8,6,4,2}");
    CHECK(range(4, 5, 5, 1, {{"output_type", "f32"}}).str() == "[0]");
    CHECK(range(4, 5, 1, 1, {{"output_type", "i64"}}).str() == "[0]");
    // OpenVINO casts the count to uint32: a longer Range has no length it defines.
    r = range(4, 0, int64_t{1} << 62, 1, {{"output_type", "i64"}});
    CHECK(r.str() == "[?]");
    CHECK(r.unknown.has_value());
    r = range(0, 0, 5, 0);
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "'step' is 0"));
    // Range-4 lets a zero step through, and then divides by it.
    r = range(4, 0, 10, 0, {{"output_type", "i32"}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[?]");
    CHECK(has(r.unknown.value_or(""), "zero step"));
    r = range(0, INT64_MIN, INT64_MAX, 1);
    CHECK(r.str() == "[?]");
    CHECK(r.unknown.has_value());
    r = run_op({"Range", 4, {{"output_type", "f32"}}, {I64(""), I64(""), I64("")}, {}});
    CHECK(r.str() == "[?]");
    CHECK(r.outputs[0].type == ElementType::f32);
    r = run_op({"Range", 0, {}, {I64(""), In("", ElementType::i32), I64("")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Range", 0, {}, {I64("2"), I64(""), I64("")}, {}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "'start' input [2] is not a scalar"));
}

namespace {




constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// A Range of three scalar inputs of type t, each known (a Const) unless nullopt: an integer type's values
// come as integers, a floating-point type's as reals. Range-4's output_type is t unless given.
OpRun range_of(int version, ElementType t, std::optional<double> start, std::optional<double> stop,
               std::optional<double> step, std::optional<ElementType> output_type = std::nullopt) {
    OpCase c{"Range", version, {}, {In("", t), In("", t), In("", t)}, {}};
    if (version >= 4) c.attrs = {{"output_type", std::string(element_type_name(output_type.value_or(t)))}};
    Reals reals;
    const std::array<std::optional<double>, 3> known{start, stop, step};
    for (size_t i = 0; i < 3; ++i) {
        if (!known[i]) continue;
        if (is_integer_type(t))
            c.values[i] = V({static_cast<int64_t>(*known[i])});
        else
            reals[i] = {*known[i]};
    }
    return run_op(c, reals);
}

struct RangeCase {
    double start, stop, step;
    int64_t length;
};

// OpenVINO's RangeTest / RangeNumpyTest parameters, and the types each suite runs them on.
constexpr RangeCase kRangeCases[] = {{0, 5, 1, 5},   {0, 22, 2, 11}, {1, 23, 2, 11},
                                     {1, 22, 2, 11}, {0, 0, 1, 0},   {1, 0, 2, 0}};
constexpr RangeCase kRangeNegativeCases[] = {
    {2, 0, -2, 1}, {2, 0, -1, 2}, {-19, 19, 1, 38}, {-19, 19, 3, 13}, {20, -19, 1, 0}};
constexpr RangeCase kRangeFloatingCases[] = {{0, 1, 0.25, 4}, {-1, 1, 0.25, 8}, {-1, 0.875, 0.25, 8}};
constexpr ElementType kAllTypes[] = {i8, i16, i32, i64, u8, u16, u32, u64, bf16, f16, f32, f64};
constexpr ElementType kSignedTypes[] = {i8, i16, i32, i64, bf16, f16, f32, f64};
constexpr ElementType kFloatTypes[] = {bf16, f16, f32, f64};

template <size_t N, size_t M>
void check_range_suite(int version, const RangeCase (&cases)[N], const ElementType (&types)[M]) {
    for (const ElementType t : types)
        for (const RangeCase& c : cases) {
            INFO("Range-" << version << " " << element_type_name(t) << " (" << c.start << ", " << c.stop << ", "
                          << c.step << ")");
            const OpRun r = range_of(version, t, c.start, c.stop, c.step);
            REQUIRE(r.ok());
            CHECK(r.str() == "[" + std::to_string(c.length) + "]");
            CHECK(r.outputs[0].type == t);
            CHECK_FALSE(r.unknown);
        }
}

}  // namespace

TEST_CASE("type_prop Range-0 and Range-4: the typed suites (integer and floating-point bounds)") {
    for (const int version : {0, 4}) {
        check_range_suite(version, kRangeCases, kAllTypes);
        check_range_suite(version, kRangeNegativeCases, kSignedTypes);
        check_range_suite(version, kRangeFloatingCases, kFloatTypes);
    }
}

TEST_CASE("type_prop Range-0: unknown bounds, element types, zero and non-finite bounds") {
    auto r = run_op({"Range", 0, {}, {In("", i32), In("", i32), In("", i32)}, {}});
    CHECK(r.str() == "[?]");
    CHECK(r.outputs[0].type == i32);
    r = run_op({"Range", 0, {}, {In("", i32), In("", std::nullopt), In("", i32)}, {}});
    CHECK(r.str() == "[?]");
    CHECK(r.outputs[0].type == i32);
    r = run_op({"Range", 0, {}, {In("", ElementType::dynamic), In("", std::nullopt), In("", i32)}, {}});
    CHECK(r.outputs[0].type == i32);
    r = run_op({"Range", 0, {}, {In("", std::nullopt), In("", std::nullopt), In("", std::nullopt)}, {}});
    CHECK(r.str() == "[?]");
    CHECK_FALSE(r.outputs[0].type);
    r = run_op({"Range", 0, {}, {In("", std::nullopt), In("", f32), In("", std::nullopt)}, {}});
    CHECK(r.outputs[0].type == f32);
    r = run_op({"Range", 0, {}, {In("", std::nullopt), In("", ElementType::boolean), In("", std::nullopt)}, {}});
    CHECK(has(r.problem(), "boolean"));

    r = range_of(0, i32, 3, std::nullopt, 2);
    REQUIRE(r.ok());
    CHECK(r.str() == "[?]");
    CHECK(range_of(0, i32, 3, std::nullopt, 0).problem() == "'step' is 0");
    CHECK(range_of(0, i32, 3, 5, 0).problem() == "'step' is 0");
    CHECK(range_of(0, f32, 3, 5, 0).problem() == "'step' is 0");
    CHECK(range_of(0, f32, kInfinity, std::nullopt, 1).problem() == "'start' is inf: it cannot be nan or infinite");
    CHECK(range_of(0, f32, -kInfinity, std::nullopt, 1).problem() == "'start' is -inf: it cannot be nan or infinite");
    CHECK(has(range_of(0, f32, kNan, std::nullopt, 1).problem(), "'start' is nan"));
    CHECK(has(range_of(0, f32, std::nullopt, kInfinity, 1).problem(), "'stop' is inf"));
    CHECK(has(range_of(0, f32, std::nullopt, -kInfinity, 1).problem(), "'stop' is -inf"));
    CHECK(has(range_of(0, f32, std::nullopt, kNan, 1).problem(), "'stop' is nan"));
    CHECK(has(range_of(0, f32, 3, std::nullopt, kInfinity).problem(), "'step' is inf"));
    CHECK(has(range_of(0, f32, 3, std::nullopt, -kInfinity).problem(), "'step' is -inf"));
    CHECK(has(range_of(0, f32, 3, std::nullopt, kNan).problem(), "'step' is nan"));
}

TEST_CASE("type_prop Range-4: output_type casts the bounds; element types, shapes and non-finite bounds") {
    CHECK(range_of(4, i32, 0, 500, 5).str() == "[100]");
    CHECK(range_of(4, i32, 0, std::nullopt, 5).str() == "[?]");
    // f32 bounds, i32 output: truncated to 0, 10 and 1 before the count.
    auto r = range_of(4, f32, 0.9, 10.3, 1.7, i32);
    CHECK(r.str() == "[10]");
    CHECK(value_of(r) == "{0,1,2,3,4,5,6,7,8,9}");
    CHECK(range_of(4, f32, 0.9, 10.3, 1.7).str() == "[6]");
    CHECK(range_of(4, f32, 0, 1, 0.5, i32).unknown.has_value());  // the step truncates to 0
    CHECK(range_of(4, f32, 5, 1, 1).str() == "[0]");
    CHECK(range_of(4, f32, 1, 5, -1).str() == "[0]");

    const Attrs to_i32{{"output_type", "i32"}};
    CHECK(has(run_op({"Range", 4, to_i32, {In("", ElementType::boolean), In("", i32), In("", i32)}, {}}).problem(),
              "'start' input is boolean"));
    CHECK(has(
        run_op({"Range", 4, to_i32, {In("", std::nullopt), In("", ElementType::boolean), In("", i32)}, {}}).problem(),
        "'stop' input is boolean"));
    CHECK(has(
        run_op({"Range", 4, to_i32, {In("", i32), In("", std::nullopt), In("", ElementType::boolean)}, {}}).problem(),
        "'step' input is boolean"));
    r = run_op({"Range", 4, {{"output_type", "boolean"}}, {In("1", f16), In("", f16), In("", f16)}, {}});
    REQUIRE(!r.ok());
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
    const Attrs to_f32{{"output_type", "f32"}};
    CHECK(run_op({"Range", 4, to_f32, {In("1"), In(""), In("")}, {}}).problem() == "'start' input [1] is not a scalar");
    CHECK(run_op({"Range", 4, to_f32, {In(""), In("?"), In("")}, {}}).problem() == "'stop' input [?] is not a scalar");
    CHECK(run_op({"Range", 4, to_f32, {In(""), In(""), In("?,?")}, {}}).problem() ==
          "'step' input [?,?] is not a scalar");

    CHECK(has(range_of(4, f32, kInfinity, std::nullopt, 1).problem(), "'start' is inf"));
    CHECK(has(range_of(4, f32, std::nullopt, kInfinity, 1).problem(), "'stop' is inf"));
    CHECK(has(range_of(4, f32, 3, std::nullopt, kInfinity).problem(), "'step' is inf"));
    CHECK(has(range_of(4, f32, -kInfinity, std::nullopt, 1).problem(), "'start' is -inf"));
    CHECK(has(range_of(4, f32, std::nullopt, -kInfinity, 1).problem(), "'stop' is -inf"));
    CHECK(has(range_of(4, f32, 3, std::nullopt, -kInfinity).problem(), "'step' is -inf"));
    CHECK(has(range_of(4, f32, kNan, std::nullopt, 1).problem(), "'start' is nan"));
    CHECK(has(range_of(4, f32, std::nullopt, kNan, 1).problem(), "'stop' is nan"));
    CHECK(has(range_of(4, f32, 1, std::nullopt, kNan).problem(), "'step' is nan"));
}

TEST_CASE("type_prop Range: Range(0, n, 1) of an unknown n takes n's symbol") {
    TensorValue n{{0, kU}};
    n[0].symbol = 7;
    auto r = run_op({"Range", 0, {}, {I64(""), I64(""), I64("")}, {{0, V({0})}, {1, n}, {2, V({1})}}});
    CHECK(r.str() == "[?]");
    CHECK(r.shape().dims[0].symbol() == 7);
    r = run_op({"Range", 0, {}, {I64(""), I64(""), I64("")}, {{0, V({1})}, {1, n}, {2, V({1})}}});
    CHECK(r.shape().dims[0].symbol() == 0);
}

TEST_CASE("ops-b1 Range: a float Range of integer start and step carries its values where the type holds them") {
    // Range(0.0, float(n), 2.0) with n = 7 (an integer carried through Convert): 0,2,4,6 in f32.
    const auto f32 = ElementType::f32;
    auto r = run_op({"Range", 4, {{"output_type", "f32"}}, {In("", f32), In("", f32), In("", f32)}, {{1, V({7})}}},
                    {{0, {0.0}}, {2, {2.0}}});
    CHECK(r.str() == "[4]");
    CHECK(value_of(r) == "{0,2,4,6}");
    // A fractional step gives no integers; f16 holds integers up to 2048 only.
    r = run_op({"Range", 4, {{"output_type", "f32"}}, {In("", f32), In("", f32), In("", f32)}, {}},
               {{0, {0.0}}, {1, {2.0}}, {2, {0.5}}});
    CHECK(r.str() == "[4]");
    CHECK(value_of(r) == "<none>");
    r = run_op({"Range", 4, {{"output_type", "f16"}}, {In("", f32), In("", f32), In("", f32)}, {}},
               {{0, {2047.0}}, {1, {2050.0}}, {2, {1.0}}});
    CHECK(r.str() == "[3]");
    CHECK(value_of(r) == "<none>");
}

// ---------------------------------------------------------------------------------------------- Broadcast, Tile

TEST_CASE("ops-b1 Broadcast: numpy, bidirectional, explicit, pdpd") {
    auto r = run_op({"Broadcast", 3, {{"mode", "numpy"}}, {In("16,1,1"), I64("4")}, {{1, V({1, 16, 50, 50})}}});
    CHECK(r.str() == "[1,16,50,50]");
    r = run_op({"Broadcast", 1, {}, {In("3"), I64("2")}, {{1, V({2, 4})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "1 or 4"));
    r = run_op({"Broadcast", 3, {{"mode", "bidirectional"}}, {In("16,1,8"), I64("4")}, {{1, V({1, 16, 50, 1})}}});
    CHECK(r.str() == "[1,16,50,8]");
    r = run_op({"Broadcast", 1, {{"mode", "explicit"}}, {In("16"), I64("3"), I64("1")},
                {{1, V({2, 16, 50})}, {2, V({1})}}});
    CHECK(r.str() == "[2,16,50]");
    r = run_op({"Broadcast", 1, {{"mode", "explicit"}}, {In("16"), I64("3"), I64("1")},
                {{1, V({2, 15, 50})}, {2, V({1})}}});
    REQUIRE(!r.ok());
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {In("16"), I64("3")}, {{1, V({2, 16, 50})}}});
    REQUIRE(!r.ok());
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {In(""), I64("3"), I64("1")}, {{1, V({2, 16, 50})}, {2, V({1})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "is 16"));
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {In(""), I64("3"), I64("1")}, {{1, V({2, 1, 50})}, {2, V({1})}}});
    CHECK(r.str() == "[2,1,50]");
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {In("16,3"), I64("3"), I64("2")},
                {{1, V({2, 16, 3})}, {2, V({2, 1})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "not sorted"));
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {In("16,3"), I64("3"), I64("1")}, {{1, V({2, 16, 3})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "does not match the data rank 2"));
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {In("16,3"), I64("3"), I64("1")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {In("16,3"), I64("3"), I64("2")}, {}});
    CHECK(r.str() == "[?,?,?]");
    r = run_op({"Broadcast", 3, {{"mode", "pdpd"}}, {In("..."), I64("3")}, {{1, V({2, 3, 4})}}});
    CHECK(r.str() == "[?,?,?]");
    r = run_op({"Broadcast", 1, {{"mode", "pdpd"}}, {In("3,1"), I64("3")}, {{1, V({2, 3, 4})}}});
    CHECK(r.str() == "[2,3,4]");
    r = run_op({"Broadcast", 3, {{"mode", "sideways"}}, {In("3,1"), I64("3")}, {{1, V({2, 3, 4})}}});
    REQUIRE(!r.ok());
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
}

TEST_CASE("ops-b1 Broadcast: OpenVINO's bidirectional intervals and rank checks") {
    auto r = run_op({"Broadcast", 3, {{"mode", "bidirectional"}}, {In("?,2,1,4..8,?,4..8,?,1..8,1..10,4..18"), I64("10")},
                     {{1, B({{0, kU}, {2, 2}, {3, 9}, {1, 1}, {3, 9}, {0, kU}, {1, 9}, {0, kU}, {3, 19}, {1, 10}})}}});
    CHECK(r.str() == "[?,2,3..9,4..8,3..9,4..8,?,?,3..19,4..18]");
    r = run_op({"Broadcast", 3, {{"mode", "bidirectional"}}, {In("5,2,3,1"), I64("3")}, {{1, V({1, 3, 6})}}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[5,2,3,6]");
    r = run_op({"Broadcast", 3, {{"mode", "bidirectional"}}, {In("5,2,3,1"), I64("3")}, {{1, V({4, 3, 6})}}});
    REQUIRE(!r.ok());
    r = run_op({"Broadcast", 3, {}, {In("5,2,3,1"), I64("3")}, {{1, V({4, 3, 6})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "smaller rank (3) than the data [5,2,3,1] (4)"));
    r = run_op({"Broadcast", 3, {}, {In("3,?"), I64("3")}, {{1, V({2, 3, 5})}}});
    CHECK(r.str() == "[2,3,5]");
    r = run_op({"Broadcast", 3, {}, {In("3"), I64("2,2")}, {{1, V({2, 3})}}});
    REQUIRE(!r.ok());
    r = run_op({"Broadcast", 3, {}, {In("3"), In("2", ElementType::f32)}, {{1, V({2, 3})}}});
    REQUIRE(!r.ok());
}

TEST_CASE("ops-b1 Broadcast: unknown and bounded targets, values") {
    auto r = run_op({"Broadcast", 3, {}, {In("16,1"), I64("4")}, {}});
    CHECK(r.str() == "[?,?,?,?]");
    CHECK(r.unknown.has_value());
    r = run_op({"Broadcast", 3, {{"mode", "bidirectional"}}, {In("16,1"), I64("3")}, {}});
    CHECK(r.str() == "[?,16,?]");
    r = run_op({"Broadcast", 3, {}, {In("1"), I64("2")}, {{1, B({{1, 1}, {2, 8}})}}});
    CHECK(r.str() == "[1,2..8]");
    r = run_op({"Broadcast", 3, {}, {I64(""), I64("1")}, {{0, V({0})}, {1, V({3})}}});
    CHECK(r.str() == "[3]");
    CHECK(value_of(r) == "{0,0,0}");
    r = run_op({"Broadcast", 3, {}, {I64("2,1"), I64("2")}, {{0, V({1, 2})}, {1, V({2, 3})}}});
    CHECK(r.str() == "[2,3]");
    CHECK(value_of(r) == "{1,1,1,2,2,2}");
    r = run_op({"Broadcast", 3, {{"mode", "bidirectional"}}, {I64("3"), I64("2")}, {{0, B({{1, 1}, {2, 4}, {3, 3}})}, {1, V({2, 1})}}});
    CHECK(r.str() == "[2,3]");
    CHECK(value_of(r) == "{1,2..4,3,1,2..4,3}");
    r = run_op({"Broadcast", 3, {{"mode", "explicit"}}, {I64("2"), I64("2"), I64("1")},
                {{0, V({1, 2})}, {1, V({2, 3})}, {2, V({0})}}});
    CHECK(r.str() == "[2,3]");
    CHECK(value_of(r) == "<none>");
}

TEST_CASE("type_prop Broadcast-1/3 explicit: axes_mapping of an integer type") {
    const Attrs explicit_mode{{"mode", "explicit"}};
    for (const int v : {1, 3}) {
        INFO("Broadcast-" << v);
        auto r = run_op({"Broadcast", v, explicit_mode, {In("2,4"), I64("1"), In("2", f32)}, {}});
        CHECK(r.problem() == "axes_mapping is f32; it must be an integer type");
        CHECK(r.problems[0].kind == OpProblem::Kind::input);
        CHECK(run_op({"Broadcast", v, explicit_mode, {In("2,4"), In("1", f32), I64("2")}, {}}).problem() ==
              "the target shape input is f32; it must be an integer type");
        r = run_op(
            {"Broadcast", v, explicit_mode, {In("16"), I64("3"), In("1", i32)}, {{1, V({2, 16, 50})}, {2, V({1})}}});
        REQUIRE(r.ok());
        CHECK(r.str() == "[2,16,50]");
    }
    // Numpy Broadcast-1 does not read a third input.
    CHECK(run_op({"Broadcast", 1, {{"mode", "numpy"}}, {In("3,1"), I64("2"), In("", f32)}, {{1, V({3, 4})}}}).str() ==
          "[3,4]");
}

TEST_CASE("ops-b1 Tile: repeats pad either side; unknown repeats") {
    auto r = run_op({"Tile", 0, {}, {In("2,3"), I64("3")}, {{1, V({2, 1, 3})}}});
    CHECK(r.str() == "[2,2,9]");
    r = run_op({"Tile", 0, {}, {In("6,8,10"), I64("2")}, {{1, V({3, 1})}}});
    CHECK(r.str() == "[6,24,10]");
    r = run_op({"Tile", 0, {}, {In("2..3,?"), I64("2")}, {{1, V({2, 2})}}});
    CHECK(r.str() == "[4..6,?]");
    r = run_op({"Tile", 0, {}, {In("2,3"), I64("2")}, {{1, V({-1, 2})}}});
    CHECK(r.str() == "[0,6]");
    r = run_op({"Tile", 0, {}, {In("2,3"), I64("3")}, {}});
    CHECK(r.str() == "[?,?,?]");
    r = run_op({"Tile", 0, {}, {In("2,3"), I64("2")}, {{1, V({1000000, 1000000})}}});
    CHECK(r.str() == "[2000000,3000000]");
    r = run_op({"Tile", 0, {}, {In("2,3"), I64("1,2")}, {{1, V({1, 1})}}});
    REQUIRE(!r.ok());
}

// ---------------------------------------------------------------------------------------------- DepthToSpace, SpaceToDepth, ShuffleChannels

TEST_CASE("ops-b1 DepthToSpace and SpaceToDepth") {
    auto r = run_op({"DepthToSpace", 0, {{"mode", "blocks_first"}, {"block_size", "2"}}, {In("1,128,8,8")}, {}});
    CHECK(r.str() == "[1,32,16,16]");
    r = run_op({"DepthToSpace", 0, {{"mode", "depth_first"}, {"block_size", "2"}}, {In("1,16,2,3,4")}, {}});
    CHECK(r.str() == "[1,2,4,6,8]");
    r = run_op({"DepthToSpace", 0, {{"mode", "depth_first"}, {"block_size", "2"}}, {In("?,16..64,2..4,?")}, {}});
    CHECK(r.str() == "[?,4..16,4..8,?]");
    r = run_op({"DepthToSpace", 0, {{"mode", "blocks_first"}, {"block_size", "2"}}, {In("1,7,2,2")}, {}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "channels 7"));
    r = run_op({"DepthToSpace", 0, {{"mode", "blocks_first"}, {"block_size", "2"}}, {In("4,8")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"DepthToSpace", 0, {{"mode", "sideways"}, {"block_size", "2"}}, {In("1,8,2,2")}, {}});
    REQUIRE(!r.ok());
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
    r = run_op({"SpaceToDepth", 0, {{"mode", "blocks_first"}, {"block_size", "2"}}, {In("1,32,16,16")}, {}});
    CHECK(r.str() == "[1,128,8,8]");
    r = run_op({"SpaceToDepth", 0, {{"mode", "depth_first"}, {"block_size", "2"}}, {In("1,2,5,6")}, {}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "dim 2 (5)"));
    r = run_op({"SpaceToDepth", 0, {{"mode", "depth_first"}, {"block_size", "0"}}, {In("1,2,4,6")}, {}});
    REQUIRE(!r.ok());
}

TEST_CASE("ops-b1 ShuffleChannels") {
    auto r = run_op({"ShuffleChannels", 0, {{"axis", "1"}, {"group", "5"}}, {In("1,15,2,2")}, {}});
    CHECK(r.str() == "[1,15,2,2]");
    r = run_op({"ShuffleChannels", 0, {{"axis", "-3"}, {"group", "4"}}, {In("1,15,2,2")}, {}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "not a multiple of group 4"));
    r = run_op({"ShuffleChannels", 0, {{"axis", "4"}, {"group", "1"}}, {In("1,15,2,2")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"ShuffleChannels", 0, {{"group", "0"}}, {In("1,15,2,2")}, {}});
    REQUIRE(!r.ok());
}

// ---------------------------------------------------------------------------------------------- BatchToSpace, SpaceToBatch

TEST_CASE("ops-b1 BatchToSpace and SpaceToBatch") {
    auto r = run_op({"BatchToSpace", 1, {}, {In("100,7,13,3"), I64("4"), I64("4"), I64("4")},
                     {{1, V({1, 10, 5, 1})}, {2, V({0, 3, 1, 0})}, {3, V({0, 3, 0, 0})}}});
    CHECK(r.str() == "[2,64,64,3]");
    r = run_op({"BatchToSpace", 1, {}, {In("10,7,13,3"), I64("4"), I64("4"), I64("4")},
                {{1, V({1, 10, 5, 1})}, {2, V({0, 3, 1, 0})}, {3, V({0, 3, 0, 0})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "batch 10"));
    r = run_op({"BatchToSpace", 1, {}, {In("100,7,13,3"), I64("4"), I64("4"), I64("4")}, {}});
    CHECK(r.str() == "[?,?,?,?]");
    CHECK(r.unknown.has_value());
    // Known crops with an unknown block: each spatial dim is at least dim - crops.
    r = run_op({"BatchToSpace", 1, {}, {In("100,7,13,3"), I64("4"), I64("4"), I64("4")},
                {{2, V({0, 3, 1, 0})}, {3, V({0, 3, 0, 0})}}});
    CHECK(r.str() == "[?,1..,12..,3..]");
    r = run_op({"BatchToSpace", 1, {}, {In("100,7,13,3"), I64("4"), I64("4"), I64("4")}, {{1, V({1, 10, 5, 1})}}});
    CHECK(r.str() == "[2,?,?,?]");
    r = run_op({"BatchToSpace", 1, {}, {In("80..120,7,13,3"), I64("4"), I64("4"), I64("4")}, {{1, V({1, 10, 5, 1})}}});
    CHECK(r.str() == "[2,?,?,?]");
    r = run_op({"BatchToSpace", 1, {}, {In("101..149,7,13,3"), I64("4"), I64("4"), I64("4")}, {{1, V({1, 10, 5, 1})}}});
    REQUIRE(!r.ok());
    r = run_op({"BatchToSpace", 1, {}, {In("100,7,13,3"), I64("4"), I64("4"), I64("4")},
                {{1, V({1, 10, 5, 1})}, {2, V({0, 3, 1, 0})}, {3, V({0, 68, 0, 0})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "3 + 68 exceed"));
    r = run_op({"BatchToSpace", 1, {}, {In("100,7,13,3"), I64("3"), I64("4"), I64("4")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"SpaceToBatch", 1, {}, {In("2,100,1024,3"), I64("4"), I64("4"), I64("4")},
                {{1, V({1, 12, 100, 2})}, {2, V({0, 3, 38, 1})}, {3, V({0, 5, 38, 0})}}});
    CHECK(r.str() == "[4800,9,11,2]");
    r = run_op({"SpaceToBatch", 1, {}, {In("2,100,1024,3"), I64("4"), I64("4"), I64("4")},
                {{1, V({1, 12, 100, 2})}, {2, V({0, 3, 38, 1})}, {3, V({0, 4, 38, 0})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "padded dim 1 (107)"));
    r = run_op({"SpaceToBatch", 1, {}, {In("2,?,1024,3"), I64("4"), I64("4"), I64("4")},
                {{1, V({1, 12, 100, 2})}, {2, V({0, 3, 38, 1})}, {3, V({0, 5, 38, 0})}}});
    CHECK(r.str() == "[4800,1..,11,2]");
}

// ---------------------------------------------------------------------------------------------- Roll, Reverse

TEST_CASE("ops-b1 Roll and Reverse keep the data shape and check their axes") {
    auto r = run_op({"Roll", 7, {}, {In("3,4,?"), I64("2"), I64("2")}, {{2, V({0, -1})}}});
    CHECK(r.str() == "[3,4,?]");
    r = run_op({"Roll", 7, {}, {In("3,4"), I64("2"), I64("2")}, {{2, V({0, 2})}}});
    REQUIRE(!r.ok());
    r = run_op({"Roll", 7, {}, {In("3,4"), In("1", ElementType::f32), I64("1")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Roll", 7, {}, {In("3,4"), I64("2"), I64("3")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Roll", 7, {}, {In("3,4"), I64("1"), I64("")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Roll", 7, {}, {In("3,4"), I64(""), I64("2")}, {{2, V({0, 1})}}});
    CHECK(r.str() == "[3,4]");
    r = run_op({"Reverse", 1, {{"mode", "index"}}, {In("2,3"), I64("1")}, {{1, V({1})}}});
    CHECK(r.str() == "[2,3]");
    r = run_op({"Reverse", 1, {{"mode", "index"}}, {In("2,3"), I64("1")}, {{1, V({2})}}});
    REQUIRE(!r.ok());
    CHECK(has(r.problem(), "beyond the data rank 2"));
    r = run_op({"Reverse", 1, {{"mode", "index"}}, {In("2,3"), I64("1")}, {{1, V({-5})}}});
    CHECK(r.ok());
    r = run_op({"Reverse", 1, {{"mode", "mask"}}, {In("2,3"), In("2", ElementType::boolean)}, {}});
    CHECK(r.str() == "[2,3]");
    r = run_op({"Reverse", 1, {{"mode", "mask"}}, {In("2,3"), I64("2")}, {}});
    REQUIRE(!r.ok());
    r = run_op({"Reverse", 1, {{"mode", "mask"}}, {In("2,3"), In("3", ElementType::boolean)}, {}});
    REQUIRE(!r.ok());
}

TEST_CASE("ops-b1 every opset version of the family is registered") {
    for (const auto& [type, version] : std::vector<std::pair<std::string, int>>{
             {"ShapeOf", 0}, {"ShapeOf", 3}, {"Reshape", 1}, {"Squeeze", 0}, {"Squeeze", 15}, {"Unsqueeze", 0},
             {"Transpose", 1}, {"Concat", 0}, {"Split", 1}, {"VariadicSplit", 1}, {"Range", 0}, {"Range", 4},
             {"Broadcast", 1}, {"Broadcast", 3}, {"Tile", 0}, {"DepthToSpace", 0}, {"SpaceToDepth", 0},
             {"ShuffleChannels", 0}, {"BatchToSpace", 1}, {"SpaceToBatch", 1}, {"Roll", 7}, {"Reverse", 1}})
        CHECK(static_cast<bool>(entry_of(type, version).infer));
    const auto shape_of = find_op("shapeof", 2);
    REQUIRE(shape_of);
    REQUIRE(shape_of->entry);
    CHECK(shape_of->entry->version == 0);
    const auto squeeze = find_op("Squeeze", 16);
    REQUIRE(squeeze);
    REQUIRE(squeeze->entry);
    CHECK(squeeze->entry->version == 15);
}

// ---- Invariants when the value is unknown: what the declared outputs must keep whatever it is.

TEST_CASE("invariants Reshape: the element count") {
    const auto r = run_op({"Reshape", 1, {{"special_zero", "false"}}, {In("1,255,80,80"), In("4", ElementType::i64)}, {}});
    REQUIRE(r.unknown.has_value());
    CHECK(r.broken({"1,3,85,6400"}).empty());
    CHECK(r.broken({"?,3,85,6401"}).empty());  // a dynamic declared dim may be anything
    CHECK(r.broken({"1,3,85,6401"}) ==
          "output 0: Reshape keeps 1x255x80x80 = 1632000 elements, declared [1,3,85,6401] has 1632255");
    const auto zero = run_op({"Reshape", 1, {{"special_zero", "true"}}, {In("0,4"), In("3", ElementType::i64)}, {}});
    CHECK(zero.broken({"2,0,8"}).empty());
    CHECK(zero.broken({"2,1,8"}) == "output 0: Reshape keeps 0x4 = 0 elements, declared [2,1,8] has 16");
}

TEST_CASE("invariants AdaptiveAvgPool/AdaptiveMaxPool: the batch, the channels and the rank, whatever output_size") {
    const auto avg = run_op({"AdaptiveAvgPool", 8, {}, {In("1,64,20,20"), In("2", ElementType::i64)}, {}});
    REQUIRE(avg.unknown.has_value());
    CHECK(avg.invariants.size() == 1);
    CHECK(avg.str() == "[1,64,?,?]");  // the inferred bounds are what the engine compares
    const auto max = run_op({"AdaptiveMaxPool", 8, {}, {In("2,8,9,9,9"), In("3", ElementType::i64)}, {}});
    REQUIRE(max.unknown.has_value());
    CHECK(max.invariants.size() == 1);
    CHECK(max.str() == "[2,8,?,?,?]");
}

TEST_CASE("invariants Transpose: a permutation of the input dims") {
    const auto r = run_op({"Transpose", 1, {}, {In("1,3,80,80"), In("4", ElementType::i64)}, {}});
    REQUIRE(r.unknown.has_value());
    CHECK(r.broken({"80,1,80,3"}).empty());
    CHECK(r.broken({"1,80,81,3"}) ==
          "output 0: Transpose orders the dims of [1,3,80,80], declared [1,80,81,3] is no order of them");
    CHECK(r.broken({"80,80,80,3"}) ==
          "output 0: Transpose orders the dims of [1,3,80,80], declared [80,80,80,3] is no order of them");
    // Dynamic input dims may be any declared dim, but each only one.
    const auto d = run_op({"Transpose", 1, {}, {In("1,?,?,3"), In("4", ElementType::i64)}, {}});
    CHECK(d.broken({"1,3,224,224"}).empty());
    CHECK(d.broken({"1,3,2..5,?"}).empty());
    CHECK(d.broken({"1,4,224,224"}) ==
          "output 0: Transpose orders the dims of [1,?,?,3], declared [1,4,224,224] is no order of them");
    CHECK(d.broken({"3,3,224,1"}).empty());
    CHECK(d.broken({"1,1,4,5"}) ==
          "output 0: Transpose orders the dims of [1,?,?,3], declared [1,1,4,5] is no order of them");
}

TEST_CASE("invariants Unsqueeze and Squeeze: the other dims in order") {
    const auto u = run_op({"Unsqueeze", 0, {}, {In("3,4"), In("2", ElementType::i64)}, {}});
    REQUIRE(u.unknown.has_value());
    CHECK(u.broken({"1,3,1,4"}).empty());
    CHECK(u.broken({"3,1,4"}).empty());  // duplicate axes insert one dim
    CHECK(u.broken({"1,3,4,2"}) == "output 0: Unsqueeze inserts 1 to 2 dims of 1 into [3,4], declared [1,3,4,2] is not that");
    CHECK(u.broken({"1,1,3,1,4"}) ==
          "output 0: Unsqueeze inserts 1 to 2 dims of 1 into [3,4], declared [1,1,3,1,4] is not that");
    const auto s = run_op({"Squeeze", 0, {}, {In("1,3,1,4"), In("1", ElementType::i64)}, {}});
    REQUIRE(s.unknown.has_value());
    CHECK(s.broken({"3,1,4"}).empty());
    CHECK(s.broken({"1,3,4"}).empty());
    CHECK(s.broken({"1,4,4"}) ==
          "output 0: Squeeze keeps the dims of [1,3,1,4] in order, leaving out dims of 1; declared [1,4,4] is not that");
}

TEST_CASE("invariants Broadcast and Tile: the input's dims kept or repeated, aligned right") {
    const auto b = run_op({"Broadcast", 3, {{"mode", "numpy"}}, {In("92,1"), In("2", ElementType::i64)}, {}});
    REQUIRE(b.unknown.has_value());
    CHECK(b.broken({"92,124"}).empty());
    CHECK(b.broken({"93,124"}) ==
          "output 0: Broadcast keeps each dim of [92,1] other than 1, aligned right; declared [93,124] does not");
    const auto bi = run_op({"Broadcast", 3, {{"mode", "bidirectional"}}, {In("4,1"), In("3", ElementType::i64)}, {}});
    CHECK(bi.broken({"2,4,7"}).empty());
    CHECK(bi.broken({"2,5,7"}) ==
          "output 0: Broadcast keeps each dim of [4,1] other than 1, aligned right; declared [2,5,7] does not");
    const auto t = run_op({"Tile", 0, {}, {In("46,3"), In("2", ElementType::i64)}, {}});
    REQUIRE(t.unknown.has_value());
    CHECK(t.broken({"46,6"}).empty());
    CHECK(t.broken({"0,3"}).empty());  // a repeat of 0 (or less)
    CHECK(t.broken({"46,7"}) == "output 0: Tile repeats each dim of [46,3], aligned right; declared [46,7] has a dim "
                                "that is not a multiple of its input's");
}

TEST_CASE("invariants Split and VariadicSplit: the parts add up along the axis") {
    const auto s = run_op({"Split", 1, {{"num_splits", "3"}}, {In("1,21,3"), In("", ElementType::i64)}, {}});
    REQUIRE(s.unknown.has_value());
    CHECK(s.broken({"1,21,1", "1,21,1", "1,21,1"}).empty());
    CHECK(s.broken({"1,7,3", "1,7,3", "1,7,3"}).empty());
    CHECK(s.broken({"1,7,3", "1,7,3", "1,8,3"}) ==
          "output 0: Split splits one dim of [1,21,3] into 3 parts and keeps the others; the declared outputs split none");
    const auto v = run_op({"VariadicSplit", 1, {}, {In("1,10,4"), In("", ElementType::i64), In("2", ElementType::i64)},
                           {{1, V({1})}}});
    REQUIRE(v.unknown.has_value());
    CHECK(v.broken({"1,3,4", "1,7,4"}).empty());
    CHECK(v.broken({"1,3,4", "1,8,4"}) ==
          "output 0: VariadicSplit splits dim 1 of [1,10,4] into parts that add up to 10; the declared parts add up to 11");
    CHECK(v.broken({"1,3,4", "1,7,5"}) ==
          "output 1: VariadicSplit keeps the dims of [1,10,4] but dim 1; declared [1,7,5] has 5 at dim 2");
    // The axis unknown too (no .bin): the parts still split one dim and keep the others.
    const auto w = run_op({"VariadicSplit", 1, {}, {In("1,32,160,160"), In("", ElementType::i64),
                                                  In("2", ElementType::i64)}, {}});
    REQUIRE(w.unknown.has_value());
    CHECK(w.broken({"1,16,160,160", "1,16,160,160"}).empty());
    CHECK(w.broken({"1,16,160,160", "1,17,160,160"}) ==
          "output 0: VariadicSplit splits one dim of [1,32,160,160] into 2 parts and keeps the others; the declared "
          "outputs split none");
}
