#pragma once
// What one op's inference sees of a layer, and what it gives back. An op is a function of its layer's
// declared inputs (shapes, element types, and the values of small integer tensors where OpenVINO propagates
// them) and its attributes; it fills the outputs, or says why it cannot (OpenVINO would reject the layer), or
// that a value it needs is unknown. The engine compares the outputs with the declared ports.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "ir/model.hpp"

namespace irlint {

// The values of a small integer tensor as OpenVINO propagates them: per element, a lower and an upper bound,
// equal when the value is known (ShapeOf of a dim 2..5 gives lo 2, hi 5; of a dim `?`, 0 and kUnbounded).
// Flattened in row-major order; the tensor's shape is the port's.
// An element that ShapeOf took from a dim keeps the dim's symbol (core/dim.hpp), so that a dim made from it (a
// Reshape or Broadcast target) is the same dim: a Reshape of x to [N,-1] with N from x's ShapeOf cancels N.
// Arithmetic on an element makes a new value without a symbol; moving it (Gather, Concat) keeps it.
struct ValueBounds {
    static constexpr int64_t kUnbounded = Dim::kInf;
    int64_t lo = 0;
    int64_t hi = 0;
    uint32_t symbol = 0;  // 0: none

    ValueBounds() = default;
    ValueBounds(int64_t lo_, int64_t hi_) : lo(lo_), hi(hi_) {}
    bool exact() const { return lo == hi; }
};
using TensorValue = std::vector<ValueBounds>;

// A value read as a dimension (a Reshape target's element, an output_shape's): [lo, hi] with a negative low as
// 0 and an unbounded high as no upper bound; an exact negative value says nothing (a dynamic dim). A value
// that ShapeOf took from a dim is that dim again: it keeps the symbol.
inline Dim value_as_dim(const ValueBounds& b) {
    if (b.exact()) return b.lo < 0 ? Dim::dynamic() : Dim(b.lo);
    if (b.hi < 0) return Dim::dynamic();
    return Dim(b.lo < 0 ? 0 : b.lo, b.hi).with_symbol(b.lo < 0 ? 0 : b.symbol);
}

// Value tensors larger than this are treated as unknown: shapes hang on a few numbers, and a tensor read from
// a file must not cost in proportion to a number it holds.
inline constexpr size_t kMaxValueElements = 4096;

struct OpInput {
    Shape shape;
    std::optional<ElementType> type;  // nullopt: not declared (an IR v10 port often declares none)
    bool present = true;              // false: an optional input the node leaves out (ONNX's empty name)
    // An IR Const's output: its values are read from the .bin when an op asks, so an op asks only where its
    // outputs depend on them, not to carry floating-point values on from a constant alone.
    bool stored_const = false;
};

struct OpOutput {
    Shape shape;
    std::optional<ElementType> type;      // nullopt: the op does not say (a Parameter's type, say)
    std::optional<TensorValue> value;     // set by ops that propagate values (ShapeOf, Gather, Concat, ...)
    std::vector<std::string> dim_notes;   // optional, one per dim: the arithmetic, as "floor((224+3+3-7)/2)+1"
    // A small floating-point tensor's values when some is not a whole number (whole ones travel in `value`);
    // empty when none are known.
    std::vector<double> reals = {};
};

// One problem found with the layer's attributes or inputs: OpenVINO rejects the layer.
struct OpProblem {
    enum class Kind { attribute, input } kind = Kind::attribute;
    std::string message;
};

// A declared output that breaks what holds of the op's outputs whatever its unknown values are.
struct InvariantViolation {
    size_t output = 0;
    std::string message;  // the invariant and how the declared dims break it
};
// What holds of the declared outputs whatever the unknown value is (an element count, a permutation, dims kept):
// nullopt when the declared dims satisfy it.
using Invariant = std::function<std::optional<InvariantViolation>(std::span<const Shape> declared)>;

// A body's Parameters or Results in a re-inference: the shape and type each takes or is given.
struct BodyPort {
    Shape shape;
    std::optional<ElementType> type;
    std::optional<TensorValue> value = std::nullopt;  // ONNX: the integer values an outer value carries in
};
using BodyPorts = std::map<const Layer*, BodyPort>;

class OpContext {
public:
    using ValueSource = std::function<const TensorValue*(size_t input)>;
    // Floating-point values (Interpolate's scales): a small floating-point Const's data, or an op's result.
    using RealSource = std::function<const std::vector<double>*(size_t input)>;
    // Infers the body graph `graph` of the model again from its Parameters' new shapes; gives its Results.
    using BodyReinferrer = std::function<BodyPorts(size_t graph, const BodyPorts& parameters)>;

    OpContext(const Layer& layer, int version, std::span<const OpInput> inputs, ValueSource values,
              RealSource reals = {})
        : layer_(layer), version_(version), inputs_(inputs), values_(std::move(values)), reals_(std::move(reals)) {}

    const Layer& layer() const { return layer_; }
    // The model the layer is in (its nested bodies: TensorIterator, Loop, If); null in a made-up context.
    const Model* model() const { return model_; }
    void set_model(const Model* model) { model_ = model; }
    int version() const { return version_; }  // the op's version: 1, 3, 4, 8, ...
    // In a re-inference (`infer --reshape`), OpenVINO infers a body again from the layer's new inputs; in a
    // check the body's declared dims are OpenVINO's inference already. nullopt when there is no re-inference.
    std::optional<BodyPorts> reinfer_body(size_t graph, const BodyPorts& parameters) const {
        if (!body_reinferrer_) return std::nullopt;
        return body_reinferrer_(graph, parameters);
    }
    void set_body_reinferrer(BodyReinferrer f) { body_reinferrer_ = std::move(f); }
    size_t input_count() const { return inputs_.size(); }
    // Input i's shape, type, or both; an input the layer does not have reads as absent (a dynamic rank, no
    // type), so that an op never reads past its inputs, whatever a file gives it.
    const Shape& shape(size_t i) const { return input(i).shape; }
    std::optional<ElementType> type(size_t i) const { return input(i).type; }
    const OpInput& input(size_t i) const {
        static const OpInput absent{Shape::dynamic_rank(), std::nullopt, false};
        return i < inputs_.size() ? inputs_[i] : absent;
    }
    // Input i is given: it exists and is not an optional input left out (ONNX writes an empty name for one).
    bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i].present; }

    // The values of input i when they are known (a Const's data, a ShapeOf's dims, ...), else nullptr.
    // Reading them may read the .bin: ask only where the shape depends on them.
    const TensorValue* value(size_t i) const;
    // The exact integer values of input i, nullopt when some is unknown or only bounded.
    std::optional<std::vector<int64_t>> exact_values(size_t i) const;
    // The floating-point values of input i (a small floating-point Const, or values an op computed), else
    // nullptr.
    const std::vector<double>* real_values(size_t i) const { return i < inputs_.size() && reals_ ? reals_(i) : nullptr; }

    // Attributes. Each reader records an attribute problem (naming the attribute and what is allowed) and
    // returns nullopt when the text is malformed; a missing attribute without a default is a problem too.
    const std::string_view* attr(std::string_view name) const { return layer_.attr(name); }
    // An ONNX node's tensor attribute (Constant's value, ConstantOfShape's value), else nullptr.
    const InlineTensor* attr_tensor(std::string_view name) const;
    // An ONNX node's graph attribute (If's branches, Loop's and Scan's body): the index into the model's
    // graphs, else nullopt.
    std::optional<size_t> attr_graph(std::string_view name) const;
    std::optional<int64_t> attr_int(std::string_view name, std::optional<int64_t> fallback = std::nullopt);
    std::optional<std::vector<int64_t>> attr_ints(std::string_view name,
                                                  std::optional<std::vector<int64_t>> fallback = std::nullopt);
    std::optional<double> attr_float(std::string_view name, std::optional<double> fallback = std::nullopt);
    std::optional<std::vector<double>> attr_floats(std::string_view name,
                                                   std::optional<std::vector<double>> fallback = std::nullopt);
    std::optional<bool> attr_bool(std::string_view name, std::optional<bool> fallback = std::nullopt);
    // One of `allowed` (compared without regard to case, as OpenVINO's enum attributes); returns the allowed
    // spelling.
    std::optional<std::string_view> attr_enum(std::string_view name, std::span<const std::string_view> allowed,
                                              std::optional<std::string_view> fallback = std::nullopt);
    std::optional<ElementType> attr_type(std::string_view name, std::optional<ElementType> fallback = std::nullopt);

    // OpenVINO rejects the layer: records why. The op returns; the engine reports it.
    void invalid_attribute(std::string message) { problems_.push_back({OpProblem::Kind::attribute, std::move(message)}); }
    void invalid_input(std::string message) { problems_.push_back({OpProblem::Kind::input, std::move(message)}); }
    // An attribute OpenVINO accepts but that is likely not what was meant (a warning; inference goes on).
    void attribute_warning(std::string message) { warnings_.push_back(std::move(message)); }
    std::span<const std::string> warnings() const { return warnings_; }
    // A value the output depends on is unknown: the outputs are what OpenVINO infers without it (dynamic dims
    // or bounds), and the layer is not counted as checked.
    void value_unknown(std::string reason) {
        if (!unknown_reason_) unknown_reason_ = std::move(reason);
    }

    // With value_unknown: what holds of the outputs whatever the value is. The engine holds the declared
    // outputs to it, and a layer that has one counts as checked by invariants.
    void invariant(Invariant check) { invariants_.push_back(std::move(check)); }
    std::span<const Invariant> invariants() const { return invariants_; }

    // Whether the op should word its arithmetic (OpOutput::dim_notes): words cost more than the arithmetic, and
    // only a finding shows them, so the engine asks for them again when it has one.
    bool explain() const { return explain_; }
    void set_explain(bool explain) { explain_ = explain; }

    bool failed() const { return !problems_.empty(); }
    std::span<const OpProblem> problems() const { return problems_; }
    const std::optional<std::string>& unknown_reason() const { return unknown_reason_; }

    // Checks that the layer has `n` inputs (or n..m); records an input problem otherwise.
    bool expect_inputs(size_t n) { return expect_inputs(n, n); }
    bool expect_inputs(size_t min, size_t max);

private:
    const Layer& layer_;
    int version_;
    std::span<const OpInput> inputs_;
    ValueSource values_;
    RealSource reals_;
    std::vector<OpProblem> problems_;
    std::vector<std::string> warnings_;
    std::optional<std::string> unknown_reason_;
    std::vector<Invariant> invariants_;
    bool explain_ = false;
    const Model* model_ = nullptr;
    BodyReinferrer body_reinferrer_;
};

// One op's inference: reads ctx, fills `out` (one entry per output it infers).
using OpInferFn = void (*)(OpContext& ctx, std::vector<OpOutput>& out);

}  // namespace irlint
