// Unit tests of the ONNX elementwise ops (rules/ops/onnx_elementwise_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;
