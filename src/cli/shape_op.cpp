// `irlint shape --op TYPE` for an op of the registry: the --input dims and element types, the --value values
// and the --attr attributes make up a layer, which the op's inference reads as `check` reads a file's.

#include "cli/shape_op.hpp"

#include <unistd.h>

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "core/text.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/registry.hpp"

namespace irlint::cli {

std::optional<std::vector<Attr>> parse_attr_options(const std::vector<std::string>& options) {
    std::vector<Attr> attrs;
    for (const std::string& a : options) {
        const auto eq = a.find('=');
        if (eq == std::string::npos || eq == 0) {
            print_error(fmt::format("--attr {}: expected KEY=VALUE", a));
            return std::nullopt;
        }
        attrs.emplace_back(std::string_view(a).substr(0, eq), std::string_view(a).substr(eq + 1));
    }
    return attrs;
}

namespace {

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

const OpEntry* lookup_entry(const std::string& type, int opset) {
    const auto found = find_op(type, opset);
    if (!found) {
        print_error(fmt::format("--op {}: irlint has no inference for this op type; `irlint ops` lists the ops it has",
                                printable(type)));
        return nullptr;
    }
    if (!found->entry)
        print_error(fmt::format("--op {}: not an op of opset{}; it exists from opset{} on (--opset {})",
                                printable(type), opset, found->first_opset, found->first_opset));
    return found->entry;
}

std::optional<ValueOption> parse_value_option(const std::string& option, size_t input_count) {
    const auto eq = option.find('=');
    size_t index = 0;
    const auto [end, ec] = std::from_chars(option.data(), option.data() + (eq == std::string::npos ? 0 : eq), index);
    if (eq == std::string::npos || eq == 0 || ec != std::errc() || end != option.data() + eq) {
        print_error(fmt::format("--value {}: expected INDEX=v1,v2,... (INDEX the input's position, from 0)",
                                printable(option)));
        return std::nullopt;
    }
    if (index >= input_count) {
        print_error(fmt::format("--value {}: input {} is not given ({} --input option{}, inputs 0 to {})",
                                printable(option), index, input_count, input_count == 1 ? "" : "s", input_count - 1));
        return std::nullopt;
    }
    return ValueOption{index, std::string_view(option).substr(eq + 1), option};
}

// Every --value, at most one per input.
std::optional<std::vector<ValueOption>> parse_value_options(const ShapeOptions& o) {
    std::vector<ValueOption> values;
    for (const std::string& option : o.values) {
        auto v = parse_value_option(option, o.inputs.size());
        if (!v) return std::nullopt;
        for (const ValueOption& seen : values)
            if (seen.index == v->index) {
                print_error(fmt::format("--value {}: input {} already has values ({})", printable(option), v->index,
                                        printable(seen.option)));
                return std::nullopt;
            }
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
std::optional<OpInput> parse_input(const std::string& option, bool valued) {
    const auto colon = option.find(':');
    const std::string_view dims_text = std::string_view(option).substr(0, colon);
    std::string error;
    auto shape = parse_shape(dims_text, &error);
    if (!shape) {
        print_error(fmt::format("--input {}: {}", printable(option), error));
        return std::nullopt;
    }
    if (colon == std::string::npos) return OpInput{std::move(*shape), valued ? ElementType::i64 : ElementType::f32};
    const std::string_view type_text = std::string_view(option).substr(colon + 1);
    const auto type = parse_element_type_attr(type_text);
    if (!type || *type == ElementType::dynamic) {
        print_error(fmt::format("--input {}: '{}' is not an element type (f32, f16, i64, i32, u8, boolean, ...)",
                                printable(option), printable(type_text)));
        return std::nullopt;
    }
    return OpInput{std::move(*shape), *type};
}

std::optional<std::vector<OpInput>> parse_inputs(const ShapeOptions& o, const std::vector<ValueOption>& values) {
    std::vector<OpInput> inputs;
    for (size_t i = 0; i < o.inputs.size(); ++i) {
        auto in = parse_input(o.inputs[i], has_value(values, i));
        if (!in) return std::nullopt;
        inputs.push_back(std::move(*in));
    }
    return inputs;
}

// The element count of a static shape, or nullopt (and the error printed) when the shape is not static or
// holds more than kMaxValueElements: the values given must be exactly the input's elements.
std::optional<size_t> value_count(const ValueOption& v, const Shape& shape) {
    if (shape.rank_dynamic || !shape.is_static()) {
        print_error(fmt::format("--value {}: input {} has the dims {}; give static dims to give its values",
                                printable(v.option), v.index, shape.str()));
        return std::nullopt;
    }
    size_t count = 1;
    for (const Dim& d : shape.dims)
        if (d.length() == 0) return 0;
    for (const Dim& d : shape.dims) {
        if (static_cast<uint64_t>(d.length()) > kMaxValueElements / count) {
            print_error(fmt::format("--value {}: input {} {} has more than {} elements, the most irlint reads "
                                    "values of",
                                    printable(v.option), v.index, shape.str(), kMaxValueElements));
            return std::nullopt;
        }
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

// The comma-separated numbers of `v`, exactly `count` of them; nullopt (and the error printed) otherwise.
template <class T>
std::optional<std::vector<T>> parse_numbers(const ValueOption& v, const Shape& shape, size_t count, bool real) {
    std::vector<T> numbers;
    numbers.reserve(count);
    size_t start = 0;
    while (!v.text.empty() && start <= v.text.size() && numbers.size() <= count) {
        const size_t comma = std::min(v.text.find(',', start), v.text.size());
        const std::string_view item = v.text.substr(start, comma - start);
        T x{};
        if (!parse_number(item, x)) {
            print_error(fmt::format("--value {}: '{}' is not {}", printable(v.option), printable(item),
                                    real ? "a number" : "an integer (the input's element type is an integer type)"));
            return std::nullopt;
        }
        numbers.push_back(x);
        start = comma + 1;
    }
    if (numbers.size() != count) {
        print_error(fmt::format("--value {}: input {} {} has {} element{}, {}", printable(v.option), v.index,
                                shape.str(), count, count == 1 ? "" : "s", given_text(numbers.size(), count)));
        return std::nullopt;
    }
    return numbers;
}

bool read_values(const ValueOption& v, const OpInput& input, GivenValues& given) {
    const auto count = value_count(v, input.shape);
    if (!count) return false;
    if (input.type && is_float_type(*input.type)) {
        auto reals = parse_numbers<double>(v, input.shape, *count, true);
        if (reals) given.reals[v.index] = std::move(*reals);
        return reals.has_value();
    }
    const auto ints = parse_numbers<int64_t>(v, input.shape, *count, false);
    if (!ints) return false;
    TensorValue& value = given.ints[v.index];
    for (const int64_t x : *ints) value.push_back({x, x});
    return true;
}

std::optional<GivenValues> read_all_values(const std::vector<ValueOption>& values, const std::vector<OpInput>& inputs) {
    GivenValues given;
    for (const ValueOption& v : values)
        if (!read_values(v, inputs[v.index], given)) return std::nullopt;
    return given;
}

// What the op inferred, or why OpenVINO would reject the layer.
struct OpResult {
    std::vector<OpOutput> outputs;
    std::vector<OpProblem> problems;
    std::optional<std::string> unknown;
};

OpResult infer(const OpEntry& entry, int opset, const std::vector<Attr>& attrs, const std::vector<OpInput>& inputs,
               const GivenValues& given) {
    const std::string version = fmt::format("opset{}", opset);
    Layer layer;
    layer.type = entry.type;
    layer.version = version;
    layer.opset = opset;
    layer.kind = layer_kind(entry.type);
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
    ctx.set_explain(true);  // shape prints the arithmetic
    OpResult result;
    entry.infer(ctx, result.outputs);
    result.problems.assign(ctx.problems().begin(), ctx.problems().end());
    result.unknown = ctx.unknown_reason();
    return result;
}

// Each problem as `check` would report it: attr-invalid or input-invalid, on a layer that has only its type.
void print_problems(const OpEntry& entry, const std::string& label, const std::vector<OpProblem>& problems) {
    for (const OpProblem& p : problems) {
        const bool attribute = p.kind == OpProblem::Kind::attribute;
        const std::string message = fmt::format("{}: {}", label, p.message);
        print_finding_error(message, make_finding(attribute ? rule::attr_invalid : rule::input_invalid,
                                                  Severity::error, message, 0, {"", "", std::string(entry.type)}));
    }
}

std::string typed_shape(const Shape& shape, const std::optional<ElementType>& type) {
    return type ? fmt::format("{}:{}", shape.str(), element_type_name(*type)) : shape.str();
}

// "floor((224+3+3-7)/2)+1 = 112": the note with the dim it gives, unless the note already ends with it.
std::string dim_line(size_t i, const std::string& note, const Dim& dim) {
    const std::string result = fmt::format("= {}", dim.str());
    if (note == dim.str() || note.ends_with(result)) return fmt::format("    dim {}: {}\n", i, note);
    return fmt::format("    dim {}: {} {}\n", i, note, result);
}

std::string output_text(size_t k, const OpOutput& out, const Palette& p) {
    std::string text = fmt::format("  output {}: {}\n", k, fmt::styled(typed_shape(out.shape, out.type), p.ok));
    for (size_t i = 0; i < out.dim_notes.size() && i < out.shape.rank(); ++i)
        if (!out.dim_notes[i].empty()) text += dim_line(i, out.dim_notes[i], out.shape.dims[i]);
    return text;
}

std::string result_text(const std::string& label, const std::vector<OpInput>& inputs, const OpResult& result) {
    const Palette p = palette_for(STDOUT_FILENO);
    std::string text = fmt::format("{} on", fmt::styled(label, p.bold));
    for (const OpInput& in : inputs) text += fmt::format(" {}", typed_shape(in.shape, in.type));
    text += "\n";
    for (size_t k = 0; k < result.outputs.size(); ++k) text += output_text(k, result.outputs[k], p);
    if (result.unknown)
        text += fmt::format("  note: {}; the outputs are what OpenVINO infers without it (give it with --value)\n",
                            printable(*result.unknown, kPrintedMessageChars));
    return text;
}

std::string result_json(const OpResult& result) {
    JsonWriter json;
    json.begin_object().key("outputs").begin_array();
    for (const OpOutput& out : result.outputs) json.raw(dims_json(out.shape));
    json.end().key("types").begin_array();
    for (const OpOutput& out : result.outputs) {
        if (out.type) json.string(element_type_name(*out.type));
        else json.null();
    }
    json.end();
    if (result.unknown) json.key("unknown").string(*result.unknown);
    return json.end().take() + "\n";
}

}  // namespace

int run_registry_shape(const ShapeOptions& o, int opset) {
    const OpEntry* entry = lookup_entry(o.op, opset);
    if (!entry) return exit_code::usage;
    const auto values = parse_value_options(o);
    if (!values) return exit_code::usage;
    const auto inputs = parse_inputs(o, *values);
    if (!inputs) return exit_code::usage;
    const auto given = read_all_values(*values, *inputs);
    if (!given) return exit_code::usage;
    const auto attrs = parse_attr_options(o.attrs);
    if (!attrs) return exit_code::usage;

    const std::string label = fmt::format("{}-{}", entry->type, entry->version);
    const OpResult result = infer(*entry, opset, *attrs, *inputs, *given);
    if (!result.problems.empty()) {
        print_problems(*entry, label, result.problems);
        return exit_code::findings;
    }
    return emit_output("", o.format == "json" ? result_json(result) : result_text(label, *inputs, result));
}

}  // namespace irlint::cli
