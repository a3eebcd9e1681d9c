// Unit tests of the ONNX nn ops (rules/ops/onnx_nn_ops.cpp).
#include <doctest/doctest.h>

#include "op_test_util.hpp"

using namespace irlint;
using namespace irlint::test;
