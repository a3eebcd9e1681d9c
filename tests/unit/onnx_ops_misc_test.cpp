// Unit tests of the ONNX misc ops (rules/ops/onnx_misc_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;
