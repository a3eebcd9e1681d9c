#pragma once
// `irlint shape --op TYPE` and Python's irlint.shape: a layer made of an op type, its inputs' dims and element
// types, the values of small inputs and the attributes, inferred as `check` infers a file's layer. The answer
// is data; the command line and Python render it.

#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "rules/pool_attrs.hpp"
#include "rules/pooling.hpp"

namespace irlint {

// The question, in the command line's spelling (docs/cli.md#irlint-shape).
struct ShapeQuery {
    std::string op;
    int opset = 0;                    // 0: the newest
    std::vector<std::string> inputs;  // DIMS[:TYPE], in input order
    std::vector<std::string> values;  // INDEX=v1,v2,...
    std::vector<std::string> attrs;   // KEY=VALUE
    std::string output_size;          // adaptive pools: DIMS
    // An ONNX op: its domain ("ai.onnx" or "" for the default one, "com.microsoft"); nullopt: an IR op.
    std::optional<std::string> domain;
};

struct ShapeOutput {
    Shape shape;
    std::optional<ElementType> type;
    std::vector<std::string> dim_notes;  // per dim, the arithmetic; may be empty
};

struct ShapeAnswer {
    // ok: the outputs are known; rejected: OpenVINO would reject the layer (`findings` say why; exit 1);
    // usage: the question cannot be read (`usage_error`; exit 2).
    enum class Status { ok, rejected, usage } status = Status::ok;
    std::string usage_error;
    Diagnostics findings;  // rejected: attr-invalid or input-invalid, on a layer that has only its type
    std::string label;     // "MaxPool-14"
    std::vector<ShapeOutput> outputs;
    std::optional<std::string> unknown;  // a value the op needed and was not given

    // The registry ops: the inputs read.
    std::vector<Shape> input_shapes;
    std::vector<std::optional<ElementType>> input_types;

    // The pooling ops' own arithmetic.
    bool pooling = false;
    bool adaptive = false;
    std::vector<AttrIssue> attr_issues;  // each also in `findings`, as "label: message"
    std::vector<int64_t> pads_begin, pads_end;
    std::vector<std::string> axis_formulas;  // one per spatial axis
};

ShapeAnswer answer_shape(const ShapeQuery& query);

// The lists of shape's JSON report, which its error document has empty: the pooling ops' or the registry's.
std::vector<std::string> shape_report_lists(const std::string& op, bool onnx = false);

}  // namespace irlint
