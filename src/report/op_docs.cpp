#include "report/op_docs.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/json_writer.hpp"
#include "core/text.hpp"

namespace irlint {

namespace {

// Entries sorted by type (without regard to case), then version: the order a reader looks an op up in.
std::vector<const OpEntry*> sorted(std::span<const OpEntry> entries) {
    std::vector<const OpEntry*> out;
    for (const OpEntry& e : entries) out.push_back(&e);
    std::stable_sort(out.begin(), out.end(), [](const OpEntry* a, const OpEntry* b) {
        const std::string la = to_lower(a->type), lb = to_lower(b->type);
        return la != lb ? la < lb : a->version < b->version;
    });
    return out;
}

std::string markdown_cell(std::string_view s) {
    std::string out;
    for (const char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

// "ai.onnx", "com.microsoft", "ai.onnx.ml", ...: how docs and tables name an ONNX entry's domain.
std::string_view domain_name(const OpEntry& e) { return e.domain.empty() ? std::string_view("ai.onnx") : e.domain; }

// The label of an entry's first opset: "opset8" (IR), "ai.onnx 13" (ONNX).
std::string since_label(const OpEntry& e) {
    if (e.format == OpFormat::ir) return fmt::format("opset{}", e.since_opset);
    return fmt::format("{} {}", domain_name(e), e.since_opset);
}

std::vector<const OpEntry*> of_format(std::span<const OpEntry> entries, OpFormat format, std::string_view domain) {
    std::vector<const OpEntry*> out;
    for (const OpEntry* e : sorted(entries))
        if (e->format == format && (format == OpFormat::ir || e->domain == domain)) out.push_back(e);
    return out;
}

std::string markdown_table(const std::vector<const OpEntry*>& entries) {
    std::set<std::string_view> types;
    for (const OpEntry* e : entries) types.insert(e->type);
    std::string out = fmt::format("{} op types, {} op versions.\n\n", types.size(), entries.size());
    out += "| Op | Version | Since | Infers | Checks |\n|---|---|---|---|---|\n";
    for (const OpEntry* e : entries)
        out += fmt::format("| {} | {} | {} | {} | {} |\n", e->type, e->version, since_label(*e),
                           markdown_cell(e->infers), markdown_cell(e->checks));
    return out;
}

}  // namespace

std::string ops_markdown() {
    std::string out =
        "# Ops irlint infers\n\n"
        "Written from the op registry (`irlint ops --format markdown`); a test keeps this file equal to it. One "
        "registry holds both formats' ops: OpenVINO's, which IR layers name, and ONNX's, which ONNX nodes name "
        "(by domain, op type and the model's opset import). One engine runs them.\n\n"
        "## OpenVINO IR\n\n"
        "For every layer of one of these ops, `irlint check` infers the output dims and element types from the "
        "layer's declared inputs and attributes, as OpenVINO's shape inference of that op version does, and "
        "compares them with the declared output ports (`output-shape-mismatch`, `output-type-mismatch`). What "
        "OpenVINO rejects is `attr-invalid` (an attribute) or `input-invalid` (the inputs). A layer's op version "
        "is the newest one whose opset is not newer than the layer's `version` (an `opset8` Gather is Gather-8).\n\n"
        "Where an output depends on the values of an input (Reshape's target shape, TopK's k, Range's bounds, "
        "...), the values come from Const data in the .bin and are carried along the edges through ShapeOf, "
        "Gather, Concat, Squeeze/Unsqueeze, StridedSlice/Slice, Convert and integer arithmetic. When a value is "
        "unknown, the output is what OpenVINO infers without it (dynamic dims or bounds), and what holds whatever "
        "the value is (an element count, a permutation, the dims kept) is compared: the layer counts as checked by "
        "invariants (`values-unknown` notes the layers where nothing can be). A layer of a type not listed here is an `unsupported-op` note.\n\n";
    out += markdown_table(of_format(op_registry(), OpFormat::ir, ""));
    out +=
        "\n## ONNX\n\n"
        "Every node of an ONNX model is checked against the schema of its op at the model's opset import for the "
        "node's domain: the version is the newest whose since-version is not newer than the import (a Conv in an "
        "opset-13 model is Conv-11). Its output dims and element types are inferred as ONNX's shape inference "
        "gives them, from the inputs' inferred dims (a value_info the producer wrote is compared, not trusted), "
        "and the values of small integer tensors (initializers, Constant, Shape and what is computed from them) "
        "flow along the edges as ONNX's data propagation carries them. Model-local functions are inferred from "
        "their bodies, If/Loop/Scan from theirs. The com.microsoft ops follow ONNX Runtime's contrib schemas; the "
        "ai.onnx.ml ops whose schema gives no dims get the ones ONNX Runtime's kernels give from the input dims "
        "and attributes alone. A node of an op or domain not listed here is an `unsupported-op` note; the rest of "
        "the graph is still checked.\n\n";
    for (const OnnxDomain& d : kOnnxDomains) {
        const auto entries = of_format(op_registry(), OpFormat::onnx, d.name == "ai.onnx" ? std::string_view() : d.name);
        if (entries.empty()) continue;
        out += fmt::format("### {}\n\n", d.name);
        out += markdown_table(entries);
        out += "\n";
    }
    while (out.ends_with("\n\n")) out.pop_back();
    return out;
}

std::string ops_table_text(std::span<const OpEntry> entries) {
    const auto rows = sorted(entries);
    size_t width = 2;
    for (const OpEntry* e : rows) width = std::max(width, e->type.size() + 1 + std::to_string(e->version).size());
    std::string out = fmt::format("{:<{}}  {:<19}  {}\n", "op", width, "since", "infers; checks");
    for (const OpEntry* e : rows)
        out += fmt::format("{:<{}}  {:<19}  {}; {}\n", fmt::format("{}-{}", e->type, e->version), width,
                           since_label(*e), e->infers, e->checks);
    return out;
}

std::string ops_json(std::span<const OpEntry> entries) {
    JsonWriter json;
    json.begin_object().key("ops").begin_array();
    for (const OpEntry* e : sorted(entries)) {
        json.begin_object()
            .field("type", e->type)
            .field("version", e->version)
            .field("since_opset", e->since_opset)
            .field("infers", e->infers)
            .field("checks", e->checks)
            .field("format", e->format == OpFormat::ir ? "ir" : "onnx");
        if (e->format == OpFormat::onnx) json.field("domain", domain_name(*e));
        json.end();
    }
    return json.end().end().take() + "\n";
}

}  // namespace irlint
