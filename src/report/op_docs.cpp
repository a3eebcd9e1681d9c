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

}  // namespace

std::string ops_markdown() {
    const auto entries = sorted(op_registry());
    std::set<std::string_view> types;
    for (const OpEntry* e : entries) types.insert(e->type);
    std::string out =
        "# Ops irlint infers\n\n"
        "Written from the op registry (`irlint ops --format markdown`); a test keeps this file equal to it.\n\n"
        "For every layer of one of these ops, `irlint check` infers the output dims and element types from the "
        "layer's declared inputs and attributes, as OpenVINO's shape inference of that op version does, and "
        "compares them with the declared output ports (`output-shape-mismatch`, `output-type-mismatch`). What "
        "OpenVINO rejects is `attr-invalid` (an attribute) or `input-invalid` (the inputs). A layer's op version "
        "is the newest one whose opset is not newer than the layer's `version` (an `opset8` Gather is Gather-8).\n\n"
        "Where an output depends on the values of an input (Reshape's target shape, TopK's k, Range's bounds, "
        "...), the values come from Const data in the .bin and are carried along the edges through ShapeOf, "
        "Gather, Concat, Squeeze/Unsqueeze, StridedSlice/Slice, Convert and integer arithmetic. When a value is "
        "unknown, the output is what OpenVINO infers without it (dynamic dims or bounds) and the layer is not "
        "counted as checked. A layer of a type not listed here is an `unsupported-op` note.\n\n";
    out += fmt::format("{} op types, {} op versions.\n\n", types.size(), entries.size());
    out += "| Op | Version | Since | Infers | Checks |\n|---|---|---|---|---|\n";
    for (const OpEntry* e : entries)
        out += fmt::format("| {} | {} | opset{} | {} | {} |\n", e->type, e->version, e->since_opset,
                           markdown_cell(e->infers), markdown_cell(e->checks));
    return out;
}

std::string ops_table_text(std::span<const OpEntry> entries) {
    const auto rows = sorted(entries);
    size_t width = 2;
    for (const OpEntry* e : rows) width = std::max(width, e->type.size() + 1 + std::to_string(e->version).size());
    std::string out = fmt::format("{:<{}}  {:<7}  {}\n", "op", width, "since", "infers; checks");
    for (const OpEntry* e : rows)
        out += fmt::format("{:<{}}  {:<7}  {}; {}\n", fmt::format("{}-{}", e->type, e->version), width,
                           fmt::format("opset{}", e->since_opset), e->infers, e->checks);
    return out;
}

std::string ops_json(std::span<const OpEntry> entries) {
    JsonWriter json;
    json.begin_object().key("ops").begin_array();
    for (const OpEntry* e : sorted(entries))
        json.begin_object()
            .field("type", e->type)
            .field("version", e->version)
            .field("since_opset", e->since_opset)
            .field("infers", e->infers)
            .field("checks", e->checks)
            .end();
    return json.end().end().take() + "\n";
}

}  // namespace irlint
