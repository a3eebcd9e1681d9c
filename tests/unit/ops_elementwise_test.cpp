// The elementwise family (ops/elementwise_*.cpp): cases after OpenVINO's type_prop tests.

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/half.hpp"
#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {







OpRun R(const std::string& type, int version, Attrs attrs, std::vector<OpInput> inputs,
        std::map<size_t, TensorValue> values = {}) {
    OpCase c;
    c.type = type;
    c.version = version;
    c.attrs = std::move(attrs);
    c.inputs = std::move(inputs);
    c.values = std::move(values);
    return run_op(c);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The value of output 0 as "lo..hi" items (exact values as one number).
std::string value_str(const OpRun& r) {
    if (r.outputs.empty() || !r.outputs[0].value) return "<none>";
    std::string out;
    for (const ValueBounds& b : *r.outputs[0].value) {
        if (!out.empty()) out += ",";
        out += b.exact() ? std::to_string(b.lo)
                         : std::to_string(b.lo) + ".." +
                               (b.hi == ValueBounds::kUnbounded ? std::string("inf") : std::to_string(b.hi));
    }
    return out;
}

}  // namespace

// ---------------------------------------------------------------- unary

TEST_CASE("ops-a: every plain unary op keeps its input's shape and type") {
    const std::vector<std::pair<std::string, int>> ops = {
        {"Abs", 0},      {"Acos", 0}, {"Acosh", 3},    {"Asin", 0},     {"Asinh", 3},    {"Atan", 0},   {"Atanh", 3},
        {"Ceiling", 0},  {"Cos", 0},  {"Cosh", 0},     {"Erf", 0},      {"Exp", 0},      {"Floor", 0},  {"Log", 0},
        {"Negative", 0}, {"ReLU", 0}, {"Sigmoid", 0},  {"Sign", 0},     {"Sin", 0},      {"Sinh", 0},   {"Sqrt", 0},
        {"Tan", 0},      {"Tanh", 0}, {"SoftPlus", 4}, {"SoftSign", 9}, {"Mish", 4},     {"HSwish", 4}, {"HSigmoid", 5},
        {"Swish", 4},    {"Gelu", 0}, {"Gelu", 7},     {"PRelu", 0},    {"IsFinite", 10}};
    for (const auto& op : ops) {
        const std::string& type = op.first;
        const int version = op.second;
        CAPTURE(type);
        std::vector<OpInput> inputs{In("1,3,?,2..5")};
        if (type == "PRelu") inputs.push_back(In("3"));
        const auto r = R(type, version, {}, inputs);
        REQUIRE(r.ok());
        CHECK(r.str() == "[1,3,?,2..5]");
        CHECK(r.outputs[0].type == (type == "IsFinite" ? boolean : f32));
    }
    const auto dyn = R("Exp", 0, {}, {In("...")});
    CHECK(dyn.str() == "[...]");
}

TEST_CASE("ops-a: unary arithmetic refuses boolean, float-only ops refuse integers") {
    const auto abs = R("Abs", 0, {}, {In("2,3", boolean)});
    CHECK(abs.problem() == "input 0 has element type boolean; Abs takes neither boolean nor string");
    CHECK_FALSE(R("HSwish", 4, {}, {In("2", ElementType::string)}).ok());
    CHECK(R("HSwish", 4, {}, {In("2", i32)}).ok());
    CHECK(R("Elu", 0, {{"alpha", "1"}}, {In("2", boolean)}).ok());
    CHECK(R("Round", 5, {{"mode", "half_to_even"}}, {In("2", boolean)}).ok());
    const auto softplus = R("SoftPlus", 4, {}, {In("2,3", i32)});
    CHECK(contains(softplus.problem(), "i32"));
    CHECK(contains(softplus.problem(), "floating-point"));
    const auto gelu = R("Gelu", 7, {}, {In("2", i64)});
    CHECK_FALSE(gelu.ok());
    const auto neg = R("Negative", 0, {}, {In("2", i32)});
    CHECK(neg.ok());
    CHECK(neg.outputs[0].type == i32);
    const auto unknown = R("Sqrt", 0, {}, {In("2", std::nullopt)});
    REQUIRE(unknown.ok());
    CHECK_FALSE(unknown.outputs[0].type.has_value());
}

TEST_CASE("ops-a: Clamp needs min <= max and a numeric type") {
    const auto ok = R("Clamp", 0, {{"min", "-1"}, {"max", "6"}}, {In("1,?,4", i32)});
    REQUIRE(ok.ok());
    CHECK(ok.str() == "[1,?,4]");
    const auto bad = R("Clamp", 0, {{"min", "6"}, {"max", "1"}}, {In("1,2")});
    CHECK(bad.problem() == "min 6 is greater than max 1");
    CHECK(bad.problems[0].kind == OpProblem::Kind::attribute);
    CHECK_FALSE(R("Clamp", 0, {{"min", "0"}, {"max", "1"}}, {In("1", boolean)}).ok());
    CHECK_FALSE(R("Clamp", 0, {{"min", "0"}}, {In("1")}).ok());
}

TEST_CASE("ops-a: Elu, Gelu, Round attributes") {
    CHECK(R("Elu", 0, {{"alpha", "1.0"}}, {In("2,3")}).str() == "[2,3]");
    CHECK(contains(R("Elu", 0, {}, {In("2,3")}).problem(), "alpha"));
    CHECK(R("Gelu", 7, {{"approximation_mode", "TANH"}}, {In("2")}).ok());
    CHECK(contains(R("Gelu", 7, {{"approximation_mode", "fast"}}, {In("2")}).problem(), "erf, tanh"));
    CHECK(R("Round", 5, {{"mode", "half_to_even"}}, {In("4")}).str() == "[4]");
    CHECK(contains(R("Round", 5, {{"mode", "up"}}, {In("4")}).problem(), "half_away_from_zero"));
}

TEST_CASE("ops-a: Swish beta, Selu and HardSigmoid types and ranks") {
    CHECK(R("Swish", 4, {}, {In("1,2..4"), In("")}).str() == "[1,2..4]");
    CHECK(contains(R("Swish", 4, {}, {In("1,4"), In("1")}).problem(), "rank 1"));
    CHECK(contains(R("Swish", 4, {}, {In("1,4"), In("", ElementType::f16)}).problem(), "f16"));
    CHECK(R("Selu", 0, {}, {In("2,?"), In("1"), In("1")}).str() == "[2,?]");
    CHECK(contains(R("Selu", 0, {}, {In("2"), In("1", i32), In("1")}).problem(), "f32, i32 and f32"));
    CHECK_FALSE(R("Selu", 0, {}, {In("2", i32), In("1", i32), In("1", i32)}).ok());
    CHECK(R("HardSigmoid", 0, {}, {In("2,5"), In(""), In("")}).str() == "[2,5]");
    CHECK(contains(R("HardSigmoid", 0, {}, {In("2,5"), In("2"), In("")}).problem(), "alpha must be a scalar"));
    CHECK(R("HardSigmoid", 0, {}, {In("2,5"), In("?"), In("...")}).ok());
    CHECK(contains(R("HardSigmoid", 0, {}, {In("2,5"), In(""), In("", i32)}).problem(), "beta type i32"));
}

TEST_CASE("ops-a: IsNaN, IsInf give booleans of floating-point inputs") {
    const auto nan = R("IsNaN", 10, {}, {In("2,?")});
    CHECK(nan.str() == "[2,?]");
    CHECK(nan.outputs[0].type == boolean);
    const auto inf = R("IsInf", 10, {{"detect_negative", "false"}}, {In("3")});
    CHECK(inf.outputs[0].type == boolean);
    CHECK_FALSE(R("IsInf", 10, {}, {In("3", i32)}).ok());
}

TEST_CASE("ops-a: LogicalNot and BitwiseNot element types") {
    const auto lnot = R("LogicalNot", 1, {}, {In("2,3", boolean)});
    CHECK(lnot.outputs[0].type == boolean);
    // OpenVINO keeps LogicalNot's input type, boolean or not, for backward compatibility.
    CHECK(R("LogicalNot", 1, {}, {In("2")}).outputs[0].type == f32);
    CHECK(R("BitwiseNot", 13, {}, {In("5", ElementType::u8)}).outputs[0].type == ElementType::u8);
    CHECK(R("BitwiseNot", 13, {}, {In("5", boolean)}).ok());
    CHECK(contains(R("BitwiseNot", 13, {}, {In("5")}).problem(), "integer or boolean"));
}

TEST_CASE("ops-a: Convert gives destination_type and passes integer values that fit") {
    const auto r = R("Convert", 0, {{"destination_type", "i32"}}, {In("3", i64)}, {{0, V({1, -2, 300})}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[3]");
    CHECK(r.outputs[0].type == i32);
    CHECK(value_str(r) == "1,-2,300");
    const auto narrow = R("Convert", 0, {{"destination_type", "u8"}}, {In("3", i64)}, {{0, V({1, -2, 300})}});
    CHECK(value_str(narrow) == "<none>");
    const auto bounded = R("Convert", 0, {{"destination_type", "i64"}}, {In("1", i32)},
                           {{0, TensorValue{{2, ValueBounds::kUnbounded}}}});
    CHECK(value_str(bounded) == "2..inf");
    const auto to_i32 = R("Convert", 0, {{"destination_type", "i32"}}, {In("1", i64)},
                          {{0, TensorValue{{2, ValueBounds::kUnbounded}}}});
    CHECK(value_str(to_i32) == "2..inf");
    const auto to_i16 = R("Convert", 0, {{"destination_type", "i16"}}, {In("1", i64)},
                          {{0, TensorValue{{2, ValueBounds::kUnbounded}}}});
    CHECK(value_str(to_i16) == "<none>");
    const auto to_float = R("Convert", 0, {{"destination_type", "f32"}}, {In("1", i64)}, {{0, V({4})}});
    CHECK(to_float.outputs[0].type == f32);
    CHECK(value_str(to_float) == "4");
    // To a float type while the type holds every integer up to the bounds exactly; back by truncation.
    CHECK(value_str(R("Convert", 0, {{"destination_type", "f16"}}, {In("2", i64)}, {{0, V({-2048, 2048})}})) ==
          "-2048,2048");
    CHECK(value_str(R("Convert", 0, {{"destination_type", "f16"}}, {In("1", i64)}, {{0, V({2049})}})) == "<none>");
    CHECK(value_str(R("Convert", 0, {{"destination_type", "f32"}}, {In("1", i64)},
                      {{0, TensorValue{{1, ValueBounds::kUnbounded}}}})) == "<none>");
    CHECK(value_str(R("Convert", 0, {{"destination_type", "i64"}}, {In("1")}, {{0, V({640})}})) == "640");
    OpCase reals{"Convert", 0, {{"destination_type", "i32"}}, {In("3", f32)}, {}};
    CHECK(value_str(run_op(reals, {{0, {2.9, -2.9, 0.5}}})) == "2,-2,0");
    CHECK(value_str(run_op(reals, {{0, {1.0, 3e9, 0.0}}})) == "<none>");
    CHECK(value_str(run_op(reals, {{0, {1.0, std::nan(""), 0.0}}})) == "<none>");
    CHECK(contains(R("Convert", 0, {}, {In("1")}).problem(), "destination_type"));
    const auto like = R("ConvertLike", 1, {}, {In("2,?", i32), In("7", ElementType::f16)});
    CHECK(like.str() == "[2,?]");
    CHECK(like.outputs[0].type == ElementType::f16);
    CHECK(value_str(R("ConvertLike", 1, {}, {In("2", i64), In("", i32)}, {{0, V({3, 4})}})) == "3,4");
}

TEST_CASE("ops-a: GRN, LRN and CumSum checks") {
    CHECK(R("GRN", 0, {{"bias", "1e-6"}}, {In("1,3,?,?")}).str() == "[1,3,?,?]");
    CHECK(R("GRN", 0, {{"bias", "1e-6"}}, {In("1,2,3,4,5")}).problem() == "data rank 5 is not 2, 3 or 4");
    const std::vector<std::pair<std::string, std::string>> lrn{
        {"alpha", "0.0001"}, {"beta", "0.75"}, {"bias", "1"}, {"size", "5"}};
    CHECK(R("LRN", 0, lrn, {In("1,16,?,?"), In("1", i64)}).str() == "[1,16,?,?]");
    CHECK(R("LRN", 0, lrn, {In("1,16,8,8"), In("1,1", i64)}).problem() == "axes must be 1D, it is [1,1]");
    CHECK(R("LRN", 0, lrn, {In("1,16,8,8"), In("?,1", i64)}).ok());
    CHECK(R("LRN", 0, lrn, {In("1,16"), In("3", i64)}).problem() == "axes has 3 elements, more than data rank 2");
    CHECK(contains(R("LRN", 0, lrn, {In("1,16"), In("1")}).problem(), "f32"));
    CHECK(R("CumSum", 0, {}, {In("2,?"), In("", i32)}).str() == "[2,?]");
    CHECK(R("CumSum", 0, {{"exclusive", "true"}}, {In("2,?")}).ok());
    CHECK(R("CumSum", 0, {}, {In("2"), In("", ElementType::u8)}).problem() == "axis element type u8 is not i32 or i64");
    CHECK(R("CumSum", 0, {}, {In("2"), In("1", i64)}).ok());
}

// ---------------------------------------------------------------- binary

TEST_CASE("ops-a: binary numpy broadcasting, static and dynamic") {
    CHECK(R("Add", 1, {}, {In("2,1,3"), In("4,1")}).str() == "[2,4,3]");
    CHECK(R("Multiply", 1, {}, {In("?,3"), In("2..5,1")}).str() == "[2..5,3]");
    CHECK(R("Subtract", 1, {}, {In("..."), In("2")}).str() == "[...]");
    CHECK(R("Power", 1, {}, {In("1,?"), In("3,4")}).str() == "[3,4]");
    const auto bad = R("Add", 1, {}, {In("2,3"), In("4")});
    CHECK_FALSE(bad.ok());
    CHECK(bad.problems[0].kind == OpProblem::Kind::input);
    CHECK(contains(bad.problem(), "[2,3]"));
    CHECK(contains(bad.problem(), "[4]"));
}

TEST_CASE("ops-a: binary auto_broadcast none and pdpd") {
    CHECK(R("Maximum", 1, {{"auto_broadcast", "none"}}, {In("2,?"), In("?,3")}).str() == "[2,3]");
    CHECK_FALSE(R("Minimum", 1, {{"auto_broadcast", "none"}}, {In("2,3"), In("1,3")}).ok());
    CHECK(R("Add", 1, {{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "1"}}, {In("2,3,4,5"), In("3,4")}).str() ==
          "[2,3,4,5]");
    CHECK_FALSE(
        R("Add", 1, {{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "0"}}, {In("2,3,4,5"), In("3,4")}).ok());
    CHECK(R("Add", 1, {{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "1"}}, {In("2,3,4,5"), In("3,1")}).str() ==
          "[2,3,4,5]");
    CHECK_FALSE(R("Add", 1, {{"auto_broadcast", "pdpd"}}, {In("3,4"), In("2,3,4")}).ok());
    CHECK(R("Divide", 1, {{"auto_broadcast", "pdpd"}}, {In("2,3,4,5"), In("4,5")}).str() == "[2,3,4,5]");
    CHECK(contains(R("Add", 1, {{"auto_broadcast", "bidir"}}, {In("2"), In("2")}).problem(), "numpy"));
}

TEST_CASE("ops-a: binary element types: equal, unknown matches, families") {
    CHECK(R("Add", 1, {}, {In("2"), In("2", i32)}).problem() ==
          "arguments do not have the same element type: f32 and i32");
    const auto unknown = R("Add", 1, {}, {In("2", std::nullopt), In("2", i32)});
    CHECK(unknown.outputs[0].type == i32);
    CHECK(R("SquaredDifference", 0, {}, {In("2", boolean), In("2", boolean)}).problem() ==
          "element type boolean: arithmetic takes neither boolean nor string arguments");
    CHECK_FALSE(R("Add", 1, {}, {In("2", ElementType::string), In("2", ElementType::string)}).ok());
    for (const char* cmp : {"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"}) {
        const auto r = R(cmp, 1, {}, {In("2,1"), In("3")});
        CHECK(r.str() == "[2,3]");
        CHECK(r.outputs[0].type == boolean);
    }
    for (const char* logical : {"LogicalAnd", "LogicalOr", "LogicalXor"}) {
        CHECK(R(logical, 1, {}, {In("4", boolean), In("1", boolean)}).outputs[0].type == boolean);
        CHECK(contains(R(logical, 1, {}, {In("4"), In("4")}).problem(), "boolean"));
    }
    for (const auto& [bitwise, version] : std::vector<std::pair<const char*, int>>{{"BitwiseAnd", 13},
                                                                                   {"BitwiseOr", 13},
                                                                                   {"BitwiseXor", 13},
                                                                                   {"BitwiseLeftShift", 15},
                                                                                   {"BitwiseRightShift", 15}}) {
        CHECK(R(bitwise, version, {}, {In("4", i32), In("1", i32)}).outputs[0].type == i32);
        CHECK_FALSE(R(bitwise, version, {}, {In("4"), In("4")}).ok());
    }
    CHECK(R("FloorMod", 1, {}, {In("4", i32), In("1", i32)}).str() == "[4]");
    CHECK(R("Mod", 1, {}, {In("4", i32), In("1", i32)}).str() == "[4]");
}

TEST_CASE("ops-a: binary value propagation") {
    const auto add = R("Add", 1, {}, {In("2", i64), In("1", i64)}, {{0, V({1, 2})}, {1, V({3})}});
    CHECK(value_str(add) == "4,5");
    const auto bounds = run_op({"Add",
                                1,
                                {},
                                {In("2", i64), In("", i64)},
                                {{0, TensorValue{{0, 5}, {2, ValueBounds::kUnbounded}}}, {1, V({1})}}});
    CHECK(value_str(bounds) == "1..6,3..inf");
    const auto mul = R("Multiply", 1, {}, {In("2,1", i64), In("2", i64)}, {{0, V({2, 3})}, {1, V({1, 10})}});
    CHECK(mul.str() == "[2,2]");
    CHECK(value_str(mul) == "2,20,3,30");
    const auto sub_bounds =
        run_op({"Subtract", 1, {}, {In("1", i64), In("1", i64)}, {{0, TensorValue{{0, 5}}}, {1, V({1})}}});
    CHECK(value_str(sub_bounds) == "-1..4");
    CHECK(value_str(R("Subtract", 1, {}, {In("1", i64), In("1", i64)}, {{0, V({3})}, {1, V({5})}})) == "-2");
    const auto div = R("Divide", 1, {}, {In("2", i64), In("", i64)}, {{0, V({-7, 7})}, {1, V({2})}});
    CHECK(value_str(div) == "-4,3");
    const auto trunc =
        run_op({"Divide", 1, {{"m_pythondiv", "false"}}, {In("2", i64), In("", i64)}, {{0, V({-7, 7})}, {1, V({2})}}});
    CHECK(value_str(trunc) == "-3,3");
    CHECK(value_str(R("Divide", 1, {}, {In("1", i64), In("1", i64)}, {{0, V({1})}, {1, V({0})}})) == "<none>");
    CHECK(value_str(R("Maximum", 1, {}, {In("2", i64), In("", i64)}, {{0, V({1, 9})}, {1, V({4})}})) == "4,9");
    CHECK(value_str(R("Minimum", 1, {}, {In("2", i64), In("", i64)}, {{0, V({1, 9})}, {1, V({4})}})) == "1,4");
    const auto eq = R("Equal", 1, {}, {In("3", i64), In("", i64)}, {{0, V({1, 4, 1})}, {1, V({1})}});
    CHECK(value_str(eq) == "1,0,1");
    CHECK(value_str(R("Less", 1, {}, {In("2", i64), In("", i64)}, {{0, V({1, 4})}, {1, V({2})}})) == "1,0");
    // Overflow drops the value; float inputs compute in their type (exactly, for whole numbers this small).
    CHECK(value_str(R("Multiply", 1, {}, {In("1", i64), In("1", i64)}, {{0, V({INT64_MAX / 2})}, {1, V({-3})}})) ==
          "<none>");
    CHECK(value_str(R("Add", 1, {}, {In("1"), In("1")}, {{0, V({1})}, {1, V({1})}})) == "2");
    // A result the output type cannot hold is not followed (OpenVINO wraps it).
    CHECK(value_str(R("Add", 1, {}, {In("1", i32), In("1", i32)}, {{0, V({INT32_MAX})}, {1, V({1})}})) == "<none>");
    CHECK(value_str(R("Add", 1, {}, {In("1", i32), In("1", i32)}, {{0, V({INT32_MAX - 1})}, {1, V({1})}})) ==
          std::to_string(INT32_MAX));
    CHECK(value_str(R("Add", 1, {}, {In("1", i32), In("1", i32)},
                      {{0, TensorValue{{1, ValueBounds::kUnbounded}}}, {1, V({1})}})) == "2..inf");
}

TEST_CASE("ops-a: values of Mod, FloorMod and Power, both Divide roundings, as OpenVINO's evaluate") {
    const auto bin = [](const std::string& op, TensorValue a, TensorValue b, Attrs attrs = {}) {
        const std::string n = std::to_string(a.size());
        return value_str(run_op({op, 1, std::move(attrs), {In(n, i64), In("", i64)}, {{0, std::move(a)}, {1, std::move(b)}}}));
    };
    // Mod keeps the dividend's sign, FloorMod the divisor's (Python's %).
    CHECK(bin("Mod", V({7, -7, 6}), V({3})) == "1,-1,0");
    CHECK(bin("FloorMod", V({7, -7, 6}), V({3})) == "1,2,0");
    CHECK(bin("FloorMod", V({7, -7}), V({-3})) == "-2,-1");
    CHECK(bin("Mod", V({5}), V({0})) == "<none>");
    CHECK(bin("Mod", V({INT64_MIN}), V({-1})) == "<none>");
    // Integer powers; a negative exponent truncates toward zero; 0 to a negative power has no integer.
    CHECK(bin("Power", V({2, -3, 10}), V({3})) == "8,-27,1000");
    CHECK(bin("Power", V({2, 1, -1, 0}), V({-1})) == "<none>");
    CHECK(bin("Power", V({2, 1, -1}), V({-1})) == "0,1,-1");
    CHECK(bin("Power", V({5}), V({0})) == "1");
    CHECK(bin("Power", V({3}), V({40})) == "<none>");  // overflows int64
    CHECK(bin("Power", V({2}), V({INT64_MAX})) == "<none>");
    // pythondiv (the default) floors; false truncates.
    CHECK(bin("Divide", V({-7, 7, -8}), V({-2})) == "3,-4,4");
    CHECK(bin("Divide", V({-7, 7, -8}), V({-2}), {{"m_pythondiv", "false"}}) == "3,-3,4");
}

TEST_CASE("ops-a: value bounds stay sound, and symbols pass where the operation leaves a dim unchanged") {
    const ValueBounds d = [] {
        ValueBounds b{1, ValueBounds::kUnbounded};
        b.symbol = 9;
        return b;
    }();
    const auto run = [](const std::string& op, ValueBounds a, ValueBounds b) {
        return run_op({op, 1, {}, {In("1", i64), In("1", i64)}, {{0, TensorValue{a}}, {1, TensorValue{b}}}});
    };
    const auto symbol_of = [](const OpRun& r) { return r.outputs.at(0).value->at(0).symbol; };
    for (const auto& [op, one] : {std::pair<std::string, int64_t>{"Multiply", 1}, {"Divide", 1}, {"Add", 0}, {"Subtract", 0}}) {
        const auto r = run(op, d, ValueBounds{one, one});
        CHECK(value_str(r) == "1..inf");
        CHECK(symbol_of(r) == 9);
    }
    CHECK(symbol_of(run("Multiply", ValueBounds{1, 1}, d)) == 9);
    CHECK(symbol_of(run("Add", ValueBounds{0, 0}, d)) == 9);
    // d / d is 1 whatever d is; d * 2 is a new value.
    CHECK(value_str(run("Divide", d, d)) == "1");
    const auto twice = run("Multiply", d, ValueBounds{2, 2});
    CHECK(value_str(twice) == "2..inf");
    CHECK(symbol_of(twice) == 0);
    // Two different dims divided: bounds only from an exact divisor.
    ValueBounds e = d;
    e.symbol = 10;
    CHECK(value_str(run("Divide", d, e)) == "<none>");
    CHECK(value_str(run("Divide", ValueBounds{7, 20}, ValueBounds{3, 3})) == "2..6");
    CHECK(value_str(run("Divide", ValueBounds{7, ValueBounds::kUnbounded}, ValueBounds{3, 3})) == "2..inf");
    CHECK(value_str(run("Divide", ValueBounds{-7, 20}, ValueBounds{3, 3})) == "<none>");
    CHECK(value_str(run("Subtract", ValueBounds{2, ValueBounds::kUnbounded}, ValueBounds{1, 1})) == "1..inf");
    CHECK(value_str(run("Subtract", ValueBounds{2, 5}, ValueBounds{1, 3})) == "<none>");
    CHECK(value_str(run("Maximum", ValueBounds{2, 5}, ValueBounds{3, ValueBounds::kUnbounded})) == "3..inf");
    CHECK(value_str(run("Minimum", ValueBounds{2, 5}, ValueBounds{3, ValueBounds::kUnbounded})) == "2..5");
    // Equal of values that cannot meet is false (OpenVINO's Equal bounds): a dim against -1, as the
    // Where(Equal(ShapeOf(x), -1), 1, ShapeOf(x)) of an exported expand asks.
    CHECK(value_str(run("Equal", d, ValueBounds{-1, -1})) == "0");
    CHECK(value_str(run("Equal", ValueBounds{2, 5}, ValueBounds{6, 9})) == "0");
    CHECK(value_str(run("Equal", ValueBounds{2, 5}, ValueBounds{5, 9})) == "<none>");
    CHECK(value_str(run("Equal", ValueBounds{3, 3}, ValueBounds{3, 3})) == "1");
}

TEST_CASE("ops-a: integer values of Abs, Negative, Floor, Ceiling and Round") {
    const auto un = [](const std::string& op, int version, TensorValue v, Attrs attrs = {}) {
        const std::string n = std::to_string(v.size());
        return run_op({op, version, std::move(attrs), {In(n, i64)}, {{0, std::move(v)}}});
    };
    CHECK(value_str(un("Abs", 0, V({-3, 0, 4}))) == "3,0,4");
    CHECK(value_str(un("Abs", 0, TensorValue{{-5, 2}, {-6, -2}, {1, ValueBounds::kUnbounded}})) == "0..5,2..6,1..inf");
    CHECK(value_str(un("Abs", 0, V({INT64_MIN}))) == "<none>");
    CHECK(value_str(un("Negative", 0, V({-3, 0, 4}))) == "3,0,-4");
    CHECK(value_str(un("Negative", 0, TensorValue{{2, 5}})) == "-5..-2");
    CHECK(value_str(un("Negative", 0, TensorValue{{2, ValueBounds::kUnbounded}})) == "<none>");
    CHECK(value_str(un("Floor", 0, V({-3, 7}))) == "-3,7");
    CHECK(value_str(un("Ceiling", 0, V({-3, 7}))) == "-3,7");
    CHECK(value_str(un("Round", 5, V({-3, 7}), {{"mode", "half_to_even"}})) == "-3,7");
    // A narrow type that cannot hold the result is not followed; float data computes in its own type.
    CHECK(value_str(run_op({"Negative", 0, {}, {In("1", ElementType::u8)}, {{0, V({3})}}})) == "<none>");
    CHECK(value_str(run_op({"Abs", 0, {}, {In("1")}, {{0, V({-3})}}})) == "3");
}

namespace {

// The floating-point values of output 0, "<none>" when it has none.
std::string reals_str(const OpRun& r) {
    if (r.outputs.empty() || r.outputs[0].reals.empty()) return "<none>";
    std::string out;
    for (const double x : r.outputs[0].reals) out += (out.empty() ? "" : ",") + fmt::format("{}", x);
    return out;
}

}  // namespace

TEST_CASE("ops-a: floating-point values computed from dims flow as OpenVINO's evaluate computes them") {
    // A scale of 1.5 on 15 and 20 (Convert of a ShapeOf), then Floor and Convert to i64: 22 and 30.
    const OpCase mul{"Multiply", 1, {}, {In("2"), In("1")}, {{0, V({15, 20})}}};
    const auto scaled = run_op(mul, {{1, {1.5}}});
    CHECK(reals_str(scaled) == "22.5,30");
    CHECK(value_str(scaled) == "<none>");
    const OpCase floor{"Floor", 0, {}, {In("2")}, {}};
    CHECK(value_str(run_op(floor, {{0, {22.5, 30.0}}})) == "22,30");
    CHECK(value_str(run_op({"Ceiling", 0, {}, {In("2")}, {}}, {{0, {22.5, -0.5}}})) == "23,0");
    CHECK(value_str(run_op({"Negative", 0, {}, {In("1")}, {}}, {{0, {2.5}}})) == "<none>");
    CHECK(reals_str(run_op({"Negative", 0, {}, {In("1")}, {}}, {{0, {2.5}}})) == "-2.5");
    // Whole results of fractions become integer values again.
    CHECK(value_str(run_op({"Add", 1, {}, {In("2"), In("2")}, {}}, {{0, {0.5, 1.25}}, {1, {1.5, 0.75}}})) == "2,2");
    // Division of whole numbers that leaves a fraction.
    CHECK(reals_str(run_op({"Divide", 1, {}, {In("1"), In("1")}, {{0, V({7})}, {1, V({2})}}})) == "3.5");
    // Each result is rounded to f32, as the runtime's f32 arithmetic: 0.1f * 30 is 3 exactly there, and its
    // Ceiling 3 (in double it would be 3.0000000447 and 4).
    const double tenth_f32 = static_cast<float>(0.1);
    const auto thirty_tenths = run_op({"Multiply", 1, {}, {In("1"), In("1")}, {{0, V({30})}}}, {{1, {tenth_f32}}});
    CHECK(value_str(thirty_tenths) == "3");
    const auto f64_product = run_op({"Multiply", 1, {}, {In("1", f64), In("1", f64)}, {{0, V({30})}}}, {{1, {tenth_f32}}});
    CHECK(reals_str(f64_product) != "<none>");
    CHECK(value_str(f64_product) == "<none>");
    // Round's two modes; a division by zero gives no values.
    CHECK(value_str(run_op({"Round", 5, {{"mode", "half_to_even"}}, {In("2")}, {}}, {{0, {2.5, -2.5}}})) == "2,-2");
    CHECK(value_str(run_op({"Round", 5, {{"mode", "half_away_from_zero"}}, {In("2")}, {}}, {{0, {2.5, -2.5}}})) ==
          "3,-3");
    const auto by_zero = run_op({"Divide", 1, {}, {In("1"), In("1")}, {{0, V({1})}, {1, V({0})}}});
    CHECK(value_str(by_zero) == "<none>");
    CHECK(reals_str(by_zero) == "<none>");
    // pdpd broadcasting is not folded; fractions converted to an integer type truncate, to f16 round.
    CHECK(reals_str(run_op({"Multiply", 1, {{"auto_broadcast", "pdpd"}}, {In("2"), In("1")}, {{0, V({15, 20})}}},
                           {{1, {1.5}}})) == "<none>");
    CHECK(value_str(run_op({"Convert", 0, {{"destination_type", "i64"}}, {In("2")}, {}}, {{0, {22.5, -7.9}}})) ==
          "22,-7");
    CHECK(reals_str(run_op({"Convert", 0, {{"destination_type", "f16"}}, {In("1")}, {}}, {{0, {0.1}}})) ==
          fmt::format("{}", static_cast<double>(f16_to_float(float_to_f16(0.1f)))));
    // Constants alone are not computed on (the file has them folded, and their data stays unread).
    OpCase consts{"Multiply", 1, {}, {In("1"), In("1")}, {}};
    consts.inputs[0].stored_const = consts.inputs[1].stored_const = true;
    const auto folded = run_op(consts, {{0, {1.5}}, {1, {3.0}}});
    CHECK(reals_str(folded) == "<none>");
    CHECK(value_str(folded) == "<none>");
    consts.inputs[0].stored_const = false;
    CHECK(reals_str(run_op(consts, {{0, {1.5}}, {1, {3.0}}})) == "4.5");
}

TEST_CASE("ops-a: Select shapes, types and values") {
    CHECK(R("Select", 1, {}, {In("2,1", boolean), In("1,3"), In("2,3")}).str() == "[2,3]");
    CHECK(R("Select", 1, {}, {In("?,4", boolean), In("4"), In("1")}).str() == "[?,4]");
    CHECK(R("Select", 1, {{"auto_broadcast", "none"}}, {In("2,?", boolean), In("?,3"), In("2,3")}).str() == "[2,3]");
    CHECK_FALSE(R("Select", 1, {{"auto_broadcast", "none"}}, {In("2", boolean), In("2,2"), In("2,2")}).ok());
    CHECK(R("Select", 1, {{"auto_broadcast", "pdpd"}}, {In("4", boolean), In("2,3,4"), In("3,4")}).str() == "[2,3,4]");
    CHECK_FALSE(R("Select", 1, {}, {In("2,3", boolean), In("2,4"), In("2,4")}).ok());
    CHECK(R("Select", 1, {}, {In("2"), In("2"), In("2")}).problem() == "condition has element type f32, not boolean");
    CHECK(R("Select", 1, {}, {In("2", boolean), In("2"), In("2", i32)}).problem() ==
          "then type f32 and else type i32 differ");
    const auto v = R("Select", 1, {}, {In("3", boolean), In("3", i64), In("", i64)},
                     {{0, V({1, 0, 1})}, {1, V({5, 6, 7})}, {2, TensorValue{{0, 9}}}});
    CHECK(value_str(v) == "5,0..9,7");
}

TEST_CASE("ops-a: Select after OpenVINO's type_prop cases") {
    // select_dynamic
    CHECK(R("Select", 1, {}, {In("2..8,3..7,1..10,1..6,1..10", boolean), In("?,?,?,?,?"), In("1..5,1..11,5,1..8")})
              .str() == "[2..8,3..7,?,5,?]");
    // select_symbols_all_params_pdpd
    CHECK(R("Select", 1, {{"auto_broadcast", "pdpd"}},
            {In("?,2,1,1,1,1..5,1..8,5..,..5", boolean), In("?,2,4,3,5,2..5,2..8,5..,..5"),
             In("?,2,1,3,1,1..5,1..8,5..,..5")})
              .str() == "[?,2,4,3,5,2..5,2..8,5..,..5]");
    // select_partial_all_rank_static_dynamic_ok and the intransitive incompatibility
    CHECK(R("Select", 1, {}, {In("2,?,?", boolean), In("?,8,?"), In("?,?,3")}).str() == "[2,8,3]");
    CHECK_FALSE(R("Select", 1, {}, {In("2,?,?", boolean), In("?,8,?"), In("3,?,3")}).ok());
    // DeduceV1SelectTest: a scalar condition, then/else broadcast both ways
    CHECK(R("Select", 1, {}, {In("", boolean), In("4"), In("2,4", std::nullopt)}).str() == "[2,4]");
    CHECK(R("Select", 1, {}, {In("", boolean), In("4"), In("2,4", std::nullopt)}).outputs[0].type == f32);
    CHECK(R("Select", 1, {}, {In("4", boolean), In("2,4", ElementType::i8), In("4", std::nullopt)}).outputs[0].type ==
          ElementType::i8);
    const auto all_unknown =
        R("Select", 1, {}, {In("...", std::nullopt), In("...", std::nullopt), In("...", std::nullopt)});
    CHECK(all_unknown.str() == "[...]");
    CHECK_FALSE(all_unknown.outputs[0].type.has_value());
}

TEST_CASE("ops-a: FakeQuantize broadcasts the ranges into the data") {
    const std::vector<std::pair<std::string, std::string>> levels{{"levels", "256"}};
    CHECK(R("FakeQuantize", 0, levels, {In("1,3,4,5"), In("1,3,1,1"), In("1,3,1,1"), In(""), In("")}).str() ==
          "[1,3,4,5]");
    CHECK(R("FakeQuantize", 0, levels, {In("1,?,4,5"), In("1,3,1,1"), In("1"), In(""), In("")}).str() == "[1,3,4,5]");
    CHECK(R("FakeQuantize", 0, levels, {In("..."), In("1,3,1,1"), In("1"), In(""), In("")}).str() == "[...]");
    const auto bad = R("FakeQuantize", 0, levels, {In("1,3,4,5"), In("1,4,1,1"), In("1"), In("1"), In("1")});
    CHECK(contains(bad.problem(), "input_low [1,4,1,1]"));
    CHECK_FALSE(R("FakeQuantize", 0, {{"levels", "256"}, {"auto_broadcast", "none"}},
                  {In("1,3"), In("1,3"), In("1"), In("1,3"), In("1,3")})
                    .ok());
    CHECK(contains(R("FakeQuantize", 0, {}, {In("1"), In("1"), In("1"), In("1"), In("1")}).problem(), "levels"));
}

// ---------------------------------------------------------------- axes

TEST_CASE("ops-a: SoftMax, LogSoftmax axis range") {
    CHECK(R("SoftMax", 1, {{"axis", "2"}}, {In("1,?,4")}).str() == "[1,?,4]");
    CHECK(R("SoftMax", 1, {{"axis", "3"}}, {In("1,2,4")}).problem() ==
          "axis 3 is out of range [0, 2] for data [1,2,4]");
    CHECK_FALSE(R("SoftMax", 1, {{"axis", "-1"}}, {In("1,2,4")}).ok());
    CHECK(R("SoftMax", 8, {{"axis", "-3"}}, {In("1,2,4")}).ok());
    CHECK(R("SoftMax", 8, {{"axis", "-4"}}, {In("1,2,4")}).problem() ==
          "axis -4 is out of range [-3, 2] for data [1,2,4]");
    CHECK(R("SoftMax", 8, {{"axis", "9"}}, {In("...")}).str() == "[...]");
    CHECK(R("LogSoftmax", 5, {{"axis", "-1"}}, {In("2,3")}).str() == "[2,3]");
    CHECK_FALSE(R("LogSoftmax", 5, {{"axis", "2"}}, {In("2,3")}).ok());
}

TEST_CASE("ops-a: MVN v0 and v6, NormalizeL2") {
    CHECK(R("MVN", 0, {{"eps", "1e-9"}, {"across_channels", "true"}}, {In("1,3,?,?")}).str() == "[1,3,?,?]");
    CHECK(contains(R("MVN", 0, {}, {In("1,3")}).problem(), "eps"));
    const std::vector<std::pair<std::string, std::string>> v6{
        {"eps", "1e-9"}, {"normalize_variance", "true"}, {"eps_mode", "INSIDE_SQRT"}};
    CHECK(R("MVN", 6, v6, {In("1,3,?,?"), In("2", i64)}).str() == "[1,3,?,?]");
    CHECK(R("MVN", 6, v6, {In("1,3"), In("3", i64)}).problem() == "axes has 3 elements, more than data rank 2");
    CHECK(R("MVN", 6, v6, {In("1,3"), In("1,1", i64)}).problem() == "axes must be 1D, it is [1,1]");
    CHECK(contains(
        R("MVN", 6, {{"eps", "1"}, {"normalize_variance", "true"}, {"eps_mode", "sqrt"}}, {In("1,3"), In("1", i64)})
            .problem(),
        "outside_sqrt"));
    CHECK(R("NormalizeL2", 0, {{"eps", "1e-6"}, {"eps_mode", "add"}}, {In("1,?,4"), In("1", i64)}).str() == "[1,?,4]");
    CHECK(R("NormalizeL2", 0, {{"eps", "1e-6"}, {"eps_mode", "max"}}, {In("1,2,4"), In("1,1", i64)}).problem() ==
          "axes must be a scalar or 1D, it is [1,1]");
    CHECK_FALSE(R("NormalizeL2", 0, {{"eps", "1e-6"}, {"eps_mode", "mul"}}, {In("1"), In("1", i64)}).ok());
}

TEST_CASE("type_prop BatchNormInference-0/5: the data's shape with the channels of all five inputs") {
    const Attrs eps{{"epsilon", "0.001"}};
    // v0 takes gamma, beta, data, mean, variance; v5 data, gamma, beta, mean, variance.
    const auto batch_norm = [&eps](int version, const char* data, std::array<const char*, 4> channel,
                                   std::array<ElementType, 5> types = {f32, f32, f32, f32, f32},
                                   const Attrs& attrs = {}) {
        OpCase c{"BatchNormInference", version, attrs.empty() ? eps : attrs, {}, {}};
        const std::array<const char*, 5> shapes =
            version == 0 ? std::array{channel[0], channel[1], data, channel[2], channel[3]}
                         : std::array{data, channel[0], channel[1], channel[2], channel[3]};
        for (size_t i = 0; i < 5; ++i) c.inputs.push_back(In(shapes[i], types[i]));
        return run_op(c);
    };
    const std::array<const char*, 4> c3{"3", "3", "3", "3"};
    // BatchNormInference-0 laid out as the opset1 spec has it: the data first.
    auto r0 = run_op({"BatchNormInference", 0, eps, {In("10,3,4"), In("3"), In("3"), In("3"), In("3")}, {}});
    CHECK(r0.str() == "[10,3,4]");
    r0 = run_op({"BatchNormInference", 0, eps, {In("10,4,4"), In("3"), In("3"), In("3"), In("3")}, {}});
    CHECK(r0.problem() == "input 1 [3] does not match the channel count 4 of data [10,4,4] and the others");
    for (const int v : {0, 5}) {
        INFO("BatchNormInference-" << v);
        CHECK(batch_norm(v, "10,3", c3).str() == "[10,3]");
        CHECK(batch_norm(v, "10,3,4,5", c3).str() == "[10,3,4,5]");
        CHECK(batch_norm(v, "...", c3).str() == "[...]");
        CHECK(batch_norm(v, "10,?,4", c3).str() == "[10,3,4]");
        CHECK(batch_norm(v, "10,?,4", {"?", "...", "2..5", "3..8"}).str() == "[10,3..5,4]");
        CHECK(batch_norm(v, "10,?,4", {"...", "...", "...", "..."}).str() == "[10,?,4]");
        const auto f16 = ElementType::f16;
        auto r = batch_norm(v, "2,3", c3, {f16, f16, f16, f16, f16});
        REQUIRE(r.ok());
        CHECK(r.outputs[0].type == f16);
        CHECK(batch_norm(v, "3", c3).problem() == "data [3] must have rank 2 or more");
        CHECK(batch_norm(v, "10,4,5", c3).problem() ==
              (v == 0 ? "input 0 [3] does not match the channel count 4 of data [10,4,5] and the others"
                      : "input 1 [3] does not match the channel count 4 of data [10,4,5] and the others"));
        CHECK(batch_norm(v, "10,?,5", {"3", "4", "3", "3"}).problem().find("does not match the channel count 3") !=
              std::string::npos);
        CHECK(batch_norm(v, "10,3", {"3", "3", "3,1", "3"}).problem() ==
              "gamma, beta, mean and variance must be 1-D, input 3 is [3,1]");
        CHECK(batch_norm(v, "10,0", {"0", "0", "0", "0"}).problem() == "the channel count must be at least 1");
        CHECK(batch_norm(v, "10,3", c3, {f32, f32, ElementType::f16, f32, f32}).problem() ==
              "input element types differ: f32 and f16");
        CHECK(batch_norm(v, "10,3", c3, {i32, i32, i32, i32, i32}).problem() ==
              "input element types must be floating-point, they are i32");
        r = batch_norm(v, "10,3", c3, {f32, f32, f32, f32, f32}, {{"epsilon", "-1"}});
        CHECK(r.problem() == "epsilon -1 must be >= 0");
        CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
    }
}

TEST_CASE("type_prop NormalizeL2: axes in the data's rank") {
    const Attrs add{{"eps", "1e-6"}, {"eps_mode", "add"}};
    const auto normalize = [&add](const std::string& data, const std::string& axes_shape,
                                  std::optional<std::vector<int64_t>> axes) {
        std::map<size_t, TensorValue> values;
        if (axes) {
            TensorValue v;
            for (const int64_t a : *axes) v.push_back({a, a});
            values[1] = v;
        }
        return R("NormalizeL2", 0, add, {In(data), In(axes_shape, i32)}, values);
    };
    CHECK(normalize("1,2,3,4", "2", std::vector<int64_t>{1, 2}).str() == "[1,2,3,4]");
    CHECK(normalize("2,?,3,4..6", "2", std::vector<int64_t>{1, 2}).str() == "[2,?,3,4..6]");
    CHECK(normalize("1,2,3,4", "1", std::nullopt).ok());
    CHECK(normalize("1,2,3,4", "1", std::vector<int64_t>{-1}).ok());
    CHECK(normalize("1,2,3,4", "1,2", std::vector<int64_t>{1, 2}).problem() ==
          "axes must be a scalar or 1D, it is [1,2]");
    auto r = normalize("1,2,3,4", "2", std::vector<int64_t>{3, 4});
    CHECK(r.problem() == "axes [3,4]: axis 4 is out of range [-4, 3] for data [1,2,3,4]");
    CHECK(normalize("1,2,3,4", "1", std::vector<int64_t>{-5}).problem() ==
          "axes [-5]: axis -5 is out of range [-4, 3] for data [1,2,3,4]");
    CHECK(normalize("...", "2", std::vector<int64_t>{3, 4}).ok());
    CHECK(normalize("1,2,3,4", "...", std::vector<int64_t>{7}).ok());
}

TEST_CASE("type_prop TopK-11: a stable sort needs sort value or index") {
    const auto topk = [](const std::string& sort, const std::string& stable) {
        return R("TopK", 11, {{"axis", "2"}, {"mode", "min"}, {"sort", sort}, {"stable", stable}},
                 {In("2,3,4"), In("", ElementType::u32)}, {{1, TensorValue{{1, 1}}}});
    };
    auto r = topk("none", "true");
    CHECK(r.problem() == "stable=true needs sort=value or sort=index, not none");
    CHECK(r.problems[0].kind == OpProblem::Kind::attribute);
    CHECK(topk("value", "true").str() == "[2,3,1]");
    CHECK(topk("index", "true").str() == "[2,3,1]");
    CHECK(topk("none", "false").str() == "[2,3,1]");
}

TEST_CASE("ops-a: Reduce ops with known axes") {
    const auto r = R("ReduceSum", 1, {}, {In("3,4,5"), In("1", i64)}, {{1, V({1})}});
    CHECK(r.str() == "[3,5]");
    CHECK_FALSE(r.unknown);
    CHECK(R("ReduceMean", 1, {{"keep_dims", "true"}}, {In("3,?,5"), In("2", i64)}, {{1, V({-1, 0})}}).str() ==
          "[1,?,1]");
    CHECK(R("ReduceMax", 1, {}, {In("3,2..4,5"), In("", i64)}, {{1, V({0})}}).str() == "[2..4,5]");
    CHECK(R("ReduceMin", 1, {}, {In("3,4"), In("0", i64)}, {{1, TensorValue{}}}).str() == "[3,4]");
    CHECK(R("ReduceProd", 1, {}, {In("3,4"), In("2", i64)}, {{1, V({0, 1})}}).str() == "[]");
    CHECK(R("ReduceL1", 4, {{"keep_dims", "true"}}, {In("3,4"), In("1", i64)}, {{1, V({1})}}).str() == "[3,1]");
    CHECK(R("ReduceL2", 4, {}, {In("3,4"), In("1", i64)}, {{1, V({1})}}).str() == "[3]");
    const auto logical = R("ReduceLogicalAnd", 1, {}, {In("3,4", boolean), In("1", i64)}, {{1, V({0})}});
    CHECK(logical.str() == "[4]");
    CHECK(logical.outputs[0].type == boolean);
    CHECK(R("ReduceLogicalOr", 1, {}, {In("3,4", boolean), In("1", i64)}, {{1, V({1})}}).str() == "[3]");
    // OpenVINO leaves out-of-range axes to run time.
    CHECK(R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("3,4"), In("1", i64)}, {{1, V({2})}}).str() == "[?,?]");
    CHECK(R("ReduceSum", 1, {}, {In("3,4"), In("1", i64)}, {{1, V({-3})}}).str() == "[?]");
}

TEST_CASE("ops-a: Reduce ops with unknown axes or rank") {
    const auto keep = R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("3,4,5"), In("2", i64)});
    CHECK(keep.str() == "[?,?,?]");
    CHECK(keep.unknown);
    CHECK(R("ReduceSum", 1, {}, {In("3,4,5"), In("1", i64)}).str() == "[?,?]");
    CHECK(R("ReduceSum", 1, {}, {In("3,4,5"), In("", i64)}).str() == "[?,?]");
    CHECK(R("ReduceSum", 1, {}, {In("3,4,5"), In("2", i64)}).str() == "[...]");
    CHECK(R("ReduceSum", 1, {}, {In("3,4,5"), In("?", i64)}).str() == "[...]");
    CHECK(R("ReduceSum", 1, {}, {In("3,4,5"), In("1", i64)}, {{1, TensorValue{{0, 2}}}}).str() == "[?,?]");
    CHECK(R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("..."), In("1", i64)}, {{1, V({0})}}).str() == "[...]");
}

TEST_CASE("ops-a: Reduce checks element types and the axes rank") {
    CHECK(R("ReduceSum", 1, {}, {In("3", boolean), In("1", i64)}).problem() ==
          "data element type boolean is not numeric");
    CHECK(R("ReduceLogicalOr", 1, {}, {In("3"), In("1", i64)}).problem() == "data element type f32 is not boolean");
    CHECK(R("ReduceMax", 1, {}, {In("3"), In("1")}).problem() == "axes element type f32 is not an integer type");
    CHECK(R("ReduceMax", 1, {}, {In("3"), In("1,1", i64)}).problem() == "axes must be a scalar or 1D, it is [1,1]");
}

TEST_CASE("ops-a: Reduce value propagation") {
    const auto prod = R("ReduceProd", 1, {}, {In("3", i64), In("1", i64)}, {{0, V({2, 3, 4})}, {1, V({0})}});
    CHECK(prod.str() == "[]");
    CHECK(value_str(prod) == "24");
    const auto sum = run_op({"ReduceSum",
                             1,
                             {{"keep_dims", "true"}},
                             {In("2,3", i64), In("1", i64)},
                             {{0, V({1, 2, 3, 4, 5, 6})}, {1, V({1})}}});
    CHECK(sum.str() == "[2,1]");
    CHECK(value_str(sum) == "6,15");
    const auto sum0 = R("ReduceSum", 1, {}, {In("2,3", i64), In("1", i64)}, {{0, V({1, 2, 3, 4, 5, 6})}, {1, V({0})}});
    CHECK(value_str(sum0) == "5,7,9");
    const auto mx = run_op(
        {"ReduceMax", 1, {}, {In("3", i64), In("1", i64)}, {{0, TensorValue{{1, 1}, {0, 7}, {3, 3}}}, {1, V({0})}}});
    CHECK(value_str(mx) == "3..7");
    CHECK(value_str(R("ReduceMin", 1, {}, {In("3", i64), In("1", i64)}, {{0, V({5, -2, 3})}, {1, V({0})}})) == "-2");
    CHECK(value_str(R("ReduceProd", 1, {}, {In("2", ElementType::u8), In("1", i64)},
                      {{0, V({20, 20})}, {1, V({0})}})) == "<none>");
    CHECK(value_str(R("ReduceMean", 1, {}, {In("3", i64), In("1", i64)}, {{0, V({5, -2, 3})}, {1, V({0})}})) ==
          "<none>");
}

TEST_CASE("ops-a: TopK with known k") {
    const std::vector<std::pair<std::string, std::string>> attrs{{"axis", "1"}, {"mode", "max"}, {"sort", "value"}};
    const auto r = R("TopK", 3, attrs, {In("2,10,5"), In("", i64)}, {{1, V({3})}});
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[2,3,5]");
    CHECK(r.str(1) == "[2,3,5]");
    CHECK(r.outputs[0].type == f32);
    CHECK(r.outputs[1].type == i32);
    auto with_i64 = attrs;
    with_i64.emplace_back("index_element_type", "i64");
    CHECK(R("TopK", 1, with_i64, {In("2,?,5"), In("", i32)}, {{1, V({4})}}).outputs[1].type == i64);
    CHECK(R("TopK", 11, {{"axis", "-1"}, {"mode", "min"}, {"sort", "index"}, {"stable", "true"}},
            {In("2,10,?"), In("", i64)}, {{1, V({7})}})
              .str() == "[2,10,7]");
    CHECK(R("TopK", 3, attrs, {In("..."), In("", i64)}).str() == "[...]");
}

TEST_CASE("ops-a: TopK with unknown or bounded k") {
    const std::vector<std::pair<std::string, std::string>> attrs{{"axis", "1"}, {"mode", "max"}, {"sort", "value"}};
    const auto unknown = R("TopK", 3, attrs, {In("2,10,5"), In("", i64)});
    CHECK(unknown.str() == "[2,..10,5]");
    CHECK(unknown.unknown);
    CHECK(R("TopK", 3, attrs, {In("2,?,5"), In("", i64)}).str() == "[2,?,5]");
    CHECK(R("TopK", 3, attrs, {In("2,10,5"), In("", i64)}, {{1, TensorValue{{2, 20}}}}).str() == "[2,2..10,5]");
    CHECK(R("TopK", 3, attrs, {In("2,10..12,5"), In("", i64)}, {{1, TensorValue{{11, 15}}}}).str() == "[2,10..12,5]");
    CHECK(
        R("TopK", 3, attrs, {In("2,10..12,5"), In("", i64)}, {{1, TensorValue{{3, ValueBounds::kUnbounded}}}}).str() ==
        "[2,3..12,5]");
    CHECK(R("TopK", 3, attrs, {In("2,4..,5"), In("", i64)}, {{1, TensorValue{{2, 3}}}}).str() == "[2,2..,5]");
}

TEST_CASE("ops-a: hostile sizes stay numbers") {
    const Attrs attrs{{"axis", "0"}, {"mode", "max"}, {"sort", "value"}};
    CHECK(R("TopK", 3, attrs, {In("?"), In("", i64)}, {{1, V({int64_t{1} << 62})}}).str() == "[4611686018427387904]");
    CHECK(R("TopK", 3, attrs, {In("5"), In("", i64)},
            {{1, TensorValue{{ValueBounds::kUnbounded, ValueBounds::kUnbounded}}}})
              .str() == "[5]");
    // A value tensor larger than kMaxValueElements is not folded; neither is one whose size does not match.
    CHECK(value_str(R("Add", 1, {}, {In("5000", i64), In("", i64)}, {{1, V({1})}})) == "<none>");
    CHECK(value_str(R("Add", 1, {}, {In("3", i64), In("", i64)}, {{0, V({1, 2})}, {1, V({1})}})) == "<none>");
    CHECK(R("ReduceSum", 1, {}, {In("4611686018427387904,3"), In("1", i64)}, {{1, V({1})}}).str() ==
          "[4611686018427387904]");
}

TEST_CASE("ops-a: TopK checks") {
    const std::vector<std::pair<std::string, std::string>> attrs{{"axis", "3"}, {"mode", "max"}, {"sort", "value"}};
    CHECK(R("TopK", 3, attrs, {In("2,10,5"), In("", i64)}, {{1, V({1})}}).problem() ==
          "axis 3 is out of range [-3, 2] for data rank 3");
    const std::vector<std::pair<std::string, std::string>> ok{{"axis", "0"}, {"mode", "max"}, {"sort", "value"}};
    CHECK(R("TopK", 3, ok, {In("4"), In("", i64)}, {{1, V({-1})}}).problem() == "k -1 is negative");
    CHECK(R("TopK", 3, ok, {In("4"), In("2", i64)}).problem() == "k must be a scalar, it is [2]");
    CHECK(R("TopK", 3, ok, {In(""), In("", i64)}).problem() == "data is a scalar; TopK needs rank > 0");
    CHECK(R("TopK", 3, ok, {In("4"), In("")}).problem() == "k element type f32 is not an integer type");
    CHECK(R("TopK", 3, ok, {In("4"), In("", ElementType::u8)}, {{1, V({2})}}).str() == "[2]");
    CHECK(R("TopK", 1, ok, {In("4"), In("", ElementType::u8)}).problem() == "k element type u8 is not i8, i32 or i64");
    auto bad_index = ok;
    bad_index.emplace_back("index_element_type", "f32");
    CHECK(R("TopK", 11, bad_index, {In("4"), In("", i64)}).problem() ==
          "index_element_type=f32 is not one of i32, i64");
    CHECK(contains(R("TopK", 1, {{"axis", "0"}, {"mode", "top"}, {"sort", "value"}}, {In("4"), In("", i64)}).problem(),
                   "max, min"));
}

TEST_CASE("ops-a: registry entries cover the opsets") {
    CHECK(find_op("Relu", 1)->entry->type == "ReLU");
    CHECK(find_op("Gelu", 1)->entry == nullptr);
    CHECK(find_op("Gelu", 6)->entry->version == 0);
    CHECK(find_op("Gelu", 16)->entry->version == 7);
    CHECK(find_op("TopK", 2)->entry->version == 1);
    CHECK(find_op("TopK", 10)->entry->version == 3);
    CHECK(find_op("TopK", 16)->entry->version == 11);
    CHECK(find_op("Softmax", 7)->entry->version == 1);
    CHECK(find_op("SoftMax", 8)->entry->version == 8);
    CHECK(find_op("MVN", 5)->entry->version == 0);
    CHECK(find_op("MVN", 1)->entry == nullptr);
    CHECK(find_op("MVN", 6)->entry->version == 6);
    CHECK(find_op("BitwiseLeftShift", 14)->entry == nullptr);
    CHECK(find_op("CumSum", 3)->entry != nullptr);
    CHECK(find_op("Acosh", 3)->entry == nullptr);
}

TEST_CASE("invariants Reduce: each dim kept or 1, or left out") {
    const auto keep = R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("2,3,4"), In("1", i64)});
    REQUIRE(keep.unknown);
    CHECK(keep.broken({"2,1,4"}).empty());
    CHECK(keep.broken({"2,2,4"}) == "output 0: ReduceSum keeps each dim of [2,3,4] or makes it 1, declared [2,2,4] has 2 at dim 1");
    const auto drop = R("ReduceMax", 1, {}, {In("2,3,4"), In("2", i64)});
    CHECK(drop.broken({"2,4"}).empty());
    CHECK(drop.broken({"3"}).empty());
    CHECK(drop.broken({"3,2"}) ==
          "output 0: ReduceMax keeps the dims of [2,3,4] in order, leaving out some; declared [3,2] is not that");
}

TEST_CASE("invariants Reduce of a 1-D input: any axis is its one axis") {
    const auto keep = R("ReduceProd", 1, {{"keep_dims", "true"}}, {In("4"), In("1", i64)});
    REQUIRE(keep.unknown);
    CHECK(keep.str() == "[1]");
    CHECK(R("ReduceProd", 1, {}, {In("4"), In("1", i64)}).str() == "[]");
    CHECK(R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("4"), In("", i64)}).str() == "[1]");
    // No axes reduce nothing; axes whose count is unknown may be none.
    CHECK(R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("4"), In("0", i64)}).str() == "[?]");
    CHECK(R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("4"), In("?", i64)}).str() == "[?]");
    CHECK(R("ReduceSum", 1, {{"keep_dims", "true"}}, {In("2,4"), In("1", i64)}).str() == "[?,?]");
}
