#pragma once
// The op registry: one entry per op type and version that irlint infers. The families (ops/*.cpp) each give
// their entries; op_registry() is all of them, and everything else (the engine's dispatch, `shape --op`,
// docs/ops.md, the coverage counts) reads it.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <span>
#include <string_view>

#include "rules/ops/op_context.hpp"

namespace irlint {

// Whose op an entry is: OpenVINO's (an IR layer's type and opset) or ONNX's (a node's domain, op type and the
// model's opset import for that domain), each under its own semantics.
enum class OpFormat : uint8_t { ir, onnx };

// What a family adds to the engine's one comparison of its op's outputs with the declared ports
// (rules/op_rules), after inference.
struct OpFindingSteps {
    // The op's inference is exact whenever the values it reads are known: a declared port that is compatible
    // with it but written otherwise (more or less precise) is a warning.
    bool exact = false;
    // After a conflict on output `output`: the change of the layer that would give the declared dims, as
    // "rounding_type=ceil gives the declared dims"; nullopt when none does.
    std::optional<std::string> (*shape_hint)(const OpContext& ctx, size_t output, const Shape& declared) = nullptr;
    // The words a type finding on output `output` takes: what the output is ("indices"), why it has its type
    // ("index_element_type=i64"), and what a legacy writer (Model Optimizer's Python graph) did with it.
    struct TypeWords {
        std::string role, reason, legacy_writer;
    };
    TypeWords (*type_words)(const OpContext& ctx, size_t output, ElementType inferred) = nullptr;
};

struct OpEntry {
    constexpr OpEntry() = default;
    constexpr OpEntry(std::string_view type_, int version_, int since_opset_, OpInferFn infer_, std::string_view infers_,
                      std::string_view checks_, OpFormat format_ = OpFormat::ir, std::string_view domain_ = {},
                      const OpFindingSteps* steps_ = nullptr)
        : type(type_), version(version_), since_opset(since_opset_), infer(infer_), infers(infers_), checks(checks_),
          format(format_), domain(domain_), steps(steps_) {}

    std::string_view type;   // as the format spells it: "Convolution" (IR), "Conv" (ONNX)
    int version = 1;         // IR: the op class's version (ov::op::v1::Convolution is 1); ONNX: since_version
    int since_opset = 1;     // the first opset that holds this version
    OpInferFn infer = nullptr;
    std::string_view infers;  // for docs/ops.md: what is inferred ("shape, type, values")
    std::string_view checks;  // for docs/ops.md: what is validated ("strides, dilations > 0; pads; groups")
    OpFormat format = OpFormat::ir;
    std::string_view domain;  // ONNX: "" for ai.onnx, "com.microsoft", ...; IR: ""
    const OpFindingSteps* steps = nullptr;
};

// An ONNX entry: the schema's since_version is both its version and its first opset.
constexpr OpEntry onnx_op(std::string_view type, int since_version, OpInferFn infer, std::string_view infers,
                          std::string_view checks = {}, std::string_view domain = {}) {
    return OpEntry{type, since_version, since_version, infer, infers, checks, OpFormat::onnx, domain};
}

// The newest opset of each ONNX domain irlint knows (ai.onnx: ONNX's, 1.23 under development).
inline constexpr int kNewestOnnxOpset = 28;
inline constexpr int kNewestMicrosoftOpset = 1;
inline constexpr int kNewestOnnxMlOpset = 5;

// The ONNX domains irlint has ops of, as a model names them ("ai.onnx" is also ""), with the newest opset of each.
struct OnnxDomain {
    std::string_view name;
    int newest_opset;
};
inline constexpr std::array<OnnxDomain, 5> kOnnxDomains{{{"ai.onnx", kNewestOnnxOpset},
                                                          {"com.microsoft", kNewestMicrosoftOpset},
                                                          {"ai.onnx.ml", kNewestOnnxMlOpset},
                                                          {"ai.onnx.preview", 1},
                                                          {"ai.onnx.preview.training", 1}}};

// The newest opset irlint knows of an ONNX domain ("" for ai.onnx); nullopt for a domain it has no op of.
constexpr std::optional<int> newest_opset_known(std::string_view domain) {
    if (domain.empty()) domain = "ai.onnx";
    for (const OnnxDomain& d : kOnnxDomains)
        if (d.name == domain) return d.newest_opset;
    return std::nullopt;
}

// Every entry, families in order, each family's entries by type and version.
std::span<const OpEntry> op_registry();

// The entry a layer of `type` in opsetN gets: the newest version with since_opset <= N (type compared
// without regard to case, as OpenVINO reads IR types). nullopt when irlint has no entry for the type.
struct OpLookup {
    const OpEntry* entry = nullptr;  // null: the type exists in irlint but not yet in this opset
    int first_opset = 0;             // then: the first opset that has it
};
std::optional<OpLookup> find_op(std::string_view type, int opset);
// Whether some opset has an entry for the type.
bool op_type_known(std::string_view type);

// The same for an ONNX node: the entry of `domain` ("" for ai.onnx) and `type` (compared exactly, as ONNX
// does) that the model's import of `opset` for that domain selects.
std::optional<OpLookup> find_onnx_op(std::string_view domain, std::string_view type, int64_t opset);

// The families' tables (each defined in its own file).
std::span<const OpEntry> pooling_ops();
std::span<const OpEntry> elementwise_ops();
std::span<const OpEntry> shape_manipulation_ops();
std::span<const OpEntry> convolution_ops();
std::span<const OpEntry> tensor_ops();
std::span<const OpEntry> detection_ops();
std::span<const OpEntry> misc_ops();
std::span<const OpEntry> misc_tensor_ops();
std::span<const OpEntry> subgraph_ops();
// ONNX's operators (ops/onnx_*.cpp), ai.onnx and com.microsoft.
std::span<const OpEntry> onnx_ops();
// A call of a model-local ONNX function: the outputs of its body (Layer::bodies[0]) inferred from the call's
// inputs.
const OpEntry& onnx_function_call_op();

}  // namespace irlint
