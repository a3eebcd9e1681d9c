#include "rules/ops/op_registry.hpp"

namespace irlint {

std::span<const OpEntry> detection_ops() { return {}; }

}  // namespace irlint
