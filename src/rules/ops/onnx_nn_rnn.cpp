#include "rules/ops/onnx_nn.hpp"
namespace irlint::onnx_nn {
std::vector<OpEntry> rnn_entries() { return {}; }
}
