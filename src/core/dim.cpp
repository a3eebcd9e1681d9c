#include "core/dim.hpp"

#include <algorithm>
#include <charconv>

#include "core/text.hpp"

namespace irlint {

namespace {
int64_t clip(int64_t v) { return std::clamp<int64_t>(v, 0, Dim::kInf); }
}  // namespace

int64_t bound_add(int64_t a, int64_t b) {
    if (a == Dim::kInf || b == Dim::kInf || b > Dim::kInf - a) return Dim::kInf;
    return a + b;
}

int64_t bound_sub(int64_t a, int64_t b) {
    if (a <= b) return 0;
    if (a == Dim::kInf) return Dim::kInf;
    return a - b;
}

int64_t bound_mul(int64_t a, int64_t b) {
    if (a == 0 || b == 0) return 0;
    int64_t r = 0;
    if (a == Dim::kInf || b == Dim::kInf || __builtin_mul_overflow(a, b, &r) || r > Dim::kInf) return Dim::kInf;
    return r;
}

Dim::Dim(int64_t value) {
    if (value < 0) {
        min_ = 0;
        max_ = kInf;
    } else {
        min_ = max_ = value;
    }
}

Dim::Dim(int64_t min, int64_t max) : min_(min), max_(max < 0 ? kInf : max) {
    if (max_ < min_) {  // an empty interval, as ov::Interval canonicalizes it
        min_ = max_ = kInf;
    } else {
        min_ = clip(min_);
        max_ = clip(max_);
    }
}

bool Dim::compatible(const Dim& other) const {
    return std::max(min_, other.min_) <= std::min(max_, other.max_);
}

Dim Dim::operator+(const Dim& other) const {
    if (is_empty() || other.is_empty()) return Dim(kInf, kInf);
    return Dim(bound_add(min_, other.min_), bound_add(max_, other.max_));
}

Dim Dim::operator-(const Dim& other) const {
    if (is_empty() || other.is_empty()) return Dim(kInf, kInf);
    return Dim(bound_sub(min_, other.max_), bound_sub(max_, other.min_));
}

Dim Dim::operator*(const Dim& other) const {
    if (other == Dim(1)) return *this;
    if (*this == Dim(1)) return other;
    if (is_empty() || other.is_empty()) return Dim(kInf, kInf);
    return Dim(bound_mul(min_, other.min_), bound_mul(max_, other.max_));
}

Dim Dim::divided_by(int64_t divisor) const {
    if (divisor == 1 || is_empty()) return *this;
    if (is_fully_dynamic() || divisor <= 0) return Dim::dynamic();
    const int64_t lo = min_ / divisor + (min_ % divisor != 0);
    const int64_t hi = max_ == kInf ? kInf : max_ / divisor;
    return Dim(lo, hi == kInf ? -1 : hi);
}

std::optional<Dim> Dim::merge(const Dim& a, const Dim& b) {
    if (!a.compatible(b)) return std::nullopt;
    // The two are the same dim from here on: either's symbol names it.
    return Dim(std::max(a.min_, b.min_), std::min(a.max_, b.max_) == kInf ? -1 : std::min(a.max_, b.max_))
        .with_symbol(a.symbol_ != 0 ? a.symbol_ : b.symbol_);
}

std::optional<Dim> Dim::broadcast_merge(const Dim& a, const Dim& b) {
    const bool a_has_1 = a.min_ <= 1 && 1 <= a.max_;
    const bool b_has_1 = b.min_ <= 1 && 1 <= b.max_;
    if (a_has_1 && b_has_1) {
        const int64_t hi = std::max(a.max_, b.max_);
        return Dim(std::min(a.min_, b.min_), hi == kInf ? -1 : hi).with_symbol(a.symbol_ == b.symbol_ ? a.symbol_ : 0);
    }
    if (a_has_1) return b;
    if (b_has_1) return a;
    return merge(a, b);
}

std::string Dim::str() const {
    if (is_static()) return std::to_string(min_);
    if (min_ > 0) return std::to_string(min_) + ".." + (has_upper_bound() ? std::to_string(max_) : "");
    if (has_upper_bound()) return ".." + std::to_string(max_);
    return "?";
}

bool Shape::is_static() const {
    return !rank_dynamic && std::all_of(dims.begin(), dims.end(), [](const Dim& d) { return d.is_static(); });
}

std::string_view value_kind_name(ValueKind k) {
    switch (k) {
        case ValueKind::sequence: return "sequence";
        case ValueKind::optional: return "optional";
        case ValueKind::optional_sequence: return "optional sequence";
        case ValueKind::tensor: break;
    }
    return "tensor";
}

bool Shape::compatible(const Shape& other) const {
    if (kind != other.kind) {
        const auto unknown = [](const Shape& s) { return s.kind == ValueKind::tensor && s.rank_dynamic; };
        return unknown(*this) || unknown(other);
    }
    if (rank_dynamic || other.rank_dynamic) return true;
    if (dims.size() != other.dims.size()) return false;
    for (size_t i = 0; i < dims.size(); ++i)
        if (!dims[i].compatible(other.dims[i])) return false;
    return true;
}

std::string Shape::str() const {
    std::string out = "[";
    if (rank_dynamic) {
        out = "[...]";
    } else {
        for (size_t i = 0; i < dims.size(); ++i) {
            if (i) out += ',';
            out += dims[i].str();
        }
        out += "]";
    }
    switch (kind) {
        case ValueKind::sequence: return "seq(" + out + ")";
        case ValueKind::optional: return "opt(" + out + ")";
        case ValueKind::optional_sequence: return "opt(seq(" + out + "))";
        case ValueKind::tensor: break;
    }
    return out;
}

namespace {
// A bound is a non-negative decimal integer that fits int64.
std::optional<int64_t> parse_bound(std::string_view text) {
    if (text.empty()) return std::nullopt;
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    // INT64_MAX is the unbounded marker of an interval, never a length.
    if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value == Dim::kInf) return std::nullopt;
    return value;
}
}  // namespace

std::optional<Dim> parse_dim(std::string_view text, std::string* error) {
    const std::string_view t = trim(text);
    if (t.empty()) return Dim(0);  // OpenVINO reads a blank dimension as 0
    auto fail = [&](const std::string& why) -> std::optional<Dim> {
        if (error) *error = why;
        return std::nullopt;
    };
    if (t == "?" || t == "-1") return Dim::dynamic();
    const auto dots = t.find("..");
    if (dots == std::string_view::npos) {
        if (auto v = parse_bound(t)) return Dim(*v);
        return fail("cannot parse dimension '" + std::string(t) + "'");
    }
    const std::string_view lo = t.substr(0, dots), hi = t.substr(dots + 2);
    int64_t min = 0, max = -1;
    if (!lo.empty()) {
        auto v = parse_bound(lo);
        if (!v) return fail("cannot parse min bound '" + std::string(lo) + "' of dimension '" + std::string(t) + "'");
        min = *v;
    }
    if (!hi.empty()) {
        auto v = parse_bound(hi);
        if (!v) return fail("cannot parse max bound '" + std::string(hi) + "' of dimension '" + std::string(t) + "'");
        max = *v;
        if (max < min)
            return fail("dimension '" + std::string(t) +
                        "' has its max bound below its min bound (OpenVINO would read an empty interval)");
    }
    return Dim(min, max);
}

std::optional<Shape> parse_shape(std::string_view text, std::string* error) {
    std::string_view t = trim(text);
    if (t.size() >= 2 && t.front() == '[' && t.back() == ']') t = trim(t.substr(1, t.size() - 2));
    if (t == "...") return Shape::dynamic_rank();
    Shape shape;
    if (t.empty()) return shape;
    // Counted before splitting, so that a huge attribute costs no memory beyond its own text.
    if (static_cast<size_t>(std::count(t.begin(), t.end(), ',')) >= kMaxShapeRank) {
        if (error) *error = "more than " + std::to_string(kMaxShapeRank) + " dims; irlint reads shapes up to that rank";
        return std::nullopt;
    }
    auto fields = split(t, ',');
    if (fields.size() > 1 && fields.back().empty()) fields.pop_back();  // OpenVINO accepts a trailing comma
    for (std::string_view field : fields) {
        if (field.empty()) {
            if (error) *error = "empty dimension between commas";
            return std::nullopt;
        }
        auto d = parse_dim(field, error);
        if (!d) return std::nullopt;
        shape.dims.push_back(*d);
    }
    return shape;
}

Shape shape_from_port_dims(std::span<const int64_t> dims) {
    Shape s;
    s.dims.reserve(dims.size());
    for (int64_t v : dims) s.dims.push_back(Dim(v));
    return s;
}

std::optional<size_t> capped_element_count(std::span<const int64_t> dims, size_t cap) {
    size_t n = 1;
    bool empty = false;
    for (const int64_t d : dims) {
        if (d < 0) return std::nullopt;
        if (d == 0) empty = true;
        else if (!empty && static_cast<uint64_t>(d) > cap / n) return std::nullopt;
        else if (!empty) n *= static_cast<size_t>(d);
    }
    return empty ? 0 : n;
}

std::optional<size_t> capped_element_count(const Shape& shape, size_t cap) {
    if (shape.rank_dynamic || !shape.is_static()) return std::nullopt;
    std::vector<int64_t> dims;
    dims.reserve(shape.rank());
    for (const Dim& d : shape.dims) dims.push_back(d.length());
    return capped_element_count(dims, cap);
}

}  // namespace irlint
