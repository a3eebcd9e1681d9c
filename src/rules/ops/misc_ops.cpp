#include "rules/ops/op_registry.hpp"

namespace irlint {

std::span<const OpEntry> misc_ops() { return {}; }

}  // namespace irlint
