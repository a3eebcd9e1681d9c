// Unit tests of the ONNX microsoft ops (rules/ops/onnx_microsoft_ops.cpp, onnx_microsoft_attention.cpp): the
// shapes and types ONNX Runtime's contrib shape inference gives.
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

TEST_CASE("com.microsoft activations keep the input's shape and type") {
    for (const char* op : {"Gelu", "QuickGelu"}) {
        const auto r = run_onnx_op(Ms(op, {In("2,?,768", f16)}));
        REQUIRE(r.ok());
        CHECK(r.str() == "[2,?,768]");
        CHECK(r.outputs[0].type == f16);
    }
    CHECK(run_onnx_op(Ms("FastGelu", {In("2,8,3072"), In("3072")})).str() == "[2,8,3072]");
    CHECK(run_onnx_op(Ms("FastGelu", {In("2,8,3072")})).ok());
    CHECK(run_onnx_op(Ms("BiasGelu", {In("2,8,3072"), In("3072")})).str() == "[2,8,3072]");
    CHECK(run_onnx_op(Ms("BiasAdd", {In("2,64,320", f16), In("320", f16), In("2,64,320", f16)})).str() == "[2,64,320]");
    const auto bad = run_onnx_op(Ms("Gelu", {In("4", i32)}));
    CHECK(mentions(bad, "input 0 (X) is i32"));
}

TEST_CASE("BiasSplitGelu halves the last dim") {
    CHECK(run_onnx_op(Ms("BiasSplitGelu", {In("2,4096,2560", f16), In("2560", f16)})).str() == "[2,4096,1280]");
    CHECK(run_onnx_op(Ms("BiasSplitGelu", {In("2,4096,?", f16), In("?", f16)})).str() == "[2,4096,?]");
    // ONNX Runtime takes D from the bias
    CHECK(run_onnx_op(Ms("BiasSplitGelu", {In("2,4096,?", f16), In("2560", f16)})).str() == "[2,4096,1280]");
    CHECK(mentions(run_onnx_op(Ms("BiasSplitGelu", {In("4096,2560"), In("2560")})), "rank 3"));
}

TEST_CASE("SkipLayerNormalization: output and sum like the input, mean and inv_std_var f32 with hidden 1") {
    const auto r = run_onnx_op(Ms("SkipLayerNormalization", {In("2,?,768", f16), In("2,?,768", f16), In("768", f16),
                                                             In("768", f16), In("768", f16)}));
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 4);
    CHECK(r.str(0) == "[2,?,768]");
    CHECK(r.outputs[0].type == f16);
    CHECK(r.str(1) == "[2,?,1]");
    CHECK(r.outputs[1].type == f32);
    CHECK(r.outputs[2].type == f32);
    CHECK(r.str(3) == "[2,?,768]");
    CHECK(r.outputs[3].type == f16);
    // beta left out, bias given
    CHECK(run_onnx_op(Ms("SkipLayerNormalization", {In("2,8,768"), In("8,768"), In("768"), Omitted(), In("768")})).ok());
    CHECK(mentions(run_onnx_op(Ms("SkipLayerNormalization", {In("2,8,768"), In("2,8,768"), In("512")})),
                   "gamma [512] does not match"));
    const auto simplified =
        run_onnx_op(Ms("SkipSimplifiedLayerNormalization", {In("16,4096"), In("16,4096"), In("4096")}));
    CHECK(simplified.str(0) == "[16,4096]");
    CHECK(simplified.str(1) == "[16,1]");
    CHECK(!run_onnx_op(Ms("SkipSimplifiedLayerNormalization", {In("1,2,3"), In("1,2,3"), In("3"), In("3"), In("3")})).ok());
}

TEST_CASE("ONNX Runtime's ai.onnx LayerNormalization-1 and SimplifiedLayerNormalization-1") {
    const auto ln = run_onnx_op(Onnx("LayerNormalization", 1, {In("2,8,768", f16), In("768", f16), In("768", f16)},
                                     {{"axis", "-1"}}));
    REQUIRE(ln.ok());
    CHECK(ln.str(0) == "[2,8,768]");
    CHECK(ln.outputs[0].type == f16);
    CHECK(ln.str(1) == "[2,8,1]");
    CHECK(ln.outputs[1].type == f32);
    CHECK(ln.str(2) == "[2,8,1]");
    const auto axis1 = run_onnx_op(Onnx("LayerNormalization", 1, {In("2,8,4,4"), In("8,4,4")}, {{"axis", "1"}}));
    CHECK(axis1.str(1) == "[2,1,1,1]");
    // Y takes the scale's type
    CHECK(run_onnx_op(Onnx("LayerNormalization", 1, {In("2,8", f32), In("8", f16)})).outputs[0].type == f16);
    CHECK(mentions(run_onnx_op(Onnx("LayerNormalization", 1, {In("2,8"), In("8")}, {{"axis", "2"}})),
                   "axis 2 is out of range [-2, 1]"));
    CHECK(mentions(run_onnx_op(Onnx("LayerNormalization", 1, {In("2,8"), In("8")}, {{"stash_type", "10"}})),
                   "stash_type 10"));
    const auto rms = run_onnx_op(Onnx("SimplifiedLayerNormalization", 1, {In("1,?,4096", f16), In("4096", f16)},
                                      {{"stash_type", "11"}}));
    REQUIRE(rms.ok());
    CHECK(rms.str(0) == "[1,?,4096]");
    CHECK(rms.str(1) == "[1,?,1]");
    CHECK(rms.outputs[1].type == ElementType::f64);
    // ONNX Runtime sets the dim at axis alone to 1
    CHECK(run_onnx_op(Onnx("SimplifiedLayerNormalization", 1, {In("2,3,4"), In("3,4")}, {{"axis", "1"}})).str(1) ==
          "[2,1,4]");
    CHECK(!run_onnx_op(Onnx("SimplifiedLayerNormalization", 1, {In("2,8"), In("8"), In("8")})).ok());
}

TEST_CASE("FusedMatMul: transA, transB and transBatch") {
    CHECK(run_onnx_op(Ms("FusedMatMul", {In("2,3,4"), In("4,5")})).str() == "[2,3,5]");
    CHECK(run_onnx_op(Ms("FusedMatMul", {In("2,4,3"), In("5,4")}, {{"transA", "1"}, {"transB", "1"}})).str() ==
          "[2,3,5]");
    // transBatchA: A (3, 2, 4) is read as (2, 3, 4)
    CHECK(run_onnx_op(Ms("FusedMatMul", {In("3,2,4"), In("2,4,5")}, {{"transBatchA", "1"}})).str() == "[2,3,5]");
    CHECK(run_onnx_op(Ms("FusedMatMul", {In("4"), In("2,4,5")})).str() == "[2,5]");
    CHECK(run_onnx_op(Ms("FusedMatMul", {In("?,3,4"), In("4")})).str() == "[?,3]");
    CHECK(mentions(run_onnx_op(Ms("FusedMatMul", {In("2,3,4"), In("5,6")})), "the K dims differ: 4 (A) against 5 (B)"));
    CHECK(run_onnx_op(Ms("FusedMatMul", {In("2,3,?"), In("5,6")})).ok());
    CHECK(!run_onnx_op(Ms("FusedMatMul", {In("2,3"), In("3,4", i32)})).ok());
}

TEST_CASE("MatMulNBits: A [B,S,K] -> [B,S,N]; B packed [N, k_blocks, blob_size]") {
    const std::vector<std::pair<std::string, std::string>> attrs = {
        {"K", "4096"}, {"N", "11008"}, {"bits", "4"}, {"block_size", "32"}};
    const auto r = run_onnx_op(Ms("MatMulNBits", {In("1,?,4096", f16), In("11008,128,16", u8), In("1409024", f16)}, attrs));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,?,11008]");
    CHECK(r.outputs[0].type == f16);
    CHECK(mentions(run_onnx_op(Ms("MatMulNBits", {In("1,7,4095"), In("11008,128,16", u8), In("1409024")}, attrs)),
                   "A [1,7,4095] has 4095 in its last dim; K is 4096"));
    CHECK(mentions(run_onnx_op(Ms("MatMulNBits", {In("1,7,4096"), In("11008,64,16", u8), In("1409024")}, attrs)),
                   "pack it as [11008,128,16]"));
    // K not a multiple of the block: the last block is padded
    CHECK(run_onnx_op(Ms("MatMulNBits", {In("3,100"), In("8,4,16", u8), In("32")},
                         {{"K", "100"}, {"N", "8"}, {"block_size", "32"}}))
              .str() == "[3,8]");
    CHECK(mentions(run_onnx_op(Ms("MatMulNBits", {In("3,100"), In("8,4,16", u8), In("32")},
                                  {{"K", "100"}, {"N", "8"}, {"block_size", "24"}})),
                   "block_size is 24"));
    CHECK(!run_onnx_op(Ms("MatMulNBits", {In("3,100"), In("8,4,16", u8), In("32")}, {{"K", "100"}, {"block_size", "32"}})).ok());
}

TEST_CASE("MatMulIntegerToFloat, DynamicQuantizeMatMul, GemmFastGelu") {
    const auto r = run_onnx_op(Ms("MatMulIntegerToFloat", {In("2,8,768", u8), In("768,3072", i8), In("", f32), In("3072", f32),
                                                           In("", u8), In("3072", i8), In("3072", f32)}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,8,3072]");
    CHECK(r.outputs[0].type == f32);
    CHECK(run_onnx_op(Ms("DynamicQuantizeMatMul", {In("?,768"), In("768,10", i8), In("")})).str() == "[?,10]");
    CHECK(!run_onnx_op(Ms("DynamicQuantizeMatMul", {In("?,768", f16), In("768,10", i8), In("")})).ok());
    CHECK(run_onnx_op(Ms("GemmFastGelu", {In("2,8,768", f16), In("768,3072", f16), In("3072", f16)})).str() == "[2,8,3072]");
}

TEST_CASE("FusedGemm and QGemm") {
    CHECK(run_onnx_op(Ms("FusedGemm", {In("4,3"), In("5,3"), In("5")}, {{"transB", "1"}, {"activation", "Relu"}})).str() ==
          "[4,5]");
    CHECK(mentions(run_onnx_op(Ms("FusedGemm", {In("2,4,3"), In("3,5")})), "rank 2"));
    const auto q = run_onnx_op(Ms("QGemm", {In("4,3", u8), In("", f32), In("", u8), In("3,5", i8), In("5", f32), In("5", i8),
                                            In("5", i32), In("", f32), In("", u8)}));
    REQUIRE(q.ok());
    CHECK(q.str() == "[4,5]");
    CHECK(q.outputs[0].type == u8);
    const auto to_float =
        run_onnx_op(Ms("QGemm", {In("3,4", i8), In("", f32), In("", i8), In("3,5", i8), In("", f32), In("", i8)}, {{"transA", "1"}}));
    CHECK(to_float.str() == "[4,5]");
    CHECK(to_float.outputs[0].type == f32);
}

TEST_CASE("QLinearAdd and QLinearMul broadcast; their scales and zero points are scalars") {
    const auto r = run_onnx_op(Ms("QLinearAdd", {In("1,64,56,56", u8), In("", f32), In("", u8), In("1,64,1,1", u8),
                                                 In("", f32), In("", u8), In("", f32), In("", u8)}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,64,56,56]");
    CHECK(r.outputs[0].type == u8);
    CHECK(run_onnx_op(Ms("QLinearMul", {In("8", i8), In("", f32), Omitted(), In("3,1", i8), In("", f32), In("", i8), In("", f32)}))
              .str() == "[3,8]");
    CHECK(mentions(run_onnx_op(Ms("QLinearAdd", {In("4", u8), In("1", f32), In("", u8), In("4", u8), In("", f32), In("", u8),
                                                 In("", f32), In("", u8)})),
                   "input 1 (A_scale) must be a scalar"));
    CHECK(mentions(run_onnx_op(Ms("QLinearAdd", {In("4", u8), In("", f32), In("", i8), In("4", u8), In("", f32), In("", u8),
                                                 In("", f32), In("", u8)})),
                   "input 2 (A_zero_point) is i8; it must be u8"));
    CHECK(!run_onnx_op(Ms("QLinearAdd", {In("4", u8), In("", f32), In("", u8), In("3", u8), In("", f32), In("", u8), In("", f32)})).ok());
}

TEST_CASE("QLinear unary ops, pools and concat") {
    const std::vector<OpInput> params = {In("", f32), In("", u8), In("", f32), In("", u8)};
    auto with_x = [&](const std::string& x) {
        std::vector<OpInput> in = {In(x, u8)};
        in.insert(in.end(), params.begin(), params.end());
        return in;
    };
    CHECK(run_onnx_op(Ms("QLinearSigmoid", with_x("1,3,?"))).str() == "[1,3,?]");
    CHECK(run_onnx_op(Ms("QLinearLeakyRelu", with_x("2,5"), {{"alpha", "0.1"}})).str() == "[2,5]");
    CHECK(run_onnx_op(Ms("QLinearSoftmax", with_x("2,5"), {{"opset", "13"}})).str() == "[2,5]");
    CHECK(mentions(run_onnx_op(Ms("QLinearSoftmax", with_x("2,5"), {{"opset", "13"}, {"axis", "2"}})), "out of range"));
    CHECK(run_onnx_op(Ms("QLinearGlobalAveragePool", with_x("1,1280,7,7"))).str() == "[1,1280,1,1]");
    CHECK(run_onnx_op(Ms("QLinearGlobalAveragePool", with_x("1,7,7,1280"), {{"channels_last", "1"}})).str() == "[1,1,1,1280]");
    CHECK(run_onnx_op(Ms("QLinearGlobalAveragePool", with_x("1,1280"))).str() == "[1,1280]");
    const auto conv = run_onnx_op(Ms("QLinearConv", {In("1,56,56,64", u8), In("", f32), In("", u8), In("128,64,3,3", i8),
                                                     In("128", f32), In("128", i8), In("", f32), In("", u8), In("128", i32)},
                                     {{"pads", "1,1,1,1"}, {"strides", "2,2"}, {"channels_last", "1"}}));
    REQUIRE(conv.ok());
    CHECK(conv.str() == "[1,28,28,128]");
    CHECK(conv.outputs[0].type == u8);
    CHECK(run_onnx_op(Ms("QLinearAveragePool", with_x("1,32,112,112"), {{"kernel_shape", "2,2"}, {"strides", "2,2"}})).str() ==
          "[1,32,56,56]");
    CHECK(run_onnx_op(Ms("QLinearAveragePool", with_x("1,112,112,32"),
                         {{"kernel_shape", "3,3"}, {"pads", "1,1,1,1"}, {"channels_last", "1"}}))
              .str() == "[1,112,112,32]");
    CHECK(!run_onnx_op(Ms("QLinearAveragePool", with_x("1,32,8,8"), {{"kernel_shape", "2,2"}, {"dilations", "1,1"}})).ok());
    const auto concat = run_onnx_op(Ms("QLinearConcat", {In("", f32), In("", u8), In("1,16,8,8", u8), In("", f32), In("", u8),
                                                         In("1,32,8,8", u8), In("", f32), In("", u8)},
                                       {{"axis", "1"}}));
    REQUIRE(concat.ok());
    CHECK(concat.str() == "[1,48,8,8]");
    CHECK(concat.outputs[0].type == u8);
    CHECK(mentions(run_onnx_op(Ms("QLinearConcat", {In("", f32), In("", u8), In("1,16,8,8", u8), In("", f32), In("", u8),
                                                    In("1,32,4,8", u8), In("", f32), In("", u8)},
                                  {{"axis", "1"}})),
                   "dim 2 differs"));
    CHECK(!run_onnx_op(Ms("QLinearConcat", {In("", f32), In("", u8), In("1,16", u8), In("", f32)}, {{"axis", "1"}})).ok());
}

TEST_CASE("com.microsoft QuantizeLinear, DequantizeLinear and GatherBlockQuantized") {
    const auto q = run_onnx_op(Ms("QuantizeLinear", {In("2,3", f16), In("", f16), In("", i8)}));
    CHECK(q.str() == "[2,3]");
    CHECK(q.outputs[0].type == i8);
    CHECK(run_onnx_op(Ms("QuantizeLinear", {In("2,3"), In("")})).outputs[0].type == u8);
    const auto dq = run_onnx_op(Ms("DequantizeLinear", {In("2,3", u8), In("3", f32), In("3", u8)}, {{"axis", "1"}}));
    CHECK(dq.str() == "[2,3]");
    CHECK(dq.outputs[0].type == f32);
    // u8 data packs two 4-bit values per byte: the last dim doubles
    const auto g = run_onnx_op(Ms("GatherBlockQuantized", {In("32000,2048", u8), In("1,?", i64), In("32000,128", f16)},
                                  {{"block_size", "32"}}));
    REQUIRE(g.ok());
    CHECK(g.str() == "[1,?,4096]");
    CHECK(g.outputs[0].type == f16);
    CHECK(run_onnx_op(Ms("GatherBlockQuantized", {In("100,64", ElementType::i4), In("5", i32), In("100,2", f32)})).str() ==
          "[5,64]");
    CHECK(mentions(run_onnx_op(Ms("GatherBlockQuantized", {In("100,64", u8), In("5", i32), In("100,2")}, {{"gather_axis", "2"}})),
                   "gather_axis"));
}

TEST_CASE("Inverse, Trilu and GridSample") {
    CHECK(run_onnx_op(Ms("Inverse", {In("?,4,4")})).str() == "[?,4,4]");
    CHECK(mentions(run_onnx_op(Ms("Inverse", {In("3,4")})), "square"));
    CHECK(!run_onnx_op(Ms("Inverse", {In("4")})).ok());
    CHECK(run_onnx_op(Ms("Trilu", {In("3,4", ElementType::boolean), In("", i64)}, {{"upper", "0"}})).str() == "[3,4]");
    CHECK(!run_onnx_op(Ms("Trilu", {In("4")})).ok());
    const auto gs = run_onnx_op(Ms("GridSample", {In("2,3,32,32"), In("2,16,24,2")}, {{"mode", "nearest"}}));
    CHECK(gs.str() == "[2,3,16,24]");
    CHECK(mentions(run_onnx_op(Ms("GridSample", {In("2,3,32"), In("2,16,24,2")})), "rank 4"));
    CHECK(!run_onnx_op(Ms("GridSample", {In("2,3,32,32"), In("2,16,24,2")}, {{"mode", "linear"}})).ok());
}

TEST_CASE("FusedConv, NhwcConv and NhwcMaxPool") {
    CHECK(run_onnx_op(Ms("FusedConv", {In("1,3,224,224"), In("64,3,7,7"), In("64")},
                         {{"strides", "2,2"}, {"pads", "3,3,3,3"}, {"activation", "Relu"}}))
              .str() == "[1,64,112,112]");
    CHECK(run_onnx_op(Ms("FusedConv", {In("1,3,?,224"), In("64,3,3,3")}, {{"auto_pad", "SAME_UPPER"}})).str() ==
          "[1,64,?,224]");
    CHECK(run_onnx_op(Ms("FusedConv", {In("1,32,56,56"), In("32,1,3,3")}, {{"group", "32"}, {"dilations", "2,2"}})).str() ==
          "[1,32,52,52]");
    CHECK(run_onnx_op(Ms("NhwcConv", {In("1,224,224,3", f16), In("64,3,7,7", f16)}, {{"strides", "2,2"}, {"pads", "3,3,3,3"}}))
              .str() == "[1,112,112,64]");
    CHECK(run_onnx_op(Ms("NhwcMaxPool", {In("1,112,112,64", u8)}, {{"kernel_shape", "3,3"}, {"strides", "2,2"}, {"pads", "1,1,1,1"}}))
              .str() == "[1,56,56,64]");
    CHECK(!run_onnx_op(Ms("NhwcMaxPool", {In("1,112,112,64", f32)}, {{"kernel_shape", "3,3"}})).ok());
    CHECK(!run_onnx_op(Ms("NhwcMaxPool", {In("1,112,112,64", u8)})).ok());  // kernel_shape is required
}

TEST_CASE("Attention: output [B,S,v_hidden], present [2,B,N,P+S,H/N]") {
    const auto r = run_onnx_op(Ms("Attention", {In("2,8,768"), In("768,2304"), In("2304"), In("2,8", i32), In("2,2,12,4,64")},
                                  {{"num_heads", "12"}}));
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2,8,768]");
    CHECK(r.str(1) == "[2,2,12,12,64]");
    // no past: the kernel's present
    const auto no_past = run_onnx_op(Ms("Attention", {In("?,?,768", f16), In("768,2304", f16), In("2304", f16)}, {{"num_heads", "12"}}));
    CHECK(no_past.str(0) == "[?,?,768]");
    CHECK(no_past.outputs[0].type == f16);
    CHECK(no_past.str(1) == "[2,?,12,?,64]");
    CHECK(run_onnx_op(Ms("Attention", {In("2,8,768"), In("768,1792"), In("1792")},
                         {{"num_heads", "8"}, {"qkv_hidden_sizes", "512,512,768"}}))
              .str() == "[2,8,768]");
    CHECK(mentions(run_onnx_op(Ms("Attention", {In("2,8,768"), In("768,2304"), In("2304")},
                                  {{"num_heads", "12"}, {"qkv_hidden_sizes", "768,768"}})),
                   "qkv_hidden_sizes has 2 values"));
    CHECK(mentions(run_onnx_op(Ms("Attention", {In("16,768"), In("768,2304"), In("2304")}, {{"num_heads", "12"}})), "rank 3"));
    CHECK(!run_onnx_op(Ms("Attention", {In("2,8,768"), In("768,2304"), In("2304")})).ok());  // num_heads is required
    CHECK(!run_onnx_op(Ms("Attention", {In("2,8,768"), In("768,2304"), In("2304"), In("2", i64)}, {{"num_heads", "12"}})).ok());
}

TEST_CASE("QAttention: the output has the bias's type") {
    const auto r = run_onnx_op(Ms("QAttention", {In("2,8,768", u8), In("768,2304", i8), In("2304", f32), In("", f32), In("", f32)},
                                  {{"num_heads", "12"}}));
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2,8,768]");
    CHECK(r.outputs[0].type == f32);
    CHECK(!run_onnx_op(Ms("QAttention", {In("2,8,768", f32), In("768,2304", i8), In("2304"), In(""), In("")}, {{"num_heads", "12"}})).ok());
}

TEST_CASE("MultiHeadAttention: separate, packed QKV, packed KV and cross attention") {
    const auto r = run_onnx_op(Ms("MultiHeadAttention", {In("2,8,512"), In("2,16,512"), In("2,16,768")}, {{"num_heads", "8"}}));
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2,8,768]");
    CHECK(r.str(1) == "[2,8,16,64]");
    CHECK(r.str(2) == "[2,8,16,96]");
    CHECK(r.str(3) == "[2,8,8,16]");  // qk: (B, N, S, total)
    CHECK(run_onnx_op(Ms("MultiHeadAttention", {In("2,8,12,3,64")}, {{"num_heads", "12"}})).str() == "[2,8,768]");
    CHECK(run_onnx_op(Ms("MultiHeadAttention", {In("2,8,768"), In("2,16,12,2,64")}, {{"num_heads", "12"}})).str() == "[2,8,768]");
    CHECK(run_onnx_op(Ms("MultiHeadAttention", {In("2,1,768"), In("2,12,1500,64"), In("2,12,1500,64")}, {{"num_heads", "12"}}))
              .str() == "[2,1,768]");
    const auto past = run_onnx_op(Ms("MultiHeadAttention", {In("1,1,768"), In("1,1,768"), In("1,1,768"), Omitted(), Omitted(),
                                                            Omitted(), In("1,12,7,64"), In("1,12,7,64")},
                                     {{"num_heads", "12"}}));
    REQUIRE(past.ok());
    CHECK(past.str(1) == "[1,12,8,64]");
    CHECK(past.str(2) == "[1,12,8,64]");
    CHECK(mentions(run_onnx_op(Ms("MultiHeadAttention", {In("2,8")}, {{"num_heads", "12"}})), "rank 3 or 5"));
}

TEST_CASE("GroupQueryAttention: output like the query, present [B, kv_heads, total, head]") {
    const std::vector<std::pair<std::string, std::string>> heads = {{"num_heads", "32"}, {"kv_num_heads", "8"}};
    const auto r = run_onnx_op(Ms("GroupQueryAttention",
                                  {In("1,?,4096", f16), In("1,?,1024", f16), In("1,?,1024", f16), In("1,8,?,128", f16),
                                   In("1,8,?,128", f16), In("1", i32), In("", i32)},
                                  heads));
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[1,?,4096]");
    CHECK(r.outputs[0].type == f16);
    CHECK(r.str(1) == "[1,8,?,128]");
    CHECK(r.outputs[1].type == f16);
    // a known total length grows a known past
    const auto grown = run_onnx_op(Ms("GroupQueryAttention",
                                      {In("1,1,4096"), In("1,1,1024"), In("1,1,1024"), In("1,8,16,128"), In("1,8,16,128"),
                                       In("1", i32), In("", i32)},
                                      heads, {{6, V({17})}}));
    CHECK(grown.str(1) == "[1,8,17,128]");
    CHECK(grown.str(3) == "[1,32,1,17]");  // output_qk
    // packed QKV: (32 + 2*8) * 128 = 6144
    const auto packed = run_onnx_op(Ms("GroupQueryAttention",
                                       {In("1,5,6144"), Omitted(), Omitted(), Omitted(), Omitted(), In("1", i32), In("", i32)},
                                       heads, {{6, V({5})}}));
    REQUIRE(packed.ok());
    CHECK(packed.str(0) == "[1,5,4096]");
    CHECK(packed.str(1) == "[1,8,5,128]");
    // a quantized cache keeps its type
    const auto int8_cache = run_onnx_op(Ms("GroupQueryAttention",
                                           {In("1,1,4096", f16), In("1,1,1024", f16), In("1,1,1024", f16), In("1,8,64,128", i8),
                                            In("1,8,64,128", i8), In("1", i32), In("", i32)},
                                           heads));
    CHECK(int8_cache.outputs[1].type == i8);
    // total_sequence_length unknown: ONNX Runtime's kernel gives max(past, total), at least the past's 64.
    CHECK(int8_cache.str(1) == "[1,8,64..,128]");
    CHECK(mentions(run_onnx_op(Ms("GroupQueryAttention", {In("1,1,4096"), In("1,1,1024"), In("1,1,1024"), In("1,8,64"),
                                                          In("1,8,64"), In("1", i32), In("", i32)},
                                  heads)),
                   "past_key"));
    CHECK(!run_onnx_op(Ms("GroupQueryAttention", {In("1,1,4096"), In("1,1,1024"), In("1,1,1024"), Omitted(), Omitted(),
                                                  In("1", i64), In("", i32)},
                          heads))
               .ok());
}

TEST_CASE("PackedAttention, EmbedLayerNormalization and RotaryEmbedding") {
    CHECK(run_onnx_op(Ms("PackedAttention", {In("?,768"), In("768,2304"), In("2304"), In("2,128", i32), In("3", i32)},
                         {{"num_heads", "12"}}))
              .str() == "[?,768]");
    const auto e = run_onnx_op(Ms("EmbedLayerNormalization", {In("?,128", i32), In("?,128", i32), In("30522,768"), In("512,768"),
                                                              In("2,768"), In("768"), In("768"), In("?,128", i32)}));
    REQUIRE(e.ok());
    CHECK(e.str(0) == "[?,128,768]");
    CHECK(e.outputs[0].type == f32);
    CHECK(e.str(1) == "[?]");
    CHECK(e.outputs[1].type == i32);
    CHECK(e.str(2) == "[?,128,768]");
    CHECK(mentions(run_onnx_op(Ms("EmbedLayerNormalization", {In("?,128", i32), Omitted(), In("30522,768"), In("512,512"),
                                                              Omitted(), In("768"), In("768")})),
                   "position_embedding"));
    CHECK(!run_onnx_op(Ms("EmbedLayerNormalization", {In("?,128", i32), Omitted(), In("30522,?"), In("512,768"), Omitted(),
                                                      In("768"), In("768")}))
               .ok());
    const auto rope = run_onnx_op(Ms("RotaryEmbedding", {In("1,?,4096", f16), In("1,?", i64), In("4096,64", f16), In("4096,64", f16)},
                                     {{"interleaved", "0"}, {"num_heads", "32"}, {"rotary_embedding_dim", "128"}}));
    CHECK(rope.str() == "[1,?,4096]");
    CHECK(rope.outputs[0].type == f16);
    CHECK(!run_onnx_op(Ms("RotaryEmbedding", {In("1,?,4096"), In("1,?", i32), In("4096,64"), In("4096,64")})).ok());
}

TEST_CASE("DecoderMaskedMultiHeadAttention and SparseAttention keep a shared KV buffer's shape") {
    const auto dmmha = run_onnx_op(Ms("DecoderMaskedMultiHeadAttention",
                                      {In("4,1,768", f16), In("4,1,768", f16), In("4,1,768", f16), In("4,448", i32), Omitted(),
                                       In("4,12,448,64", f16), In("4,12,448,64", f16), In("", i32)},
                                      {{"num_heads", "12"}, {"past_present_share_buffer", "1"}}));
    REQUIRE(dmmha.ok());
    CHECK(dmmha.str(0) == "[4,1,768]");
    CHECK(dmmha.str(1) == "[4,12,448,64]");
    const auto grows = run_onnx_op(Ms("DecoderMaskedMultiHeadAttention",
                                      {In("4,1,768"), In("4,1,768"), In("4,1,768"), Omitted(), Omitted(), In("4,12,9,64"),
                                       In("4,12,9,64")},
                                      {{"num_heads", "12"}}));
    CHECK(grows.str(1) == "[4,12,10,64]");
    const auto sparse = run_onnx_op(Ms("SparseAttention",
                                       {In("1,?,6144", f16), Omitted(), Omitted(), In("1,8,8192,128", f16), In("1,8,8192,128", f16),
                                        In("1,129", i32), In("1,1024", i32), In("", i32), In("1", i32)},
                                       {{"num_heads", "32"}, {"kv_num_heads", "8"}, {"sparse_block_size", "64"}}));
    REQUIRE(sparse.ok());
    CHECK(sparse.str(0) == "[1,?,4096]");
    CHECK(sparse.str(1) == "[1,8,8192,128]");
    CHECK(sparse.str(2) == "[1,8,8192,128]");
}

TEST_CASE("GroupNorm, SkipGroupNorm, BiasSoftmax and the other contrib ops that keep a shape") {
    const auto gn = run_onnx_op(Ms("GroupNorm", {In("2,32,32,320", f16), In("320"), In("320")}, {{"groups", "32"}, {"activation", "1"}}));
    CHECK(gn.str() == "[2,32,32,320]");
    CHECK(gn.outputs[0].type == f16);
    CHECK(!run_onnx_op(Ms("GroupNorm", {In("2,32,32,320"), In("320"), In("320")}, {{"groups", "32"}})).ok());  // activation is required
    const auto sgn = run_onnx_op(Ms("SkipGroupNorm", {In("2,32,32,320"), In("320"), In("320"), In("2,1,1,320")},
                                    {{"groups", "32"}, {"activation", "0"}}));
    REQUIRE(sgn.outputs.size() == 2);
    CHECK(sgn.str(1) == "[2,32,32,320]");
    CHECK(run_onnx_op(Ms("BiasSoftmax", {In("2,12,8,8"), In("2,1,1,8")}, {{"is_inner_broadcast", "0"}})).str() == "[2,12,8,8]");
    CHECK(run_onnx_op(Ms("TransposeMatMul", {In("2,4,3"), In("4,5")}, {{"transA", "1"}})).str() == "[2,3,5]");
    CHECK(!run_onnx_op(Ms("FusedMatMulActivation", {In("2,3,4"), In("4,5")})).ok());
    CHECK(run_onnx_op(Ms("FusedMatMulActivation", {In("2,3,4"), In("4,5")}, {{"activation", "Relu"}})).str() == "[2,3,5]");
    const auto m16 = run_onnx_op(Ms("MatMulInteger16", {In("3,4", ElementType::i16), In("4,5", ElementType::i16)}));
    CHECK(m16.str() == "[3,5]");
    CHECK(m16.outputs[0].type == i32);
    CHECK(run_onnx_op(Ms("MRotaryEmbedding", {In("1,?,2048", f16), In("3,1,?", i64), In("4096,64", f16), In("4096,64", f16)},
                         {{"mrope_section", "16,24,24"}, {"num_heads", "16"}}))
              .str() == "[1,?,2048]");
    CHECK(!run_onnx_op(Ms("MRotaryEmbedding", {In("1,?,2048"), In("3,1,?", i64), In("4096,64"), In("4096,64")},
                          {{"mrope_section", "16,24"}}))
               .ok());
    const auto gemma = run_onnx_op(Ms("GemmaRotaryEmbedding", {In("1,8,256"), In("1,8,8,256", f16), In("1,8,8,256", f16),
                                                               In("1,8,8,256", f16), In("1,8,8,256", f16)}));
    CHECK(gemma.str(1) == "[1,8,8,256]");
    CHECK(gemma.outputs[1].type == f16);
    CHECK(run_onnx_op(Ms("RelativePositionBias", {In("32,8"), In("", i64), In("", i64)}, {{"max_distance", "128"}},
                         {{1, V({5})}, {2, V({7})}}))
              .str() == "[1,8,5,7]");
    CHECK(run_onnx_op(Ms("RelativePositionBias", {In("32,8"), In("", i64), In("", i64)}, {{"max_distance", "128"}})).str() ==
          "[1,8,?,?]");
    CHECK(run_onnx_op(Ms("LongformerAttention", {In("1,512,768"), In("768,2304"), In("2304"), In("1,512"), In("768,2304"),
                                                 In("2304"), In("1,512", i32)},
                         {{"num_heads", "12"}, {"window", "256"}}))
              .str() == "[1,512,768]");
}

TEST_CASE("DecoderMaskedSelfAttention, RemovePadding, RestorePadding and QOrderedMatMul") {
    const auto dmsa = run_onnx_op(Ms("DecoderMaskedSelfAttention",
                                     {In("4,1,768", f16), In("768,2304", f16), In("2304", f16), In("4,128", i32),
                                      In("2,4,12,128,64", f16), Omitted(), In("", i32)},
                                     {{"num_heads", "12"}, {"past_present_share_buffer", "1"}}));
    REQUIRE(dmsa.ok());
    CHECK(dmsa.str(0) == "[4,1,768]");
    CHECK(dmsa.str(1) == "[2,4,12,128,64]");
    const auto removed = run_onnx_op(Ms("RemovePadding", {In("2,128,768"), In("2", i32)}));
    REQUIRE(removed.outputs.size() == 4);
    CHECK(removed.str(0) == "[?,768]");
    CHECK(removed.str(1) == "[2,128]");
    CHECK(removed.outputs[1].type == i32);
    CHECK(removed.str(2) == "[3]");
    CHECK(removed.str(3) == "[1]");
    CHECK(run_onnx_op(Ms("RestorePadding", {In("?,768"), In("2,128", i32)})).str() == "[2,128,768]");
    const auto qo = run_onnx_op(Ms("QOrderedMatMul", {In("2,8,64", i8), In("", f32), In("64,32", i8), In("", f32), In("", f32)},
                                   {{"order_A", "1"}, {"order_B", "0"}, {"order_Y", "1"}}));
    CHECK(qo.str() == "[2,8,32]");
    CHECK(qo.outputs[0].type == i8);
}
