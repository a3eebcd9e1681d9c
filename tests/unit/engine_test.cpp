#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "ir/reader.hpp"
#include "exec/layer_run.hpp"
#include "rules/engine.hpp"
#include "model_files.hpp"

using namespace irlint;

namespace {
std::string dims(const std::vector<int64_t>& v) {
    std::string out;
    for (int64_t d : v) out += "<dim>" + std::to_string(d) + "</dim>";
    return out;
}

// Parameter -> one pooling layer -> Result, with the pooling layer's attributes and outputs given.
std::string pool_model(const std::string& type, const std::string& version, const std::string& data,
                       const std::vector<int64_t>& in, const std::vector<std::vector<int64_t>>& outs,
                       const std::string& param_shape = "", const std::vector<std::string>& out_prec = {}) {
    std::string shape_attr = param_shape.empty() ? "" : " shape=\"" + param_shape + "\"";
    std::string outputs;
    for (size_t k = 0; k < outs.size(); ++k) {
        const std::string prec = k < out_prec.size() ? out_prec[k] : (k == 1 ? "I64" : "FP32");
        outputs += "<port id=\"" + std::to_string(k + 1) + "\" precision=\"" + prec + "\">" + dims(outs[k]) + "</port>";
    }
    return R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data element_type="f32")" + shape_attr + R"(/>
  <output><port id="0" precision="FP32">)" + dims(in) + R"(</port></output></layer>
<layer id="1" name="pool" type=")" + type + R"(" version=")" + version + R"(">
  <data )" + data + R"(/>
  <input><port id="0" precision="FP32">)" + dims(in) + R"(</port></input>
  <output>)" + outputs + R"(</output></layer>
<layer id="2" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32">)" + dims(outs[0]) + R"(</port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
</edges></net>)";
}

ModelReport check(const std::string& xml) {
    ReadResult r = read_model_from_memory(xml, "mem.xml");
    REQUIRE(r.model);
    return check_model(*r.model);
}

const Diagnostic* find(const ModelReport& r, std::string_view rule) {
    auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                           [&](const Diagnostic& d) { return d.rule == rule; });
    return it == r.diagnostics.end() ? nullptr : &*it;
}

const char* kAvg = R"(kernel="5,5" strides="2,2" pads_begin="1,1" pads_end="1,1" exclude-pad="true" rounding_type="floor" auto_pad="explicit")";
}  // namespace

TEST_CASE("a correct pooling layer has no findings beyond notes") {
    const ModelReport r = check(pool_model("AvgPool", "opset1", kAvg, {1, 3, 32, 32}, {{1, 3, 15, 15}}));
    CHECK(r.pooling_checked == 1);
    CHECK(std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity != Severity::note; }));
    CHECK(r.layers[1].status == LayerStatus::ok);
    CHECK(r.layers[1].inferred[0].str() == "[1,3,15,15]");
}

TEST_CASE("a wrong declared dim is reported with the arithmetic and the fix") {
    const ModelReport r = check(pool_model("AvgPool", "opset1", kAvg, {1, 3, 32, 32}, {{1, 3, 16, 16}}));
    const Diagnostic* d = find(r, "output-shape-mismatch");
    REQUIRE(d);
    CHECK(d->severity == Severity::error);
    CHECK(d->line == 7);
    CHECK(d->layer.name == "pool");
    CHECK(d->layer.type == "AvgPool");
    CHECK(d->message ==
          "AvgPool-1 output 1 is declared [1,3,16,16], OpenVINO infers [1,3,15,15]: dim 2: floor((32+1+1-5)/2)+1 = "
          "15, declared 16; dim 3: floor((32+1+1-5)/2)+1 = 15, declared 16; rounding_type=ceil gives the declared "
          "dims; reaches output 'y': [1,3,16,16] becomes [1,3,15,15] through 1 layer");
    CHECK(r.layers[1].status == LayerStatus::mismatch);
}

TEST_CASE("intervals of a Parameter's shape reach the pooling layer") {
    const ModelReport r = check(pool_model("MaxPool", "opset1", R"(kernel="2,2" strides="2,2")", {1, 3, -1, -1},
                                           {{1, 3, -1, -1}}, "1,3,16..64,?"));
    CHECK(r.layers[1].inputs[0].str() == "[1,3,16..64,?]");
    CHECK(r.layers[1].inferred[0].str() == "[1,3,8..32,1..]");  // ? - 2 is clipped at 0, then +1
    CHECK(r.layers[1].status == LayerStatus::ok);
    CHECK_FALSE(find(r, "output-shape-mismatch"));
}

TEST_CASE("declared static dims where the input is dynamic are a warning, not an error") {
    const ModelReport r = check(pool_model("MaxPool", "opset1", R"(kernel="2,2" strides="2,2")", {1, 3, -1, -1},
                                           {{1, 3, 8, 8}}));
    const Diagnostic* d = find(r, "output-shape-mismatch");
    REQUIRE(d);
    CHECK(d->severity == Severity::warning);
}

TEST_CASE("MaxPool-8 index output type follows index_element_type") {
    const std::string data = R"(kernel="2,2" strides="2,2" index_element_type="i32")";
    const ModelReport bad = check(pool_model("MaxPool", "opset8", data, {1, 3, 8, 8}, {{1, 3, 4, 4}, {1, 3, 4, 4}}));
    const Diagnostic* d = find(bad, "output-type-mismatch");
    REQUIRE(d);
    CHECK(d->message.find("(indices) is declared i64, OpenVINO gives i32") != std::string::npos);
    const ModelReport good = check(
        pool_model("MaxPool", "opset8", data, {1, 3, 8, 8}, {{1, 3, 4, 4}, {1, 3, 4, 4}}, "", {"FP32", "I32"}));
    CHECK_FALSE(find(good, "output-type-mismatch"));
}

TEST_CASE("a stale precision on an index port nothing consumes is a warning, consumed it is an error") {
    const std::string data = R"(kernel="2,2" strides="2,2")";
    std::string xml = pool_model("MaxPool", "opset8", data, {1, 3, 8, 8}, {{1, 3, 4, 4}, {1, 3, 4, 4}}, "",
                                 {"FP32", "FP32"});
    const ModelReport stale = check(xml);
    const Diagnostic* d = find(stale, "output-type-mismatch");
    REQUIRE(d);
    CHECK(d->severity == Severity::warning);
    CHECK(d->message ==
          "MaxPool-8 output 2 (indices) is declared f32, OpenVINO gives i64 (index_element_type=i64); nothing "
          "consumes this port and OpenVINO does not check a declared output precision, so the model loads and runs "
          "with i64 here");
    CHECK(stale.layers[1].status == LayerStatus::ok);

    const std::string result2 = R"(<layer id="3" name="idx" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>4</dim><dim>4</dim></port></input></layer>
</layers>)";
    xml.replace(xml.find("</layers>"), 9, result2);
    xml.replace(xml.find("</edges>"), 8, R"(<edge from-layer="1" from-port="2" to-layer="3" to-port="0"/></edges>)");
    const ModelReport consumed = check(xml);
    d = find(consumed, "output-type-mismatch");
    REQUIRE(d);
    CHECK(d->severity == Severity::error);
    CHECK(consumed.layers[1].status == LayerStatus::mismatch);
}

TEST_CASE("the producer named in <meta_data> or <rt_info> is read and described") {
    const std::string base = pool_model("MaxPool", "opset8", R"(kernel="2,2" strides="2,2")", {1, 3, 8, 8},
                                        {{1, 3, 4, 4}, {1, 3, 4, 4}}, "", {"FP32", "FP32"});
    auto with_tail = [&](const std::string& tail) {
        std::string xml = base;
        xml.replace(xml.rfind("</net>"), 6, tail + "</net>");
        ReadResult r = read_model_from_memory(xml, "mem.xml");
        REQUIRE(r.model);
        return r.model->producer;
    };
    const Producer mo = with_tail(R"(<meta_data><MO_version value="2022.3.0-9052-9752fafe8eb-releases/2022/3"/>
<Runtime_version value="2022.3.0-9052-9752fafe8eb-releases/2022/3"/><legacy_path value="True"/>
<cli_parameters><compress_fp16 value="True"/></cli_parameters></meta_data>
<quantization_parameters><config>{}</config></quantization_parameters>)");
    CHECK(mo.describe() == "Model Optimizer 2022.3.0 (legacy path), quantized by POT, weights compressed to FP16");
    CHECK(mo.legacy_model_optimizer());
    CHECK(mo.section == "meta_data");
    CHECK(mo.line > 0);

    const Producer old_mo = with_tail(R"(<meta_data><MO_version value="2021.4.0-3827-c5b65f2cb1d-releases/2021/4"/>
<cli_parameters><data_type value="FP32"/></cli_parameters></meta_data>)");
    CHECK(old_mo.describe() == "Model Optimizer 2021.4.0");
    CHECK(old_mo.legacy_model_optimizer());  // before 2022.1 there was only the Python pipeline

    const Producer ovc = with_tail(R"(<rt_info><Runtime_version value="2025.1.0-18503-6fec06580ab-releases/2025/1"/>
<conversion_parameters><framework value="onnx"/><info name="compress_to_fp16" value="true"/></conversion_parameters>
<nncf><quantization/></nncf></rt_info><meta_data><MO_version value="2020.1"/></meta_data>)");
    CHECK(ovc.describe() == "OpenVINO 2025.1.0 (ovc or save_model), quantized by NNCF, weights compressed to FP16");
    CHECK_FALSE(ovc.legacy_model_optimizer());
    CHECK(ovc.section == "rt_info");

    const Producer custom = with_tail(R"(<rt_info><MO_version value="custom_master_a1d858c5028c"/><legacy_path value="False"/></rt_info>)");
    CHECK(custom.describe() == "Model Optimizer (new front end)");
    CHECK_FALSE(with_tail("<rt_info/>").known());

    // The warning names the producer, and why the legacy pipeline wrote f32.
    std::string xml = base;
    xml.replace(xml.rfind("</net>"), 6, R"(<meta_data><MO_version value="2021.4.2-3974-e2a469a3450-releases/2021/4"/></meta_data></net>)");
    const ModelReport r = check(xml);
    const Diagnostic* d = find(r, "output-type-mismatch");
    REQUIRE(d);
    CHECK(d->message.find("(written by Model Optimizer 2021.4.2, per its <meta_data>; Model Optimizer's Python graph, "
                          "which POT saves through, gives an unconnected indices port the input's type)") !=
          std::string::npos);
}

TEST_CASE("value output type must be the input type") {
    const ModelReport r = check(pool_model("MaxPool", "opset1", R"(kernel="2,2" strides="2,2")", {1, 3, 8, 8},
                                           {{1, 3, 4, 4}}, "", {"FP16"}));
    const Diagnostic* d = find(r, "output-type-mismatch");
    REQUIRE(d);
    CHECK(d->message.find("(values) is declared f16, OpenVINO gives f32") != std::string::npos);
}

TEST_CASE("invalid attributes are attr-invalid and stop the shape check") {
    const ModelReport r = check(pool_model("MaxPool", "opset8", R"(kernel="2,2" strides="2,2" rounding_type="ceil_torch")",
                                           {1, 3, 8, 8}, {{1, 3, 4, 4}, {1, 3, 4, 4}}));
    const Diagnostic* d = find(r, "attr-invalid");
    REQUIRE(d);
    CHECK(d->message.find("ceil_torch is not supported by MaxPool-8") != std::string::npos);
    CHECK(r.layers[1].status == LayerStatus::invalid);
    CHECK_FALSE(find(r, "output-shape-mismatch"));
}

TEST_CASE("MaxPool-8 axis must lie within the input rank") {
    const ModelReport r = check(pool_model("MaxPool", "opset8", R"(kernel="2,2" strides="2,2" axis="4")",
                                           {1, 3, 8, 8}, {{1, 3, 4, 4}, {1, 3, 4, 4}}));
    const Diagnostic* d = find(r, "attr-invalid");
    REQUIRE(d);
    CHECK(d->message.find("axis=4 is out of the range [-4, 3]") != std::string::npos);
}

TEST_CASE("a MaxPool-8 layer may leave its indices port out, as any op may its last outputs") {
    const ModelReport r = check(pool_model("MaxPool", "opset8", R"(kernel="2,2" strides="2,2")", {1, 3, 8, 8},
                                           {{1, 3, 4, 4}}));
    CHECK_FALSE(find(r, "ir-structure"));
    CHECK(r.layers[1].status == LayerStatus::ok);
    CHECK(r.layers[1].inferred.size() == 1);
    CHECK(r.pooling_checked == 1);
}

TEST_CASE("layer types without rules are summarized in one note") {
    const ModelReport r = check(pool_model("MaxPool", "opset1", R"(kernel="2,2" strides="2,2")", {1, 3, 8, 8},
                                           {{1, 3, 4, 4}}));
    CHECK_FALSE(find(r, "unsupported-op"));
    const ModelReport ext = check(pool_model("MaxPool", "extension", R"(kernel="2,2")", {1, 3, 8, 8}, {{1, 3, 4, 4}}));
    const Diagnostic* d = find(ext, "unsupported-op");
    REQUIRE(d);
    CHECK(d->severity == Severity::note);
    CHECK(d->message == "1 layer of 1 type without rules was not checked: MaxPool x1");
}

TEST_CASE("AdaptiveAvgPool reads output_size from the Const in the .bin") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "irlint-engine-test";
    fs::create_directories(dir);
    {
        std::ofstream bin(dir / "m.bin", std::ios::binary);
        const int64_t values[2] = {5, 7};
        bin.write(reinterpret_cast<const char*>(values), sizeof(values));
    }
    const std::string xml = R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,6,8,9" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>1</dim><dim>6</dim><dim>8</dim><dim>9</dim></port></output></layer>
<layer id="1" name="size" type="Const" version="opset1"><data element_type="i64" shape="2" offset="0" size="16"/>
  <output><port id="0" precision="I64"><dim>2</dim></port></output></layer>
<layer id="2" name="pool" type="AdaptiveAvgPool" version="opset8">
  <input><port id="0" precision="FP32"><dim>1</dim><dim>6</dim><dim>8</dim><dim>9</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
  <output><port id="2" precision="FP32"><dim>1</dim><dim>6</dim><dim>5</dim><dim>6</dim></port></output></layer>
<layer id="3" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>1</dim><dim>6</dim><dim>5</dim><dim>6</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges></net>)";
    ReadResult r = read_model_from_memory(xml, (dir / "m.xml").string());
    REQUIRE(r.model);
    REQUIRE(r.model->bin_present);
    const ModelReport report = check_model(*r.model);
    CHECK(report.layers[2].inferred[0].str() == "[1,6,5,7]");
    const Diagnostic* d = find(report, "output-shape-mismatch");
    REQUIRE(d);
    CHECK(d->message.find("declared [1,6,5,6], OpenVINO infers [1,6,5,7]") != std::string::npos);

    ReadResult no_bin = read_model_from_memory(xml, (dir / "absent.xml").string());
    const ModelReport dynamic = check_model(*no_bin.model);
    CHECK(dynamic.layers[2].inferred[0].str() == "[1,6,?,?]");
    const Diagnostic* note = find(dynamic, "const-data-invalid");
    REQUIRE(note);
    CHECK(note->severity == Severity::note);
    fs::remove_all(dir);
}

TEST_CASE("a Range to a dim known only at run time is checked fully once every Const is read") {
    const auto scalar = [](int id, const char* name, int offset) {
        return fmt::format(R"(<layer id="{}" name="{}" type="Const" version="opset1"><data element_type="i64" )"
                           R"(shape="" offset="{}" size="8"/><output><port id="0" precision="I64"/></output></layer>)",
                           id, name, offset);
    };
    const std::string xml = R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="?" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>-1</dim></port></output></layer>
<layer id="1" name="shape" type="ShapeOf" version="opset3"><data output_type="i64"/>
  <input><port id="0" precision="FP32"><dim>-1</dim></port></input>
  <output><port id="1" precision="I64"><dim>1</dim></port></output></layer>)" +
                            scalar(2, "zero", 0) + R"(
<layer id="3" name="n" type="Gather" version="opset8"><data batch_dims="0"/>
  <input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"/><port id="2" precision="I64"/></input>
  <output><port id="3" precision="I64"/></output></layer>)" +
                            scalar(4, "one", 8) + R"(
<layer id="5" name="r" type="Range" version="opset4"><data output_type="i64"/>
  <input><port id="0" precision="I64"/><port id="1" precision="I64"/><port id="2" precision="I64"/></input>
  <output><port id="3" precision="I64"><dim>-1</dim></port></output></layer>
<layer id="6" name="y" type="Result" version="opset1"><input><port id="0" precision="I64"><dim>-1</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="3" to-port="0"/>
<edge from-layer="2" from-port="0" to-layer="3" to-port="1"/>
<edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>
<edge from-layer="2" from-port="0" to-layer="5" to-port="0"/>
<edge from-layer="3" from-port="3" to-layer="5" to-port="1"/>
<edge from-layer="4" from-port="0" to-layer="5" to-port="2"/>
<edge from-layer="5" from-port="3" to-layer="6" to-port="0"/>
</edges></net>)";
    const int64_t zero_one[2] = {0, 1};
    const ModelReport full = check_model(test::model_with_bin(xml, "irlint-engine-range", test::bytes_of(zero_one)));
    CHECK(full.diagnostics.empty());
    CHECK(full.layers[5].inferred[0].str() == "[?]");
    CHECK(full.layers[5].checked);

    // Without the .bin, start and step are not known: OpenVINO would know them, so the Range is not fully checked.
    const ModelReport partial = check_model(test::model_without_bin(xml));
    CHECK_FALSE(partial.layers[5].checked);
    CHECK(partial.layers[5].checked_by_invariants);
}

TEST_CASE("f16 Consts are read as numbers: Range-4's length from them") {
    const auto scalar = [](int id, int offset) {
        return fmt::format(R"(<layer id="{}" name="c{}" type="Const" version="opset1"><data element_type="f16" )"
                           R"(shape="" offset="{}" size="2"/><output><port id="0" precision="FP16"/></output></layer>)",
                           id, id, offset);
    };
    const std::string xml = R"(<net version="11"><layers>)" + scalar(0, 0) + scalar(1, 2) + scalar(2, 4) + R"(
<layer id="3" name="r" type="Range" version="opset4"><data output_type="f32"/>
  <input><port id="0" precision="FP16"/><port id="1" precision="FP16"/><port id="2" precision="FP16"/></input>
  <output><port id="3" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="4" name="y" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>4</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>
<edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>
<edge from-layer="3" from-port="3" to-layer="4" to-port="0"/>
</edges></net>)";
    const uint16_t values[3] = {0x3C00, 0x4500, 0x3E00};  // 1.0, 5.0, 1.5
    const ModelReport report = check_model(test::model_with_bin(xml, "irlint-engine-range-f16", test::bytes_of(values)));
    CHECK(report.layers[3].inferred[0].str() == "[3]");
    const Diagnostic* d = find(report, "output-shape-mismatch");
    REQUIRE(d);
    CHECK(d->message.find("declared [4], OpenVINO infers [3]") != std::string::npos);
}

TEST_CASE("Interpolate sizes computed in f32 from the input's dims: Convert(ShapeOf) * 1.5, Floor, Convert") {
    const auto xml = [](int declared_h) {
        return fmt::format(R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,3,15,20" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>15</dim><dim>20</dim></port></output></layer>
<layer id="1" name="dims" type="ShapeOf" version="opset3"><data output_type="i64"/>
  <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>15</dim><dim>20</dim></port></input>
  <output><port id="1" precision="I64"><dim>4</dim></port></output></layer>
<layer id="2" name="dims_f" type="Convert" version="opset1"><data destination_type="f32"/>
  <input><port id="0" precision="I64"><dim>4</dim></port></input>
  <output><port id="1" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="3" name="k" type="Const" version="opset1"><data element_type="f32" shape="4" offset="0" size="16"/>
  <output><port id="0" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="4" name="scaled" type="Multiply" version="opset1"><data auto_broadcast="numpy"/>
  <input><port id="0" precision="FP32"><dim>4</dim></port><port id="1" precision="FP32"><dim>4</dim></port></input>
  <output><port id="2" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="5" name="down" type="Floor" version="opset1">
  <input><port id="0" precision="FP32"><dim>4</dim></port></input>
  <output><port id="1" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="6" name="sizes" type="Convert" version="opset1"><data destination_type="i64"/>
  <input><port id="0" precision="FP32"><dim>4</dim></port></input>
  <output><port id="1" precision="I64"><dim>4</dim></port></output></layer>
<layer id="7" name="up" type="Interpolate" version="opset11">
  <data mode="nearest" shape_calculation_mode="sizes" coordinate_transformation_mode="asymmetric"
        nearest_mode="floor" antialias="false" pads_begin="0,0,0,0" pads_end="0,0,0,0" cube_coeff="-0.75"/>
  <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>15</dim><dim>20</dim></port>
    <port id="1" precision="I64"><dim>4</dim></port></input>
  <output><port id="2" precision="FP32"><dim>1</dim><dim>3</dim><dim>{}</dim><dim>30</dim></port></output></layer>
<layer id="8" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>{}</dim><dim>30</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
<edge from-layer="2" from-port="1" to-layer="4" to-port="0"/>
<edge from-layer="3" from-port="0" to-layer="4" to-port="1"/>
<edge from-layer="4" from-port="2" to-layer="5" to-port="0"/>
<edge from-layer="5" from-port="1" to-layer="6" to-port="0"/>
<edge from-layer="0" from-port="0" to-layer="7" to-port="0"/>
<edge from-layer="6" from-port="1" to-layer="7" to-port="1"/>
<edge from-layer="7" from-port="2" to-layer="8" to-port="0"/>
</edges></net>)",
                           declared_h, declared_h);
    };
    const float scale[4] = {1.0f, 1.0f, 1.5f, 1.5f};
    // 15 * 1.5 = 22.5 and 20 * 1.5 = 30, floored: [1,3,22,30].
    const ModelReport right = check_model(test::model_with_bin(xml(22), "irlint-engine-f32-sizes", test::bytes_of(scale)));
    CHECK(right.diagnostics.empty());
    CHECK(right.layers[7].inferred[0].str() == "[1,3,22,30]");
    CHECK(right.layers[7].checked);
    const ModelReport wrong = check_model(test::model_with_bin(xml(23), "irlint-engine-f32-sizes", test::bytes_of(scale)));
    const Diagnostic* d = find(wrong, "output-shape-mismatch");
    REQUIRE(d);
    CHECK(d->message.find("[1,3,22,30]") != std::string::npos);
}

TEST_CASE("a Const whose data runs past the .bin is const-data-invalid") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "irlint-engine-const";
    fs::create_directories(dir);
    std::ofstream(dir / "m.bin", std::ios::binary) << "12345678";
    const std::string xml = R"(<net version="11"><layers>
<layer id="0" name="c" type="Const" version="opset1"><data element_type="i64" shape="2" offset="4" size="16"/>
  <output><port id="0" precision="I64"><dim>2</dim></port></output></layer>
<layer id="1" name="y" type="Result" version="opset1"><input><port id="0" precision="I64"><dim>2</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>)";
    ReadResult r = read_model_from_memory(xml, (dir / "m.xml").string());
    const ModelReport report = check_model(*r.model);
    const Diagnostic* d = find(report, "const-data-invalid");
    REQUIRE(d);
    CHECK(d->severity == Severity::error);
    CHECK(d->message == "Const data at offset 4 with size 16 ends past the end of the .bin (8 bytes)");
    fs::remove_all(dir);
}

TEST_CASE("an error finding on a layer makes it invalid; a cycle makes every layer on it invalid") {
    std::string fed_twice = pool_model("AvgPool", "opset1", kAvg, {1, 3, 32, 32}, {{1, 3, 15, 15}});
    fed_twice.insert(fed_twice.find("</edges>"),
                     "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/>\n");
    const ModelReport r = check(fed_twice);
    REQUIRE(find(r, "ir-structure"));
    CHECK(find(r, "ir-structure")->message.find("fed twice") != std::string::npos);
    CHECK(r.layers[0].status == LayerStatus::ok);
    CHECK(r.layers[1].status == LayerStatus::invalid);
    CHECK(r.layers[1].pooling);
    CHECK_FALSE(r.layers[0].pooling);

    const char* identity = R"(kernel="1,1" strides="1,1" pads_begin="0,0" pads_end="0,0" exclude-pad="true")";
    std::string cycle = pool_model("AvgPool", "opset1", identity, {1, 3, 32, 32}, {{1, 3, 32, 32}});
    // the pool feeds itself instead of being fed by the Parameter
    cycle.replace(cycle.find("<edge from-layer=\"0\""), 61,
                  "<edge from-layer=\"1\" from-port=\"1\" to-layer=\"1\" to-port=\"0\"/>");
    const ModelReport c = check(cycle);
    REQUIRE(find(c, "ir-structure"));
    CHECK(c.layers[1].status == LayerStatus::invalid);
    CHECK(c.layers[2].status == LayerStatus::invalid);  // the Result behind the cycle
}

TEST_CASE("a run that compared nothing is not-compared; an output declared otherwise is a warning") {
    // The report points into the model: both stay alive while the run is finished.
    ReadResult read = read_model_from_memory(pool_model("AvgPool", "opset1", kAvg, {1, 3, 32, 32}, {{1, 3, 16, 16}}),
                                             "mem.xml");
    REQUIRE(read.model);
    const ModelReport r = check_model(*read.model);
    const LayerShapes& pool = r.layers[1];
    LayerRun run;
    OutputRun out;
    out.shape = {1, 3, 15, 15};
    out.type = ElementType::f16;
    run.outputs.push_back(out);
    finish_run(pool, run);
    CHECK(run.status == RunStatus::not_compared);
    CHECK(run_status_name(run.status) == "not-compared");
    REQUIRE(run.warnings.size() == 2);
    CHECK(run.warnings[0] == "output 0 is declared [1,3,16,16], but the layer computes [1,3,15,15] from this input");
    CHECK(run.warnings[1] == "output 0 is declared f32, but the layer computes f16");

    LayerRun compared;
    out.expect_path = "y.npy";
    out.type = ElementType::f32;
    out.shape = {1, 3, 16, 16};
    compared.outputs.push_back(out);
    finish_run(pool, compared);
    CHECK(compared.status == RunStatus::ok);
    CHECK(compared.warnings.empty());
}

namespace {
// Parameter [1,255,80,80] -> Reshape by a Const target whose data is not there (no .bin) -> Result.
std::string reshape_without_bin(const std::vector<int64_t>& declared) {
    return R"(<net version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data element_type="f32" shape="1,255,80,80"/>
  <output><port id="0" precision="FP32">)" + dims({1, 255, 80, 80}) + R"(</port></output></layer>
<layer id="1" name="target" type="Const" version="opset1"><data element_type="i64" shape="4" offset="0" size="32"/>
  <output><port id="0" precision="I64"><dim>4</dim></port></output></layer>
<layer id="2" name="r" type="Reshape" version="opset1"><data special_zero="false"/>
  <input><port id="0" precision="FP32">)" + dims({1, 255, 80, 80}) + R"(</port><port id="1" precision="I64"><dim>4</dim></port></input>
  <output><port id="2" precision="FP32">)" + dims(declared) + R"(</port></output></layer>
<layer id="3" name="y" type="Result" version="opset1">
  <input><port id="0" precision="FP32">)" + dims(declared) + R"(</port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges></net>)";
}
}  // namespace

TEST_CASE("a layer whose value is unknown is checked by its op's invariants") {
    const ModelReport good = check(reshape_without_bin({1, 3, 85, 6400}));
    CHECK(find(good, "output-shape-mismatch") == nullptr);
    CHECK(good.checked_by_invariants == 1);
    REQUIRE(good.layers.size() == 4);
    const LayerShapes* row = &good.layers[2];  // file order; the model, which `layer` points into, is gone
    CHECK(row->checked_by_invariants);
    CHECK_FALSE(row->checked);
    CHECK_FALSE(row->not_checked.has_value());

    const ModelReport bad = check(reshape_without_bin({1, 3, 85, 6401}));
    const Diagnostic* d = find(bad, "output-shape-mismatch");
    REQUIRE(d);
    CHECK(d->severity == Severity::error);
    CHECK(d->layer.id == "2");
    CHECK(d->message == "Reshape-1 output 2: Reshape keeps 1x255x80x80 = 1632000 elements, declared [1,3,85,6401] has "
                        "1632255 (the target shape (input 1) is not known)");
}

TEST_CASE("layers whose values are unknown: one values-unknown note per op type, the reason said once") {
    // Eye's dims are its inputs' values, and nothing holds of them without the values (no invariant).
    std::string layers, edges;
    for (int k = 0; k < 3; ++k) {
        const std::string r = std::to_string(2 + 2 * k), out = std::to_string(3 + 2 * k);
        layers += R"(<layer id=")" + r + R"(" name="r)" + std::to_string(k) + R"(" type="Eye" version="opset9">
  <data output_type="f32"/><input><port id="0" precision="I64"/>
  <port id="1" precision="I64"/><port id="2" precision="I64"/></input>
  <output><port id="3" precision="FP32"><dim>3</dim><dim>4</dim></port></output></layer>
<layer id=")" + out + R"(" name="y)" + std::to_string(k) + R"(" type="Result" version="opset1">
  <input><port id="0" precision="FP32"><dim>3</dim><dim>4</dim></port></input></layer>
)";
        for (int port = 0; port < 3; ++port)
            edges += R"(<edge from-layer="1" from-port="0" to-layer=")" + r + R"(" to-port=")" + std::to_string(port) +
                     R"("/>
)";
        edges += R"(<edge from-layer=")" + r + R"(" from-port="3" to-layer=")" + out + R"(" to-port="0"/>
)";
    }
    const ModelReport r = check(R"(<net version="11"><layers>
<layer id="1" name="count" type="Const" version="opset1"><data element_type="i64" shape="" offset="0" size="8"/>
  <output><port id="0" precision="I64"/></output></layer>
)" + layers + "</layers><edges>" + edges + "</edges></net>");
    CHECK_FALSE(find(r, "unsupported-op"));
    REQUIRE(std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                          [](const Diagnostic& d) { return d.rule == "values-unknown"; }) == 1);
    const Diagnostic& d = *find(r, "values-unknown");
    CHECK(d.severity == Severity::note);
    CHECK(d.layer == LayerRef{"", "", "Eye"});  // a fingerprint per op type
    INFO(d.message);
    CHECK(d.line == 4);                             // the first such layer's
    CHECK(d.message.rfind("3 Eye layers ", 0) == 0);
    const std::string cause = "(Const data not available: no .bin beside the .xml)";
    CHECK(d.message.find(cause) != std::string::npos);
    CHECK(d.message.find(cause) == d.message.rfind(cause));
    CHECK(d.message.find("; e.g. layer 2 'r0': the number of rows or columns is not known") != std::string::npos);
    CHECK(d.message.find("r1") == std::string::npos);
}

TEST_CASE("infer's status: 'invariants' for an ok layer checked by invariants only") {
    LayerShapes row;
    row.status = LayerStatus::ok;
    CHECK(layer_status_name(row) == "ok");
    row.checked_by_invariants = true;
    CHECK(layer_status_name(row) == "invariants");
    row.status = LayerStatus::mismatch;  // a violated invariant is a mismatch
    CHECK(layer_status_name(row) == "mismatch");
}
