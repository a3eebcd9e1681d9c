// Detection and recurrent ops, ported from OpenVINO's type_prop tests (prior_box, detection_output,
// non_max_suppression, proposal, roi_pooling, psroi_pooling, roi_align, region_yolo, reorg_yolo, read_value,
// assign, gru/lstm/rnn cells and sequences, ctc_greedy_decoder_seq_len, gather_tree).

#include <doctest/doctest.h>

#include <array>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;

namespace {






OpRun prior_box(int version, Attrs attrs, std::optional<TensorValue> size, std::string size_shape = "2",
                std::optional<ElementType> size_type = i64) {
    OpCase c{"PriorBox", version, std::move(attrs), {In(size_shape, size_type), In("2", i64)}, {}};
    if (size) c.values[0] = *size;
    return run_op(c);
}
}  // namespace

TEST_CASE("ops-d PriorBox: priors from min sizes, aspect ratios, flip, density, fixed sizes") {
    // 4 distinct ratios (1, 1.5, 2, 2.5), 2 min sizes, scale_all_sizes=false: 4 + 2 - 1 = 5 priors.
    auto r = prior_box(0, {{"min_size", "2,3"}, {"aspect_ratio", "1.5,2.0,2.5"}, {"scale_all_sizes", "false"}},
                       V({32, 32}));
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,20480]");
    CHECK(r.outputs[0].type == f32);
    CHECK_FALSE(r.unknown);
    // flip adds the inverses: 7 ratios * 2 min sizes + 1 max size = 15.
    r = prior_box(8, {{"min_size", "2,3"}, {"max_size", "5"}, {"aspect_ratio", "1.5,2.0,2.5"}, {"flip", "true"}},
                  V({10, 20}));
    CHECK(r.str() == "[2,12000]");
    // A ratio given twice (and 1 given explicitly) counts once.
    r = prior_box(0, {{"min_size", "2"}, {"aspect_ratio", "2.0,2.0000001,1"}}, V({1, 1}));
    CHECK(r.str() == "[2,8]");
    // fixed_size replaces the count; each density d adds ratios * (d*d - 1).
    r = prior_box(0, {{"fixed_size", "32"}, {"density", "4"}}, V({2, 2}));
    CHECK(r.str() == "[2,256]");
    r = prior_box(0, {{"fixed_size", "32,64"}, {"fixed_ratio", "1,2"}, {"density", "2,1"}}, V({1, 1}));
    CHECK(r.str() == "[2,32]");  // 1*2 + 2*3 + 2*0 = 8 priors
}

TEST_CASE("ops-d PriorBox: unknown or bounded output size, and invalid inputs") {
    auto r = prior_box(0, {{"min_size", "2"}}, std::nullopt);
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,?]");
    CHECK(r.unknown);
    r = prior_box(8, {{"min_size", "2"}}, TensorValue{{2, 4}, {3, 3}});
    CHECK(r.str() == "[2,24..48]");
    r = prior_box(0, {{"min_size", "2"}}, TensorValue{{2, ValueBounds::kUnbounded}, {3, 3}});
    CHECK(r.str() == "[2,24..]");
    r = prior_box(0, {{"min_size", "2"}}, V({1, 2}), "2", f32);
    CHECK(r.problem() == "output size input must be an integral number, but is f32");
    r = prior_box(0, {{"min_size", "2"}}, V({1, 2}), "1,2");
    CHECK(r.problem() == "output size input rank 2 must match image shape input rank 1 and both must be 1-D");
    r = prior_box(0, {{"min_size", "2"}}, V({1, 2, 3}), "3");
    CHECK(r.problem() == "Output size must have two elements, got 3");
    // Unknown, the value still has as many elements as input 0's one dim.
    r = prior_box(0, {{"min_size", "2"}}, std::nullopt, "3");
    CHECK(r.problem() == "Output size must have two elements, input 0 is declared [3]");
    r = prior_box(0, {{"min_size", "2"}}, std::nullopt, "?");
    CHECK(r.str() == "[2,?]");
    r = prior_box(0, {{"flip", "maybe"}}, V({1, 2}));
    CHECK(r.problem() == "flip=\"maybe\" is not true or false");
}

TEST_CASE("invariants PriorBox and PriorBoxClustered: dim 1 is 4*H*W*priors, whatever H and W") {
    const auto r = prior_box(0, {{"min_size", "2,3"}, {"aspect_ratio", "2.0"}, {"flip", "true"}}, std::nullopt);
    REQUIRE(r.unknown.has_value());
    REQUIRE(r.invariants.size() == 1);  // 3 ratios * 2 min sizes = 6 priors: a multiple of 24
    CHECK(r.broken({"2,8664"}).empty());
    CHECK(r.broken({"2,?"}).empty());
    CHECK(r.broken({"2,8665"}) == "output 0: PriorBox gives 4*H*W*6 priors at dim 1, a multiple of 24; declared "
                                  "[2,8665] has 8665");
    OpCase c{"PriorBoxClustered", 0, {{"width", "4.4,2.2"}, {"height", "3.3,1.1"}}, {In("2", i64), In("2", i64)}, {}};
    const auto clustered = run_op(c);
    REQUIRE(clustered.invariants.size() == 1);
    CHECK(clustered.broken({"2,2888"}).empty());
    CHECK(clustered.broken({"2,2889"}) == "output 0: PriorBoxClustered gives 4*H*W*2 priors at dim 1, a multiple of "
                                          "8; declared [2,2889] has 2889");
}

TEST_CASE("ops-d PriorBoxClustered: widths give the priors") {
    OpCase c{"PriorBoxClustered", 0, {{"width", "4.4,2.2"}, {"height", "3.3,1.1"}}, {In("2", i64), In("2", i64)}, {}};
    c.values[0] = V({19, 19});
    auto r = run_op(c);
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,2888]");
    CHECK(r.outputs[0].type == f32);
    c.attrs = {{"width", "4.4,2.2"}, {"height", "3.3"}};
    r = run_op(c);
    CHECK(r.problem() == "height has 1 values and width 2: they must be as many");
}

namespace {
OpRun detection(int version, Attrs attrs, std::vector<std::string> shapes,
                std::vector<ElementType> types = {f32, f32, f32, f32, f32}) {
    OpCase c{"DetectionOutput", version, std::move(attrs), {}, {}};
    for (size_t i = 0; i < shapes.size(); ++i) c.inputs.push_back(In(shapes[i], types[i]));
    return run_op(c);
}
}  // namespace

TEST_CASE("ops-d DetectionOutput-0: keep_top_k, top_k and the deduced prior boxes") {
    const Attrs base{{"num_classes", "2"}, {"keep_top_k", "200"}, {"nms_threshold", "0.5"}};
    auto r = detection(0, base, {"4,20", "4,10", "4,2,25"});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,1,800,7]");
    CHECK(r.outputs[0].type == f32);
    r = detection(0, {{"num_classes", "2"}, {"keep_top_k", "-1"}, {"top_k", "7"}}, {"4,20", "4,10", "4,2,25"});
    CHECK(r.str() == "[1,1,56,7]");
    r = detection(0, {{"num_classes", "2"}, {"keep_top_k", "-1"}}, {"4,20", "4,10", "4,2,25"});
    CHECK(r.str() == "[1,1,40,7]");
    // share_location=false: box logits carry 4 coordinates per prior per class.
    r = detection(0, {{"num_classes", "2"}, {"keep_top_k", "-1"}, {"share_location", "false"}, {"normalized", "true"}},
                  {"4,40", "4,10", "1,2,20"});
    CHECK(r.str() == "[1,1,40,7]");
    // The five-input form.
    r = detection(0, {{"num_classes", "2"}, {"keep_top_k", "-1"}}, {"4,20", "4,10", "4,2,25", "4,10", "4,20"});
    CHECK(r.str() == "[1,1,40,7]");
}

TEST_CASE("ops-d DetectionOutput-0: dynamic batch and dims") {
    const Attrs base{{"num_classes", "2"}, {"keep_top_k", "200"}};
    CHECK(detection(0, base, {"?,20", "?,10", "?,2,25"}).str() == "[1,1,?,7]");
    CHECK(detection(0, base, {"2..4,20", "2..4,10", "1,2,25"}).str() == "[1,1,400..800,7]");
    CHECK(detection(0, base, {"...", "3,10", "..."}).str() == "[1,1,600,7]");
    CHECK(detection(0, {{"num_classes", "2"}, {"keep_top_k", "-1"}}, {"...", "...", "..."}).str() == "[1,1,?,7]");
}

TEST_CASE("ops-d DetectionOutput: invalid attributes and inputs") {
    const Attrs base{{"num_classes", "2"}, {"keep_top_k", "200"}};
    CHECK(detection(0, base, {"4,20", "4,11", "4,2,25"}).problem() ==
          "class predictions' second dimension 11 must be num_prior_boxes * num_classes (10)");
    CHECK(detection(0, base, {"4,20,1", "4,10", "4,2,25"}).problem() == "Box logits rank must be 2, got 3");
    CHECK(detection(0, base, {"4,20", "4,10", "4,3,25"}).problem() ==
          "proposals' second dimension 3 must be 2 (variance_encoded_in_target=false)");
    CHECK(detection(0, base, {"4,20", "4,10", "4,2,24"}).problem() ==
          "proposals' third dimension 24 must be num_prior_boxes * prior_box_size (25)");
    CHECK(detection(0, base, {"4,20", "3,10", "4,2,25"}).problem() ==
          "class predictions' first dimension 3 is not compatible with the batch size 4");
    CHECK(detection(0, base, {"4,20", "4,10", "4,2,25"}, {f32, f16, f32}).problem() ==
          "class predictions' data type f16 must be the same as box logits' f32");
    CHECK(detection(0, base, {"4,20", "4,10", "4,2,25"}, {i32, i32, i32}).problem() ==
          "box logits' data type must be floating point, got i32");
    CHECK(detection(0, base, {"4,20", "4,10", "4,2,25"}, {f32, f32, f16}).ok());
    CHECK(detection(0, base, {"4,20", "4,10", "4,2,25"}, {f32, f32, i32}).problem() ==
          "proposals' data type must be floating point, got i32");
    CHECK(detection(0, base, {"4,20", "4,10", "4,2,25", "4,10", "4,20"}, {f32, f32, f32, f16, f32}).problem() ==
          "additional class predictions' data type f16 must be the same as class predictions' f32");
    CHECK(detection(0, {{"num_classes", "0"}, {"keep_top_k", "200"}}, {"4,20", "4,10", "4,2,25"}).problem() ==
          "num_classes must be greater than 0, got 0");
    CHECK(detection(0, {{"num_classes", "2"}, {"keep_top_k", "200"}, {"code_type", "corner"}},
                    {"4,20", "4,10", "4,2,25"})
              .problem()
              .starts_with("code_type=\"corner\" is not one of"));
    CHECK(detection(0, base, {"4,20", "4,10", "4,2,25", "4,10"}).problem() ==
          "DetectionOutput takes 3 or 5 inputs, the layer has 4");
}

TEST_CASE("ops-d DetectionOutput-8: the number of classes comes from the inputs") {
    const Attrs keep_all{{"keep_top_k", "-1"}};
    auto r = detection(8, keep_all, {"4,20", "4,10", "4,2,25"});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,1,40,7]");
    CHECK(detection(8, {{"keep_top_k", "-1"}, {"top_k", "3"}}, {"4,20", "4,10", "4,2,25"}).str() == "[1,1,24,7]");
    CHECK(detection(8, keep_all, {"4,20", "4,?", "4,2,25"}).str() == "[1,1,?,7]");
    CHECK(detection(8, keep_all, {"4,20", "4,10", "4,2,24"}).problem() ==
          "proposals' third dimension must be a multiple of 5, got 24");
    CHECK(detection(8, {{"keep_top_k", "10"}}, {"4,20", "4,10", "4,2,25"}).str() == "[1,1,40,7]");
}

namespace {
OpRun nms(int version, Attrs attrs, std::vector<std::string> shapes, std::optional<int64_t> max_boxes,
          std::vector<ElementType> types = {f32, f32, i64, f32, f32, f32}) {
    OpCase c{"NonMaxSuppression", version, std::move(attrs), {}, {}};
    for (size_t i = 0; i < shapes.size(); ++i) c.inputs.push_back(In(shapes[i], types[i]));
    if (max_boxes) c.values[2] = V({*max_boxes});
    return run_op(c);
}
}  // namespace

TEST_CASE("ops-d NonMaxSuppression-1/3: selected boxes bounded by max_output_boxes_per_class * classes") {
    auto r = nms(1, {}, {"1,1000,4", "1,1,1000", "", "", ""}, 3);
    REQUIRE(r.ok());
    CHECK(r.str() == "[3,3]");
    CHECK(r.outputs[0].type == i64);
    r = nms(1, {}, {"1,1000,4", "1,1,1000", "", "", ""}, std::nullopt);
    CHECK(r.str() == "[?,3]");
    CHECK(r.unknown);
    r = nms(3, {{"output_type", "i32"}}, {"2,7,4", "2,5,7", ""}, 3);
    CHECK(r.str() == "[7,3]");  // min(7, 3 * 5)
    CHECK(r.outputs[0].type == i32);
    CHECK(nms(3, {}, {"2,7,4", "2,?,7", ""}, 3).str() == "[?,3]");
    CHECK(nms(3, {}, {"...", "2,5,7", ""}, 3).str() == "[?,3]");
    CHECK(nms(3, {{"output_type", "f32"}}, {"2,7,4", "2,5,7"}, std::nullopt).problem() ==
          "output_type=f32 must be i32 or i64");
    CHECK(nms(1, {{"box_encoding", "edge"}}, {"2,7,4", "2,5,7"}, std::nullopt).problem().starts_with("box_encoding"));
    CHECK(nms(1, {}, {"2,7,4", "2,5,7", "1"}, 3).problem() ==
          "Expected a scalar for the 'max_output_boxes_per_class' input, got [1]");
}

TEST_CASE("ops-d NonMaxSuppression-4: selected boxes times the batch and classes") {
    auto r = nms(4, {}, {"2,7,4", "2,5,7", ""}, 3);
    REQUIRE(r.ok());
    CHECK(r.str() == "[30,3]");
    CHECK(nms(4, {}, {"2,7,4", "1..2,5,7", ""}, 3).str() == "[30,3]");
    CHECK(nms(4, {}, {"2,7,4", "?,5,7", ""}, 3).str() == "[?,3]");
    CHECK(nms(4, {}, {"2,7,4", "2,5,7", ""}, std::nullopt).str() == "[?,3]");
    CHECK(nms(4, {}, {"2,7,5", "2,5,7"}, std::nullopt).problem() ==
          "the last dimension of the 'boxes' input [2,7,5] must be 4");
    CHECK(nms(4, {}, {"2,7,4", "3,5,7"}, std::nullopt).problem() ==
          "the first dimension of 'boxes' [2,7,4] and 'scores' [3,5,7] must match");
    CHECK(nms(4, {}, {"2,7,4", "2,5,6"}, std::nullopt).problem() ==
          "'boxes' [2,7,4] and 'scores' [2,5,6] must match at the second and third dimension respectively");
}

TEST_CASE("ops-d NonMaxSuppression-5/9: three outputs with bounded counts") {
    auto r = nms(5, {{"output_type", "i32"}}, {"2,7,4", "2,5,7", "", "", "", ""}, 3);
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[..30,3]");
    CHECK(r.str(1) == "[..30,3]");
    CHECK(r.str(2) == "[1]");
    CHECK(r.outputs[0].type == i32);
    CHECK(r.outputs[1].type == f32);
    CHECK(r.outputs[2].type == i32);
    r = nms(9, {}, {"2,7,4", "2,5,7"}, std::nullopt);
    CHECK(r.str() == "[?,3]");  // no max_output_boxes_per_class: unbounded
    CHECK_FALSE(r.unknown);
    CHECK(nms(9, {}, {"2,7,4", "2,5,7", "1"}, 10).str() == "[..70,3]");
    CHECK(nms(9, {}, {"2,?,4", "2,5,?", "1"}, 10).str() == "[?,3]");
    CHECK(nms(9, {}, {"2,7", "2,5,7"}, std::nullopt).problem() ==
          "Expected a 3D tensor for the 'boxes' input, got [2,7]");
    CHECK(nms(5, {}, {"2,7,4", "2,5,7", "2"}, 3).problem() ==
          "Expected a 0D or 1D tensor of one element for the 'max_output_boxes_per_class' input, got [2]");
    CHECK(nms(5, {}, {"2,7,4", "2,5,7"}, std::nullopt, {i32, f32}).problem() ==
          "Expected bf16, f16 or f32 as element type for the 'boxes' input, got i32");
}

TEST_CASE("type_prop NonMaxSuppression: the checks every version makes") {
    for (const int v : {1, 3, 4, 5, 9}) {
        INFO("NonMaxSuppression-" << v);
        CHECK(nms(v, {}, {"1,2,3,4", "1,2,3"}, std::nullopt).problem() ==
              "Expected a 3D tensor for the 'boxes' input, got [1,2,3,4]");
        CHECK(nms(v, {}, {"1,2,3", "1,2"}, std::nullopt).problem() ==
              "Expected a 3D tensor for the 'scores' input, got [1,2]");
        CHECK(nms(v, {}, {"1,2,3", "2,2,3"}, std::nullopt).problem() ==
              "the first dimension of 'boxes' [1,2,3] and 'scores' [2,2,3] must match");
        CHECK(nms(v, {}, {"1,2,3", "1,2,3"}, std::nullopt).problem() ==
              "'boxes' [1,2,3] and 'scores' [1,2,3] must match at the second and third dimension respectively");
    }
}

TEST_CASE("type_prop NonMaxSuppression-1/3/4: a static count where the dims and the maximum say it") {
    for (const int v : {1, 3, 4}) {
        INFO("NonMaxSuppression-" << v);
        CHECK(nms(v, {}, {"1,2,4", "1,2,2", "1", "", ""}, std::nullopt).problem() ==
              "Expected a scalar for the 'max_output_boxes_per_class' input, got [1]");
        CHECK(nms(v, {}, {"1,2,4", "1,2,2", "", "1", ""}, std::nullopt).problem() ==
              "Expected a scalar for the 'iou_threshold' input, got [1]");
        CHECK(nms(v, {}, {"1,2,4", "1,2,2", "", "", "1"}, std::nullopt).problem() ==
              "Expected a scalar for the 'score_threshold' input, got [1]");
        CHECK(nms(v, {}, {"1,2,4", "1,2,2", "", "", ""}, 0).str() == "[0,3]");
        CHECK(nms(v, {}, {"1,6,4", "1,1,6", "", "", ""}, 3).str() == "[3,3]");
        const auto r = nms(v, {}, {"1,1,4", "1,1,1", "", "", ""}, 3);
        CHECK(r.str() == "[1,3]");
        CHECK(r.outputs[0].type == i64);
        CHECK(nms(v, {}, {"1..2,2..5,..4", "..2,1..2,..6", "", "", ""}, 3).str() == "[?,3]");
        CHECK(nms(v, {}, {"1..2,2..5,..4", "...", "", "", ""}, 3).str() == "[?,3]");
        CHECK(nms(v, {}, {"...", "...", "", "", ""}, 3).str() == "[?,3]");
    }
    auto r = nms(3, {{"output_type", "i32"}}, {"1,1,4", "1,1,1", "", "", ""}, 3);
    CHECK(r.str() == "[1,3]");
    CHECK(r.outputs[0].type == i32);
    r = nms(4, {{"output_type", "i32"}}, {"2,7,4", "2,5,7", "", "", ""}, 3);
    CHECK(r.str() == "[30,3]");
    CHECK(r.outputs[0].type == i32);
    // Version 4 needs the scores' rank: without it the count is unknown.
    CHECK(nms(4, {}, {"2,7,4", "...", "", "", ""}, 3).str() == "[?,3]");
}

TEST_CASE("type_prop NonMaxSuppression-5/9: the count's upper bound from the dims' upper bounds") {
    for (const int v : {5, 9}) {
        INFO("NonMaxSuppression-" << v);
        const std::string names[] = {"max_output_boxes_per_class", "iou_threshold", "score_threshold",
                                     "soft_nms_sigma"};
        for (size_t i = 2; i < 6; ++i) {
            std::vector<std::string> shapes{"1,2,4", "1,2,2", "", "", "", ""};
            shapes[i] = "2";
            CHECK(nms(v, {}, shapes, std::nullopt).problem() ==
                  "Expected a 0D or 1D tensor of one element for the '" + names[i - 2] + "' input, got [2]");
        }
        auto r = nms(v, {}, {"5,2,4", "5,3,2"}, std::nullopt);
        REQUIRE(r.outputs.size() == 3);
        CHECK(r.str(0) == "[?,3]");
        CHECK(r.str(1) == "[?,3]");
        CHECK(r.str(2) == "[1]");
        CHECK(r.outputs[0].type == i64);
        CHECK(r.outputs[1].type == f32);
        CHECK(r.outputs[2].type == i64);
        CHECK(nms(v, {}, {"2,7,4", "2,5,7", "", "", ""}, 3).str() == "[..30,3]");
        CHECK(nms(v, {}, {"2,7,4", "2,5,7", "", "", ""}, 1000).str() == "[..70,3]");
        r = nms(v, {}, {"2,7,4", "2,5,7", "", "", ""}, 0);
        CHECK(r.str(0) == "[0,3]");
        CHECK(r.str(1) == "[0,3]");
        r = nms(v, {}, {"..2,..7,4", "..2,..5,1..7", "", "", ""}, 1000);
        CHECK(r.str(0) == "[..70,3]");
        CHECK(r.str(1) == "[..70,3]");
        CHECK(nms(v, {}, {"2,?,4", "2,..5,1..7", "", "", ""}, 5).str() == "[?,3]");
        r = nms(v, {{"output_type", "i32"}}, {"2,7,4", "2,5,7", "", "", ""}, 3);
        CHECK(r.str() == "[..30,3]");
        CHECK(r.outputs[0].type == i32);
        CHECK(r.outputs[2].type == i32);
        CHECK(nms(v, {}, {"...", "...", "", "", ""}, 3).str() == "[?,3]");
        r = nms(v, {}, {"5,2,4", "5,3,2"}, std::nullopt, {ElementType::dynamic, ElementType::dynamic});
        CHECK(r.str() == "[?,3]");
        CHECK(r.outputs[1].type == f32);
        CHECK(nms(v, {}, {"5,2,4", "...", "", "", ""}, 3).str() == "[?,3]");
    }
}

namespace {
OpRun proposal(int version, std::vector<std::string> shapes, Attrs attrs = {{"post_nms_topn", "200"}}) {
    OpCase c{"Proposal", version, std::move(attrs), {}, {}};
    for (const auto& s : shapes) c.inputs.push_back(In(s, f32));
    return run_op(c);
}
}  // namespace

TEST_CASE("ops-d Proposal-0/4: rois per image times the batch") {
    auto r = proposal(0, {"1,12,34,62", "1,24,34,62", "3"});
    REQUIRE(r.ok());
    CHECK(r.str() == "[200,5]");
    CHECK(r.outputs[0].type == f32);
    r = proposal(4, {"2..4,12,34,62", "?,24,34,62", "4"});
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[400..800,5]");
    CHECK(r.str(1) == "[400..800]");
    CHECK(proposal(0, {"...", "...", "..."}).str() == "[?,5]");
    CHECK(proposal(0, {"1,12,34,62", "1,23,34,62", "3"}).problem() ==
          "anchor number inconsistent between class_probs (12 * 2 = 24) and bbox_deltas (23)");
    CHECK(proposal(0, {"1,12,34,62", "2,24,34,62", "3"}).problem() ==
          "batch size inconsistent between class_probs (1) and bbox_deltas (2)");
    CHECK(proposal(0, {"1,12,34,62", "1,24,34,62", "5"}).problem() == "image_shape must have 3 or 4 elements, got 5");
    CHECK(proposal(0, {"1,12,34", "1,24,34,62", "3"}).problem().starts_with("class_probs [1,12,34]"));
    OpCase c{"Proposal", 0, {{"post_nms_topn", "200"}}, {In("1,12,34,62"), In("1,24,34,62"), In("3", i64)}, {}};
    CHECK(run_op(c).problem() == "Proposal's image_shape must be of a floating point type, got i64");
}

TEST_CASE("ops-d ROIPooling and PSROIPooling") {
    OpCase c{"ROIPooling", 0, {{"pooled_h", "2"}, {"pooled_w", "3"}, {"spatial_scale", "0.625"}, {"method", "max"}},
             {In("1,3,6,6"), In("3,5")}, {}};
    auto r = run_op(c);
    REQUIRE(r.ok());
    CHECK(r.str() == "[3,3,2,3]");
    CHECK(r.outputs[0].type == f32);
    c.inputs = {In("..."), In("...")};
    CHECK(run_op(c).str() == "[?,?,2,3]");
    c.inputs = {In("1,3,6,6"), In("3,4")};
    CHECK(run_op(c).problem() == "the second dimension of the ROIs input 4 must be 5 (batch id and box coordinates)");
    c.inputs = {In("1,3,6,6"), In("3,5")};
    c.attrs = {{"pooled_h", "2"}, {"pooled_w", "2"}, {"spatial_scale", "0"}};
    CHECK(run_op(c).problem() == "spatial_scale=0 must be a positive floating point number");
    c.attrs = {{"pooled_h", "2"}, {"pooled_w", "0"}, {"spatial_scale", "1"}};
    CHECK(run_op(c).problem() == "pooled_h=2 and pooled_w=0 must be positive integers");
    c.attrs = {{"output_size", "4,5"}, {"spatial_scale", "1"}};
    CHECK(run_op(c).str() == "[3,3,4,5]");
    c.attrs = {{"spatial_scale", "1"}};
    CHECK(run_op(c).problem() == "pooled_h=0 and pooled_w=0 must be positive integers");

    OpCase p{"PSROIPooling", 0, {{"output_dim", "2"}, {"group_size", "6"}, {"spatial_scale", "1"}, {"mode", "average"}},
             {In("1,72,4,5"), In("150,5")}, {}};
    r = run_op(p);
    REQUIRE(r.ok());
    CHECK(r.str() == "[150,2,6,6]");
    p.attrs = {{"output_dim", "8"}, {"group_size", "6"}, {"spatial_scale", "1"}, {"mode", "bilinear"},
               {"spatial_bins_x", "3"}, {"spatial_bins_y", "3"}};
    CHECK(run_op(p).str() == "[150,8,6,6]");
    p.attrs = {{"output_dim", "3"}, {"group_size", "6"}, {"spatial_scale", "1"}, {"mode", "average"}};
    CHECK(run_op(p).problem() == "the input's channels 72 must be output_dim * group_size * group_size = 108");
    p.attrs = {{"output_dim", "2"}, {"group_size", "0"}, {"spatial_scale", "1"}};
    CHECK(run_op(p).problem() == "group_size=0 must be greater than 0");
}

TEST_CASE("ops-d ROIAlign-3/9") {
    const Attrs attrs{{"pooled_h", "2"}, {"pooled_w", "3"}, {"sampling_ratio", "1"}, {"spatial_scale", "1"},
                      {"mode", "avg"}};
    OpCase c{"ROIAlign", 3, attrs, {In("2,3,5,5"), In("7,4"), In("7", i64)}, {}};
    auto r = run_op(c);
    REQUIRE(r.ok());
    CHECK(r.str() == "[7,3,2,3]");
    CHECK(r.outputs[0].type == f32);
    c.inputs = {In("..."), In("?,4"), In("5..9", i64)};
    CHECK(run_op(c).str() == "[5..9,?,2,3]");
    c.inputs = {In("2,3,5,5"), In("7,4"), In("6", i64)};
    CHECK(run_op(c).problem() == "the first dimension of ROIs 7 must equal that of the batch indices 6");
    c.inputs = {In("2,3,5,5"), In("7,4", f16), In("7", i64)};
    CHECK(run_op(c).problem() ==
          "the data type for input and ROIs must be a same floating point type, got f32 and f16");
    c.version = 9;
    c.attrs = attrs;
    c.attrs.emplace_back("aligned_mode", "half_pixel");
    c.inputs = {In("2,3,5,5", f16), In("7,4", f16), In("7", i32)};
    r = run_op(c);
    CHECK(r.str() == "[7,3,2,3]");
    CHECK(r.outputs[0].type == f16);
    c.attrs.back().second = "nearest";
    CHECK(run_op(c).problem().starts_with("aligned_mode=\"nearest\" is not one of"));
}

TEST_CASE("ops-d RegionYolo and ReorgYolo") {
    OpCase c{"RegionYolo", 0,
             {{"classes", "20"}, {"coords", "4"}, {"num", "5"}, {"do_softmax", "true"}, {"axis", "1"}, {"end_axis", "3"}},
             {In("1,125,13,13")}, {}};
    auto r = run_op(c);
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,21125]");
    c.attrs = {{"classes", "80"}, {"coords", "4"}, {"num", "9"}, {"do_softmax", "false"}, {"mask", "0,1,2"}};
    c.inputs = {In("?,255,13,13")};
    CHECK(run_op(c).str() == "[?,255,13,13]");
    c.inputs = {In("...")};
    CHECK(run_op(c).str() == "[...]");
    c.inputs = {In("1,255,13")};
    CHECK(run_op(c).problem() == "Input must be a tensor of rank 4, got [1,255,13]");

    OpCase g{"ReorgYolo", 0, {{"stride", "2"}}, {In("1,64,26,26")}, {}};
    r = run_op(g);
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,256,13,13]");
    g.inputs = {In("?,?,4..9,?")};
    CHECK(run_op(g).str() == "[?,?,2..4,?]");
    g.inputs = {In("1,64,25,26")};
    CHECK(run_op(g).problem() == "H and W of [1,64,25,26] must be divisible by stride 2");
    g.inputs = {In("1,3,26,26")};
    CHECK(run_op(g).problem() == "C 3 must be at least stride*stride = 4");
}

TEST_CASE("ops-d ReadValue and Assign") {
    auto r = run_op({"ReadValue", 3, {{"variable_id", "v"}}, {In("1,3", f16)}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,3]");
    CHECK(r.outputs[0].type == f16);
    CHECK(run_op({"ReadValue", 3, {}, {In("1,3")}, {}}).problem() == "variable_id is missing (the variable's name)");
    r = run_op({"ReadValue", 6, {{"variable_id", "v"}, {"variable_shape", "1,?"}, {"variable_type", "f32"}},
                {In("1,3")}, {}});
    REQUIRE(r.ok());
    CHECK(r.str() == "[1,?]");
    CHECK(r.outputs[0].type == f32);
    r = run_op({"ReadValue", 6, {{"variable_id", "v"}, {"variable_shape", "[2,3]"}, {"variable_type", "i32"}}, {}, {}});
    CHECK(r.str() == "[2,3]");
    CHECK(r.outputs[0].type == i32);
    // Without variable_shape and variable_type, the variable is built from the initial value.
    r = run_op({"ReadValue", 6, {{"variable_id", "v"}}, {In("1,3")}, {}});
    CHECK(r.str() == "[1,3]");
    CHECK(r.outputs[0].type == f32);
    r = run_op({"ReadValue", 6, {{"variable_id", "v"}}, {}, {}});
    CHECK(r.str() == "[...]");
    CHECK_FALSE(r.outputs[0].type);
    CHECK(run_op({"ReadValue", 6, {{"variable_id", "v"}, {"variable_shape", "1,2..3"}, {"variable_type", "f32"}},
                  {In("1,?")}, {}})
              .problem() == "the shape [1,?] of the initial value is not within the variable's shape [1,2..3]");
    CHECK(run_op({"ReadValue", 6, {{"variable_id", "v"}, {"variable_shape", "1,3"}, {"variable_type", "f32"}},
                  {In("1,3", f16)}, {}})
              .problem() == "the type f16 of the initial value is not the variable's type f32");

    for (const int version : {3, 6}) {
        r = run_op({"Assign", version, {{"variable_id", "v"}}, {In("?,3", i64)}, {}});
        CHECK(r.str() == "[?,3]");
        CHECK(r.outputs[0].type == i64);
    }
}

TEST_CASE("ops-d GRUCell, RNNCell, LSTMCell") {
    OpCase c{"GRUCell", 3, {{"hidden_size", "4"}}, {In("2,3"), In("2,4"), In("12,3"), In("12,4"), In("12")}, {}};
    auto r = run_op(c);
    REQUIRE(r.ok());
    CHECK(r.str() == "[2,4]");
    CHECK(r.outputs[0].type == f32);
    c.attrs = {{"hidden_size", "4"}, {"linear_before_reset", "true"}};
    CHECK(run_op(c).problem() == "dim 0 of B (12) must be hidden_size * 4 = 16");
    c.inputs[4] = In("16");
    CHECK(run_op(c).str() == "[2,4]");
    c.inputs = {In("?,3"), In("..."), In("12,3"), In("12,?"), In("...")};
    CHECK(run_op(c).str() == "[?,4]");  // hidden size from W's 12 / 3 gates
    c.inputs = {In("2,3"), In("3,4"), In("12,3"), In("12,4"), In("12")};
    CHECK(run_op(c).problem() == "dimension `batch_size` does not match between inputs: 2 and 3");
    c.inputs = {In("2,3"), In("2,4"), In("11,3"), In("12,4"), In("16")};
    CHECK(run_op(c).problem() == "dim 0 of W (11) must be hidden_size * 3 = 12");

    OpCase rnn{"RNNCell", 0, {{"hidden_size", "4"}}, {In("2,3"), In("2,4"), In("4,3"), In("4,4"), In("4")}, {}};
    CHECK(run_op(rnn).str() == "[2,4]");
    rnn.inputs[1] = In("2,4,1");
    CHECK(run_op(rnn).problem() == "input 1 must have rank 2, got [2,4,1]");

    OpCase lstm{"LSTMCell", 4, {{"hidden_size", "4"}},
                {In("2..3,3"), In("2,4"), In("?,4"), In("16,3"), In("16,4"), In("16")}, {}};
    r = run_op(lstm);
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[2,4]");
    CHECK(r.str(1) == "[2,4]");
    lstm.version = 0;
    lstm.inputs.push_back(In("12"));
    CHECK(run_op(lstm).str(1) == "[2,4]");
    lstm.inputs.back() = In("8");
    CHECK(run_op(lstm).problem() == "dim 0 of P (8) must be hidden_size * 3 = 12");
    lstm.inputs[2] = In("2,4", f16);
    lstm.inputs.pop_back();
    CHECK(run_op(lstm).problem() == "element types of the inputs do not match: input 2 is f16, earlier ones f32");
}

TEST_CASE("ops-d GRUSequence, LSTMSequence, RNNSequence") {
    OpCase gru{"GRUSequence", 5, {{"hidden_size", "4"}, {"direction", "forward"}},
               {In("2,10,3"), In("2,1,4"), In("2", i32), In("1,12,3"), In("1,12,4"), In("1,12")}, {}};
    auto r = run_op(gru);
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[2,1,10,4]");
    CHECK(r.str(1) == "[2,1,4]");
    gru.attrs = {{"hidden_size", "4"}, {"direction", "bidirectional"}};
    CHECK(run_op(gru).problem() ==
          "dimension `num_directions` does not match between the inputs and direction=bidirectional");
    gru.attrs = {{"hidden_size", "4"}, {"direction", "sideways"}};
    CHECK(run_op(gru).problem().starts_with("direction=\"sideways\" is not one of"));

    OpCase lstm{"LSTMSequence", 5, {{"hidden_size", "4"}, {"direction", "bidirectional"}},
                {In("2,?,3"), In("?,2,4"), In("...", f32), In("2", i64), In("2,16,3"), In("2,16,4"), In("2,16")}, {}};
    r = run_op(lstm);
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[2,2,?,4]");
    CHECK(r.str(2) == "[2,2,4]");
    lstm.inputs[3] = In("3", i64);
    CHECK(run_op(lstm).problem() == "dimension `batch_size` does not match between inputs: 2 and 3");
    lstm.inputs[3] = In("2", f32);
    CHECK(run_op(lstm).problem() == "sequence_lengths must be of an integer type, got f32");
    lstm.version = 0;
    lstm.inputs[3] = In("2", i64);
    lstm.inputs.push_back(In("2,12"));
    CHECK(run_op(lstm).str(1) == "[2,2,4]");

    OpCase rnn{"RNNSequence", 5, {{"hidden_size", "4"}, {"direction", "reverse"}},
               {In("2,10,3"), In("...", f32), In("2", i32), In("1,4,3"), In("?,?,4"), In("1,?")}, {}};
    r = run_op(rnn);
    CHECK(r.str(0) == "[2,1,10,4]");
    CHECK(r.str(1) == "[2,1,4]");
}

TEST_CASE("ops-d CTCGreedyDecoder") {
    OpCase c{"CTCGreedyDecoder", 0, {{"ctc_merge_repeated", "true"}}, {In("100,3,1200", f16), In("100,3")}, {}};
    auto r = run_op(c);
    REQUIRE(r.ok());
    CHECK(r.str() == "[3,100,1,1]");
    CHECK(r.outputs[0].type == f16);
    c.inputs = {In("..."), In("?,2..5")};
    CHECK(run_op(c).str() == "[2..5,?,1,1]");
    c.inputs = {In("..."), In("...")};
    CHECK(run_op(c).str() == "[?,?,1,1]");
    c.inputs = {In("100,3,1200"), In("100,4")};
    CHECK(run_op(c).problem() == "logits [100,3,1200] and the sequence mask [100,4] differ in their second dimension");
    c.inputs = {In("100,3"), In("100,3")};
    CHECK(run_op(c).problem() == "the rank of logits [100,3] must be 3");
}

TEST_CASE("type_prop CTCGreedyDecoderSeqLen-6: outputs [N,T] and [N] in the attributes' types") {
    const auto decoder = [](std::vector<OpInput> inputs, Attrs attrs = {}) {
        return run_op({"CTCGreedyDecoderSeqLen", 6, std::move(attrs), std::move(inputs), {}});
    };
    auto r = decoder({In("3,100,1200"), In("3", i32)});
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 2);
    CHECK(r.str(0) == "[3,100]");
    CHECK(r.str(1) == "[3]");
    CHECK(r.outputs[0].type == i32);
    CHECK(r.outputs[1].type == i32);
    const Attrs i64_types{{"merge_repeated", "false"}, {"classes_index_type", "i64"}, {"sequence_length_type", "i64"}};
    r = decoder({In("3,100,1200"), In("3", i32), In("", i32)}, i64_types);
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[3,100]");
    CHECK(r.outputs[0].type == i64);
    CHECK(r.outputs[1].type == i64);
    r = decoder({In("3,100,1200"), In("3", i32), In("?", i32)}, i64_types);
    CHECK(r.str(0) == "[3,100]");
    CHECK(r.str(1) == "[3]");
    r = decoder({In("?,100,1200"), In("3", i32)});
    CHECK(r.str(0) == "[3,100]");
    CHECK(r.str(1) == "[3]");
    r = decoder({In("?,?,1200"), In("?", i32)});
    CHECK(r.str(0) == "[?,?]");
    CHECK(r.str(1) == "[?]");
    r = decoder({In("..."), In("?", i32)});
    CHECK(r.str(0) == "[?,?]");
    CHECK(r.str(1) == "[?]");
    r = decoder({In("..."), In("...", i32)});
    CHECK(r.str(0) == "[?,?]");
    CHECK(r.str(1) == "[?]");
    CHECK(decoder({In("?,100,1200,5"), In("3", i32)}).problem() == "the rank of logits [?,100,1200,5] must be 3");
    CHECK(decoder({In("3,100,1200"), In("3,100", i32)}).problem() ==
          "the rank of the sequence lengths [3,100] must be 1");
    CHECK(decoder({In("4,100,1200"), In("3", i32)}).problem() ==
          "logits [4,100,1200] and the sequence lengths [3] differ in their first dimension");
    CHECK(decoder({In("3,100,1200"), In("3", i32), In("2", i32)}).problem() ==
          "the blank index [2] must be a scalar or hold one value");
    CHECK(decoder({In("3,100,1200"), In("3", i32), In("", f32)}).problem() ==
          "the blank index is f32; it must be an integer type");
}

TEST_CASE("type_prop GatherTree-1: step_ids' shape merged with parent_idx and max_seq_len") {
    const auto gather_tree = [](const char* step_ids, const char* parent_idx, const char* max_seq_len,
                                const char* end_token, std::array<ElementType, 4> types = {i32, i32, i32, i32}) {
        return run_op({"GatherTree",
                       1,
                       {},
                       {In(step_ids, types[0]), In(parent_idx, types[1]), In(max_seq_len, types[2]),
                        In(end_token, types[3])},
                       {}});
    };
    auto r = gather_tree("100,1,10", "100,1,10", "1", "");
    REQUIRE(r.ok());
    CHECK(r.str() == "[100,1,10]");
    CHECK(r.outputs[0].type == i32);
    r = gather_tree("100,1,10", "100,1,10", "1", "", {f32, f32, f32, f32});
    CHECK(r.outputs[0].type == f32);
    CHECK(gather_tree("?,?,10", "100,?,?", "2..4", "").str() == "[100,2..4,10]");
    CHECK(gather_tree("...", "100,?,?", "5", "...").str() == "[100,5,?]");
    CHECK(gather_tree("...", "...", "...", "...").str() == "[...]");
    CHECK(gather_tree("100,1,10", "100,2,10", "1", "").problem() ==
          "step_ids [100,1,10] and parent_idx [100,2,10] must have one shape of rank 3");
    CHECK(gather_tree("100,1", "100,1", "1", "").problem() ==
          "step_ids [100,1] and parent_idx [100,1] must have one shape of rank 3");
    CHECK(gather_tree("100,1,10", "100,1,10", "1,1", "").problem() == "max_seq_len [1,1] must have rank 1");
    CHECK(gather_tree("100,1,10", "100,1,10", "2", "").problem() ==
          "max_seq_len [2] must have as many elements as the batch 1 of step_ids");
    CHECK(gather_tree("100,1,10", "100,1,10", "1", "1").problem() == "end_token [1] must be a scalar");
    CHECK(gather_tree("100,1,10", "100,1,10", "1", "", {i32, i32, i64, i32}).problem() ==
          "the inputs must have one element type: i32 and i64");
    CHECK(gather_tree("100,1,10", "100,1,10", "1", "",
                      {ElementType::boolean, ElementType::boolean, ElementType::boolean, ElementType::boolean})
              .problem() == "the element type of the inputs must be numeric, it is boolean");
}

TEST_CASE("ops-d ExperimentalDetectron ops") {
    OpCase d{"ExperimentalDetectronDetectionOutput", 6, {{"num_classes", "81"}, {"max_detections_per_image", "100"}},
             {In("1000,4"), In("1000,324"), In("1000,81"), In("1,3")}, {}};
    auto r = run_op(d);
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[100,4]");
    CHECK(r.str(1) == "[100]");
    CHECK(r.outputs[1].type == i32);
    CHECK(r.outputs[2].type == f32);
    d.inputs[1] = In("1000,320");
    CHECK(run_op(d).problem() == "dim 1 of the 'input_deltas' input [1000,320] must be 324");
    d.inputs[1] = In("999,324");
    CHECK(run_op(d).problem().starts_with("the first dims of input_rois [1000,4]"));

    OpCase g{"ExperimentalDetectronGenerateProposalsSingleImage", 6, {{"post_nms_count", "1000"}},
             {In("3"), In("201600,4"), In("12,200,336"), In("3,200,336")}, {}};
    r = run_op(g);
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[1000,4]");
    CHECK(r.str(1) == "[1000]");
    g.inputs[3] = In("3,200,335");
    CHECK(run_op(g).problem() ==
          "input_deltas [12,200,336] and input_scores [3,200,335] must have the same height and width");

    OpCase p{"ExperimentalDetectronPriorGridGenerator", 6, {{"flatten", "true"}},
             {In("3,4"), In("1,256,200,336"), In("1,3,800,1344")}, {}};
    CHECK(run_op(p).str() == "[201600,4]");
    p.attrs = {{"flatten", "false"}};
    CHECK(run_op(p).str() == "[200,336,3,4]");
    p.inputs[1] = In("...");
    CHECK(run_op(p).str() == "[?,?,3,4]");

    OpCase f{"ExperimentalDetectronROIFeatureExtractor", 6, {{"output_size", "7"}},
             {In("1000,4"), In("1,256,200,336"), In("1,256,100,168"), In("...")}, {}};
    r = run_op(f);
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[1000,256,7,7]");
    CHECK(r.str(1) == "[1000,4]");
    f.inputs[2] = In("1,128,100,168");
    CHECK(run_op(f).problem() == "the pyramid levels differ in their channels: [1,128,100,168] against 256");

    OpCase t{"ExperimentalDetectronTopKROIs", 6, {{"max_rois", "1000"}}, {In("5000,4"), In("5000")}, {}};
    CHECK(run_op(t).str() == "[1000,4]");
    t.inputs[1] = In("4000");
    CHECK(run_op(t).problem() == "the number of rois 5000 and of probabilities 4000 must be equal");
}

TEST_CASE("ops-d LSTM cells fall back on hidden_size; LSTMCell-0 fills B and P") {
    OpCase lstm{"LSTMCell", 4, {{"hidden_size", "4"}},
                {In("2,3"), In("2,?"), In("..."), In("..."), In("?,?"), In("...")}, {}};
    auto r = run_op(lstm);
    REQUIRE(r.ok());
    CHECK(r.str(0) == "[2,4]");
    CHECK(r.str(1) == "[2,4]");
    OpCase gru{"GRUCell", 3, {{"hidden_size", "4"}}, {In("2,3"), In("2,?"), In("..."), In("?,?"), In("...")}, {}};
    CHECK(run_op(gru).str() == "[2,?]");  // the attribute is not used

    OpCase v0{"LSTMCell", 0, {{"hidden_size", "4"}}, {In("2,3"), In("2,4"), In("2,4"), In("16,3"), In("16,4")}, {}};
    r = run_op(v0);
    REQUIRE(r.ok());
    CHECK(r.str(1) == "[2,4]");
    v0.attrs = {{"hidden_size", "5"}};
    CHECK(run_op(v0).problem() == "dim 0 of B (20) must be hidden_size * 4 = 16");
    v0.inputs.push_back(In("16"));
    CHECK(run_op(v0).problem() == "dim 0 of P (15) must be hidden_size * 3 = 12");

    OpCase seq{"GRUSequence", 5, {{"hidden_size", "4"}, {"direction", "forward"}},
               {In("2,10,3"), In("..."), In("2", i32), In("1,12,3"), In("1,12,?"), In("...")}, {}};
    r = run_op(seq);
    CHECK(r.str(0) == "[2,1,10,4]");
    seq.inputs[3] = In("?,12,3");
    seq.inputs[4] = In("?,12,?");
    CHECK(run_op(seq).str(0) == "[2,1,10,?]");  // W's and R's dim 0 is not static
    seq.inputs[3] = In("1,13,3");
    CHECK(run_op(seq).problem() == "dimension `hidden_size` does not match between inputs: ? and a dim not divisible by the gate count");
}

TEST_CASE("ops-d MulticlassNms, MatrixNms, NMSRotated, GenerateProposals: selected counts from 0 to the most") {
    auto r = run_op(OpCase{"MulticlassNms", 9, {{"nms_top_k", "3"}, {"output_type", "i32"}},
                           {In("2,7,4"), In("2,5,7")}, {}});
    REQUIRE(r.outputs.size() == 3);
    CHECK(r.str(0) == "[..30,6]");  // min(7, 3) boxes * 5 classes * 2 images
    CHECK(r.str(1) == "[..30,1]");
    CHECK(r.str(2) == "[2]");
    CHECK(type_of(r, 1) == "i32");
    r = run_op(OpCase{"MulticlassNms", 9, {{"keep_top_k", "8"}}, {In("5,100,4"), In("5,100"), In("3", i32)}, {}});
    CHECK(r.str(0) == "[..24,6]");  // keep_top_k 8 * 3 images
    CHECK(r.str(2) == "[3]");
    CHECK(run_op(OpCase{"MulticlassNms", 8, {}, {In("?,?,4"), In("?,?,?")}, {}}).str(0) == "[?,6]");
    CHECK(run_op(OpCase{"MulticlassNms", 9, {{"nms_top_k", "-2"}}, {In("2,7,4"), In("2,5,7")}, {}}).problem() ==
          "nms_top_k=-2 must be -1 or more");
    CHECK(run_op(OpCase{"MulticlassNms", 9, {}, {In("2,7,5"), In("2,5,7")}, {}}).problem() ==
          "the last dimension of the 'boxes' input [2,7,5] must be 4");
    r = run_op(OpCase{"MatrixNms", 8, {{"nms_top_k", "3"}, {"keep_top_k", "10"}}, {In("2,7,4"), In("2,5,7")}, {}});
    CHECK(r.str(0) == "[..20,6]");  // min(3 * 5, 10) * 2
    OpCase rotated{"NMSRotated", 13, {}, {In("1,10,5"), In("1,2,10"), In("", i64), In(""), In("")}, {}};
    rotated.values[2] = V({3});
    r = run_op(rotated);
    CHECK(r.str(0) == "[..6,3]");
    CHECK(type_of(r, 1) == "f32");
    rotated.inputs[0] = In("1,10,4");
    CHECK(run_op(rotated).problem() == "the last dimension of the 'boxes' input [1,10,4] must be 5");
    r = run_op(OpCase{"GenerateProposals", 9, {{"post_nms_count", "1000"}, {"pre_nms_count", "6000"}},
                      {In("2,3"), In("50,50,3,4"), In("2,12,50,50"), In("2,3,50,50")}, {}});
    CHECK(r.str(0) == "[..2000,4]");
    CHECK(r.str(1) == "[..2000]");
    CHECK(r.str(2) == "[2]");
    CHECK(run_op(OpCase{"GenerateProposals", 9, {{"post_nms_count", "1000"}, {"pre_nms_count", "6000"}},
                        {In("2,3"), In("50,50,3,4"), In("2,12,50,50"), In("2,4,50,50")}, {}})
              .problem() == "'input_deltas' [2,12,50,50] must be [batch, 4*anchors, H, W] of 'input_scores' "
                            "[2,4,50,50] and 'input_im_info' [2,3]");
}

TEST_CASE("ops-d ROIAlignRotated and DeformablePSROIPooling") {
    const Attrs pooled{{"pooled_h", "4"}, {"pooled_w", "6"}, {"sampling_ratio", "2"}, {"spatial_scale", "1"}};
    CHECK(run_op(OpCase{"ROIAlignRotated", 15, pooled, {In("2,3,20,20"), In("7,5"), In("7", i32)}, {}}).str() ==
          "[7,3,4,6]");
    CHECK(run_op(OpCase{"ROIAlignRotated", 15, pooled, {In("2,3,20,20"), In("7,4"), In("7", i32)}, {}}).problem() ==
          "the second dimension of the ROIs input 4 must be 5 (box coordinates)");
    const Attrs psroi{{"output_dim", "2"}, {"group_size", "3"}, {"spatial_scale", "0.0625"}};
    CHECK(run_op(OpCase{"DeformablePSROIPooling", 1, psroi, {In("1,18,20,20"), In("100,5")}, {}}).str() ==
          "[100,2,3,3]");
    CHECK(run_op(OpCase{"DeformablePSROIPooling", 1, psroi, {In("1,18,20,20"), In("100,5"), In("100,4,3,3")}, {}})
              .str() == "[100,2,3,3]");
    CHECK(run_op(OpCase{"DeformablePSROIPooling", 1, {{"output_dim", "0"}, {"spatial_scale", "1"}},
                        {In("1,18,20,20"), In("100,5")}, {}})
              .problem() == "output_dim=0 must be greater than 0");
}
