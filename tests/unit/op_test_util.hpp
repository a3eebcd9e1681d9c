#pragma once
// Runs one op of the registry on a layer made up in a test: type, version, attributes, inputs, and the
// values of the inputs whose values the op may read.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dim.hpp"
#include "rules/ops/op_registry.hpp"

namespace irlint::test {

inline constexpr auto boolean = ElementType::boolean;
inline constexpr auto i8 = ElementType::i8, i16 = ElementType::i16, i32 = ElementType::i32, i64 = ElementType::i64;
inline constexpr auto u8 = ElementType::u8, u16 = ElementType::u16, u32 = ElementType::u32, u64 = ElementType::u64;
inline constexpr auto bf16 = ElementType::bf16, f16 = ElementType::f16, f32 = ElementType::f32, f64 = ElementType::f64;
inline constexpr int64_t kU = ValueBounds::kUnbounded;
using Attrs = std::vector<std::pair<std::string, std::string>>;

// "1,3,?,2..5" -> Shape; "..." is a dynamic rank; "" a scalar. Fails the test on malformed text.
Shape S(const std::string& text);
OpInput In(const std::string& shape, std::optional<ElementType> type = ElementType::f32);
// An optional input the node leaves out (an ONNX node's empty input name).
OpInput Omitted();
TensorValue V(std::initializer_list<int64_t> exact);

struct OpCase {
    std::string type;
    int version = 1;  // ONNX: the schema's since_version
    std::vector<std::pair<std::string, std::string>> attrs;
    std::vector<OpInput> inputs;
    std::map<size_t, TensorValue> values;  // per input index
};

// An ONNX op's case: the OpCase (version = the schema's since_version) and what only ONNX nodes have.
struct OnnxCase : OpCase {
    std::string domain;  // "" for ai.onnx, "com.microsoft"
    std::vector<std::pair<std::string, InlineTensor>> tensor_attrs;
    std::map<size_t, std::vector<double>> reals;  // per input index: floating-point values (scales)
};

// run_onnx_op(Onnx("Conv", 11, {In("1,3,8,8"), In("4,3,3,3")}, {{"pads", "1,1,1,1"}})).
OnnxCase Onnx(std::string type, int since_version, std::vector<OpInput> inputs,
              std::vector<std::pair<std::string, std::string>> attrs = {}, std::map<size_t, TensorValue> values = {});

// A com.microsoft op at its version 1: Ms("FusedConv", {In("1,3,8,8"), In("4,3,3,3")}, {{"activation", "Relu"}}).
OnnxCase Ms(std::string type, std::vector<OpInput> inputs, std::vector<std::pair<std::string, std::string>> attrs = {},
            std::map<size_t, TensorValue> values = {});

struct OpRun {
    std::vector<OpOutput> outputs;
    std::vector<OpProblem> problems;
    std::vector<std::string> warnings;  // an inference that goes on (attribute_warning)
    std::optional<std::string> unknown;
    std::vector<Invariant> invariants;  // stated with `unknown`
    bool ok() const { return problems.empty(); }
    // The first invariant the declared outputs break: "output K: message"; "" when they keep all of them.
    std::string broken(const std::vector<std::string>& declared) const;
    std::string problem() const { return problems.empty() ? "" : problems.front().message; }
    Shape shape(size_t i = 0) const { return i < outputs.size() ? outputs[i].shape : Shape{}; }
    std::string str(size_t i = 0) const { return i < outputs.size() ? outputs[i].shape.str() : "<no output>"; }
};

// The run's first problem contains `text`.
inline bool mentions(const OpRun& r, const std::string& text) { return r.problem().find(text) != std::string::npos; }

// Output i's element type's name; "?" when it has none.
std::string type_of(const OpRun& r, size_t i = 0);

// The registry entry of exactly this type and version; fails the test when there is none.
const OpEntry& entry_of(const std::string& type, int version, OpFormat format = OpFormat::ir,
                        const std::string& domain = "");
// A floating-point Const's data, per input index (Range's bounds, Interpolate's scales).
using Reals = std::map<size_t, std::vector<double>>;
OpRun run_op(const OpCase& c, const Reals& reals = {});
OpRun run_onnx_op(const OnnxCase& c);
// Runs the op of the main-graph layer with id `layer_id` of a model read from text (its bodies are the
// model's graphs), its inputs the layer's declared input ports; `values` per input index.
OpRun run_op_in_model(const Model& model, const std::string& layer_id, int version,
                      const std::map<size_t, TensorValue>& values = {});

}  // namespace irlint::test
