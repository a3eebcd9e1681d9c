// Unit tests of the ONNX control ops (rules/ops/onnx_control_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;
