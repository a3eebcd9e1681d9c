// Unit tests of the ONNX misc ops (rules/ops/onnx_misc_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {


}  // namespace

TEST_CASE("onnx-misc: QuantizeLinear's output type is the zero point's, else output_dtype's, else u8") {
    auto r = run_onnx_op(Onnx("QuantizeLinear", 10, {In("2,3"), In("")}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,3]");
    CHECK(type_of(r) == "u8");
    r = run_onnx_op(Onnx("QuantizeLinear", 13, {In("2,?"), In("3"), In("3", ElementType::i8)}, {{"axis", "1"}}));
    CHECK(r.str() == "[2,?]");
    CHECK(type_of(r) == "i8");
    r = run_onnx_op(Onnx("QuantizeLinear", 21, {In("4"), In("")}, {{"output_dtype", "22"}}));
    CHECK(type_of(r) == "i4");
    r = run_onnx_op(Onnx("QuantizeLinear", 25, {In("4"), In(""), In("", ElementType::i16)}, {{"output_dtype", "4"}}));
    CHECK(r.problem() == "output_dtype u16 does not match y_zero_point's type i16");
    // Before 21 output_dtype is not an attribute of the op: the zero point decides.
    r = run_onnx_op(
        Onnx("QuantizeLinear", 19, {In("4", ElementType::f16), In("", ElementType::f16)}, {{"output_dtype", "3"}}));
    CHECK(type_of(r) == "u8");
    r = run_onnx_op(Onnx("QuantizeLinear", 13, {In("4", ElementType::f16), In("")}));
    CHECK(r.problem() == "x (input 0) is f16, which the schema does not take");
    // An omitted zero point (ONNX's empty name) is the default.
    OpInput omitted = In("", ElementType::i8);
    omitted.present = false;
    r = run_onnx_op(Onnx("QuantizeLinear", 21, {In("4"), In(""), omitted}));
    CHECK(type_of(r) == "u8");
}

TEST_CASE("onnx-misc: DequantizeLinear gives f32 up to 13, then the scale's type or output_dtype") {
    auto r = run_onnx_op(Onnx("DequantizeLinear", 10, {In("4", ElementType::u8), In("")}));
    CHECK(r.str() == "[4]");
    CHECK(type_of(r) == "f32");
    r = run_onnx_op(Onnx("DequantizeLinear", 19, {In("1,4,3", ElementType::i8), In("1,2,3", ElementType::f16)},
                         {{"axis", "1"}, {"block_size", "2"}}));
    CHECK(r.str() == "[1,4,3]");
    CHECK(type_of(r) == "f16");
    r = run_onnx_op(
        Onnx("DequantizeLinear", 23, {In("4", ElementType::i8), In("", ElementType::f32)}, {{"output_dtype", "16"}}));
    CHECK(type_of(r) == "bf16");
    r = run_onnx_op(Onnx("DequantizeLinear", 21, {In("4", ElementType::i8), In(""), In("", ElementType::u8)}));
    CHECK(r.problem() == "x is i8 and x_zero_point u8; they must be equal");
    r = run_onnx_op(Onnx("DynamicQuantizeLinear", 11, {In("3,4")}));
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[3,4]");
    CHECK(type_of(r, 0) == "u8");
    CHECK(r.str(1) == "[]");
    CHECK(type_of(r, 1) == "f32");
    CHECK(type_of(r, 2) == "u8");
}

TEST_CASE("onnx-misc: NonMaxSuppression bounds the selected count by batches x classes x min(max, boxes)") {
    auto r = run_onnx_op(
        Onnx("NonMaxSuppression", 11, {In("2,6,4"), In("2,3,6"), In("1", ElementType::i64)}, {}, {{2, V({4})}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[..24,3]");
    CHECK(type_of(r) == "i64");
    r = run_onnx_op(Onnx("NonMaxSuppression", 10, {In("1,?,4"), In("1,1,?")}));
    CHECK(r.str() == "[0,3]");
    r = run_onnx_op(Onnx("NonMaxSuppression", 11, {In("1,6,4"), In("1,1,6"), In("1", ElementType::i64)}));
    CHECK(r.str() == "[..6,3]");
    // ONNX's inference rejects nothing: a boxes input of another rank gives an open count.
    r = run_onnx_op(Onnx("NonMaxSuppression", 11, {In("1,4"), In("1,1,4")}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[?,3]");
}

TEST_CASE("onnx-misc: NonMaxSuppression of known boxes and scores selects as ONNX's reference does") {
    // Two classes over three boxes: boxes 0 and 1 overlap with IoU 0.6 (above 0.5), box 2 is apart. Class 0
    // keeps boxes 0 and 2; class 1's score threshold drops box 2 and keeps one of 0 and 1.
    auto c = Onnx("NonMaxSuppression", 11,
                  {In("1,3,4"), In("1,2,3"), In("1", ElementType::i64), In("1"), In("1")}, {}, {{2, V({3})}});
    c.reals[0] = {0, 0, 1, 1, 0, 0.25, 1, 1.25, 5, 5, 6, 6};
    c.reals[1] = {0.9, 0.8, 0.7, 0.1, 0.6, 0.05};
    c.reals[3] = {0.5};
    c.reals[4] = {0.0625};
    auto r = run_onnx_op(c);
    CHECK(r.str() == "[3,3]");
    c.reals[3] = {0.6};  // an IoU exactly at the threshold (0.75/1.25 in f32) suppresses nothing: all five stay
    CHECK(run_onnx_op(c).str() == "[5,3]");
    c.values[2] = V({1});  // one box per class
    CHECK(run_onnx_op(c).str() == "[2,3]");
    c.values[2] = V({0});
    CHECK(run_onnx_op(c).str() == "[0,3]");
    // An unknown score leaves the bound.
    c.reals.erase(1);
    c.values[2] = V({3});
    CHECK(run_onnx_op(c).str() == "[..6,3]");
}

TEST_CASE("onnx-misc: RoiAlign gives [rois, C, output_height, output_width]") {
    auto r = run_onnx_op(Onnx("RoiAlign", 16, {In("1,3,10,10"), In("?,4"), In("5", ElementType::i64)},
                              {{"output_height", "7"}, {"output_width", "5"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[5,3,7,5]");
    r = run_onnx_op(Onnx("RoiAlign", 10, {In("1,3,10,10"), In("4,4"), In("4", ElementType::i64)}));
    CHECK(r.str() == "[4,3,1,1]");
    r = run_onnx_op(Onnx("RoiAlign", 16, {In("1,3,10,10"), In("4,4"), In("4", ElementType::i64)},
                         {{"coordinate_transformation_mode", "corners"}}));
    CHECK_FALSE(r.ok());
    r = run_onnx_op(Onnx("RoiAlign", 22, {In("1,3,10"), In("4,4"), In("4", ElementType::i64)}));
    CHECK(r.problem() == "X (input 0) has rank 3; it must be 4");
}

TEST_CASE("onnx-misc: DFT's axis (attribute at 17, input at 20), onesided, inverse and dft_length") {
    auto r = run_onnx_op(Onnx("DFT", 17, {In("1,10,10,1")}, {{"axis", "1"}, {"onesided", "1"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,6,10,2]");
    r = run_onnx_op(Onnx("DFT", 20, {In("1,10,10,1")}));  // axis -2 by default
    CHECK(r.str() == "[1,10,10,2]");
    OpInput no_length = In("", ElementType::i64);
    no_length.present = false;
    r = run_onnx_op(Onnx("DFT", 20, {In("1,6,10,2"), no_length, In("", ElementType::i64)},
                         {{"onesided", "1"}, {"inverse", "1"}}, {{2, V({1})}}));
    CHECK(r.str() == "[1,10,10,1]");
    r = run_onnx_op(Onnx("DFT", 20, {In("1,10,10,1"), In("", ElementType::i64), In("", ElementType::i64)},
                         {{"onesided", "1"}}, {{1, V({16})}, {2, V({-3})}}));
    CHECK(r.str() == "[1,9,10,2]");
    // An unknown axis: with onesided, no dim but the last is known.
    r = run_onnx_op(Onnx("DFT", 20, {In("1,10,10,1"), no_length, In("", ElementType::i64)}, {{"onesided", "1"}}));
    CHECK(r.str() == "[?,?,?,2]");
    CHECK(r.unknown);
    r = run_onnx_op(Onnx("DFT", 20, {In("1,10,10,1"), no_length, In("", ElementType::i64)}, {}, {{2, V({-1})}}));
    CHECK(r.problem() == "axis -1 is out of range [-4, 2] (and not -1) for an input of rank 4");
    r = run_onnx_op(Onnx("DFT", 17, {In("1,10,10,2")}, {{"onesided", "1"}}));
    CHECK(r.problem() == "a one-sided DFT takes a last dim of 1; the input's is 2");
}

TEST_CASE("onnx-misc: STFT is onesided by default; frame length from the input or the window") {
    OpInput no_window = In("16");
    no_window.present = false;
    auto r =
        run_onnx_op(Onnx("STFT", 17, {In("1,128,1"), In("", ElementType::i64), no_window, In("", ElementType::i64)}, {},
                         {{1, V({8})}, {3, V({16})}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,15,9,2]");
    r = run_onnx_op(
        Onnx("STFT", 17, {In("2,128,2"), In("", ElementType::i64), In("16")}, {{"onesided", "0"}}, {{1, V({8})}}));
    CHECK(r.str() == "[2,15,16,2]");
    r = run_onnx_op(Onnx("STFT", 17, {In("1,128,1"), In("", ElementType::i64), In("16")}));
    CHECK(r.str() == "[1,?,9,2]");
    CHECK(r.unknown);
    r = run_onnx_op(Onnx("STFT", 17, {In("1,128,1"), In("", ElementType::i64), In("16"), In("", ElementType::i64)}, {},
                         {{1, V({8})}, {3, V({32})}}));
    CHECK(r.problem() == "the window's length 16 is not frame_length 32");
}

TEST_CASE("onnx-misc: windows and MelWeightMatrix take their dims from values, types from output_datatype") {
    auto r = run_onnx_op(Onnx("HannWindow", 17, {In("", ElementType::i32)}, {}, {{0, V({10})}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[10]");
    CHECK(type_of(r) == "f32");
    r = run_onnx_op(Onnx("BlackmanWindow", 17, {In("", ElementType::i64)}, {{"output_datatype", "11"}}));
    CHECK(r.str() == "[?]");
    CHECK(type_of(r) == "f64");
    CHECK(r.unknown);
    r = run_onnx_op(Onnx("HammingWindow", 17, {In("", ElementType::i64)}, {}, {{0, V({0})}}));
    CHECK(r.problem() == "size 0 must be > 0");
    r = run_onnx_op(Onnx("MelWeightMatrix", 17,
                         {In("", ElementType::i32), In("", ElementType::i32), In("", ElementType::i32), In(""), In("")},
                         {}, {{0, V({8})}, {1, V({16})}, {2, V({8192})}}));
    CHECK(r.str() == "[9,8]");
}

TEST_CASE("onnx-misc: random ops take shape and dtype from attributes or their input") {
    auto r = run_onnx_op(Onnx("RandomNormal", 1, {}, {{"shape", "2,3"}, {"dtype", "10"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,3]");
    CHECK(type_of(r) == "f16");
    r = run_onnx_op(Onnx("RandomUniform", 22, {}, {}));
    CHECK_FALSE(r.ok());  // shape is required
    r = run_onnx_op(Onnx("RandomUniformLike", 22, {In("?,4", ElementType::f64)}));
    CHECK(r.str() == "[?,4]");
    CHECK(type_of(r) == "f64");
    r = run_onnx_op(Onnx("Bernoulli", 15, {In("10")}, {{"dtype", "11"}}));
    CHECK(type_of(r) == "f64");
    r = run_onnx_op(Onnx("Multinomial", 7, {In("3,5")}, {{"sample_size", "4"}}));
    CHECK(r.str() == "[3,4]");
    CHECK(type_of(r) == "i32");
    r = run_onnx_op(Onnx("Multinomial", 22, {In("3,5")}, {{"dtype", "1"}}));
    CHECK(r.problem() == "dtype f32 is not int32 or int64");
    r = run_onnx_op(Onnx("RandomNormal", 1, {}, {{"shape", "2"}, {"dtype", "99"}}));
    CHECK(r.problem() == "dtype 99 is not an ONNX data type (1 to 26)");
}

TEST_CASE("onnx-misc: string ops") {
    const auto str = ElementType::string;
    auto r = run_onnx_op(Onnx("StringNormalizer", 10, {In("1,6", str)}, {{"stopwords", "monday"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,..6]");
    r = run_onnx_op(Onnx("StringNormalizer", 10, {In("4", str)}, {{"case_change_action", "LOWER"}}));
    CHECK(r.str() == "[4]");
    r = run_onnx_op(Onnx("StringNormalizer", 10, {In("2,6", str)}));
    CHECK(r.problem() == "X is [2,6]; it must be [C] or [1, C]");
    r = run_onnx_op(Onnx("TfIdfVectorizer", 9, {In("2,6", ElementType::i32)},
                         {{"ngram_indexes", "0,1,2,3,4,5,6"}, {"mode", "TF"}}));
    CHECK(r.str() == "[2,7]");
    CHECK(type_of(r) == "f32");
    r = run_onnx_op(Onnx("RegexFullMatch", 20, {In("2,2", str)}, {{"pattern", "a+"}}));
    CHECK(r.str() == "[2,2]");
    CHECK(type_of(r) == "boolean");
    r = run_onnx_op(Onnx("StringSplit", 20, {In("2,2", str)}));
    CHECK(r.str(0) == "[2,2,?]");
    CHECK(r.str(1) == "[2,2]");
    CHECK(type_of(r, 1) == "i64");
    r = run_onnx_op(Onnx("StringConcat", 20, {In("3", str), In("1", str)}));
    CHECK(r.str() == "[3]");
    r = run_onnx_op(Onnx("StringConcat", 20, {In("3", str), In("2", str)}));
    CHECK_FALSE(r.ok());
    r = run_onnx_op(Onnx("ImageDecoder", 20, {In("1058", ElementType::u8)}, {{"pixel_format", "Grayscale"}}));
    CHECK(r.str() == "[?,?,1]");
    CHECK(r.unknown);
}

TEST_CASE("onnx-misc: Det and the losses") {
    auto r = run_onnx_op(Onnx("Det", 11, {In("3,2,2")}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[3]");
    CHECK(run_onnx_op(Onnx("Det", 22, {In("2,2")})).str() == "[]");
    CHECK(run_onnx_op(Onnx("Det", 22, {In("2,3")})).problem() == "X is [2,3]; its last two dims must be equal");
    r = run_onnx_op(
        Onnx("NegativeLogLikelihoodLoss", 13, {In("3,5,2,4"), In("3,2,4", ElementType::i64)}, {{"reduction", "none"}}));
    CHECK(r.str() == "[3,2,4]");
    r = run_onnx_op(Onnx("NegativeLogLikelihoodLoss", 22, {In("3,5"), In("3", ElementType::i64), In("5")}));
    CHECK(r.str() == "[]");
    r = run_onnx_op(Onnx("NegativeLogLikelihoodLoss", 12, {In("3,5,2"), In("3,3", ElementType::i64)}));
    CHECK(r.problem() == "the target [3,3] does not match the input [3,5,2] (its dims without the class dim)");
    r = run_onnx_op(Onnx("SoftmaxCrossEntropyLoss", 13, {In("3,5,2", ElementType::f16), In("3,2", ElementType::i32)},
                         {{"reduction", "sum"}}));
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[]");
    CHECK(r.str(1) == "[3,5,2]");
    CHECK(type_of(r, 1) == "f16");
    r = run_onnx_op(
        Onnx("SoftmaxCrossEntropyLoss", 12, {In("3,5"), In("3", ElementType::i64)}, {{"reduction", "max"}}));
    CHECK_FALSE(r.ok());
}

TEST_CASE("onnx-misc: the random ops' dtypes and inputs are the schema's") {
    CHECK(run_onnx_op(Onnx("RandomNormal", 1, {}, {{"shape", "2"}, {"dtype", "16"}})).problem() ==
          "dtype bf16 is not a float type the schema takes");
    CHECK(run_onnx_op(Onnx("RandomNormal", 22, {}, {{"shape", "2"}, {"dtype", "16"}})).ok());
    CHECK(run_onnx_op(Onnx("RandomUniformLike", 1, {In("2", ElementType::i64)})).problem() ==
          "dtype i64 is not a float type the schema takes");
    CHECK(run_onnx_op(Onnx("RandomUniformLike", 1, {In("2", ElementType::i64)}, {{"dtype", "1"}})).ok());
    CHECK(run_onnx_op(Onnx("Bernoulli", 15, {In("2", ElementType::i64)})).problem() ==
          "input (input 0) is i64, which the schema does not take");
    const auto r = run_onnx_op(Onnx("Bernoulli", 22, {In("2")}, {{"dtype", "9"}}));
    CHECK(r.str() == "[2]");
    CHECK(type_of(r) == "boolean");
    CHECK_FALSE(run_onnx_op(Onnx("Bernoulli", 22, {In("2")}, {{"dtype", "17"}})).ok());
}

TEST_CASE("onnx-misc: Identity passes its input on, values included") {
    const auto r = run_onnx_op(Onnx("Identity", 16, {In("2", ElementType::i64)}, {}, {{0, V({3, 4})}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2]");
    REQUIRE(r.outputs[0].value);
    CHECK(r.outputs[0].value->at(1).lo == 4);
}
