// Unit tests of the more specialised ONNX microsoft ops (rules/ops/onnx_microsoft_more.cpp): the shapes and
// types ONNX Runtime's contrib shape inference gives (as ONNX Runtime 1.30 gives them), and the nodes it refuses.
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {

constexpr auto boolean_t = ElementType::boolean;
const std::optional<ElementType> untyped = std::nullopt;

}  // namespace

TEST_CASE("com.microsoft QLinearWhere broadcasts condition, X and Y once every input's shape is known") {
    auto where = [](const std::string& cond, const std::string& x, const std::string& y, ElementType yt = u8) {
        return Ms("QLinearWhere", {In(cond, boolean_t), In(x, u8), In("", f32), In("", u8), In(y, yt), In("", f32),
                                   In("", yt), In("", f32), In("", u8)});
    };
    const auto r = run_onnx_op(where("2,1", "1,3", "2,3"));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,3]");
    CHECK(r.outputs[0].type == u8);
    auto unknown = where("2,1", "1,3", "2,3");
    unknown.inputs[2] = In("...", f32);
    CHECK(run_onnx_op(unknown).str() == "[...]");
    CHECK(mentions(run_onnx_op(where("2,1", "1,3", "2,4")), "condition, X and Y do not broadcast"));
    CHECK(
        mentions(run_onnx_op(where("2,1", "1,3", "2,3", i8)), "inputs 1 and 4 are both of type T; they are u8 and i8"));
    CHECK(!run_onnx_op(Ms("QLinearWhere", {In("2", boolean_t), In("2", u8)})).ok());
}

TEST_CASE("com.microsoft QLinearReduceMean: axes reduced, kept as 1 only when keepdims is 1") {
    auto reduce = [](const std::string& x, std::vector<std::pair<std::string, std::string>> attrs) {
        return Ms("QLinearReduceMean", {In(x, u8), In("", f32), In("", u8), In("", f32), In("", u8)}, std::move(attrs));
    };
    const auto keep = run_onnx_op(reduce("2,?,4", {{"axes", "1"}, {"keepdims", "1"}}));
    REQUIRE(keep.ok());
    CHECK(keep.str() == "[2,1,4]");
    CHECK(keep.outputs[0].type == u8);
    CHECK(run_onnx_op(reduce("2,?,4", {{"axes", "-1,0"}, {"keepdims", "0"}})).str() == "[?]");
    // keepdims other than 1 drops the axes, as ONNX Runtime compares it with 1
    CHECK(run_onnx_op(reduce("2,?,4", {{"axes", "1"}, {"keepdims", "2"}})).str() == "[2,4]");
    CHECK(run_onnx_op(reduce("2,?,4", {{"axes", ""}, {"keepdims", "1"}})).str() == "[1,1,1]");
    CHECK(mentions(run_onnx_op(reduce("2,?,4", {{"axes", "3"}, {"keepdims", "1"}})), "axis 3 is out of range [-3, 2]"));
    CHECK(!run_onnx_op(reduce("2,?,4", {{"keepdims", "1"}})).ok());
    auto vector_scale = reduce("2,3", {{"axes", "1"}, {"keepdims", "1"}});
    vector_scale.inputs[1] = In("1", f32);
    CHECK(mentions(run_onnx_op(vector_scale), "input 1 (data_scale) must be a scalar"));
    // the checks wait for the data's shape
    vector_scale.inputs[0] = In("...", u8);
    CHECK(run_onnx_op(vector_scale).ok());
    auto left_out = reduce("2,3", {{"axes", "1"}, {"keepdims", "1"}});
    left_out.inputs[2] = Omitted();
    CHECK(mentions(run_onnx_op(left_out), "input 2 (data_zero_point) is left out"));
}

TEST_CASE("com.microsoft ReduceSumInteger and MulInteger") {
    const auto sum = run_onnx_op(Ms("ReduceSumInteger", {In("2,3", u8)}, {{"axes", "1"}, {"keepdims", "1"}}));
    REQUIRE(sum.ok());
    CHECK(sum.str() == "[...]");
    CHECK(!sum.outputs[0].type);
    CHECK(!run_onnx_op(Ms("ReduceSumInteger", {In("2,3", u8)}, {{"keepdims", "1"}})).ok());
    const auto mul = run_onnx_op(Ms("MulInteger", {In("2,3", i8), In("", i8), In("4,1,3", i8), In("", i8)}));
    REQUIRE(mul.ok());
    CHECK(mul.str() == "[4,2,3]");
    CHECK(mul.outputs[0].type == i32);
    CHECK(mentions(run_onnx_op(Ms("MulInteger", {In("2,3", u8), In("", u8), In("3", u8)})),
                   "input 3 (B_zero_point) is left out"));
    CHECK(mentions(run_onnx_op(Ms("MulInteger", {In("2,3", u8), In("3", u8), In("3", u8), In("", u8)})),
                   "input 1 (A_zero_point) must be a scalar"));
    CHECK(!run_onnx_op(Ms("MulInteger", {In("2,3", u8), In("", u8), In("4", u8), In("", u8)})).ok());
}

TEST_CASE("com.microsoft ExpandDims inserts a 1 at a known axis") {
    auto expand = [](int64_t axis) { return Ms("ExpandDims", {In("2,?,5"), In("", i32)}, {}, {{1, V({axis})}}); };
    CHECK(run_onnx_op(expand(0)).str() == "[1,2,?,5]");
    CHECK(run_onnx_op(expand(3)).str() == "[2,?,5,1]");
    CHECK(run_onnx_op(expand(-1)).str() == "[2,?,5,1]");
    CHECK(run_onnx_op(expand(-4)).str() == "[1,2,?,5]");
    CHECK(mentions(run_onnx_op(expand(4)), "axis 4 is out of range [-4, 3]"));
    CHECK(mentions(run_onnx_op(expand(-5)), "axis -5 is out of range"));
    const auto unknown = run_onnx_op(Ms("ExpandDims", {In("2,3", f16), In("", i32)}));
    CHECK(unknown.str() == "[...]");
    CHECK(unknown.outputs[0].type == f16);
    CHECK(unknown.unknown);
    CHECK(mentions(run_onnx_op(Ms("ExpandDims", {In("2,3"), In("2", i32)}, {}, {{1, V({0, 1})}})), "holds 2"));
    CHECK(!run_onnx_op(Ms("ExpandDims", {In("2,3"), In("", i64)})).ok());
}

TEST_CASE("com.microsoft Range: ceil((limit - start) / delta), at least 0") {
    auto range = [](int64_t start, int64_t limit, std::optional<int64_t> delta) {
        std::vector<OpInput> in = {In("", i64), In("", i64)};
        std::map<size_t, TensorValue> values = {{0, V({start})}, {1, V({limit})}};
        if (delta) {
            in.push_back(In("", i64));
            values[2] = V({*delta});
        }
        return Ms("Range", in, {}, values);
    };
    const auto r = run_onnx_op(range(0, 10, 3));
    CHECK(r.str() == "[4]");
    CHECK(r.outputs[0].type == i64);
    CHECK(run_onnx_op(range(2, 7, std::nullopt)).str() == "[5]");
    CHECK(run_onnx_op(range(10, 0, 1)).str() == "[0]");
    CHECK(mentions(run_onnx_op(range(2, 7, 0)), "delta is 0"));
    auto real = Ms("Range", {In("", f32), In("", f32), In("", f32)});
    real.reals = {{0, {0.5}}, {1, {2.0}}, {2, {0.4}}};
    CHECK(run_onnx_op(real).str() == "[4]");
    CHECK(run_onnx_op(Ms("Range", {In("", i32), In("", i32)})).str() == "[?]");
    CHECK(mentions(run_onnx_op(Ms("Range", {In("", i32), In("", i64)})), "they are i32 and i64"));
    CHECK(!run_onnx_op(Ms("Range", {In("", f16), In("", f16)})).ok());
}

TEST_CASE("com.microsoft Pad: dims grow by their pads when the pads are known") {
    auto pad = [](const std::string& x, const std::string& pads_shape, std::initializer_list<int64_t> pads) {
        return Ms("Pad", {In(x), In(pads_shape, i64)}, {}, {{1, V(pads)}});
    };
    CHECK(run_onnx_op(pad("2,?,4", "6", {1, 0, 2, 1, 0, 3})).str() == "[4,?,9]");
    CHECK(run_onnx_op(pad("2,?,4", "1,6", {1, 0, 2, 1, 0, 3})).str() == "[4,?,9]");
    // an unknown dim whose pads add up to 0 stays as it is
    CHECK(run_onnx_op(pad("2,?,4", "6", {0, 1, 0, 0, -1, 0})).str() == "[2,?,4]");
    // too few pads are padded with 0, too many cut
    CHECK(run_onnx_op(pad("2,4", "2", {1, 1})).str() == "[3,5]");
    CHECK(run_onnx_op(pad("2,4", "6", {1, 1, 1, 1, 5, 5})).str() == "[4,6]");
    CHECK(mentions(run_onnx_op(pad("2,4", "2,2", {1, 1, 1, 1})), "pads must be 1-D, or 2-D of one row"));
    CHECK(mentions(run_onnx_op(pad("2,4", "4", {-3, 0, 0, 0})), "dim 0 would be 2 + -3 + 0"));
    const auto unknown = run_onnx_op(Ms("Pad", {In("2,3", f64), In("4", i64)}));
    CHECK(unknown.str() == "[?,?]");
    CHECK(unknown.outputs[0].type == f64);
    CHECK(!run_onnx_op(Ms("Pad", {In("2,3"), In("4", i64), In("", f16)})).ok());
}

TEST_CASE("com.microsoft ConvTransposeWithDynamicPads: ConvTranspose's lengths with the pads of an input") {
    auto conv = [](const std::string& x, const std::string& w, std::initializer_list<int64_t> pads,
                   std::vector<std::pair<std::string, std::string>> attrs = {}) {
        return Ms("ConvTransposeWithDynamicPads", {In(x), In(w), In(std::to_string(pads.size()), i64)},
                  std::move(attrs), {{2, V(pads)}});
    };
    const auto r = run_onnx_op(conv("1,3,8,?", "3,4,3,3", {1, 1, 1, 1}, {{"strides", "2,2"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,4,15,?]");
    CHECK(r.outputs[0].type == f32);
    CHECK(run_onnx_op(conv("1,4,5,5", "4,2,3,3", {0, 0, 0, 0},
                           {{"group", "2"}, {"output_padding", "1,0"}, {"dilations", "2,1"}}))
              .str() == "[1,4,10,7]");
    CHECK(run_onnx_op(conv("1,3,8,8", "3,4,?,?", {0, 0, 0, 0}, {{"kernel_shape", "2,2"}})).str() == "[1,4,9,9]");
    // no shape: a kernel dim unknown, a list of the wrong length, unknown pads
    CHECK(run_onnx_op(conv("1,3,8,8", "3,4,?,3", {0, 0, 0, 0})).str() == "[...]");
    CHECK(run_onnx_op(conv("1,3,8,8", "3,4,3,3", {0, 0, 0, 0}, {{"strides", "2"}})).str() == "[...]");
    CHECK(run_onnx_op(Ms("ConvTransposeWithDynamicPads", {In("1,3,8,8"), In("3,4,3,3"), In("4", i64)})).str() ==
          "[...]");
    CHECK(mentions(run_onnx_op(conv("1,3,8,8", "3,4,3,3", {1, 1})), "Pads holds 2 values"));
    CHECK(mentions(run_onnx_op(conv("1,3", "3,4,3,3", {})), "X must have rank >= 3; it is [1,3]"));
    CHECK(mentions(run_onnx_op(conv("1,3,5,5", "3,4", {})), "W must have rank >= 3"));
    CHECK(mentions(run_onnx_op(conv("1,3,2,2", "3,4,3,3", {5, 5, 5, 5})), "the output length of dim 2 is -6"));
}

TEST_CASE("com.microsoft MaxpoolWithMask: MaxPool's window over X") {
    auto pool = [](const std::string& x, std::vector<std::pair<std::string, std::string>> attrs) {
        return Ms("MaxpoolWithMask", {In(x), In("...", i32)}, std::move(attrs));
    };
    const auto r = run_onnx_op(pool("1,3,8,?", {{"kernel_shape", "3,3"}, {"strides", "2,2"}, {"pads", "1,1,1,1"}}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,3,4,?]");
    CHECK(
        run_onnx_op(pool("1,3,7,7", {{"kernel_shape", "3,3"}, {"strides", "2,2"}, {"auto_pad", "SAME_UPPER"}})).str() ==
        "[1,3,4,4]");
    CHECK(run_onnx_op(pool("1,3,7,7", {{"kernel_shape", "3,3"}, {"strides", "2,2"}, {"auto_pad", "VALID"}})).str() ==
          "[1,3,3,3]");
    CHECK(!run_onnx_op(pool("1,3,8,8", {})).ok());
    CHECK(!run_onnx_op(pool("1,3,8,8", {{"kernel_shape", "2,2"}, {"pads", "1,1"}})).ok());
    CHECK(mentions(run_onnx_op(pool("1,3", {{"kernel_shape", ""}})), "X must have rank >= 3"));
    CHECK(
        !run_onnx_op(Ms("MaxpoolWithMask", {In("1,3,8,8", f16), In("1,3,8,8", i32)}, {{"kernel_shape", "2,2"}})).ok());
}

TEST_CASE("com.microsoft Dropouts: the data's shape and type, and the mask") {
    const auto r = run_onnx_op(
        Ms("BiasDropout", {In("2,?,8", bf16), In("8", bf16), In("2,?,8", bf16), In("", f32), In("", boolean_t)}));
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[2,?,8]");
    CHECK(r.outputs[0].type == bf16);
    CHECK(r.str(1) == "[2,?,8]");
    CHECK(r.outputs[1].type == boolean_t);
    CHECK(!run_onnx_op(Ms("BiasDropout", {In("2,8"), In("8"), Omitted(), In(""), In("", f32)})).ok());
    CHECK(!run_onnx_op(Ms("BiasDropout", {In("2,8"), In("8", f16)})).ok());
    for (const char* op : {"BitmaskDropout", "BitmaskBiasDropout"}) {
        const auto b = run_onnx_op(Ms(op, {In("2,?,8", f16), In("8", f16)}));
        REQUIRE(b.outputs.size() == 2);
        CHECK(b.str(0) == "[2,?,8]");
        CHECK(b.outputs[0].type == f16);
        CHECK(b.str(1) == "[...]");
        CHECK(b.outputs[1].type == u32);
    }
}

TEST_CASE("com.microsoft ops ONNX Runtime gives only a type: Rfft, ComplexMul, CDist, CropAndResize, ...") {
    const auto rfft = run_onnx_op(Ms("Rfft", {In("2,8", f16)}));
    CHECK(rfft.str() == "[...]");
    CHECK(rfft.outputs[0].type == f16);
    CHECK(run_onnx_op(Ms("Irfft", {In("2,5,2", f64)}, {{"signal_ndim", "1"}})).outputs[0].type == f64);
    CHECK(!run_onnx_op(Ms("Irfft", {In("2,5,2", f64)})).ok());
    CHECK(run_onnx_op(Ms("ComplexMulConj", {In("2,8,2"), In("8,2")})).outputs[0].type == f32);
    CHECK(!run_onnx_op(Ms("ComplexMul", {In("2,8,2", i32), In("8,2", i32)})).ok());
    const auto cdist = run_onnx_op(Ms("CDist", {In("4,3", f64), In("5,3", f64)}, {{"metric", "euclidean"}}));
    CHECK(cdist.str() == "[...]");
    CHECK(cdist.outputs[0].type == f64);
    CHECK(!run_onnx_op(Ms("CDist", {In("4,3", f16), In("5,3", f16)})).ok());
    const auto crop = run_onnx_op(Ms("CropAndResize", {In("1,3,8,8"), In("5,4"), In("5", i32), In("2", i32)}));
    CHECK(crop.str() == "[...]");
    CHECK(crop.outputs[0].type == f32);
    CHECK(mentions(run_onnx_op(Ms("CropAndResize", {In("1,3,8"), In("5,4"), In("5", i32), In("2", i32)})),
                   "X must have rank 4; it is [1,3,8]"));
    // the ranks are checked once all four are known
    CHECK(run_onnx_op(Ms("CropAndResize", {In("1,3,8"), In("5,4"), In("...", i32), In("2", i32)})).ok());
    const auto word = run_onnx_op(Ms("WordConvEmbedding", {In("2,5,7", i32), In("8,1,2,4"), In("8"), In("50,4")}));
    CHECK(word.str() == "[...]");
    CHECK(word.outputs[0].type == f32);
    CHECK(!run_onnx_op(Ms("WordConvEmbedding", {In("2,5,7", i64), In("8,1,2,4"), In("8"), In("50,4")})).ok());
}

TEST_CASE("com.microsoft DequantizeWithOrder, QuantizeWithOrder, QOrderedGelu, QOrderedLayerNormalization") {
    const auto dq = run_onnx_op(Ms("DequantizeWithOrder", {In("2,?,8", i8), In("")},
                                   {{"order_input", "1"}, {"order_output", "1"}, {"to", "10"}}));
    REQUIRE(dq.ok());
    CHECK(dq.str() == "[2,?,8]");
    CHECK(dq.outputs[0].type == f16);
    CHECK(mentions(run_onnx_op(Ms("DequantizeWithOrder", {In("2,8", i8), In("")},
                                  {{"order_input", "1"}, {"order_output", "1"}, {"to", "99"}})),
                   "to is 99; it names no ONNX data type"));
    CHECK(!run_onnx_op(Ms("DequantizeWithOrder", {In("2,8", i8), In("")}, {{"to", "1"}})).ok());
    const auto q =
        run_onnx_op(Ms("QuantizeWithOrder", {In("2,?,8", f16), In("")}, {{"order_input", "1"}, {"order_output", "1"}}));
    CHECK(q.str() == "[2,?,8]");
    CHECK(q.outputs[0].type == i8);
    const auto gelu = run_onnx_op(Ms("QOrderedGelu", {In("2,?,8", i8), In(""), In("")}));
    CHECK(gelu.str() == "[2,?,8]");
    CHECK(gelu.outputs[0].type == i8);
    CHECK(!run_onnx_op(Ms("QOrderedGelu", {In("2,8", u8), In(""), In("")})).ok());
    const auto ln =
        run_onnx_op(Ms("QOrderedLayerNormalization", {In("2,?,8", i8), In(""), In("8", f16), Omitted(), In("")}));
    CHECK(ln.str() == "[2,?,8]");
    CHECK(ln.outputs[0].type == i8);
    CHECK(!run_onnx_op(Ms("QOrderedLayerNormalization", {In("2,8", i8), In(""), In("8", f16), In("8", f32), In("")}))
               .ok());
}

TEST_CASE("com.microsoft QuantizeBFP, DequantizeBFP, GemmFloat8, IsAllFinite") {
    const auto q = run_onnx_op(Ms("QuantizeBFP", {In("2,?,4")}, {{"bfp_type", "1"}}));
    REQUIRE(q.outputs.size() == 3);
    CHECK(q.str(0) == "[...]");
    CHECK(q.outputs[0].type == u8);
    CHECK(q.str(1) == "[3]");
    CHECK(q.outputs[2].type == i64);
    CHECK(run_onnx_op(Ms("QuantizeBFP", {In("...")}, {{"bfp_type", "1"}})).str(1) == "[...]");
    CHECK(!run_onnx_op(Ms("QuantizeBFP", {In("2,4")})).ok());
    const auto dq = run_onnx_op(
        Ms("DequantizeBFP", {In("20", u8), In("2", i64), In("2", i64)}, {{"bfp_type", "1"}, {"dtype", "16"}}));
    CHECK(dq.str() == "[...]");
    CHECK(dq.outputs[0].type == bf16);
    CHECK(mentions(run_onnx_op(Ms("DequantizeBFP", {In("2,20", u8), In("2", i64), In("2", i64)}, {{"bfp_type", "1"}})),
                   "x must be 1-D"));
    const auto gemm =
        run_onnx_op(Ms("GemmFloat8", {In("2,3", f16), In("4,3", f16)}, {{"transB", "1"}, {"dtype", "10"}}));
    CHECK(gemm.str() == "[2,4]");
    CHECK(gemm.outputs[0].type == f16);
    CHECK(run_onnx_op(Ms("GemmFloat8", {In("3,2"), In("3,4")}, {{"transA", "1"}})).outputs[0].type == f32);
    CHECK(mentions(run_onnx_op(Ms("GemmFloat8", {In("1,3,2"), In("3,4")})), "A and B must have rank 2; A is [1,3,2]"));
    CHECK(!run_onnx_op(Ms("GemmFloat8", {In("3,2"), In("2,4")}, {{"dtype", "99"}})).ok());
    const auto finite = run_onnx_op(Ms("IsAllFinite", {In("2,10"), In("3")}));
    CHECK(finite.str() == "[]");
    CHECK(finite.outputs[0].type == boolean_t);
    CHECK(mentions(run_onnx_op(Ms("IsAllFinite", {In("2")}, {{"isinf_only", "1"}, {"isnan_only", "1"}})), "both set"));
    CHECK(!run_onnx_op(Ms("IsAllFinite", {In("2,10"), In("3", f16)})).ok());
}

TEST_CASE("com.microsoft MatMulBnb4: A's last dim K becomes N") {
    const std::vector<std::pair<std::string, std::string>> attrs = {
        {"K", "16"}, {"N", "8"}, {"block_size", "128"}, {"quant_type", "1"}};
    const auto r = run_onnx_op(Ms("MatMulBnb4", {In("2,?,16", f16), In("64", u8), In("1", f16)}, attrs));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,?,8]");
    CHECK(r.outputs[0].type == f16);
    CHECK(run_onnx_op(Ms("MatMulBnb4", {In("16"), In("64", u8), In("1")}, attrs)).str() == "[8]");
    auto no_trans = attrs;
    no_trans.emplace_back("transB", "0");
    CHECK(run_onnx_op(Ms("MatMulBnb4", {In("2,8"), In("64", u8), In("1")}, no_trans)).str() == "[2,16]");
    CHECK(mentions(run_onnx_op(Ms("MatMulBnb4", {In("2,9"), In("64", u8), In("1")}, attrs)),
                   "has 9 in its last dim; K is 16"));
    CHECK(mentions(run_onnx_op(Ms("MatMulBnb4", {In(""), In("64", u8), In("1")}, attrs)), "must not be a scalar"));
    CHECK(!run_onnx_op(Ms("MatMulBnb4", {In("2,16"), In("64", u8), In("1", f16)}, attrs)).ok());
    CHECK(!run_onnx_op(Ms("MatMulBnb4", {In("2,16"), In("64", u8), In("1")},
                          {{"N", "8"}, {"block_size", "128"}, {"quant_type", "1"}}))
               .ok());
}

TEST_CASE("com.microsoft MoE and QMoE keep the input's shape and type") {
    const auto moe =
        run_onnx_op(Ms("MoE", {In("2,?,16", f16), In("4,2", f16), In("2,16,32", f16), Omitted(), In("2,32,16", f16)}));
    REQUIRE(moe.ok());
    CHECK(moe.str() == "[2,?,16]");
    CHECK(moe.outputs[0].type == f16);
    CHECK(!run_onnx_op(Ms("MoE", {In("4,16"), In("4,2", f16), In("2,16,32"), Omitted(), In("2,32,16")})).ok());
    const auto qmoe = run_onnx_op(Ms("QMoE", {In("4,16"), In("4,2"), In("2,32,8", u8), In("2,32", f16), Omitted(),
                                              In("2,16,16", u8), In("2,16", f16)}));
    REQUIRE(qmoe.ok());
    CHECK(qmoe.str() == "[4,16]");
    CHECK(qmoe.outputs[0].type == f32);
    CHECK(!run_onnx_op(Ms("QMoE", {In("4,16"), In("4,2"), In("2,32,8"), In("2,32")})).ok());
}

TEST_CASE("com.microsoft MurmurHash3, NGramRepeatBlock, BifurcationDetector, Unique") {
    const auto hash = run_onnx_op(Ms("MurmurHash3", {In("2,3", ElementType::string)}));
    CHECK(hash.str() == "[2,3]");
    CHECK(hash.outputs[0].type == u32);
    CHECK(run_onnx_op(Ms("MurmurHash3", {In("2,3", f64)}, {{"positive", "0"}})).outputs[0].type == i32);
    CHECK(!run_onnx_op(Ms("MurmurHash3", {In("2", u8)})).ok());
    const auto ngram = run_onnx_op(Ms("NGramRepeatBlock", {In("2,5", i64), In("?,100")}, {{"ngram_size", "2"}}));
    CHECK(ngram.str() == "[?,100]");
    CHECK(ngram.outputs[0].type == f32);
    CHECK(!run_onnx_op(Ms("NGramRepeatBlock", {In("2,5", i64), In("2,100")})).ok());
    const auto bif = run_onnx_op(Ms("BifurcationDetector", {In("10", i64), In("5", i64), In("", i64), In("3", i64)}));
    REQUIRE(bif.outputs.size() == 2);
    CHECK(bif.str(0) == "[...]");
    CHECK(bif.outputs[0].type == i64);
    CHECK(bif.str(1) == "[]");
    CHECK(!run_onnx_op(Ms("BifurcationDetector", {In("10", i32), In("5", i32), In("", i32)})).ok());
    const auto uniq = run_onnx_op(Ms("Unique", {In("2,3", f16)}));
    REQUIRE(uniq.outputs.size() == 3);
    CHECK(uniq.str(0) == "[?]");
    CHECK(uniq.outputs[0].type == f16);
    CHECK(uniq.str(1) == "[2,3]");
    CHECK(uniq.outputs[1].type == i64);
    CHECK(uniq.str(2) == "[?]");
}

TEST_CASE("com.microsoft Tokenizer adds a dim of unknown token count; an empty input stays empty") {
    auto tok = [](const std::string& x) {
        return Ms("Tokenizer", {In(x, ElementType::string)}, {{"mark", "0"}, {"pad_value", "#"}, {"mincharnum", "1"}});
    };
    const auto r = run_onnx_op(tok("?,4"));
    REQUIRE(r.ok());
    CHECK(r.str() == "[?,4,?]");
    CHECK(r.outputs[0].type == ElementType::string);
    CHECK(run_onnx_op(tok("3")).str() == "[3,?]");
    CHECK(run_onnx_op(tok("0")).str() == "[0]");
    CHECK(run_onnx_op(tok("?,0")).str() == "[?,0]");
    CHECK(run_onnx_op(tok("0,5")).str() == "[0,0]");
    CHECK(mentions(run_onnx_op(tok("2,2,2")), "X must be [C] or [N, C]"));
    CHECK(!run_onnx_op(tok("")).ok());
    CHECK(!run_onnx_op(Ms("Tokenizer", {In("2", ElementType::string)}, {{"mark", "0"}, {"mincharnum", "1"}})).ok());
}

TEST_CASE("com.microsoft TorchEmbedding: the indices' dims and the embedding size") {
    const auto r = run_onnx_op(Ms("TorchEmbedding", {In("10,4", f16), In("2,3", i64)}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,3,4]");
    CHECK(r.outputs[0].type == f16);
    CHECK(run_onnx_op(Ms("TorchEmbedding", {In("..."), In("2,3", i64)})).str() == "[2,3,?]");
    // ONNX Runtime gives the embedding size alone when the indices' rank is unknown
    CHECK(run_onnx_op(Ms("TorchEmbedding", {In("10,4"), In("...", i64)})).str() == "[4]");
    CHECK(mentions(run_onnx_op(Ms("TorchEmbedding", {In("10"), In("2,3", i64)})), "weight must have rank >= 2"));
    CHECK(!run_onnx_op(Ms("TorchEmbedding", {In("10,4"), In("2,3", i32)})).ok());
}

TEST_CASE("com.microsoft UnfoldTensor: (d - size) / step + 1 slices of size along dim") {
    CHECK(run_onnx_op(Ms("UnfoldTensor", {In("2,10")}, {{"size", "3"}, {"step", "2"}})).str() == "[2,4,3]");
    CHECK(run_onnx_op(Ms("UnfoldTensor", {In("2,10")}, {{"size", "3"}})).str() == "[2,8,3]");
    CHECK(run_onnx_op(Ms("UnfoldTensor", {In("7,?", i8)}, {{"size", "3"}, {"dim", "0"}, {"step", "2"}})).str() ==
          "[3,?,3]");
    // an unknown dim: no shape, and step is not read
    CHECK(run_onnx_op(Ms("UnfoldTensor", {In("2,?")}, {{"size", "3"}, {"step", "-1"}})).str() == "[...]");
    CHECK(mentions(run_onnx_op(Ms("UnfoldTensor", {In("2,10")}, {{"size", "11"}})), "size is 11; it must be in 1..10"));
    CHECK(mentions(run_onnx_op(Ms("UnfoldTensor", {In("2,10")}, {{"size", "3"}, {"step", "0"}})), "step is 0"));
    CHECK(!run_onnx_op(Ms("UnfoldTensor", {In("2,10")}, {{"size", "3"}, {"dim", "2"}})).ok());
    CHECK(!run_onnx_op(Ms("UnfoldTensor", {In("2,10")})).ok());
}

TEST_CASE("com.microsoft DynamicQuantizeLSTM: LSTM's outputs") {
    auto lstm = [](const std::string& x, std::vector<std::pair<std::string, std::string>> attrs) {
        return Ms("DynamicQuantizeLSTM",
                  {In(x), In("1,4,12", i8), In("1,3,12", i8), Omitted(), Omitted(), Omitted(), Omitted(), Omitted(),
                   In("1"), In("1", i8), In("1"), In("1", i8)},
                  std::move(attrs));
    };
    const auto r = run_onnx_op(lstm("?,2,4", {{"hidden_size", "3"}, {"direction", "bidirectional"}}));
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[?,2,2,3]");
    CHECK(r.str(1) == "[2,2,3]");
    CHECK(r.str(2) == "[2,2,3]");
    CHECK(r.outputs[0].type == f32);
    CHECK(run_onnx_op(lstm("...", {{"hidden_size", "3"}})).str(0) == "[?,1,?,3]");
    CHECK(run_onnx_op(lstm("5,2,4", {})).str(1) == "[1,2,?]");
    CHECK(mentions(run_onnx_op(lstm("2,4", {{"hidden_size", "3"}})), "X must have rank 3"));
    auto mixed = lstm("5,2,4", {{"hidden_size", "3"}});
    mixed.inputs[1] = In("1,4,12", u8);
    CHECK(!run_onnx_op(mixed).ok());
    CHECK(!run_onnx_op(Ms("DynamicQuantizeLSTM", {In("5,2,4"), In("1,4,12", i8), In("1,3,12", i8)})).ok());
}

TEST_CASE("com.microsoft SparseToDenseMatMul: B's type; a dense A is refused") {
    const auto r = run_onnx_op(Ms("SparseToDenseMatMul", {In("...", untyped), In("3,4", i64)}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[...]");
    CHECK(r.outputs[0].type == i64);
    CHECK(mentions(run_onnx_op(Ms("SparseToDenseMatMul", {In("2,3"), In("3,4")})), "A must be a sparse tensor"));
}

TEST_CASE("com.microsoft GatedRelativePositionBias: (batch, num_heads, seq, seq)") {
    const std::vector<OpInput> rest = {In("8"), In("1,2,4,4"), In("4,4"), In("4"), In("1,2,1,1")};
    auto grpb = [&](const std::string& query, std::optional<std::string> offset, const std::string& heads = "2") {
        std::vector<OpInput> in = {In(query)};
        in.insert(in.end(), rest.begin(), rest.end());
        if (offset) in.push_back(In(*offset, i32));
        return Ms("GatedRelativePositionBias", in, {{"num_heads", heads}});
    };
    CHECK(run_onnx_op(grpb("2,?,8", std::nullopt)).str() == "[2,2,?,?]");
    CHECK(run_onnx_op(grpb("6,8", std::string("3,5"))).str() == "[3,2,5,5]");
    CHECK(run_onnx_op(grpb("6,8", std::nullopt)).str() == "[...]");
    // token_offset's shape unknown: the query's is taken
    CHECK(run_onnx_op(grpb("2,4,8", std::string("..."))).str() == "[2,2,4,4]");
    CHECK(mentions(run_onnx_op(grpb("6,8", std::string("3"))), "token_offset must have rank >= 2"));
    CHECK(mentions(run_onnx_op(grpb("2,4,8", std::nullopt, "-3")), "num_heads is -3"));
    CHECK(!run_onnx_op(Ms("GatedRelativePositionBias",
                          {In("2,4,8"), In("8"), In("1,2,4,4"), In("4,4"), In("4"), In("1,2,1,1")}))
               .ok());
}

TEST_CASE("com.microsoft DecoderAttention: output like the query; the new caches from a known 4-D key cache") {
    auto attention = [](const std::string& key_cache) {
        return Ms("DecoderAttention",
                  {In("4,2,8"), In("4,2,8"), In("8,8"), In("8,16"), In("24"), Omitted(), In(key_cache), In("2,2,5,4"),
                   In("1", boolean_t), In("1", boolean_t), In("1", boolean_t), In("1", boolean_t)},
                  {{"num_heads", "2"}});
    };
    const auto r = run_onnx_op(attention("2,2,5,4"));
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[4,2,8]");
    CHECK(r.str(1) == "[2,2,?,4]");
    CHECK(r.str(2) == "[2,2,?,4]");
    CHECK(r.outputs[2].type == f32);
    CHECK(run_onnx_op(attention("?,2,5,4")).str(1) == "[...]");
    CHECK(mentions(run_onnx_op(attention("2,5,4")), "key_cache must have rank 4"));
    auto no_cache = attention("2,2,5,4");
    no_cache.inputs[6] = Omitted();
    no_cache.inputs[7] = Omitted();
    CHECK(run_onnx_op(no_cache).str(1) == "[...]");
    auto int_flag = attention("2,2,5,4");
    int_flag.inputs[8] = In("1", i32);
    CHECK(!run_onnx_op(int_flag).ok());
}

TEST_CASE("com.microsoft PackedMultiHeadAttention: (token_count, v_hidden_size)") {
    auto packed = [](const std::string& q, std::optional<std::string> v) {
        std::vector<OpInput> in = {In(q, f16)};
        if (v) {
            in.push_back(In("6,8", f16));
            in.push_back(In(*v, f16));
        } else {
            in.push_back(Omitted());
            in.push_back(Omitted());
        }
        in.push_back(Omitted());
        in.push_back(In("2,3", i32));
        in.push_back(In("3", i32));
        return Ms("PackedMultiHeadAttention", in, {{"num_heads", "2"}});
    };
    const auto r = run_onnx_op(packed("6,8", std::string("6,12")));
    REQUIRE(r.ok());
    CHECK(r.str() == "[6,12]");
    CHECK(r.outputs[0].type == f16);
    CHECK(run_onnx_op(packed("6,2,3,4", std::nullopt)).str() == "[6,8]");
    CHECK(run_onnx_op(packed("6,8", std::nullopt)).str() == "[...]");
    CHECK(mentions(run_onnx_op(packed("6,2,3", std::nullopt)), "query must have rank 2 or 4"));
    CHECK(mentions(run_onnx_op(packed("6,8", std::string("1,6,12"))), "value must have rank 2"));
}
