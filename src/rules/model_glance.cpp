#include "rules/model_glance.hpp"

#include <algorithm>
#include <iterator>

namespace irlint {

std::vector<Endpoint> model_endpoints(const ModelReport& report) {
    std::vector<Endpoint> out;
    for (const LayerShapes& r : report.layers) {
        const Layer& l = *r.layer;
        if (r.graph != 0) continue;
        if (l.kind == LayerKind::parameter && !l.outputs.empty())
            out.push_back({"input", l.name, r.inferred.empty() ? r.declared.front() : r.inferred.front(),
                           r.inferred_types.empty() ? l.outputs.front().precision : r.inferred_types.front(),
                           l.outputs.front().layout});
        if (l.kind == LayerKind::result && !r.inputs.empty())
            out.push_back({"output", l.name, r.inputs.front(), r.input_types.front(),
                           l.inputs.empty() ? std::string_view() : l.inputs.front().layout});
    }
    std::stable_sort(out.begin(), out.end(), [](const Endpoint& a, const Endpoint& b) { return a.kind < b.kind; });
    return out;
}

ModelReport check_read_model(const Model& model, Diagnostics read_findings) {
    ModelReport report = check_model(model);
    Diagnostics& all = report.diagnostics;
    all.insert(all.end(), std::make_move_iterator(read_findings.begin()), std::make_move_iterator(read_findings.end()));
    std::stable_sort(all.begin(), all.end(), [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    mark_layers_with_errors(report);
    return report;
}

}  // namespace irlint
