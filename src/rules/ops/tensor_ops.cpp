// The tensor family: gathers, scatters, slices, pads, resizes and index-producing ops, inferred as OpenVINO's
// shape inference does. Gather propagates values (a ShapeOf vector's elements, the common case); the slicing
// ops live in tensor_slice_ops.cpp.

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/ops/invariants.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/ops/shape_util.hpp"
#include "rules/ops/tensor_common.hpp"

namespace irlint {

namespace tensor {

bool expect_integral(OpContext& ctx, size_t i, std::string_view name) {
    const auto t = ctx.type(i);
    if (!t || *t == ElementType::dynamic || is_integer_type(*t)) return true;
    ctx.invalid_input(fmt::format("{} element type {} is not an integer type", name, element_type_name(*t)));
    return false;
}

}  // namespace tensor

namespace {

using tensor::expect_integral;

// An axis input must be a scalar or hold one element.
bool check_axis_shape(OpContext& ctx, size_t i) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || !s.is_static() || s.rank() == 0 || (s.rank() == 1 && s.dims[0].min() == 1)) return true;
    ctx.invalid_input(fmt::format("axis input must be a scalar or have 1 element, it is {}", s.str()));
    return false;
}

bool same_types(OpContext& ctx, size_t a, size_t b, std::string_view name_a, std::string_view name_b) {
    if (!ctx.type(a) || !ctx.type(b) || *ctx.type(a) == *ctx.type(b)) return true;
    ctx.invalid_input(fmt::format("{} element type {} and {} element type {} differ", name_a,
                                  element_type_name(*ctx.type(a)), name_b, element_type_name(*ctx.type(b))));
    return false;
}

// ---- Gather ----

}  // namespace

// The gathered values of a known data tensor (static shape, batch dims first), or nullopt when an index is out of
// range (Gather-1 and -7 also refuse negative ones; Gather-8 counts them from the end).
std::optional<TensorValue> tensor::gather_values(const TensorValue& data, const Shape& data_shape,
                                         const std::vector<int64_t>& indices, const Shape& indices_shape,
                                         size_t axis, size_t batch_dims, bool negative_ok) {
    const auto prod = [](const Shape& s, size_t from, size_t to) {
        size_t p = 1;
        for (size_t i = from; i < to; ++i) p *= static_cast<size_t>(s.dims[i].min());
        return p;
    };
    const size_t batch = prod(data_shape, 0, batch_dims);
    const size_t outer = prod(data_shape, batch_dims, axis);
    const auto axis_len = data_shape.dims[axis].min();
    const size_t inner = prod(data_shape, axis + 1, data_shape.rank());
    const size_t per_batch = prod(indices_shape, batch_dims, indices_shape.rank());
    TensorValue out;
    // An empty output has nothing to gather (and its other dims may be huge).
    if (batch == 0 || outer == 0 || per_batch == 0 || inner == 0) return out;
    for (size_t b = 0; b < batch; ++b)
        for (size_t o = 0; o < outer; ++o)
            for (size_t k = 0; k < per_batch; ++k) {
                int64_t at = indices[b * per_batch + k];
                if (at < 0 && negative_ok) at += axis_len;
                if (at < 0 || at >= axis_len) return std::nullopt;
                const size_t base = ((b * outer + o) * static_cast<size_t>(axis_len) + static_cast<size_t>(at)) * inner;
                for (size_t in = 0; in < inner; ++in) out.push_back(data[base + in]);
            }
    return out;
}

namespace {
// The axis input's value: an integer, or (Gather-1) a floating-point Const's, truncated as OpenVINO casts it.
std::optional<int64_t> gather_axis(const OpContext& ctx) {
    if (const auto v = ctx.exact_values(2); v && !v->empty()) return v->front();
    const std::vector<double>* reals = ctx.real_values(2);
    if (!reals || reals->empty() || !(std::fabs(reals->front()) < 9.2e18)) return std::nullopt;
    return static_cast<int64_t>(reals->front());
}

void infer_gather(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    int64_t batch_dims = 0;
    if (ctx.version() >= 7) {
        const auto b = ctx.attr_int("batch_dims", 0);
        if (!b) return;
        batch_dims = *b;
    }
    // Gather-1 takes indices and an axis of any type (it casts them); later versions want integers.
    if (ctx.version() >= 7 && (!expect_integral(ctx, 1, "indices") || !expect_integral(ctx, 2, "axis"))) return;
    if (!check_axis_shape(ctx, 2)) return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1);
    if (batch_dims < 0 && !indices.rank_dynamic) {
        const int64_t rank = static_cast<int64_t>(indices.rank());
        if (batch_dims < -rank) {
            ctx.invalid_attribute(fmt::format("batch_dims {} is out of range [{}, {}] for indices rank {}", batch_dims,
                                              -rank, rank, rank));
            return;
        }
        batch_dims += rank;
    }

    std::optional<int64_t> axis = gather_axis(ctx);
    if (axis) {
        if (!data.rank_dynamic) {
            std::string error;
            const auto norm = normalize_axis(*axis, static_cast<int64_t>(data.rank()), &error);
            if (!norm) {
                ctx.invalid_input(fmt::format("{} for data rank {}", error, data.rank()));
                return;
            }
            axis = static_cast<int64_t>(*norm);
        }
        if (!(batch_dims <= *axis || batch_dims < 0 || *axis < 0)) {
            ctx.invalid_attribute(fmt::format("batch_dims {} is greater than axis {}: it must be <= axis", batch_dims, *axis));
            return;
        }
    }
    if (!indices.rank_dynamic && batch_dims >= 0 && batch_dims > static_cast<int64_t>(indices.rank())) {
        ctx.invalid_attribute(fmt::format("batch_dims {} is greater than indices rank {}", batch_dims, indices.rank()));
        return;
    }
    OpOutput result{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic || indices.rank_dynamic) {
        out.push_back(std::move(result));
        return;
    }
    // A scalar has no axis to gather along: with a known axis, OpenVINO's formula writes past its output's rank.
    if (data.rank() == 0 && axis) {
        ctx.invalid_input(fmt::format("data is a scalar; Gather needs data of rank 1 or more (indices {})", indices.str()));
        return;
    }
    const int64_t out_rank = static_cast<int64_t>(data.rank() + indices.rank()) - 1 - batch_dims;
    if (out_rank < 0 || batch_dims > static_cast<int64_t>(data.rank())) {
        ctx.invalid_input(fmt::format("batch_dims {} does not fit data rank {} and indices rank {}", batch_dims,
                                      data.rank(), indices.rank()));
        return;
    }
    result.shape = Shape{false, std::vector<Dim>(static_cast<size_t>(out_rank))};
    const size_t b = static_cast<size_t>(std::max<int64_t>(batch_dims, 0));
    for (size_t i = 0; i < b; ++i) {
        const auto merged = Dim::merge(data.dims[i], indices.dims[i]);
        if (!merged) {
            ctx.invalid_input(fmt::format("data {} and indices {} differ in dim {} below batch_dims {}", data.str(),
                                          indices.str(), i, batch_dims));
            return;
        }
        result.shape.dims[i] = *merged;
    }
    if (!axis) {
        ctx.value_unknown("the axis value is unknown");
        ctx.invariant(invariants::gather_on_some_axis("Gather", data, indices, std::max<int64_t>(batch_dims, 0)));
        out.push_back(std::move(result));
        return;
    }
    const size_t a = static_cast<size_t>(*axis);
    size_t o = b;
    for (size_t i = b; i < a; ++i) result.shape.dims[o++] = data.dims[i];
    for (size_t i = b; i < indices.rank(); ++i) result.shape.dims[o++] = indices.dims[i];
    for (size_t i = a + 1; i < data.rank(); ++i) result.shape.dims[o++] = data.dims[i];

    if (capped_element_count(result.shape, kMaxValueElements) && capped_element_count(data, kMaxValueElements) && capped_element_count(indices, kMaxValueElements)) {
        const TensorValue* values = ctx.value(0);
        const auto idx = ctx.exact_values(1);
        if (values && idx && values->size() == *capped_element_count(data, kMaxValueElements) && idx->size() == *capped_element_count(indices, kMaxValueElements))
            result.value = tensor::gather_values(*values, data, *idx, indices, a, b, ctx.version() >= 8);
    }
    out.push_back(std::move(result));
}

// ---- GatherND, GatherElements ----

void infer_gather_nd(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto bd = ctx.attr_int("batch_dims", 0);
    if (!bd) return;
    if (*bd < 0) {
        ctx.invalid_attribute(fmt::format("batch_dims {} is negative", *bd));
        return;
    }
    if (!expect_integral(ctx, 1, "indices")) return;
    const size_t batch_dims = static_cast<size_t>(*bd);
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1);
    const auto check_rank = [&](const Shape& s, std::string_view name) {
        if (s.rank_dynamic) return true;
        if (s.rank() == 0) {
            ctx.invalid_input(fmt::format("{} rank must be at least 1", name));
            return false;
        }
        if (s.rank() <= batch_dims) {
            ctx.invalid_input(fmt::format("batch_dims {} must be less than {} rank {}", batch_dims, name, s.rank()));
            return false;
        }
        return true;
    };
    if (!check_rank(data, "data") || !check_rank(indices, "indices")) return;
    OpOutput result{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic || indices.rank_dynamic || !indices.dims.back().is_static()) {
        out.push_back(std::move(result));
        return;
    }
    const int64_t tuple = indices.dims.back().min();
    if (tuple > static_cast<int64_t>(data.rank() - batch_dims)) {
        ctx.invalid_input(fmt::format("indices tuples of {} values and batch_dims {} exceed data rank {}", tuple,
                                      batch_dims, data.rank()));
        return;
    }
    std::vector<Dim> dims;
    for (size_t i = 0; i < batch_dims; ++i) {
        const auto merged = Dim::merge(data.dims[i], indices.dims[i]);
        if (!merged) {
            ctx.invalid_input(fmt::format("batch dim {} of data {} and indices {} differ", i, data.str(),
                                          indices.str()));
            return;
        }
        dims.push_back(*merged);
    }
    for (size_t i = batch_dims; i + 1 < indices.rank(); ++i) dims.push_back(indices.dims[i]);
    for (size_t i = batch_dims + static_cast<size_t>(tuple); i < data.rank(); ++i) dims.push_back(data.dims[i]);
    if (ctx.version() == 5 && batch_dims > 1) {
        // GatherND-5 folds the batch dims into one.
        const Dim fused = dims_product(std::span(dims).first(batch_dims));
        dims.erase(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(batch_dims));
        dims.insert(dims.begin(), fused);
    }
    result.shape = Shape{false, std::move(dims)};
    out.push_back(std::move(result));
}

void infer_gather_elements(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto axis = ctx.attr_int("axis");
    if (!axis || !expect_integral(ctx, 1, "indices")) return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1);
    OpOutput result{indices, ctx.type(0), std::nullopt, {}};
    const auto norm_axis = [&](size_t rank) -> std::optional<size_t> {
        std::string error;
        const auto a = normalize_axis(*axis, static_cast<int64_t>(rank), &error);
        if (!a) ctx.invalid_attribute(fmt::format("{} for rank {}", error, rank));
        return a;
    };
    for (const Shape* s : {&data, &indices})
        if (!s->rank_dynamic && s->rank() == 0) {
            ctx.invalid_input(fmt::format("{} rank must be at least 1", s == &data ? "data" : "indices"));
            return;
        }
    if (data.rank_dynamic) {
        out.push_back(std::move(result));
        return;
    }
    const auto a = norm_axis(data.rank());
    if (!a) return;
    if (indices.rank_dynamic) {
        result.shape = data;
        result.shape.dims[*a] = Dim();
        out.push_back(std::move(result));
        return;
    }
    if (data.rank() != indices.rank()) {
        ctx.invalid_input(fmt::format("data rank {} and indices rank {} differ", data.rank(), indices.rank()));
        return;
    }
    for (size_t i = 0; i < data.rank(); ++i) {
        if (i == *a) continue;
        const auto merged = Dim::merge(data.dims[i], indices.dims[i]);
        if (!merged) {
            ctx.invalid_input(fmt::format("data {} and indices {} differ in dim {} (not the axis {})", data.str(),
                                          indices.str(), i, *a));
            return;
        }
        result.shape.dims[i] = *merged;
    }
    out.push_back(std::move(result));
}

// ---- Scatters ----

bool scatter_types(OpContext& ctx) {
    return expect_integral(ctx, 1, "indices") && same_types(ctx, 0, 2, "data", "updates");
}

constexpr std::array<std::string_view, 6> kNdReductions{"none", "sum", "sub", "prod", "min", "max"};
constexpr std::array<std::string_view, 6> kElementsReductions{"none", "sum", "prod", "mean", "min", "max"};

// The Scatter*Update evaluate on a shape vector: data (input 0) a small 1-D tensor of known values, each
// index (input 1, exact, in range; a negative one is left alone) replaced by its update (input 2) in order, so
// that a later index wins. nothing when a value is not known or an index out of range.
std::optional<TensorValue> scattered_values(const OpContext& ctx) {
    const Shape& data = ctx.shape(0);
    if (!data.is_static() || data.rank() != 1 || data.dims[0].length() > static_cast<int64_t>(kMaxValueElements))
        return std::nullopt;
    const TensorValue* base = ctx.value(0);
    const auto indices = ctx.exact_values(1);
    const TensorValue* updates = ctx.value(2);
    if (!base || base->size() != static_cast<size_t>(data.dims[0].length()) || !indices || !updates ||
        updates->size() != indices->size())
        return std::nullopt;
    TensorValue out = *base;
    for (size_t i = 0; i < indices->size(); ++i) {
        const int64_t at = (*indices)[i];
        if (at < 0 || at >= static_cast<int64_t>(out.size())) return std::nullopt;
        out[static_cast<size_t>(at)] = (*updates)[i];
    }
    return out;
}

// Whether a Scatter op's attributes replace elements (reduction none), so that scattered_values applies.
bool replaces(OpContext& ctx, std::span<const std::string_view> reductions) {
    const auto r = ctx.attr_enum("reduction", reductions, "none");
    return r && *r == "none";
}

void infer_scatter_update(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    if (!scatter_types(ctx) || !expect_integral(ctx, 3, "axis") || !check_axis_shape(ctx, 3)) return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1), &updates = ctx.shape(2);
    const bool ranks_static = !data.rank_dynamic && !indices.rank_dynamic && !updates.rank_dynamic;
    if (ranks_static && updates.rank() != data.rank() + indices.rank() - 1) {
        ctx.invalid_input(fmt::format("updates rank {} must be indices rank {} + data rank {} - 1", updates.rank(),
                                      indices.rank(), data.rank()));
        return;
    }
    const auto axis = data.rank_dynamic ? std::nullopt : ctx.exact_values(3);
    if (axis && !axis->empty()) {
        std::string error;
        const auto a = normalize_axis(axis->front(), static_cast<int64_t>(data.rank()), &error);
        if (!a) {
            ctx.invalid_input(fmt::format("{} for data rank {}", error, data.rank()));
            return;
        }
        if (ranks_static) {
            const auto at = data.dims.begin() + static_cast<std::ptrdiff_t>(*a);
            std::vector<Dim> expected(data.dims.begin(), at);
            expected.insert(expected.end(), indices.dims.begin(), indices.dims.end());
            expected.insert(expected.end(), at + 1, data.dims.end());
            const Shape want{false, expected};
            if (!want.compatible(updates)) {
                ctx.invalid_input(fmt::format("updates {} must be data[:axis] + indices + data[axis+1:] = {}",
                                              updates.str(), want.str()));
                return;
            }
        }
    }
    out.push_back(OpOutput{data, ctx.type(0), std::nullopt, {}});
    if (axis && axis->size() == 1 && (axis->front() == 0 || axis->front() == -1)) out.back().value = scattered_values(ctx);
}

void infer_scatter_nd_update(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    if (ctx.version() >= 15 && !ctx.attr_enum("reduction", kNdReductions, "none")) return;
    if (!scatter_types(ctx)) return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1), &updates = ctx.shape(2);
    if ((!data.rank_dynamic && data.rank() == 0) || (!indices.rank_dynamic && indices.rank() == 0)) {
        ctx.invalid_input(fmt::format("indices {} and data {} must have rank at least 1", indices.str(), data.str()));
        return;
    }
    if (!data.rank_dynamic && !indices.rank_dynamic && indices.dims.back().is_static()) {
        const auto k = static_cast<size_t>(indices.dims.back().min());
        if (k > data.rank()) {
            ctx.invalid_input(fmt::format("last dim of indices {} exceeds data rank {}", k, data.rank()));
            return;
        }
        if (!updates.rank_dynamic) {
            const size_t expected_rank = data.rank() + indices.rank() - 1 - k;
            if (updates.rank() != expected_rank && expected_rank != 0) {
                ctx.invalid_input(fmt::format("updates rank {} must be data rank {} + indices rank {} - {} - 1 = {}",
                                              updates.rank(), data.rank(), indices.rank(), k, expected_rank));
                return;
            }
            std::vector<Dim> expected(indices.dims.begin(), indices.dims.end() - 1);
            expected.insert(expected.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(k), data.dims.end());
            bool ok = true;
            for (size_t i = 0; i < expected.size() && i < updates.rank(); ++i)
                ok = ok && expected[i].compatible(updates.dims[i]);
            if (!ok) {
                ctx.invalid_input(fmt::format("updates {} must be indices[:-1] + data[{}:] = {}", updates.str(), k,
                                              Shape{false, expected}.str()));
                return;
            }
        }
    }
    out.push_back(OpOutput{data, ctx.type(0), std::nullopt, {}});
    // On 1-D data each index row [i] names one element.
    if ((ctx.version() < 15 || replaces(ctx, kNdReductions)) && indices.is_static() && indices.dims.back() == Dim(1))
        out.back().value = scattered_values(ctx);
}

void infer_scatter_elements_update(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    if (ctx.version() >= 12 && (!ctx.attr_enum("reduction", kElementsReductions, "none") ||
                                !ctx.attr_bool("use_init_val", true)))
        return;
    if (!scatter_types(ctx) || !expect_integral(ctx, 3, "axis") || !check_axis_shape(ctx, 3)) return;
    const Shape &data = ctx.shape(0), &indices = ctx.shape(1), &updates = ctx.shape(2);
    if (!data.rank_dynamic && !indices.rank_dynamic && data.rank() != indices.rank()) {
        ctx.invalid_input(fmt::format("indices rank {} and data rank {} must be equal", indices.rank(), data.rank()));
        return;
    }
    if (!indices.compatible(updates)) {
        ctx.invalid_input(fmt::format("indices {} and updates {} must have equal shapes", indices.str(),
                                      updates.str()));
        return;
    }
    if (!data.rank_dynamic) {
        if (const auto axis = ctx.exact_values(3); axis && !axis->empty()) {
            std::string error;
            if (!normalize_axis(axis->front(), static_cast<int64_t>(data.rank()), &error)) {
                ctx.invalid_input(fmt::format("{} for data rank {}", error, data.rank()));
                return;
            }
        }
    }
    out.push_back(OpOutput{data, ctx.type(0), std::nullopt, {}});
    if (ctx.version() < 12 || replaces(ctx, kElementsReductions)) out.back().value = scattered_values(ctx);
}

// ---- NonZero, OneHot, Bucketize ----

constexpr std::array<std::string_view, 2> kIndexTypes{"i32", "i64"};

std::optional<ElementType> index_type_attr(OpContext& ctx, std::string_view name) {
    const auto t = ctx.attr_type(name, ElementType::i64);
    if (!t) return std::nullopt;
    if (*t != ElementType::i32 && *t != ElementType::i64) {
        ctx.invalid_attribute(fmt::format("{}={} is not one of {}, {}", name, element_type_name(*t), kIndexTypes[0],
                                          kIndexTypes[1]));
        return std::nullopt;
    }
    return t;
}

void infer_non_zero(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto type = index_type_attr(ctx, "output_type");
    if (!type) return;
    const Shape& data = ctx.shape(0);
    // A known input (OpenVINO folds a constant source) gives the count, and the coordinates as values.
    if (const auto known = tensor::known_tensor(ctx, 0)) {
        const int64_t count = tensor::nonzero_count(*known);
        const auto rank = static_cast<int64_t>(known->dims.size());
        if (rank == 0) {  // a scalar: [1,1] when it is not zero, else [0,0]
            out.push_back(OpOutput{Shape{false, {Dim(count), Dim(count)}}, type, std::nullopt, {}});
            return;
        }
        out.push_back(OpOutput{Shape{false, {Dim(rank), Dim(count)}}, type, tensor::nonzero_coordinates(*known), {}});
        return;
    }
    if (data.rank_dynamic || data.rank() == 0) {
        // A scalar's output is [1,1] or [0,0]: OpenVINO leaves both dims dynamic.
        out.push_back(OpOutput{Shape{false, {Dim(), Dim()}}, type, std::nullopt, {}});
        return;
    }
    const Dim elements = dims_product(data.dims);
    const Dim count(0, elements.has_upper_bound() ? elements.max() : Dim::kInf);
    out.push_back(OpOutput{Shape{false, {Dim(static_cast<int64_t>(data.rank())), count}}, type, std::nullopt, {}});
}

bool expect_scalar(OpContext& ctx, size_t i, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (!s.is_static() || s.rank() == 0) return true;
    ctx.invalid_input(fmt::format("{} input must be a scalar, it is {}", name, s.str()));
    return false;
}

void infer_one_hot(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4)) return;
    const auto axis = ctx.attr_int("axis");
    if (!axis) return;
    if (!expect_integral(ctx, 0, "indices") || !expect_integral(ctx, 1, "depth")) return;
    if (!same_types(ctx, 2, 3, "on_value", "off_value")) return;
    if (!expect_scalar(ctx, 1, "depth") || !expect_scalar(ctx, 2, "on_value") || !expect_scalar(ctx, 3, "off_value"))
        return;
    const Shape& indices = ctx.shape(0);
    OpOutput result{Shape::dynamic_rank(), ctx.type(2), std::nullopt, {}};
    if (indices.rank_dynamic) {
        out.push_back(std::move(result));
        return;
    }
    const int64_t rank = static_cast<int64_t>(indices.rank());
    if (*axis < -rank - 1 || *axis > rank) {
        ctx.invalid_attribute(fmt::format("axis {} is out of range [{}, {}] for indices rank {}", *axis, -rank - 1,
                                          rank, rank));
        return;
    }
    const size_t a = static_cast<size_t>(*axis < 0 ? *axis + rank + 1 : *axis);
    Dim depth;
    const TensorValue* dv = ctx.value(1);
    if (dv && dv->size() == 1) {
        if (dv->front().hi < 0) {
            ctx.invalid_input(fmt::format("depth {} is negative", dv->front().hi));
            return;
        }
        depth = value_as_dim(dv->front());
    } else {
        ctx.value_unknown("the depth value is unknown");
    }
    result.shape = indices;
    result.shape.dims.insert(result.shape.dims.begin() + static_cast<std::ptrdiff_t>(a), depth);
    out.push_back(std::move(result));
}

void infer_bucketize(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto type = index_type_attr(ctx, "output_type");
    if (!type || !ctx.attr_bool("with_right_bound", true)) return;
    const Shape& buckets = ctx.shape(1);
    if (!buckets.rank_dynamic && buckets.rank() != 1) {
        ctx.invalid_input(fmt::format("buckets input must be a 1D tensor, it is {}", buckets.str()));
        return;
    }
    out.push_back(OpOutput{ctx.shape(0), type, std::nullopt, {}});
}

// ---- Embeddings ----

bool expect_rank(OpContext& ctx, size_t i, size_t rank, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || s.rank() == rank) return true;
    ctx.invalid_input(rank == 0 ? fmt::format("{} must be a scalar, it is {}", name, s.str())
                                : fmt::format("{} must be {}D, it is {}", name, rank, s.str()));
    return false;
}

bool expect_same_shape(OpContext& ctx, size_t a, size_t b, std::string_view name_a, std::string_view name_b) {
    if (ctx.shape(a).compatible(ctx.shape(b))) return true;
    ctx.invalid_input(fmt::format("{} {} and {} {} must have the same shape", name_a, ctx.shape(a).str(), name_b,
                                  ctx.shape(b).str()));
    return false;
}

// Index inputs (from `first` on, but per_sample_weights) are i32 or i64, all of one type; the weights are the
// table's type.
bool embedding_types(OpContext& ctx, std::span<const size_t> index_inputs, std::optional<size_t> weights) {
    for (const size_t i : index_inputs) {
        const auto t = ctx.type(i);
        if (t && *t != ElementType::i32 && *t != ElementType::i64) {
            ctx.invalid_input(fmt::format("input {} element type {} is not i32 or i64", i, element_type_name(*t)));
            return false;
        }
        if (!same_types(ctx, i, index_inputs.front(), fmt::format("input {}", i), "indices")) return false;
    }
    return !weights || same_types(ctx, *weights, 0, "per_sample_weights", "emb_table");
}

// The table's shape with its first dim replaced.
bool embedding_output(OpContext& ctx, const Dim& first, std::vector<OpOutput>& out) {
    Shape shape = ctx.shape(0);
    if (!shape.rank_dynamic) {
        if (shape.rank() == 0) {
            ctx.invalid_input("emb_table must not be a scalar");
            return false;
        }
        shape.dims[0] = first;
    }
    out.push_back(OpOutput{std::move(shape), ctx.type(0), std::nullopt, {}});
    return true;
}

constexpr std::array<std::string_view, 2> kEmbeddingReductions{"sum", "mean"};

// The -15 versions' reduction (the -3 ones always sum); per-sample weights go with sum only.
bool embedding_reduction(OpContext& ctx, bool has_weights) {
    if (ctx.version() < 15) return true;
    const auto reduction = ctx.attr_enum("reduction", kEmbeddingReductions, "sum");
    if (!reduction) return false;
    if (has_weights && *reduction != "sum") {
        ctx.invalid_input(fmt::format("per_sample_weights can only be used with reduction sum, not {}", *reduction));
        return false;
    }
    return true;
}

void infer_embedding_bag_offsets(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3, 5)) return;
    const size_t n = ctx.input_count();
    if (!embedding_reduction(ctx, n == 5)) return;
    static constexpr std::array<size_t, 3> kIndexInputs{1, 2, 3};
    if (!embedding_types(ctx, std::span(kIndexInputs).first(std::min<size_t>(n - 1, 3)),
                         n == 5 ? std::optional<size_t>(4) : std::nullopt))
        return;
    if (!expect_rank(ctx, 1, 1, "indices") || !expect_rank(ctx, 2, 1, "offsets")) return;
    if (n >= 4 && !expect_rank(ctx, 3, 0, "default_index")) return;
    if (n == 5 && (!expect_rank(ctx, 4, 1, "per_sample_weights") ||
                   !expect_same_shape(ctx, 1, 4, "indices", "per_sample_weights")))
        return;
    const Shape& offsets = ctx.shape(2);
    embedding_output(ctx, offsets.rank_dynamic ? Dim() : offsets.dims[0], out);
}

void infer_embedding_bag_packed(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!embedding_reduction(ctx, ctx.input_count() == 3)) return;
    static constexpr std::array<size_t, 1> kIndexInputs{1};
    if (!embedding_types(ctx, kIndexInputs, ctx.input_count() == 3 ? std::optional<size_t>(2) : std::nullopt)) return;
    if (!expect_rank(ctx, 1, 2, "indices")) return;
    Shape indices = ctx.shape(1);
    if (ctx.input_count() == 3) {
        if (!expect_rank(ctx, 2, 2, "per_sample_weights") ||
            !expect_same_shape(ctx, 1, 2, "indices", "per_sample_weights"))
            return;
        const Shape& w = ctx.shape(2);
        if (indices.rank_dynamic) indices = w;
        else if (!w.rank_dynamic)
            for (size_t i = 0; i < 2; ++i) indices.dims[i] = *Dim::merge(indices.dims[i], w.dims[i]);
    }
    embedding_output(ctx, indices.rank_dynamic ? Dim() : indices.dims[0], out);
}

void infer_embedding_segments_sum(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4, 6)) return;
    const size_t n = ctx.input_count();
    static constexpr std::array<size_t, 4> kIndexInputs{1, 2, 3, 4};
    if (!embedding_types(ctx, std::span(kIndexInputs).first(std::min<size_t>(n - 1, 4)),
                         n == 6 ? std::optional<size_t>(5) : std::nullopt))
        return;
    if (!expect_rank(ctx, 1, 1, "indices") || !expect_rank(ctx, 2, 1, "segment_ids") ||
        !expect_same_shape(ctx, 1, 2, "indices", "segment_ids") || !expect_rank(ctx, 3, 0, "num_segments"))
        return;
    if (n >= 5 && !expect_rank(ctx, 4, 0, "default_index")) return;
    if (n == 6 && (!expect_rank(ctx, 5, 1, "per_sample_weights") ||
                   !expect_same_shape(ctx, 1, 5, "indices", "per_sample_weights")))
        return;
    Dim segments;
    if (ctx.shape(0).rank_dynamic) {
        embedding_output(ctx, segments, out);
        return;
    }
    const TensorValue* v = ctx.value(3);
    if (v && v->size() == 1)
        segments = value_as_dim(v->front());
    else
        ctx.value_unknown("the num_segments value is unknown");
    embedding_output(ctx, segments, out);
}

// ---- Unique ----

// Unique-10's four outputs: the unique elements (or slices along the axis), their first indices, the reverse
// indices and the counts. Their lengths are bounded by the element count (or the dim at the axis).
void infer_unique(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2)) return;
    const auto index_type = index_type_attr(ctx, "index_element_type");
    const auto count_type = index_type_attr(ctx, "count_element_type");
    if (!index_type || !count_type || !ctx.attr_bool("sorted", true)) return;
    const Shape& data = ctx.shape(0);
    const auto capacity = data.is_static() ? std::optional(dims_product(data.dims).min()) : std::nullopt;
    const Dim some = capacity ? Dim(std::min<int64_t>(1, *capacity), *capacity) : Dim();
    Shape uniques{false, {some}};
    Shape first{false, {capacity && *capacity > 0 ? some : Dim()}};
    Shape reverse{false, {capacity && *capacity > 0 ? Dim(*capacity) : Dim()}};
    Shape counts = first;
    std::optional<size_t> axis_index;  // set when the axis input is there and known
    if (ctx.input_count() == 2) {
        const auto t = ctx.type(1);
        if (t && *t != ElementType::i32 && *t != ElementType::i64) {
            ctx.invalid_input(fmt::format("axis element type {} is not i32 or i64", element_type_name(*t)));
            return;
        }
        const Shape& axis_shape = ctx.shape(1);
        if (!(axis_shape == Shape{} || axis_shape == Shape{false, {Dim(1)}})) {
            ctx.invalid_input(fmt::format("axis must be a scalar or hold 1 element, it is {}", axis_shape.str()));
            return;
        }
        uniques = Shape::dynamic_rank();
        const auto axis = ctx.exact_values(1);
        if (!axis || axis->empty()) {
            ctx.value_unknown("the axis value is unknown (OpenVINO needs a Constant)");
        } else if (!data.rank_dynamic) {
            std::string error;
            const auto a = normalize_axis(axis->front(), static_cast<int64_t>(data.rank()), &error);
            if (!a) {
                ctx.invalid_input(fmt::format("{} for data rank {}", error, data.rank()));
                return;
            }
            const Dim& d = data.dims[*a];
            Dim at = d, rev = d;
            if (d.is_static() && d.min() == 0) {
                at = rev = Dim(0);
                first = counts = Shape{false, {Dim(0)}};
            } else if (!d.is_fully_dynamic()) {
                at = Dim(1, d.max());
                rev = d.is_static() ? Dim(d.max()) : d;
            }
            uniques = data;
            uniques.dims[*a] = at;
            reverse = Shape{false, {rev}};
            axis_index = *a;
        }
    }
    // A Constant's data (OpenVINO looks at the input's own node only) gives the counts.
    const bool axis_known = ctx.input_count() == 1 || axis_index;
    if (const auto known = ctx.input(0).stored_const && axis_known ? tensor::known_tensor(ctx, 0) : std::nullopt) {
        const Dim n(tensor::distinct_count(*known, axis_index));
        uniques = axis_index ? data : Shape{false, {n}};
        if (axis_index) uniques.dims[*axis_index] = n;
        first = counts = Shape{false, {n}};
    }
    out.push_back(OpOutput{std::move(uniques), ctx.type(0), std::nullopt, {}});
    out.push_back(OpOutput{std::move(first), index_type, std::nullopt, {}});
    out.push_back(OpOutput{std::move(reverse), index_type, std::nullopt, {}});
    out.push_back(OpOutput{std::move(counts), count_type, std::nullopt, {}});
}

constexpr std::array<OpEntry, 27> kTensorOps{{
    {"Bucketize", 3, 3, infer_bucketize, "shape, type", "output_type i32/i64; buckets 1D"},
    {"EmbeddingBagOffsets", 15, 15, infer_embedding_bag_offsets, "shape, type",
     "reduction; index types i32/i64 alike; indices, offsets 1D; default_index scalar; weights like indices"},
    {"EmbeddingBagOffsetsSum", 3, 3, infer_embedding_bag_offsets, "shape, type",
     "index types i32/i64 alike; indices, offsets 1D; default_index scalar; weights like indices"},
    {"EmbeddingBagPacked", 15, 15, infer_embedding_bag_packed, "shape, type",
     "reduction; indices i32/i64 2D; weights like indices"},
    {"EmbeddingBagPackedSum", 3, 3, infer_embedding_bag_packed, "shape, type", "indices i32/i64 2D; weights like indices"},
    {"EmbeddingSegmentsSum", 3, 3, infer_embedding_segments_sum, "shape, type",
     "index types i32/i64 alike; indices, segment_ids 1D and equal; scalars; weights like indices"},
    {"Gather", 1, 1, infer_gather, "shape, type, values", "axis in range; axis input scalar or one element"},
    {"Gather", 7, 7, infer_gather, "shape, type, values",
     "integral indices and axis; axis in range; batch_dims <= axis and <= indices rank; batch dims match"},
    {"Gather", 8, 8, infer_gather, "shape, type, values",
     "integral indices and axis; axis in range; batch_dims <= axis and <= indices rank; batch dims match"},
    {"GatherElements", 6, 6, infer_gather_elements, "shape, type", "axis in range; equal ranks; dims but axis match"},
    {"GatherND", 5, 5, infer_gather_nd, "shape, type", "ranks >= 1; batch_dims < ranks; tuple length; batch dims"},
    {"GatherND", 8, 8, infer_gather_nd, "shape, type", "ranks >= 1; batch_dims < ranks; tuple length; batch dims"},
    {"Interpolate", 0, 1, tensor::infer_interpolate, "shape, type", "axes < rank; mode; sizes count"},
    {"Interpolate", 4, 4, tensor::infer_interpolate, "shape, type",
     "mode; shape_calculation_mode; inputs 1D; axes < rank; sizes or scales count"},
    {"Interpolate", 11, 11, tensor::infer_interpolate, "shape, type",
     "mode; shape_calculation_mode; inputs 1D; axes < rank; sizes or scales count"},
    {"NonZero", 3, 3, infer_non_zero, "shape, type", "output_type i32/i64"},
    {"OneHot", 1, 1, infer_one_hot, "shape, type", "axis in range; scalars; depth >= 0; on/off types"},
    {"Pad", 1, 1, tensor::infer_pad, "shape, type",
     "pad_mode; pads 1D, count = rank, non-negative; reflect/symmetric limits; pad_value scalar"},
    {"Pad", 12, 12, tensor::infer_pad, "shape, type",
     "pad_mode; pads 1D, count = rank; reflect/symmetric limits; pad_value scalar"},
    {"ScatterElementsUpdate", 3, 3, infer_scatter_elements_update, "shape, type, values (1-D data)",
     "equal ranks; indices = updates shape; axis in range"},
    {"ScatterElementsUpdate", 12, 12, infer_scatter_elements_update, "shape, type, values (1-D data)",
     "reduction; equal ranks; indices = updates shape; axis in range"},
    {"ScatterNDUpdate", 3, 3, infer_scatter_nd_update, "shape, type, values (1-D data)", "ranks >= 1; indices tuple; updates shape"},
    {"ScatterNDUpdate", 15, 15, infer_scatter_nd_update, "shape, type, values (1-D data)",
     "reduction; ranks >= 1; indices tuple; updates shape"},
    {"ScatterUpdate", 3, 3, infer_scatter_update, "shape, type, values (1-D data)", "updates rank and shape; axis in range"},
    {"Slice", 8, 8, tensor::infer_slice, "shape, type, values",
     "inputs 1D and compatible; axes in range, unique; steps non-zero"},
    {"StridedSlice", 1, 1, tensor::infer_strided_slice, "shape, type, values",
     "masks; one ellipsis; begin/end/strides 1D and equal length; strides non-zero"},
    {"Unique", 10, 10, infer_unique, "shape, type",
     "index_element_type, count_element_type i32/i64; axis i32/i64, one element, in range"},
}};

}  // namespace

std::span<const OpEntry> tensor_ops() { return kTensorOps; }

}  // namespace irlint
