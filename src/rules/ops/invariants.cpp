#include "rules/ops/invariants.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/checked_int.hpp"

namespace irlint::invariants {

namespace {

using Result = std::optional<InvariantViolation>;

// The declared dim may be `input`'s length, or 1 (a dim a reduction or Squeeze may produce or drop).
bool may_equal(const Dim& declared, const Dim& input) { return declared.compatible(input); }
bool may_be_one(const Dim& d) { return d.compatible(Dim(1)); }
// The declared dim may be at most the input's.
bool may_be_at_most(const Dim& declared, const Dim& input) { return declared.min() <= input.max(); }

std::string product_text(const Shape& s) {
    if (s.rank() == 0) return "a scalar's 1";
    std::vector<std::string> dims;
    for (const Dim& d : s.dims) dims.push_back(d.str());
    return fmt::format("{}", fmt::join(dims, "x"));
}

Result violation(size_t output, std::string message) { return InvariantViolation{output, std::move(message)}; }

// Whether `longer` is `shorter` with dims inserted where `insertable` holds: shorter's dims in order, each
// matched to one of longer's that may equal it.
template <class Insertable>
bool subsequence_with(const Shape& longer, const Shape& shorter, Insertable insertable) {
    const size_t n = longer.rank(), m = shorter.rank();
    if (m > n) return false;
    // reach[j]: longer's dims so far can be shorter's first j dims with insertions.
    std::vector<bool> reach(m + 1, false);
    reach[0] = true;
    for (size_t i = 0; i < n; ++i) {
        std::vector<bool> next(m + 1, false);
        for (size_t j = 0; j <= m; ++j) {
            if (!reach[j]) continue;
            if (insertable(longer.dims[i])) next[j] = true;
            if (j < m && may_equal(longer.dims[i], shorter.dims[j])) next[j + 1] = true;
        }
        reach = std::move(next);
    }
    return reach[m];
}

// Ranks past this are not matched dim to dim (the matching costs the cube of the rank).
constexpr size_t kMaxMatchedRank = 64;

// Whether each of `declared`'s dims can be a distinct dim of `input` that it may equal (Kuhn's augmenting paths).
bool each_matched(const Shape& declared, const Shape& input) {
    const size_t n = input.rank();
    std::vector<size_t> owner(n, n);  // input dim -> the declared dim it is given to; n: none
    std::vector<bool> tried;
    const auto give = [&](auto&& self, size_t d) -> bool {
        for (size_t i = 0; i < n; ++i) {
            if (tried[i] || !may_equal(declared.dims[d], input.dims[i])) continue;
            tried[i] = true;
            if (owner[i] == n || self(self, owner[i])) {
                owner[i] = d;
                return true;
            }
        }
        return false;
    };
    for (size_t d = 0; d < declared.rank(); ++d) {
        tried.assign(n, false);
        if (!give(give, d)) return false;
    }
    return true;
}

// Whether `out` has at least the rank of `input` and each dim of `input` fits the dim of `out` it lines up
// with when both are aligned right.
template <class Fits>
bool fits_aligned_right(const Shape& input, const Shape& out, Fits fits) {
    if (out.rank() < input.rank()) return false;
    const size_t shift = out.rank() - input.rank();
    for (size_t i = 0; i < input.rank(); ++i)
        if (!fits(input.dims[i], out.dims[shift + i])) return false;
    return true;
}

}  // namespace

Invariant inferred_bounds() {
    return [](std::span<const Shape>) -> Result { return std::nullopt; };
}

Invariant same_element_count(std::string op, Shape input) {
    return [op = std::move(op), input = std::move(input)](std::span<const Shape> declared) -> Result {
        if (declared.empty() || !input.is_static() || !declared[0].is_static()) return std::nullopt;
        CheckedInt in = 1, out = 1;
        for (const Dim& d : input.dims) in = in * d.length();
        for (const Dim& d : declared[0].dims) out = out * d.length();
        if (!in.get() || !out.get() || *in.get() == *out.get()) return std::nullopt;
        return violation(0, fmt::format("{} keeps {} = {} elements, declared {} has {}", op, product_text(input),
                                        *in.get(), declared[0].str(), *out.get()));
    };
}

Invariant permutation_of(std::string op, Shape input) {
    return [op = std::move(op), input = std::move(input)](std::span<const Shape> declared) -> Result {
        if (declared.empty() || input.rank_dynamic || declared[0].rank_dynamic || declared[0].rank() != input.rank() ||
            input.rank() > kMaxMatchedRank)
            return std::nullopt;
        if (each_matched(declared[0], input)) return std::nullopt;
        return violation(0, fmt::format("{} orders the dims of {}, declared {} is no order of them", op, input.str(),
                                        declared[0].str()));
    };
}

Invariant ones_inserted(std::string op, Shape input, size_t most) {
    return [op = std::move(op), input = std::move(input), most](std::span<const Shape> declared) -> Result {
        if (declared.empty() || input.rank_dynamic || declared[0].rank_dynamic) return std::nullopt;
        const Shape& out = declared[0];
        const bool rank_fits = out.rank() > input.rank() && out.rank() - input.rank() <= most;
        if (rank_fits && subsequence_with(out, input, may_be_one)) return std::nullopt;
        const std::string count = most == 1 ? "a dim" : most == std::numeric_limits<size_t>::max()
                                                            ? "dims"
                                                            : fmt::format("1 to {} dims", most);
        return violation(0, fmt::format("{} inserts {} of 1 into {}, declared {} is not that", op, count, input.str(),
                                        out.str()));
    };
}

Invariant dims_left_out(std::string op, Shape input, bool only_ones) {
    return [op = std::move(op), input = std::move(input), only_ones](std::span<const Shape> declared) -> Result {
        if (declared.empty() || input.rank_dynamic || declared[0].rank_dynamic) return std::nullopt;
        const auto droppable = [only_ones](const Dim& d) { return !only_ones || may_be_one(d); };
        if (subsequence_with(input, declared[0], droppable)) return std::nullopt;
        return violation(0, fmt::format("{} keeps the dims of {} in order, leaving out {}; declared {} is not that", op,
                                        input.str(), only_ones ? "dims of 1" : "some", declared[0].str()));
    };
}

Invariant dims_kept_or_one(std::string op, Shape input) {
    return [op = std::move(op), input = std::move(input)](std::span<const Shape> declared) -> Result {
        if (declared.empty() || input.rank_dynamic || declared[0].rank_dynamic || declared[0].rank() != input.rank())
            return std::nullopt;
        for (size_t i = 0; i < input.rank(); ++i) {
            const Dim& d = declared[0].dims[i];
            if (!may_equal(d, input.dims[i]) && !may_be_one(d))
                return violation(0, fmt::format("{} keeps each dim of {} or makes it 1, declared {} has {} at dim {}",
                                                op, input.str(), declared[0].str(), d.str(), i));
        }
        return std::nullopt;
    };
}

Invariant no_dim_grows(std::string op, Shape input, size_t output) {
    return [op = std::move(op), input = std::move(input), output](std::span<const Shape> declared) -> Result {
        if (declared.size() <= output || input.rank_dynamic || declared[output].rank_dynamic ||
            declared[output].rank() != input.rank())
            return std::nullopt;
        for (size_t i = 0; i < input.rank(); ++i) {
            const Dim& d = declared[output].dims[i];
            if (!may_be_at_most(d, input.dims[i]))
                return violation(output, fmt::format("{} takes at most each dim of {}, declared {} has {} at dim {}",
                                                     op, input.str(), declared[output].str(), d.str(), i));
        }
        return std::nullopt;
    };
}

Invariant gather_on_some_axis(std::string op, Shape data, Shape indices, int64_t batch_dims) {
    return [op = std::move(op), data = std::move(data), indices = std::move(indices),
            batch_dims](std::span<const Shape> declared) -> Result {
        if (declared.empty() || data.rank_dynamic || indices.rank_dynamic || declared[0].rank_dynamic ||
            batch_dims < 0 || static_cast<size_t>(batch_dims) > indices.rank())
            return std::nullopt;
        const auto gathered = indices.dims.begin() + batch_dims;
        for (size_t axis = static_cast<size_t>(batch_dims); axis < data.rank(); ++axis) {
            Shape expected;
            expected.dims.assign(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis));
            expected.dims.insert(expected.dims.end(), gathered, indices.dims.end());
            expected.dims.insert(expected.dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1,
                                 data.dims.end());
            if (declared[0].compatible(expected)) return std::nullopt;
        }
        if (static_cast<size_t>(batch_dims) >= data.rank()) return std::nullopt;  // rejected elsewhere
        return violation(0, fmt::format("{} puts indices {} in place of one dim of {}{}; declared {} fits no axis", op,
                                        indices.str(), data.str(),
                                        batch_dims ? fmt::format(" after batch_dims {}", batch_dims) : "",
                                        declared[0].str()));
    };
}

Invariant dims_kept_but(std::string op, Shape input, size_t axis, bool at_most, size_t output) {
    return [op = std::move(op), input = std::move(input), axis, at_most, output](std::span<const Shape> declared) -> Result {
        if (declared.size() <= output || input.rank_dynamic || declared[output].rank_dynamic ||
            declared[output].rank() != input.rank())
            return std::nullopt;
        for (size_t i = 0; i < input.rank(); ++i) {
            const Dim& d = declared[output].dims[i];
            const bool fits = i == axis ? !at_most || may_be_at_most(d, input.dims[i]) : may_equal(d, input.dims[i]);
            if (!fits)
                return violation(output, fmt::format("{} keeps the dims of {}{} but dim {}; declared {} has {} at dim {}",
                                                     op, input.str(), at_most ? " (and at most its dim there)" : "",
                                                     axis, declared[output].str(), d.str(), i));
        }
        return std::nullopt;
    };
}

Invariant dims_kept_but_some(std::string op, Shape input, size_t changed) {
    return [op = std::move(op), input = std::move(input), changed](std::span<const Shape> declared) -> Result {
        if (declared.empty() || input.rank_dynamic || declared[0].rank_dynamic) return std::nullopt;
        if (declared[0].rank() != input.rank())
            return violation(0, fmt::format("{} keeps the rank of {}; declared {} has rank {}", op, input.str(),
                                            declared[0].str(), declared[0].rank()));
        std::vector<size_t> differ;
        for (size_t i = 0; i < input.rank(); ++i)
            if (!may_equal(declared[0].dims[i], input.dims[i])) differ.push_back(i);
        if (differ.size() <= changed) return std::nullopt;
        return violation(0, fmt::format("{} changes at most {} dim{} of {} (one per axis); declared {} differs at dims {}",
                                        op, changed, changed == 1 ? "" : "s", input.str(), declared[0].str(),
                                        fmt::join(differ, ", ")));
    };
}

Invariant numpy_broadcast_of(std::string op, Shape input) {
    return [op = std::move(op), input = std::move(input)](std::span<const Shape> declared) -> Result {
        if (declared.empty() || input.rank_dynamic || declared[0].rank_dynamic) return std::nullopt;
        const Shape& out = declared[0];
        const auto kept = [](const Dim& in, const Dim& d) { return !in.is_static() || in == Dim(1) || may_equal(d, in); };
        if (fits_aligned_right(input, out, kept)) return std::nullopt;
        return violation(0, fmt::format("{} keeps each dim of {} other than 1, aligned right; declared {} does not",
                                        op, input.str(), out.str()));
    };
}

Invariant dim_multiple_of(std::string op, size_t axis, int64_t factor, std::string what) {
    return [op = std::move(op), axis, factor, what = std::move(what)](std::span<const Shape> declared) -> Result {
        if (declared.empty() || declared[0].rank_dynamic || axis >= declared[0].rank() || factor <= 0) return std::nullopt;
        const Dim& d = declared[0].dims[axis];
        if (!d.is_static() || d.length() % factor == 0) return std::nullopt;
        return violation(0, fmt::format("{} gives {} at dim {}, a multiple of {}; declared {} has {}", op, what, axis,
                                        factor, declared[0].str(), d.length()));
    };
}

Invariant multiples_of(std::string op, Shape input) {
    return [op = std::move(op), input = std::move(input)](std::span<const Shape> declared) -> Result {
        if (declared.empty() || input.rank_dynamic || declared[0].rank_dynamic) return std::nullopt;
        const Shape& out = declared[0];
        const auto repeated = [](const Dim& in, const Dim& d) {
            if (!in.is_static() || !d.is_static()) return true;
            return in.length() == 0 ? d.length() == 0 : d.length() % in.length() == 0;
        };
        if (fits_aligned_right(input, out, repeated)) return std::nullopt;
        return violation(0, fmt::format("{} repeats each dim of {}, aligned right; declared {} has a dim that is not a "
                                        "multiple of its input's", op, input.str(), out.str()));
    };
}

Invariant split_along(std::string op, Shape input, size_t axis, size_t outputs) {
    return [op = std::move(op), input = std::move(input), axis, outputs](std::span<const Shape> declared) -> Result {
        if (input.rank_dynamic || axis >= input.rank() || declared.size() < outputs) return std::nullopt;
        CheckedInt sum = 0;
        bool sum_known = input.dims[axis].is_static();
        for (size_t k = 0; k < outputs; ++k) {
            const Shape& out = declared[k];
            if (out.rank_dynamic) {
                sum_known = false;
                continue;
            }
            if (out.rank() != input.rank()) return std::nullopt;  // the inferred rank is compared
            for (size_t i = 0; i < input.rank(); ++i)
                if (i != axis && !may_equal(out.dims[i], input.dims[i]))
                    return violation(k, fmt::format("{} keeps the dims of {} but dim {}; declared {} has {} at dim {}",
                                                    op, input.str(), axis, out.str(), out.dims[i].str(), i));
            sum_known = sum_known && out.dims[axis].is_static();
            if (sum_known) sum = sum + out.dims[axis].length();
        }
        if (!sum_known || !sum.get() || *sum.get() == input.dims[axis].length()) return std::nullopt;
        return violation(0, fmt::format("{} splits dim {} of {} into parts that add up to {}; the declared parts add up "
                                        "to {}", op, axis, input.str(), input.dims[axis].str(), *sum.get()));
    };
}

Invariant split_along_some_axis(std::string op, Shape input, size_t outputs) {
    return [op = std::move(op), input = std::move(input), outputs](std::span<const Shape> declared) -> Result {
        if (input.rank_dynamic || input.rank() == 0) return std::nullopt;
        for (size_t axis = 0; axis < input.rank(); ++axis)
            if (!split_along(op, input, axis, outputs)(declared)) return std::nullopt;
        return violation(0, fmt::format("{} splits one dim of {} into {} parts and keeps the others; the declared "
                                        "outputs split none", op, input.str(), outputs));
    };
}

}  // namespace irlint::invariants
