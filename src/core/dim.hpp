#pragma once
// Dimensions and shapes with OpenVINO's interval semantics: a dimension is [min, max] with
// 0 <= min <= max, max possibly unbounded. Arithmetic saturates and clips the way ov::Interval does,
// so that inferred intervals are exactly the ones OpenVINO would print.

#include <cstdint>
#include <limits>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace irlint {

class Dim {
public:
    static constexpr int64_t kInf = std::numeric_limits<int64_t>::max();

    Dim() : min_(0), max_(kInf) {}  // fully dynamic
    explicit Dim(int64_t value);
    Dim(int64_t min, int64_t max);  // max == -1 or kInf means no upper bound

    static Dim dynamic() { return Dim(); }

    int64_t min() const { return min_; }
    int64_t max() const { return max_; }
    bool is_static() const { return min_ == max_ && max_ != kInf; }
    bool is_dynamic() const { return !is_static(); }
    bool has_upper_bound() const { return max_ != kInf; }
    bool is_fully_dynamic() const { return min_ == 0 && max_ == kInf; }
    bool is_empty() const { return min_ == kInf && max_ == kInf; }
    int64_t length() const { return min_; }  // meaningful for static dims only

    // The dimension's lengths may be equal for some value: their intervals intersect.
    bool compatible(const Dim& other) const;
    // Equal intervals; the symbols are not compared.
    bool operator==(const Dim& other) const { return min_ == other.min_ && max_ == other.max_; }

    // A symbol names a dim whose length is not known, as OpenVINO's dim symbols do: two dims with the same
    // symbol have the same length. Ops that pass a dim on keep it; arithmetic makes a dim without one (0).
    uint32_t symbol() const { return symbol_; }
    Dim with_symbol(uint32_t symbol) const {
        Dim d = *this;
        d.symbol_ = symbol;
        return d;
    }

    Dim operator+(const Dim& other) const;
    Dim operator-(const Dim& other) const;
    Dim operator*(const Dim& other) const;  // saturating: an unbounded factor gives an unbounded product
    // Interval division by a positive integer, as OpenVINO divides dims: [ceil(min/d), floor(max/d)]; a fully
    // dynamic dim stays dynamic.
    Dim divided_by(int64_t divisor) const;
    // The intersection (OpenVINO's Dimension::merge); nullopt when the dims cannot be equal.
    static std::optional<Dim> merge(const Dim& a, const Dim& b);
    // Numpy broadcasting of two dims (OpenVINO's Dimension::broadcast_merge): a dim that may be 1 takes the
    // other; nullopt when neither may be 1 and they cannot be equal.
    static std::optional<Dim> broadcast_merge(const Dim& a, const Dim& b);

    std::string str() const;  // OpenVINO's spelling: 5, 2..10, 2.., ..10, ?

private:
    int64_t min_;
    int64_t max_;
    uint32_t symbol_ = 0;
};

// Saturating helpers on bounds (kInf absorbs).
int64_t bound_add(int64_t a, int64_t b);
int64_t bound_sub(int64_t a, int64_t b);  // clipped at 0
int64_t bound_mul(int64_t a, int64_t b);  // 0 absorbs, then kInf

// What a value is: a tensor, or (ONNX) a sequence of tensors, an optional tensor or an optional sequence.
enum class ValueKind : uint8_t { tensor, sequence, optional, optional_sequence };
// "tensor", "sequence", "optional", "optional sequence".
std::string_view value_kind_name(ValueKind k);

// A tensor's dims; for a sequence or an optional value, the dims of the tensors it holds (for a sequence, what
// all its elements have in common).
struct Shape {
    // `kind` sits beside `rank_dynamic`, in what would be padding: a Shape stays 32 bytes, as a model holds
    // several per layer.
    bool rank_dynamic = false;
    ValueKind kind = ValueKind::tensor;
    std::vector<Dim> dims;

    Shape() = default;
    Shape(bool rank_dynamic_, std::vector<Dim> dims_, ValueKind kind_ = ValueKind::tensor)
        : rank_dynamic(rank_dynamic_), kind(kind_), dims(std::move(dims_)) {}

    static Shape dynamic_rank() { return Shape{true, {}}; }
    size_t rank() const { return dims.size(); }
    bool is_static() const;
    // Dims that may be the same; values of other kinds are not, unless one side is not known at all (a
    // tensor of unknown rank is what is inferred for a value nothing is known of).
    bool compatible(const Shape& other) const;
    bool operator==(const Shape& other) const = default;
    std::string str() const;  // [1,3,?,2..5] or [...]; seq([2,3]), opt([2,3]), opt(seq([2,3]))
    // The same dims as a value of kind `k`.
    Shape as(ValueKind k) const {
        Shape s = *this;
        s.kind = k;
        return s;
    }
};

// Parses one dimension as OpenVINO's Dimension(string) does: "N", "-1", "?", "a..b", "a..", "..b".
// Returns nullopt and fills *error on malformed text.
std::optional<Dim> parse_dim(std::string_view text, std::string* error);

// Parses a comma-separated shape ("1,3,?,2..10"); "..." is a dynamic rank; "" is a scalar. A shape of more
// than kMaxShapeRank dims is refused unread.
inline constexpr size_t kMaxShapeRank = 1024;
std::optional<Shape> parse_shape(std::string_view text, std::string* error);

// The element count of static dims when it is at most `cap`, else nullopt (also for a negative or dynamic dim);
// it multiplies only while the product stays under the cap, so no count read from a file can overflow it.
std::optional<size_t> capped_element_count(std::span<const int64_t> dims, size_t cap);
std::optional<size_t> capped_element_count(const Shape& shape, size_t cap);

// Converts integer port dims (-1 dynamic) to a Shape.
Shape shape_from_port_dims(std::span<const int64_t> dims);
inline Shape shape_from_port_dims(std::initializer_list<int64_t> dims) { return shape_from_port_dims({dims.begin(), dims.size()}); }

}  // namespace irlint
