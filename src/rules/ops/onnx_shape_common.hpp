#pragma once
// What the ONNX shape family's files (onnx_shape_ops.cpp, onnx_shape_index_ops.cpp) share: the schemas' type
// constraints, axes as ONNX normalizes them, and values that pass through unchanged.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rules/ops/op_registry.hpp"

namespace irlint::onnx_shape {

// The type constraint sets of the family's schemas. `all` grows with the opset ("era") of the schema: bf16 joins
// at 13, the float8s at 19, the 4-bit integers at 21, f4e2m1 at 23, f8e8m0 at 24 (all_tensor_types_ir4 ... ir12).
enum class TypeSet { floats, numeric, all };

// Whether type t is in the set at `era`.
bool type_in_set(TypeSet set, int era, ElementType t);
// The opset at which t joins all_tensor_types (13 for bf16, ...); 0 for types ONNX does not have.
int type_era(ElementType t);

// Records an input problem when input i's type is known and outside the set (at `era`).
bool expect_type(OpContext& ctx, size_t i, std::string_view name, TypeSet set, int era);
// The same with the era the op's version gives (the usual case: a schema's types are those of its opset).
inline bool expect_data_type(OpContext& ctx, size_t i, TypeSet set = TypeSet::all) {
    return expect_type(ctx, i, "input", set, ctx.version());
}
// Index inputs: tensor(int64), or int32 and int64 (Tind) when `int32_too`.
bool expect_index_type(OpContext& ctx, size_t i, std::string_view name, bool int32_too);
// Input i's type equals input j's (one type variable T); records an input problem otherwise.
bool expect_same_type(OpContext& ctx, size_t i, size_t j, std::string_view name_i, std::string_view name_j);

// An axis in [-rank, rank) as ONNX normalizes it; nullopt with an attribute (or input) problem ("axis 3 is out of
// range [-3, 2]", which the engine reports after the op's name and version).
std::optional<size_t> onnx_axis(OpContext& ctx, int64_t axis, int64_t rank, std::string_view what = "axis",
                                bool from_input = false);
// Before opset 11, Squeeze, Unsqueeze, Concat and Compress define no negative axis. ONNX Runtime's kernels and
// OpenVINO's import count one from the back, as opset 11 does, and ONNX's own inference skips or misreads it:
// a warning, and the axis is taken as the runtimes take it.
void warn_negative_axes_before_11(OpContext& ctx, std::span<const int64_t> axes, std::string_view what);
// The same for a list; `unique` refuses an axis given twice.
std::optional<std::vector<size_t>> onnx_axes(OpContext& ctx, std::span<const int64_t> axes, int64_t rank,
                                             std::string_view what, bool unique, bool from_input);

// Words the arithmetic of dim d of o ("10+1+2 = 13") for a finding's message, when the engine asks for it.
void note_dim(const OpContext& ctx, OpOutput& o, size_t d, std::string text);

// The number of outputs the node declares (Split's, Unique's).
size_t node_outputs(const OpContext& ctx);

// The entries of onnx_shape_index_ops.cpp; onnx_shape_ops() joins them with its own.
std::span<const OpEntry> index_entries();

// The length of a floating-point range: max(ceil((limit - start) / delta), 0); nullopt when it is not a
// number an int64 holds (a zero delta, a huge span).
std::optional<int64_t> real_range_length(double start, double limit, double delta);

}  // namespace irlint::onnx_shape
