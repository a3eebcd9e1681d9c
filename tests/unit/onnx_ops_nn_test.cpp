// Unit tests of the ONNX nn ops (rules/ops/onnx_nn_*.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {


}  // namespace

// ---- Conv family ----------------------------------------------------------------------------------------

TEST_CASE("onnx Conv: pads begin..end, strides, the kernel from W") {
    const auto r =
        run_onnx_op(Onnx("Conv", 11, {In("1,1,7,5"), In("2,1,3,3")}, {{"pads", "1,1,1,1"}, {"strides", "2,2"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,2,4,3]");
    CHECK(r.outputs[0].type == ElementType::f32);
    // Asymmetric pads: the begins of both axes come first.
    const auto a =
        run_onnx_op(Onnx("Conv", 22, {In("1,1,7,5"), In("1,1,3,3")}, {{"pads", "1,0,1,0"}, {"strides", "2,2"}}));
    CHECK(a.str() == "[1,1,4,2]");
}

TEST_CASE("onnx Conv: auto_pad SAME_UPPER, SAME_LOWER and VALID") {
    for (const char* pad : {"SAME_UPPER", "SAME_LOWER"}) {
        const auto r =
            run_onnx_op(Onnx("Conv", 11, {In("1,1,5,5"), In("1,1,3,3")}, {{"auto_pad", pad}, {"strides", "2,2"}}));
        CHECK(r.str() == "[1,1,3,3]");
    }
    const auto v =
        run_onnx_op(Onnx("Conv", 11, {In("1,1,5,5"), In("1,1,3,3")}, {{"auto_pad", "VALID"}, {"strides", "2,2"}}));
    CHECK(v.str() == "[1,1,2,2]");
    const auto bad = run_onnx_op(Onnx("Conv", 11, {In("1,1,5,5"), In("1,1,3,3")}, {{"auto_pad", "same"}}));
    CHECK(bad.problem().find("auto_pad") != std::string::npos);
}

TEST_CASE("onnx Conv: dilations, groups and the channel check") {
    const auto d =
        run_onnx_op(Onnx("Conv", 11, {In("1,4,9,9"), In("8,2,3,3")}, {{"dilations", "2,2"}, {"group", "2"}}));
    REQUIRE(d.ok());
    CHECK(d.str() == "[1,8,5,5]");
    const auto bad = run_onnx_op(Onnx("Conv", 11, {In("1,3,9,9"), In("8,2,3,3")}, {{"group", "2"}}));
    CHECK_FALSE(bad.ok());
    CHECK(bad.problem() == "the input has 3 channels, the weights [8,2,3,3] take 2 x group 2 = 4");
    // ONNX's inference does not read group: 0 is not refused (nor are the channels compared then).
    CHECK(run_onnx_op(Onnx("Conv", 11, {In("1,2,4,4"), In("2,1,2,2")}, {{"group", "0"}})).str() == "[1,2,3,3]");
}

TEST_CASE("onnx Conv: dynamic dims keep the batch's symbol, spatial intervals, rejections") {
    OpInput x = In("?,3,10..20,8");
    x.shape.dims[0] = Dim::dynamic().with_symbol(7);
    const auto r = run_onnx_op(Onnx("Conv", 11, {x, In("4,3,3,3")}, {{"strides", "2,2"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[?,4,4..9,3]");
    CHECK(r.shape().dims[0].symbol() == 7);
    // A kernel the weights do not have; an integer input; rank below 3.
    CHECK_FALSE(run_onnx_op(Onnx("Conv", 11, {In("1,3,8,8"), In("4,3,3,3")}, {{"kernel_shape", "5,5"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Conv", 11, {In("1,3,8,8", ElementType::i32), In("4,3,3,3", ElementType::i32)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Conv", 11, {In("3,8"), In("4,3")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Conv", 11, {In("1,3,8,8"), In("4,3,3,3"), In("3")})).ok());  // B of 3, not 4
    CHECK(run_onnx_op(Onnx("Conv", 11, {In("1,3,8,8"), In("4,3,3,3"), In("4")})).str() == "[1,4,6,6]");
    CHECK(run_onnx_op(Onnx("Conv", 1, {In("..."), In("4,3,3,3")})).str() == "[...]");
}

TEST_CASE("onnx types: bf16 from the version whose schema added it") {
    CHECK_FALSE(
        run_onnx_op(Onnx("Conv", 11, {In("1,3,8,8", ElementType::bf16), In("4,3,3,3", ElementType::bf16)})).ok());
    CHECK(run_onnx_op(Onnx("Conv", 22, {In("1,3,8,8", ElementType::bf16), In("4,3,3,3", ElementType::bf16)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("ReduceMean", 11, {In("3", ElementType::bf16)})).ok());
    CHECK(run_onnx_op(Onnx("ReduceMean", 13, {In("3", ElementType::bf16)})).ok());
    CHECK_FALSE(
        run_onnx_op(Onnx("TopK", 11, {In("3", ElementType::bf16), In("1", ElementType::i64)}, {}, {{1, V({1})}})).ok());
    CHECK(run_onnx_op(Onnx("LayerNormalization", 17, {In("2,3", ElementType::bf16), In("3", ElementType::bf16)})).ok());
}

TEST_CASE("onnx ConvInteger, QLinearConv and DeformConv") {
    const auto ci = run_onnx_op(Onnx(
        "ConvInteger", 10, {In("1,1,3,3", ElementType::u8), In("1,1,2,2", ElementType::u8)}, {{"pads", "1,1,1,1"}}));
    CHECK(ci.str() == "[1,1,4,4]");
    CHECK(ci.outputs[0].type == ElementType::i32);
    const auto q = run_onnx_op(
        Onnx("QLinearConv", 10,
             {In("1,1,7,7", ElementType::u8), In(""), In("", ElementType::u8), In("1,1,1,1", ElementType::u8), In(""),
              In("", ElementType::u8), In(""), In("", ElementType::i8)}));
    CHECK(q.str() == "[1,1,7,7]");
    CHECK(q.outputs[0].type == ElementType::i8);
    const auto dc = run_onnx_op(Onnx("DeformConv", 19, {In("1,1,3,3"), In("1,1,2,2"), In("1,8,2,2")}));
    CHECK(dc.str() == "[1,1,2,2]");
}

TEST_CASE("onnx ConvTranspose: output_padding, output_shape, auto_pad, groups") {
    const auto r = run_onnx_op(
        Onnx("ConvTranspose", 11, {In("1,1,3,3"), In("1,2,3,3")}, {{"strides", "3,2"}, {"output_padding", "1,1"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,2,10,8]");
    const auto s = run_onnx_op(
        Onnx("ConvTranspose", 11, {In("1,1,3,3"), In("1,2,3,3")}, {{"strides", "3,2"}, {"output_shape", "10,8"}}));
    CHECK(s.str() == "[1,2,10,8]");
    const auto same = run_onnx_op(
        Onnx("ConvTranspose", 11, {In("1,1,3,3"), In("1,2,3,3")}, {{"strides", "2,2"}, {"auto_pad", "SAME_UPPER"}}));
    CHECK(same.str() == "[1,2,6,6]");
    const auto g = run_onnx_op(Onnx("ConvTranspose", 11, {In("1,4,3,3"), In("4,1,3,3")}, {{"group", "4"}}));
    CHECK(g.str() == "[1,4,5,5]");
    CHECK_FALSE(run_onnx_op(Onnx("ConvTranspose", 11, {In("1,3,3,3"), In("3,1,3,3")}, {{"group", "2"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("ConvTranspose", 11, {In("1,3,3,3"), In("2,1,3,3")})).ok());  // W is for 2 channels
    CHECK(run_onnx_op(Onnx("ConvTranspose", 11, {In("?,1,2..4,3"), In("1,2,3,3")}, {{"strides", "2,2"}})).str() ==
          "[?,2,5..9,7]");
    CHECK_FALSE(run_onnx_op(Onnx("ConvTranspose", 11, {In("1,1,3,3"), In("1,2,3,3")},
                                 {{"pads", "1,1,1,1"}, {"auto_pad", "SAME_UPPER"}}))
                    .ok());
}

TEST_CASE("onnx LpPool: ceil_mode and dilations from 18; GlobalLpPool") {
    const auto r = run_onnx_op(
        Onnx("LpPool", 18, {In("1,3,32,32")}, {{"kernel_shape", "2,2"}, {"strides", "2,2"}, {"ceil_mode", "1"}}));
    CHECK(r.str() == "[1,3,16,16]");
    const auto c =
        run_onnx_op(Onnx("LpPool", 18, {In("1,1,5")}, {{"kernel_shape", "2"}, {"strides", "2"}, {"ceil_mode", "1"}}));
    CHECK(c.str() == "[1,1,3]");
    // From 22, ceil_mode drops a last window that would start in the right padding.
    const std::vector<std::pair<std::string, std::string>> padded{
        {"kernel_shape", "2"}, {"strides", "2"}, {"pads", "0,1"}, {"ceil_mode", "1"}};
    CHECK(run_onnx_op(Onnx("LpPool", 18, {In("1,1,4")}, padded)).str() == "[1,1,3]");
    CHECK(run_onnx_op(Onnx("LpPool", 22, {In("1,1,4")}, padded)).str() == "[1,1,2]");
    const auto d = run_onnx_op(Onnx("LpPool", 18, {In("1,1,8,8")}, {{"kernel_shape", "2,2"}, {"dilations", "2,2"}}));
    CHECK(d.str() == "[1,1,6,6]");
    const auto v2 =
        run_onnx_op(Onnx("LpPool", 2, {In("1,1,5,5")}, {{"kernel_shape", "3,3"}, {"auto_pad", "SAME_UPPER"}}));
    CHECK(v2.str() == "[1,1,5,5]");
    CHECK_FALSE(run_onnx_op(Onnx("LpPool", 11, {In("1,1,5,5")})).ok());  // kernel_shape is required
    CHECK(run_onnx_op(Onnx("GlobalLpPool", 2, {In("2,3,5,7")})).str() == "[2,3,1,1]");
}

TEST_CASE("onnx MaxUnpool, MaxRoiPool and Col2Im") {
    const auto u = run_onnx_op(Onnx("MaxUnpool", 11, {In("1,1,2,2"), In("1,1,2,2", ElementType::i64)},
                                    {{"kernel_shape", "2,2"}, {"strides", "2,2"}}));
    CHECK(u.str() == "[1,1,4,4]");
    const auto o =
        run_onnx_op(Onnx("MaxUnpool", 11, {In("1,1,2,2"), In("1,1,2,2", ElementType::i64), In("4", ElementType::i64)},
                         {{"kernel_shape", "2,2"}, {"strides", "2,2"}}, {{2, V({1, 1, 5, 5})}}));
    CHECK(o.str() == "[1,1,5,5]");
    const auto unknown =
        run_onnx_op(Onnx("MaxUnpool", 11, {In("1,1,2,2"), In("1,1,2,2", ElementType::i64), In("4", ElementType::i64)},
                         {{"kernel_shape", "2,2"}}));
    CHECK(unknown.str() == "[?,?,?,?]");
    CHECK(unknown.unknown);
    const auto roi = run_onnx_op(Onnx("MaxRoiPool", 1, {In("1,3,10,10"), In("4,5")}, {{"pooled_shape", "2,3"}}));
    CHECK(roi.str() == "[4,3,2,3]");
    const auto col = run_onnx_op(Onnx("Col2Im", 18, {In("1,5,5"), In("2", ElementType::i64), In("2", ElementType::i64)},
                                      {}, {{1, V({5, 5})}, {2, V({1, 5})}}));
    CHECK(col.str() == "[1,1,5,5]");
}

// ---- normalizations -------------------------------------------------------------------------------------

TEST_CASE("onnx BatchNormalization: statistics outputs by version") {
    const auto r =
        run_onnx_op(Onnx("BatchNormalization", 15,
                         {In("2,3,4,5"), In("3"), In("3"), In("3", ElementType::f16), In("3", ElementType::f16)},
                         {{"training_mode", "1"}}));
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[2,3,4,5]");
    CHECK(r.str(1) == "[3]");
    CHECK(r.outputs[1].type == ElementType::f16);
    const auto v9 = run_onnx_op(Onnx("BatchNormalization", 9, {In("2,3,4"), In("3"), In("3"), In("3"), In("3")}));
    CHECK(v9.outputs.size() == 5);
    CHECK_FALSE(run_onnx_op(Onnx("BatchNormalization", 15, {In("2,3,4,5"), In("4"), In("3"), In("3"), In("3")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("BatchNormalization", 14, {In("2,3"), In("3,1"), In("3"), In("3"), In("3")})).ok());
}

TEST_CASE("onnx LayerNormalization: Mean and InvStdDev from axis, of stash_type") {
    const auto r = run_onnx_op(Onnx("LayerNormalization", 17,
                                    {In("2,3,4,5", ElementType::f16), In("4,5", ElementType::f16)}, {{"axis", "-2"}}));
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2,3,4,5]");
    CHECK(r.outputs[0].type == ElementType::f16);
    CHECK(r.str(1) == "[2,3,1,1]");
    CHECK(r.outputs[1].type == ElementType::f32);
    const auto d =
        run_onnx_op(Onnx("LayerNormalization", 17, {In("2,3"), In("3")}, {{"stash_type", "11"}, {"axis", "0"}}));
    CHECK(d.str(2) == "[1,1]");
    CHECK(d.outputs[2].type == ElementType::f64);
    // ONNX refuses only an axis below -rank; one past the last dim normalizes none.
    CHECK_FALSE(run_onnx_op(Onnx("LayerNormalization", 17, {In("2,3"), In("3")}, {{"axis", "-3"}})).ok());
    CHECK(run_onnx_op(Onnx("LayerNormalization", 17, {In("2,3"), In("3")}, {{"axis", "100"}})).str(1) == "[2,3]");
    CHECK_FALSE(run_onnx_op(Onnx("LayerNormalization", 17, {In("2,3"), In("3")}, {{"stash_type", "7"}})).ok());
}

TEST_CASE("onnx GroupNormalization, RMSNormalization and the shape-preserving ones") {
    CHECK(run_onnx_op(Onnx("GroupNormalization", 21, {In("2,6,4"), In("6"), In("6")}, {{"num_groups", "3"}})).str() ==
          "[2,6,4]");
    CHECK_FALSE(
        run_onnx_op(Onnx("GroupNormalization", 21, {In("2,6,4"), In("6"), In("6")}, {{"num_groups", "4"}})).ok());
    CHECK_FALSE(
        run_onnx_op(Onnx("GroupNormalization", 18, {In("2,6,4"), In("3"), In("3")})).ok());  // num_groups is required
    CHECK(run_onnx_op(Onnx("RMSNormalization", 23, {In("2,3,4"), In("4")})).str() == "[2,3,4]");
    CHECK(run_onnx_op(Onnx("InstanceNormalization", 6, {In("1,2,3,4"), In("2"), In("2")})).str() == "[1,2,3,4]");
    CHECK(run_onnx_op(Onnx("LRN", 13, {In("1,5,5,5")}, {{"size", "3"}})).str() == "[1,5,5,5]");
    CHECK_FALSE(run_onnx_op(Onnx("LRN", 13, {In("1,5,5,5")})).ok());
    CHECK(run_onnx_op(Onnx("MeanVarianceNormalization", 13, {In("3,3,3,1")})).str() == "[3,3,3,1]");
    CHECK_FALSE(run_onnx_op(Onnx("LpNormalization", 1, {In("3,4")}, {{"p", "3"}})).ok());
}

// ---- matrix products ------------------------------------------------------------------------------------

TEST_CASE("onnx MatMul: 1-D operands lose their added dim, batch dims broadcast") {
    CHECK(run_onnx_op(Onnx("MatMul", 13, {In("3"), In("3,4")})).str() == "[4]");
    CHECK(run_onnx_op(Onnx("MatMul", 13, {In("2,3,4"), In("4")})).str() == "[2,3]");
    CHECK(run_onnx_op(Onnx("MatMul", 13, {In("1,2,3,4"), In("5,1,4,6")})).str() == "[5,2,3,6]");
    CHECK(run_onnx_op(Onnx("MatMul", 13, {In("3"), In("3")})).str() == "[]");
    const auto bad = run_onnx_op(Onnx("MatMul", 13, {In("2,3"), In("4,5")}));
    CHECK(bad.problem().find("K dims differ") != std::string::npos);
    CHECK_FALSE(run_onnx_op(Onnx("MatMul", 13, {In("2,3", ElementType::i8), In("3,5", ElementType::i8)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("MatMul", 1, {In("2,3", ElementType::i32), In("3,5", ElementType::i32)})).ok());
    CHECK(run_onnx_op(Onnx("MatMul", 9, {In("2,3", ElementType::i32), In("3,5", ElementType::i32)})).ok());
}

TEST_CASE("onnx MatMulInteger and QLinearMatMul: mixed 8-bit types, output types") {
    const auto r = run_onnx_op(Onnx("MatMulInteger", 10, {In("4,3", ElementType::u8), In("3,2", ElementType::i8)}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[4,2]");
    CHECK(r.outputs[0].type == ElementType::i32);
    const auto q =
        run_onnx_op(Onnx("QLinearMatMul", 21,
                         {In("2,4", ElementType::u8), In(""), In("", ElementType::u8), In("4,3", ElementType::i8),
                          In(""), In("", ElementType::i8), In(""), In("", ElementType::u8)}));
    CHECK(q.str() == "[2,3]");
    CHECK(q.outputs[0].type == ElementType::u8);
}

TEST_CASE("onnx Gemm: transA/transB, C broadcast one way, optional C from 11") {
    CHECK(run_onnx_op(Onnx("Gemm", 13, {In("4,3"), In("5,4"), In("5")}, {{"transA", "1"}, {"transB", "1"}})).str() ==
          "[3,5]");
    CHECK(run_onnx_op(Onnx("Gemm", 11, {In("3,4"), In("4,5")})).str() == "[3,5]");
    CHECK(run_onnx_op(Onnx("Gemm", 11, {In("3,4"), In("4,5"), Omitted()})).str() == "[3,5]");
    CHECK_FALSE(run_onnx_op(Onnx("Gemm", 9, {In("3,4"), In("4,5")})).ok());  // C is required before 11
    CHECK_FALSE(run_onnx_op(Onnx("Gemm", 13, {In("3,4"), In("4,5"), In("3")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Gemm", 13, {In("3,4"), In("3,5")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Gemm", 13, {In("2,3,4"), In("4,5")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Gemm", 7,
                                 {In("3,4", ElementType::i32), In("4,5", ElementType::i32), In("5", ElementType::i32)}))
                    .ok());
}

TEST_CASE("onnx Einsum: explicit and implicit outputs, ellipsis, spaces") {
    CHECK(run_onnx_op(Onnx("Einsum", 12, {In("2,3"), In("3,4")}, {{"equation", "ij,jk->ik"}})).str() == "[2,4]");
    CHECK(run_onnx_op(Onnx("Einsum", 12, {In("2,3"), In("3,4")}, {{"equation", "ij,jk"}})).str() == "[2,4]");
    CHECK(run_onnx_op(Onnx("Einsum", 12, {In("3,3")}, {{"equation", "ii"}})).str() == "[]");
    CHECK(run_onnx_op(Onnx("Einsum", 12, {In("5,3,3")}, {{"equation", "... ii ->... i"}})).str() == "[5,3]");
    CHECK(run_onnx_op(Onnx("Einsum", 12, {In("5,1,2,3"), In("1,4,3,6")}, {{"equation", "...ij,...jk->...ik"}})).str() ==
          "[5,4,2,6]");
    // ONNX asks every ellipsis to stand for as many dims (numpy would broadcast [5,1] with [4]).
    CHECK_FALSE(
        run_onnx_op(Onnx("Einsum", 12, {In("5,1,2,3"), In("4,3,6")}, {{"equation", "...ij,...jk->...ik"}})).ok());
    CHECK(run_onnx_op(Onnx("Einsum", 12, {In("2,3")}, {{"equation", "ba"}})).str() == "[3,2]");
    CHECK_FALSE(run_onnx_op(Onnx("Einsum", 12, {In("2,3")}, {{"equation", "ijk->i"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Einsum", 12, {In("2,3")}, {{"equation", "ij->k"}})).ok());
}

// ---- reductions -----------------------------------------------------------------------------------------

TEST_CASE("onnx Reduce: axes attribute before 18 (13 for ReduceSum), input from then") {
    CHECK(run_onnx_op(Onnx("ReduceMean", 13, {In("3,2,2")}, {{"axes", "1"}, {"keepdims", "0"}})).str() == "[3,2]");
    CHECK(run_onnx_op(Onnx("ReduceMean", 18, {In("3,2,2"), In("1", ElementType::i64)}, {}, {{1, V({-2})}})).str() ==
          "[3,1,2]");
    CHECK(run_onnx_op(Onnx("ReduceSum", 13, {In("3,2,2")})).str() == "[1,1,1]");
    CHECK(run_onnx_op(Onnx("ReduceSum", 13, {In("3,2,2"), In("0", ElementType::i64)}, {{"noop_with_empty_axes", "1"}},
                           {{1, TensorValue{}}}))
              .str() == "[3,2,2]");
    CHECK(run_onnx_op(Onnx("ReduceSum", 11, {In("3,2,2")}, {{"axes", "0,2"}, {"keepdims", "0"}})).str() == "[2]");
    CHECK_FALSE(run_onnx_op(Onnx("ReduceMax", 18, {In("3,2,2")}, {{"axes", "1"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("ReduceL2", 13, {In("3,2,2")}, {{"axes", "3"}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("ReduceMean", 18, {In("3,2", ElementType::boolean)})).ok());
    CHECK(run_onnx_op(Onnx("ReduceMax", 20, {In("3,2", ElementType::boolean)})).ok());
}

TEST_CASE("onnx Reduce: unknown axes values keep the rank or count the axes") {
    const auto keep = run_onnx_op(Onnx("ReduceMean", 18, {In("3,1,4"), In("1", ElementType::i64)}));
    CHECK(keep.str() == "[?,1,?]");
    CHECK(keep.unknown);
    CHECK(run_onnx_op(Onnx("ReduceMean", 18, {In("3,1,4"), In("2", ElementType::i64)}, {{"keepdims", "0"}})).str() ==
          "[?]");
}

TEST_CASE("onnx ReduceSum, ReduceProd, ReduceMax carry small integer values") {
    const auto s = run_onnx_op(Onnx("ReduceProd", 18, {In("2,2", ElementType::i64), In("1", ElementType::i64)},
                                    {{"keepdims", "0"}}, {{0, V({2, 3, 4, 5})}, {1, V({1})}}));
    REQUIRE(s.outputs[0].value);
    CHECK(s.outputs[0].value->size() == 2);
    CHECK((*s.outputs[0].value)[0].lo == 6);
    CHECK((*s.outputs[0].value)[1].lo == 20);
    const auto m = run_onnx_op(Onnx("ReduceMax", 13, {In("3", ElementType::i64)}, {{"keepdims", "0"}},
                                    {{0, TensorValue{ValueBounds{1, 1}, ValueBounds{2, 9}, ValueBounds{4, 4}}}}));
    REQUIRE(m.outputs[0].value);
    CHECK((*m.outputs[0].value)[0].lo == 4);
    CHECK((*m.outputs[0].value)[0].hi == 9);
    const auto sum = run_onnx_op(Onnx("ReduceSum", 1, {In("3", ElementType::i64)}, {}, {{0, V({1, 2, 3})}}));
    REQUIRE(sum.outputs[0].value);
    CHECK((*sum.outputs[0].value)[0].lo == 6);
}

TEST_CASE("onnx ArgMax/ArgMin: keepdims, negative axis, i64 output") {
    const auto r =
        run_onnx_op(Onnx("ArgMax", 13, {In("2,3,4")}, {{"axis", "-1"}, {"keepdims", "0"}, {"select_last_index", "1"}}));
    CHECK(r.str() == "[2,3]");
    CHECK(r.outputs[0].type == ElementType::i64);
    CHECK(run_onnx_op(Onnx("ArgMin", 1, {In("2,3,4")})).str() == "[1,3,4]");
    CHECK_FALSE(run_onnx_op(Onnx("ArgMin", 13, {In("2,3")}, {{"axis", "2"}})).ok());
    // Values: the first index of the extreme, or the last with select_last_index.
    const auto first =
        run_onnx_op(Onnx("ArgMax", 13, {In("2,3", ElementType::i64)}, {{"axis", "1"}}, {{0, V({1, 5, 5, 7, 2, 7})}}));
    REQUIRE(first.outputs[0].value);
    CHECK((*first.outputs[0].value)[0].lo == 1);
    CHECK((*first.outputs[0].value)[1].lo == 0);
    const auto last = run_onnx_op(Onnx("ArgMin", 12, {In("2,3", ElementType::i64)},
                                       {{"axis", "0"}, {"select_last_index", "1"}}, {{0, V({1, 5, 5, 1, 2, 7})}}));
    REQUIRE(last.outputs[0].value);
    CHECK((*last.outputs[0].value)[0].lo == 1);
    CHECK((*last.outputs[0].value)[1].lo == 1);
    CHECK((*last.outputs[0].value)[2].lo == 0);
}

TEST_CASE("onnx TopK: k attribute at 1, input from 10, unknown K") {
    const auto v1 = run_onnx_op(Onnx("TopK", 1, {In("3,4")}, {{"k", "3"}}));
    CHECK(v1.str(0) == "[3,3]");
    CHECK(v1.outputs[1].type == ElementType::i64);
    const auto v11 =
        run_onnx_op(Onnx("TopK", 11, {In("3,4"), In("1", ElementType::i64)}, {{"axis", "0"}}, {{1, V({2})}}));
    CHECK(v11.str(1) == "[2,4]");
    const auto unknown = run_onnx_op(Onnx("TopK", 11, {In("3,4"), In("1", ElementType::i64)}));
    CHECK(unknown.str() == "[3,..4]");
    CHECK(unknown.unknown);
    CHECK_FALSE(run_onnx_op(Onnx("TopK", 11, {In("3,4"), In("1", ElementType::i64)}, {}, {{1, V({5})}})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("TopK", 10, {In("3,4"), In("2", ElementType::i64)})).ok());
}

TEST_CASE("onnx CumSum keeps x") {
    CHECK(run_onnx_op(Onnx("CumSum", 14, {In("2,3", ElementType::i32), In("", ElementType::i32)}, {}, {{1, V({-1})}}))
              .str() == "[2,3]");
    CHECK_FALSE(run_onnx_op(Onnx("CumSum", 14, {In("2,3"), In("", ElementType::i64)}, {}, {{1, V({2})}})).ok());
}

TEST_CASE("onnx CumProd keeps x, its axis an i32/i64 scalar in range") {
    const auto r =
        run_onnx_op(Onnx("CumProd", 26, {In("2,?", ElementType::i32), In("", ElementType::i32)}, {}, {{1, V({-2})}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,?]");
    CHECK(r.outputs[0].type == ElementType::i32);
    CHECK(run_onnx_op(Onnx("CumProd", 26, {In("2,3", ElementType::f64), In("", ElementType::i64)},
                           {{"exclusive", "1"}, {"reverse", "1"}}))
              .ok());
    CHECK(run_onnx_op(Onnx("CumProd", 26, {In("2,3", ElementType::bf16), In("")})).ok() == false);  // axis f32
    CHECK(run_onnx_op(Onnx("CumProd", 26, {In("2,3", ElementType::bf16), In("", ElementType::i64)})).ok());
    CHECK(run_onnx_op(Onnx("CumProd", 26, {In("2,3"), In("", ElementType::i64)}, {}, {{1, V({2})}}))
              .problem()
              .find("out of range") != std::string::npos);
    CHECK_FALSE(run_onnx_op(Onnx("CumProd", 26, {In("2,3"), In("1,1", ElementType::i64)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("CumProd", 26, {In("2", ElementType::boolean), In("", ElementType::i64)})).ok());
}

// ---- resampling -----------------------------------------------------------------------------------------

TEST_CASE("onnx Resize: scales floor(in*scale), sizes, axes, keep_aspect_ratio_policy") {
    OnnxCase scales = Onnx("Resize", 13, {In("1,1,4,4"), Omitted(), In("4")});
    scales.reals[2] = {1.0, 1.0, 0.6, 0.6};
    CHECK(run_onnx_op(scales).str() == "[1,1,2,2]");
    CHECK(run_onnx_op(Onnx("Resize", 13, {In("1,1,4,4"), Omitted(), Omitted(), In("4", ElementType::i64)}, {},
                           {{3, V({1, 1, 3, 2})}}))
              .str() == "[1,1,3,2]");
    CHECK(run_onnx_op(Onnx("Resize", 18, {In("1,1,4,4"), Omitted(), Omitted(), In("2", ElementType::i64)},
                           {{"axes", "3,2"}}, {{3, V({2, 3})}}))
              .str() == "[1,1,3,2]");
    CHECK(run_onnx_op(Onnx("Resize", 18, {In("1,1,2,2"), Omitted(), Omitted(), In("2", ElementType::i64)},
                           {{"axes", "2,3"}, {"keep_aspect_ratio_policy", "not_larger"}}, {{3, V({7, 8})}}))
              .str() == "[1,1,7,7]");
    CHECK(run_onnx_op(Onnx("Resize", 18, {In("1,1,2,2"), Omitted(), Omitted(), In("2", ElementType::i64)},
                           {{"axes", "2,3"}, {"keep_aspect_ratio_policy", "not_smaller"}}, {{3, V({7, 8})}}))
              .str() == "[1,1,8,8]");
    // Sizes known as bounds (a ShapeOf of a dynamic dim) give intervals.
    CHECK(run_onnx_op(Onnx("Resize", 19, {In("1,1,4,4"), Omitted(), Omitted(), In("4", ElementType::i64)}, {},
                           {{3, TensorValue{{1, 1}, {1, 1}, {2, 5}, {3, 3}}}}))
              .str() == "[1,1,2..5,3]");
    const auto unknown =
        run_onnx_op(Onnx("Resize", 13, {In("1,1,4,4"), Omitted(), Omitted(), In("4", ElementType::i64)}));
    CHECK(unknown.str() == "[?,?,?,?]");
    CHECK(unknown.unknown);
    CHECK_FALSE(run_onnx_op(Onnx("Resize", 13, {In("1,1,4,4"), Omitted(), In("4"), In("4", ElementType::i64)})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Resize", 13, {In("1,1,4,4"), Omitted(), In("0"), Omitted()})).ok());
    // scales of an unknown length may be the empty tensor: sizes decide.
    CHECK(run_onnx_op(Onnx("Resize", 11, {In("1,1,4,4"), In("0"), In("?"), In("4", ElementType::i64)}, {},
                           {{3, V({1, 1, 8, 8})}}))
              .str() == "[1,1,8,8]");
    OnnxCase v10 = Onnx("Resize", 10, {In("1,1,2,3"), In("4")});
    v10.reals[1] = {1.0, 1.0, 2.0, 1.5};
    CHECK(run_onnx_op(v10).str() == "[1,1,4,4]");
}

TEST_CASE("onnx Upsample, GridSample and AffineGrid") {
    CHECK(run_onnx_op(Onnx("Upsample", 7, {In("1,1,2,2")}, {{"scales", "1,1,2,3"}})).str() == "[1,1,4,6]");
    OnnxCase up = Onnx("Upsample", 9, {In("1,1,2,2"), In("4")});
    up.reals[1] = {1.0, 1.0, 2.0, 3.0};
    CHECK(run_onnx_op(up).str() == "[1,1,4,6]");
    CHECK(run_onnx_op(Onnx("GridSample", 16, {In("1,1,4,4"), In("1,6,6,2")})).str() == "[1,1,6,6]");
    CHECK(run_onnx_op(Onnx("GridSample", 20, {In("1,1,3,4,4"), In("1,2,4,2,3")})).str() == "[1,1,2,4,2]");
    CHECK_FALSE(run_onnx_op(Onnx("GridSample", 20, {In("1,1,4,4"), In("1,6,6,3")})).ok());
    CHECK(run_onnx_op(Onnx("AffineGrid", 20, {In("2,2,3"), In("4", ElementType::i64)}, {}, {{1, V({2, 3, 5, 6})}}))
              .str() == "[2,5,6,2]");
    CHECK(run_onnx_op(Onnx("AffineGrid", 20, {In("2,3,4"), In("5", ElementType::i64)})).str() == "[?,?,?,?,3]");
}

// ---- recurrent and attention ----------------------------------------------------------------------------

TEST_CASE("onnx LSTM/GRU/RNN: directions, layout, hidden_size from R") {
    const auto l =
        run_onnx_op(Onnx("LSTM", 14, {In("5,2,3"), In("2,28,3"), In("2,28,7")}, {{"direction", "bidirectional"}}));
    REQUIRE(l.ok());
    REQUIRE(l.outputs.size() == 3);
    CHECK(l.str(0) == "[5,2,2,7]");
    CHECK(l.str(1) == "[2,2,7]");
    CHECK(l.str(2) == "[2,2,7]");
    const auto g = run_onnx_op(
        Onnx("GRU", 14, {In("2,5,3"), In("1,15,3"), In("1,15,5")}, {{"layout", "1"}, {"hidden_size", "5"}}));
    CHECK(g.str(0) == "[2,5,1,5]");
    CHECK(g.str(1) == "[2,1,5]");
    const auto r =
        run_onnx_op(Onnx("RNN", 7, {In("5,2,3"), In("1,4,3"), In("1,4,4"), Omitted(), In("2", ElementType::i32)},
                         {{"hidden_size", "4"}}));
    CHECK(r.outputs.size() == 2);
    // ONNX's inference takes hidden_size as given; ONNX Runtime's kernels and OpenVINO's import hold W, R, B,
    // the initial states and P to it, to the directions, X's batch and its input size.
    CHECK(run_onnx_op(Onnx("LSTM", 14, {In("5,2,3"), In("1,28,3"), In("1,28,7")}, {{"hidden_size", "6"}})).problem() ==
          "W [1,28,3] must be [num_directions, 4*hidden_size, input_size] = [1,24,3]");
    CHECK(run_onnx_op(Onnx("GRU", 14, {In("5,2,3"), In("1,15,4"), In("1,15,5")})).problem() ==
          "W [1,15,4] must be [num_directions, 3*hidden_size, input_size] = [1,15,3]");
    CHECK(run_onnx_op(Onnx("RNN", 14, {In("5,2,3"), In("1,4,3"), In("1,4,4"), In("1,8"), In("3", ElementType::i32)}))
              .problem() == "sequence_lens [3] must be [batch] = [2]");
    CHECK(run_onnx_op(Onnx("LSTM", 14,
                           {In("2,5,3"), In("1,16,3"), In("1,16,4"), In("1,32"), Omitted(), In("1,2,4"), In("2,1,4")},
                           {{"layout", "1"}}))
              .problem() == "initial_h [1,2,4] must be [batch, num_directions, hidden_size] = [2,1,4]");
    CHECK(run_onnx_op(Onnx("LSTM", 14,
                           {In("5,2,3"), In("1,16,3"), In("1,16,4"), In("1,32"), Omitted(), In("1,2,4"), In("1,2,4"),
                            In("1,9")}))
              .problem() == "P [1,9] must be [num_directions, 3*hidden_size] = [1,12]");
    CHECK(run_onnx_op(Onnx("LSTM", 14, {In("5,?,3"), In("1,16,?"), In("1,16,4"), In("1,32"), Omitted(), In("1,7,4")}))
              .ok());  // unknown dims are compatible
    CHECK_FALSE(
        run_onnx_op(Onnx("LSTM", 14, {In("5,2,3"), In("1,28,3"), In("1,28,7")}, {{"direction", "bidirectional"}}))
            .ok());
    CHECK_FALSE(run_onnx_op(Onnx("GRU", 7, {In("5,2,3"), In("1,15,3"), In("1,15,5")}, {{"direction", "both"}})).ok());
    // Version 1 gives shapes only with output_sequence=1.
    CHECK(run_onnx_op(Onnx("RNN", 1, {In("5,2,3"), In("1,4,3"), In("1,4,4")})).str() == "[...]");
    CHECK(run_onnx_op(Onnx("RNN", 1, {In("5,2,3"), In("1,4,3"), In("1,4,4")}, {{"output_sequence", "1"}})).str() ==
          "[5,1,2,4]");
}

TEST_CASE("onnx Attention: 4-D and 3-D forms, past and present, qk_matmul_output") {
    const auto f = run_onnx_op(Onnx(
        "Attention", 23, {In("2,3,4,8"), In("2,3,6,8"), In("2,3,6,10"), Omitted(), In("2,3,12,8"), In("2,3,12,10")}));
    REQUIRE(f.ok());
    CHECK(f.str(0) == "[2,3,4,10]");
    CHECK(f.str(1) == "[2,3,18,8]");
    CHECK(f.str(2) == "[2,3,18,10]");
    CHECK(f.str(3) == "[2,3,4,18]");
    const auto t = run_onnx_op(Onnx("Attention", 24, {In("2,4,24"), In("2,6,24"), In("2,6,30")},
                                    {{"q_num_heads", "3"}, {"kv_num_heads", "3"}}));
    REQUIRE(t.ok());
    CHECK(t.str(0) == "[2,4,30]");
    CHECK(t.str(1) == "[2,3,6,8]");
    CHECK_FALSE(run_onnx_op(Onnx("Attention", 23, {In("2,4,24"), In("2,6,24"), In("2,6,30")})).ok());
    CHECK_FALSE(run_onnx_op(Onnx("Attention", 23, {In("2,24"), In("2,6,24"), In("2,6,30")})).ok());
}

TEST_CASE("onnx RotaryEmbedding keeps X") {
    CHECK(
        run_onnx_op(Onnx("RotaryEmbedding", 23, {In("2,3,4,8"), In("2,4,4"), In("2,4,4"), In("2,4", ElementType::i64)}))
            .str() == "[2,3,4,8]");
    CHECK_FALSE(run_onnx_op(Onnx("RotaryEmbedding", 23, {In("2,4,24"), In("2,4,4"), In("2,4,4")})).ok());
}

// ---- CausalConvWithState, LinearAttention ---------------------------------------------------------------

TEST_CASE("onnx CausalConvWithState: output the input's dims, present_state [B, C, k-1]") {
    const auto r = run_onnx_op(Onnx("CausalConvWithState", 27, {In("2,4,8"), In("4,1,4")}));
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2,4,8]");
    CHECK(r.str(1) == "[2,4,3]");
    CHECK(r.outputs[1].type == ElementType::f32);
    // Dims unknown in one input come from another: C from the weight, B and k-1 from past_state; k = 1 gives 0.
    const auto d = run_onnx_op(
        Onnx("CausalConvWithState", 27, {In("?,?,?"), In("4,1,?"), Omitted(), In("2,?,3")}, {{"activation", "silu"}}));
    REQUIRE(d.ok());
    CHECK(d.str(0) == "[2,4,?]");
    CHECK(d.str(1) == "[2,4,3]");
    CHECK(run_onnx_op(Onnx("CausalConvWithState", 27, {In("1,1,6"), In("1,1,1")})).str(1) == "[1,1,0]");
    CHECK(run_onnx_op(Onnx("CausalConvWithState", 27, {In("2,4,8"), In("4,1,2..5")})).str(1) == "[2,4,1..4]");
    CHECK(run_onnx_op(Onnx("CausalConvWithState", 27, {In("..."), In("4,1,4")})).str(0) == "[...]");
    CHECK(run_onnx_op(Onnx("CausalConvWithState", 27,
                           {In("2,4,1", ElementType::f16), In("4,1,4", ElementType::f16), In("4", ElementType::f16),
                            In("2,4,3", ElementType::f16)}))
              .ok());
}

TEST_CASE("onnx CausalConvWithState: rejections") {
    const auto conv = [](std::vector<OpInput> in, std::vector<std::pair<std::string, std::string>> attrs = {}) {
        return run_onnx_op(Onnx("CausalConvWithState", 27, std::move(in), std::move(attrs)));
    };
    CHECK(conv({In("2,4,8"), In("4,1,4")}, {{"activation", "relu"}}).problem().find("activation") != std::string::npos);
    CHECK(conv({In("2,4,8"), In("4,1,4"), Omitted(), In("2,4,2")}).problem().find("kernel size") != std::string::npos);
    CHECK(conv({In("2,4,8"), In("5,1,4")}).problem().find("weight") != std::string::npos);
    CHECK_FALSE(conv({In("2,4,8"), In("4,2,4")}).ok());                          // the middle dim is 1
    CHECK_FALSE(conv({In("2,4,8"), In("4,1,4"), In("3")}).ok());                 // bias [C]
    CHECK_FALSE(conv({In("2,4,8"), In("4,1,4"), Omitted(), In("3,4,3")}).ok());  // past_state's B
    CHECK_FALSE(conv({In("2,4,8"), In("4,1,0")}).ok());                          // k >= 1
    CHECK_FALSE(conv({In("2,4"), In("4,1,4")}).ok());                            // 3-D
    CHECK_FALSE(conv({In("2,4,8", ElementType::f64), In("4,1,4", ElementType::f64)}).ok());
    CHECK_FALSE(conv({In("2,4,8"), In("4,1,4", ElementType::f16)}).ok());
    CHECK_FALSE(conv({In("2,4,8")}).ok());
}

TEST_CASE("onnx LinearAttention: packed heads, GQA, present_state") {
    const std::vector<std::pair<std::string, std::string>> gqa{{"q_num_heads", "8"}, {"kv_num_heads", "4"}};
    const auto r = run_onnx_op(Onnx(
        "LinearAttention", 27, {In("2,4,64"), In("2,4,32"), In("2,4,32"), Omitted(), In("2,4,32"), In("2,4,4")}, gqa));
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2,4,64]");
    CHECK(r.str(1) == "[2,4,8,8]");
    // d_v from value (12 / 4 = 3): the output is 8 heads of 3; present_state takes past_state's type.
    const auto p = run_onnx_op(Onnx("LinearAttention", 27,
                                    {In("?,?,64", ElementType::f16), In("?,5,32", ElementType::f16),
                                     In("?,?,12", ElementType::f16), In("3,4,?,?", ElementType::f32)},
                                    {{"q_num_heads", "8"}, {"kv_num_heads", "4"}, {"update_rule", "linear"}}));
    REQUIRE(p.ok());
    CHECK(p.str(0) == "[3,5,24]");
    CHECK(p.str(1) == "[3,4,8,3]");
    CHECK(p.outputs[0].type == ElementType::f16);
    CHECK(p.outputs[1].type == ElementType::f32);
    // Without past_state, present_state has query's type; d_v unknown leaves the output's last dim open.
    const auto q = run_onnx_op(
        Onnx("LinearAttention", 27,
             {In("1,1,8", ElementType::bf16), In("1,1,4", ElementType::bf16), In("1,1,?", ElementType::bf16)},
             {{"q_num_heads", "2"}, {"kv_num_heads", "1"}, {"update_rule", "linear"}}));
    REQUIRE(q.ok());
    CHECK(q.str(0) == "[1,1,?]");
    CHECK(q.str(1) == "[1,1,4,?]");
    CHECK(q.outputs[1].type == ElementType::bf16);
}

TEST_CASE("onnx LinearAttention: rejections") {
    const auto la = [](std::vector<OpInput> in, std::vector<std::pair<std::string, std::string>> attrs) {
        return run_onnx_op(Onnx("LinearAttention", 27, std::move(in), std::move(attrs)));
    };
    const std::vector<std::pair<std::string, std::string>> mha{
        {"q_num_heads", "4"}, {"kv_num_heads", "4"}, {"update_rule", "linear"}};
    const std::vector<OpInput> qkv{In("2,4,32"), In("2,4,32"), In("2,4,32")};
    CHECK(la(qkv, mha).ok());
    CHECK_FALSE(la(qkv, {{"q_num_heads", "4"}, {"update_rule", "linear"}}).ok());  // kv_num_heads needed
    CHECK(
        la(qkv, {{"q_num_heads", "6"}, {"kv_num_heads", "4"}, {"update_rule", "linear"}}).problem().find("multiple") !=
        std::string::npos);
    CHECK_FALSE(la(qkv, {{"q_num_heads", "0"}, {"kv_num_heads", "4"}, {"update_rule", "linear"}}).ok());
    CHECK_FALSE(la(qkv, {{"q_num_heads", "4"}, {"kv_num_heads", "4"}, {"update_rule", "fast"}}).ok());
    // The update rule's decay and beta: gated_delta (the default) needs both; linear forbids them.
    CHECK(la(qkv, {{"q_num_heads", "4"}, {"kv_num_heads", "4"}}).problem().find("needs decay") != std::string::npos);
    CHECK(la({In("2,4,32"), In("2,4,32"), In("2,4,32"), Omitted(), In("2,4,4")}, mha).problem().find("forbids") !=
          std::string::npos);
    CHECK_FALSE(la({In("2,4,32"), In("2,4,32"), In("2,4,32"), Omitted(), Omitted(), In("2,4,4")},
                   {{"q_num_heads", "4"}, {"kv_num_heads", "4"}, {"update_rule", "gated"}})
                    .ok());
    // Shapes: divisibility, one d_k, B and T shared, past_state [B, Hkv, d_k, d_v], decay and beta last dims.
    CHECK(la({In("2,4,30"), In("2,4,32"), In("2,4,32")}, mha).problem().find("divisible") != std::string::npos);
    CHECK_FALSE(la({In("2,4,16"), In("2,4,32"), In("2,4,32")}, mha).ok());
    CHECK_FALSE(la({In("2,4,32"), In("2,5,32"), In("2,4,32")}, mha).ok());
    CHECK_FALSE(la({In("2,4,32"), In("2,4,32"), In("2,4,32"), In("2,2,8,8")}, mha).ok());
    CHECK_FALSE(la({In("2,4,32"), In("2,4,32"), In("2,4,32"), In("2,4,8")}, mha).ok());
    const std::vector<std::pair<std::string, std::string>> gd{{"q_num_heads", "4"}, {"kv_num_heads", "4"}};
    CHECK(la({In("2,4,32"), In("2,4,32"), In("2,4,32"), Omitted(), In("2,4,32"), In("2,4,1")}, gd).ok());
    CHECK(la({In("2,4,32"), In("2,4,32"), In("2,4,32"), Omitted(), In("2,4,8"), In("2,4,4")}, gd)
              .problem()
              .find("decay") != std::string::npos);
    CHECK(la({In("2,4,32"), In("2,4,32"), In("2,4,32"), Omitted(), In("2,4,4"), In("2,4,2")}, gd)
              .problem()
              .find("beta") != std::string::npos);
    CHECK_FALSE(
        la({In("2,4,32", ElementType::f64), In("2,4,32", ElementType::f64), In("2,4,32", ElementType::f64)}, mha).ok());
    CHECK_FALSE(la({In("2,4,32"), In("2,4,32", ElementType::f16), In("2,4,32")}, mha).ok());
}
