#include "rules/ops/onnx_families.hpp"

namespace irlint {

std::span<const OpEntry> onnx_microsoft_ops() { return {}; }

}  // namespace irlint
