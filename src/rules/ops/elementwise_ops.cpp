#include "rules/ops/op_registry.hpp"

namespace irlint {

std::span<const OpEntry> elementwise_ops() { return {}; }

}  // namespace irlint
