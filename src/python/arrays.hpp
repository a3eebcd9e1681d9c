#pragma once
// NumPy arrays as irlint's tensors and back. An array that is C-contiguous and in native byte order is
// viewed, not copied: the tensor keeps the array alive. An output tensor becomes an array over irlint's own
// buffer, which the array's base (a capsule) owns. NumPy has no bf16: bf16 data is an array of uint16 that
// holds the bits of the values.

#include <optional>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "exec/tensor.hpp"

namespace irlint::python {

// The tensor over `array`: a view when the array is C-contiguous and native-endian, else a C-order native
// copy (as a Fortran-order or big-endian .npy file is converted). `label` names the array in errors; a dtype
// irlint holds no type for raises DataError with the message a .npy file of that dtype gets.
Tensor tensor_of(const pybind11::array& array, const std::string& label);

// A NumPy array over the tensor's bytes, without a copy: writeable when the tensor owns them, read-only when
// it borrows them (an input viewed from the caller's array). bf16 comes as uint16.
pybind11::array array_of(Tensor tensor);

// "f32", "bf16": what irlint calls the element type of an array.
std::string dtype_name(ElementType type);

}  // namespace irlint::python
