#include "rules/onnx_pool.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

namespace {

struct VersionTable {
    std::string_view type;
    OnnxPoolKind kind;
    std::vector<int> versions;  // since_version of each version, ascending
};

const std::array<VersionTable, 4>& version_tables() {
    static const std::array<VersionTable, 4> tables{{
        {"AveragePool", OnnxPoolKind::average, {1, 7, 10, 11, 19, 22}},
        {"MaxPool", OnnxPoolKind::max, {1, 8, 10, 11, 12, 22}},
        {"GlobalAveragePool", OnnxPoolKind::global_average, {1, 22}},
        {"GlobalMaxPool", OnnxPoolKind::global_max, {1, 22}},
    }};
    return tables;
}

std::set<std::string> allowed_attrs(const OnnxPoolOp& op) {
    if (op.is_global()) return {};
    std::set<std::string> a{"auto_pad", "kernel_shape", "pads", "strides"};
    if (op.has_count_include_pad()) a.insert("count_include_pad");
    if (op.has_ceil_mode()) a.insert("ceil_mode");
    if (op.has_dilations()) a.insert("dilations");
    if (op.has_storage_order()) a.insert("storage_order");
    return a;
}

// The node's attributes as the ONNX adapter wrote them on its layer ("1,2" for a list).
class AttrReader {
public:
    AttrReader(const OnnxPoolOp& op, const Layer& layer, OnnxPoolSetup& out) : op_(op), layer_(layer), out_(out) {}

    std::optional<std::vector<int64_t>> ints(std::string_view key) {
        const std::string_view* a = layer_.attr(key);
        if (!a) return std::nullopt;
        std::vector<int64_t> out;
        if (!parse_int_list(*a, out)) {
            error(fmt::format("{} must be a list of integers (INTS)", key));
            return std::nullopt;
        }
        return out;
    }

    int64_t integer(std::string_view key, int64_t fallback) {
        const std::string_view* a = layer_.attr(key);
        if (!a) return fallback;
        std::vector<int64_t> out;
        if (!parse_int_list(*a, out) || out.size() != 1) {
            error(fmt::format("{} must be an integer (INT)", key));
            return fallback;
        }
        return out[0];
    }

    std::string text(std::string_view key, const std::string& fallback) {
        const std::string_view* a = layer_.attr(key);
        return a ? std::string(*a) : fallback;
    }

    void error(std::string message) { out_.errors.push_back(std::move(message)); }

    void reject_unknown() {
        const auto allowed = allowed_attrs(op_);
        for (const auto& [key, value] : layer_.attrs)
            if (!allowed.contains(std::string(key))) error(fmt::format("{} has no attribute '{}'", op_.name(), excerpt(key)));
        for (const ObjectAttr& a : layer_.object_attrs)
            if (a.kind != ObjectAttr::Kind::strings)  // said above: a STRINGS attribute has its text too
                error(fmt::format("{} has no attribute '{}'", op_.name(), excerpt(a.name)));
    }

private:
    // "1,-2,3" (the adapter's spelling of INTS); "" is an empty list.
    static bool parse_int_list(std::string_view text, std::vector<int64_t>& out) {
        if (text.empty()) return true;
        size_t start = 0;
        while (start <= text.size()) {
            const size_t end = std::min(text.find(',', start), text.size());
            const auto v = parse_int(text.substr(start, end - start));
            if (!v) return false;
            out.push_back(*v);
            start = end + 1;
        }
        return true;
    }

    const OnnxPoolOp& op_;
    const Layer& layer_;
    OnnxPoolSetup& out_;
};

bool any_below(const std::vector<int64_t>& v, int64_t floor) {
    return std::any_of(v.begin(), v.end(), [floor](int64_t x) { return x < floor; });
}

// One value per spatial axis, or the default when the attribute is absent.
std::vector<int64_t> per_axis(AttrReader& r, const std::string& key, size_t axes, int64_t fallback, int64_t least) {
    auto v = r.ints(key);
    if (!v) return std::vector<int64_t>(axes, fallback);
    if (v->size() != axes)
        r.error(fmt::format("{} has {} values, expected one per spatial axis ({})", key, v->size(), axes));
    else if (any_below(*v, least))
        r.error(fmt::format("{} [{}] has a value below {}", key, join_ints(*v), least));
    return *v;
}

std::optional<PadType> onnx_auto_pad(const std::string& text) {
    if (text == "NOTSET" || text.empty()) return PadType::explicit_pads;
    if (text == "SAME_UPPER") return PadType::same_upper;
    if (text == "SAME_LOWER") return PadType::same_lower;
    if (text == "VALID") return PadType::valid;
    return std::nullopt;
}

void map_windowed(const OnnxPoolOp& op, AttrReader& r, OnnxPoolSetup& s, const Shape& input) {
    const auto kernel = r.ints("kernel_shape");
    if (!kernel) return r.error("kernel_shape is required");
    const size_t axes = input.rank_dynamic ? kernel->size() : input.rank() >= 2 ? input.rank() - 2 : 0;
    if (kernel->size() != axes)
        return r.error(fmt::format("kernel_shape has {} values, but the input {} has {} spatial axes", kernel->size(),
                                   input.str(), axes));
    if (any_below(*kernel, 1)) r.error(fmt::format("kernel_shape [{}] has a value below 1", join_ints(*kernel)));
    s.desc.kernel = *kernel;
    s.desc.strides = per_axis(r, "strides", axes, 1, 1);
    s.desc.dilations = op.has_dilations() ? per_axis(r, "dilations", axes, 1, 1) : std::vector<int64_t>(axes, 1);
    const auto pads = per_axis(r, "pads", 2 * axes, 0, 0);
    if (pads.size() == 2 * axes) {
        s.desc.pads_begin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(axes));
        s.desc.pads_end.assign(pads.begin() + static_cast<std::ptrdiff_t>(axes), pads.end());
    }
    const std::string auto_pad = r.text("auto_pad", "NOTSET");
    const auto pad_type = onnx_auto_pad(auto_pad);
    if (!pad_type) r.error(fmt::format("auto_pad '{}' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID", auto_pad));
    s.desc.auto_pad = pad_type.value_or(PadType::explicit_pads);
    s.pads_with_auto_pad = s.desc.auto_pad != PadType::explicit_pads && r.ints("pads");
    if (s.pads_with_auto_pad) r.error(fmt::format("pads cannot be given with auto_pad={}", auto_pad));
    const bool ceil = r.integer("ceil_mode", 0) == 1;
    s.desc.rounding = !ceil ? RoundingType::floor
                      : op.drops_window_in_right_padding() ? RoundingType::ceil_torch
                                                           : RoundingType::ceil;
    s.count_include_pad = r.integer("count_include_pad", 0) != 0;
    s.desc.exclude_pad = !s.count_include_pad;
    const int64_t order = r.integer("storage_order", 0);
    if (order != 0 && order != 1) r.error(fmt::format("storage_order {} is neither 0 (row major) nor 1", order));
    s.column_major_indices = order == 1;
}

void map_global(OnnxPoolSetup& s, const Shape& input) {
    if (input.rank_dynamic || input.rank() < 3) return;
    const size_t axes = input.rank() - 2;
    for (size_t i = 2; i < input.rank(); ++i)
        s.desc.kernel.push_back(input.dims[i].is_static() ? std::max<int64_t>(input.dims[i].length(), 1) : 1);
    s.desc.strides.assign(axes, 1);
    s.desc.dilations.assign(axes, 1);
    s.desc.pads_begin.assign(axes, 0);
    s.desc.pads_end.assign(axes, 0);
}

}  // namespace

std::string_view OnnxPoolOp::type_name() const {
    for (const auto& t : version_tables())
        if (t.kind == kind) return t.type;
    return "";
}

std::string OnnxPoolOp::name() const { return fmt::format("{}-{}", type_name(), version); }

bool OnnxPoolOp::has_dilations() const {
    return (kind == OnnxPoolKind::average && version >= 19) || (kind == OnnxPoolKind::max && version >= 10);
}

std::optional<OnnxPoolOp> onnx_pool_op_for(const std::string& op_type, int64_t opset) {
    for (const auto& t : version_tables()) {
        if (t.type != op_type) continue;
        std::optional<OnnxPoolOp> found;
        for (int v : t.versions)
            if (v <= opset) found = OnnxPoolOp{t.kind, v};
        return found;
    }
    return std::nullopt;
}

size_t onnx_output_count(const OnnxPoolOp& op, const Layer& node) {
    const auto last = std::find_if(node.outputs.rbegin(), node.outputs.rend(), [](const Port& o) { return !o.names.empty(); });
    return std::min(static_cast<size_t>(node.outputs.rend() - last), op.max_outputs());
}

OnnxPoolSetup map_onnx_pool(const OnnxPoolOp& op, const Layer& node, const Shape& input) {
    OnnxPoolSetup s;
    s.kernel_op = op.is_max() ? PoolOp{PoolKind::max_pool, 14} : PoolOp{PoolKind::avg_pool, 16};
    s.desc.index_type = ElementType::i64;
    s.desc.axis = 0;  // ONNX flattens indices over the whole tensor
    AttrReader reader(op, node, s);
    reader.reject_unknown();
    if (op.is_global()) map_global(s, input);
    else map_windowed(op, reader, s, input);
    return s;
}

std::optional<int64_t> onnx_pooled_length(const OnnxPoolOp& op, int64_t in, const AxisWindow& w, bool ceil) {
    const auto kd = dilated_kernel(w.kernel, w.dilation);
    int64_t start_limit = 0, padded = 0;
    if (!kd || __builtin_add_overflow(in, w.pad_begin, &start_limit) ||
        __builtin_add_overflow(start_limit, w.pad_end, &padded))
        return std::nullopt;
    const int64_t gap = padded - *kd;  // negative when the dilated kernel is longer than the padded input
    int64_t positions = gap / w.stride;
    if (ceil && op.drops_window_in_right_padding()) {
        if (__builtin_add_overflow(gap, w.stride - 1, &positions)) return std::nullopt;
        positions /= w.stride;
    } else if (ceil && gap % w.stride > 0) {
        ++positions;
    }
    int64_t last_start = 0;
    if (__builtin_mul_overflow(positions, w.stride, &last_start)) return std::nullopt;
    if (ceil && op.drops_window_in_right_padding() && last_start >= start_limit) --positions;
    return positions + 1;
}

namespace {

std::string onnx_axis_formula(const OnnxPoolOp& op, const Dim& in, const AxisWindow& w, PadType auto_pad, bool ceil,
                              int64_t out) {
    std::string prefix;
    if (auto_pad == PadType::valid) prefix = "valid: ";
    else if (auto_pad != PadType::explicit_pads)
        prefix = fmt::format("{} pads {}/{}: ", pad_type_name(auto_pad), w.pad_begin, w.pad_end);
    const std::string kernel =
        w.dilation == 1 ? std::to_string(w.kernel) : fmt::format("(({}-1)*{}+1)", w.kernel, w.dilation);
    std::string text = fmt::format("{}{}(({}+{}+{}-{})/{})+1", prefix, ceil ? "ceil" : "floor", in.str(), w.pad_begin,
                                   w.pad_end, kernel, w.stride);
    if (ceil && op.drops_window_in_right_padding()) {
        const auto kept = onnx_pooled_length(OnnxPoolOp{op.kind, 19}, in.length(), w, true);
        if (kept && *kept != out)
            return fmt::format("{} = {}, minus the last window, which would start in the right padding = {}", text,
                               *kept, out);
    }
    return fmt::format("{} = {}", text, out);
}

PoolShape infer_windowed(const OnnxPoolOp& op, const OnnxPoolSetup& setup, const Shape& input) {
    const PoolingDesc& d = setup.desc;
    const size_t n = d.kernel.size();
    PoolShape out;
    out.pads_begin = d.pads_begin.empty() ? std::vector<int64_t>(n, 0) : d.pads_begin;
    out.pads_end = d.pads_end.empty() ? std::vector<int64_t>(n, 0) : d.pads_end;
    if (input.rank_dynamic) {
        out.output.dims.assign(n + 2, Dim::dynamic());
        return out;
    }
    if (input.rank() < 3) {
        out.error = fmt::format("the input must have a batch, a channel and a spatial dim; it is {}", input.str());
        return out;
    }
    const bool ceil = d.rounding != RoundingType::floor;
    const bool same = d.auto_pad == PadType::same_upper || d.auto_pad == PadType::same_lower;
    out.output.dims = {input.dims[0], input.dims[1]};
    for (size_t i = 0; i < n; ++i) {
        const Dim& in = input.dims[i + 2];
        AxisWindow w{out.pads_begin[i], out.pads_end[i], d.kernel[i], d.strides[i], d.dilations[i]};
        if (d.auto_pad == PadType::valid) w.pad_begin = w.pad_end = 0;
        if (same && in.is_static()) std::tie(w.pad_begin, w.pad_end) = same_padding(in.length(), w, d.auto_pad);
        out.pads_begin[i] = w.pad_begin;
        out.pads_end[i] = w.pad_end;
        if (!in.is_static()) {
            out.output.dims.push_back(Dim::dynamic());
            out.axis_formulas.push_back(fmt::format("dim {} is dynamic ({}) = ?", i + 2, in.str()));
            continue;
        }
        const auto length = onnx_pooled_length(op, in.length(), w, ceil);
        if (!length) {
            out.error = fmt::format("dim {}: integer overflow in the output length", i + 2);
            return out;
        }
        const std::string formula = onnx_axis_formula(op, in, w, d.auto_pad, ceil, *length);
        if (*length < 0) {
            out.error = fmt::format("dim {}: the output length is negative: {}", i + 2, formula);
            return out;
        }
        out.output.dims.emplace_back(*length);
        out.axis_formulas.push_back(formula);
    }
    return out;
}

}  // namespace

PoolShape infer_onnx_pool_shape(const OnnxPoolOp& op, const OnnxPoolSetup& setup, const Shape& input) {
    if (!op.is_global()) return infer_windowed(op, setup, input);
    PoolShape out;
    if (input.rank_dynamic) {
        out.output = Shape::dynamic_rank();
        return out;
    }
    if (input.rank() < 3) {
        out.error = fmt::format("the input must have a batch, a channel and a spatial dim; it is {}", input.str());
        return out;
    }
    out.output.dims = {input.dims[0], input.dims[1]};
    out.pads_begin.assign(input.rank() - 2, 0);
    out.pads_end.assign(input.rank() - 2, 0);
    for (size_t i = 2; i < input.rank(); ++i) {
        out.output.dims.emplace_back(1);
        out.axis_formulas.push_back(fmt::format("global pool over {} = 1", input.dims[i].str()));
    }
    return out;
}

}  // namespace irlint
