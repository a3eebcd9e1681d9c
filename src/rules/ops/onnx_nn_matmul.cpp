// ONNX's matrix products: MatMul and its integer and quantized forms (numpy's matmul, OpenVINO's MatMul
// without transposes: convolution_matmul.hpp), Gemm (2-D only, C broadcast one way into [M, N]) and Einsum
// (ONNX's reading of the equation, which differs from OpenVINO's: spaces are dropped, an ellipsis' dims
// broadcast only where one is 1, the implicit output keeps the labels seen once, in ASCII order).

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/ops/convolution_matmul.hpp"
#include "rules/ops/onnx_nn.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::onnx_nn {

namespace {

// ---- MatMul and its integer forms ----------------------------------------------------------------------

// A matmul of inputs a and b (their types are the caller's to check): OpenVINO's MatMul on just those two.
void matmul_of(OpContext& ctx, size_t a, size_t b, std::optional<ElementType> type, std::vector<OpOutput>& outs) {
    const std::vector<OpInput> inputs{{ctx.shape(a), std::nullopt, true}, {ctx.shape(b), std::nullopt, true}};
    OpContext pair(ctx.layer(), ctx.version(), inputs, {});
    std::vector<OpOutput> result;
    infer_matmul(pair, result);
    for (const OpProblem& p : pair.problems()) ctx.invalid_input(fmt::format("{}", p.message));
    if (pair.failed() || result.empty()) return;
    result.front().type = type;
    outs.push_back(std::move(result.front()));
}

// MatMul-1 takes f16, f32, f64; 9 adds the 32/64-bit integers; 13 bf16.
bool is_matmul_type(const OpContext& ctx, ElementType t) {
    if (t == ElementType::f16 || t == ElementType::f32 || t == ElementType::f64) return true;
    if (t == ElementType::bf16) return ctx.version() >= 13;
    return ctx.version() >= 9 &&
           (t == ElementType::i32 || t == ElementType::i64 || t == ElementType::u32 || t == ElementType::u64);
}

void infer_onnx_matmul(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    if (const auto t = ctx.type(0); t && *t != ElementType::dynamic && !is_matmul_type(ctx, *t))
        return ctx.invalid_input(fmt::format("A is {}, a type this version does not take", type_text(t)));
    if (!check_same_type(ctx, 0, 1)) return;
    matmul_of(ctx, 0, 1, ctx.type(0) ? ctx.type(0) : ctx.type(1), outs);
}

bool is_8bit(ElementType t) { return t == ElementType::i8 || t == ElementType::u8; }

// A, B, a_zero_point, b_zero_point: 8-bit integers in, i32 out.
void infer_matmul_integer(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2, 4)) return;
    if (!check_type(ctx, 0, "A", is_8bit, "i8 or u8") || !check_type(ctx, 1, "B", is_8bit, "i8 or u8") ||
        !check_same_type(ctx, 0, 2) || !check_same_type(ctx, 1, 3))
        return;
    matmul_of(ctx, 0, 1, ElementType::i32, outs);
}

// a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point: y takes y_zero_point's type.
void infer_qlinear_matmul(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(8)) return;
    const auto quantized = [](ElementType t) {
        return is_8bit(t) || t == ElementType::f8e4m3 || t == ElementType::f8e5m2 || t == ElementType::f8e4m3fnuz ||
               t == ElementType::f8e5m2fnuz;
    };
    if (!check_type(ctx, 0, "a", quantized, "an 8-bit type") || !check_type(ctx, 3, "b", quantized, "an 8-bit type") ||
        !check_same_type(ctx, 0, 2) || !check_same_type(ctx, 3, 5))
        return;
    matmul_of(ctx, 0, 3, ctx.type(7), outs);
}

// ---- Gemm ----------------------------------------------------------------------------------------------

bool is_gemm_type(const OpContext& ctx, ElementType t) {
    if (t == ElementType::f16 || t == ElementType::f32 || t == ElementType::f64) return true;
    if (t == ElementType::bf16) return ctx.version() >= 13;
    return ctx.version() >= 9 &&
           (t == ElementType::i32 || t == ElementType::i64 || t == ElementType::u32 || t == ElementType::u64);
}

// C broadcasts one way into [M, N]: each of its trailing dims is 1 or the output's.
bool check_gemm_c(OpContext& ctx, const Shape& c, const Shape& y) {
    if (c.rank_dynamic) return true;
    if (c.rank() > 2)
        return ctx.invalid_input(fmt::format("C {} has more dims than the output {}", c.str(), y.str())), false;
    for (size_t i = 0; i < c.rank(); ++i) {
        const Dim& dc = c.dims[i];
        const Dim& dy = y.dims[2 - c.rank() + i];
        if (dc.is_static() && dy.is_static() && dc.length() != 1 && dc.length() != dy.length()) {
            ctx.invalid_input(fmt::format("C {} does not broadcast into the output {}", c.str(), y.str()));
            return false;
        }
    }
    return true;
}

// A [M, K] (or [K, M] with transA), B [K, N] (or [N, K]) give [M, N].
void infer_gemm(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(ctx.version() >= 11 ? 2 : 3, 3)) return;
    for (size_t i = 0; i < 3; ++i)
        if (const auto t = ctx.has_input(i) ? ctx.type(i) : std::nullopt;
            t && *t != ElementType::dynamic && !is_gemm_type(ctx, *t))
            return ctx.invalid_input(fmt::format("input {} is {}, a type this version does not take", i, type_text(t)));
    if (!check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2)) return;
    const auto trans_a = attr_flag(ctx, "transA", false);
    const auto trans_b = attr_flag(ctx, "transB", false);
    if (!trans_a || !trans_b || !ctx.attr_float("alpha", 1.0) || !ctx.attr_float("beta", 1.0)) return;
    const Shape& a = ctx.shape(0);
    const Shape& b = ctx.shape(1);
    for (const auto& [s, name] : {std::pair<const Shape&, std::string_view>{a, "A"}, {b, "B"}})
        if (!s.rank_dynamic && s.rank() != 2) return ctx.invalid_input(fmt::format("{} {} must be 2-D", name, s.str()));
    const Dim m = a.rank_dynamic ? Dim::dynamic() : a.dims[*trans_a ? 1 : 0];
    const Dim ka = a.rank_dynamic ? Dim::dynamic() : a.dims[*trans_a ? 0 : 1];
    const Dim kb = b.rank_dynamic ? Dim::dynamic() : b.dims[*trans_b ? 1 : 0];
    const Dim n = b.rank_dynamic ? Dim::dynamic() : b.dims[*trans_b ? 0 : 1];
    if (!ka.compatible(kb))
        return ctx.invalid_input(fmt::format("the K dims differ: A {} has {}, B {} has {} (transA={}, transB={})",
                                             a.str(), ka.str(), b.str(), kb.str(), *trans_a ? 1 : 0, *trans_b ? 1 : 0));
    OpOutput out{Shape{false, {m, n}}, ctx.type(0) ? ctx.type(0) : ctx.type(1), {}, {}};
    if (ctx.has_input(2) && !check_gemm_c(ctx, ctx.shape(2), out.shape)) return;
    outs.push_back(std::move(out));
}

// ---- Einsum --------------------------------------------------------------------------------------------

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

struct EinsumLabels {
    std::map<char, Dim> dims;   // each label's dim where it is first seen
    std::set<char> repeated;    // labels seen more than once
    std::vector<Dim> ellipsis;  // the ellipsis' dims, broadcast where one is 1
    bool ellipsis_seen = false;
};

// One input's term against its shape; false (with the problem) when they do not fit.
bool bind_term(OpContext& ctx, std::string_view term, const Shape& shape, size_t input, EinsumLabels& labels) {
    const size_t letters = static_cast<size_t>(std::count_if(term.begin(), term.end(), is_letter));
    const size_t dots = term.find("...");
    const bool has_ellipsis = dots != std::string_view::npos;
    if (!has_ellipsis && shape.rank() != letters)
        return ctx.invalid_input(fmt::format("input {} {} has rank {}, its term \"{}\" {} labels", input, shape.str(),
                                             shape.rank(), excerpt(term), letters)),
               false;
    if (has_ellipsis && shape.rank() < letters)
        return ctx.invalid_input(fmt::format("input {} {} has fewer dims than the {} labels of \"{}\"", input,
                                             shape.str(), letters, excerpt(term))),
               false;
    const size_t ellipsis_rank = has_ellipsis ? shape.rank() - letters : 0;
    size_t dim = 0;
    for (size_t i = 0; i < term.size(); ++i) {
        if (has_ellipsis && i == dots) {
            std::vector<Dim> dims(shape.dims.begin() + static_cast<std::ptrdiff_t>(dim),
                                  shape.dims.begin() + static_cast<std::ptrdiff_t>(dim + ellipsis_rank));
            if (!labels.ellipsis_seen) {
                labels.ellipsis = std::move(dims);
                labels.ellipsis_seen = true;
            } else if (labels.ellipsis.size() != dims.size()) {
                return ctx.invalid_input(fmt::format("the ellipsis of input {} stands for {} dims, before for {}",
                                                     input, dims.size(), labels.ellipsis.size())),
                       false;
            } else {
                for (size_t k = 0; k < dims.size(); ++k)
                    if (labels.ellipsis[k] == Dim(1) && dims[k].is_static()) labels.ellipsis[k] = dims[k];
            }
            dim += ellipsis_rank;
            i += 2;
            continue;
        }
        if (!is_letter(term[i])) continue;
        const auto [it, inserted] = labels.dims.try_emplace(term[i], shape.dims[dim]);
        if (!inserted) {
            labels.repeated.insert(term[i]);
            if (it->second.is_static() && shape.dims[dim].is_static() && it->second != shape.dims[dim])
                return ctx.invalid_input(fmt::format("label {} is {} in input {} {}, {} before", term[i],
                                                     shape.dims[dim].str(), input, shape.str(), it->second.str())),
                       false;
        }
        ++dim;
    }
    return true;
}

void infer_einsum_onnx(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (ctx.input_count() == 0) return ctx.invalid_input(fmt::format("takes at least one input"));
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!check_numeric(ctx, i, "an input") || !check_same_type(ctx, 0, i)) return;
    const std::string_view* text = ctx.attr("equation");
    if (!text) return ctx.invalid_attribute(fmt::format("equation is missing"));
    std::string equation(*text);
    std::erase(equation, ' ');
    const size_t arrow = equation.find("->");
    std::vector<std::string_view> terms = split(std::string_view(equation).substr(0, arrow), ',');
    if (terms.size() != ctx.input_count())
        return ctx.invalid_input(fmt::format("equation \"{}\" has {} input terms for {} inputs", excerpt(*text),
                                             terms.size(), ctx.input_count()));
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (ctx.shape(i).rank_dynamic) {
            outs.push_back(std::move(out));
            return;
        }
    EinsumLabels labels;
    for (size_t i = 0; i < terms.size(); ++i)
        if (!bind_term(ctx, terms[i], ctx.shape(i), i, labels)) return;
    out.shape = Shape{};
    if (arrow == std::string::npos) {
        out.shape.dims = labels.ellipsis;
        for (const auto& [label, dim] : labels.dims)
            if (!labels.repeated.contains(label)) out.shape.dims.push_back(dim);
    } else {
        const std::string_view rhs = std::string_view(equation).substr(arrow + 2);
        const size_t dots = rhs.find("...");
        for (size_t i = 0; i < rhs.size(); ++i) {
            if (i == dots) {
                out.shape.dims.insert(out.shape.dims.end(), labels.ellipsis.begin(), labels.ellipsis.end());
                i += 2;
            } else if (is_letter(rhs[i])) {
                const auto it = labels.dims.find(rhs[i]);
                if (it == labels.dims.end())
                    return ctx.invalid_attribute(
                        fmt::format("output label {} of \"{}\" is in no input term", rhs[i], excerpt(*text)));
                out.shape.dims.push_back(it->second);
            }
        }
    }
    outs.push_back(std::move(out));
}

}  // namespace

std::vector<OpEntry> matmul_entries() {
    std::vector<OpEntry> out;
    for (int v : {1, 9, 13})
        out.push_back(onnx_op("MatMul", v, infer_onnx_matmul, "shape, type",
                              "no scalars; K dims equal; batch dims broadcast; input types"));
    out.push_back(onnx_op("MatMulInteger", 10, infer_matmul_integer, "shape, type (i32)", "as MatMul; 8-bit inputs"));
    for (int v : {10, 21})
        out.push_back(onnx_op("QLinearMatMul", v, infer_qlinear_matmul, "shape, type (y_zero_point's)",
                              "as MatMul; input and zero point types equal"));
    for (int v : {1, 6, 7, 9, 11, 13})
        out.push_back(onnx_op("Gemm", v, infer_gemm, "shape, type",
                              "A, B 2-D; K dims equal; C broadcasts into [M, N]; input types of the version"));
    out.push_back(onnx_op("Einsum", 12, infer_einsum_onnx, "shape, type",
                          "one term per input; term ranks; label dims equal; output labels in the inputs"));
    return out;
}

}  // namespace irlint::onnx_nn
