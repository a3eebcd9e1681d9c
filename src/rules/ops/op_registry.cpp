#include "rules/ops/op_registry.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/text.hpp"

namespace irlint {

std::span<const OpEntry> op_registry() {
    static const std::vector<OpEntry> all = [] {
        std::vector<OpEntry> out;
        for (const auto family : {pooling_ops, elementwise_ops, shape_manipulation_ops, tensor_ops, convolution_ops,
                                  detection_ops, misc_ops, misc_tensor_ops, subgraph_ops,
                                  onnx_ops})
            for (const OpEntry& e : family()) out.push_back(e);
        return out;
    }();
    return all;
}

namespace {

// Op types are matched without regard to ASCII case; the hash and the comparison take a string_view, so that
// a lookup (one per layer of a large IR) copies nothing.
struct CaseBlindHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept {
        uint64_t h = 14695981039346656037ull;  // FNV-1a over the lower-case bytes
        for (const char c : s) {
            const auto lower = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            h = (h ^ lower) * 1099511628211ull;
        }
        return static_cast<size_t>(h);
    }
};
struct CaseBlindEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const noexcept { return iequals(a, b); }
};
using EntriesByType = std::unordered_map<std::string, std::vector<const OpEntry*>, CaseBlindHash, CaseBlindEqual>;

const EntriesByType& entries_by_type() {
    static const auto index = [] {
        EntriesByType out;
        for (const OpEntry& e : op_registry())
            if (e.format == OpFormat::ir) out[std::string(e.type)].push_back(&e);
        return out;
    }();
    return index;
}

const std::vector<const OpEntry*>* entries_of(std::string_view type) {
    const auto& index = entries_by_type();
    const auto it = index.find(type);
    return it == index.end() ? nullptr : &it->second;
}

// The ONNX entries by domain and type, joined by a NUL, exactly as spelled.
const std::unordered_map<std::string, std::vector<const OpEntry*>>& onnx_entries() {
    static const auto index = [] {
        std::unordered_map<std::string, std::vector<const OpEntry*>> out;
        for (const OpEntry& e : op_registry())
            if (e.format == OpFormat::onnx) out[std::string(e.domain) + '\0' + std::string(e.type)].push_back(&e);
        return out;
    }();
    return index;
}

std::optional<OpLookup> newest_at(const std::vector<const OpEntry*>& entries, int64_t opset) {
    OpLookup found;
    for (const OpEntry* e : entries) {
        if (e->since_opset <= opset && (!found.entry || e->since_opset > found.entry->since_opset)) found.entry = e;
        if (!found.first_opset || e->since_opset < found.first_opset) found.first_opset = e->since_opset;
    }
    return found;
}

}  // namespace

bool op_type_known(std::string_view type) { return entries_of(type) != nullptr; }

std::optional<OpLookup> find_op(std::string_view type, int opset) {
    const auto* entries = entries_of(type);
    if (!entries) return std::nullopt;
    return newest_at(*entries, opset);
}

std::optional<OpLookup> find_onnx_op(std::string_view domain, std::string_view type, int64_t opset) {
    if (type.size() > 128 || domain.size() > 128) return std::nullopt;  // no op is named so; a hostile one costs no copy
    const auto& index = onnx_entries();
    const auto it = index.find(std::string(domain) + '\0' + std::string(type));
    if (it == index.end()) return std::nullopt;
    return newest_at(it->second, opset);
}

}  // namespace irlint
