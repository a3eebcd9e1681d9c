#pragma once
// The op registry: one entry per op type and version that irlint infers. The families (ops/*.cpp) each give
// their entries; op_registry() is all of them, and everything else (the engine's dispatch, `shape --op`,
// docs/ops.md, the coverage counts) reads it.

#include <optional>
#include <span>
#include <string_view>

#include "rules/ops/op_context.hpp"

namespace irlint {

struct OpEntry {
    std::string_view type;   // as the IR spells it: "Convolution"
    int version = 1;         // the op class's version: ov::op::v1::Convolution is 1
    int since_opset = 1;     // the first opset that holds this version
    OpInferFn infer = nullptr;
    std::string_view infers;  // for docs/ops.md: what is inferred ("shape, type, values")
    std::string_view checks;  // for docs/ops.md: what is validated ("strides, dilations > 0; pads; groups")
};

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

// The families' tables (each defined in its own file).
std::span<const OpEntry> pooling_ops();
std::span<const OpEntry> elementwise_ops();
std::span<const OpEntry> shape_manipulation_ops();
std::span<const OpEntry> convolution_ops();
std::span<const OpEntry> tensor_ops();
std::span<const OpEntry> detection_ops();
std::span<const OpEntry> misc_ops();
std::span<const OpEntry> subgraph_ops();

}  // namespace irlint
