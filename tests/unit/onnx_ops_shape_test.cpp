// Unit tests of the ONNX shape ops (rules/ops/onnx_shape_ops.cpp).
#include <doctest/doctest.h>

#include <cmath>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {

InlineTensor ints_tensor(ElementType type, std::vector<int64_t> dims, std::vector<int64_t> ints) {
    InlineTensor t;
    t.type = type;
    t.dims = std::move(dims);
    t.ints = std::move(ints);
    t.has_data = true;
    return t;
}

// A value taken from a dim of symbol `symbol` (as Shape gives one of a dynamic dim).
ValueBounds from_dim(uint32_t symbol) {
    ValueBounds b{0, ValueBounds::kUnbounded};
    b.symbol = symbol;
    return b;
}

std::vector<int64_t> exact(const OpOutput& o) {
    std::vector<int64_t> v;
    if (!o.value) return v;
    for (const ValueBounds& b : *o.value) v.push_back(b.lo == b.hi ? b.lo : -999);
    return v;
}

}  // namespace

TEST_CASE("onnx Shape: the dims as values, start and end from 15, symbols kept") {
    Shape x = S("2,?,4,5");
    x.dims[1] = x.dims[1].with_symbol(7);
    auto r = run_onnx_op(Onnx("Shape", 13, {OpInput{x, ElementType::f32}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[4]");
    CHECK(r.outputs[0].type == ElementType::i64);
    REQUIRE(r.outputs[0].value);
    CHECK((*r.outputs[0].value)[1].symbol == 7);
    CHECK((*r.outputs[0].value)[3].lo == 5);
    r = run_onnx_op(Onnx("Shape", 15, {In("2,3,4,5")}, {{"start", "-3"}, {"end", "-1"}}));
    CHECK(r.str() == "[2]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{3, 4});
    r = run_onnx_op(Onnx("Shape", 15, {In("2,3,4,5")}, {{"start", "10"}}));  // clamped: empty
    CHECK(r.str() == "[0]");
    r = run_onnx_op(Onnx("Shape", 15, {In("2,3,4,5")}, {{"start", "-100"}, {"end", "2"}}));
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{2, 3});
    CHECK(run_onnx_op(Onnx("Shape", 1, {In("...")})).str() == "[?]");
    CHECK(!run_onnx_op(Onnx("Shape", 1, {In("2", ElementType::bf16)})).ok());  // bf16 from 13
    CHECK(run_onnx_op(Onnx("Shape", 13, {In("2", ElementType::bf16)})).ok());
}

TEST_CASE("onnx Size: a scalar int64 with the element count as value") {
    auto r = run_onnx_op(Onnx("Size", 13, {In("2,3,4")}));
    CHECK(r.str() == "[]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{24});
    r = run_onnx_op(Onnx("Size", 13, {In("2,?")}));
    REQUIRE(r.outputs[0].value);
    CHECK(!(*r.outputs[0].value)[0].exact());
}

TEST_CASE("onnx Reshape: 0 copies a dim unless allowzero, one -1, element counts") {
    auto r = run_onnx_op(Onnx("Reshape", 13, {In("2,3,4"), In("3", ElementType::i64)}, {}, {{1, V({0, -1, 2})}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,6,2]");
    r = run_onnx_op(
        Onnx("Reshape", 14, {In("0,3,4"), In("3", ElementType::i64)}, {{"allowzero", "1"}}, {{1, V({3, 4, 0})}}));
    CHECK(r.str() == "[3,4,0]");
    r = run_onnx_op(
        Onnx("Reshape", 14, {In("2,3,4"), In("2", ElementType::i64)}, {{"allowzero", "1"}}, {{1, V({0, -1})}}));
    CHECK(r.problem().find("allowzero") != std::string::npos);
    r = run_onnx_op(Onnx("Reshape", 13, {In("2,3,4"), In("2", ElementType::i64)}, {}, {{1, V({-1, -1})}}));
    CHECK(!r.ok());
    r = run_onnx_op(Onnx("Reshape", 13, {In("2,3,4"), In("2", ElementType::i64)}, {}, {{1, V({5, 5})}}));
    CHECK(!r.ok());
    r = run_onnx_op(Onnx("Reshape", 13, {In("2,3,4"), In("2", ElementType::i32)}, {}, {{1, V({6, 4})}}));
    CHECK(r.problem().find("int64") != std::string::npos);  // the shape input is tensor(int64)
    // Reshape-1 takes the shape as an attribute.
    r = run_onnx_op(Onnx("Reshape", 1, {In("2,3,4")}, {{"shape", "4,-1"}}));
    CHECK(r.str() == "[4,6]");
    // Unknown target: its length gives the rank.
    r = run_onnx_op(Onnx("Reshape", 13, {In("2,3,4"), In("2", ElementType::i64)}));
    CHECK(r.str() == "[?,?]");
    CHECK(r.unknown);
}

TEST_CASE("onnx Reshape: a target taken from the input's Shape cancels the dynamic dim") {
    Shape x = S("?,12");
    x.dims[0] = x.dims[0].with_symbol(3);
    TensorValue target{from_dim(3), {-1, -1}, {4, 4}};
    auto r =
        run_onnx_op(Onnx("Reshape", 13, {OpInput{x, ElementType::f32}, In("3", ElementType::i64)}, {}, {{1, target}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[?,3,4]");
    CHECK(r.outputs[0].shape.dims[0].symbol() == 3);
}

TEST_CASE("onnx Reshape: the values pass through") {
    auto r = run_onnx_op(Onnx("Reshape", 13, {In("2", ElementType::i64), In("2", ElementType::i64)}, {},
                              {{0, V({3, 4})}, {1, V({1, 2})}}));
    CHECK(r.str() == "[1,2]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{3, 4});
}

TEST_CASE("onnx Flatten: axis in [-r, r] from 11, non-negative before") {
    CHECK(run_onnx_op(Onnx("Flatten", 13, {In("2,3,4,5")}, {{"axis", "2"}})).str() == "[6,20]");
    CHECK(run_onnx_op(Onnx("Flatten", 13, {In("2,3,4,5")})).str() == "[2,60]");
    CHECK(run_onnx_op(Onnx("Flatten", 13, {In("2,3,4,5")}, {{"axis", "-1"}})).str() == "[24,5]");
    CHECK(run_onnx_op(Onnx("Flatten", 13, {In("2,3,4,5")}, {{"axis", "4"}})).str() == "[120,1]");
    CHECK(run_onnx_op(Onnx("Flatten", 13, {In("2,3,4,5")}, {{"axis", "0"}})).str() == "[1,120]");
    auto r = run_onnx_op(Onnx("Flatten", 9, {In("2,3")}, {{"axis", "-1"}}));
    CHECK(r.problem() == "axis -1 is out of range [0, 2]");
    CHECK(run_onnx_op(Onnx("Flatten", 13, {In("2,3")}, {{"axis", "3"}})).problem() == "axis 3 is out of range [-2, 2]");
    CHECK(!run_onnx_op(Onnx("Flatten", 1, {In("2,3", ElementType::i32)})).ok());  // Flatten-1 takes floats
}

TEST_CASE("onnx Squeeze: axes attribute before 13, input from 13, static 1s without axes") {
    CHECK(run_onnx_op(Onnx("Squeeze", 1, {In("1,3,1,5")}, {{"axes", "0"}})).str() == "[3,1,5]");
    // Before 11 a negative axis is not ONNX's, but the runtimes count it from the back: a warning.
    auto negative = run_onnx_op(Onnx("Squeeze", 1, {In("1,3,1,5")}, {{"axes", "-2"}}));
    CHECK(negative.str() == "[1,3,5]");
    REQUIRE(negative.warnings.size() == 1);
    CHECK(negative.warnings[0] == "Squeeze-1: axes [-2] is negative, which ONNX defines only from opset 11; ONNX "
                                  "Runtime and OpenVINO count it from the back, as inferred here, but ONNX's own "
                                  "shape inference before opset 11 does not");
    negative = run_onnx_op(Onnx("Unsqueeze", 1, {In("3,5")}, {{"axes", "-1"}}));
    CHECK(negative.str() == "[3,5,1]");
    CHECK(negative.warnings.size() == 1);
    CHECK(run_onnx_op(Onnx("Squeeze", 1, {In("1,3,1,5")}, {{"axes", "2"}})).warnings.empty());
    CHECK(run_onnx_op(Onnx("Squeeze", 11, {In("1,3,1,5")}, {{"axes", "-2"}})).str() == "[1,3,5]");
    CHECK(run_onnx_op(Onnx("Squeeze", 13, {In("1,3,1,5"), In("1", ElementType::i64)}, {}, {{1, V({-2})}})).str() ==
          "[1,3,5]");
    CHECK(run_onnx_op(Onnx("Squeeze", 13, {In("1,3,1,5")})).str() == "[3,5]");
    CHECK(run_onnx_op(Onnx("Squeeze", 13, {In("1,?,5")})).str() == "[...]");  // ? may be 1
    auto r = run_onnx_op(Onnx("Squeeze", 13, {In("1,3,1,5"), In("1", ElementType::i64)}, {}, {{1, V({1})}}));
    CHECK(r.problem().find("not 1") != std::string::npos);
    r = run_onnx_op(Onnx("Squeeze", 13, {In("1,3,1,5"), In("2", ElementType::i64)}));
    CHECK(r.str() == "[?,?]");
    CHECK(r.unknown);
    // An omitted axes input (ONNX's empty name) is no axes.
    OpInput omitted = In("1", ElementType::i64);
    omitted.present = false;
    CHECK(run_onnx_op(Onnx("Squeeze", 13, {In("1,3,1"), omitted})).str() == "[3]");
    // A shape scalar's value passes.
    r = run_onnx_op(
        Onnx("Squeeze", 13, {In("1", ElementType::i64), In("1", ElementType::i64)}, {}, {{0, V({8})}, {1, V({0})}}));
    CHECK(r.str() == "[]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{8});
}

TEST_CASE("onnx Unsqueeze: axes index the output, unique, values pass") {
    CHECK(run_onnx_op(Onnx("Unsqueeze", 1, {In("3,4")}, {{"axes", "0,3"}})).str() == "[1,3,4,1]");
    CHECK(run_onnx_op(Onnx("Unsqueeze", 13, {In("3,4"), In("2", ElementType::i64)}, {}, {{1, V({-1, 0})}})).str() ==
          "[1,3,4,1]");
    CHECK(run_onnx_op(Onnx("Unsqueeze", 13, {In("3,4"), In("3", ElementType::i64)}, {}, {{1, V({2, 0, 1})}})).str() ==
          "[1,1,1,3,4]");
    auto r = run_onnx_op(Onnx("Unsqueeze", 13, {In("3,4"), In("2", ElementType::i64)}, {}, {{1, V({0, -4})}}));
    CHECK(r.problem() == "axes [0,-4] names axis 0 twice");
    r = run_onnx_op(Onnx("Unsqueeze", 13, {In("3,4"), In("1", ElementType::i64)}, {}, {{1, V({3})}}));
    CHECK(r.problem() == "axes 3 is out of range [-3, 2]");
    r = run_onnx_op(
        Onnx("Unsqueeze", 13, {In("", ElementType::i64), In("1", ElementType::i64)}, {}, {{0, V({5})}, {1, V({0})}}));
    CHECK(r.str() == "[1]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{5});
    CHECK(run_onnx_op(Onnx("Unsqueeze", 13, {In("3,4"), In("2", ElementType::i64)})).str() == "[?,?,?,?]");
}

TEST_CASE("onnx Transpose: perm, reversed without one, values permuted") {
    CHECK(run_onnx_op(Onnx("Transpose", 13, {In("2,3,4")})).str() == "[4,3,2]");
    CHECK(run_onnx_op(Onnx("Transpose", 13, {In("2,3,4")}, {{"perm", "0,2,1"}})).str() == "[2,4,3]");
    CHECK(!run_onnx_op(Onnx("Transpose", 13, {In("2,3,4")}, {{"perm", "0,1"}})).ok());
    CHECK(!run_onnx_op(Onnx("Transpose", 13, {In("2,3,4")}, {{"perm", "0,1,1"}})).ok());
    CHECK(!run_onnx_op(Onnx("Transpose", 13, {In("2,3,4")}, {{"perm", "0,-1,1"}})).ok());
    auto r = run_onnx_op(Onnx("Transpose", 13, {In("2,3", ElementType::i64)}, {}, {{0, V({1, 2, 3, 4, 5, 6})}}));
    CHECK(r.str() == "[3,2]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("onnx Concat: axis required from 4, negative from 11, values joined") {
    auto r = run_onnx_op(Onnx("Concat", 13, {In("1", ElementType::i64), In("2", ElementType::i64)}, {{"axis", "0"}},
                              {{0, V({7})}, {1, V({-1, 4})}}));
    CHECK(r.str() == "[3]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{7, -1, 4});
    CHECK(run_onnx_op(Onnx("Concat", 11, {In("2,3"), In("2,5")}, {{"axis", "-1"}})).str() == "[2,8]");
    const auto negative = run_onnx_op(Onnx("Concat", 4, {In("2,3"), In("2,5")}, {{"axis", "-1"}}));
    CHECK(negative.str() == "[2,8]");
    CHECK(negative.warnings.size() == 1);
    CHECK(!run_onnx_op(Onnx("Concat", 13, {In("2,3"), In("2,5")})).ok());            // axis required
    CHECK(run_onnx_op(Onnx("Concat", 1, {In("2,3"), In("2,5")})).str() == "[2,8]");  // default 1
    CHECK(!run_onnx_op(Onnx("Concat", 13, {In("2,3"), In("3,5")}, {{"axis", "1"}})).ok());
    CHECK(!run_onnx_op(Onnx("Concat", 13, {In("2,3"), In("2,3", ElementType::f16)}, {{"axis", "1"}})).ok());
    CHECK(run_onnx_op(Onnx("Concat", 13, {In("2,3"), In("2,3")}, {{"axis", "2"}})).problem() ==
          "axis 2 is out of range [-2, 1]");
    CHECK(run_onnx_op(Onnx("Concat", 13, {In("?,3"), In("2,?")}, {{"axis", "0"}})).str() == "[2..,3]");
}

TEST_CASE("onnx Split: attribute, input, num_outputs with an uneven last part") {
    auto r = run_onnx_op(Onnx("Split", 2, {In("6,4")}, {{"split", "2,4"}}));
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(1) == "[4,4]");
    r = run_onnx_op(Onnx("Split", 13, {In("6,4"), In("3", ElementType::i64)}, {{"axis", "-1"}}, {{1, V({1, 1, 2})}}));
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(2) == "[6,2]");
    r = run_onnx_op(Onnx("Split", 18, {In("7")}, {{"num_outputs", "3"}}));
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[3]");
    CHECK(r.str(2) == "[1]");
    CHECK(!run_onnx_op(Onnx("Split", 18, {In("7")})).ok());  // neither split nor num_outputs
    CHECK(
        !run_onnx_op(Onnx("Split", 13, {In("6"), In("2", ElementType::i64)}, {}, {{1, V({2, 2})}})).ok());  // sums to 4
    r = run_onnx_op(Onnx("Split", 13, {In("6", ElementType::i64), In("2", ElementType::i64)}, {},
                         {{0, V({1, 2, 3, 4, 5, 6})}, {1, V({2, 4})}}));
    CHECK(exact(r.outputs[1]) == std::vector<int64_t>{3, 4, 5, 6});
    r = run_onnx_op(Onnx("Split", 13, {In("6,4"), In("2", ElementType::i64)}));
    CHECK(r.unknown);
    CHECK(r.str(0) == "[?,4]");
}

TEST_CASE("onnx Expand and Tile: the shape and repeats values") {
    auto r = run_onnx_op(Onnx("Expand", 13, {In("3,1"), In("3", ElementType::i64)}, {}, {{1, V({2, 1, 6})}}));
    CHECK(r.str() == "[2,3,6]");
    CHECK(!run_onnx_op(Onnx("Expand", 13, {In("3,2"), In("1", ElementType::i64)}, {}, {{1, V({4})}})).ok());
    r = run_onnx_op(
        Onnx("Expand", 13, {In("1", ElementType::i64), In("1", ElementType::i64)}, {}, {{0, V({9})}, {1, V({3})}}));
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{9, 9, 9});
    CHECK(run_onnx_op(Onnx("Expand", 13, {In("3,1"), In("3", ElementType::i64)})).str() == "[?,?,?]");
    r = run_onnx_op(Onnx("Tile", 13, {In("2,3"), In("2", ElementType::i64)}, {}, {{1, V({3, 2})}}));
    CHECK(r.str() == "[6,6]");
    CHECK(!run_onnx_op(Onnx("Tile", 13, {In("2,3"), In("1", ElementType::i64)}, {}, {{1, V({3})}})).ok());
    r = run_onnx_op(
        Onnx("Tile", 13, {In("2", ElementType::i64), In("1", ElementType::i64)}, {}, {{0, V({1, 2})}, {1, V({2})}}));
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{1, 2, 1, 2});
}

TEST_CASE("onnx Constant: each value attribute, integer values flow") {
    OnnxCase c = Onnx("Constant", 13, {});
    c.tensor_attrs = {{"value", ints_tensor(ElementType::i64, {2}, {5, -1})}};
    auto r = run_onnx_op(c);
    CHECK(r.str() == "[2]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{5, -1});
    r = run_onnx_op(Onnx("Constant", 13, {}, {{"value_ints", "1,2,3"}}));
    CHECK(r.str() == "[3]");
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{1, 2, 3});
    r = run_onnx_op(Onnx("Constant", 13, {}, {{"value_int", "4"}}));
    CHECK(r.str() == "[]");
    r = run_onnx_op(Onnx("Constant", 13, {}, {{"value_floats", "1.5,2"}}));
    CHECK(r.str() == "[2]");
    CHECK(r.outputs[0].type == ElementType::f32);
    CHECK(run_onnx_op(Onnx("Constant", 13, {}, {{"value_strings", "a,b,c"}})).str() == "[3]");
    CHECK(!run_onnx_op(Onnx("Constant", 13, {})).ok());
    CHECK(!run_onnx_op(Onnx("Constant", 13, {}, {{"value_int", "4"}, {"value_float", "1"}})).ok());
    c = Onnx("Constant", 1, {});
    c.tensor_attrs = {{"value", ints_tensor(ElementType::i64, {1}, {1})}};
    r = run_onnx_op(c);  // the schema says floats, but ONNX's checker and ONNX Runtime take integer Constant-1s
    CHECK(r.ok());
    CHECK(r.outputs[0].type == ElementType::i64);
}

TEST_CASE("onnx ConstantOfShape: the shape's values, value's type, default f32") {
    auto r = run_onnx_op(Onnx("ConstantOfShape", 9, {In("2", ElementType::i64)}, {}, {{0, V({3, 4})}}));
    CHECK(r.str() == "[3,4]");
    CHECK(r.outputs[0].type == ElementType::f32);
    OnnxCase c = Onnx("ConstantOfShape", 9, {In("1", ElementType::i64)}, {}, {{0, V({3})}});
    c.tensor_attrs = {{"value", ints_tensor(ElementType::i64, {1}, {1})}};
    r = run_onnx_op(c);
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{1, 1, 1});
    CHECK(run_onnx_op(Onnx("ConstantOfShape", 9, {In("1", ElementType::i64)}, {}, {{0, V({0})}})).str() == "[0]");
    CHECK(!run_onnx_op(Onnx("ConstantOfShape", 9, {In("1", ElementType::i64)}, {}, {{0, V({-2})}})).ok());
    CHECK(run_onnx_op(Onnx("ConstantOfShape", 9, {In("3", ElementType::i64)})).str() == "[?,?,?]");
}

TEST_CASE("onnx Range: integer values and float lengths") {
    auto r =
        run_onnx_op(Onnx("Range", 11, {In("", ElementType::i64), In("", ElementType::i64), In("", ElementType::i64)},
                         {}, {{0, V({10})}, {1, V({4})}, {2, V({-3})}}));
    CHECK(r.str() == "[2]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{10, 7});
    OnnxCase c = Onnx("Range", 11, {In(""), In(""), In("")});
    c.reals = {{0, {1.0}}, {1, {5.0}}, {2, {0.5}}};
    CHECK(run_onnx_op(c).str() == "[8]");
    c.reals = {{0, {5.0}}, {1, {1.0}}, {2, {0.5}}};
    CHECK(run_onnx_op(c).str() == "[0]");
    CHECK(
        !run_onnx_op(Onnx("Range", 11, {In("", ElementType::f16), In("", ElementType::f16), In("", ElementType::f16)}))
             .ok());
    CHECK(run_onnx_op(Onnx("Range", 27, {In("", ElementType::f16), In("", ElementType::f16), In("", ElementType::f16)}))
              .ok());
    CHECK(!run_onnx_op(Onnx("Range", 11, {In(""), In("", ElementType::f64), In("")})).ok());
}

TEST_CASE("onnx Slice: attributes before 10, inputs after, ONNX's clamping, values") {
    auto r = run_onnx_op(Onnx("Slice", 1, {In("20,10,5")}, {{"starts", "0,0"}, {"ends", "3,10"}, {"axes", "0,1"}}));
    CHECK(r.str() == "[3,10,5]");
    const auto i64 = [](const std::string& s) { return In(s, ElementType::i64); };
    r = run_onnx_op(Onnx("Slice", 13, {In("20,10,5"), i64("1"), i64("1"), i64("1"), i64("1")}, {},
                         {{1, V({-1})}, {2, V({-9223372036854775807 - 1})}, {3, V({1})}, {4, V({-1})}}));
    CHECK(r.str() == "[20,10,5]");
    // A start past the front with a negative step: ONNX clamps it to 0 and takes one element.
    r = run_onnx_op(Onnx("Slice", 13, {In("5"), i64("1"), i64("1"), i64("1"), i64("1")}, {},
                         {{1, V({-100})}, {2, V({-100})}, {3, V({0})}, {4, V({-1})}}));
    CHECK(r.str() == "[1]");
    r = run_onnx_op(Onnx("Slice", 13, {In("20,10,5"), i64("1"), i64("1")}, {}, {{1, V({1000})}, {2, V({1001})}}));
    CHECK(r.str() == "[0,10,5]");
    r = run_onnx_op(Onnx("Slice", 13, {In("20,10,5"), i64("1"), i64("1"), i64("1"), i64("1")}, {},
                         {{1, V({20})}, {2, V({0})}, {3, V({0})}, {4, V({-3})}}));
    CHECK(r.str() == "[7,10,5]");
    // Shape -> Slice: a value vector.
    r = run_onnx_op(Onnx("Slice", 13, {i64("4"), i64("1"), i64("1")}, {},
                         {{0, V({1, 3, 224, 224})}, {1, V({2})}, {2, V({9223372036854775807})}}));
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{224, 224});
    CHECK(!run_onnx_op(Onnx("Slice", 13, {In("4"), i64("1"), i64("1"), i64("1"), i64("1")}, {},
                            {{1, V({0})}, {2, V({1})}, {3, V({0})}, {4, V({0})}}))
               .ok());
    CHECK(!run_onnx_op(Onnx("Slice", 13, {In("4"), i64("1"), In("1", ElementType::i32)})).ok());  // one Tind
    r = run_onnx_op(
        Onnx("Slice", 13, {In("8,?"), i64("1"), i64("1"), i64("1")}, {}, {{1, V({0})}, {2, V({3})}, {3, V({1})}}));
    CHECK(r.str() == "[8,..3]");
    r = run_onnx_op(Onnx("Slice", 13, {In("8,6"), i64("1"), i64("1"), i64("1")}, {}, {{3, V({1})}}));
    CHECK(r.str() == "[8,..6]");
    CHECK(r.unknown);
}

TEST_CASE("onnx Gather: axis, negative indices' values, index types") {
    auto r = run_onnx_op(Onnx("Gather", 13, {In("5,4,3"), In("2,2", ElementType::i64)}, {{"axis", "1"}}));
    CHECK(r.str() == "[5,2,2,3]");
    r = run_onnx_op(Onnx("Gather", 13, {In("4", ElementType::i64), In("", ElementType::i64)}, {},
                         {{0, V({1, 3, 224, 225})}, {1, V({-1})}}));
    CHECK(r.str() == "[]");
    CHECK(exact(r.outputs[0]) == std::vector<int64_t>{225});
    CHECK(run_onnx_op(Onnx("Gather", 13, {In("5,4,3"), In("2", ElementType::i64)}, {{"axis", "3"}})).problem() ==
          "axis 3 is out of range [-3, 2]");
    CHECK(!run_onnx_op(Onnx("Gather", 13, {In("5,4,3"), In("2", ElementType::f32)})).ok());
    CHECK(run_onnx_op(Onnx("GatherElements", 13, {In("5,4"), In("2,4", ElementType::i32)}, {{"axis", "-2"}})).str() ==
          "[2,4]");
    CHECK(!run_onnx_op(Onnx("GatherElements", 13, {In("5,4"), In("2", ElementType::i32)})).ok());
    CHECK(run_onnx_op(Onnx("GatherND", 12, {In("2,3,4"), In("2,1", ElementType::i64)}, {{"batch_dims", "1"}})).str() ==
          "[2,4]");
    CHECK(run_onnx_op(Onnx("GatherND", 11, {In("2,3,4"), In("5,2", ElementType::i64)})).str() == "[5,4]");
    CHECK(!run_onnx_op(Onnx("GatherND", 11, {In("2,3"), In("5,3", ElementType::i64)})).ok());
    CHECK(!run_onnx_op(Onnx("GatherND", 11, {In("2,3"), In("5,2", ElementType::i32)})).ok());
}

TEST_CASE("onnx scatters: the data's shape, reduction by version, updates' shape") {
    const auto i64 = [](const std::string& s) { return In(s, ElementType::i64); };
    CHECK(run_onnx_op(Onnx("ScatterElements", 18, {In("3,3"), i64("2,3"), In("2,3")}, {{"reduction", "max"}})).str() ==
          "[3,3]");
    CHECK(!run_onnx_op(Onnx("ScatterElements", 16, {In("3,3"), i64("2,3"), In("2,3")}, {{"reduction", "max"}})).ok());
    CHECK(!run_onnx_op(Onnx("ScatterElements", 13, {In("3,3"), i64("2,3"), In("2,2")})).ok());
    CHECK(run_onnx_op(Onnx("ScatterND", 11, {In("4,4,4"), i64("2,1"), In("2,4,4")})).str() == "[4,4,4]");
    CHECK(!run_onnx_op(Onnx("ScatterND", 11, {In("4,4,4"), i64("2,1"), In("2,4")})).ok());
    CHECK(run_onnx_op(Onnx("Scatter", 9, {In("3,3"), i64("2,3"), In("2,3")})).ok());
    CHECK(!run_onnx_op(Onnx("Scatter", 11, {In("3,3"), i64("2,3"), In("2,3")})).ok());
    CHECK(run_onnx_op(Onnx("TensorScatter", 24, {In("2,3,8,4"), In("2,3,2,4"), i64("2")})).str() == "[2,3,8,4]");
    CHECK(!run_onnx_op(Onnx("TensorScatter", 24, {In("2,3,8,4"), In("2,3,2,4")}, {{"axis", "0"}})).ok());
}

TEST_CASE("onnx Pad: attributes before 11, inputs after, axes from 18, modes") {
    CHECK(run_onnx_op(Onnx("Pad", 2, {In("1,3,4,5")}, {{"pads", "0,0,1,2,0,0,3,4"}})).str() == "[1,3,8,11]");
    CHECK(run_onnx_op(Onnx("Pad", 1, {In("1,3")}, {{"paddings", "0,1,0,1"}})).str() == "[1,5]");
    auto r = run_onnx_op(Onnx("Pad", 13, {In("1,3,4,5"), In("8", ElementType::i64)}, {{"mode", "reflect"}},
                              {{1, V({0, 0, -1, 0, 0, 0, 1, 2})}}));
    CHECK(r.str() == "[1,3,4,7]");
    OpInput no_value = In("", ElementType::f32);
    no_value.present = false;
    r = run_onnx_op(Onnx("Pad", 18, {In("1,3,4,5"), In("4", ElementType::i64), no_value, In("2", ElementType::i64)}, {},
                         {{1, V({1, 2, 3, 4})}, {3, V({-2, 3})}}));
    CHECK(r.str() == "[1,3,8,11]");
    CHECK(
        !run_onnx_op(Onnx("Pad", 18, {In("4"), In("2", ElementType::i64)}, {{"mode", "wrap"}}, {{1, V({1, 1})}})).ok());
    CHECK(run_onnx_op(Onnx("Pad", 19, {In("4"), In("2", ElementType::i64)}, {{"mode", "wrap"}}, {{1, V({1, 1})}}))
              .str() == "[6]");
    CHECK(!run_onnx_op(Onnx("Pad", 13, {In("4"), In("3", ElementType::i64)}, {}, {{1, V({1, 1, 1})}})).ok());
    CHECK(!run_onnx_op(Onnx("Pad", 13, {In("4"), In("2", ElementType::i64)}, {}, {{1, V({-3, -2})}})).ok());
    CHECK(!run_onnx_op(Onnx("Pad", 11, {In("4", ElementType::boolean), In("2", ElementType::i64)})).ok());
    CHECK(run_onnx_op(Onnx("Pad", 13, {In("4,5"), In("4", ElementType::i64)})).str() == "[?,?]");
    // Reflect mirrors inside the axis: at most its length less 1 on each side, after negative pads, and only
    // where the axis is padded (ONNX Runtime's and OpenVINO's limits).
    const auto reflect = [](const std::string& x, TensorValue pads) {
        return run_onnx_op(Onnx("Pad", 18, {In(x), In(std::to_string(pads.size()), ElementType::i64)},
                                {{"mode", "reflect"}}, {{1, std::move(pads)}}));
    };
    CHECK(reflect("1,3", V({0, 2, 0, 2})).str() == "[1,7]");
    CHECK(reflect("1,3", V({0, 4, 0, 4})).problem() ==
          "mode reflect: pads 4 and 4 on axis 1 of [1,3] exceed 2 (the axis length less 1), which ONNX Runtime and "
          "OpenVINO refuse");
    CHECK(reflect("1,1", V({0, 1, 0, 1})).problem() ==
          "mode reflect needs axis 1 of [1,1] to keep 2 or more elements to mirror; it keeps 1");
    CHECK(reflect("1,4", V({0, 3, 0, -2})).problem() ==
          "mode reflect: pads 3 and -2 on axis 1 of [1,4] exceed 1 (the axis length less 1), which ONNX Runtime and "
          "OpenVINO refuse");
    CHECK(run_onnx_op(Onnx("Pad", 18, {In("1,3"), In("4", ElementType::i64)}, {{"mode", "edge"}}, {{1, V({0, 4, 0, 4})}}))
              .str() == "[1,11]");
}

TEST_CASE("onnx DepthToSpace, SpaceToDepth, CenterCropPad") {
    CHECK(run_onnx_op(Onnx("DepthToSpace", 13, {In("1,8,2,3")}, {{"blocksize", "2"}, {"mode", "CRD"}})).str() ==
          "[1,2,4,6]");
    CHECK(!run_onnx_op(Onnx("DepthToSpace", 13, {In("1,6,2,3")}, {{"blocksize", "2"}})).ok());
    CHECK(!run_onnx_op(Onnx("DepthToSpace", 13, {In("1,8,2,3")}, {{"blocksize", "2"}, {"mode", "XYZ"}})).ok());
    CHECK(run_onnx_op(Onnx("SpaceToDepth", 13, {In("1,2,4,6")}, {{"blocksize", "2"}})).str() == "[1,8,2,3]");
    CHECK(!run_onnx_op(Onnx("SpaceToDepth", 13, {In("1,2,4,6,1")}, {{"blocksize", "2"}})).ok());
    CHECK(run_onnx_op(Onnx("CenterCropPad", 18, {In("20,8,3"), In("2", ElementType::i64)}, {{"axes", "0,-2"}},
                           {{1, V({10, 9})}}))
              .str() == "[10,9,3]");
    CHECK(run_onnx_op(Onnx("CenterCropPad", 18, {In("20,8,3"), In("3", ElementType::i64)}, {}, {{1, V({10, 9, 3})}}))
              .str() == "[10,9,3]");
}

TEST_CASE("onnx NonZero, Compress, Unique: counts from known values, else bounds") {
    CHECK(run_onnx_op(Onnx("NonZero", 13, {In("2,3")})).str() == "[2,..6]");
    auto r = run_onnx_op(Onnx("NonZero", 13, {In("4", ElementType::i64)}, {}, {{0, V({0, 3, 0, 1})}}));
    CHECK(r.str() == "[1,2]");
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(run_onnx_op(
              Onnx("Compress", 11, {In("3,2"), In("3", ElementType::boolean)}, {{"axis", "0"}}, {{1, V({0, 1, 1})}}))
              .str() == "[2,2]");
    CHECK(run_onnx_op(Onnx("Compress", 11, {In("3,2"), In("2", ElementType::boolean)}, {{"axis", "-1"}})).str() ==
          "[3,..2]");
    CHECK(run_onnx_op(Onnx("Compress", 11, {In("3,2"), In("5", ElementType::boolean)})).str() == "[..5]");
    const auto negative =
        run_onnx_op(Onnx("Compress", 9, {In("3,2"), In("2", ElementType::boolean)}, {{"axis", "-1"}}));
    CHECK(negative.str() == "[3,..2]");
    CHECK(negative.warnings.size() == 1);
    r = run_onnx_op(Onnx("Unique", 11, {In("6", ElementType::i64)}, {}, {{0, V({2, 1, 1, 3, 4, 3})}}));
    REQUIRE(r.outputs.size() == 4);
    CHECK(r.str(0) == "[4]");
    CHECK(r.str(2) == "[6]");
    r = run_onnx_op(Onnx("Unique", 11, {In("3,4")}, {{"axis", "-1"}}));
    CHECK(r.str(0) == "[3,1..4]");
    CHECK(r.str(2) == "[4]");
    // Floating-point values count too; slices along an axis are compared whole (columns 0 and 2 are equal).
    auto floats = Onnx("Unique", 11, {In("2,3")}, {{"axis", "1"}});
    floats.reals[0] = {1.5, 2.0, 1.5, 0.0, -1.0, 0.0};
    r = run_onnx_op(floats);
    CHECK(r.str(0) == "[2,2]");
    CHECK(r.str(1) == "[2]");
    CHECK(r.str(2) == "[3]");
    floats.attrs.clear();
    CHECK(run_onnx_op(floats).str(0) == "[4]");  // 1.5, 2, 0 (and -0), -1
    floats.reals[0][1] = std::nan("");
    CHECK(run_onnx_op(floats).str(0) == "[1..6]");  // a NaN: runtimes count it differently
    // NonZero of known values gives the coordinates as values too.
    auto nz = Onnx("NonZero", 13, {In("2,2")});
    nz.reals[0] = {0.0, 0.5, -2.0, 0.0};
    r = run_onnx_op(nz);
    CHECK(r.str() == "[2,2]");
    REQUIRE(r.outputs[0].value);
    CHECK(r.outputs[0].value->size() == 4);
    CHECK((*r.outputs[0].value)[0].lo == 0);  // rows: 0, 1; columns: 1, 0
    CHECK((*r.outputs[0].value)[1].lo == 1);
    CHECK((*r.outputs[0].value)[2].lo == 1);
    CHECK((*r.outputs[0].value)[3].lo == 0);
}

TEST_CASE("onnx OneHot, Trilu, ReverseSequence, EyeLike") {
    auto r = run_onnx_op(Onnx("OneHot", 11,
                              {In("2,3", ElementType::i64), In("", ElementType::i64), In("2", ElementType::i32)},
                              {{"axis", "1"}}, {{1, V({10})}}));
    CHECK(r.str() == "[2,10,3]");
    CHECK(r.outputs[0].type == ElementType::i32);
    OnnxCase c = Onnx("OneHot", 11, {In("3", ElementType::i64), In(""), In("2")});
    c.reals = {{1, {12.0}}};
    CHECK(run_onnx_op(c).str() == "[3,12]");
    CHECK(!run_onnx_op(Onnx("OneHot", 11, {In("3", ElementType::i64), In(""), In("2")}, {{"axis", "2"}})).ok());
    CHECK(run_onnx_op(Onnx("Trilu", 14, {In("3,4,5"), In("", ElementType::i64)})).str() == "[3,4,5]");
    CHECK(!run_onnx_op(Onnx("Trilu", 14, {In("5")})).ok());
    CHECK(run_onnx_op(Onnx("ReverseSequence", 10, {In("4,4"), In("4", ElementType::i64)},
                           {{"batch_axis", "0"}, {"time_axis", "1"}}))
              .ok());
    CHECK(
        !run_onnx_op(Onnx("ReverseSequence", 10, {In("4,4"), In("4", ElementType::i64)}, {{"batch_axis", "0"}})).ok());
    r = run_onnx_op(Onnx("EyeLike", 9, {In("3,4", ElementType::i32)}, {{"dtype", "11"}}));
    CHECK(r.str() == "[3,4]");
    CHECK(r.outputs[0].type == ElementType::f64);
    CHECK(!run_onnx_op(Onnx("EyeLike", 9, {In("3,4,5")})).ok());
    CHECK(!run_onnx_op(Onnx("EyeLike", 9, {In("3,4", ElementType::bf16)})).ok());
    CHECK(run_onnx_op(Onnx("EyeLike", 22, {In("3,4", ElementType::bf16)})).ok());
}

TEST_CASE("onnx Tile-1 and Split-1: tiles, axis and split inputs of the data's float type") {
    OnnxCase tile = Onnx("Tile", 1, {In("2,3"), In(""), In("")});
    tile.reals = {{1, {4.0}}, {2, {1.0}}};
    CHECK(run_onnx_op(tile).str() == "[2,12]");
    OnnxCase split = Onnx("Split", 1, {In("6,4"), In("2")}, {{"axis", "0"}});
    split.reals = {{1, {2.0, 4.0}}};
    const auto r = run_onnx_op(split);
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(1) == "[4,4]");
}

TEST_CASE("onnx Reshape: no -1 beside a zero-length dim; TensorScatter's dims but the axis match") {
    CHECK(!run_onnx_op(Onnx("Reshape", 13, {In("0,3"), In("2", ElementType::i64)}, {}, {{1, V({0, -1})}})).ok());
    CHECK(
        run_onnx_op(Onnx("Reshape", 14, {In("0,3"), In("2", ElementType::i64)}, {{"allowzero", "1"}}, {{1, V({3, 0})}}))
            .str() == "[3,0]");
    CHECK(!run_onnx_op(Onnx("Reshape", 13, {In("0,3"), In("2", ElementType::i64)}, {}, {{1, V({3, 0})}}))
               .ok());  // 0 copies 3
    CHECK(!run_onnx_op(Onnx("TensorScatter", 24, {In("2,3,8,4"), In("2,3,2,5")})).ok());
    CHECK(run_onnx_op(Onnx("TensorScatter", 24, {In("?,3,8,4"), In("2,3,2,4")})).str() == "[2,3,8,4]");
}

TEST_CASE("onnx shape ops word their arithmetic") {
    auto r = run_onnx_op(Onnx("Pad", 13, {In("4,5"), In("4", ElementType::i64)}, {}, {{1, V({0, 1, 0, -2})}}));
    REQUIRE(r.outputs[0].dim_notes.size() == 2);
    CHECK(r.outputs[0].dim_notes[1] == "5+1-2 = 4");
    r = run_onnx_op(Onnx("Concat", 13, {In("2,3"), In("2,5")}, {{"axis", "1"}}));
    CHECK(r.outputs[0].dim_notes[1] == "3+5 = 8");
    r = run_onnx_op(Onnx("Slice", 13, {In("12"), In("1", ElementType::i64), In("1", ElementType::i64)}, {},
                         {{1, V({-4})}, {2, V({100})}}));
    CHECK(r.outputs[0].dim_notes[0] == "[-4:100:1] of 12, clamped to start 8 = 4");
}

TEST_CASE("onnx Gather: known indices address the axis") {
    const auto r = run_onnx_op(Onnx("Gather", 13, {In("4"), In("", ElementType::i64)}, {}, {{1, V({4})}}));
    CHECK(r.problem() == "index 4 is out of range [-4, 3] for the axis of length 4");
    CHECK(run_onnx_op(Onnx("Gather", 13, {In("4"), In("", ElementType::i64)}, {}, {{1, V({-4})}})).ok());
}
