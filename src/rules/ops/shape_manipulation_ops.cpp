#include "rules/ops/op_registry.hpp"

namespace irlint {

std::span<const OpEntry> shape_manipulation_ops() { return {}; }

}  // namespace irlint
