// Unit tests of the ONNX elementwise ops (rules/ops/onnx_elementwise_ops.cpp, onnx_elementwise_binary.cpp).
#include <doctest/doctest.h>

#include <string>

#include <fmt/format.h>

#include "core/half.hpp"
#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {


bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Output i's value as "lo..hi" items (an exact value as one number), "<none>" without one.
std::string value_str(const OpRun& r, size_t i = 0) {
    if (i >= r.outputs.size() || !r.outputs[i].value) return "<none>";
    std::string out;
    for (const ValueBounds& b : *r.outputs[i].value) {
        if (!out.empty()) out += ",";
        out += b.exact() ? std::to_string(b.lo)
                         : std::to_string(b.lo) + ".." +
                               (b.hi == ValueBounds::kUnbounded ? std::string("inf") : std::to_string(b.hi));
    }
    return out;
}

std::optional<ElementType> output_type(const OpRun& r, size_t i = 0) {
    return i < r.outputs.size() ? r.outputs[i].type : std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------- unary

TEST_CASE("onnx elementwise: unary ops keep the dims (symbols too) and the type") {
    for (const auto& [name, version] : {std::pair{"Abs", 13},
                                        {"Relu", 14},
                                        {"Tanh", 13},
                                        {"Sqrt", 6},
                                        {"Acos", 22},
                                        {"Erf", 13},
                                        {"Softplus", 22},
                                        {"Mish", 18},
                                        {"HardSwish", 14},
                                        {"Gelu", 20}}) {
        const std::string op = name;
        const auto r = run_onnx_op(Onnx(op, version, {In("1,?,2..5")}));
        CHECK_MESSAGE(r.ok(), op);
        CHECK(r.str() == "[1,?,2..5]");
        CHECK(output_type(r) == f32);
    }
    Shape with_symbol = S("?,4");
    with_symbol.dims[0] = with_symbol.dims[0].with_symbol(7);
    const auto r = run_onnx_op(Onnx("Sigmoid", 13, {OpInput{with_symbol, f32}}));
    CHECK(r.shape().dims[0].symbol() == 7);
}

TEST_CASE("onnx elementwise: each version takes its schema's types") {
    CHECK(contains(run_onnx_op(Onnx("Abs", 1, {In("2", i32)})).problem(), "input 0 has element type i32, not one of"));
    CHECK(run_onnx_op(Onnx("Abs", 6, {In("2", i32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Relu", 13, {In("2", i32)})).ok());
    CHECK(run_onnx_op(Onnx("Relu", 14, {In("2", i32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Exp", 6, {In("2", ElementType::bf16)})).ok());
    CHECK(run_onnx_op(Onnx("Exp", 13, {In("2", ElementType::bf16)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Neg", 6, {In("2", ElementType::u8)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Not", 1, {In("2", f32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("BitwiseNot", 18, {In("2", f32)})).ok());
    CHECK(run_onnx_op(Onnx("Identity", 1, {In("2", ElementType::string)})).ok());
    // An undeclared type may be any.
    CHECK(run_onnx_op(Onnx("Abs", 1, {In("2", std::nullopt)})).ok());
}

TEST_CASE("onnx elementwise: IsNaN and IsInf give a boolean mask") {
    const auto r = run_onnx_op(Onnx("IsInf", 10, {In("3,?")}, {{"detect_negative", "0"}}));
    CHECK(r.str() == "[3,?]");
    CHECK(output_type(r) == boolean);
    CHECK_FALSE(run_onnx_op(Onnx("IsInf", 10, {In("3", ElementType::f16)})).ok());
    CHECK(run_onnx_op(Onnx("IsInf", 20, {In("3", ElementType::f16)})).ok());
    CHECK(output_type(run_onnx_op(Onnx("IsNaN", 9, {In("3")}))) == boolean);
}

TEST_CASE("onnx elementwise: activation attributes are read and checked") {
    CHECK(run_onnx_op(Onnx("Elu", 6, {In("2,3")}, {{"alpha", "0.5"}})).str() == "[2,3]");
    CHECK_FALSE(run_onnx_op(Onnx("LeakyRelu", 16, {In("2")}, {{"alpha", "x"}})).ok());
    CHECK(run_onnx_op(Onnx("Gelu", 20, {In("2")}, {{"approximate", "tanh"}})).ok());
    CHECK(contains(run_onnx_op(Onnx("Gelu", 20, {In("2")}, {{"approximate", "erf"}})).problem(), "approximate"));
    CHECK_FALSE(run_onnx_op(Onnx("Celu", 12, {In("2", ElementType::f64)})).ok());
    CHECK(run_onnx_op(Onnx("Celu", 28, {In("2", ElementType::f64)})).ok());
    CHECK(run_onnx_op(Onnx("Shrink", 9, {In("2", i32)}, {{"lambd", "1.5"}})).ok());
    CHECK(run_onnx_op(Onnx("Swish", 24, {In("2,4")}, {{"alpha", "2"}})).str() == "[2,4]");
}

TEST_CASE("onnx elementwise: integer values pass through the unary ops that carry them") {
    CHECK(value_str(run_onnx_op(Onnx("Identity", 13, {In("2", i64)}, {}, {{0, V({3, -1})}}))) == "3,-1");
    CHECK(value_str(run_onnx_op(Onnx("Neg", 13, {In("2", i64)}, {}, {{0, V({3, -1})}}))) == "-3,1");
    CHECK(value_str(run_onnx_op(Onnx("Abs", 13, {In("2", i64)}, {}, {{0, V({3, -1})}}))) == "3,1");
    CHECK(value_str(run_onnx_op(Onnx("Sign", 13, {In("3", i64)}, {}, {{0, V({3, 0, -4})}}))) == "1,0,-1");
    CHECK(value_str(run_onnx_op(Onnx("Not", 1, {In("2", boolean)}, {}, {{0, V({1, 0})}}))) == "0,1");
    CHECK(value_str(run_onnx_op(Onnx("BitwiseNot", 18, {In("1", i32)}, {}, {{0, V({5})}}))) == "-6");
    // Bounds: a dim 2..5 negated is -5..-2; Neg of an unsigned value wraps and is not followed.
    CHECK(value_str(run_onnx_op(Onnx("Neg", 13, {In("1", i64)}, {}, {{0, {ValueBounds{2, 5}}}}))) == "-5..-2");
    CHECK(value_str(run_onnx_op(Onnx("Abs", 13, {In("1", ElementType::u8)}, {}, {{0, V({4})}}))) == "4");
    // Floor of a float tensor holding whole numbers keeps them.
    auto floor = Onnx("Floor", 13, {In("2", f32)});
    floor.reals[0] = {4.0, -2.0};
    CHECK(value_str(run_onnx_op(floor)) == "4,-2");
    floor.reals[0] = {4.5, -2.0};
    CHECK(value_str(run_onnx_op(floor)) == "4,-2");
    CHECK(value_str(run_onnx_op(Onnx("Exp", 13, {In("1", f32)}, {}, {{0, V({0})}}))) == "<none>");
}

TEST_CASE("onnx elementwise: fractions computed from dims flow, rounded to the tensor's type at each op") {
    const auto reals_of = [](const OpRun& r) {
        std::string out;
        if (r.outputs.empty()) return out;
        for (const double x : r.outputs[0].reals) out += (out.empty() ? "" : ",") + fmt::format("{}", x);
        return out;
    };
    // Cast(Shape) * 1.5 on dims 15 and 20, then Floor and Cast to int64: 22 and 30.
    auto mul = Onnx("Mul", 14, {In("2", f32), In("1", f32)}, {}, {{0, V({15, 20})}});
    mul.reals[1] = {1.5};
    const auto scaled = run_onnx_op(mul);
    CHECK(reals_of(scaled) == "22.5,30");
    auto cast = Onnx("Cast", 21, {In("2", f32)}, {{"to", "7"}});
    cast.reals[0] = {22.5, -7.9};
    CHECK(value_str(run_onnx_op(cast)) == "22,-7");  // truncated toward zero, as ONNX Runtime casts
    auto to_bool = Onnx("Cast", 21, {In("2", f32)}, {{"to", "9"}});
    to_bool.reals[0] = {0.5, -0.25};
    CHECK(value_str(run_onnx_op(to_bool)) == "1,1");
    auto to_half = Onnx("Cast", 21, {In("1", f32)}, {{"to", "10"}});
    to_half.reals[0] = {0.1};
    CHECK(reals_of(run_onnx_op(to_half)) == fmt::format("{}", static_cast<double>(f16_to_float(float_to_f16(0.1f)))));
    // Range's expanded trip count: Ceil((limit - start) / delta) with fractions in between.
    CHECK(reals_of(run_onnx_op(Onnx("Div", 14, {In("", f32), In("", f32)}, {}, {{0, V({5})}, {1, V({2})}}))) ==
          "2.5");
    auto ceil = Onnx("Ceil", 13, {In("", f32)});
    ceil.reals[0] = {2.5};
    CHECK(value_str(run_onnx_op(ceil)) == "3");
    auto relu = Onnx("Relu", 14, {In("2", f32)});
    relu.reals[0] = {-1.5, 2.5};
    CHECK(reals_of(run_onnx_op(relu)) == "0,2.5");
    // An f16 result is rounded to f16: 1/3 is not kept as the double 0.333...
    auto third = Onnx("Div", 14, {In("", ElementType::f16), In("", ElementType::f16)}, {}, {{0, V({1})}, {1, V({3})}});
    CHECK(reals_of(run_onnx_op(third)) == fmt::format("{}", static_cast<double>(f16_to_float(float_to_f16(1.0f / 3)))));
    // Integer operands are not floating-point arithmetic; ops that compute nothing carry nothing.
    CHECK(reals_of(run_onnx_op(Onnx("Div", 14, {In("", i64), In("", i64)}, {}, {{0, V({5})}, {1, V({2})}}))) == "");
    auto exp = Onnx("Exp", 13, {In("1", f32)});
    exp.reals[0] = {0.5};
    CHECK(reals_of(run_onnx_op(exp)) == "");
}

TEST_CASE("onnx elementwise: PRelu's slope broadcasts one way into X") {
    CHECK(run_onnx_op(Onnx("PRelu", 16, {In("1,3,4,4"), In("3,1,1")})).str() == "[1,3,4,4]");
    CHECK(run_onnx_op(Onnx("PRelu", 9, {In("2,3"), In("")})).ok());
    CHECK(contains(run_onnx_op(Onnx("PRelu", 16, {In("1,3,4,4"), In("5")})).problem(), "one way"));
    CHECK_FALSE(run_onnx_op(Onnx("PRelu", 16, {In("1,4"), In("2,4")})).ok());  // would grow X
    CHECK(run_onnx_op(Onnx("PRelu", 6, {In("1,3,4,4"), In("5")})).ok());       // before opset 7 unchecked
    CHECK_FALSE(run_onnx_op(Onnx("PRelu", 16, {In("2"), In("2", ElementType::f16)})).ok());
}

TEST_CASE("onnx elementwise: Softmax's axis, before and from opset 13") {
    CHECK(run_onnx_op(Onnx("Softmax", 13, {In("2,3,4")})).str() == "[2,3,4]");
    CHECK(run_onnx_op(Onnx("Softmax", 11, {In("2,3,4")}, {{"axis", "-3"}})).str() == "[2,3,4]");
    CHECK(run_onnx_op(Onnx("LogSoftmax", 13, {In("2,3,4")}, {{"axis", "3"}})).problem() ==
          "axis 3 is out of range [-3, 2]");
    CHECK_FALSE(run_onnx_op(Onnx("Hardmax", 11, {In("2,3")}, {{"axis", "2"}})).ok());
    CHECK(run_onnx_op(Onnx("Hardmax", 1, {In("2,3")}, {{"axis", "2"}})).ok());  // opset 1 infers no axis
    CHECK(contains(run_onnx_op(Onnx("Softmax", 13, {In("")})).problem(), "scalar"));
    CHECK(run_onnx_op(Onnx("Softmax", 13, {In("...")}, {{"axis", "7"}})).ok());  // a dynamic rank
}

TEST_CASE("onnx elementwise: Dropout's output and mask, attribute and input forms") {
    const auto v7 = run_onnx_op(Onnx("Dropout", 7, {In("2,?", ElementType::f16)}, {{"ratio", "0.2"}}));
    REQUIRE(v7.outputs.size() == 2);
    CHECK(v7.str(1) == "[2,?]");
    CHECK(output_type(v7, 1) == ElementType::f16);  // the mask had the data's type before opset 10
    const auto v12 = run_onnx_op(Onnx("Dropout", 12, {In("2,3"), In(""), In("", boolean)}));
    CHECK(output_type(v12, 1) == boolean);
    CHECK(run_onnx_op(Onnx("Dropout", 13, {In("2,3"), Omitted(), In("", boolean)})).ok());
    CHECK(contains(run_onnx_op(Onnx("Dropout", 13, {In("2,3"), In("1")})).problem(), "ratio must be a scalar"));
    CHECK_FALSE(run_onnx_op(Onnx("Dropout", 13, {In("2,3"), In(""), In("", f32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Dropout", 10, {In("2,3"), In("")})).ok());  // no inputs before 12
}

TEST_CASE("onnx elementwise: Clip with attributes, then inputs; integer values clamp") {
    CHECK(run_onnx_op(Onnx("Clip", 6, {In("2,3")}, {{"min", "0"}, {"max", "6"}})).str() == "[2,3]");
    CHECK(run_onnx_op(Onnx("Clip", 11, {In("2,3"), Omitted(), In("")})).str() == "[2,3]");
    CHECK_FALSE(run_onnx_op(Onnx("Clip", 11, {In("2", i64)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Clip", 13, {In("2", i64), In("", i32)})).ok());
    auto clip =
        Onnx("Clip", 13, {In("3", i64), In("", i64), In("", i64)}, {}, {{0, V({-4, 3, 9})}, {1, V({0})}, {2, V({5})}});
    CHECK(value_str(run_onnx_op(clip)) == "0,3,5");
    clip.inputs[1] = Omitted();
    CHECK(value_str(run_onnx_op(clip)) == "-4,3,5");
    auto bounded = Onnx("Clip", 13, {In("1", i64), Omitted(), In("", i64)}, {},
                        {{0, {ValueBounds{2, ValueBounds::kUnbounded}}}, {2, V({8})}});
    CHECK(value_str(run_onnx_op(bounded)) == "2..8");
}

TEST_CASE("onnx elementwise: Cast gives `to`'s type, for the data types of its version") {
    const auto r = run_onnx_op(Onnx("Cast", 13, {In("2,?")}, {{"to", "7"}}));
    CHECK(r.str() == "[2,?]");
    CHECK(output_type(r) == i64);
    CHECK(output_type(run_onnx_op(Onnx("Cast", 19, {In("2")}, {{"to", "17"}}))) == ElementType::f8e4m3);
    CHECK(output_type(run_onnx_op(Onnx("Cast", 21, {In("2")}, {{"to", "22"}}))) == ElementType::i4);
    // The types ONNX has and OpenVINO has not: the float8 fnuz kinds from Cast-19, 2-bit integers from Cast-25.
    CHECK(output_type(run_onnx_op(Onnx("Cast", 19, {In("2")}, {{"to", "18"}}))) == ElementType::f8e4m3fnuz);
    CHECK(output_type(run_onnx_op(Onnx("Cast", 19, {In("2")}, {{"to", "20"}}))) == ElementType::f8e5m2fnuz);
    CHECK(output_type(run_onnx_op(Onnx("Cast", 25, {In("2")}, {{"to", "25"}}))) == ElementType::u2);
    CHECK(output_type(run_onnx_op(Onnx("Cast", 25, {In("2")}, {{"to", "26"}}))) == ElementType::i2);
    CHECK(contains(run_onnx_op(Onnx("Cast", 24, {In("2")}, {{"to", "26"}})).problem(), "to=26"));
    CHECK(contains(run_onnx_op(Onnx("Cast", 13, {In("2")}, {{"to", "20"}})).problem(), "to=20"));
    // They are ONNX's only: an IR's port precision or element_type attribute cannot name them.
    CHECK_FALSE(parse_element_type("u2").has_value());
    CHECK_FALSE(parse_element_type_attr("f8e4m3fnuz").has_value());
    CHECK(element_type_name(ElementType::f8e5m2fnuz) == "f8e5m2fnuz");
    CHECK(contains(run_onnx_op(Onnx("Cast", 13, {In("2")}, {{"to", "17"}})).problem(), "to=17"));
    CHECK_FALSE(run_onnx_op(Onnx("Cast", 6, {In("2")}, {{"to", "8"}})).ok());    // string from Cast-9
    CHECK_FALSE(run_onnx_op(Onnx("Cast", 25, {In("2")}, {{"to", "14"}})).ok());  // complex never
    CHECK_FALSE(run_onnx_op(Onnx("Cast", 13, {In("2")})).ok());                  // `to` is required
    CHECK_FALSE(run_onnx_op(Onnx("Cast", 13, {In("2", ElementType::f8e5m2)}, {{"to", "1"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Cast", 24, {In("2")}, {{"to", "1"}, {"round_mode", "sideways"}})).ok());
    CHECK(run_onnx_op(Onnx("Cast", 24, {In("2")}, {{"to", "24"}, {"round_mode", "nearest"}})).ok());
}

TEST_CASE("onnx elementwise: values through Cast and CastLike") {
    CHECK(value_str(run_onnx_op(Onnx("Cast", 13, {In("2", i64)}, {{"to", "6"}}, {{0, V({3, -1})}}))) == "3,-1");
    CHECK(value_str(run_onnx_op(Onnx("Cast", 13, {In("2", i64)}, {{"to", "2"}}, {{0, V({3, -1})}}))) == "<none>");
    CHECK(value_str(run_onnx_op(Onnx("Cast", 13, {In("3", i64)}, {{"to", "9"}}, {{0, V({3, 0, -1})}}))) == "1,0,1");
    // Through a float and back: whole numbers a float holds exactly.
    CHECK(value_str(run_onnx_op(Onnx("Cast", 13, {In("1", i64)}, {{"to", "1"}}, {{0, V({224})}}))) == "224");
    CHECK(value_str(run_onnx_op(Onnx("Cast", 13, {In("1", i64)}, {{"to", "10"}}, {{0, V({5000})}}))) == "<none>");
    auto back = Onnx("Cast", 13, {In("2", f32)}, {{"to", "7"}});
    back.reals[0] = {56.0, 7.0};
    CHECK(value_str(run_onnx_op(back)) == "56,7");
    const auto like = run_onnx_op(Onnx("CastLike", 15, {In("2", i64), In("", i32)}, {}, {{0, V({1, 2})}}));
    CHECK(output_type(like) == i32);
    CHECK(value_str(like) == "1,2");
    CHECK_FALSE(run_onnx_op(Onnx("CastLike", 15, {In("2"), In("", ElementType::f8e4m3)})).ok());
    CHECK(output_type(run_onnx_op(Onnx("CastLike", 19, {In("2"), In("", ElementType::f8e4m3)}))) == ElementType::f8e4m3);
}

// ---------------------------------------------------------------- binary

TEST_CASE("onnx elementwise: binary ops broadcast as numpy from opset 7") {
    CHECK(run_onnx_op(Onnx("Add", 14, {In("2,1,4"), In("3,1")})).str() == "[2,3,4]");
    CHECK(run_onnx_op(Onnx("Mul", 7, {In("?,3"), In("5,1")})).str() == "[5,3]");
    CHECK(run_onnx_op(Onnx("Sub", 13, {In("..."), In("3")})).shape().rank_dynamic);
    const auto bad = run_onnx_op(Onnx("Add", 14, {In("2,3"), In("4")}));
    CHECK(contains(bad.problem(), "[2,3] and [4] do not broadcast"));
    CHECK(bad.problems.front().kind == OpProblem::Kind::input);
}

TEST_CASE("onnx elementwise: a dim broadcast against 1s keeps its symbol") {
    Shape a = S("?,?,4");
    a.dims[0] = a.dims[0].with_symbol(3);
    a.dims[1] = a.dims[1].with_symbol(5);
    Shape b = S("1,?,1");
    b.dims[1] = b.dims[1].with_symbol(6);
    const auto r = run_onnx_op(Onnx("Add", 14, {OpInput{a, ElementType::f32}, OpInput{b, ElementType::f32}}));
    REQUIRE(r.ok());
    CHECK(r.shape().dims[0].symbol() == 3);
    CHECK(r.shape().dims[1].symbol() == 0);  // two symbols: either may be 1
    const auto lower = run_onnx_op(Onnx("Mul", 14, {OpInput{a, ElementType::f32}, In("4")}));
    CHECK(lower.shape().dims[1].symbol() == 5);
}

TEST_CASE("onnx elementwise: the legacy broadcast of opsets 1 to 6") {
    CHECK(run_onnx_op(Onnx("Add", 6, {In("2,3,4,5"), In("4,5")}, {{"broadcast", "1"}})).str() == "[2,3,4,5]");
    CHECK(run_onnx_op(Onnx("Add", 6, {In("2,3,4,5"), In("3,4")}, {{"broadcast", "1"}, {"axis", "1"}})).str() ==
          "[2,3,4,5]");
    CHECK(run_onnx_op(Onnx("Mul", 1, {In("2,3,4,5"), In("")}, {{"broadcast", "1"}})).str() == "[2,3,4,5]");
    CHECK(contains(run_onnx_op(Onnx("Add", 6, {In("2,3,4,5"), In("4,5")})).problem(), "broadcast=0"));
    CHECK_FALSE(run_onnx_op(Onnx("Add", 6, {In("2,3,4,5"), In("3,4")}, {{"broadcast", "1"}})).ok());
    CHECK(run_onnx_op(Onnx("Sub", 6, {In("2,3"), In("2,3")}, {{"consumed_inputs", "0,1"}})).str() == "[2,3]");
    CHECK(run_onnx_op(Onnx("Div", 6, {In("2,?"), In("...")})).str() == "[2,?]");
    // Comparisons of opset 1 give booleans of A's shape.
    const auto greater = run_onnx_op(Onnx("Greater", 1, {In("2,3"), In("3")}, {{"broadcast", "1"}}));
    CHECK(greater.str() == "[2,3]");
    CHECK(output_type(greater) == boolean);
}

TEST_CASE("onnx elementwise: binary ops' types") {
    CHECK(contains(run_onnx_op(Onnx("Add", 14, {In("2", i64), In("2", f32)})).problem(), "i64 and f32"));
    CHECK_FALSE(run_onnx_op(Onnx("Add", 7, {In("2", ElementType::u8), In("2", ElementType::u8)})).ok());
    CHECK(run_onnx_op(Onnx("Add", 14, {In("2", ElementType::u8), In("2", ElementType::u8)})).ok());
    // Pow's exponent may have another type from opset 12; the output is the base's.
    const auto pow = run_onnx_op(Onnx("Pow", 12, {In("2", f32), In("", i64)}));
    CHECK(output_type(pow) == f32);
    CHECK_FALSE(run_onnx_op(Onnx("Pow", 7, {In("2", f32), In("", i64)})).ok());
    CHECK(output_type(run_onnx_op(Onnx("Equal", 11, {In("2", i64), In("2", i64)}))) == boolean);
    CHECK_FALSE(run_onnx_op(Onnx("Equal", 13, {In("2", ElementType::string), In("2", ElementType::string)})).ok());
    CHECK(run_onnx_op(Onnx("Equal", 19, {In("2", ElementType::string), In("2", ElementType::string)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("And", 7, {In("2", f32), In("2", f32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("BitShift", 11, {In("2", i32), In("2", i32)}, {{"direction", "LEFT"}})).ok());
    CHECK(run_onnx_op(
              Onnx("BitShift", 11, {In("2", ElementType::u8), In("1", ElementType::u8)}, {{"direction", "RIGHT"}}))
              .str() == "[2]");
    CHECK_FALSE(run_onnx_op(Onnx("BitShift", 11, {In("2", ElementType::u8), In("1", ElementType::u8)})).ok());
    CHECK(output_type(run_onnx_op(Onnx("BitwiseXor", 18, {In("2", i32), In("2", i32)}))) == i32);
}

TEST_CASE("onnx elementwise: Mod's fmod") {
    CHECK(run_onnx_op(Onnx("Mod", 13, {In("2", i64), In("2", i64)})).ok());
    CHECK(contains(run_onnx_op(Onnx("Mod", 13, {In("2"), In("2")})).problem(), "fmod=0"));
    CHECK(run_onnx_op(Onnx("Mod", 13, {In("2"), In("2")}, {{"fmod", "1"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Mod", 13, {In("2", i64), In("2", i64)}, {{"fmod", "2"}})).ok());
    const auto python =
        Onnx("Mod", 13, {In("4", i64), In("4", i64)}, {}, {{0, V({7, -7, 7, -7})}, {1, V({3, 3, -3, -3})}});
    CHECK(value_str(run_onnx_op(python)) == "1,2,-2,-1");
    auto c_fmod = python;
    c_fmod.attrs = {{"fmod", "1"}};
    CHECK(value_str(run_onnx_op(c_fmod)) == "1,-1,1,-1");
}

TEST_CASE("onnx elementwise: integer values through the arithmetic") {
    const auto add = Onnx("Add", 14, {In("2", i64), In("", i64)}, {}, {{0, V({3, 4})}, {1, V({10})}});
    CHECK(value_str(run_onnx_op(add)) == "13,14");
    // ONNX's integer Div truncates toward zero.
    const auto div = Onnx("Div", 14, {In("2", i64), In("2", i64)}, {}, {{0, V({7, -7})}, {1, V({2, 2})}});
    CHECK(value_str(run_onnx_op(div)) == "3,-3");
    // A float Div gives a whole number only when it divides exactly.
    auto halves = Onnx("Div", 14, {In("2", f32), In("", f32)});
    halves.reals = {{0, {8.0, 6.0}}, {1, {2.0}}};
    CHECK(value_str(run_onnx_op(halves)) == "4,3");
    halves.reals[0] = {7.0, 6.0};
    CHECK(value_str(run_onnx_op(halves)) == "<none>");
    // Bounds through Mul of non-negative bounds, as the IR ops fold them.
    const auto mul = Onnx("Mul", 14, {In("1", i64), In("1", i64)}, {}, {{0, {ValueBounds{2, 5}}}, {1, V({3})}});
    CHECK(value_str(run_onnx_op(mul)) == "6..15");
    // Bounds moved or divided by an exact value: a dim less one, half a dim.
    const auto less_one = Onnx("Sub", 14, {In("1", i64), In("", i64)}, {}, {{0, {ValueBounds{2, 9}}}, {1, V({1})}});
    CHECK(value_str(run_onnx_op(less_one)) == "1..8");
    const auto plus = Onnx("Add", 14, {In("", i64), In("1", i64)}, {},
                           {{0, V({-1})}, {1, {ValueBounds{0, ValueBounds::kUnbounded}}}});
    CHECK(value_str(run_onnx_op(plus)) == "-1..inf");
    const auto half = Onnx("Div", 14, {In("1", i64), In("", i64)}, {}, {{0, {ValueBounds{3, 9}}}, {1, V({2})}});
    CHECK(value_str(run_onnx_op(half)) == "1..4");
    const auto by_bounds = Onnx("Div", 14, {In("1", i64), In("", i64)}, {}, {{0, V({8})}, {1, {ValueBounds{1, 2}}}});
    CHECK(value_str(run_onnx_op(by_bounds)) == "<none>");
    // A result the type cannot hold wraps: not followed.
    const auto wrap =
        Onnx("Add", 14, {In("1", ElementType::u8), In("1", ElementType::u8)}, {}, {{0, V({200})}, {1, V({100})}});
    CHECK(value_str(run_onnx_op(wrap)) == "<none>");
    const auto sub = Onnx("Sub", 14, {In("2,1", i64), In("2", i64)}, {}, {{0, V({10, 20})}, {1, V({1, 2})}});
    CHECK(value_str(run_onnx_op(sub)) == "9,8,19,18");
}

TEST_CASE("onnx elementwise: comparison and logical values are booleans") {
    const auto eq = Onnx("Equal", 13, {In("3", i64), In("", i64)}, {}, {{0, V({1, 2, 3})}, {1, V({2})}});
    CHECK(value_str(run_onnx_op(eq)) == "0,1,0");
    const auto less = Onnx("Less", 13, {In("3", i64), In("", i64)}, {}, {{0, V({1, 2, 3})}, {1, V({2})}});
    CHECK(value_str(run_onnx_op(less)) == "1,0,0");
    const auto ge = Onnx("GreaterOrEqual", 16, {In("3", i64), In("", i64)}, {}, {{0, V({1, 2, 3})}, {1, V({2})}});
    CHECK(value_str(run_onnx_op(ge)) == "0,1,1");
    const auto orr = Onnx("Or", 7, {In("2", boolean), In("2", boolean)}, {}, {{0, V({1, 0})}, {1, V({0, 0})}});
    CHECK(value_str(run_onnx_op(orr)) == "1,0");
    const auto band = Onnx("BitwiseAnd", 18, {In("1", i32), In("1", i32)}, {}, {{0, V({12})}, {1, V({10})}});
    CHECK(value_str(run_onnx_op(band)) == "8");
}

// ---------------------------------------------------------------- variadic, Where

TEST_CASE("onnx elementwise: Sum, Mean, Max, Min broadcast all their inputs from opset 8") {
    CHECK(run_onnx_op(Onnx("Sum", 8, {In("3,1"), In("4"), In("1,1")})).str() == "[3,4]");
    CHECK(run_onnx_op(Onnx("Max", 13, {In("2,3")})).str() == "[2,3]");
    CHECK(run_onnx_op(Onnx("Mean", 6, {In("2,3"), In("2,3")})).str() == "[2,3]");
    CHECK(contains(run_onnx_op(Onnx("Min", 13, {In("3"), In("4")})).problem(), "do not broadcast"));
    CHECK_FALSE(run_onnx_op(Onnx("Max", 8, {In("3", i64), In("3", i64)})).ok());
    CHECK(run_onnx_op(Onnx("Max", 12, {In("3", i64), In("3", i64)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Max", 12, {In("3", i64), In("3", i32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Sum", 13, {})).ok());
}

TEST_CASE("onnx elementwise: Max and Min carry bounds; Sum adds") {
    const auto max =
        Onnx("Max", 13, {In("2", i64), In("", i64)}, {}, {{0, {ValueBounds{0, 7}, ValueBounds{3, 3}}}, {1, V({1})}});
    CHECK(value_str(run_onnx_op(max)) == "1..7,3");
    const auto min = Onnx("Min", 13, {In("1", i64), In("", i64), In("", i64)}, {},
                          {{0, {ValueBounds{2, ValueBounds::kUnbounded}}}, {1, V({9})}, {2, V({6})}});
    CHECK(value_str(run_onnx_op(min)) == "2..6");
    const auto sum = Onnx("Sum", 13, {In("2", ElementType::f32), In("2", ElementType::f32), In("", ElementType::f32)});
    auto with_reals = sum;
    with_reals.reals = {{0, {1.0, 2.0}}, {1, {3.0, 4.0}}, {2, {10.0}}};
    CHECK(value_str(run_onnx_op(with_reals)) == "14,16");
}

TEST_CASE("onnx elementwise: Where broadcasts condition, X and Y; its values pick") {
    const auto r = run_onnx_op(Onnx("Where", 16, {In("2,1", boolean), In("3"), In("1,1")}));
    CHECK(r.str() == "[2,3]");
    CHECK(output_type(r) == f32);
    CHECK_FALSE(run_onnx_op(Onnx("Where", 16, {In("2", f32), In("2"), In("2")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Where", 16, {In("2", boolean), In("2", i64), In("2")})).ok());
    CHECK_FALSE(
        run_onnx_op(Onnx("Where", 9, {In("2", boolean), In("2", ElementType::bf16), In("2", ElementType::bf16)})).ok());
    const auto pick = Onnx("Where", 16, {In("3", boolean), In("3", i64), In("", i64)}, {},
                           {{0, V({1, 0, 1})}, {1, V({4, 5, 6})}, {2, V({-1})}});
    CHECK(value_str(run_onnx_op(pick)) == "4,-1,6");
}

TEST_CASE("onnx elementwise: every version of the family is an entry") {
    for (const auto& [op, version] : {std::pair{"Add", 1},
                                      {"Add", 6},
                                      {"Add", 7},
                                      {"Add", 13},
                                      {"Add", 14},
                                      {"Identity", 25},
                                      {"Cast", 25},
                                      {"CastLike", 25},
                                      {"Dropout", 22},
                                      {"Clip", 13},
                                      {"Softmax", 13},
                                      {"Equal", 19},
                                      {"Where", 16}}) {
        CHECK(entry_of(op, version, OpFormat::onnx).since_opset == version);
    }
    const auto found = find_onnx_op("", "Softmax", 12);
    REQUIRE(found);
    REQUIRE(found->entry);
    CHECK(found->entry->version == 11);
}

TEST_CASE("onnx elementwise: BitCast reads the bits as `to`, a type of the same width") {
    const auto r = run_onnx_op(Onnx("BitCast", 26, {In("2,?")}, {{"to", "6"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,?]");
    CHECK(output_type(r) == i32);
    CHECK(output_type(run_onnx_op(Onnx("BitCast", 26, {In("", ElementType::boolean)}, {{"to", "2"}}))) == ElementType::u8);
    CHECK(run_onnx_op(Onnx("BitCast", 26, {In("3", i64)}, {{"to", "14"}})).ok());  // complex64: 64 bits, no name
    // Widths differ: f32 (32) to i64 (64); f16 (16) to u8 (8).
    CHECK(contains(run_onnx_op(Onnx("BitCast", 26, {In("3")}, {{"to", "7"}})).problem(), "32 bits"));
    CHECK_FALSE(run_onnx_op(Onnx("BitCast", 26, {In("3", ElementType::f16)}, {{"to", "2"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("BitCast", 26, {In("3", ElementType::string)}, {{"to", "1"}})).ok());
    CHECK(contains(run_onnx_op(Onnx("BitCast", 26, {In("3")}, {{"to", "8"}})).problem(), "to=8"));    // string
    CHECK(contains(run_onnx_op(Onnx("BitCast", 26, {In("3")}, {{"to", "27"}})).problem(), "to=27"));  // none
    CHECK_FALSE(run_onnx_op(Onnx("BitCast", 26, {In("3")})).ok());  // `to` is required
}

TEST_CASE("onnx elementwise: integer values through BitCast wrap two's complement") {
    const auto i8 = ElementType::i8, u8 = ElementType::u8;
    CHECK(value_str(run_onnx_op(Onnx("BitCast", 26, {In("4", i8)}, {{"to", "2"}}, {{0, V({-1, -128, 127, 0})}}))) ==
          "255,128,127,0");
    CHECK(value_str(run_onnx_op(Onnx("BitCast", 26, {In("2", u8)}, {{"to", "3"}}, {{0, V({200, 5})}}))) == "-56,5");
    CHECK(value_str(run_onnx_op(Onnx("BitCast", 26, {In("2", u8)}, {{"to", "9"}}, {{0, V({1, 0})}}))) == "1,0");
    CHECK(value_str(run_onnx_op(Onnx("BitCast", 26, {In("1", u8)}, {{"to", "9"}}, {{0, V({2})}}))) == "<none>");
    // 64-bit patterns past int64 and float patterns are not followed.
    CHECK(value_str(run_onnx_op(Onnx("BitCast", 26, {In("1", i64)}, {{"to", "13"}}, {{0, V({-1})}}))) == "<none>");
    CHECK(value_str(run_onnx_op(Onnx("BitCast", 26, {In("1", i32)}, {{"to", "1"}}, {{0, V({1})}}))) == "<none>");
}

TEST_CASE("onnx elementwise: SwiGLU's A and B have one shape, which Y has") {
    Shape a = S("?,4");
    a.dims[0] = a.dims[0].with_symbol(7);
    OpInput gate = In("?,4");
    gate.shape = a;
    const auto r = run_onnx_op(Onnx("SwiGLU", 28, {gate, In("2..5,?")}, {{"alpha", "0.5"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2..5,4]");
    CHECK(r.shape().dims[0].symbol() == 7);
    CHECK(output_type(r) == f32);
    CHECK(output_type(run_onnx_op(Onnx("SwiGLU", 28, {In("2", ElementType::bf16), In("2", ElementType::bf16)}))) ==
          ElementType::bf16);
    CHECK(run_onnx_op(Onnx("SwiGLU", 28, {In("..."), In("2,4")})).str() == "[...]");
    // No broadcasting: neither a 1 against 4 nor a missing leading dim.
    CHECK(contains(run_onnx_op(Onnx("SwiGLU", 28, {In("2,4"), In("2,1")})).problem(), "one shape"));
    CHECK_FALSE(run_onnx_op(Onnx("SwiGLU", 28, {In("2,4"), In("4")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("SwiGLU", 28, {In("2", i32), In("2", i32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("SwiGLU", 28, {In("2"), In("2", ElementType::f16)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("SwiGLU", 28, {In("2")})).ok());
}
