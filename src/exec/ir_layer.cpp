#include "exec/ir_layer.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.hpp"
#include "exec/io/npy.hpp"
#include "rules/pool_attrs.hpp"

namespace irlint {

bool is_runnable(const LayerShapes& layer) { return layer.pool_op.has_value() && layer.layer != nullptr; }

size_t layer_output_count(const LayerShapes& layer) {
    return std::clamp<size_t>(layer.layer->outputs.size(), 1, layer.pool_op->output_count());
}

namespace {

std::string shape_text(const std::vector<int64_t>& shape) { return fmt::format("[{}]", join_ints(shape)); }

// Why `x` cannot be the layer's input, or nullopt. A dynamic dim takes its length from the data.
std::optional<std::string> input_mismatch(const Tensor& x, const Shape& declared) {
    if (declared.rank_dynamic) return std::nullopt;
    if (x.rank() != declared.rank())
        return fmt::format("the input has rank {} {}, the layer's input port declares rank {} {}", x.rank(),
                           shape_text(x.shape()), declared.rank(), declared.str());
    for (size_t i = 0; i < x.rank(); ++i) {
        const Dim& d = declared.dims[i];
        const int64_t n = x.shape()[i];
        if (n < d.min() || n > d.max())
            return fmt::format("the input has shape {}, the layer's input port declares {}: dim {} is {}, not {}",
                               shape_text(x.shape()), declared.str(), i, n, d.str());
    }
    return std::nullopt;
}

// The tensor as the layer takes it: bf16 data comes as f32 (NumPy has no bf16) and is rounded here.
// `origin` completes "the layer ...": "declares f32", or where the type comes from.
std::optional<Tensor> as_element_type(Tensor t, ElementType want, const std::string& what, const std::string& origin,
                                      std::string* error) {
    if (want == t.type()) return t;
    if (want == ElementType::bf16 && t.type() == ElementType::f32) return convert_f32_to_bf16(t);
    *error = fmt::format("{} holds {} data, the layer {}{}", what, element_type_name(t.type()), origin,
                         want == ElementType::bf16 ? " (give bf16 data as f32: it is rounded to nearest even)" : "");
    return std::nullopt;
}

// The values of an output_size tensor that `path` names, or nullopt with *error.
std::optional<std::vector<int64_t>> output_size_values(const Tensor& t, const std::string& path, std::string* error) {
    if (t.rank() != 1 || (t.type() != ElementType::i32 && t.type() != ElementType::i64)) {
        *error = fmt::format("{}: output_size must be a 1D i32 or i64 array, not {} {}", path,
                             element_type_name(t.type()), shape_text(t.shape()));
        return std::nullopt;
    }
    std::vector<int64_t> values;
    for (size_t i = 0; i < t.size(); ++i) values.push_back(static_cast<int64_t>(t.value_as_double(i)));
    return values;
}

std::optional<std::vector<int64_t>> read_output_size(const std::string& path, std::string* error) {
    NpyRead r = read_npy(path, 1 << 20);
    if (!r.tensor) {
        *error = fmt::format("{}: {}", path, r.error);
        return std::nullopt;
    }
    return output_size_values(*r.tensor, path, error);
}

std::string first_error(const ParsedAttrs& attrs) {
    for (const auto& issue : attrs.issues)
        if (issue.severity == Severity::error) return issue.message;
    return "unusable attributes";
}

class IrLayer final : public RunnableLayer {
public:
    explicit IrLayer(const LayerShapes& layer)
        : ls_(layer), op_(*layer.pool_op), attrs_(parse_pool_attrs(op_, layer.layer->attrs)) {}

    const LayerShapes& shapes() const override { return ls_; }
    std::string op_name() const override { return fmt::format("{}-{}", op_.type_name(), op_.version); }
    size_t output_count() const override { return layer_output_count(ls_); }
    bool takes_output_size() const override { return op_.is_adaptive(); }
    std::optional<ElementType> input_type() const override {
        std::string origin;
        return declared_input_type(&origin);
    }

    std::optional<std::string> unusable() const override {
        if (attrs_.usable()) return std::nullopt;
        return fmt::format("the layer's attributes are invalid: {}", first_error(attrs_));
    }

    std::optional<Tensor> take_input(Tensor x, const std::string& path, std::string* error) const override {
        std::string origin;
        const std::optional<ElementType> declared = declared_input_type(&origin);
        std::optional<Tensor> taken =
            declared ? as_element_type(std::move(x), *declared, path, origin, error) : std::move(x);
        if (!taken) return std::nullopt;
        if (auto why = ls_.inputs.empty() ? std::nullopt : input_mismatch(*taken, ls_.inputs[0])) {
            *error = fmt::format("{}: {}", path, *why);
            return std::nullopt;
        }
        return taken;
    }

    std::optional<std::string> prepare(const Tensor&, const RunRequest& request) override {
        if (!op_.is_adaptive()) return std::nullopt;
        if (request.output_size_path) {
            std::string error;
            output_size_ = request.output_size
                               ? output_size_values(*request.output_size, *request.output_size_path, &error)
                               : read_output_size(*request.output_size_path, &error);
            return output_size_ ? std::nullopt : std::optional<std::string>(error);
        }
        if ((output_size_ = ls_.output_size)) return std::nullopt;
        return "the values of output_size are unknown (no readable Const in the .bin): give them as a second "
               "--input, a 1D i32 or i64 .npy";
    }

    PoolRunResult compute(const Tensor& x, const KernelOptions& options, const SinkChooser& choose) override {
        return op_.is_adaptive() ? run_adaptive_pool(op_, attrs_.desc, x, *output_size_, options, choose)
                                 : run_pool(op_, attrs_.desc, x, options, choose);
    }

    std::optional<LayerSetup> convention_setup(const Tensor& x) const override {
        if (op_.is_adaptive()) return std::nullopt;
        return LayerSetup{op_, attrs_.desc, &x};
    }

private:
    // The input port's precision; an IR v10 port has none, and then its producer's type holds.
    std::optional<ElementType> declared_input_type(std::string* origin) const {
        const Layer& l = *ls_.layer;
        std::optional<ElementType> type = l.inputs.empty() ? std::nullopt : l.inputs[0].precision;
        if (type) *origin = fmt::format("declares {}", element_type_name(*type));
        if (!type && !ls_.input_types.empty() && (type = ls_.input_types[0]))
            *origin = fmt::format("takes {}: its input port declares no precision, its producer gives {}",
                                  element_type_name(*type), element_type_name(*type));
        if (type == ElementType::dynamic) return std::nullopt;
        return type;
    }

    const LayerShapes& ls_;
    const PoolOp op_;
    const ParsedAttrs attrs_;
    std::optional<std::vector<int64_t>> output_size_;
};

}  // namespace

const LayerShapes* find_layer_to_run(const ModelReport& report, const std::string& wanted, std::string* error) {
    for (const auto& l : report.layers)
        if (l.layer->id == wanted && l.graph == 0) return &l;
    std::vector<const LayerShapes*> by_name;
    for (const auto& l : report.layers)
        if (l.layer->name == wanted || l.layer->id == wanted) by_name.push_back(&l);
    if (by_name.size() == 1) return by_name[0];
    if (by_name.empty()) {
        std::vector<std::string> pools;
        for (const auto& l : report.layers)
            if (is_runnable(l)) pools.push_back(fmt::format("{} '{}'", l.layer->id, l.layer->name));
        *error = fmt::format("no layer with id or name '{}'{}{}", wanted,
                             pools.empty() ? "" : "; pooling layers: ", fmt::join(pools, ", "));
    } else {
        std::vector<std::string_view> ids;
        for (const auto* l : by_name) ids.push_back(l->layer->id);
        *error =
            fmt::format("'{}' names {} layers (ids {}): give the id", wanted, by_name.size(), fmt::join(ids, ", "));
    }
    return nullptr;
}

std::optional<std::string> not_runnable(const LayerShapes& layer) {
    if (is_runnable(layer)) return std::nullopt;
    const Layer& l = *layer.layer;
    return fmt::format("layer {} '{}' is a {}: irlint runs AvgPool, MaxPool, AdaptiveAvgPool and AdaptiveMaxPool layers",
                       l.id, l.name, l.type);
}

std::unique_ptr<RunnableLayer> ir_layer(const LayerShapes& layer) { return std::make_unique<IrLayer>(layer); }

LayerRun run_layer(const LayerShapes& layer, const RunRequest& request) { return run_layer(*ir_layer(layer), request); }

}  // namespace irlint
