#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/shape_op.hpp"
#include "core/text.hpp"
#include "rules/pool_attrs.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/pool_rules.hpp"
#include "rules/registry.hpp"

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

Without :TYPE an input is f32, or i64 when --value gives its values.
Exit codes: 0 the layer is valid, 1 OpenVINO would reject it, 2 usage errors.)");
    app.add_option("--op", o.op, "The IR type of any op `irlint ops` lists, any case: Convolution, Reshape, ...")
        ->required();
    app.add_option("--opset", o.opset, "The opset the layer's version names (default: the newest)")
        ->check(CLI::Range(1, kNewestOpset));
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

// What `check` would report on such a layer, for the JSON error document: the layer has only its type.
Diagnostic attr_finding(Severity severity, const PoolOp& op, std::string message) {
    return make_finding(rule::attr_invalid, severity, std::move(message), 0, {"", "", std::string(op.type_name())});
}

// The attribute findings, as `check` would word them, on stderr.
void print_attr_issues(const PoolOp& op, const ParsedAttrs& parsed, const std::string& label) {
    for (const AttrIssue& issue : parsed.issues) {
        fmt::print(stderr, "irlint: {}: {}: {}\n", severity_name(issue.severity), printable(label),
                   printable(issue.message, kPrintedMessageChars));
        keep_finding(attr_finding(issue.severity, op, fmt::format("{}: {}", label, issue.message)));
    }
}

// An adaptive pool's output from --output-size (dynamic dims when it is not given); nullopt (and the error
// printed) for sizes that cannot be read.
std::optional<PoolShape> infer_adaptive(const ShapeOptions& o, const Shape& input) {
    std::optional<std::vector<Dim>> sizes;
    Shape size_shape{false, {Dim::dynamic()}};
    if (!o.output_size.empty()) {
        std::string error;
        const auto dims = parse_shape(o.output_size, &error);
        if (!dims || dims->rank_dynamic) {
            print_error(fmt::format("--output-size {}: {}", o.output_size,
                                    dims ? "give one dim per spatial axis, not '...'" : error));
            return std::nullopt;
        }
        sizes = dims->dims;
        size_shape.dims = {Dim(static_cast<int64_t>(sizes->size()))};
    }
    return infer_adaptive_shape_from_dims(input, size_shape, sizes);
}

std::string shape_json(const PoolOp& op, const PoolShape& result) {
    JsonWriter json;
    json.begin_object().key("outputs").begin_array();
    for (size_t k = 0; k < op.output_count(); ++k) json.raw(dims_json(result.output));
    json.end();
    write_ints(json, "pads_begin", result.pads_begin);
    write_ints(json, "pads_end", result.pads_end);
    return json.end().take() + "\n";
}

// The arithmetic per axis, the pads and each output.
std::string shape_text(const PoolOp& op, const ParsedAttrs& parsed, const PoolShape& result, const std::string& label,
                       const Shape& input) {
    const Palette p = palette_for(STDOUT_FILENO);
    std::string out = fmt::format("{} on {}\n", fmt::styled(label, p.bold), input.str());
    for (size_t i = 0; i < result.axis_formulas.size(); ++i)
        out += fmt::format("  dim {}: {}\n", i + 2, result.axis_formulas[i]);
    if (!op.is_adaptive())
        out += fmt::format("  pads_begin {}  pads_end {}\n", join_ints(result.pads_begin), join_ints(result.pads_end));
    const auto types = pool_output_types(op, parsed.desc, ElementType::f32);
    for (size_t k = 0; k < op.output_count(); ++k)
        out += fmt::format("output {}{}: {}\n", k, k == 1 ? fmt::format(" (indices, {})", element_type_name(types[1])) : "",
                           fmt::styled(result.output.str(), p.ok));
    return out;
}

// The pooling ops' own arithmetic: the pads, the rounding, the output_size of --output-size.
int run_pool_shape(const ShapeOptions& o, int opset) {
    const auto op = pool_op_for(o.op, opset);
    if (!op) {
        print_error(fmt::format("--op {}: not a pooling operator of opset{} (AvgPool, MaxPool, AdaptiveAvgPool, "
                                "AdaptiveMaxPool; the adaptive ones from opset8)",
                                o.op, opset));
        return exit_code::usage;
    }
    if (o.inputs.size() != 1 || !o.values.empty()) {
        print_error(fmt::format("--op {}: a pooling op takes one --input (the data) and no --value; {} --input "
                                "given (an adaptive pool's output_size is --output-size)",
                                o.op, o.inputs.size()));
        return exit_code::usage;
    }
    std::string error;
    const auto input = parse_shape(o.inputs[0], &error);
    if (!input) {
        print_error(fmt::format("--input {}: {}", o.inputs[0], error));
        return exit_code::usage;
    }
    const auto attrs = parse_attr_options(o.attrs);
    if (!attrs) return exit_code::usage;
    const ParsedAttrs parsed = parse_pool_attrs(*op, *attrs);
    const std::string label = fmt::format("{}-{}", op->type_name(), op->version);
    print_attr_issues(*op, parsed, label);
    if (!parsed.usable()) return exit_code::findings;

    const std::optional<PoolShape> result =
        op->is_adaptive() ? infer_adaptive(o, *input) : infer_pool_shape(*op, parsed.desc, *input);
    if (!result) return exit_code::usage;
    if (result->error) {
        const std::string message = fmt::format("{}: {}", label, *result->error);
        print_finding_error(message, attr_finding(Severity::error, *op, message));
        return exit_code::findings;
    }
    emit_output("", o.format == "json" ? shape_json(*op, *result) : shape_text(*op, parsed, *result, label, *input));
    return exit_code::ok;
}

}  // namespace

std::vector<std::string> shape_report_lists(const ShapeOptions& o) {
    // An unknown type keeps the pooling document, the only one `shape` had before the registry.
    if (pool_op_for(o.op, kNewestOpset) || !op_type_known(o.op)) return {"outputs", "pads_begin", "pads_end"};
    return {"outputs", "types"};
}

// Reads the op, the inputs and the attributes as `check` would, infers, and prints the arithmetic or JSON.
int run_shape(const ShapeOptions& o) {
    const int opset = o.opset > 0 ? o.opset : kNewestOpset;
    if (pool_op_for(o.op, kNewestOpset)) return run_pool_shape(o, opset);
    if (!o.output_size.empty()) {
        print_error(fmt::format("--output-size {}: only the adaptive pools take it; give the values of an input "
                                "with --value INDEX=v1,v2,...",
                                printable(o.output_size)));
        return exit_code::usage;
    }
    return run_registry_shape(o, opset);
}

}  // namespace irlint::cli
