#include "op_test_util.hpp"

#include <doctest/doctest.h>

namespace irlint::test {

Shape S(const std::string& text) {
    std::string error;
    const auto s = parse_shape(text, &error);
    REQUIRE_MESSAGE(s, "bad shape text '" << text << "': " << error);
    return *s;
}

OpInput In(const std::string& shape, std::optional<ElementType> type) { return OpInput{S(shape), type}; }

TensorValue V(std::initializer_list<int64_t> exact) {
    TensorValue v;
    for (const int64_t x : exact) v.push_back({x, x});
    return v;
}

const OpEntry& entry_of(const std::string& type, int version) {
    for (const OpEntry& e : op_registry())
        if (e.type == type && e.version == version) return e;
    FAIL("no registry entry for " << type << "-" << version);
    throw std::logic_error("unreachable");
}

OpRun run_op(const OpCase& c) {
    const OpEntry& e = entry_of(c.type, c.version);
    std::vector<Attr> attrs;
    for (const auto& [k, v] : c.attrs) attrs.emplace_back(k, v);
    Layer layer;
    layer.type = c.type;
    layer.name = "test";
    layer.id = "1";
    layer.attrs = attrs;
    layer.has_data = !attrs.empty();
    OpContext ctx(layer, e.version, c.inputs, [&c](size_t i) -> const TensorValue* {
        const auto it = c.values.find(i);
        return it == c.values.end() ? nullptr : &it->second;
    });
    ctx.set_explain(true);  // the tests read the arithmetic too
    OpRun run;
    e.infer(ctx, run.outputs);
    run.problems.assign(ctx.problems().begin(), ctx.problems().end());
    run.unknown = ctx.unknown_reason();
    return run;
}

}  // namespace irlint::test
