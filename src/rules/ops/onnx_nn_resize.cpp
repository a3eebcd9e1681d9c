#include "rules/ops/onnx_nn.hpp"
namespace irlint::onnx_nn {
std::vector<OpEntry> resize_entries() { return {}; }
}
