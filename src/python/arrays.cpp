#include "python/arrays.hpp"

#include <fmt/format.h>

#include "python/errors.hpp"

namespace irlint::python {

namespace py = pybind11;

namespace {

struct DtypeMatch {
    char kind;
    int bytes;
    ElementType type;
};

constexpr DtypeMatch kDtypes[] = {
    {'f', 2, ElementType::f16}, {'f', 4, ElementType::f32}, {'f', 8, ElementType::f64},
    {'i', 1, ElementType::i8},  {'i', 2, ElementType::i16}, {'i', 4, ElementType::i32},
    {'i', 8, ElementType::i64}, {'u', 1, ElementType::u8},  {'u', 2, ElementType::u16},
    {'u', 4, ElementType::u32}, {'u', 8, ElementType::u64}, {'b', 1, ElementType::boolean},
};

std::optional<ElementType> element_type_of(const py::dtype& dtype) {
    const char kind = dtype.kind();
    const auto bytes = static_cast<int>(dtype.itemsize());
    for (const DtypeMatch& d : kDtypes)
        if (d.kind == kind && d.bytes == bytes) return d.type;
    return std::nullopt;
}

py::dtype numpy_dtype(ElementType type) {
    if (type == ElementType::bf16) return py::dtype("uint16");
    for (const DtypeMatch& d : kDtypes)
        if (d.type == type) return py::dtype(fmt::format("{}{}", d.kind, d.bytes));
    throw DataError(fmt::format("irlint has no NumPy dtype for {}", element_type_name(type)));
}

bool native_order(const py::dtype& dtype) {
    const char order = dtype.attr("byteorder").cast<std::string>()[0];
    return order == '=' || order == '|';
}

// What a .npy file of this dtype gets: the same message for an array.
std::string unsupported_dtype(const py::dtype& dtype) {
    const auto descr = dtype.attr("str").cast<std::string>();
    return fmt::format("unsupported dtype '{}': expected f2, f4, f8, i1..i8, u1..u8 or b1", descr);
}

// The array's owner, released with the GIL held: the last holder of a tensor may run without it.
std::shared_ptr<const void> hold(py::object owner) {
    return std::shared_ptr<const void>(new py::object(std::move(owner)), [](const py::object* held) {
        py::gil_scoped_acquire gil;
        delete held;
    });
}

std::vector<int64_t> shape_of(const py::array& array) {
    return std::vector<int64_t>(array.shape(), array.shape() + array.ndim());
}

}  // namespace

Tensor tensor_of(const py::array& given, const std::string& label) {
    const std::optional<ElementType> type = element_type_of(given.dtype());
    if (!type) throw DataError(fmt::format("{}: {}", label, unsupported_dtype(given.dtype())));
    py::array array = given;
    const bool c_order = (given.flags() & py::array::c_style) != 0;
    if (!c_order || !native_order(given.dtype())) {
        const py::object native = given.dtype().attr("newbyteorder")("=");
        array = py::module_::import("numpy").attr("ascontiguousarray")(given, native);
    }
    const auto* bytes = static_cast<const std::byte*>(array.data());
    return Tensor::borrow(*type, shape_of(array), bytes, hold(array));
}

py::array array_of(Tensor tensor) {
    const bool writeable = tensor.mutable_bytes() != nullptr;
    auto* owned = new Tensor(std::move(tensor));
    py::capsule owner(owned, [](void* t) { delete static_cast<Tensor*>(t); });
    std::vector<py::ssize_t> shape(owned->shape().begin(), owned->shape().end());
    py::array array(numpy_dtype(owned->type()), shape, owned->bytes(), owner);
    if (!writeable) array.attr("setflags")(py::arg("write") = false);
    return array;
}

std::string dtype_name(ElementType type) { return std::string(element_type_name(type)); }

}  // namespace irlint::python
