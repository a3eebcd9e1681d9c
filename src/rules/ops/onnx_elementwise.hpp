#pragma once
// What ONNX's elementwise files share (onnx_elementwise_ops.cpp: unary ops, activations, Softmax, Dropout,
// Clip, Cast; onnx_elementwise_binary.cpp: broadcasting ops): the element type sets of the schemas' type
// constraints, each file's table of (op, since_version) rows, and the integer values a node's inputs carry.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "rules/ops/op_registry.hpp"

namespace irlint::onnx_elementwise {

// A set of element types, one bit per ElementType.
using TypeSet = uint32_t;
constexpr TypeSet type_bit(ElementType t) { return TypeSet{1} << static_cast<unsigned>(t); }

constexpr TypeSet kFloats = type_bit(ElementType::f16) | type_bit(ElementType::f32) | type_bit(ElementType::f64);
constexpr TypeSet kBf16 = type_bit(ElementType::bf16);
constexpr TypeSet kSignedInts =
    type_bit(ElementType::i8) | type_bit(ElementType::i16) | type_bit(ElementType::i32) | type_bit(ElementType::i64);
constexpr TypeSet kUnsignedInts =
    type_bit(ElementType::u8) | type_bit(ElementType::u16) | type_bit(ElementType::u32) | type_bit(ElementType::u64);
constexpr TypeSet kInts = kSignedInts | kUnsignedInts;
constexpr TypeSet kNumeric = kInts | kFloats;
constexpr TypeSet kBool = type_bit(ElementType::boolean);
constexpr TypeSet kString = type_bit(ElementType::string);
constexpr TypeSet kFloat8 = type_bit(ElementType::f8e4m3) | type_bit(ElementType::f8e5m2) |
                            type_bit(ElementType::f8e4m3fnuz) | type_bit(ElementType::f8e5m2fnuz);
constexpr TypeSet kAnyType = ~TypeSet{0};

// Records an input problem and returns false when input i's element type is known and not in `allowed`.
bool check_type(OpContext& ctx, size_t i, TypeSet allowed);
// Records an input problem and returns false when inputs a and b have different known element types (one
// type variable T); else the type they share (nullopt when neither is known).
bool check_same_type(OpContext& ctx, size_t a, size_t b, std::optional<ElementType>* shared);

// One schema version of an op: the types of its main type constraint T.
struct Row {
    std::string_view op;
    int since = 1;
    OpInferFn infer = nullptr;
    TypeSet types = kAnyType;
    std::string_view infers;
    std::string_view checks;
};
// The row of the node's op at its version (the entry's since_version); the tables are the files' own.
const Row& row_of(std::span<const Row> table, const OpContext& ctx);
std::span<const Row> unary_rows();
std::span<const Row> binary_rows();

// The values of input i as whole numbers, one per element of its static shape: its integer values, or the
// floating-point data of a small initializer when every element is a whole number. nullopt otherwise.
std::optional<TensorValue> whole_values(const OpContext& ctx, size_t i);
// Whether a tensor of element type t holds each bound exactly (an unknown type holds anything; a string none).
bool holds_values(const TensorValue& v, std::optional<ElementType> t);

}  // namespace irlint::onnx_elementwise
