// ONNX pooling: version resolution, each version's attributes and output-size rule, the check of declared
// shapes, the cross-check with ONNX's own shape inference, .pb tensors and the ONNX-only kernel steps.
#include <doctest/doctest.h>

#include <array>

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>

#include <fmt/format.h>
#include <onnx/defs/parser.h>
#include <onnx/onnx_pb.h>

#include "exec/io/npy.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "onnx/onnx_check.hpp"
#include "onnx/onnx_divergence.hpp"
#include "onnx/onnx_kernel.hpp"
#include "rules/onnx_pool.hpp"
#include "onnx/onnx_reshape.hpp"
#include "onnx/onnx_run.hpp"
#include "onnx/onnx_tensor.hpp"
#include "rules/registry.hpp"

using namespace irlint;

namespace {

struct NodeSpec {
    std::string op_type;
    std::vector<std::pair<std::string, std::vector<int64_t>>> ints;
    std::vector<std::pair<std::string, int64_t>> scalars;
    std::vector<std::pair<std::string, std::string>> strings;
};

void set_shape(onnx::ValueInfoProto* v, const std::vector<int64_t>& dims, int type = onnx::TensorProto::FLOAT) {
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    auto* s = t->mutable_shape();
    for (int64_t d : dims) {
        if (d < 0) s->add_dim()->set_dim_param("N");
        else s->add_dim()->set_dim_value(d);
    }
}

// A one-node model x -> y with the given input dims and declared output dims (empty: undeclared).
std::shared_ptr<onnx::ModelProto> one_node(const NodeSpec& spec, int64_t opset, const std::vector<int64_t>& in,
                                           const std::vector<int64_t>& out) {
    auto m = std::make_shared<onnx::ModelProto>();
    m->set_ir_version(8);
    auto* op = m->add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    auto* g = m->mutable_graph();
    g->set_name("g");
    auto* n = g->add_node();
    n->set_op_type(spec.op_type);
    n->mutable_input()->Add(std::string("x"));
    n->mutable_output()->Add(std::string("y"));
    for (const auto& [k, v] : spec.ints) {
        auto* a = n->add_attribute();
        a->set_name(k);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t x : v) a->add_ints(x);
    }
    for (const auto& [k, v] : spec.scalars) {
        auto* a = n->add_attribute();
        a->set_name(k);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(v);
    }
    for (const auto& [k, v] : spec.strings) {
        auto* a = n->add_attribute();
        a->set_name(k);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(v);
    }
    auto* x = g->add_input();
    x->set_name("x");
    set_shape(x, in);
    auto* y = g->add_output();
    y->set_name("y");
    if (out.empty()) y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    else set_shape(y, out);
    return m;
}

std::unique_ptr<OnnxCheck> check(const NodeSpec& spec, int64_t opset, const std::vector<int64_t>& in,
                                 const std::vector<int64_t>& out = {}) {
    return check_onnx(describe_onnx(one_node(spec, opset, in, out), "t.onnx"));
}

// The inferred output of the model's single node, as text.
std::string inferred(const NodeSpec& spec, int64_t opset, const std::vector<int64_t>& in) {
    const auto c = check(spec, opset, in);
    REQUIRE(c->report.layers.size() == 1);
    if (c->report.layers[0].inferred.empty()) return c->report.diagnostics.empty() ? "?" : c->report.diagnostics[0].message;
    return c->report.layers[0].inferred[0].str();
}

size_t count_rule(const OnnxCheck& c, std::string_view rule_id) {
    size_t n = 0;
    for (const auto& d : c.report.diagnostics) n += d.rule == rule_id;
    return n;
}

Tensor f32_tensor(std::vector<int64_t> shape, const std::vector<float>& values) {
    Tensor t(ElementType::f32, std::move(shape));
    std::memcpy(t.mutable_bytes(), values.data(), values.size() * sizeof(float));
    return t;
}

}  // namespace

TEST_CASE("onnx: the version a node gets from the model's opset") {
    CHECK(onnx_pool_op_for("AveragePool", 6)->version == 1);
    CHECK(onnx_pool_op_for("AveragePool", 9)->version == 7);
    CHECK(onnx_pool_op_for("AveragePool", 10)->version == 10);
    CHECK(onnx_pool_op_for("AveragePool", 18)->version == 11);
    CHECK(onnx_pool_op_for("AveragePool", 21)->version == 19);
    CHECK(onnx_pool_op_for("AveragePool", 23)->version == 22);
    CHECK(onnx_pool_op_for("MaxPool", 9)->version == 8);
    CHECK(onnx_pool_op_for("MaxPool", 17)->version == 12);
    CHECK(onnx_pool_op_for("GlobalMaxPool", 17)->version == 1);
    CHECK(onnx_pool_op_for("GlobalAveragePool", 22)->version == 22);
    CHECK_FALSE(onnx_pool_op_for("MaxPool", 0));
    CHECK_FALSE(onnx_pool_op_for("Conv", 17));
}

TEST_CASE("onnx: attributes exist from their version on") {
    const NodeSpec ceil{"AveragePool", {{"kernel_shape", {2, 2}}}, {{"ceil_mode", 1}}, {}};
    CHECK(count_rule(*check(ceil, 9, {1, 1, 4, 4}), rule::attr_invalid.id) == 1);  // AveragePool-7
    CHECK(count_rule(*check(ceil, 10, {1, 1, 4, 4}), rule::attr_invalid.id) == 0);
    const NodeSpec include{"AveragePool", {{"kernel_shape", {2, 2}}}, {{"count_include_pad", 1}}, {}};
    CHECK(count_rule(*check(include, 6, {1, 1, 4, 4}), rule::attr_invalid.id) == 1);  // AveragePool-1
    CHECK(count_rule(*check(include, 7, {1, 1, 4, 4}), rule::attr_invalid.id) == 0);
    const NodeSpec dil{"AveragePool", {{"kernel_shape", {2, 2}}, {"dilations", {2, 2}}}, {}, {}};
    CHECK(count_rule(*check(dil, 18, {1, 1, 5, 5}), rule::attr_invalid.id) == 1);  // AveragePool-11
    CHECK(inferred(dil, 19, {1, 1, 5, 5}) == "[1,1,3,3]");
    const NodeSpec maxdil{"MaxPool", {{"kernel_shape", {2, 2}}, {"dilations", {2, 2}}}, {}, {}};
    CHECK(count_rule(*check(maxdil, 9, {1, 1, 5, 5}), rule::attr_invalid.id) == 1);  // MaxPool-8
    CHECK(inferred(maxdil, 10, {1, 1, 5, 5}) == "[1,1,3,3]");
    const NodeSpec order{"MaxPool", {{"kernel_shape", {2, 2}}}, {{"storage_order", 1}}, {}};
    CHECK(count_rule(*check(order, 6, {1, 1, 4, 4}), rule::attr_invalid.id) == 1);  // MaxPool-1
    CHECK(count_rule(*check(order, 8, {1, 1, 4, 4}), rule::attr_invalid.id) == 0);
    const NodeSpec no_kernel{"MaxPool", {}, {}, {}};
    CHECK(count_rule(*check(no_kernel, 12, {1, 1, 4, 4}), rule::attr_invalid.id) == 1);
}

TEST_CASE("onnx: ceil_mode lets the last window start in the right padding before v22, not from v22 on") {
    // 4 + 0 + 1 padded to 5, kernel 2, stride 2: ceil(3/2)+1 = 3 windows; the third starts at 4, in the padding.
    const NodeSpec spec{"AveragePool", {{"kernel_shape", {2}}, {"strides", {2}}, {"pads", {0, 1}}}, {{"ceil_mode", 1}}, {}};
    CHECK(inferred(spec, 11, {1, 1, 4}) == "[1,1,3]");
    CHECK(inferred(spec, 19, {1, 1, 4}) == "[1,1,3]");
    CHECK(inferred(spec, 22, {1, 1, 4}) == "[1,1,2]");
    const NodeSpec max{"MaxPool", spec.ints, spec.scalars, {}};
    CHECK(inferred(max, 12, {1, 1, 4}) == "[1,1,3]");
    CHECK(inferred(max, 22, {1, 1, 4}) == "[1,1,2]");
    // v22's rule is the one formula's ceil_torch rounding.
    AxisWindow w;
    w.kernel = 2;
    w.stride = 2;
    w.pad_end = 1;
    CHECK(pooled_length(4, w, RoundingType::ceil) == 3);
    CHECK(pooled_length(4, w, RoundingType::ceil_torch) == 2);
}

TEST_CASE("onnx: auto_pad follows ONNX's implementation, not the version texts") {
    // SAME: ceil(input / strides) in every version (AveragePool-11's text says floor).
    const NodeSpec same{"AveragePool", {{"kernel_shape", {3}}, {"strides", {2}}}, {}, {{"auto_pad", "SAME_UPPER"}}};
    CHECK(inferred(same, 11, {1, 1, 5}) == "[1,1,3]");
    CHECK(inferred(same, 7, {1, 1, 5}) == "[1,1,3]");
    // VALID without ceil_mode: floor((in - kernel) / strides) + 1; the v11 text's floor((in - k + 1) / s) gives 1.
    const NodeSpec valid{"MaxPool", {{"kernel_shape", {2}}, {"strides", {2}}}, {}, {{"auto_pad", "VALID"}}};
    CHECK(inferred(valid, 11, {1, 1, 4}) == "[1,1,2]");
    const NodeSpec both{"MaxPool", {{"kernel_shape", {2}}, {"pads", {1, 1}}}, {}, {{"auto_pad", "SAME_LOWER"}}};
    CHECK(count_rule(*check(both, 11, {1, 1, 4}), rule::attr_invalid.id) == 1);
}

TEST_CASE("onnx: global pools keep N and C") {
    CHECK(inferred({"GlobalAveragePool", {}, {}, {}}, 1, {2, 3, 5, 7}) == "[2,3,1,1]");
    CHECK(inferred({"GlobalMaxPool", {}, {}, {}}, 22, {-1, 3, 5}) == "[?,3,1]");
}

TEST_CASE("onnx: declared output shapes are checked, symbolic dims are dynamic") {
    const NodeSpec spec{"MaxPool", {{"kernel_shape", {2, 2}}, {"strides", {2, 2}}}, {}, {}};
    CHECK(check(spec, 12, {1, 3, 8, 8}, {1, 3, 4, 4})->report.diagnostics.empty());
    CHECK(check(spec, 12, {-1, 3, 8, 8}, {-1, 3, 4, 4})->report.diagnostics.empty());
    const auto bad = check(spec, 12, {1, 3, 8, 8}, {1, 3, 5, 4});
    REQUIRE(count_rule(*bad, rule::output_shape_mismatch.id) == 1);
    CHECK(bad->report.layers[0].status == LayerStatus::mismatch);
    CHECK(bad->report.diagnostics[0].layer.id == "0");
    CHECK(bad->report.diagnostics[0].layer.name == "y");  // an unnamed node shows its first output
}

TEST_CASE("onnx: nodes are found by name, index or first output") {
    const auto c = check({"MaxPool", {{"kernel_shape", {2}}}, {}, {}}, 12, {1, 1, 4});
    std::string error;
    CHECK(find_onnx_node(c->onnx, "0", &error) == size_t{0});
    CHECK(find_onnx_node(c->onnx, "y", &error) == size_t{0});
    CHECK_FALSE(find_onnx_node(c->onnx, "7", &error));
    CHECK(error.find("pooling nodes: 0 'y' (MaxPool)") != std::string::npos);
}

TEST_CASE("onnx: the library's shape inference agrees on the ordinary cases") {
    const NodeSpec spec{"AveragePool", {{"kernel_shape", {3, 3}}, {"strides", {2, 2}}, {"pads", {1, 1, 1, 1}}},
                        {{"ceil_mode", 1}}, {}};
    const auto c = check(spec, 11, {1, 2, 10, 9});
    CHECK(count_rule(*c, rule::onnx_shape_inference_mismatch.id) == 0);
    CHECK(c->report.layers[0].inferred[0].str() == "[1,2,6,5]");
}

TEST_CASE("onnx: the library's shape inference is skipped for opsets it does not know") {
    const NodeSpec spec{"AveragePool", {{"kernel_shape", {2}}, {"strides", {2}}, {"pads", {0, 1}}}, {{"ceil_mode", 1}}, {}};
    const auto c = check(spec, 22, {1, 1, 4});
    CHECK(count_rule(*c, rule::onnx_shape_inference_mismatch.id) == 0);
}

TEST_CASE("onnx: count_include_pad counts the taps inside the padded input only") {
    // in 4, kernel 3, stride 2, pads 1/1, ceil: windows start at -1, 1, 3; the last covers 3, 4 (pad), 5 (past).
    const NodeSpec spec{"AveragePool", {{"kernel_shape", {3}}, {"strides", {2}}, {"pads", {1, 1}}},
                        {{"ceil_mode", 1}, {"count_include_pad", 1}}, {}};
    const auto c = check(spec, 11, {1, 1, 4});
    REQUIRE(c->pools.size() == 1);
    const auto& setup = c->pools[0].setup;
    const Tensor x = f32_tensor({1, 1, 4}, {1, 2, 3, 4});
    PoolRunResult r = run_pool(setup.kernel_op, setup.desc, x);
    REQUIRE(r.ok());
    CHECK(r.outputs[0].data<float>()[2] == doctest::Approx(4.0 / 3));  // OpenVINO: every tap
    apply_count_include_pad(setup.desc, {1}, {1}, x, r.outputs[0]);
    const float* y = r.outputs[0].data<float>();
    CHECK(y[0] == doctest::Approx(1.0));
    CHECK(y[1] == doctest::Approx(3.0));
    CHECK(y[2] == doctest::Approx(2.0));
}

TEST_CASE("onnx: storage_order=1 makes indices column-major within each plane") {
    Tensor idx(ElementType::i64, {2});
    idx.mutable_data<int64_t>()[0] = 4;       // (h 1, w 1) of a 2x3 plane
    idx.mutable_data<int64_t>()[1] = 6 + 2;   // second plane, (h 0, w 2)
    to_column_major_indices({1, 2, 2, 3}, idx);
    CHECK(idx.data<int64_t>()[0] == 3);
    CHECK(idx.data<int64_t>()[1] == 6 + 4);
}

TEST_CASE("onnx: TensorProto data, raw or typed") {
    onnx::TensorProto p;
    p.set_data_type(onnx::TensorProto::FLOAT);
    p.add_dims(1);
    p.add_dims(2);
    p.add_float_data(1.5f);
    p.add_float_data(-2.0f);
    TensorRead r = tensor_from_proto(p);
    REQUIRE(r.tensor);
    CHECK(r.tensor->shape() == std::vector<int64_t>{1, 2});
    CHECK(r.tensor->data<float>()[1] == -2.0f);
    p.clear_float_data();
    const float raw[2] = {3.0f, 4.0f};
    p.set_raw_data(std::string(reinterpret_cast<const char*>(raw), sizeof raw));
    r = tensor_from_proto(p);
    REQUIRE(r.tensor);
    CHECK(r.tensor->data<float>()[0] == 3.0f);
    p.set_raw_data("abc");
    CHECK_FALSE(tensor_from_proto(p).tensor);
    onnx::TensorProto u8;
    u8.set_data_type(onnx::TensorProto::UINT8);
    u8.add_dims(3);
    for (int v : {0, 7, 255}) u8.add_int32_data(v);
    r = tensor_from_proto(u8);
    REQUIRE(r.tensor);
    CHECK(r.tensor->data<uint8_t>()[2] == 255);
}

TEST_CASE("onnx: a node has the outputs it names, as far as its op defines them") {
    const auto c = check({"MaxPool", {{"kernel_shape", {2}}, {"strides", {2}}}, {}, {}}, 12, {1, 1, 4});
    REQUIRE(c->pools.size() == 1);
    const OnnxPoolOp op = c->pools[0].op;
    Layer node = c->model.graphs[0].layers[0];
    CHECK(onnx_output_count(op, node) == 1);
    Port y, none, i;
    y.names = "y";
    i.names = "i";
    const Port omitted[] = {y, none};  // the optional Indices omitted by an empty name
    node.outputs = omitted;
    CHECK(onnx_output_count(op, node) == 1);
    const Port both[] = {y, i};
    node.outputs = both;
    CHECK(onnx_output_count(op, node) == 2);
    CHECK(onnx_output_count(OnnxPoolOp{OnnxPoolKind::average, 11}, node) == 1);
}

TEST_CASE("onnx: run compares the outputs the node has; a missing expected file is no extra argument") {
    const auto c = check({"MaxPool", {{"kernel_shape", {2}}, {"strides", {2}}}, {}, {}}, 12, {1, 1, 4});
    const auto dir = std::filesystem::temp_directory_path() / ("irlint-onnx-run-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string x_path = (dir / "x.npy").string(), y_path = (dir / "y.npy").string();
    REQUIRE_FALSE(write_npy(x_path, f32_tensor({1, 1, 4}, {1, 4, 2, 3})));
    REQUIRE_FALSE(write_npy(y_path, f32_tensor({1, 1, 2}, {4, 3})));
    RunRequest request;
    request.input_path = x_path;
    request.expect_paths = {y_path, ""};  // what run --data asks for when no .out1 file is there
    const LayerRun run = run_onnx_node(*c, 0, request);
    CHECK(run.error.empty());
    CHECK(run.status == RunStatus::ok);
    REQUIRE(run.outputs.size() == 1);
    CHECK(run.outputs[0].compared());
    request.expect_paths = {y_path, y_path};
    const LayerRun excess = run_onnx_node(*c, 0, request);
    CHECK(excess.status == RunStatus::error);
    CHECK(excess.error == "the node has 1 output; more --expect or --save files were given");
    std::filesystem::remove_all(dir);
}

namespace {

std::vector<std::string> divergences(const OnnxCheck& c) {
    std::vector<std::string> out;
    for (const auto& d : c.report.diagnostics)
        if (d.rule == rule::runtime_divergence.id) {
            CHECK(d.severity == Severity::warning);
            out.push_back(d.message);
        }
    return out;
}

bool any_contains(const std::vector<std::string>& messages, std::string_view part) {
    for (const auto& m : messages)
        if (m.find(part) != std::string::npos) return true;
    return false;
}

// torch.onnx.export of MaxPool2d(kernel_size=(2,2), stride=(2,1), padding=(1,0), dilation=(4,2), ceil_mode=True).
const NodeSpec kTorchDilated{"MaxPool",
                             {{"kernel_shape", {2, 2}}, {"strides", {2, 1}}, {"pads", {1, 0, 1, 0}}, {"dilations", {4, 2}}},
                             {{"ceil_mode", 1}},
                             {}};

}  // namespace

TEST_CASE("onnx: a dilated kernel longer than the padded input is valid ONNX") {
    // dim 2: 2+1+1 = 4 padded, kernel (2-1)*4+1 = 5: ceil((4-5)/2)+1 = 1 in C++ integer division; dim 3: 5.
    const auto c = check(kTorchDilated, 14, {1, 2, 2, 7});
    CHECK(count_rule(*c, rule::attr_invalid.id) == 0);
    CHECK(c->report.layers[0].inferred[0].str() == "[1,2,1,5]");
    const auto d = divergences(*c);
    CHECK(any_contains(d, "OpenVINO's ONNX import (MaxPool-8) rejects the node"));
    CHECK(any_contains(d, "PyTorch -inf"));
}

TEST_CASE("onnx: ONNX's output length truncates toward zero and keeps a negative count an error") {
    const OnnxPoolOp v19{OnnxPoolKind::average, 19}, v22{OnnxPoolKind::average, 22};
    AxisWindow w;
    w.kernel = 5;
    w.stride = 2;
    CHECK(onnx_pooled_length(v19, 4, w, false) == 1);  // (4-5)/2 = 0
    CHECK(onnx_pooled_length(v19, 2, w, false) == 0);  // (2-5)/2 = -1
    w.stride = 3;
    CHECK(onnx_pooled_length(v19, 1, w, true) == 0);   // -4/3 = -1, no ceil step for a negative gap
    CHECK(onnx_pooled_length(v22, 1, w, true) == 1);   // (-4+2)/3 = 0
    w.stride = 1;
    CHECK(onnx_pooled_length(v19, 1, w, false) == -3);
    CHECK(inferred({"AveragePool", {{"kernel_shape", {5}}}, {}, {}}, 19, {1, 1, 1}).find("negative") !=
          std::string::npos);
    // Where OpenVINO accepts the axis, ONNX's formula is the one pooling formula.
    for (int64_t in = 1; in < 12; ++in)
        for (int64_t k = 1; k < 5; ++k)
            for (int64_t s = 1; s < 4; ++s)
                for (int64_t p = 0; p < 3; ++p) {
                    const AxisWindow a{p, p, k, s, 1};
                    if (k > in + 2 * p) continue;
                    CHECK(onnx_pooled_length(v19, in, a, true) == pooled_length(in, a, RoundingType::ceil));
                    CHECK(onnx_pooled_length(v22, in, a, true) == pooled_length(in, a, RoundingType::ceil_torch));
                    CHECK(onnx_pooled_length(v19, in, a, false) == pooled_length(in, a, RoundingType::floor));
                }
}

TEST_CASE("onnx: runtime-divergence names ONNX Runtime's differences") {
    // Pads not smaller than the kernel: ONNX Runtime refuses the node at session creation.
    const NodeSpec big_pads{"MaxPool", {{"kernel_shape", {2}}, {"pads", {2, 0}}}, {}, {}};
    CHECK(any_contains(divergences(*check(big_pads, 12, {1, 1, 5})), "pads must be smaller than the kernel"));
    // SAME with a kernel smaller than the stride needs a negative pad in ONNX Runtime.
    const NodeSpec negative{"MaxPool", {{"kernel_shape", {1}}, {"strides", {2}}}, {}, {{"auto_pad", "SAME_LOWER"}}};
    CHECK(any_contains(divergences(*check(negative, 12, {1, 1, 6})), "computes a negative SAME pad (-1)"));
    // SAME pads from the kernel without its dilation: 7 + 1 - 4 + 1 = 5 windows, ONNX ceil(7/1) = 7.
    const NodeSpec dilated_same{"AveragePool", {{"kernel_shape", {2}}, {"dilations", {3}}}, {}, {{"auto_pad", "SAME_LOWER"}}};
    CHECK(any_contains(divergences(*check(dilated_same, 19, {1, 2, 7})), "[5] (ONNX's AveragePool-19: [7])"));
    // The dropped ceil-mode window in every version.
    const NodeSpec ceil{"MaxPool", {{"kernel_shape", {2}}, {"strides", {2}}, {"pads", {1, 1}}}, {{"ceil_mode", 1}}, {}};
    CHECK(any_contains(divergences(*check(ceil, 12, {1, 1, 5})), "in every version"));
    CHECK(!any_contains(divergences(*check(ceil, 22, {1, 1, 5})), "ONNX Runtime"));
    // pads with auto_pad: invalid by the standard, accepted by ONNX Runtime.
    const NodeSpec both{"MaxPool", {{"kernel_shape", {2}}, {"pads", {1, 1}}}, {}, {{"auto_pad", "SAME_UPPER"}}};
    const auto c = check(both, 12, {1, 1, 4});
    CHECK(count_rule(*c, rule::attr_invalid.id) == 1);
    CHECK(any_contains(divergences(*c), "pads by auto_pad, ignoring pads"));
    // An ordinary node has none.
    const NodeSpec plain{"MaxPool", {{"kernel_shape", {2}}, {"strides", {2}}}, {}, {}};
    CHECK(divergences(*check(plain, 12, {1, 1, 4, 4})).empty());
}

TEST_CASE("onnx: OpenVINO's import rounds ceil_mode its own way") {
    // in 5, pads 1/1, kernel 2, stride 2, ceil: ONNX's AveragePool-11 keeps the window that starts in the right
    // padding (4 windows); OpenVINO builds AvgPool-16 with ceil_torch and drops it.
    const NodeSpec avg{"AveragePool", {{"kernel_shape", {2}}, {"strides", {2}}, {"pads", {1, 1}}}, {{"ceil_mode", 1}}, {}};
    CHECK(any_contains(divergences(*check(avg, 11, {1, 1, 5})),
                       "OpenVINO's ONNX import (AvgPool-16) gives the output [1,1,3], ONNX [1,1,4]"));
    // MaxPool-22 drops it; OpenVINO's MaxPool-8 with rounding ceil keeps it.
    const NodeSpec max{"MaxPool", avg.ints, avg.scalars, {}};
    CHECK(any_contains(divergences(*check(max, 22, {1, 1, 5})),
                       "OpenVINO's ONNX import (MaxPool-8) gives the output [1,1,4], ONNX [1,1,3]"));
    CHECK(!any_contains(divergences(*check(max, 12, {1, 1, 5})), "OpenVINO"));
}

TEST_CASE("onnx: storage_order=1 is dropped by OpenVINO's import") {
    auto m = one_node({"MaxPool", {{"kernel_shape", {2}}}, {{"storage_order", 1}}, {}}, 12, {1, 1, 4}, {});
    m->mutable_graph()->mutable_node(0)->mutable_output()->Add(std::string("i"));
    const auto c = check_onnx(describe_onnx(m, "t.onnx"));
    CHECK(any_contains(divergences(*c), "drops storage_order"));
}

TEST_CASE("onnx: the window kernel follows ONNX Runtime in windows without input") {
    const auto c = check(kTorchDilated, 14, {1, 1, 2, 7});
    REQUIRE(c->pools.size() == 1);
    const auto& pool = c->pools[0];
    std::vector<float> values(14);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
    const Tensor x = f32_tensor({1, 1, 2, 7}, values);
    Shape in;
    for (int64_t d : x.shape()) in.dims.emplace_back(d);
    const PoolShape shape = infer_onnx_pool_shape(pool.op, pool.setup, in);
    CHECK(has_empty_window(pool.setup, in, shape));
    const PoolRunResult r = run_onnx_windows(OnnxPoolOp{OnnxPoolKind::max, 12}, pool.setup, shape, x, SIZE_MAX);
    REQUIRE(r.ok());
    REQUIRE(r.outputs.size() == 2);
    REQUIRE(r.outputs[0].size() == 5);
    // The one row of windows starts at row -1 and steps 4 rows: rows -1 and 3, both padding.
    CHECK(r.outputs[0].data<float>()[0] == std::numeric_limits<float>::lowest());
    CHECK(r.outputs[1].data<int64_t>()[0] == -7 - 1);  // coordinate (-1, -1) of a 2x7 plane
}

TEST_CASE("onnx: the window kernel divides by the taps inside the input, or 0 when there are none") {
    // AveragePool-19, in 2, pads 1/1, kernel 2 dilated by 4 = 5 > 4: the window's taps at -1 and 3.
    const NodeSpec avg{"AveragePool", {{"kernel_shape", {2}}, {"pads", {1, 1}}, {"dilations", {4}}}, {}, {}};
    const auto c = check(avg, 19, {1, 1, 2});
    REQUIRE(c->pools.size() == 1);
    const Tensor x = f32_tensor({1, 1, 2}, {3, 5});
    Shape in{false, {Dim(1), Dim(1), Dim(2)}};
    const PoolShape shape = infer_onnx_pool_shape(c->pools[0].op, c->pools[0].setup, in);
    CHECK(shape.output.str() == "[1,1,0]");  // (4-5)/1+1 = 0 windows
    const NodeSpec three{"AveragePool", {{"kernel_shape", {2}}, {"pads", {1, 1}}, {"dilations", {2}}}, {}, {}};
    const auto c3 = check(three, 19, {1, 1, 2});
    const PoolShape s3 = infer_onnx_pool_shape(c3->pools[0].op, c3->pools[0].setup, in);
    CHECK(s3.output.str() == "[1,1,2]");  // windows at -1 (taps -1, 1) and 0 (taps 0, 2)
    const PoolRunResult r = run_onnx_windows(c3->pools[0].op, c3->pools[0].setup, s3, x, SIZE_MAX);
    REQUIRE(r.ok());
    CHECK(r.outputs[0].data<float>()[0] == doctest::Approx(5.0));
    CHECK(r.outputs[0].data<float>()[1] == doctest::Approx(3.0));
}


TEST_CASE("onnx: windows 2^40 taps into the padding are judged by arithmetic, not tap by tap") {
    // Kernel 2^41 with pads 2^40: every window reaches the 4 input rows.
    constexpr int64_t k2e40 = int64_t{1} << 40;
    const NodeSpec far{"MaxPool", {{"kernel_shape", {2 * k2e40, 1}}, {"pads", {k2e40, 0, k2e40, 0}}}, {}, {}};
    const auto c = check(far, 13, {1, 1, 4, 4});
    REQUIRE(c->pools.size() == 1);
    Shape in = shape_from_port_dims({1, 1, 4, 4});
    const PoolShape shape = infer_onnx_pool_shape(c->pools[0].op, c->pools[0].setup, in);
    CHECK(shape.output.str() == "[1,1,5,4]");
    CHECK(!has_empty_window(c->pools[0].setup, in, shape));
    // Kernel 2 dilated by 8 with pads 3: the first window's taps are rows -3 and 5, neither inside 4 rows.
    const NodeSpec gapped{"MaxPool", {{"kernel_shape", {2}}, {"dilations", {8}}, {"pads", {3, 3}}}, {}, {}};
    const auto g = check(gapped, 13, {1, 1, 4});
    REQUIRE(g->pools.size() == 1);
    Shape in1 = shape_from_port_dims({1, 1, 4});
    CHECK(has_empty_window(g->pools[0].setup, in1, infer_onnx_pool_shape(g->pools[0].op, g->pools[0].setup, in1)));
}

TEST_CASE("onnx: ONNX Runtime's arithmetic past int64 makes no claim about ONNX Runtime") {
    // SAME_LOWER with a kernel of int64's maximum: ONNX Runtime's SAME pad (4 + 2^63 - 1 - 5) overflows.
    const NodeSpec same{"MaxPool", {{"kernel_shape", {std::numeric_limits<int64_t>::max(), 3}}}, {},
                        {{"auto_pad", "SAME_LOWER"}}};
    const auto c = check(same, 13, {1, 1, 5, 5});
    CHECK(c->report.layers[0].inferred[0].str() == "[1,1,1,5]");
    CHECK(!any_contains(divergences(*c), "ONNX Runtime"));
}

namespace {

// x [1,3,8,8] -> Conv (w [4,3,3,3], pads 1) -> c [1,4,8,8] -> Add (+ b [4,1,1]) -> a -> Reshape ([1,-1]) -> y [1,256],
// with c and a declared in value_info; `tweak` spoils a declaration.
std::shared_ptr<onnx::ModelProto> conv_add_reshape(const std::function<void(onnx::GraphProto&)>& tweak = {}) {
    auto m = std::make_shared<onnx::ModelProto>();
    m->set_ir_version(8);
    m->add_opset_import()->set_version(13);
    auto* g = m->mutable_graph();
    g->set_name("g");
    const auto node = [&](const std::string& op, std::vector<std::string> in, const std::string& out) {
        auto* n = g->add_node();
        n->set_op_type(op);
        n->set_name(op + "_node");
        for (auto& i : in) n->add_input(i);
        n->add_output(out);
        return n;
    };
    auto* conv = node("Conv", {"x", "w"}, "c");
    auto* pads = conv->add_attribute();
    pads->set_name("pads");
    pads->set_type(onnx::AttributeProto::INTS);
    for (int i = 0; i < 4; ++i) pads->add_ints(1);
    node("Add", {"c", "b"}, "a");
    node("Reshape", {"a", "s"}, "y");
    const auto init = [&](const std::string& name, const std::vector<int64_t>& dims, int type) {
        auto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        int64_t count = 1;
        for (int64_t d : dims) {
            t->add_dims(d);
            count *= d;
        }
        for (int64_t i = 0; i < count; ++i) {
            if (type == onnx::TensorProto::INT64) t->add_int64_data(i == 0 ? 1 : -1);
            else t->add_float_data(0.5F);
        }
    };
    init("w", {4, 3, 3, 3}, onnx::TensorProto::FLOAT);
    init("b", {4, 1, 1}, onnx::TensorProto::FLOAT);
    init("s", {2}, onnx::TensorProto::INT64);
    auto* x = g->add_input();
    x->set_name("x");
    set_shape(x, {1, 3, 8, 8});
    auto* c = g->add_value_info();
    c->set_name("c");
    set_shape(c, {1, 4, 8, 8});
    auto* a = g->add_value_info();
    a->set_name("a");
    set_shape(a, {1, 4, 8, 8});
    auto* y = g->add_output();
    y->set_name("y");
    set_shape(y, {1, 256});
    if (tweak) tweak(*g);
    return m;
}

std::unique_ptr<OnnxCheck> check_model(std::shared_ptr<onnx::ModelProto> m) {
    return check_onnx(describe_onnx(std::move(m), "t.onnx"));
}

}  // namespace

TEST_CASE("onnx: every node is checked by its registry entry") {
    const auto c = check_model(conv_add_reshape());
    CHECK(c->report.diagnostics.empty());
    CHECK(c->report.checked == 3);
    REQUIRE(c->report.layers.size() == 3);
    for (const auto& ls : c->report.layers) {
        CHECK(ls.checked);
        CHECK(ls.status == LayerStatus::ok);
    }
    CHECK(c->report.layers[0].inferred[0].str() == "[1,4,8,8]");
    CHECK(c->report.layers[2].inferred[0].str() == "[1,256]");
    CHECK(c->report.layers[2].inferred_types[0] == ElementType::f32);
}

TEST_CASE("onnx: a declared shape or type ONNX's inference contradicts is a finding on its node") {
    const auto conv = check_model(conv_add_reshape([](onnx::GraphProto& g) {
        g.mutable_value_info(0)->clear_type();
        set_shape(g.mutable_value_info(0), {1, 4, 6, 6});
    }));
    REQUIRE(conv->report.diagnostics.size() == 1);
    CHECK(conv->report.diagnostics[0].rule == rule::output_shape_mismatch.id);
    // An intermediate value's declaration: ONNX Runtime merges it leniently and runs, so a warning.
    CHECK(conv->report.diagnostics[0].severity == Severity::warning);
    CHECK(conv->report.diagnostics[0].message ==
          "Conv-11 output 0 'c' is declared [1,4,6,6], ONNX infers [1,4,8,8]: dim 2: floor((8+1+1-3)/1)+1 = 8, declared "
          "6; dim 3: floor((8+1+1-3)/1)+1 = 8, declared 6; the value is no output of the graph, and ONNX Runtime "
          "drops the declaration (value_info) for the inferred dims");
    CHECK(conv->report.layers[0].status == LayerStatus::mismatch);
    CHECK(conv->report.checked == 3);

    const auto add = check_model(conv_add_reshape([](onnx::GraphProto& g) {
        g.mutable_value_info(1)->clear_type();
        set_shape(g.mutable_value_info(1), {1, 4, 8, 8}, onnx::TensorProto::FLOAT16);
    }));
    REQUIRE(add->report.diagnostics.size() == 1);
    CHECK(add->report.diagnostics[0].rule == rule::output_type_mismatch.id);
    CHECK(add->report.diagnostics[0].message == "Add-13 output 0 'a' is declared f16, ONNX gives f32");

    // Reshape's target comes from an initializer: data propagation is not needed, a rank that differs is found.
    const auto reshape = check_model(conv_add_reshape([](onnx::GraphProto& g) {
        g.mutable_output(0)->clear_type();
        set_shape(g.mutable_output(0), {1, 16, 16});
    }));
    REQUIRE(reshape->report.diagnostics.size() == 1);
    CHECK(reshape->report.diagnostics[0].severity == Severity::error);  // a model output: its users read it
    CHECK(reshape->report.diagnostics[0].message ==
          "Reshape-13 output 0 'y' is declared [1,16,16], ONNX infers [1,256]: rank 2, declared 3");
}

TEST_CASE("onnx: f16 and bf16 initializers are read as numbers, raw or in int32_data") {
    // Range(1, 5, 1.5) of each 16-bit float type (Range-27 takes them): 3 elements. 1.0, 5.0 and 1.5 are
    // 0x3C00, 0x4500, 0x3E00 in f16 and 0x3F80, 0x40A0, 0x3FC0 in bf16.
    struct Case {
        int type;
        std::array<uint16_t, 3> bits;
    };
    for (const bool raw : {false, true})
        for (const Case& each : {Case{onnx::TensorProto::FLOAT16, {0x3C00, 0x4500, 0x3E00}},
                                 Case{onnx::TensorProto::BFLOAT16, {0x3F80, 0x40A0, 0x3FC0}}}) {
            const int type = each.type;
            const std::array<uint16_t, 3>& bits = each.bits;
            auto m = std::make_shared<onnx::ModelProto>();
            m->set_ir_version(8);
            m->add_opset_import()->set_version(27);
            auto* g = m->mutable_graph();
            auto* n = g->add_node();
            n->set_op_type("Range");
            for (const char* in : {"start", "limit", "delta"}) n->add_input(in);
            n->add_output("y");
            const char* names[3] = {"start", "limit", "delta"};
            for (size_t i = 0; i < 3; ++i) {
                auto* t = g->add_initializer();
                t->set_name(names[i]);
                t->set_data_type(type);
                if (raw) t->set_raw_data(std::string(reinterpret_cast<const char*>(&bits[i]), 2));
                else t->add_int32_data(bits[i]);
            }
            g->add_output()->set_name("y");
            const auto c = check_model(m);
            CAPTURE(raw);
            CAPTURE(type);
            REQUIRE(c->report.layers.size() == 1);
            REQUIRE(c->report.layers[0].inferred.size() == 1);
            CHECK(c->report.layers[0].inferred[0].str() == "[3]");
            CHECK(c->report.layers[0].checked);
        }
}

TEST_CASE("onnx: a node whose output depends on a value irlint does not know is not checked") {
    // Reshape's target is a graph input: neither its values nor the output's rank are known.
    const auto c = check_model(conv_add_reshape([](onnx::GraphProto& g) {
        g.mutable_initializer()->DeleteSubrange(2, 1);
        auto* s = g.add_input();
        s->set_name("s");
        set_shape(s, {2}, onnx::TensorProto::INT64);
    }));
    REQUIRE(c->report.diagnostics.size() == 1);  // the note of the Reshape layers not checked
    CHECK(c->report.diagnostics[0].rule == rule::values_unknown.id);
    CHECK(c->report.diagnostics[0].layer.type == "Reshape");
    CHECK(c->report.diagnostics[0].message.rfind("1 Reshape layer not checked: its dims depend on values irlint does "
                                                 "not know; e.g. layer 2 ",
                                                 0) == 0);
    CHECK(c->report.diagnostics[0].severity == Severity::note);
    CHECK(c->report.checked == 2);
    CHECK_FALSE(c->report.layers[2].checked);
    REQUIRE(c->report.layers[2].not_checked);
    CHECK(c->report.layers[2].inferred[0].str() == "[?,?]");  // the rank from the target's length, 2
    CHECK(c->report.layers[2].inferred_types[0] == ElementType::f32);
}

TEST_CASE("onnx: a node ONNX rejects is an error on that node, not on the nodes after it") {
    // Reshape to [-1,-1]: ONNX rejects two -1s; the nodes before it are still inferred and checked.
    const auto c = check_model(conv_add_reshape([](onnx::GraphProto& g) {
        auto* s = g.mutable_initializer(2);
        s->clear_int64_data();
        s->add_int64_data(-1);
        s->add_int64_data(-1);
        auto* relu = g.add_node();
        relu->set_op_type("Relu");
        relu->add_input("y");
        relu->add_output("z");
    }));
    REQUIRE(c->report.diagnostics.size() == 1);
    const Diagnostic& d = c->report.diagnostics[0];
    CHECK(d.rule == rule::input_invalid.id);
    CHECK(d.layer.type == "Reshape");
    CHECK(d.message == "Reshape-13: more than one dimension of the target shape is -1 (at 0 and 1)");
    CHECK(c->report.layers[2].status == LayerStatus::invalid);
    // The Relu after it sees the value as the file declares it, and is checked: one finding, on its node.
    CHECK(c->report.checked == 3);
    CHECK(c->report.layers[3].checked);
}

TEST_CASE("onnx: an attribute ONNX rejects is attr-invalid") {
    const auto c = check_model(conv_add_reshape([](onnx::GraphProto& g) {
        auto* t = g.add_node();
        t->set_op_type("Transpose");
        t->add_input("y");
        t->add_output("t");
        auto* perm = t->add_attribute();
        perm->set_name("perm");
        perm->set_type(onnx::AttributeProto::INTS);
        perm->add_ints(1);
        perm->add_ints(1);
    }));
    REQUIRE(c->report.diagnostics.size() == 1);
    CHECK(c->report.diagnostics[0].rule == rule::attr_invalid.id);
    CHECK(c->report.diagnostics[0].message ==
          "Transpose-13: perm [1,1] names axis 1 twice");
}

namespace {

NewInputs x_dims(std::string_view dims) { return {{"x", *parse_shape(dims, nullptr)}}; }

// conv_add_reshape flattened to [16,-1], a Relu after it, without value_info: 16 no longer divides the element
// count of a 3x3 input.
std::shared_ptr<onnx::ModelProto> flatten16(int64_t side) {
    return conv_add_reshape([side](onnx::GraphProto& g) {
        auto* dims = g.mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
        dims->mutable_dim(2)->set_dim_value(side);
        dims->mutable_dim(3)->set_dim_value(side);
        g.mutable_initializer(2)->set_int64_data(0, 16);
        g.clear_value_info();
        g.mutable_output(0)->clear_type();
        auto* relu = g.add_node();
        relu->set_op_type("Relu");
        relu->set_name("Relu_node");
        relu->add_input("y");
        relu->add_output("z");
    });
}

}  // namespace

TEST_CASE("onnx: a Reshape to a target of another element count is a finding") {
    const auto c = check_model(conv_add_reshape([](onnx::GraphProto& g) {
        g.mutable_initializer(2)->set_int64_data(1, 100);
        g.mutable_output(0)->clear_type();
    }));
    REQUIRE(c->report.diagnostics.size() == 1);
    CHECK(c->report.diagnostics[0].rule == rule::input_invalid.id);
    CHECK(c->report.diagnostics[0].message ==
          "Reshape-13: input has 256 elements, target [1,100] has 100 (input shape [1,4,8,8])");
    CHECK(c->report.layers[2].status == LayerStatus::invalid);
}

TEST_CASE("onnx: reshape_onnx infers the model again from new graph-input dims") {
    const auto model = describe_onnx(conv_add_reshape(), "t.onnx");
    const OnnxReshape same = reshape_onnx(model, x_dims("1,3,8,8"));
    CHECK(same.incompatible.empty());
    CHECK(same.changed_nodes == 0);
    CHECK(same.unknown_nodes == 0);

    const OnnxReshape batch = reshape_onnx(model, x_dims("2,3,8,8"));
    CHECK(batch.incompatible.empty());
    CHECK(batch.changed_nodes == 3);
    CHECK(batch.after->report.layers[2].inferred[0].str() == "[1,512]");
    std::string error;
    const auto bytes = serialize_reshaped_onnx(batch, error);
    REQUIRE(bytes);
    onnx::ModelProto written;
    REQUIRE(written.ParseFromString(*bytes));
    const auto dims = [](const onnx::ValueInfoProto& v) {
        std::vector<int64_t> out;
        for (const auto& d : v.type().tensor_type().shape().dim()) out.push_back(d.dim_value());
        return out;
    };
    CHECK(dims(written.graph().input(0)) == std::vector<int64_t>{2, 3, 8, 8});
    REQUIRE(written.graph().value_info_size() == 2);
    CHECK(dims(written.graph().value_info(0)) == std::vector<int64_t>{2, 4, 8, 8});
    CHECK(dims(written.graph().output(0)) == std::vector<int64_t>{1, 512});
}

TEST_CASE("onnx: reshape_onnx reports the node that cannot take its new input and writes nothing") {
    const auto model = describe_onnx(flatten16(8), "t.onnx");
    const OnnxReshape same = reshape_onnx(model, x_dims("1,3,8,8"));
    CHECK(same.incompatible.empty());
    const OnnxReshape small = reshape_onnx(model, x_dims("1,3,3,3"));
    REQUIRE(small.incompatible.size() == 1);
    CHECK(small.incompatible[0].rule == rule::reshape_incompatible.id);
    CHECK(small.incompatible[0].layer.name == "Reshape_node");
    CHECK(small.unknown_nodes == 2);  // the Reshape and the Relu after it
    CHECK(small.changed_nodes == 2);  // the Conv and the Add
    std::string error;
    CHECK_FALSE(serialize_reshaped_onnx(small, error));
    CHECK(error == "1 node cannot take the new shapes");
}

namespace {

// x [2,3,4] -> local function f (a Transpose whose perm refers to f's attribute "perm") -> y. `call_perm` is the
// perm the call gives, empty for none; the function's default perm [0,2,1] is in attribute_proto (ONNX IR 9),
// which the protobuf schema irlint is built with keeps as an unknown field.
std::shared_ptr<onnx::ModelProto> transpose_function(const std::vector<int64_t>& call_perm) {
    auto m = std::make_shared<onnx::ModelProto>();
    m->set_ir_version(9);
    auto* onnx_opset = m->add_opset_import();
    onnx_opset->set_version(18);
    auto* local = m->add_opset_import();
    local->set_domain("local");
    local->set_version(1);
    auto* f = m->add_functions();
    f->set_name("f");
    f->set_domain("local");
    f->add_input("a");
    f->add_output("b");
    f->add_attribute("perm");
    *f->add_opset_import() = *onnx_opset;
    auto* t = f->add_node();
    t->set_op_type("Transpose");
    t->add_input("a");
    t->add_output("b");
    auto* ref = t->add_attribute();
    ref->set_name("perm");
    ref->set_ref_attr_name("perm");
    ref->set_type(onnx::AttributeProto::INTS);
    onnx::AttributeProto fallback;
    fallback.set_name("perm");
    fallback.set_type(onnx::AttributeProto::INTS);
    for (int64_t p : {0, 2, 1}) fallback.add_ints(p);
    f->mutable_unknown_fields()->AddLengthDelimited(11, fallback.SerializeAsString());
    auto* g = m->mutable_graph();
    auto* call = g->add_node();
    call->set_op_type("f");
    call->set_domain("local");
    call->add_input("x");
    call->add_output("y");
    if (!call_perm.empty()) {
        auto* a = call->add_attribute();
        a->set_name("perm");
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t p : call_perm) a->add_ints(p);
    }
    auto* x = g->add_input();
    x->set_name("x");
    set_shape(x, {2, 3, 4});
    g->add_output()->set_name("y");
    return m;
}

}  // namespace

TEST_CASE("onnx: a local function's body is inferred with the call's attributes, else the function's defaults") {
    const auto by_default = check_model(transpose_function({}));
    REQUIRE(by_default->report.layers.size() == 1);
    CHECK(by_default->report.layers[0].checked);
    CHECK(by_default->report.layers[0].inferred[0].str() == "[2,4,3]");
    const auto given = check_model(transpose_function({1, 0, 2}));
    CHECK(given->report.layers[0].inferred[0].str() == "[3,2,4]");
}

namespace {

// A model written in ONNX's text syntax (onnx/defs/parser.h), with the model-local functions after it.
std::shared_ptr<onnx::ModelProto> parsed_model(const char* model_text, std::initializer_list<const char*> functions = {}) {
    auto m = std::make_shared<onnx::ModelProto>();
    const auto status = onnx::OnnxParser::Parse(*m, model_text);
    REQUIRE_MESSAGE(status.IsOK(), status.ErrorMessage());
    for (const char* f : functions) {
        const auto fs = onnx::OnnxParser::Parse(*m->add_functions(), f);
        REQUIRE_MESSAGE(fs.IsOK(), fs.ErrorMessage());
    }
    return m;
}

std::string inferred_of(const OnnxCheck& c, std::string_view layer_name) {
    for (const auto& ls : c.report.layers)
        if (ls.layer->name == layer_name) return ls.inferred.empty() ? "none" : ls.inferred[0].str();
    return "no such layer";
}

}  // namespace

TEST_CASE("onnx: the values an If of a known condition computes in its branch reach a Reshape") {
    // The branch reads Shape(x) by name, through a nested If too: no edge says that the If needs it, and the
    // Parameter x that Shape needs comes last in the adapter's graph.
    const auto c = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 18]>
        g (float[2,3,4] x) => (float[?,?] y) {
            zero = Constant<value_int = 0>()
            cond = Equal(zero, zero)
            dims = Shape(x)
            target = If(cond) <
                then_branch = t () => (int64[2] flat) {
                    inner = If(cond) <
                        then_branch = ti () => (int64[3] d) { d = Identity(dims) },
                        else_branch = ei () => (int64[3] e) { e = Identity(dims) }>
                    last = Constant<value_ints = [-1]>()
                    end = Constant<value_ints = [3]>()
                    first = Slice(inner, last, end)
                    six = Constant<value_ints = [6]>()
                    flat = Concat<axis = 0>(six, first)
                },
                else_branch = e () => (int64[2] other) { other = Constant<value_ints = [4, 6]>() }>
            y = Reshape(x, target)
        }
    )"));
    CHECK(inferred_of(*c, "target") == "[2]");
    CHECK(inferred_of(*c, "y") == "[6,4]");
    CHECK(c->report.diagnostics.empty());
}

TEST_CASE("onnx: sizes and scales computed in floating point from the input's dims give exact dims") {
    // Resize to floor(dims * 1.5), as exports compute an upsampled size; a Resize whose scales are out/in dims
    // divided in floating point (45/15 and 50/20 = 2.5), concatenated behind constant ones.
    const auto c = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 13]>
        g (float[1,3,15,20] x, float[1,3,45,50] big) => (float[?,?,?,?] y, float[?,?,?,?] up) {
            dims = Shape(x)
            two = Constant<value_ints = [2]>()
            four = Constant<value_ints = [4]>()
            zero = Constant<value_ints = [0]>()
            hw = Slice(dims, two, four)
            nc = Slice(dims, zero, two)
            hw_f = Cast<to = 1>(hw)
            k = Constant<value_floats = [1.5]>()
            scaled = Mul(hw_f, k)
            down = Floor(scaled)
            hw_i = Cast<to = 7>(down)
            sizes = Concat<axis = 0>(nc, hw_i)
            y = Resize<mode = "nearest">(x, , , sizes)
            big_dims = Shape(big)
            big_hw = Slice(big_dims, two, four)
            big_hw_f = Cast<to = 1>(big_hw)
            ratio = Div(big_hw_f, hw_f)
            ones = Constant<value_floats = [1.0, 1.0]>()
            scales = Concat<axis = 0>(ones, ratio)
            up = Resize<mode = "nearest">(x, , scales)
        }
    )"));
    CHECK(c->report.diagnostics.empty());
    CHECK(inferred_of(*c, "y") == "[1,3,22,30]");
    CHECK(inferred_of(*c, "up") == "[1,3,45,50]");
}

TEST_CASE("onnx: a local function takes the values of its inputs and hands out the values it computes") {
    const auto c = check_model(parsed_model(
        R"(
        <ir_version: 8, opset_import: ["" : 18, "local" : 1]>
        g (float[2,3,4] x) => (float[?,?] y) {
            dims = Shape(x)
            target = local.merge_last(dims)
            y = Reshape(x, target)
        }
    )",
        {R"(
        <domain: "local", opset_import: ["" : 18]>
        merge_last (d) => (t) {
            zero = Constant<value_ints = [0]>()
            minus = Constant<value_ints = [-1]>()
            t = Concat<axis = 0>(zero, minus)
        }
    )"}));
    CHECK(inferred_of(*c, "target") == "[2]");
    CHECK(inferred_of(*c, "y") == "[2,12]");
}

TEST_CASE("onnx: ai.onnx.ml classifiers, regressors and encoders give a row per sample") {
    // A class label holding a comma is one label: the adapter counts a STRINGS attribute's strings.
    const auto c = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 3]>
        g (float[N,4] x, float[1,4] one) => (string[N] label, float[N,3] scores, float[N,2] reg, float[N,4,3] hot,
                                             float[N,4] scaled, float[N,7] vec, int64[1] one_label, float[1,2] one_reg) {
            label, scores = ai.onnx.ml.LinearClassifier<coefficients = [1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0,
                1.0, 2.0, 3.0, 4.0], intercepts = [0.0, 1.0, 2.0], classlabels_strings = ["a,b", "c", "d"]>(x)
            reg = ai.onnx.ml.LinearRegressor<coefficients = [1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0], targets = 2>(x)
            hot = ai.onnx.ml.OneHotEncoder<cats_strings = ["x,y", "z", "w"]>(x)
            scaled = ai.onnx.ml.Scaler<offset = [0.0], scale = [2.0]>(x)
            vec = ai.onnx.ml.FeatureVectorizer<inputdimensions = [4, 3]>(x, scores)
            one_label, one_scores = ai.onnx.ml.TreeEnsembleClassifier<classlabels_int64s = [0, 1]>(one)
            one_reg = ai.onnx.ml.TreeEnsembleRegressor<n_targets = 2>(one)
        }
    )"));
    CHECK(c->report.diagnostics.empty());
    CHECK(inferred_of(*c, "label") == "[?]");
    CHECK(c->report.layers[0].inferred[1].str() == "[?,3]");
    CHECK(c->report.layers[0].inferred_types[0] == ElementType::string);
    CHECK(inferred_of(*c, "reg") == "[?,2]");
    CHECK(inferred_of(*c, "hot") == "[?,4,3]");
    CHECK(inferred_of(*c, "scaled") == "[?,4]");
    CHECK(inferred_of(*c, "vec") == "[?,7]");
    CHECK(inferred_of(*c, "one_label") == "[1]");
    CHECK(c->report.layers[5].inferred[1].str() == "[1,2]");  // a score column per class label
    CHECK(inferred_of(*c, "one_reg") == "[1,2]");
}

TEST_CASE("onnx: ai.onnx.ml and ai.onnx.preview nodes ONNX rejects are findings on their node") {
    const auto c = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 5, "ai.onnx.preview" : 1]>
        g (float[2,3,4] x, float[2,8,5,16] q, float[2,3,7,16] k, float[2,3,7,32] v) => (float[2,8,5,32] y) {
            hot = ai.onnx.ml.OneHotEncoder<cats_strings = ["a"], cats_int64s = [1]>(x)
            y = ai.onnx.preview.FlexAttention(q, k, v)
            r = ai.onnx.ml.TreeEnsembleRegressor<n_targets = 1>(x)
        }
    )"));
    REQUIRE(c->report.diagnostics.size() == 3);
    CHECK(c->report.diagnostics[0].message.find("exactly one of cats_int64s and cats_strings") != std::string::npos);
    CHECK(c->report.diagnostics[1].message.find("8 query heads are not a multiple of 3 key/value heads") !=
          std::string::npos);
    // From version 3, X is [N, F].
    CHECK(c->report.diagnostics[2].message.find("TreeEnsembleRegressor-3: X must be 2-D; it is [2,3,4]") !=
          std::string::npos);
}

TEST_CASE("onnx: FeatureVectorizer takes inputs of more than two dims, N first, as ONNX Runtime runs them") {
    const auto c = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 1]>
        g (float[2,1,4] hot, float[2,3] dense) => (float[2,7] vec) {
            vec = ai.onnx.ml.FeatureVectorizer<inputdimensions = [4, 3]>(hot, dense)
        }
    )"));
    CHECK(c->report.diagnostics.empty());
    CHECK(inferred_of(*c, "vec") == "[2,7]");
}

TEST_CASE("onnx: a Gradient's outputs have the dims and types of the values of its xs") {
    const auto c = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 12, "ai.onnx.preview.training" : 1]>
        g (float[2,3] a, float[3] b) => (float[2,3] s, float[?,?] da, float[?] db) {
            s = Add(a, b)
            da, db = ai.onnx.preview.training.Gradient<xs = ["a", "b"], y = "s">(a, b)
            short = ai.onnx.preview.training.Gradient<xs = ["a", "b"], zs = ["s"], y = "s">(a, b)
        }
    )"));
    CHECK(inferred_of(*c, "da") == "[2,3]");
    CHECK(c->report.layers[1].inferred[1].str() == "[3]");
    REQUIRE(c->report.diagnostics.size() == 1);
    CHECK(c->report.diagnostics[0].message.find("a value for each of the 2 xs and 1 zs; it has 2 inputs") !=
          std::string::npos);
}

TEST_CASE("onnx: LabelEncoder's keys are of the input's type, as many as its values from version 4") {
    const auto c = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 4]>
        g (string[3] names, int64[3] codes) => (int64[3] ok, int64[3] wrong_type, int64[3] short_values) {
            ok = ai.onnx.ml.LabelEncoder<keys_strings = ["a", "b,c"], values_int64s = [1, 2]>(names)
            wrong_type = ai.onnx.ml.LabelEncoder<keys_strings = ["a", "b"], values_int64s = [1, 2]>(codes)
            short_values = ai.onnx.ml.LabelEncoder<keys_strings = ["a", "b"], values_int64s = [1]>(names)
        }
    )"));
    CHECK(inferred_of(*c, "ok") == "[3]");
    CHECK(c->report.layers[0].inferred_types[0] == ElementType::i64);
    REQUIRE(c->report.diagnostics.size() == 2);
    CHECK(c->report.diagnostics[0].message.find("the input is i64 but keys_strings holds string") != std::string::npos);
    CHECK(c->report.diagnostics[1].message.find("keys_strings has 2 entries and values_int64s 1") != std::string::npos);
    const auto v2 = check_model(parsed_model(R"(
        <ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 2]>
        g (string[3] names) => (int64[3] both) {
            both = ai.onnx.ml.LabelEncoder<keys_strings = ["a"], keys_int64s = [1], values_int64s = [1]>(names)
        }
    )"));
    REQUIRE(v2->report.diagnostics.size() == 1);
    CHECK(v2->report.diagnostics[0].message.find("2 of keys_strings, keys_int64s, keys_floats are given") !=
          std::string::npos);
}
