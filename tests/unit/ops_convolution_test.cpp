// The convolution family's registry entries: cases ported from OpenVINO's type_prop tests (convolution,
// group_convolution, convolution_backprop_data, group_convolution_backprop_data, deformable_convolution,
// binary_convolution, matmul, einsum, scaled_dot_product_attention), with the numbers they assert.

#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {


Attrs conv2d(const std::string& strides = "1,1", const std::string& pads = "0,0", const std::string& dilations = "1,1",
             const std::string& auto_pad = "explicit") {
    return {{"strides", strides}, {"pads_begin", pads}, {"pads_end", pads}, {"dilations", dilations},
            {"auto_pad", auto_pad}};
}

OpRun conv(const std::string& data, const std::string& filters, Attrs attrs = conv2d()) {
    return run_op({"Convolution", 1, std::move(attrs), {In(data), In(filters)}, {}});
}

bool has_input_problem(const OpRun& r) {
    return !r.problems.empty() && r.problems.front().kind == OpProblem::Kind::input;
}
bool has_attribute_problem(const OpRun& r) {
    return !r.problems.empty() && r.problems.front().kind == OpProblem::Kind::attribute;
}

}  // namespace

// ---- Convolution ---------------------------------------------------------------------------------------

TEST_CASE("ops-c Convolution: static shape, the arithmetic in the notes") {
    const OpRun r = conv("1,3,224,224", "64,3,7,7", conv2d("2,2", "3,3"));
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,64,112,112]");
    CHECK(r.outputs[0].type == ElementType::f32);
    REQUIRE(r.outputs[0].dim_notes.size() == 4);
    CHECK(r.outputs[0].dim_notes[0].empty());
    CHECK(r.outputs[0].dim_notes[2] == "floor((224+3+3-7)/2)+1 = 112");
}

TEST_CASE("ops-c Convolution: strides and dilations (type_prop default_ctor)") {
    Attrs a = {{"strides", "1,3"}, {"dilations", "1,2"}, {"pads_begin", "2,2"}, {"pads_end", "2,2"}};
    const OpRun r = conv("1,3,5,5", "2,3,4,4", a);
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,2,6,1]");
    CHECK(r.outputs[0].dim_notes[3] == "floor((5+2+2-((4-1)*2+1))/3)+1 = 1");
}

TEST_CASE("ops-c Convolution: auto_pad same and valid") {
    CHECK(conv("1,1,5,5", "1,1,3,3", conv2d("1,1", "0,0", "1,1", "same_lower")).str() == "[1,1,5,5]");
    CHECK(conv("?,?,5,5", "1,1,2,2", conv2d("1,1", "0,0", "1,1", "same_upper")).str() == "[?,1,5,5]");
    CHECK(conv("1,1,?,3..5", "1,1,3,3", conv2d("2,2", "0,0", "1,1", "same_lower")).str() == "[1,1,?,2..3]");
    CHECK(conv("...", "1,1,3,3", conv2d("1,1", "0,0", "1,1", "same_lower")).str() == "[?,1,?,?]");
    // valid ignores the pads.
    CHECK(conv("1,1,5,5", "1,1,3,3", conv2d("1,1", "4,4", "1,1", "valid")).str() == "[1,1,3,3]");
}

TEST_CASE("ops-c Convolution: dynamic ranks and intervals") {
    CHECK(conv("...", "...").str() == "[?,?,1..,1..]");
    CHECK(conv("...", "2,3,4,4").str() == "[?,2,1..,1..]");
    // No rank and no attribute lists: the output rank is dynamic.
    CHECK(run_op({"Convolution", 1, {}, {In("..."), In("...")}, {}}).str() == "[...]");
    CHECK(conv("1,3,10..20,?", "8,3,3,3").str() == "[1,8,8..18,1..]");
    CHECK(conv("1,3,10,10", "8,3,2..3,?").str() == "[1,8,8..9,1..10]");
}

TEST_CASE("ops-c Convolution: rank and channel checks") {
    OpRun r = conv("2,3", "2,3", conv2d("1,1", "", "1,1", "same_lower"));
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("rank 2") != std::string::npos);
    r = conv("2,3,5,5,5,5", "2,3,4,4,4,4", conv2d("1,1,1,1", "0,0,0,0", "1,1,1,1"));
    CHECK(has_input_problem(r));
    r = conv("2,3,5,5", "2,3,4");
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("data rank 4 and filters rank 3 differ") != std::string::npos);
    r = conv("2,2,5,5", "2,3,4,4");
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("data channels 2 do not match the filters' input channels 3") != std::string::npos);
    CHECK(conv("2,2..4,5,5", "2,3,4,4").ok());
}

TEST_CASE("ops-c Convolution: attribute checks") {
    OpRun r = conv("2,3,5,5", "2,3,4,4", conv2d("1,1,1"));
    CHECK(has_attribute_problem(r));
    CHECK(r.problem().find("strides has 3 values") != std::string::npos);
    r = conv("2,3,5,5", "2,3,4,4", conv2d("1,1", "0,0", "1"));
    CHECK(has_attribute_problem(r));
    r = conv("2,3,5,5", "2,3,4,4", conv2d("1,0"));
    CHECK(has_attribute_problem(r));
    CHECK(r.problem().find("strides (1,0) must all be > 0") != std::string::npos);
    r = conv("2,3,5,5", "2,3,4,4", conv2d("1,1", "0,0", "0,1"));
    CHECK(has_attribute_problem(r));
    r = conv("2,3,5,5", "2,3,4,4", {{"strides", "1,1"}, {"pads_begin", "2,2"}, {"pads_end", "2,2,2"}});
    CHECK(has_attribute_problem(r));
    CHECK(r.problem().find("pads_end has 3 values") != std::string::npos);
    r = conv("2,3,5,5", "2,3,4,4", conv2d("1,1", "0,0", "1,1", "same"));
    CHECK(has_attribute_problem(r));
}

TEST_CASE("ops-c Convolution: the dilated kernel must fit the padded input") {
    OpRun r = conv("1,3,5,5", "2,3,4,4", conv2d("1,1", "0,0", "2,2"));
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("the kernel after dilation (7) is larger than the padded input 5+0+0 = 5") !=
          std::string::npos);
}

TEST_CASE("ops-c Convolution: element types") {
    OpRun r = run_op({"Convolution", 1, conv2d(), {In("1,3,5,5", ElementType::f32), In("2,3,3,3", ElementType::f16)}, {}});
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("f32") != std::string::npos);
    r = run_op({"Convolution", 1, conv2d(), {In("1,3,5,5", ElementType::boolean), In("2,3,3,3", ElementType::boolean)}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"Convolution", 1, conv2d(), {In("1,3,5,5", std::nullopt), In("2,3,3,3", ElementType::f16)}, {}});
    REQUIRE(r.ok());
    CHECK(r.outputs[0].type == ElementType::f16);
    r = run_op({"Convolution", 1, conv2d(), {In("1,3,5,5", std::nullopt), In("2,3,3,3", std::nullopt)}, {}});
    REQUIRE(r.ok());
    CHECK(!r.outputs[0].type);
    CHECK(r.str() == "[1,2,3,3]");
}

TEST_CASE("ops-c Convolution: 1D and 3D") {
    CHECK(conv("1,3,10", "4,3,3", conv2d("1", "0", "1")).str() == "[1,4,8]");
    CHECK(conv("1,3,10,10,10", "4,3,3,3,3", conv2d("2,2,2", "1,1,1", "1,1,1")).str() == "[1,4,5,5,5]");
}

// ---- BinaryConvolution ---------------------------------------------------------------------------------

TEST_CASE("ops-c BinaryConvolution: data type out, mode checked") {
    Attrs a = conv2d();
    a.push_back({"mode", "xnor-popcount"});
    a.push_back({"pad_value", "0"});
    OpRun r = run_op({"BinaryConvolution", 1, a, {In("1,1,5,5", ElementType::f32), In("1,1,3,3", ElementType::u1)}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,1,3,3]");
    CHECK(r.outputs[0].type == ElementType::f32);
    r = run_op({"BinaryConvolution", 1, conv2d(), {In("1,1,5,5"), In("1,1,3,3", ElementType::u1)}, {}});
    CHECK(has_attribute_problem(r));  // mode is missing
    Attrs bad = conv2d();
    bad.push_back({"mode", "and-popcount"});
    r = run_op({"BinaryConvolution", 1, bad, {In("1,1,5,5"), In("1,1,3,3", ElementType::u1)}, {}});
    CHECK(has_attribute_problem(r));
}

// ---- GroupConvolution ----------------------------------------------------------------------------------

TEST_CASE("ops-c GroupConvolution: groups, channels") {
    auto gconv = [](const std::string& d, const std::string& f, Attrs a = conv2d()) {
        return run_op({"GroupConvolution", 1, std::move(a), {In(d), In(f)}, {}});
    };
    CHECK(gconv("1,12,224,224", "4,2,3,3,3").str() == "[1,8,222,222]");
    CHECK(gconv("1,?,224,224", "4,2,3,3,3").str() == "[1,8,222,222]");
    CHECK(gconv("1,12,224,224", "?,2,3,3,3").str() == "[1,8,222,222]");
    CHECK(gconv("...", "4,2,3,3,3").str() == "[?,8,1..,1..]");
    CHECK(gconv("1,12,10,10", "...").str() == "[1,?,1..10,1..10]");
    OpRun r = gconv("1,10,224,224", "4,2,3,3,3");
    CHECK(has_input_problem(r));
    r = gconv("1,12,224,224", "4,2,3,3");
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("data rank 4 and filters rank 4") != std::string::npos);
    CHECK(gconv("1,12,224,224", "4,2,3,3,3", conv2d("2,2", "0,0", "1,1", "same_upper")).str() == "[1,8,112,112]");
    // type_prop group_convolution_* cases (attribute lists left empty).
    const Attrs same_lower = {{"auto_pad", "same_lower"}};
    CHECK(gconv("?,4,5,5", "?,1,2,3,3", same_lower).str() == "[?,2,5,5]");
    CHECK(gconv("?,4,5,5", "?,?,2,3,3", same_lower).str() == "[?,?,5,5]");
    CHECK(gconv("?,?,5,5", "?,1,2,3,3", same_lower).str() == "[?,?,5,5]");
    CHECK(gconv("1,4,?,5", "2,1,2,3,3", same_lower).str() == "[1,2,?,5]");
    CHECK(gconv("1,4,5,5", "...", {{"auto_pad", "explicit"}}).str() == "[1,?,1..5,1..5]");
    CHECK(gconv("1,4,5,5", "...", same_lower).str() == "[1,?,5,5]");
    CHECK(gconv("...", "...", same_lower).str() == "[...]");
}

// ---- ConvolutionBackpropData ---------------------------------------------------------------------------

TEST_CASE("ops-c ConvolutionBackpropData: computed spatial dims") {
    Attrs a = conv2d("2,2", "1,1");
    a.push_back({"output_padding", "1,1"});
    OpRun r = run_op({"ConvolutionBackpropData", 1, a, {In("1,16,5,5"), In("16,6,3,3")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,6,10,10]");
    CHECK(r.outputs[0].dim_notes[2] == "(5-1)*2+3+1-1-1 = 10");
    r = run_op({"ConvolutionBackpropData", 1, a, {In("1,16,?,3..5"), In("16,6,3,3")}, {}});
    CHECK(r.str() == "[1,6,2..,6..10]");
    // Auto pads count as 0 without an output_shape input.
    r = run_op({"ConvolutionBackpropData", 1, conv2d("2,2", "1,1", "1,1", "same_upper"), {In("1,16,5,5"), In("16,6,3,3")}, {}});
    CHECK(r.str() == "[1,6,11,11]");
    r = run_op({"ConvolutionBackpropData", 1, a, {In("1,16,5,5"), In("8,6,3,3")}, {}});
    CHECK(has_input_problem(r));
    a.back() = {"output_padding", "1"};
    r = run_op({"ConvolutionBackpropData", 1, a, {In("1,16,5,5"), In("16,6,3,3")}, {}});
    CHECK(has_attribute_problem(r));
}

TEST_CASE("ops-c ConvolutionBackpropData: type_prop cases") {
    Attrs a = conv2d("2,2", "1,1");
    a.push_back({"output_padding", "1,1"});
    CHECK(run_op({"ConvolutionBackpropData", 1, a, {In("1,16,2,2"), In("16,6,3,3")}, {}}).str() == "[1,6,4,4]");
    const Attrs b = conv2d("2,2", "1,1");
    CHECK(run_op({"ConvolutionBackpropData", 1, b, {In("?,?,224,224"), In("5,2,3,3")}, {}}).str() == "[?,2,447,447]");
    const Attrs same_upper = {{"auto_pad", "same_upper"}};
    const TensorValue three = V({3, 3});
    CHECK(run_op({"ConvolutionBackpropData", 1, same_upper,
                  {In("?,?,5,5"), In("16,2,3,3"), In("2", ElementType::i64)}, {{2, three}}})
              .str() == "[?,2,3,3]");
    CHECK(run_op({"ConvolutionBackpropData", 1, same_upper,
                  {In("?,16,5,5"), In("?,?,3,3"), In("2", ElementType::i64)}, {{2, three}}})
              .str() == "[?,?,3,3]");
    CHECK(run_op({"ConvolutionBackpropData", 1, same_upper,
                  {In("1,16,5,5"), In("16,2,3,3"), In("2", ElementType::i64)}, {}})
              .str() == "[1,2,?,?]");
}

TEST_CASE("ops-c ConvolutionBackpropData: output_shape input") {
    const Attrs a = conv2d("2,2", "1,1");
    OpRun r = run_op({"ConvolutionBackpropData", 1, a,
                      {In("1,16,5,5"), In("16,6,3,3"), In("2", ElementType::i64)}, {{2, V({20, 21})}}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,6,20,21]");
    CHECK(!r.unknown);
    r = run_op({"ConvolutionBackpropData", 1, a, {In("1,16,5,5"), In("16,6,3,3"), In("2", ElementType::i64)}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,6,?,?]");
    CHECK(r.unknown);
    // Batch, channels and rank are held to what is inferred (engine_test checks how the engine compares).
    CHECK(r.invariants.size() == 1);
    r = run_op({"ConvolutionBackpropData", 1, a,
                {In("1,16,5,5"), In("16,6,3,3"), In("2", ElementType::i64)}, {{2, TensorValue{{4, 8}, {10, 10}}}}});
    CHECK(r.str() == "[1,6,4..8,10]");
    r = run_op({"ConvolutionBackpropData", 1, a,
                {In("1,16,5,5"), In("16,6,3,3"), In("3", ElementType::i64)}, {{2, V({1, 2, 3})}}});
    CHECK(has_input_problem(r));
    r = run_op({"ConvolutionBackpropData", 1, a, {In("1,16,5,5"), In("16,6,3,3"), In("2", ElementType::f32)}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"ConvolutionBackpropData", 1, a, {In("1,16,5,5"), In("16,6,3,3"), In("2,1", ElementType::i64)}, {}});
    CHECK(has_input_problem(r));
    // The spatial rank comes from the output_shape's length when data and filters have none.
    r = run_op({"ConvolutionBackpropData", 1, {}, {In("..."), In("..."), In("3", ElementType::i32)}, {{2, V({4, 5, 6})}}});
    CHECK(r.str() == "[?,?,4,5,6]");
}

// ---- GroupConvolutionBackpropData ----------------------------------------------------------------------

TEST_CASE("ops-c GroupConvolutionBackpropData") {
    OpRun r = run_op({"GroupConvolutionBackpropData", 1, conv2d(), {In("1,4,5,5"), In("2,2,3,3,3")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,6,7,7]");
    r = run_op({"GroupConvolutionBackpropData", 1, conv2d(),
                {In("1,4,5,5"), In("2,2,3,3,3"), In("2", ElementType::i64)}, {{2, V({9, 9})}}});
    CHECK(r.str() == "[1,6,9,9]");
    r = run_op({"GroupConvolutionBackpropData", 1, conv2d(), {In("1,5,5,5"), In("2,2,3,3,3")}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"GroupConvolutionBackpropData", 1, conv2d(), {In("...", ElementType::f16), In("2,2,3,3,3", ElementType::f16)}, {}});
    CHECK(r.str() == "[?,6,3..,3..]");
    CHECK(r.outputs[0].type == ElementType::f16);
}

// ---- DeformableConvolution -----------------------------------------------------------------------------

TEST_CASE("ops-c DeformableConvolution v1 and v8") {
    Attrs a = conv2d();
    a.push_back({"group", "1"});
    a.push_back({"deformable_group", "1"});
    OpRun r = run_op({"DeformableConvolution", 1, a, {In("1,4,5,5"), In("1,18,3,3"), In("4,4,3,3")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,4,3,3]");
    r = run_op({"DeformableConvolution", 1, a, {In("1,4,5,5"), In("1,17,3,3"), In("4,4,3,3")}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"DeformableConvolution", 1, a, {In("1,4,5,5"), In("1,18,4,4"), In("4,4,3,3")}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"DeformableConvolution", 1, a, {In("1,4,5,5,5"), In("1,18,3,3"), In("4,4,3,3")}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"DeformableConvolution", 1, a, {In("..."), In("..."), In("...")}, {}});
    CHECK(r.str() == "[...]");
    r = run_op({"DeformableConvolution", 1, a, {In("..."), In("2,18,3,3"), In("...")}, {}});
    CHECK(r.str() == "[2,?,1..,1..]");

    Attrs g = conv2d();
    g.push_back({"group", "2"});
    g.push_back({"deformable_group", "2"});
    r = run_op({"DeformableConvolution", 8, g, {In("1,4,5,5"), In("1,36,3,3"), In("4,2,3,3"), In("1,18,3,3")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,4,3,3]");
    r = run_op({"DeformableConvolution", 8, g, {In("1,4,5,5"), In("1,36,3,3"), In("4,2,3,3"), In("1,8,3,3")}, {}});
    CHECK(has_input_problem(r));
    g[5] = {"group", "0"};
    r = run_op({"DeformableConvolution", 8, g, {In("1,4,5,5"), In("1,36,3,3"), In("4,2,3,3")}, {}});
    CHECK(has_attribute_problem(r));
}

TEST_CASE("ops-c DeformableConvolution: type_prop cases") {
    auto dc = [](const std::string& pad, int group, const std::string& d, const std::string& o, const std::string& f) {
        return run_op({"DeformableConvolution", 1,
                       {{"auto_pad", pad}, {"group", std::to_string(group)}, {"deformable_group", "2"}},
                       {In(d), In(o), In(f)}, {}});
    };
    CHECK(dc("same_lower", 4, "1,4,5,5", "1,36,5,5", "4,1,3,3").str() == "[1,4,5,5]");
    CHECK(dc("same_lower", 4, "?,?,5,5", "?,36,5,5", "4,4,3,3").str() == "[?,4,5,5]");
    CHECK(dc("same_upper", 4, "?,?,5,5", "1,16,5,5", "4,4,2,2").str() == "[1,4,5,5]");
    CHECK(dc("same_lower", 4, "1,4,?,5", "1,36,5,5", "4,1,3,3").str() == "[1,4,?,5]");
    CHECK(dc("explicit", 2, "...", "2,36,5,5", "4,4,3,3").str() == "[2,4,1..,1..]");
    CHECK(dc("same_lower", 2, "1,4,5,5", "...", "4,2,3,3").str() == "[1,4,5,5]");
    OpRun r = dc("explicit", 2, "1,4,5,5", "2,36,3,3", "4,2,3,3");
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("offsets batch 2 and data batch 1 differ") != std::string::npos);
    r = dc("explicit", 3, "1,4,5,5", "1,36,3,3", "4,2,3,3");
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("not divisible by group 3") != std::string::npos);
}

// ---- MatMul --------------------------------------------------------------------------------------------

TEST_CASE("ops-c MatMul: shapes") {
    auto mm = [](const std::string& a, const std::string& b, bool ta = false, bool tb = false) {
        return run_op({"MatMul", 0, {{"transpose_a", ta ? "true" : "false"}, {"transpose_b", tb ? "true" : "false"}},
                       {In(a), In(b)}, {}});
    };
    CHECK(mm("2,3", "3,4").str() == "[2,4]");
    CHECK(mm("3,2", "3,4", true).str() == "[2,4]");
    CHECK(mm("2,3", "4,3", false, true).str() == "[2,4]");
    CHECK(mm("3", "3").str() == "[]");
    CHECK(mm("3", "2,3,4").str() == "[2,4]");
    CHECK(mm("2,3,4", "4").str() == "[2,3]");
    CHECK(mm("3", "3", true, true).str() == "[]");
    CHECK(mm("5,1,2,3", "4,3,6").str() == "[5,4,2,6]");
    CHECK(mm("...", "3,4").str() == "[...]");
    CHECK(mm("?,2,3..5", "6,4").str() == "[?,2,4]");
    CHECK(mm("1..4,2,3", "2..5,3,4").str() == "[2..5,2,4]");
    OpRun r = mm("2,3", "4,5");
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("the K dims differ") != std::string::npos);
    r = mm("2,2,3", "3,3,4");
    CHECK(has_input_problem(r));
    r = mm("", "3");
    CHECK(has_input_problem(r));
    r = run_op({"MatMul", 0, {}, {In("2,3", ElementType::f32), In("3,4", ElementType::i32)}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"MatMul", 0, {}, {In("2,3", ElementType::f16), In("3,4", std::nullopt)}, {}});
    CHECK(r.outputs[0].type == ElementType::f16);
}

// ---- Einsum --------------------------------------------------------------------------------------------

TEST_CASE("ops-c Einsum: equations") {
    auto es = [](const std::string& eq, std::vector<OpInput> in) {
        return run_op({"Einsum", 7, {{"equation", eq}}, std::move(in), {}});
    };
    CHECK(es("ij,jk->ik", {In("2,3"), In("3,4")}).str() == "[2,4]");
    CHECK(es("ij,jk", {In("2,3"), In("3,4")}).str() == "[2,4]");
    CHECK(es("ba", {In("2,3")}).str() == "[3,2]");
    CHECK(es("ii->i", {In("3,3")}).str() == "[3]");
    CHECK(es("...ij,...jk->...ik", {In("2,1,2,3"), In("5,3,4")}).str() == "[2,5,2,4]");
    // The ellipsis counts as a label: it stands for at least one dim.
    CHECK(es("a...,...->...", {In("3,1"), In("2")}).str() == "[2]");
    CHECK(has_input_problem(es("a...,...->...", {In("3"), In("2")})));
    CHECK(es("ij,jk->ik", {In("..."), In("3,4")}).str() == "[?,4]");
    CHECK(es("ij,jk->ik", {In("2..5,3"), In("?,4")}).str() == "[2..5,4]");
    CHECK(es("abc,cd->abd", {In("2,3,4"), In("4,5")}).outputs[0].type == ElementType::f32);

    OpRun r = es("i2,j->ij", {In("2"), In("3")});
    CHECK(has_attribute_problem(r));
    r = es("ij,jk->ik", {In("2,3")});
    CHECK(has_attribute_problem(r));
    r = es("ij->k", {In("2,3")});
    CHECK(has_attribute_problem(r));
    r = es("...ij->ij", {In("2,3")});
    CHECK(has_attribute_problem(r));
    r = es("ij,jk->ik", {In("2,3"), In("4,5")});
    CHECK(has_input_problem(r));
    r = es("ijk->i", {In("2,3")});
    CHECK(has_input_problem(r));
    r = es("...i,...i->...", {In("2,3"), In("4,3")});
    CHECK(has_input_problem(r));
    r = es("...i->...", {In("...")});
    CHECK(has_input_problem(r));
    r = es("ij,jk->ik", {In("2,3", ElementType::f32), In("3,4", ElementType::f16)});
    CHECK(has_input_problem(r));
    r = run_op({"Einsum", 7, {}, {In("2,3")}, {}});
    CHECK(has_attribute_problem(r));
}

// ---- Col2Im --------------------------------------------------------------------------------------------

TEST_CASE("ops-c Col2Im") {
    const Attrs a = {{"strides", "2,2"}, {"dilations", "2,2"}, {"pads_begin", "2,2"}, {"pads_end", "2,2"}};
    auto c2i = [&a](const std::string& data, std::map<size_t, TensorValue> values, Attrs attrs = {}) {
        return run_op({"Col2Im", 15, attrs.empty() ? a : attrs,
                       {In(data), In("2", ElementType::i64), In("2", ElementType::i64)}, std::move(values)});
    };
    OpRun r = c2i("3,12,81", {{1, V({16, 16})}, {2, V({2, 2})}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[3,3,16,16]");
    CHECK(r.outputs[0].type == ElementType::f32);
    CHECK(c2i("12,81", {{1, V({16, 16})}, {2, V({2, 2})}}).str() == "[3,16,16]");
    r = c2i("3,12,81", {});
    CHECK(r.str() == "[3,?,?,?]");
    CHECK(r.unknown);
    CHECK(c2i("...", {}).str() == "[...]");
    r = c2i("3,12,80", {{1, V({16, 16})}, {2, V({2, 2})}});
    CHECK(has_input_problem(r));
    CHECK(r.problem().find("yields 81") != std::string::npos);
    r = c2i("3,13,81", {{1, V({16, 16})}, {2, V({2, 2})}});
    CHECK(has_input_problem(r));
    r = c2i("3,12,81,1", {});
    CHECK(has_input_problem(r));
    r = run_op({"Col2Im", 15, a, {In("3,12,81"), In("3", ElementType::i64), In("2", ElementType::i64)}, {}});
    CHECK(has_input_problem(r));
    r = run_op({"Col2Im", 15, a, {In("3,12,81"), In("2", ElementType::f32), In("2", ElementType::i64)}, {}});
    CHECK(has_input_problem(r));
}

// ---- ScaledDotProductAttention ---------------------------------------------------------------------------

namespace {

// ScaledDotProductAttention-13 of inputs "shape:type" (type f32 when left out; "?" an undeclared type).
OpRun sdpa(std::vector<std::string> inputs, bool causal = false) {
    std::vector<OpInput> in;
    for (const std::string& spec : inputs) {
        const size_t colon = spec.find(':');
        const std::string type = colon == std::string::npos ? "f32" : spec.substr(colon + 1);
        in.push_back(In(spec.substr(0, colon), type == "?" ? std::nullopt : parse_element_type(type)));
    }
    return run_op({"ScaledDotProductAttention", 13, {{"causal", causal ? "true" : "false"}}, in, {}});
}

}  // namespace

TEST_CASE("type_prop ScaledDotProductAttention-13: static shapes, 3 to 5 inputs, causal") {
    auto r = sdpa({"2,3,4", "2,5,4", "2,5,6", "1,3,5", "1"});
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,3,6]");
    CHECK(r.outputs[0].type == ElementType::f32);
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "1,3,5"}).str() == "[2,3,6]");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6"}).str() == "[2,3,6]");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6"}, true).str() == "[2,3,6]");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "", ""}).str() == "[2,3,6]");
    // causal: the mask is not read.
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "7,8,9,10,11", ""}, true).str() == "[2,3,6]");
    CHECK(sdpa({"2,7,3,4", "2,7,5,4", "2,7,5,6", "1,1,3,5", ""}).str() == "[2,7,3,6]");
    CHECK(sdpa({"2,7,3,4", "7,5,4", "2,1,5,6", "1,1,3,5"}).str() == "[2,7,3,6]");
    CHECK(sdpa({"7,3,4", "2,7,5,4", "2,7,5,6"}).str() == "[2,7,3,6]");
    CHECK(sdpa({"2,7,3,4", "2,7,5,4", "7,5,6"}, true).str() == "[2,7,3,6]");
    CHECK(sdpa({"2,7,3,4", "2,1,5,4", "1,7,5,6", "7,8,9,10,11", ""}, true).str() == "[2,7,3,6]");
    CHECK(sdpa({"2,8,16,32", "2,8,48,32", "2,8,48,64", "2,8,1,48", "1"}).str() == "[2,8,16,64]");
}

TEST_CASE("type_prop ScaledDotProductAttention-13: dynamic and interval shapes") {
    CHECK(sdpa({"...", "...", "...", "...", "..."}).str() == "[...]");
    CHECK(sdpa({"?,?,?", "?,?,?", "?,?,?", "?,?,?", ""}).str() == "[?,?,?]");
    CHECK(sdpa({"?,?,?,?", "?,?,?,?", "?,?,?,?", "?,?,?,?", ""}).str() == "[?,?,?,?]");
    CHECK(sdpa({"...", "...", "...", "1,?,5,7", ""}).str() == "[...]");
    auto r = sdpa({"2..4,3,2..5,4:?", "4..8,2..4,5,4:f64", "2..4,3,5,3..7:?", "2..7,3,4..7,5:f64", "?:f64"});
    REQUIRE(r.ok());
    CHECK(r.str() == "[4,3,4..5,3..7]");
    CHECK(r.outputs[0].type == ElementType::f64);
    r = sdpa({"1..4,3,1..5,4:?", "4..8,1..4,5,4:f64", "2..4,3,5,3..7:?", "57,3,4..7,5:i64", ":f64"}, true);
    REQUIRE(r.ok());
    CHECK(r.str() == "[4,3,1..5,3..7]");
    CHECK(r.outputs[0].type == ElementType::f64);
    CHECK(sdpa({"1..4,4,2..5,4:?", "2..8,1..4,5,4:f64", "2..4,4,5,3..7:?", "4,4..7,5:f64"}).str() ==
          "[2..4,4,4..5,3..7]");
    CHECK(sdpa({"2,8,8..,32", "2,8,?,32", "2,8,?,64", "2,8,1,?", "1"}).str() == "[2,8,8..,64]");
    // The query's dims keep their symbols.
    Shape query = S("2,8,?,32");
    query.dims[2] = query.dims[2].with_symbol(5);
    OpCase with_symbol{"ScaledDotProductAttention", 13, {{"causal", "false"}}, {}, {}};
    with_symbol.inputs = {OpInput{query, ElementType::f32}, In("2,8,?,32"), In("2,8,?,64")};
    r = run_op(with_symbol);
    CHECK(r.shape().dims.at(2).symbol() == 5);
}

TEST_CASE("type_prop ScaledDotProductAttention-13: element types") {
    auto r = sdpa({"2,3,4:?", "2,5,4:?", "2,5,6:?", "1,3,5:?", ":f32"});
    CHECK(r.outputs.at(0).type == ElementType::f32);
    r = sdpa({"2,3,4:?", "2,5,4:f64", "2,5,6:?", "3,5:f64"});
    CHECK(r.outputs.at(0).type == ElementType::f64);
    r = sdpa({"2,3,4:?", "2,5,4:f64", "2,5,6:?", "1,3,5:boolean"});
    REQUIRE(r.ok());
    CHECK(r.outputs[0].type == ElementType::f64);
    CHECK(sdpa({"2,3,4:i32", "2,5,4:i32", "2,5,6:i32", "3,3,3,5:boolean", ":i32"}).problem() ==
          "the inputs are i32; they must be floating-point");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "3,3,3,5:f64", ""}).problem() ==
          "element types differ: query is f32, attention_mask is f64");
    CHECK(sdpa({"2,3,4:?", "2,5,4:f64", "2,5,6:?", "1,3,5:i32"}).problem() ==
          "attention_mask is i32; it must be floating-point or boolean");
}

TEST_CASE("type_prop ScaledDotProductAttention-13: shapes that do not fit") {
    auto r = sdpa({"2,3,4", "3,5,4", "2,5,6", "3,3,3,5"});
    CHECK(has_input_problem(r));
    CHECK(r.problem() == "key [3,5,4]: its batch dims [3] do not broadcast with [2]");
    CHECK(sdpa({"2,3,4", "2,5,4", "3,5,6", "3,3,3,5"}).problem() ==
          "value [3,5,6]: its batch dims [3] do not broadcast with [2]");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "3,3,3,5"}).problem() ==
          "attention_mask [3,3,3,5]: its batch dims [3,3] do not broadcast with [2]");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "3,5", "2"}).problem() == "scale [2] must be a scalar or have 1 element");
    CHECK(sdpa({"2,3", "2,5,4", "2,5,6"}).problem() == "query [2,3] has rank 2; it needs at least 3 ([..., L, E])");
    CHECK(sdpa({"2,3,4", "2,5,3", "2,5,6"}).problem() == "key [2,5,3]: its dim 2 is 3, query's E is 4");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,6,6"}).problem() == "value [2,6,6]: its dim 1 is 6, key's S is 5");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "2,5"}).problem() == "attention_mask [2,5]: its dim 0 is 2, query's L is 3");
    CHECK(sdpa({"2,3,4", "2,5,4", "2,5,6", "5"}).problem() ==
          "attention_mask [5] has rank 1; it needs 0 or at least 2 ([..., L, S])");
    CHECK(has_input_problem(sdpa({"2,3,4", "2,5,4"})));
}
