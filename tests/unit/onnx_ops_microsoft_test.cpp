// Unit tests of the ONNX microsoft ops (rules/ops/onnx_microsoft_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;
