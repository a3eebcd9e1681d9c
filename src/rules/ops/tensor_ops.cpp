#include "rules/ops/op_registry.hpp"

namespace irlint {

std::span<const OpEntry> tensor_ops() { return {}; }

}  // namespace irlint
