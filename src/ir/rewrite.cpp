#include "ir/rewrite.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "core/text.hpp"

namespace irlint {

namespace {

// Where a value of a parsed copy of `text` starts in `text`; nullopt for a value outside the copy (pugixml
// gives an empty value as a static string).
std::optional<size_t> offset_in(const std::string& copy, const char* value) {
    if (value < copy.data() || value >= copy.data() + copy.size()) return std::nullopt;
    return static_cast<size_t>(value - copy.data());
}

// Each <port> element of the copy, by the offset of its id attribute's value: the same offset as the
// Port's id view in the model read from the same bytes.
std::unordered_map<size_t, pugi::xml_node> ports_by_id_offset(const pugi::xml_document& doc, const std::string& copy) {
    std::unordered_map<size_t, pugi::xml_node> out;
    std::vector<pugi::xml_node> pending{doc.document_element()};
    while (!pending.empty()) {
        const pugi::xml_node node = pending.back();
        pending.pop_back();
        for (const pugi::xml_node child : node.children())
            if (child.type() == pugi::node_element) pending.push_back(child);
        if (std::strcmp(node.name(), "port") != 0) continue;
        if (const auto at = offset_in(copy, node.attribute("id").value())) out.emplace(*at, node);
    }
    return out;
}

bool is_integer_text(std::string_view s) {
    if (!s.empty() && s.front() == '-') s.remove_prefix(1);
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class EditPlanner {
public:
    EditPlanner(std::string_view text, const std::string& copy) : text_(text), copy_(copy) {}

    bool dims(const pugi::xml_node& port, const std::vector<int64_t>& dims) {
        std::vector<pugi::xml_node> dim_nodes;
        for (const pugi::xml_node d : port.children("dim")) dim_nodes.push_back(d);
        if (dim_nodes.size() != dims.size()) return other_rank(dim_nodes, dims);
        for (size_t i = 0; i < dims.size(); ++i)
            if (!dim(dim_nodes[i], dims[i])) return false;
        return true;
    }

    bool precision(const pugi::xml_node& port, ElementType type) {
        const auto at = offset_in(copy_, port.attribute("precision").value());
        if (!at || *at == 0) return fail("its precision attribute is empty");
        const char quote = text_[*at - 1];
        const size_t end = text_.find(quote, *at);
        if ((quote != '"' && quote != '\'') || end == std::string_view::npos) return fail("its precision is not quoted");
        const std::string_view written = text_.substr(*at, end - *at);
        if (!parse_element_type(written)) return fail(fmt::format("its precision '{}' is not plain", excerpt(written)));
        // The spelling the file uses: legacy upper case ("FP32") or OpenVINO's lowercase name ("f32").
        const bool upper = std::any_of(written.begin(), written.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
        edits_.push_back({*at, written.size(),
                          std::string(upper ? element_type_legacy_name(type) : element_type_name(type))});
        return true;
    }

    std::vector<TextEdit> take() { return std::move(edits_); }
    const std::string& error() const { return error_; }

private:
    // The port's <dim> elements replaced as a whole, separated as the file separates them (or as the first is
    // indented).
    bool other_rank(const std::vector<pugi::xml_node>& nodes, const std::vector<int64_t>& dims) {
        if (nodes.empty()) return fail("it has no <dim> element, the fix has " + std::to_string(dims.size()));
        const auto first = element_span(nodes.front());
        const auto last = element_span(nodes.back());
        if (!first || !last) return fail("a <dim> holds something other than a number");
        const std::string_view gap = nodes.size() > 1 ? between(*first, *element_span(nodes[1])) : indent(first->first);
        std::string replacement;
        for (size_t i = 0; i < dims.size(); ++i)
            replacement += fmt::format("{}<dim>{}</dim>", i ? gap : std::string_view{}, dims[i]);
        edits_.push_back({first->first, last->second - first->first, std::move(replacement)});
        return true;
    }

    // Where a plain <dim>N</dim> element starts and ends in the text.
    std::optional<std::pair<size_t, size_t>> element_span(const pugi::xml_node& node) const {
        const pugi::xml_node text = node.first_child();
        const auto at = text && text.type() == pugi::node_pcdata ? offset_in(copy_, text.value()) : std::nullopt;
        if (!at) return std::nullopt;
        const size_t open = text_.rfind('<', *at);
        const size_t close = text_.find("</dim>", *at);
        if (open == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
        return std::pair{open, close + std::strlen("</dim>")};
    }

    std::string_view between(std::pair<size_t, size_t> a, std::pair<size_t, size_t> b) const {
        return text_.substr(a.second, b.first - a.second);
    }

    // The line break and indentation before offset `at` (nothing when the element does not start a line).
    std::string_view indent(size_t at) const {
        const size_t line = text_.find_last_not_of(" \t", at - 1);
        if (line == std::string_view::npos || text_[line] != '\n') return {};
        const size_t start = line > 0 && text_[line - 1] == '\r' ? line - 1 : line;
        return text_.substr(start, at - start);
    }

    bool dim(const pugi::xml_node& node, int64_t value) {
        const pugi::xml_node text = node.first_child();
        const auto at = text && text.type() == pugi::node_pcdata && !text.next_sibling()
                            ? offset_in(copy_, text.value())
                            : std::nullopt;
        if (!at) return fail("a <dim> holds something other than a number");
        const size_t end = std::min(text_.find('<', *at), text_.size());
        const std::string_view raw = text_.substr(*at, end - *at);
        const std::string_view number = trim(raw);
        if (!is_integer_text(number)) return fail(fmt::format("a <dim> holds '{}'", excerpt(number)));
        edits_.push_back({*at + static_cast<size_t>(number.data() - raw.data()), number.size(), std::to_string(value)});
        return true;
    }

    bool fail(std::string why) {
        error_ = std::move(why);
        return false;
    }

    std::string_view text_;
    const std::string& copy_;
    std::vector<TextEdit> edits_;
    std::string error_;
};

}  // namespace

std::optional<std::vector<TextEdit>> plan_text_edits(const Model& model, std::string_view text,
                                                     const std::vector<PortRewrite>& ports, std::string& error) {
    // A second parse of the same bytes (the model's own text is the first, changed in place): its nodes
    // lead to each <dim> and precision value, and its offsets are those of `text`.
    std::string copy(text);
    pugi::xml_document doc;
    if (model.text.empty() || !doc.load_buffer_inplace(copy.data(), copy.size() + 1, pugi::parse_default | pugi::parse_fragment)) {
        error = "the file cannot be parsed again";
        return std::nullopt;
    }
    const auto by_offset = ports_by_id_offset(doc, copy);
    EditPlanner planner(text, copy);
    // The model's views point into its text when the file was parsed in place (UTF-8); a file pugixml had to
    // convert (UTF-16) is not rewritten, as its offsets are not those of the bytes on disk.
    const auto begin = reinterpret_cast<uintptr_t>(model.text.data());
    const uintptr_t end = begin + model.text.size();
    for (const PortRewrite& p : ports) {
        const auto id = reinterpret_cast<uintptr_t>(p.port->id.data());
        const auto found = !model.parsed_document && id >= begin && id < end ? by_offset.find(id - begin)
                                                                               : by_offset.end();
        const bool ok = found != by_offset.end() && (!p.dims || planner.dims(found->second, *p.dims)) &&
                        (!p.precision || planner.precision(found->second, *p.precision));
        if (!ok) {
            error = fmt::format("port {} at line {}: {}", p.port->id, p.port->line,
                                found == by_offset.end() ? "not found in the file's text" : planner.error());
            return std::nullopt;
        }
    }
    return planner.take();
}

std::optional<TextEdit> plan_attribute_edit(const Model& model, std::string_view text, std::string_view value,
                                            std::string replacement, std::string& error) {
    // The model's text was parsed in place: each value starts where it does in the file's bytes.
    const auto begin = reinterpret_cast<uintptr_t>(model.text.data());
    const auto at = reinterpret_cast<uintptr_t>(value.data());
    if (model.parsed_document || at <= begin || at - begin >= text.size()) {
        error = "the attribute is not found in the file's text";
        return std::nullopt;
    }
    const size_t offset = at - begin;
    const char quote = text[offset - 1];
    const size_t end = text.find(quote, offset);
    if ((quote != '"' && quote != '\'') || end == std::string_view::npos || text.substr(offset, end - offset) != value) {
        error = "the attribute is not written as a plain quoted value";
        return std::nullopt;
    }
    return TextEdit{offset, value.size(), std::move(replacement)};
}

std::string apply_text_edits(std::string_view text, std::vector<TextEdit> edits) {
    std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.offset < b.offset; });
    std::string out;
    out.reserve(text.size() + 64 * edits.size());
    size_t at = 0;
    for (const TextEdit& e : edits) {
        if (e.offset < at || e.offset > text.size()) continue;  // overlapping: the plan never makes one
        out.append(text.substr(at, e.offset - at));
        out.append(e.replacement);
        at = e.offset + e.length;
    }
    out.append(text.substr(std::min(at, text.size())));
    return out;
}

}  // namespace irlint
