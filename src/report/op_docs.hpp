#pragma once
// The op registry as documentation: docs/ops.md and `irlint ops` are written from it, never by hand.

#include <span>
#include <string>

#include "rules/ops/op_registry.hpp"

namespace irlint {

// docs/ops.md: every op and version irlint infers, with what is inferred and what is validated.
std::string ops_markdown();
// The same as a plain-text table (`irlint ops`), of every entry or of the given ones.
std::string ops_table_text(std::span<const OpEntry> entries);
// {"ops":[{"type","version","since_opset","infers","checks","format"("ir"|"onnx"),"domain"(ONNX)}]}
std::string ops_json(std::span<const OpEntry> entries);

}  // namespace irlint
