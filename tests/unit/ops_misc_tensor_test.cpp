// The ops of misc_tensor_ops.cpp, with cases from OpenVINO's type_prop tests (convert_color_nv12,
// convert_color_i420, grid_sample, group_normalization, eye, random_uniform, multinomial, reverse_sequence,
// ctc_loss, search_sorted, inverse).

#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {
OpRun op(std::string type, int version, std::vector<OpInput> inputs, Attrs attrs = {},
         std::map<size_t, TensorValue> values = {}) {
    return run_op(OpCase{std::move(type), version, std::move(attrs), std::move(inputs), std::move(values)});
}
}  // namespace

TEST_CASE("misc NV12 and I420: one plane H*3/2 high or chroma planes at half size; even H and W") {
    auto r = op("NV12toRGB", 8, {In("1,720,640,1", u8)});
    CHECK(r.str() == "[1,480,640,3]");
    CHECK(type_of(r) == "u8");
    CHECK(op("NV12toBGR", 8, {In("?,480,640,1"), In("2,240,320,2")}).str() == "[2,480,640,3]");
    CHECK(op("NV12toRGB", 8, {In("1,?,?,1"), In("1,100..200,?,2")}).str() == "[1,200..400,?,3]");
    CHECK(op("NV12toRGB", 8, {In("1,721,640,1")}).problem() ==
          "image height 721 shall be divisible by 3 (a single plane is H*3/2 high)");
    CHECK(op("NV12toRGB", 8, {In("1,6,5,1")}).problem() == "image width 5 must be even");
    CHECK(op("NV12toRGB", 8, {In("1,480,640,3")}).problem() ==
          "Y input number of channels should be equal to 1; it is [1,480,640,3]");
    CHECK(op("NV12toRGB", 8, {In("1,480,640,1"), In("1,240,321,2")}).problem() ==
          "Y shape [1,480,640,1] is inconsistent with UV [1,240,321,2]");
    CHECK(op("I420toRGB", 8, {In("1,480,640,1"), In("1,240,320,1"), In("1,240,320,1")}).str() == "[1,480,640,3]");
    CHECK(op("I420toBGR", 8, {In("1,720,640,1")}).str() == "[1,480,640,3]");
    CHECK(op("I420toBGR", 8, {In("1,480,640,1"), In("1,240,320,1"), In("1,240,320,2")}).problem() ==
          "V input must be [N,H/2,W/2,1]; it is [1,240,320,2]");
    CHECK(op("I420toBGR", 8, {In("1,480,640,1"), In("1,240,320,1")}).problem() ==
          "I420 takes one plane (Y) or three (Y, U, V), not 2 inputs");
}

TEST_CASE("misc GridSample: [N, C, grid H, grid W]") {
    CHECK(op("GridSample", 9, {In("1,3,224,224"), In("1,5,5,2")}).str() == "[1,3,5,5]");
    CHECK(op("GridSample", 9, {In("..."), In("2,5,6,2")}).str() == "[2,?,5,6]");
    CHECK(op("GridSample", 9, {In("?,3,10,10"), In("...")}).str() == "[?,3,?,?]");
    CHECK(op("GridSample", 9, {In("1,3,10,10"), In("1,5,5,3")}).problem() ==
          "the grid's last dim must be 2; the grid is [1,5,5,3]");
    CHECK(op("GridSample", 9, {In("2,3,10,10"), In("3,5,5,2")}).problem() ==
          "the data's batch 2 differs from the grid's 3");
    CHECK(op("GridSample", 9, {In("1,3,10,10"), In("1,5,5,2")}, {{"mode", "area"}}).problem() ==
          "mode=\"area\" is not one of bilinear, bicubic, nearest");
}

TEST_CASE("misc GroupNormalization: the data's shape; groups divide the channels") {
    const Attrs groups3{{"num_groups", "3"}, {"epsilon", "1e-5"}};
    CHECK(op("GroupNormalization", 12, {In("1,12,6,6"), In("12"), In("12")}, groups3).str() == "[1,12,6,6]");
    CHECK(op("GroupNormalization", 12, {In("1,12,6,6"), In("12"), In("12")},
             {{"num_groups", "5"}, {"epsilon", "1e-5"}})
              .problem() == "the 12 channels are not divisible into num_groups=5 groups");
    CHECK(op("GroupNormalization", 12, {In("1,12,6,6"), In("10"), In("12")}, groups3).problem() ==
          "scale [10] and bias [12] must have the data's 12 channels");
    CHECK(op("GroupNormalization", 12, {In("1,12,6,6"), In("12"), In("12")}, {{"num_groups", "0"}}).problem() ==
          "num_groups=0 must be a positive integer");
    CHECK(op("GroupNormalization", 12, {In("12"), In("12"), In("12")}, groups3).problem() ==
          "the data [12] must be at least 2-D");
}

TEST_CASE("misc Eye: [batch..., rows, columns] from the values") {
    const Attrs f32_out{{"output_type", "f32"}};
    CHECK(op("Eye", 9, {In("", i64), In("", i64), In("", i64)}, f32_out, {{0, V({5})}, {1, V({4})}, {2, V({0})}})
              .str() == "[5,4]");
    auto r = op("Eye", 9, {In("", i64), In("1", i64), In("", i64), In("2", i64)}, {{"output_type", "i32"}},
                {{0, V({3})}, {1, V({3})}, {2, V({1})}, {3, V({2, 7})}});
    CHECK(r.str() == "[2,7,3,3]");
    CHECK(type_of(r) == "i32");
    r = op("Eye", 9, {In("", i64), In("", i64), In("", i64), In("3", i64)}, f32_out);
    CHECK(r.str() == "[?,?,?,?,?]");
    CHECK(r.unknown);
    CHECK(op("Eye", 9, {In("", i64), In("", i64), In("", i64)}, f32_out, {{0, V({-1})}, {1, V({4})}}).problem() ==
          "'num_rows' must be non-negative, it is -1");
    CHECK(op("Eye", 9, {In("2,2", i64), In("", i64), In("", i64)}, f32_out).problem() ==
          "'num_rows' must be a scalar or 1-D; it is [2,2]");
}

TEST_CASE("misc RandomUniform and Multinomial: dims from the values") {
    const Attrs f16_out{{"output_type", "f16"}};
    auto r = op("RandomUniform", 8, {In("3", i64), In(""), In("")}, f16_out, {{0, V({2, 3, 4})}});
    CHECK(r.str() == "[2,3,4]");
    CHECK(type_of(r) == "f16");
    r = op("RandomUniform", 8, {In("3", i64), In(""), In("")}, f16_out);
    CHECK(r.str() == "[?,?,?]");
    CHECK(r.unknown);
    CHECK(op("RandomUniform", 8, {In("3", i64), In("2"), In("")}, f16_out).problem() ==
          "Min value must be a scalar or one element 1D tensor; it is [2]");
    const Attrs mn{{"convert_type", "i64"}, {"with_replacement", "true"}, {"log_probs", "false"}};
    CHECK(op("Multinomial", 13, {In("5"), In("", i64)}, mn, {{1, V({3})}}).str() == "[3]");
    CHECK(op("Multinomial", 13, {In("2,5"), In("", i64)}, mn, {{1, V({3})}}).str() == "[?,?]");
    CHECK(op("Multinomial", 13, {In("2,5,1"), In("", i64)}, mn).problem() ==
          "the probabilities [2,5,1] must be 1-D or 2-D");
    CHECK(op("Multinomial", 13, {In("5"), In("", i64)}, mn, {{1, V({-2})}}).problem() ==
          "the number of samples must be non-negative, it is -2");
}

TEST_CASE("misc ReverseSequence, CTCLoss, SearchSorted, Inverse") {
    CHECK(op("ReverseSequence", 0, {In("?,10,3"), In("4", i32)}, {{"batch_axis", "0"}, {"seq_axis", "1"}}).str() ==
          "[4,10,3]");
    CHECK(op("ReverseSequence", 0, {In("4,10,3"), In("5", i32)}).problem() ==
          "sequence lengths input size (5) is not equal to batch axis dimension of data input (4)");
    CHECK(op("ReverseSequence", 0, {In("4,10,3"), In("4", i32)}, {{"seq_axis", "3"}}).problem() ==
          "axis 3 is out of range [-3, 2]");
    CHECK(op("CTCLoss", 4, {In("10,120,28"), In("10", i32), In("10,120", i32), In("10", i32)}).str() == "[10]");
    CHECK(op("CTCLoss", 4, {In("?,120,28"), In("?", i32), In("?,120", i32), In("6", i32)}).str() == "[6]");
    CHECK(op("CTCLoss", 4, {In("10,120,28"), In("10", i32), In("10,100", i32), In("10", i32)}).problem() ==
          "the labels' second dim 100 must equal the logits' time steps 120");
    CHECK(op("CTCLoss", 4, {In("10,120,28"), In("8", i32), In("10,120", i32), In("10", i32)}).problem() ==
          "the batch of logits [10,120,28], logit length [8], labels [10,120] and label length [10] must be one");
    auto r = op("SearchSorted", 15, {In("2,3,10"), In("2,3,4")});
    CHECK(r.str() == "[2,3,4]");
    CHECK(type_of(r) == "i64");
    CHECK(op("SearchSorted", 15, {In("10"), In("2,3,4")}).str() == "[2,3,4]");
    CHECK(op("SearchSorted", 15, {In("2,3,10"), In("...")}).str() == "[2,3,?]");
    CHECK(op("SearchSorted", 15, {In("2,3,10"), In("2,4,4")}).problem() ==
          "all dims but the last must agree: [2,3,10] and [2,4,4]");
    CHECK(op("SearchSorted", 15, {In("2,10"), In("")}).problem() ==
          "if the values input is a scalar, the sorted sequence must be 1-D");
    CHECK(op("Inverse", 14, {In("2,5,5")}).str() == "[2,5,5]");
    CHECK(op("Inverse", 14, {In("2,5,4")}).problem() == "the input [2,5,4] must hold square matrices");
    CHECK(op("Inverse", 14, {In("5")}).problem() == "the input [5] must be at least a 2-D matrix");
}

TEST_CASE("misc Identity, FakeConvert, SliceScatter: the data's dims and type") {
    CHECK(op("Identity", 16, {In("1,?,3", f16)}).str() == "[1,?,3]");
    CHECK(op("FakeConvert", 13, {In("2,3"), In("1"), In("1")}, {{"destination_type", "f8e4m3"}}).str() == "[2,3]");
    CHECK(op("SliceScatter", 15, {In("8,8"), In("2,8"), In("1", i64), In("1", i64), In("1", i64)}).str() == "[8,8]");
    CHECK(!op("SliceScatter", 15, {In("8,8"), In("2,8")}).ok());
}

TEST_CASE("misc DFT, IDFT, RDFT, IRDFT: transformed axes, signal sizes, the onesided length") {
    CHECK(op("DFT", 7, {In("2,180,180,2"), In("2", i64)}, {}, {{1, V({1, 2})}}).str() == "[2,180,180,2]");
    CHECK(op("DFT", 7, {In("2,180,180,2"), In("2", i64), In("2", i64)}, {}, {{1, V({1, 2})}, {2, V({100, -1})}})
              .str() == "[2,100,180,2]");
    CHECK(op("IDFT", 7, {In("2,180,180,2"), In("2", i64), In("2", i64)}, {}, {{1, V({-2, -1})}}).str() ==
          "[2,?,?,2]");
    auto r = op("DFT", 7, {In("2,180,180,2"), In("2", i64)});
    CHECK(r.str() == "[?,?,?,2]");
    CHECK(r.unknown);
    CHECK(op("IDFT", 7, {In("2,180,180,2"), In("1", i64)}, {}, {{1, V({3})}}).problem() ==
          "axis 3 is out of range [-3, 2]");
    CHECK(op("DFT", 7, {In("2,180,180,3"), In("1", i64)}, {}, {{1, V({1})}}).problem() ==
          "the last dim of the input [2,180,180,3] must be 2 (real and imaginary parts)");
    CHECK(op("RDFT", 9, {In("2,180,180"), In("2", i64)}, {}, {{1, V({1, 2})}}).str() == "[2,180,91,2]");
    CHECK(op("RDFT", 9, {In("2,180,180"), In("2", i64), In("2", i64)}, {}, {{1, V({1, 2})}, {2, V({50, 41})}})
              .str() == "[2,50,21,2]");
    CHECK(op("RDFT", 9, {In("4..10,?")}, {}).ok() == false);  // axes missing
    CHECK(op("RDFT", 9, {In("2,4..10"), In("1", i64)}, {}, {{1, V({-1})}}).str() == "[2,3..6,2]");
    CHECK(op("IRDFT", 9, {In("2,180,91,2"), In("2", i64)}, {}, {{1, V({1, 2})}}).str() == "[2,180,180]");
    CHECK(op("IRDFT", 9, {In("2,180,91,2"), In("2", i64), In("2", i64)}, {}, {{1, V({1, 2})}, {2, V({64, 50})}})
              .str() == "[2,64,50]");
}

TEST_CASE("misc STFT and ISTFT: frames from the frame size and step") {
    const Attrs plain{{"transpose_frames", "false"}};
    const std::map<size_t, TensorValue> size16_step16{{2, V({16})}, {3, V({16})}};
    CHECK(op("STFT", 15, {In("1,48"), In("16"), In("", i64), In("", i64)}, plain, size16_step16).str() ==
          "[1,3,9,2]");
    CHECK(op("STFT", 15, {In("1,48"), In("16"), In("", i64), In("", i64)}, {{"transpose_frames", "true"}},
             size16_step16)
              .str() == "[1,9,3,2]");
    CHECK(op("STFT", 15, {In("?,40..60"), In("16"), In("", i64), In("", i64)}, plain, {{2, V({16})}, {3, V({4})}})
              .str() == "[?,7..12,9,2]");
    auto r = op("STFT", 15, {In("1,48"), In("16"), In("", i64), In("", i64)}, plain);
    CHECK(r.str() == "[1,?,?,2]");
    CHECK(r.unknown);
    CHECK(op("STFT", 15, {In("1,48"), In("16"), In("", i64), In("", i64)}, plain, {{2, V({60})}, {3, V({4})}})
              .problem() == "frame size 60 must be in range [1, 48]");
    CHECK(op("STFT", 15, {In("1,48"), In("17"), In("", i64), In("", i64)}, plain, size16_step16).problem() ==
          "the window [17] must be 1 to frame size 16 long");
    const Attrs centered{{"center", "true"}, {"normalized", "false"}};
    CHECK(op("ISTFT", 16, {In("9,3,2"), In("16"), In("", i64), In("", i64)}, centered, size16_step16).str() ==
          "[32]");
    CHECK(op("ISTFT", 16, {In("2,9,3,2"), In("16"), In("", i64), In("", i64)},
             {{"center", "false"}, {"normalized", "false"}}, size16_step16)
              .str() == "[2,48]");
    CHECK(op("ISTFT", 16, {In("2,9,3,2"), In("16"), In("", i64), In("", i64), In("", i64)}, centered,
             {{2, V({16})}, {3, V({16})}, {4, V({40})}})
              .str() == "[2,40]");
    CHECK(op("ISTFT", 16, {In("9,2"), In("16"), In("", i64), In("", i64)}, centered).problem() ==
          "the data [9,2] must be 3-D or 4-D");
}

TEST_CASE("misc strings, SegmentMax, SparseFillEmptyRows, ErfInv") {
    auto r = op("StringTensorUnpack", 15, {In("2,3", ElementType::string)});
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[2,3]");
    CHECK(type_of(r, 0) == "i32");
    CHECK(r.str(2) == "[?]");
    CHECK(type_of(r, 2) == "u8");
    r = op("StringTensorPack", 15, {In("2,3", i32), In("2,3", i32), In("20", u8)});
    CHECK(r.str() == "[2,3]");
    CHECK(type_of(r) == "string");
    CHECK(op("StringTensorPack", 15, {In("2,3", i32), In("2,4", i32), In("20", u8)}).problem() ==
          "begins [2,3] and ends [2,4] must have one shape");
    const Attrs zero{{"fill_mode", "ZERO"}};
    CHECK(op("SegmentMax", 16, {In("5,3"), In("5", i64)}, zero, {{1, V({0, 0, 1, 3, 3})}}).str() == "[4,3]");
    CHECK(op("SegmentMax", 16, {In("5,3"), In("5", i64), In("", i64)}, zero, {{1, V({0, 0, 1, 3, 3})}, {2, V({6})}})
              .str() == "[6,3]");
    r = op("SegmentMax", 16, {In("5,3"), In("5", i64)}, zero);
    CHECK(r.str() == "[?,3]");
    CHECK(r.unknown);
    CHECK(op("SegmentMax", 16, {In("5,3"), In("5", i64)}, zero, {{1, V({0, 2, 1, 3, 3})}}).problem() ==
          "segment_ids must be sorted");
    CHECK(op("SegmentMax", 16, {In("5,3"), In("4", i64)}, zero).problem() ==
          "segment_ids [4] must have as many elements as the data's dim 0 in [5,3]");
    // Rows 0 and 2 of 5 hold values: three empty rows are filled.
    r = op("SparseFillEmptyRows", 16, {In("3"), In("2", i64), In("3,2", i64), In("")}, {},
           {{1, V({5, 4})}, {2, V({0, 1, 0, 3, 2, 0})}});
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[6,2]");
    CHECK(r.str(1) == "[6]");
    CHECK(r.str(2) == "[5]");
    CHECK(type_of(r, 2) == "boolean");
    CHECK(op("SparseFillEmptyRows", 16, {In("3"), In("2", i64), In("3,2", i64), In("")}, {},
             {{1, V({5, 4})}, {2, V({0, 1, 0, 4, 2, 0})}})
              .problem() == "sparse tensor index [0, 4] is outside [0, 5) x [0, 4)");
    CHECK(op("ErfInv", 17, {In("2,3", f16)}).str() == "[2,3]");
    CHECK(!op("ErfInv", 17, {In("2,3", i32)}).ok());
}

TEST_CASE("misc RGBtoNV12 and BGRtoNV12: one plane H*3/2 high, or Y and UV planes") {
    CHECK(op("RGBtoNV12", 17, {In("1,480,640,3", u8)}).str() == "[1,720,640,1]");
    const auto r = op("BGRtoNV12", 17, {In("?,480,640,3")}, {{"single_plane", "false"}});
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[?,480,640,1]");
    CHECK(r.str(1) == "[?,240,320,2]");
    CHECK(op("RGBtoNV12", 17, {In("1,481,640,3")}).problem() == "image height 481 must be even");
    CHECK(op("RGBtoNV12", 17, {In("1,480,640,4")}).problem() == "the image [1,480,640,4] must be [N,H,W,3]");
}

TEST_CASE("misc ConvertPromoteTypes: the inputs' dims; a shared type stays") {
    auto r = op("ConvertPromoteTypes", 14, {In("2,3", i32), In("3", i32)});
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[2,3]");
    CHECK(r.str(1) == "[3]");
    CHECK(type_of(r, 1) == "i32");
    r = op("ConvertPromoteTypes", 14, {In("2,3", i32), In("3", f32)});
    CHECK(type_of(r, 0) == "?");  // PyTorch's promotion is not followed
}

TEST_CASE("misc MOE: the hidden states' dims and type") {
    CHECK(op("MOE", 16, {In("?,2048", f16), In("?,128", f16), In("128,768,2048", u8)}).str() == "[?,2048]");
    CHECK(!op("MOE", 16, {In("?,2048")}).ok());
}
