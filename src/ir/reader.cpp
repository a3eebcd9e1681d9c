#include "ir/reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>

#include <fmt/format.h>
#include <pugixml.hpp>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/deadline.hpp"
#include "core/dim.hpp"
#include "core/page_arena.hpp"
#include "core/text.hpp"
#include "ir/bin_file.hpp"
#include "ir/producer.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

// Maps byte offsets of the XML text to 1-based line numbers, taken before parsing (pugixml parses in place
// and overwrites some bytes). A bit per byte marks the newlines, 64 to a word, with the count before each
// word: a line number is then a lookup and a popcount, in whatever order the reader asks. A list of every
// newline's offset cost a library call per line to build and twice the memory.
class LineIndex {
public:
    explicit LineIndex(std::string_view text) {
        const size_t words = text.size() / 64 + 1;
        bits_.resize(words);
        before_.resize(words);
        uint64_t count = 0;
        for (size_t w = 0; w < words; ++w) {
            before_[w] = count;
            bits_[w] = newline_bits(text, w * 64, count);
        }
    }

    int line_of(ptrdiff_t offset) const {
        if (offset < 0) return 0;
        const size_t w = std::min(static_cast<size_t>(offset) / 64, bits_.size() - 1);
        const size_t bit = std::min<size_t>(static_cast<size_t>(offset) - w * 64, 64);
        const uint64_t below = bit == 64 ? bits_[w] : bits_[w] & ((uint64_t{1} << bit) - 1);
        return static_cast<int>(before_[w] + bit_count(below) + 1);
    }

private:
    // Bit i set when text[at + i] is a newline, for the 64 bytes from `at` (fewer at the end).
    // Adds their number to `count`.
    static uint64_t newline_bits(std::string_view text, size_t at, uint64_t& count) {
        if (text.size() - at >= 64) return newline_bits(text.data() + at, count);
        unsigned char block[64] = {};
        std::memcpy(block, text.data() + at, text.size() - at);
        return newline_bits(reinterpret_cast<const char*>(block), count);
    }

    static uint64_t newline_bits(const char* block, uint64_t& count) {
        uint64_t bits = 0;
#ifdef __SSE2__
        // Four compares of 16 bytes: several times the speed of the portable words below on a 10 MB file.
        const __m128i newline = _mm_set1_epi8('\n');
        for (int k = 0; k < 4; ++k) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * k));
            const auto mask = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)));
            bits |= uint64_t{mask} << (16 * k);
        }
#else
        static_assert(std::endian::native == std::endian::little, "byte j of a word is its bits 8j..8j+7");
        for (int k = 0; k < 8; ++k) {
            uint64_t v = 0;
            std::memcpy(&v, block + 8 * k, 8);
            v ^= 0x0a0a0a0a0a0a0a0aull;  // a newline byte becomes zero
            constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
            const uint64_t zero = ~(((v & kLow7) + kLow7) | v | kLow7);  // 0x80 in each zero byte, exactly
            // Gathers the eight flags into one byte: byte j's flag lands on bit 56 + j.
            bits |= (((zero >> 7) * 0x0102040810204080ull) >> 56) << (8 * k);
        }
#endif
        count += bit_count(bits);
        return bits;
    }

    // std::popcount without the popcnt instruction (not in the x86-64 baseline) is a call into libgcc.
    static uint64_t bit_count(uint64_t v) {
        v -= (v >> 1) & 0x5555555555555555ull;
        v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
        v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
        return (v * 0x0101010101010101ull) >> 56;
    }

    std::vector<uint64_t> bits_;
    std::vector<uint64_t> before_;  // newlines before each word
};

// pugixml takes its memory through these hooks, installed for the whole process before main: from the
// PageArena of the document being parsed on this thread when there is one (a large file), else from malloc.
// A header before each block says which, so that each block is given back its own way.
thread_local PageArena* t_document_arena = nullptr;

struct alignas(std::max_align_t) BlockHeader {
    bool in_arena;
};

void* document_allocate(size_t size) {
    void* block = nullptr;
    try {
        block = t_document_arena ? t_document_arena->allocate(size + sizeof(BlockHeader), alignof(BlockHeader))
                                 : std::malloc(size + sizeof(BlockHeader));
    } catch (const std::bad_alloc&) {
        return nullptr;  // pugixml reports status_out_of_memory
    }
    if (!block) return nullptr;
    static_cast<BlockHeader*>(block)->in_arena = t_document_arena != nullptr;
    return static_cast<char*>(block) + sizeof(BlockHeader);
}

void document_deallocate(void* p) {
    if (!p) return;
    auto* header = reinterpret_cast<BlockHeader*>(static_cast<char*>(p) - sizeof(BlockHeader));
    if (!header->in_arena) std::free(header);  // arena blocks go with their arena
}

[[maybe_unused]] const bool document_allocator_installed = [] {
    pugi::set_memory_management_functions(document_allocate, document_deallocate);
    return true;
}();

// A document and the arena its tree lives in (declared first: freed after the document).
struct ParsedDocument {
    std::unique_ptr<PageArena> arena;
    pugi::xml_document doc;
};

// Files from this size on get mapped arenas of their own (a large IR's tree is about four times its text).
// Smaller ones, a batch's usual file, use malloc, which hands one file's memory to the next without new
// page faults: with mapped arenas from 1 MB on, a batch of published-size models faulted five times as often.
constexpr size_t kArenaFileSize = size_t{4} << 20;

bool element_after(pugi::xml_node node) {
    for (node = node.next_sibling(); node; node = node.next_sibling())
        if (node.type() == pugi::node_element) return true;
    return false;
}

// ": 'text'" for a short line of readable text; "" for binary garbage, which a message cannot show.
std::string quoted_if_readable(std::string_view text) {
    const std::string_view line = text.substr(0, text.find('\n'));
    const bool readable =
        first_invalid_utf8(line) == std::string_view::npos &&
        std::none_of(line.begin(), line.end(), [](char c) { return c >= 0 && c < 0x20 && c != '\t'; });
    return readable ? fmt::format(": '{}'", excerpt(trim(line))) : "";
}

class Reader {
public:
    // The line index is taken before parsing: pugixml parses in place, ending names and values with NULs.
    // `text` (a NUL after its last byte) lives in `arena`, which becomes the model's.
    Reader(std::unique_ptr<PageArena> arena, std::span<char> text, ReadResult& result)
        : arena_(std::move(arena)), text_(text), lines_(std::string_view(text.data(), text.size())), result_(result) {}

    void run(const std::string& xml_path) {
        // As a fragment, pugixml keeps what lies beside the root element, so that it can be judged below.
        // The string's own terminating NUL is handed over too: pugixml then needs no byte of the text to end it.
        // Each <dim> keeps its text in itself rather than in a child node: 10 MB less on a 20,000-layer file.
        if (text_.size() >= kArenaFileSize) parsed_->arena = std::make_unique<PageArena>(4 * text_.size());
        t_document_arena = parsed_->arena.get();
        const auto parsed =
            doc_->load_buffer_inplace(text_.data(), text_.size() + 1,
                                     pugi::parse_default | pugi::parse_fragment | pugi::parse_embed_pcdata);
        t_document_arena = nullptr;  // the tree is built: nothing else of it is allocated
        // Running out of memory says nothing about the file.
        if (parsed.status == pugi::status_out_of_memory) throw std::bad_alloc();
        if (!parsed) {
            error(rule::xml_malformed, lines_.line_of(parsed.offset),
                  fmt::format("malformed XML: {} (at byte offset {})", parsed.description(), parsed.offset));
            result_.status = ReadStatus::failed;
            return;
        }
        if (!has_one_root()) {
            result_.status = ReadStatus::failed;
            return;
        }
        const pugi::xml_node net = doc_->document_element();
        if (!net || !iequals(net.name(), "net")) {
            error(rule::ir_structure, line(net),
                  fmt::format("not an OpenVINO IR: the root element is <{}>, expected <net>", net ? net.name() : ""));
            result_.status = ReadStatus::not_ir;
            return;
        }
        if (!read_version(net)) return;

        Model model;
        model.arena = std::move(arena_);
        model.text = std::string_view(text_.data(), text_.size());
        model.xml_path = xml_path;
        model.name = net.attribute("name").value();
        locate_bin(model);
        read_graphs(net, model);
        read_producer(net, model.producer);
        // A file in another encoding than UTF-8 (UTF-16) is converted by pugixml into a buffer of its own,
        // which the model's views then point into: the model keeps the document.
        if (!within_text(net.name())) model.parsed_document = parsed_;
        result_.model = std::move(model);
        result_.status = ReadStatus::ok;
    }

private:
    int line(const pugi::xml_node& node) { return node ? lines_.line_of(node.offset_debug()) : 0; }

    bool within_text(const char* s) const { return s >= text_.data() && s < text_.data() + text_.size() + 1; }

    // A well-formed document has exactly one root element and no text beside it (XML 1.0, production 1).
    // OpenVINO would read the first <net> and ignore the rest.
    bool has_one_root() {
        pugi::xml_node root;
        for (const pugi::xml_node n : doc_->children()) {
            if (n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata) {
                const std::string_view text = n.value();
                const size_t blank = std::min(text.find_first_not_of(" \t\r\n"), text.size());
                error(rule::xml_malformed, lines_.line_of(n.offset_debug() + static_cast<ptrdiff_t>(blank)),
                      fmt::format("malformed XML: {}{}",
                                  root               ? "text after the root element"
                                  : element_after(n) ? "text before the root element"
                                                     : "text where the root element should be",
                                  quoted_if_readable(trim(text))));
                return false;
            }
            if (n.type() != pugi::node_element) continue;
            if (root) {
                error(rule::xml_malformed, line(n),
                      fmt::format("malformed XML: a second root element <{}> after <{}> of line {}; a document has "
                                  "exactly one root element (OpenVINO would read only the first)",
                                  excerpt(n.name()), excerpt(root.name()), line(root)));
                return false;
            }
            root = n;
        }
        if (!root) error(rule::xml_malformed, 1, "malformed XML: the document has no root element");
        return static_cast<bool>(root);
    }

    void add(Severity severity, const Rule& rule, int at, std::string message, const Layer* layer = nullptr) {
        Diagnostic d;
        d.severity = severity;
        d.rule = std::string(rule.id);
        d.line = at;
        d.message = std::move(message);
        if (layer) d.layer = layer_ref(*layer);
        result_.diagnostics.push_back(std::move(d));
    }
    void error(const Rule& rule, int at, std::string message, const Layer* layer = nullptr) {
        add(Severity::error, rule, at, std::move(message), layer);
    }

    bool read_version(const pugi::xml_node& net) {
        const pugi::xml_attribute attr = net.attribute("version");
        if (!attr) {
            error(rule::ir_structure, line(net),
                  "not an OpenVINO IR: <net> has no version attribute (OpenVINO reads IR versions 10 and 11)");
            result_.status = ReadStatus::unsupported;
            return false;
        }
        const auto version = parse_int(trim(attr.value()));
        if (!version || *version < 10 || *version > 11) {
            const bool legacy = version && *version >= 1 && *version < 10;
            error(rule::ir_structure, line(net),
                  fmt::format("unsupported IR version '{}': OpenVINO reads IR versions 10 and 11{}",
                              excerpt(attr.value()),
                              legacy ? " (this is a legacy Model Optimizer IR; convert the original model again)" : ""));
            result_.status = ReadStatus::unsupported;
            return false;
        }
        ir_version_ = *version;
        return true;
    }

    void locate_bin(Model& model) {
        model.ir_version = ir_version_;
        std::filesystem::path bin = model.xml_path;
        bin.replace_extension(".bin");
        model.bin_path = bin.string();
        model.bin_file = std::make_shared<BinFile>(model.bin_path);
        std::error_code ec;
        if (std::filesystem::is_regular_file(bin, ec)) {
            model.bin_present = true;
            model.bin_size = std::filesystem::file_size(bin, ec);
            if (ec) model.bin_present = false;
        }
    }

    // OpenVINO reads the net-level <rt_info> when there is one; a file whose <rt_info> names nobody may
    // still say in <meta_data> which tool wrote it.
    void read_producer(const pugi::xml_node& net, Producer& producer) {
        for (const char* name : {"rt_info", "meta_data"}) {
            const pugi::xml_node section = net.child(name);
            if (!section) continue;
            read_producer_entries(section, producer);
            if (!producer.known()) continue;
            producer.line = line(section);
            producer.section = name;
            return;
        }
    }

    // Graphs nest (TensorIterator/Loop/If bodies); a work list keeps the depth out of the call stack.
    void read_graphs(const pugi::xml_node& net, Model& model) {
        struct Pending {
            pugi::xml_node node;
            std::string owner;
        };
        std::deque<Pending> pending{{net, ""}};  // first in, first out: graph indices follow push order
        while (!pending.empty()) {
            Pending job = std::move(pending.front());
            pending.pop_front();
            std::vector<LayerBody> bodies;
            Graph graph = read_graph(job.node, job.owner.empty(), bodies, model);
            graph.owner = std::move(job.owner);
            // The graph being read is graphs[model.graphs.size()]; the bodies it names follow the pending ones.
            for (size_t b = 0; b < bodies.size();) {
                const size_t layer = bodies[b].layer;
                body_indices_.clear();
                for (; b < bodies.size() && bodies[b].layer == layer; ++b) {
                    body_indices_.push_back(model.graphs.size() + 1 + pending.size());
                    pending.push_back({bodies[b].node, fmt::format("{} of layer {}", bodies[b].node.name(),
                                                                   graph.layers[layer].id)});
                }
                graph.layers[layer].bodies = model.store(std::span<const size_t>(body_indices_));
            }
            model.graphs.push_back(std::move(graph));
        }
    }

    // A nested graph (<body>, <then_body>, <else_body>) of the layer at index `layer`.
    struct LayerBody {
        size_t layer;
        pugi::xml_node node;
    };

    Graph read_graph(const pugi::xml_node& node, bool is_main, std::vector<LayerBody>& bodies, Model& model) {
        Graph graph;
        std::vector<pugi::xml_node> nodes;
        const pugi::xml_node layers = node.child("layers");
        if (!layers) {
            error(rule::ir_structure, line(node),
                  is_main ? "<net> has no <layers> element" : fmt::format("<{}> has no <layers> element", node.name()));
        }
        for (pugi::xml_node l = layers.first_child(); l; l = l.next_sibling())
            if (named(l, "layer")) nodes.push_back(l);
        graph.layers.reserve(nodes.size());
        for (size_t i = 0; i < nodes.size(); ++i) {
            check_deadline();
            graph.layers.push_back(read_layer(nodes[i], i, bodies, model));
        }
        const pugi::xml_node edges = node.child("edges");
        size_t edge_count = 0;
        for (pugi::xml_node e = edges.first_child(); e; e = e.next_sibling()) edge_count += named(e, "edge");
        graph.edges.reserve(edge_count);
        for (pugi::xml_node e = edges.first_child(); e; e = e.next_sibling()) {
            if (!named(e, "edge")) continue;
            check_deadline();
            graph.edges.push_back(read_edge(e));
        }
        return graph;
    }

    // An inline comparison of a name with a short literal: a large IR has a million names to compare, most
    // a few bytes long, and a call to strcmp for each was the reader's largest single cost.
    static bool same(const char* a, const char* b) {
        for (; *a == *b; ++a, ++b)
            if (*a == '\0') return true;
        return false;
    }

    // The first attribute with each wanted name, as attribute(name) would find it, in one pass: a file holds
    // tens of thousands of layers and ports, and a lookup by name is a string comparison per attribute.
    // (Loops here follow first/next links: pugixml's ranges cost a call per iterator operation.)
    template <size_t N>
    static std::array<pugi::xml_attribute, N> attributes_named(const pugi::xml_node& node,
                                                             const std::array<const char*, N>& names) {
        std::array<pugi::xml_attribute, N> found{};
        for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
            const char* name = a.name();
            for (size_t k = 0; k < N; ++k)
                if (!found[k] && same(name, names[k])) {
                    found[k] = a;
                    break;
                }
        }
        return found;
    }

    // The same for child elements.
    template <size_t N>
    static std::array<pugi::xml_node, N> children_named(const pugi::xml_node& node,
                                                       const std::array<const char*, N>& names) {
        std::array<pugi::xml_node, N> found{};
        for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const char* name = c.name();
            for (size_t k = 0; k < N; ++k)
                if (!found[k] && same(name, names[k])) {
                    found[k] = c;
                    break;
                }
        }
        return found;
    }

    Layer read_layer(const pugi::xml_node& node, size_t index, std::vector<LayerBody>& bodies, Model& model) {
        Layer layer;
        layer.line = line(node);
        const auto [id, name, type, version] = attributes_named<4>(node, {"id", "name", "type", "version"});
        layer.id = id.value();
        layer.id_number = canonical_id_number(layer.id);
        layer.name = name.value();
        layer.type = type.value();
        layer.version = version.value();
        layer.kind = layer_kind(layer.type);
        layer.opset = opset_number(layer.version);
        if (!id || (layer.id_number < 0 && (!parse_int(trim(layer.id)) || *parse_int(trim(layer.id)) < 0)))
            error(rule::ir_structure, layer.line,
                  id ? fmt::format("layer id '{}' is not a non-negative integer", excerpt(layer.id))
                     : "layer has no id attribute",
                  &layer);
        if (!type) error(rule::ir_structure, layer.line, "layer has no type attribute", &layer);
        if (!name) error(rule::ir_structure, layer.line, "layer has no name attribute", &layer);
        if (!version) error(rule::ir_structure, layer.line, "layer has no version attribute (OpenVINO requires it)", &layer);
        const auto [data, input, output, body, then_body, else_body, port_map, then_port_map, else_port_map,
                    back_edges] = children_named<10>(node, {"data", "input", "output", "body", "then_body", "else_body",
                                                            "port_map", "then_port_map", "else_port_map", "back_edges"});
        for (const pugi::xml_node& b : {body, then_body, else_body})
            if (b) bodies.push_back({index, b});
        if (port_map || then_port_map || else_port_map) {
            port_map_.clear();
            read_port_map(port_map, 0);
            read_port_map(then_port_map, 0);
            read_port_map(else_port_map, 1);
            layer.port_map = model.store(std::span<const PortMapEntry>(port_map_));
        }
        if (back_edges) layer.back_edges = read_back_edges(back_edges, model);
        if (data) {
            layer.has_data = true;
            layer.data_line = line(data);
            attrs_.clear();
            for (pugi::xml_attribute a = data.first_attribute(); a; a = a.next_attribute())
                attrs_.emplace_back(a.name(), a.value());
            layer.attrs = model.store(std::span<const Attr>(attrs_));
        }
        layer.inputs = read_ports(input, layer, model);
        layer.outputs = read_ports(output, layer, model);
        for (const Port& p : layer.outputs)
            if (p.precision_text.empty())
                error(rule::ir_structure, p.line,
                      fmt::format("output port {} has no precision attribute (OpenVINO requires it on outputs)", p.id),
                      &layer);
        return layer;
    }

    // The <input> and <output> entries of a port map, into port_map_. A malformed number leaves the entry
    // marked (PortMapEntry::malformed) for the op to report; nothing is sized by a number read.
    void read_port_map(const pugi::xml_node& map, uint8_t body) {
        for (pugi::xml_node e = map.first_child(); e; e = e.next_sibling()) {
            const bool is_input = named(e, "input");
            if (!is_input && !named(e, "output")) continue;
            PortMapEntry& entry = port_map_.emplace_back();
            entry.line = line(e);
            entry.body = body;
            entry.output = !is_input;
            const auto [external, internal, axis, start, end, stride, part_size, purpose] = attributes_named<8>(
                e, {"external_port_id", "internal_layer_id", "axis", "start", "end", "stride", "part_size", "purpose"});
            read_int(external, "external_port_id", true, entry.external_port_id, entry.malformed);
            read_int(internal, "internal_layer_id", true, entry.internal_layer_id, entry.malformed);
            entry.has_axis = static_cast<bool>(axis);
            read_int(axis, "axis", false, entry.axis, entry.malformed);
            read_int(start, "start", false, entry.start, entry.malformed);
            read_int(end, "end", false, entry.end, entry.malformed);
            read_int(stride, "stride", false, entry.stride, entry.malformed);
            read_int(part_size, "part_size", false, entry.part_size, entry.malformed);
            entry.purpose = purpose.value();
        }
    }

    std::span<const BackEdge> read_back_edges(const pugi::xml_node& edges, Model& model) {
        back_edges_.clear();
        for (pugi::xml_node e = edges.first_child(); e; e = e.next_sibling()) {
            if (!named(e, "edge")) continue;
            BackEdge& edge = back_edges_.emplace_back();
            edge.line = line(e);
            const auto [from_layer, from_port, to_layer, to_port] =
                attributes_named<4>(e, {"from-layer", "from-port", "to-layer", "to-port"});
            read_int(from_layer, "from-layer", true, edge.from_layer, edge.malformed);
            read_int(from_port, "from-port", false, edge.from_port, edge.malformed);  // OpenVINO reads the layers only
            read_int(to_layer, "to-layer", true, edge.to_layer, edge.malformed);
            read_int(to_port, "to-port", false, edge.to_port, edge.malformed);
        }
        return model.store(std::span<const BackEdge>(back_edges_));
    }

    // An integer attribute of a port map entry or back edge into `value` (left at its default when absent and
    // not required); the first problem's attribute name goes to `malformed`.
    static void read_int(const pugi::xml_attribute& a, const char* name, bool required, int64_t& value,
                         std::string_view& malformed) {
        if (!a) {
            if (required && malformed.empty()) malformed = name;
            return;
        }
        const auto parsed = parse_int(trim(a.value()));
        if (parsed) value = *parsed;
        else if (malformed.empty()) malformed = name;
    }

    // A <dim>'s value. Nearly every one is plain digits, read here without a call; anything else (blanks,
    // a sign, -1, garbage) goes through trim and parse_int, which have the final word.
    static std::optional<int64_t> dim_value(std::string_view text) {
        if (!text.empty() && text.size() <= 18) {
            int64_t v = 0;
            size_t i = 0;
            for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) v = v * 10 + (text[i] - '0');
            if (i == text.size()) return v;
        }
        return parse_int(trim(text));
    }

    // Ports of a file nearly always repeat one or two precisions: the last one read is checked first.
    std::optional<ElementType> element_type_of(std::string_view text) {
        if (text != last_precision_text_) {
            last_precision_text_ = text;
            last_precision_ = parse_element_type(text);
        }
        return last_precision_;
    }

    static bool named(const pugi::xml_node& node, const char* name) {
        return node.type() == pugi::node_element && same(node.name(), name);
    }

    // <rt_info><attribute name="layout" version="0" layout="[N,C,H,W]"/></rt_info> of a port.
    static std::string_view layout_of(const pugi::xml_node& rt_info) {
        for (pugi::xml_node a = rt_info.first_child(); a; a = a.next_sibling())
            if (named(a, "attribute") && std::string_view(a.attribute("name").value()) == "layout")
                return a.attribute("layout").value();
        return {};
    }

    std::span<const Port> read_ports(const pugi::xml_node& group, const Layer& layer, Model& model) {
        ports_.clear();
        for (pugi::xml_node p = group.first_child(); p; p = p.next_sibling()) {
            if (!named(p, "port")) continue;
            Port& port = ports_.emplace_back();
            port.line = line(p);
            const auto [id, names, precision] = attributes_named<3>(p, {"id", "names", "precision"});
            port.id = id.value();
            port.id_number = canonical_id_number(port.id);
            port.names = names.value();
            if (!id) error(rule::ir_structure, port.line, "port has no id attribute", &layer);
            if (precision) {
                port.precision_text = precision.value();
                port.precision = element_type_of(port.precision_text);
                if (!port.precision)
                    error(rule::ir_structure, port.line,
                          fmt::format("port {} has unknown precision '{}'", port.id, excerpt(port.precision_text)),
                          &layer);
            }
            dims_.clear();
            for (pugi::xml_node d = p.first_child(); d; d = d.next_sibling()) {
                if (named(d, "rt_info")) port.layout = layout_of(d);
                if (!named(d, "dim")) continue;
                const std::string_view text = d.child_value();
                const auto value = dim_value(text);
                if (!value || *value < -1 || *value == Dim::kInf) {
                    port.dims_valid = false;
                    error(rule::ir_structure, line(d),
                          fmt::format("port {}: dimension '{}' must be an integer >= -1 (-1 is dynamic; intervals "
                                      "and '?' are written only in a Parameter's shape attribute)",
                                      port.id, excerpt(trim(text))),
                          &layer);
                    dims_.push_back(-1);
                } else {
                    dims_.push_back(*value);
                }
            }
            port.dims = model.store(std::span<const int64_t>(dims_));
        }
        return model.store(std::span<const Port>(ports_));
    }

    Edge read_edge(const pugi::xml_node& node) {
        Edge edge;
        edge.line = line(node);
        static constexpr std::array<const char*, 4> names{"from-layer", "from-port", "to-layer", "to-port"};
        const auto found = attributes_named<4>(node, names);
        edge.from_layer = found[0].value();
        edge.from_port = found[1].value();
        edge.to_layer = found[2].value();
        edge.to_port = found[3].value();
        edge.from_layer_number = canonical_id_number(edge.from_layer);
        edge.from_port_number = canonical_id_number(edge.from_port);
        edge.to_layer_number = canonical_id_number(edge.to_layer);
        edge.to_port_number = canonical_id_number(edge.to_port);
        for (size_t k = 0; k < names.size(); ++k)
            if (!found[k]) error(rule::ir_structure, edge.line, fmt::format("edge has no {} attribute", names[k]));
        return edge;
    }

    std::unique_ptr<PageArena> arena_;
    std::span<char> text_;
    // Scratch lists, reused: what one layer, port or body list holds before it is stored in the arena.
    std::vector<Attr> attrs_;
    std::vector<Port> ports_;
    std::vector<int64_t> dims_;
    std::vector<size_t> body_indices_;
    std::vector<PortMapEntry> port_map_;
    std::vector<BackEdge> back_edges_;
    std::string_view last_precision_text_;
    std::optional<ElementType> last_precision_;
    LineIndex lines_;
    ReadResult& result_;
    std::shared_ptr<ParsedDocument> parsed_ = std::make_shared<ParsedDocument>();
    pugi::xml_document* doc_ = &parsed_->doc;
    int64_t ir_version_ = 0;
};

}  // namespace

namespace {

// An arena with room for a file of `size` bytes and what the model makes of it, and the text's place in it.
std::pair<std::unique_ptr<PageArena>, std::span<char>> text_in_arena(size_t size) {
    auto arena = std::make_unique<PageArena>(size >= kArenaFileSize ? size + size / 2 : 0);
    char* text = static_cast<char*>(arena->allocate(size + 1, 1));
    text[size] = '\0';  // pugixml is handed the NUL too, and then needs no byte of the text to end the last value
    return {std::move(arena), std::span<char>(text, size)};
}

ReadResult read_text(std::unique_ptr<PageArena> arena, std::span<char> text, const std::string& xml_path) {
    ReadResult result;
    Reader(std::move(arena), text, result).run(xml_path);
    return result;
}

}  // namespace

ReadResult read_model_from_memory(std::string_view xml_text, const std::string& xml_path) {
    auto [arena, text] = text_in_arena(xml_text.size());
    std::memcpy(text.data(), xml_text.data(), xml_text.size());
    return read_text(std::move(arena), text, xml_path);
}

// Read straight into the arena: a string would be zero-filled first, and on pages of its own.
ReadResult read_model(const std::string& xml_path) {
    std::ifstream in(xml_path, std::ios::binary | std::ios::ate);
    const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : -1;
    if (size >= 0) {
        auto [arena, text] = text_in_arena(static_cast<size_t>(size));
        in.seekg(0);
        if (in.read(text.data(), size)) return read_text(std::move(arena), text, xml_path);
    }
    ReadResult result;
    result.diagnostics.push_back(
        make_finding(rule::ir_structure, "cannot open the file for reading"));
    return result;
}

std::optional<ReadFailure> read_failure(const std::string& path, const ReadResult& read) {
    ReadFailure f;
    if (read.status == ReadStatus::failed && read.diagnostics.size() == 1 && read.diagnostics[0].line == 0) {
        f.unopened = true;
        f.lines.emplace_back(fmt::format("{}: {}", path, read.diagnostics[0].message), &read.diagnostics[0]);
        return f;
    }
    if (read.model) return std::nullopt;
    for (const Diagnostic& d : read.diagnostics)
        f.lines.emplace_back(fmt::format("{}:{}: {} [{}]", path, d.line, d.message, d.rule), &d);
    return f;
}

}  // namespace irlint
