#include "rules/ops/onnx_families.hpp"

namespace irlint {

std::span<const OpEntry> onnx_misc_ops() { return {}; }

}  // namespace irlint
