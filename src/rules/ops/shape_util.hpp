#pragma once
// Shape arithmetic that many ops share: broadcasting, axes, products. One copy each.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/dim.hpp"
#include "core/element_type.hpp"

namespace irlint {

enum class BroadcastKind { none, numpy, pdpd };
// "none", "numpy", "pdpd" (OpenVINO also reads "explicit" as none for elementwise ops); case-insensitive.
std::optional<BroadcastKind> parse_broadcast_kind(std::string_view text);

// Broadcasts b into a as OpenVINO's elementwise ops do: numpy aligns the trailing dims; pdpd aligns b at
// `axis` of a (-1: the trailing dims) and keeps a's rank; none needs equal ranks and mergeable dims. A
// dynamic rank gives a dynamic rank. nullopt with *error (naming the dims) when they do not broadcast.
std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b, BroadcastKind kind, int64_t pdpd_axis,
                                      std::string* error);

// An element type as messages name it: "dynamic" where it is not known (OpenVINO's word for it).
std::string type_str(std::optional<ElementType> t);
// A rank as OpenVINO prints a Rank: a number, or "?".
std::string rank_str(const Shape& s);

// An axis in [-rank, rank) as a non-negative one; nullopt with *error ("axis 4 is out of range [-4, 3]").
std::optional<size_t> normalize_axis(int64_t axis, int64_t rank, std::string* error);
// The same for a list; also refuses an axis given twice when `unique`.
std::optional<std::vector<size_t>> normalize_axes(std::span<const int64_t> axes, int64_t rank, bool unique,
                                                  std::string* error);

// The product of dims (intervals, saturating).
Dim dims_product(std::span<const Dim> dims);

// A static shape's dims as Dims.
Shape static_shape(std::span<const int64_t> dims);

}  // namespace irlint
