// `check --format html` and `merge --format html`: the summary, the counts per rule, then every file with
// its findings. Rows carry their severity and rule as data attributes; the script at the end adds the
// filters and sortable columns, and without it the tables read as they are.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "report/html.hpp"
#include "report/report.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

constexpr std::string_view kCheckScript = R"(
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.finding'));
  var sev = document.getElementById('filter-severity'), rule = document.getElementById('filter-rule');
  document.getElementById('controls').hidden = false;
  function apply() {
    rows.forEach(function (r) {
      var show = (!sev.value || r.dataset.severity === sev.value) && (!rule.value || r.dataset.rule === rule.value);
      r.hidden = !show;
    });
    document.querySelectorAll('section.file').forEach(function (s) {
      var visible = s.querySelectorAll('tr.finding:not([hidden])').length;
      s.hidden = visible === 0 && (sev.value || rule.value) ? true : false;
    });
  }
  sev.addEventListener('change', apply);
  rule.addEventListener('change', apply);
  document.querySelectorAll('th.sortable').forEach(function (th) {
    th.addEventListener('click', function () {
      var table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;
      var numeric = th.classList.contains('num'), asc = th.dataset.order !== 'asc';
      th.dataset.order = asc ? 'asc' : 'desc';
      var list = Array.prototype.slice.call(body.rows);
      list.sort(function (a, b) {
        var x = a.cells[col].dataset.key || a.cells[col].textContent, y = b.cells[col].dataset.key || b.cells[col].textContent;
        var c = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return asc ? c : -c;
      });
      list.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
)";

int severity_rank(Severity s) { return s == Severity::error ? 0 : s == Severity::warning ? 1 : 2; }

std::string rule_link(std::string_view rule_id) {
    const Rule* rule = find_rule(rule_id);
    if (!rule) return fmt::format("<code>{}</code>", html_text(rule_id));
    return fmt::format("<a href=\"{}\"><code>{}</code></a>", html_escape(rule_help_uri(*rule)), html_escape(rule_id));
}

std::string layer_cell(const LayerRef& l) {
    if (l.id.empty() && l.name.empty()) return "";
    return fmt::format("{} <span class=\"mono\">{}</span> ({})", html_text(l.id), html_text(l.name),
                       l.type.empty() ? "no type" : html_text(l.type));
}

std::string finding_row(const Diagnostic& d) {
    const std::string_view sev = severity_name(d.severity);
    return fmt::format(
        "<tr class=\"finding\" data-severity=\"{0}\" data-rule=\"{1}\"><td class=\"num\">{2}</td>"
        "<td class=\"sev-{0}\" data-key=\"{3}\">{0}</td><td>{4}</td><td class=\"msg\">{5}</td><td class=\"rule\">{6}</td></tr>\n",
        sev, html_text(d.rule), d.line > 0 ? std::to_string(d.line) : "", severity_rank(d.severity),
        layer_cell(d.layer), html_text(d.message, kPrintedMessageChars), rule_link(d.rule));
}

// A bar of three parts: layers checked fully, by invariants only, and not checked; the numbers beside it.
std::string coverage_bar(size_t layers, size_t full, size_t invariants) {
    const size_t rest = layers - std::min(layers, full + invariants);
    const auto width = [&](size_t n) { return layers ? 100.0 * static_cast<double>(n) / static_cast<double>(layers) : 0.0; };
    return fmt::format(
        "<span class=\"bar\" role=\"img\" aria-label=\"{1} checked fully, {2} by invariants, {3} not checked\">"
        "<span class=\"full\" style=\"width:{4:.2f}%\"></span><span class=\"inv\" style=\"width:{5:.2f}%\"></span>"
        "<span class=\"not\" style=\"width:{6:.2f}%\"></span></span> "
        "<span class=\"note\">{1} of {0} checked fully, {2} by invariants, {3} not checked</span>",
        layers, full, invariants, rest, width(full), width(invariants), width(rest));
}

OpTypeCoverage total_of(const std::vector<OpTypeCoverage>& types) {
    OpTypeCoverage all;
    for (const OpTypeCoverage& t : types) {
        all.layers += t.layers;
        all.checked += t.checked;
        all.checked_by_invariants += t.checked_by_invariants;
    }
    return all;
}

// Per op type, least covered first: its layers and the bar.
std::string op_type_table(const std::vector<OpTypeCoverage>& types) {
    std::vector<const OpTypeCoverage*> sorted;
    for (const OpTypeCoverage& t : types) sorted.push_back(&t);
    std::stable_sort(sorted.begin(), sorted.end(), [](const OpTypeCoverage* a, const OpTypeCoverage* b) {
        return a->layers - a->checked > b->layers - b->checked;
    });
    std::string rows;
    for (const OpTypeCoverage* t : sorted)
        rows += fmt::format("<tr><td class=\"mono\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                            html_text(t->type), t->layers, coverage_bar(t->layers, t->checked, t->checked_by_invariants));
    return fmt::format("<table class=\"coverage\"><thead><tr><th>op type</th><th class=\"num\">layers</th>"
                       "<th>checked</th></tr></thead><tbody>\n{}</tbody></table>\n",
                       rows);
}

// The file's op layers (Parameter, Const and Result aside) as a bar, and per op type in a folded table.
std::string file_coverage(const FileResult& f) {
    if (f.op_types.empty())
        return fmt::format("<p class=\"note\">{} layers: {} checked fully, {} by invariants</p>\n", f.layers, f.checked,
                           f.checked_by_invariants);
    const OpTypeCoverage all = total_of(f.op_types);
    return fmt::format("<p>{} layers; op layers: {}</p>\n<details><summary>per op type</summary>{}</details>\n",
                       f.layers, coverage_bar(all.layers, all.checked, all.checked_by_invariants),
                       op_type_table(f.op_types));
}

class HtmlReporter : public Reporter {
public:
    std::string begin() override { return ""; }

    std::string file(const FileResult& f) override {
        for (const Diagnostic& d : f.diagnostics) ++rules_[d.rule][static_cast<size_t>(d.severity)];
        add_op_types(f.op_types);
        if (f.diagnostics.empty()) {
            clean_.push_back(fmt::format("<li><span class=\"mono\">{}</span>{}</li>", html_text(f.path, kPrintedMessageChars),
                                         file_coverage(f)));
            return "";
        }
        sections_ += fmt::format(
            "<section class=\"file\"><h3 class=\"mono\">{}</h3>\n{}<table class=\"findings\"><thead><tr><th class=\"sortable num\">line</th><th class=\"sortable\">severity</th>"
            "<th class=\"sortable\">layer</th><th>message</th><th class=\"sortable\">rule</th></tr></thead><tbody>\n",
            html_text(f.path, kPrintedMessageChars), file_coverage(f));
        for (const Diagnostic& d : f.diagnostics) sections_ += finding_row(d);
        sections_ += "</tbody></table></section>\n";
        return "";
    }

    std::string end(const Summary& s) override {
        std::string body = "<h1>irlint check report</h1>\n";
        body += summary_table(s) + coverage() + rule_table() + controls();
        body += fmt::format("<h2>Files with findings</h2>\n{}", sections_.empty() ? "<p>None.</p>\n" : sections_);
        body += clean_list();
        return html_page("irlint check report", body, kCheckScript);
    }

private:
    static std::string summary_table(const Summary& s) {
        std::string rows = fmt::format(
            "<tr><th>files</th><td class=\"num\" id=\"sum-files\">{}</td></tr><tr><th>layers</th><td class=\"num\">{}"
            "</td></tr><tr><th>layers checked fully</th><td class=\"num\" id=\"sum-checked\">{}</td></tr>"
            "<tr><th>layers checked by invariants</th><td class=\"num\" id=\"sum-invariants\">{}</td></tr><tr><th>errors</th>"
            "<td class=\"num sev-error\" id=\"sum-errors\">{}</td></tr><tr><th>warnings</th><td class=\"num "
            "sev-warning\" id=\"sum-warnings\">{}</td></tr><tr><th>notes</th><td class=\"num\" id=\"sum-notes\">{}"
            "</td></tr>",
            s.files, s.layers, s.checked, s.checked_by_invariants, s.errors, s.warnings, s.notes);
        if (s.wall_seconds) rows += fmt::format("<tr><th>wall time</th><td class=\"num\">{:.2f} s</td></tr>", *s.wall_seconds);
        return fmt::format("<h2>Summary</h2>\n<table class=\"summary\">{}</table>\n", rows);
    }

    void add_op_types(const std::vector<OpTypeCoverage>& types) {
        for (const OpTypeCoverage& t : types) {
            OpTypeCoverage& all = op_types_[t.type];
            all.type = t.type;
            all.layers += t.layers;
            all.checked += t.checked;
            all.checked_by_invariants += t.checked_by_invariants;
        }
    }

    // Every file's op layers together, as a bar and per op type.
    std::string coverage() const {
        if (op_types_.empty()) return "";
        std::vector<OpTypeCoverage> types;
        for (const auto& [type, t] : op_types_) types.push_back(t);
        const OpTypeCoverage all = total_of(types);
        return fmt::format("<h2>Coverage</h2>\n<p>Op layers (Parameter, Const and Result aside): {}</p>\n{}",
                           coverage_bar(all.layers, all.checked, all.checked_by_invariants), op_type_table(types));
    }

    std::string rule_table() const {
        if (rules_.empty()) return "";
        std::string rows;
        for (const auto& [rule, counts] : rules_)
            rows += fmt::format("<tr><td>{}</td><td class=\"num{}\">{}</td><td class=\"num{}\">{}</td>"
                                "<td class=\"num\">{}</td></tr>\n",
                                rule_link(rule), counts[2] ? " sev-error" : "", counts[2],
                                counts[1] ? " sev-warning" : "", counts[1], counts[0]);
        return fmt::format(
            "<h2>Findings per rule</h2>\n<table class=\"rules\"><thead><tr><th>rule</th><th class=\"num\">errors</th>"
            "<th class=\"num\">warnings</th><th class=\"num\">notes</th></tr></thead><tbody>\n{}</tbody></table>\n",
            rows);
    }

    std::string controls() const {
        std::string options = "<option value=\"\">all rules</option>";
        for (const auto& [rule, counts] : rules_)
            options += fmt::format("<option value=\"{0}\">{0}</option>", html_text(rule));
        return fmt::format(
            "<div class=\"controls\" id=\"controls\" hidden><label>Severity <select id=\"filter-severity\">"
            "<option value=\"\">all</option><option value=\"error\">error</option><option value=\"warning\">warning"
            "</option><option value=\"note\">note</option></select></label><label>Rule <select id=\"filter-rule\">{}"
            "</select></label><span class=\"note\">Click a column heading to sort.</span></div>\n",
            options);
    }

    std::string clean_list() const {
        if (clean_.empty()) return "";
        std::string items;
        for (const std::string& item : clean_) items += item;
        return fmt::format("<h2>Files without findings</h2>\n<details><summary>{} file{}</summary><ul>{}</ul></details>\n",
                           clean_.size(), clean_.size() == 1 ? "" : "s", items);
    }

    std::map<std::string, std::array<size_t, 3>> rules_;  // rule -> counts by Severity (note, warning, error)
    std::string sections_;
    std::vector<std::string> clean_;  // list items: the path and its coverage
    std::map<std::string, OpTypeCoverage> op_types_;  // over every file
};

}  // namespace

std::unique_ptr<Reporter> make_html_reporter() { return std::make_unique<HtmlReporter>(); }

}  // namespace irlint
