#pragma once
// What `irlint check --fix` changes in an IR file: the declared output dims and precision of pooling layers
// that disagree with inference, and the same values on the input ports their edges feed. Planned from the
// checked model and the findings the run reports, so that a rule the run ignores is not fixed either.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/element_type.hpp"
#include "ir/model.hpp"
#include "rules/engine.hpp"

namespace irlint {

// One port to rewrite: its new dims (same rank, all static) and/or its new precision.
struct PortFix {
    const Port* port = nullptr;  // in the model the plan was made from
    const Layer* layer = nullptr;
    std::optional<std::vector<int64_t>> dims;
    std::optional<ElementType> precision;
};

struct FixPlan {
    std::vector<PortFix> ports;
    size_t findings = 0;  // the reported findings the plan resolves, on the pooling layers themselves
};

// The fixes for the output-shape-mismatch and output-type-mismatch findings in `reported` that have one
// safe fix: the inferred dims are static and of the declared rank (of any rank when a layer downstream absorbs
// them: the finding's consequence); the precision is the one OpenVINO gives.
FixPlan plan_fixes(const Model& model, const ModelReport& report, const Diagnostics& reported);

// True when the file must not be rewritten: XML or structural errors (broken edges, cycles, duplicate ids)
// make the plan's targets uncertain.
bool blocks_fixing(const Diagnostics& diagnostics);

}  // namespace irlint
