#pragma once
// Reads a pooling layer's <data> attributes into the normalized PoolingDesc, the way OpenVINO's IR reader
// would, and says what is wrong with each value.

#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostic.hpp"
#include "ir/model.hpp"
#include "rules/pooling.hpp"

namespace irlint {

struct AttrIssue {
    Severity severity;
    std::string message;
};

struct ParsedAttrs {
    PoolingDesc desc;
    std::vector<AttrIssue> issues;
    bool usable() const;  // no error-level issue: shape inference can run
};

using AttrList = std::span<const Attr>;

ParsedAttrs parse_pool_attrs(const PoolOp& op, AttrList attrs);
inline ParsedAttrs parse_pool_attrs(const PoolOp& op, std::initializer_list<Attr> attrs) {
    return parse_pool_attrs(op, AttrList(attrs.begin(), attrs.size()));
}

// The attribute names a version reads (its visit_attributes), in IR spelling.
std::vector<std::string> pool_attr_names(const PoolOp& op);

}  // namespace irlint
