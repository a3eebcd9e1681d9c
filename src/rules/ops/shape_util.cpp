#include "rules/ops/shape_util.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

std::optional<BroadcastKind> parse_broadcast_kind(std::string_view text) {
    if (iequals(text, "none") || iequals(text, "explicit")) return BroadcastKind::none;
    if (iequals(text, "numpy")) return BroadcastKind::numpy;
    if (iequals(text, "pdpd")) return BroadcastKind::pdpd;
    return std::nullopt;
}

namespace {

std::optional<Shape> broadcast_none(const Shape& a, const Shape& b, std::string* error) {
    if (a.rank() != b.rank()) {
        *error = fmt::format("auto_broadcast=none needs equal ranks: {} and {}", a.str(), b.str());
        return std::nullopt;
    }
    Shape out = a;
    for (size_t i = 0; i < a.rank(); ++i) {
        const auto merged = Dim::merge(a.dims[i], b.dims[i]);
        if (!merged) {
            *error = fmt::format("auto_broadcast=none: dim {} differs: {} and {}", i, a.str(), b.str());
            return std::nullopt;
        }
        out.dims[i] = *merged;
    }
    return out;
}

std::optional<Shape> broadcast_numpy(const Shape& a, const Shape& b, std::string* error) {
    const size_t rank = std::max(a.rank(), b.rank());
    Shape out;
    out.dims.resize(rank);
    for (size_t i = 0; i < rank; ++i) {
        const Dim da = i < rank - a.rank() ? Dim(1) : a.dims[i - (rank - a.rank())];
        const Dim db = i < rank - b.rank() ? Dim(1) : b.dims[i - (rank - b.rank())];
        const auto merged = Dim::broadcast_merge(da, db);
        if (!merged) {
            *error = fmt::format("{} and {} do not broadcast (numpy): dim {} is {} against {}", a.str(), b.str(), i,
                                 da.str(), db.str());
            return std::nullopt;
        }
        out.dims[i] = *merged;
    }
    return out;
}

// PDPD: b's dims stand at a's dims axis..axis+rank(b); each is 1 or equal to a's. The output is a's shape.
std::optional<Shape> broadcast_pdpd(const Shape& a, const Shape& b, int64_t axis, std::string* error) {
    if (b.rank() > a.rank()) {
        *error = fmt::format("auto_broadcast=pdpd: {} has more dims than {}", b.str(), a.str());
        return std::nullopt;
    }
    Shape trimmed = b;
    // Trailing 1s of b do not count when an axis is given (PaddlePaddle's rule).
    while (axis != -1 && !trimmed.dims.empty() && trimmed.dims.back() == Dim(1)) trimmed.dims.pop_back();
    const int64_t start = axis == -1 ? static_cast<int64_t>(a.rank() - b.rank()) : axis;
    if (start < 0 || start + static_cast<int64_t>(trimmed.rank()) > static_cast<int64_t>(a.rank())) {
        *error = fmt::format("auto_broadcast=pdpd axis {} does not place {} within {}", axis, b.str(), a.str());
        return std::nullopt;
    }
    Shape out = a;
    for (size_t i = 0; i < trimmed.rank(); ++i) {
        const Dim& da = a.dims[static_cast<size_t>(start) + i];
        const Dim& db = trimmed.dims[i];
        if (db == Dim(1)) continue;
        const auto merged = Dim::merge(da, db);
        if (!merged) {
            *error = fmt::format("auto_broadcast=pdpd: {} does not broadcast into {} at dim {}", b.str(), a.str(),
                                 static_cast<size_t>(start) + i);
            return std::nullopt;
        }
        out.dims[static_cast<size_t>(start) + i] = *merged;
    }
    return out;
}

}  // namespace

std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b, BroadcastKind kind, int64_t pdpd_axis,
                                      std::string* error) {
    if (kind == BroadcastKind::pdpd) {
        if (a.rank_dynamic) return Shape::dynamic_rank();
        if (b.rank_dynamic) return a;
        return broadcast_pdpd(a, b, pdpd_axis, error);
    }
    if (a.rank_dynamic || b.rank_dynamic) return Shape::dynamic_rank();
    return kind == BroadcastKind::none ? broadcast_none(a, b, error) : broadcast_numpy(a, b, error);
}

std::optional<size_t> normalize_axis(int64_t axis, int64_t rank, std::string* error) {
    const int64_t lo = -std::max<int64_t>(rank, 1), hi = std::max<int64_t>(rank, 1) - 1;
    if (axis < lo || axis > hi) {
        *error = fmt::format("axis {} is out of range [{}, {}]", axis, lo, hi);
        return std::nullopt;
    }
    return static_cast<size_t>(axis < 0 ? axis + std::max<int64_t>(rank, 1) : axis);
}

std::optional<std::vector<size_t>> normalize_axes(std::span<const int64_t> axes, int64_t rank, bool unique,
                                                  std::string* error) {
    std::vector<size_t> out;
    out.reserve(axes.size());
    for (const int64_t a : axes) {
        const auto n = normalize_axis(a, rank, error);
        if (!n) return std::nullopt;
        if (unique && std::find(out.begin(), out.end(), *n) != out.end()) {
            *error = fmt::format("axis {} is given twice in [{}]", *n, join_ints(std::vector<int64_t>(axes.begin(), axes.end())));
            return std::nullopt;
        }
        out.push_back(*n);
    }
    return out;
}

Dim dims_product(std::span<const Dim> dims) {
    Dim p(1);
    for (const Dim& d : dims) p = p * d;
    return p;
}

Shape static_shape(std::span<const int64_t> dims) {
    Shape s;
    s.dims.reserve(dims.size());
    for (const int64_t d : dims) s.dims.emplace_back(d);
    return s;
}

std::string type_str(std::optional<ElementType> t) {
    return t && *t != ElementType::dynamic ? std::string(element_type_name(*t)) : std::string("dynamic");
}

std::string rank_str(const Shape& s) { return s.rank_dynamic ? "?" : std::to_string(s.rank()); }

}  // namespace irlint
