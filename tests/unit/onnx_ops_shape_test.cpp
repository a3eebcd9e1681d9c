// Unit tests of the ONNX shape ops (rules/ops/onnx_shape_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;
