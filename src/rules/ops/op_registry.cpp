#include "rules/ops/op_registry.hpp"

#include <vector>

#include "core/text.hpp"

namespace irlint {

std::span<const OpEntry> op_registry() {
    static const std::vector<OpEntry> all = [] {
        std::vector<OpEntry> out;
        for (const auto family : {elementwise_ops, shape_manipulation_ops, tensor_ops, convolution_ops,
                                  detection_ops, misc_ops})
            for (const OpEntry& e : family()) out.push_back(e);
        return out;
    }();
    return all;
}

std::optional<OpLookup> find_op(std::string_view type, int opset) {
    std::optional<OpLookup> found;
    for (const OpEntry& e : op_registry()) {
        if (!iequals(e.type, type)) continue;
        if (!found) found = OpLookup{};
        if (e.since_opset <= opset && (!found->entry || e.since_opset > found->entry->since_opset)) found->entry = &e;
        if (!found->first_opset || e.since_opset < found->first_opset) found->first_opset = e.since_opset;
    }
    return found;
}

}  // namespace irlint
