#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "core/text.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/pooling.hpp"
#include "rules/shape_query.hpp"

namespace irlint::cli {

void setup_shape(CLI::App& app, ShapeOptions& o) {
    app.footer(R"(Examples:
  irlint shape --op MaxPool --opset 14 --input 1,64,112,112 \
               --attr kernel=3,3 --attr strides=2,2 --attr rounding_type=ceil_torch
  irlint shape --op AvgPool --input 1,3,10..20,224 --attr kernel=3,3 --attr strides=2,2 --format json
  irlint shape --op AdaptiveMaxPool --input 1,3,32,32 --output-size 7,7
  irlint shape --op Convolution --input 1,3,224,224 --input 64,3,7,7 --attr strides=2,2 --attr pads_begin=3,3 \
               --attr pads_end=3,3 --attr dilations=1,1 --attr auto_pad=explicit
  irlint shape --op Reshape --input 1,3,224,224 --input 2:i64 --value 1=1,-1 --attr special_zero=false
  irlint shape --op Conv --domain ai.onnx --opset 11 --input 1,3,224,224 --input 64,3,7,7 --attr strides=2,2 \
               --attr pads=3,3,3,3

Without :TYPE an input is f32, or i64 when --value gives its values.
An ONNX op takes --domain, its attributes as ONNX names them (lists comma-separated).
Exit codes: 0 the layer is valid, 1 OpenVINO (ONNX) would reject it, 2 usage errors.)");
    app.add_option("--op", o.op,
                   "The IR type of any op `irlint ops` lists, any case: Convolution, Reshape, ...; with --domain, "
                   "the ONNX op type as spelled: Conv, Reshape, ...")
        ->required();
    std::vector<std::string> domains;
    for (const OnnxDomain& d : kOnnxDomains) domains.emplace_back(d.name);
    app.add_option("--domain", o.domain,
                   "An ONNX op's domain: ai.onnx, com.microsoft, ai.onnx.ml, ai.onnx.preview or "
                   "ai.onnx.preview.training (without it: an IR op)")
        ->check(CLI::IsMember(domains));
    app.add_option("--opset", o.opset,
                   "The opset the layer's version names, or the ONNX model's import of the domain (default: the "
                   "newest)")
        ->check(CLI::Range(1, kNewestOnnxOpset));
    app.add_option("--input", o.inputs,
                   "Input dims and element type, DIMS[:TYPE], in input order (repeatable), e.g. 1,3,32,32 or 2:i64 "
                   "(-1 or ? dynamic, 2..10 interval)")
        ->required();
    app.add_option("--value", o.values,
                   "The values of input INDEX (from 0), INDEX=v1,v2,... (repeatable): integers, or numbers for a "
                   "floating-point input");
    app.add_option("--attr", o.attrs, "Attribute as in the IR, KEY=VALUE (repeatable)");
    app.add_option(
        "--output-size", o.output_size,
        "Adaptive pools: the output_size values as DIMS, e.g. 7,7 or 2..6,? (-1 or ? unknown, 2..6 interval)");
    app.add_option("--format", o.format, "Output format")->check(CLI::IsMember({"text", "json"}));
}

namespace {

void write_ints(JsonWriter& json, std::string_view key, const std::vector<int64_t>& values) {
    json.key(key).begin_array();
    for (int64_t v : values) json.number(v);
    json.end();
}

std::string typed_shape(const Shape& shape, const std::optional<ElementType>& type) {
    return type ? fmt::format("{}:{}", shape.str(), element_type_name(*type)) : shape.str();
}

// The pooling ops: each output's dims and the effective pads.
std::string pool_json(const ShapeAnswer& a) {
    JsonWriter json;
    json.begin_object().key("outputs").begin_array();
    for (const ShapeOutput& out : a.outputs) json.raw(dims_json(out.shape));
    json.end();
    write_ints(json, "pads_begin", a.pads_begin);
    write_ints(json, "pads_end", a.pads_end);
    return json.end().take() + "\n";
}

// The pooling ops: the arithmetic per axis, the pads and each output.
std::string pool_text(const ShapeAnswer& a) {
    const Palette p = palette_for(STDOUT_FILENO);
    std::string out = fmt::format("{} on {}\n", fmt::styled(a.label, p.bold), a.input_shapes.front().str());
    for (size_t i = 0; i < a.axis_formulas.size(); ++i) out += fmt::format("  dim {}: {}\n", i + 2, a.axis_formulas[i]);
    if (!a.adaptive)
        out += fmt::format("  pads_begin {}  pads_end {}\n", join_ints(a.pads_begin), join_ints(a.pads_end));
    for (size_t k = 0; k < a.outputs.size(); ++k)
        out += fmt::format("output {}{}: {}\n", k,
                           k == 1 ? fmt::format(" (indices, {})", element_type_name(*a.outputs[1].type)) : "",
                           fmt::styled(a.outputs[k].shape.str(), p.ok));
    return out;
}

// "floor((224+3+3-7)/2)+1 = 112": the note with the dim it gives, unless the note already ends with it.
std::string dim_line(size_t i, const std::string& note, const Dim& dim) {
    const std::string result = fmt::format("= {}", dim.str());
    if (note == dim.str() || note.ends_with(result)) return fmt::format("    dim {}: {}\n", i, note);
    return fmt::format("    dim {}: {} {}\n", i, note, result);
}

std::string output_text(size_t k, const ShapeOutput& out, const Palette& p) {
    std::string text = fmt::format("  output {}: {}\n", k, fmt::styled(typed_shape(out.shape, out.type), p.ok));
    for (size_t i = 0; i < out.dim_notes.size() && i < out.shape.rank(); ++i)
        if (!out.dim_notes[i].empty()) text += dim_line(i, out.dim_notes[i], out.shape.dims[i]);
    return text;
}

// The registry's ops: the outputs with their element types and the arithmetic per dim.
std::string op_text(const ShapeAnswer& a) {
    const Palette p = palette_for(STDOUT_FILENO);
    std::string text = fmt::format("{} on", fmt::styled(a.label, p.bold));
    for (size_t i = 0; i < a.input_shapes.size(); ++i) text += fmt::format(" {}", typed_shape(a.input_shapes[i], a.input_types[i]));
    text += "\n";
    for (size_t k = 0; k < a.outputs.size(); ++k) text += output_text(k, a.outputs[k], p);
    if (a.unknown)
        text += fmt::format("  note: {}; the outputs are what OpenVINO infers without it (give it with --value)\n",
                            printable(*a.unknown, kPrintedMessageChars));
    return text;
}

std::string op_json(const ShapeAnswer& a) {
    JsonWriter json;
    json.begin_object().key("outputs").begin_array();
    for (const ShapeOutput& out : a.outputs) json.raw(dims_json(out.shape));
    json.end().key("types").begin_array();
    for (const ShapeOutput& out : a.outputs) {
        if (out.type) json.string(element_type_name(*out.type));
        else json.null();
    }
    json.end();
    if (a.unknown) json.key("unknown").string(*a.unknown);
    return json.end().take() + "\n";
}

ShapeQuery query_for(const ShapeOptions& o) {
    ShapeQuery q{o.op, o.opset, o.inputs, o.values, o.attrs, o.output_size, std::nullopt};
    if (!o.domain.empty()) q.domain = o.domain;
    return q;
}

// The attribute issues of a pooling op (warnings too) in their own words; then why the layer is rejected,
// as `check` would word it, or why the question cannot be read.
void print_problems(const ShapeAnswer& a) {
    for (const AttrIssue& issue : a.attr_issues)
        fmt::print(stderr, "irlint: {}: {}: {}\n", severity_name(issue.severity), printable(a.label),
                   printable(issue.message, kPrintedMessageChars));
    for (size_t i = 0; i < a.findings.size(); ++i) {
        if (i < a.attr_issues.size()) keep_finding(a.findings[i]);
        else print_finding_error(a.findings[i].message, a.findings[i]);
    }
    if (a.status == ShapeAnswer::Status::usage) print_error(a.usage_error);
}

}  // namespace

std::vector<std::string> shape_report_lists(const ShapeOptions& o) {
    return irlint::shape_report_lists(o.op, !o.domain.empty());
}

// Reads the op, the inputs and the attributes as `check` would, infers, and prints the arithmetic or JSON.
int run_shape(const ShapeOptions& o) {
    const ShapeAnswer a = answer_shape(query_for(o));
    print_problems(a);
    if (a.status == ShapeAnswer::Status::usage) return exit_code::usage;
    if (a.status == ShapeAnswer::Status::rejected) return exit_code::findings;
    const bool json = o.format == "json";
    return emit_output("", a.pooling ? (json ? pool_json(a) : pool_text(a)) : (json ? op_json(a) : op_text(a)));
}

}  // namespace irlint::cli
