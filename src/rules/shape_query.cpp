// The layer is made of the query: the inputs' dims and element types, the values of small inputs and the
// attributes, which the op's inference reads as `check` reads a file's layer. The pooling ops keep their
// own arithmetic (the pads, the rounding, an adaptive pool's output_size).

#include "rules/shape_query.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/pool_rules.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

// A problem with the question: the answer's status becomes usage. Returns nullopt, for `return fail(...)`.
struct Usage {
    ShapeAnswer& answer;
    std::nullopt_t operator()(std::string message) const {
        answer.status = ShapeAnswer::Status::usage;
        answer.usage_error = std::move(message);
        return std::nullopt;
    }
};

// "KEY=VALUE" pairs (views into `options`).
std::optional<std::vector<Attr>> parse_attr_options(const std::vector<std::string>& options, const Usage& fail) {
    std::vector<Attr> attrs;
    for (const std::string& a : options) {
        const auto eq = a.find('=');
        if (eq == std::string::npos || eq == 0) return fail(fmt::format("--attr {}: expected KEY=VALUE", a));
        attrs.emplace_back(std::string_view(a).substr(0, eq), std::string_view(a).substr(eq + 1));
    }
    return attrs;
}

// --value INDEX=TEXT, before TEXT is read against the input's dims.
struct ValueOption {
    size_t index = 0;
    std::string_view text;
    std::string_view option;  // the whole option, for messages
};

// The values the op may read, per input: integers (ValueSource) or, for a floating-point input, reals
// (RealSource, as Interpolate's scales come from an f32 Const).
struct GivenValues {
    std::map<size_t, TensorValue> ints;
    std::map<size_t, std::vector<double>> reals;
};

// An ONNX op of `domain` ("" or "ai.onnx": the default one).
const OpEntry* lookup_onnx_entry(const std::string& domain, const std::string& type, int opset, const Usage& fail) {
    const std::string d = domain == "ai.onnx" ? "" : domain;
    const auto found = find_onnx_op(d, type, opset);
    const std::string name = d.empty() ? "ai.onnx" : printable(d);
    if (!found) {
        fail(fmt::format("--op {} --domain {}: irlint has no inference for this op; `irlint ops` lists the ops it has",
                         printable(type), name));
        return nullptr;
    }
    if (!found->entry)
        fail(fmt::format("--op {}: not an op of {} opset {}; it exists from opset {} on (--opset {})", printable(type),
                         name, opset, found->first_opset, found->first_opset));
    return found->entry;
}

const OpEntry* lookup_entry(const std::string& type, int opset, const Usage& fail) {
    const auto found = find_op(type, opset);
    if (!found) {
        fail(fmt::format("--op {}: irlint has no inference for this op type; `irlint ops` lists the ops it has",
                         printable(type)));
        return nullptr;
    }
    if (!found->entry)
        fail(fmt::format("--op {}: not an op of opset{}; it exists from opset{} on (--opset {})", printable(type),
                         opset, found->first_opset, found->first_opset));
    return found->entry;
}

std::optional<ValueOption> parse_value_option(const std::string& option, size_t input_count, const Usage& fail) {
    const auto eq = option.find('=');
    size_t index = 0;
    const auto [end, ec] = std::from_chars(option.data(), option.data() + (eq == std::string::npos ? 0 : eq), index);
    if (eq == std::string::npos || eq == 0 || ec != std::errc() || end != option.data() + eq)
        return fail(fmt::format("--value {}: expected INDEX=v1,v2,... (INDEX the input's position, from 0)",
                                printable(option)));
    if (index >= input_count)
        return fail(fmt::format("--value {}: input {} is not given ({} --input option{}, inputs 0 to {})",
                                printable(option), index, input_count, input_count == 1 ? "" : "s", input_count - 1));
    return ValueOption{index, std::string_view(option).substr(eq + 1), option};
}

// Every --value, at most one per input.
std::optional<std::vector<ValueOption>> parse_value_options(const ShapeQuery& q, const Usage& fail) {
    std::vector<ValueOption> values;
    for (const std::string& option : q.values) {
        auto v = parse_value_option(option, q.inputs.size(), fail);
        if (!v) return std::nullopt;
        for (const ValueOption& seen : values)
            if (seen.index == v->index)
                return fail(fmt::format("--value {}: input {} already has values ({})", printable(option), v->index,
                                        printable(seen.option)));
        values.push_back(*v);
    }
    return values;
}

bool has_value(const std::vector<ValueOption>& values, size_t index) {
    for (const ValueOption& v : values)
        if (v.index == index) return true;
    return false;
}

// "DIMS[:TYPE]"; without TYPE, an input with values is i64 (shapes, axes, pads: what values usually are) and
// any other f32.
std::optional<OpInput> parse_input(const std::string& option, bool valued, const Usage& fail) {
    const auto colon = option.find(':');
    const std::string_view dims_text = std::string_view(option).substr(0, colon);
    std::string error;
    auto shape = parse_shape(dims_text, &error);
    if (!shape) return fail(fmt::format("--input {}: {}", printable(option), error));
    if (colon == std::string::npos) return OpInput{std::move(*shape), valued ? ElementType::i64 : ElementType::f32};
    const std::string_view type_text = std::string_view(option).substr(colon + 1);
    const auto type = parse_element_type_attr(type_text);
    if (!type || *type == ElementType::dynamic)
        return fail(fmt::format("--input {}: '{}' is not an element type (f32, f16, i64, i32, u8, boolean, ...)",
                                printable(option), printable(type_text)));
    return OpInput{std::move(*shape), *type};
}

std::optional<std::vector<OpInput>> parse_inputs(const ShapeQuery& q, const std::vector<ValueOption>& values,
                                                 const Usage& fail) {
    std::vector<OpInput> inputs;
    for (size_t i = 0; i < q.inputs.size(); ++i) {
        auto in = parse_input(q.inputs[i], has_value(values, i), fail);
        if (!in) return std::nullopt;
        inputs.push_back(std::move(*in));
    }
    return inputs;
}

// The element count of a static shape, or nullopt when the shape is not static or holds more than
// kMaxValueElements: the values given must be exactly the input's elements.
std::optional<size_t> value_count(const ValueOption& v, const Shape& shape, const Usage& fail) {
    if (shape.rank_dynamic || !shape.is_static())
        return fail(fmt::format("--value {}: input {} has the dims {}; give static dims to give its values",
                                printable(v.option), v.index, shape.str()));
    size_t count = 1;
    for (const Dim& d : shape.dims)
        if (d.length() == 0) return 0;
    for (const Dim& d : shape.dims) {
        if (static_cast<uint64_t>(d.length()) > kMaxValueElements / count)
            return fail(fmt::format("--value {}: input {} {} has more than {} elements, the most irlint reads "
                                    "values of",
                                    printable(v.option), v.index, shape.str(), kMaxValueElements));
        count *= static_cast<size_t>(d.length());
    }
    return count;
}

// "1 value is given", "3 values are given"; a list longer than the input is read only that far.
std::string given_text(size_t given, size_t count) {
    if (given > count) return "more values are given";
    return fmt::format("{} value{} given", given, given == 1 ? " is" : "s are");
}

template <class T>
bool parse_number(std::string_view text, T& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// The comma-separated numbers of `v`, exactly `count` of them.
template <class T>
std::optional<std::vector<T>> parse_numbers(const ValueOption& v, const Shape& shape, size_t count, bool real,
                                            const Usage& fail) {
    std::vector<T> numbers;
    numbers.reserve(count);
    size_t start = 0;
    while (!v.text.empty() && start <= v.text.size() && numbers.size() <= count) {
        const size_t comma = std::min(v.text.find(',', start), v.text.size());
        const std::string_view item = v.text.substr(start, comma - start);
        T x{};
        if (!parse_number(item, x))
            return fail(fmt::format("--value {}: '{}' is not {}", printable(v.option), printable(item),
                                    real ? "a number" : "an integer (the input's element type is an integer type)"));
        numbers.push_back(x);
        start = comma + 1;
    }
    if (numbers.size() != count)
        return fail(fmt::format("--value {}: input {} {} has {} element{}, {}", printable(v.option), v.index,
                                shape.str(), count, count == 1 ? "" : "s", given_text(numbers.size(), count)));
    return numbers;
}

bool read_values(const ValueOption& v, const OpInput& input, GivenValues& given, const Usage& fail) {
    const auto count = value_count(v, input.shape, fail);
    if (!count) return false;
    if (input.type && is_float_type(*input.type)) {
        auto reals = parse_numbers<double>(v, input.shape, *count, true, fail);
        if (reals) given.reals[v.index] = std::move(*reals);
        return reals.has_value();
    }
    const auto ints = parse_numbers<int64_t>(v, input.shape, *count, false, fail);
    if (!ints) return false;
    TensorValue& value = given.ints[v.index];
    for (const int64_t x : *ints) value.push_back({x, x});
    return true;
}

std::optional<GivenValues> read_all_values(const std::vector<ValueOption>& values, const std::vector<OpInput>& inputs,
                                           const Usage& fail) {
    GivenValues given;
    for (const ValueOption& v : values)
        if (!read_values(v, inputs[v.index], given, fail)) return std::nullopt;
    return given;
}

// The op's inference on the layer; each problem as `check` would report it: attr-invalid or input-invalid,
// on a layer that has only its type.
void infer_registry_op(const OpEntry& entry, int opset, const std::vector<Attr>& attrs,
                       const std::vector<OpInput>& inputs, const GivenValues& given, ShapeAnswer& answer) {
    Layer layer;
    layer.type = entry.type;
    layer.domain = entry.domain;
    layer.version = fmt::format("opset{}", opset);
    layer.opset = opset;
    layer.kind = entry.format == OpFormat::ir ? layer_kind(entry.type) : LayerKind::other;
    layer.attrs = attrs;
    layer.has_data = !attrs.empty();
    OpContext ctx(
        layer, entry.version, inputs,
        [&given](size_t i) -> const TensorValue* {
            const auto it = given.ints.find(i);
            return it == given.ints.end() ? nullptr : &it->second;
        },
        [&given](size_t i) -> const std::vector<double>* {
            const auto it = given.reals.find(i);
            return it == given.reals.end() ? nullptr : &it->second;
        });
    ctx.set_explain(true);  // shape shows the arithmetic
    std::vector<OpOutput> outputs;
    entry.infer(ctx, outputs);
    for (OpOutput& out : outputs) answer.outputs.push_back({std::move(out.shape), out.type, std::move(out.dim_notes)});
    answer.unknown = ctx.unknown_reason();
    for (const OpProblem& p : ctx.problems()) {
        const bool attribute = p.kind == OpProblem::Kind::attribute;
        answer.findings.push_back(make_finding(attribute ? rule::attr_invalid : rule::input_invalid, Severity::error,
                                               fmt::format("{}: {}", answer.label, p.message), 0,
                                               {"", "", std::string(entry.type)}));
    }
    if (!answer.findings.empty()) answer.status = ShapeAnswer::Status::rejected;
}

void answer_registry_op(const ShapeQuery& q, int opset, ShapeAnswer& answer) {
    const Usage fail{answer};
    if (!q.output_size.empty()) {
        fail(fmt::format("--output-size {}: only the adaptive pools take it; give the values of an input with "
                         "--value INDEX=v1,v2,...",
                         printable(q.output_size)));
        return;
    }
    const OpEntry* entry = q.domain ? lookup_onnx_entry(*q.domain, q.op, opset, fail) : lookup_entry(q.op, opset, fail);
    if (!entry) return;
    const auto values = parse_value_options(q, fail);
    if (!values) return;
    const auto inputs = parse_inputs(q, *values, fail);
    if (!inputs) return;
    const auto given = read_all_values(*values, *inputs, fail);
    if (!given) return;
    const auto attrs = parse_attr_options(q.attrs, fail);
    if (!attrs) return;
    answer.label = fmt::format("{}-{}", entry->type, entry->version);
    for (const OpInput& in : *inputs) {
        answer.input_shapes.push_back(in.shape);
        answer.input_types.push_back(in.type);
    }
    infer_registry_op(*entry, opset, *attrs, *inputs, *given, answer);
}

// What `check` would report on such a layer: the layer has only its type.
Diagnostic attr_finding(Severity severity, const PoolOp& op, std::string message) {
    return make_finding(rule::attr_invalid, severity, std::move(message), 0, {"", "", std::string(op.type_name())});
}

// An adaptive pool's output from --output-size (dynamic dims when it is not given).
std::optional<PoolShape> infer_adaptive(const ShapeQuery& q, const Shape& input, const Usage& fail) {
    std::optional<std::vector<Dim>> sizes;
    Shape size_shape{false, {Dim::dynamic()}};
    if (!q.output_size.empty()) {
        std::string error;
        const auto dims = parse_shape(q.output_size, &error);
        if (!dims || dims->rank_dynamic)
            return fail(fmt::format("--output-size {}: {}", q.output_size,
                                    dims ? "give one dim per spatial axis, not '...'" : error));
        sizes = dims->dims;
        size_shape.dims = {Dim(static_cast<int64_t>(sizes->size()))};
    }
    return infer_adaptive_shape_from_dims(input, size_shape, sizes);
}

void answer_pool_op(const ShapeQuery& q, int opset, ShapeAnswer& answer) {
    const Usage fail{answer};
    answer.pooling = true;
    const auto op = pool_op_for(q.op, opset);
    if (!op) {
        fail(fmt::format("--op {}: not a pooling operator of opset{} (AvgPool, MaxPool, AdaptiveAvgPool, "
                         "AdaptiveMaxPool; the adaptive ones from opset8)",
                         q.op, opset));
        return;
    }
    if (q.inputs.size() != 1 || !q.values.empty()) {
        fail(fmt::format("--op {}: a pooling op takes one --input (the data) and no --value; {} --input given (an "
                         "adaptive pool's output_size is --output-size)",
                         q.op, q.inputs.size()));
        return;
    }
    std::string error;
    const auto input = parse_shape(q.inputs[0], &error);
    if (!input) {
        fail(fmt::format("--input {}: {}", q.inputs[0], error));
        return;
    }
    const auto attrs = parse_attr_options(q.attrs, fail);
    if (!attrs) return;
    const ParsedAttrs parsed = parse_pool_attrs(*op, *attrs);
    answer.label = fmt::format("{}-{}", op->type_name(), op->version);
    answer.adaptive = op->is_adaptive();
    answer.input_shapes = {*input};
    answer.input_types = {std::nullopt};
    answer.attr_issues = parsed.issues;
    for (const AttrIssue& issue : parsed.issues)
        answer.findings.push_back(attr_finding(issue.severity, *op, fmt::format("{}: {}", answer.label, issue.message)));
    if (!parsed.usable()) {
        answer.status = ShapeAnswer::Status::rejected;
        return;
    }
    const std::optional<PoolShape> result =
        op->is_adaptive() ? infer_adaptive(q, *input, fail) : infer_pool_shape(*op, parsed.desc, *input);
    if (!result) return;
    if (result->error) {
        answer.findings.push_back(attr_finding(Severity::error, *op, fmt::format("{}: {}", answer.label, *result->error)));
        answer.status = ShapeAnswer::Status::rejected;
        return;
    }
    const auto types = pool_output_types(*op, parsed.desc, ElementType::f32);
    for (size_t k = 0; k < op->output_count(); ++k) answer.outputs.push_back({result->output, types[k], {}});
    answer.pads_begin = result->pads_begin;
    answer.pads_end = result->pads_end;
    answer.axis_formulas = result->axis_formulas;
}

}  // namespace

ShapeAnswer answer_shape(const ShapeQuery& query) {
    ShapeAnswer answer;
    if (query.domain) {
        const int newest = newest_opset_known(*query.domain).value_or(kNewestOnnxOpset);
        answer_registry_op(query, query.opset > 0 ? query.opset : newest, answer);
        return answer;
    }
    const int opset = query.opset > 0 ? query.opset : kNewestOpset;
    if (opset > kNewestOpset) {
        Usage{answer}(fmt::format("--opset {}: OpenVINO's opsets are 1 to {} (an ONNX op takes --domain)", opset,
                                  kNewestOpset));
        return answer;
    }
    if (pool_op_for(query.op, kNewestOpset)) answer_pool_op(query, opset, answer);
    else answer_registry_op(query, opset, answer);
    return answer;
}

std::vector<std::string> shape_report_lists(const std::string& op, bool onnx) {
    if (onnx) return {"outputs", "types"};
    // An unknown type keeps the pooling document, the only one `shape` had before the registry.
    if (pool_op_for(op, kNewestOpset) || !op_type_known(op)) return {"outputs", "pads_begin", "pads_end"};
    return {"outputs", "types"};
}

}  // namespace irlint
