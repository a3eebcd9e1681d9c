// `run --report`: one page for one layer or every layer of a --data run. Per layer the status and, per
// compared output, the error statistics, the first and the worst mismatch, the conventions that explain the
// expected data, an SVG heatmap of the largest error per cell over the planes with the most mismatches
// (labeled axes, a legend with its unit, the plane named, the worst element circled) and a histogram.
#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "report/html.hpp"
#include "report/run_report.hpp"

namespace irlint {

namespace {

// ColorBrewer's sequential OrRd, light to dark: the larger the error, the darker the cell.
constexpr std::array<std::string_view, 8> kColors{"#fee8c8", "#fdd49e", "#fdbb84", "#fc8d59",
                                                  "#ef6548", "#d7301f", "#b30000", "#7f0000"};
constexpr int kBuckets = static_cast<int>(kColors.size());
constexpr std::string_view kNonFiniteColor = "#6f42c1";  // NaN on one side only: no size to scale

// Errors to colors: linear from 0, or logarithmic when the errors drawn span more than two decades.
struct ColorScale {
    double lo = 0, hi = 1;
    bool log = false;

    static ColorScale of(const ErrorDetail& d) {
        ColorScale s;
        s.hi = std::max<double>(d.max_error, 1e-300);
        s.lo = std::max<double>(d.min_error, 1e-300);
        s.log = s.hi / s.lo > 100;
        return s;
    }
    int bucket(double err) const {
        const double t = log ? std::log(err / lo) / std::log(hi / lo) : err / hi;
        return std::clamp(static_cast<int>(std::floor(t * kBuckets)), 0, kBuckets - 1);
    }
    double bound(int k) const {  // the lower bound of bucket k; bound(kBuckets) is the largest error
        const double t = static_cast<double>(k) / kBuckets;
        return log ? lo * std::pow(hi / lo, t) : hi * t;
    }
};

std::string index_text(const std::vector<int64_t>& index) { return fmt::format("[{}]", join_ints(index)); }

std::string plane_label(const std::vector<int64_t>& index) {
    static constexpr std::array<const char*, 3> kAxes{"n", "c", "d"};
    std::string out;
    for (size_t k = 0; k < index.size() && k < kAxes.size(); ++k)
        out += fmt::format("{}{}={}", k ? ", " : "", kAxes[k], index[k]);
    return out;
}

struct Geometry {
    int cell_w = 8, cell_h = 8;
    int left = 46, top = 10, right = 10, bottom = 38;
    int width(const ErrorDetail& d) const { return left + static_cast<int>(d.grid_cols) * cell_w + right; }
    int height(const ErrorDetail& d) const { return top + static_cast<int>(d.grid_rows) * cell_h + bottom; }
};

Geometry geometry_of(const ErrorDetail& d, size_t panels) {
    Geometry g;
    const int budget = panels > 2 ? 300 : 440;  // pixels for the longer side
    const auto side = static_cast<int>(std::max(d.grid_rows, d.grid_cols));
    g.cell_w = g.cell_h = std::clamp(budget / std::max(side, 1), 3, 24);
    if (d.grid_rows == 1) g.cell_h = 24;  // a 3D output: one row of W
    return g;
}

std::string axis_ticks(const ErrorDetail& d, const Geometry& g) {
    std::string out;
    auto ticks = [](int64_t cells) {
        std::vector<int64_t> t{0};
        if (cells > 2) t.push_back(cells / 2);
        if (cells > 1) t.push_back(cells - 1);
        return t;
    };
    const int plane_bottom = g.top + static_cast<int>(d.grid_rows) * g.cell_h;
    for (int64_t c : ticks(d.grid_cols)) {
        const int x = g.left + static_cast<int>(c) * g.cell_w + g.cell_w / 2;
        out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#57606a\"/>"
                           "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>",
                           x, plane_bottom, plane_bottom + 4, plane_bottom + 15, c * d.block_cols);
    }
    out += fmt::format("<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">W (column index)</text>",
                       g.left + static_cast<int>(d.grid_cols) * g.cell_w / 2, plane_bottom + 31);
    if (d.grid_rows == 1) return out;
    for (int64_t r : ticks(d.grid_rows)) {
        const int y = g.top + static_cast<int>(r) * g.cell_h + g.cell_h / 2;
        out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#57606a\"/>"
                           "<text x=\"{3}\" y=\"{4}\" text-anchor=\"end\">{5}</text>",
                           g.left - 4, y, g.left, g.left - 6, y + 4, r * d.block_rows);
    }
    const int middle = g.top + static_cast<int>(d.grid_rows) * g.cell_h / 2;
    return out + fmt::format("<text class=\"axis-label\" x=\"12\" y=\"{0}\" text-anchor=\"middle\" "
                             "transform=\"rotate(-90 12 {0})\">H (row index)</text>",
                             middle);
}

// The cells of one plane as rectangles, neighbours of one color in a row joined into one.
std::string cells_svg(const ErrorDetail& d, const ErrorPlane& p, const ColorScale& scale, const Geometry& g) {
    std::string out;
    for (int64_t r = 0; r < d.grid_rows; ++r) {
        for (int64_t c = 0; c < d.grid_cols;) {
            const float err = p.max_error[static_cast<size_t>(r * d.grid_cols + c)];
            if (err <= 0) {
                ++c;
                continue;
            }
            const int color = std::isinf(err) ? kBuckets : scale.bucket(err);  // kBuckets: not finite
            int64_t end = c + 1;
            while (end < d.grid_cols) {
                const float next = p.max_error[static_cast<size_t>(r * d.grid_cols + end)];
                if (next <= 0 || (std::isinf(next) ? kBuckets : scale.bucket(next)) != color) break;
                ++end;
            }
            out += fmt::format("<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                               g.left + static_cast<int>(c) * g.cell_w, g.top + static_cast<int>(r) * g.cell_h,
                               static_cast<int>(end - c) * g.cell_w, g.cell_h,
                               color == kBuckets ? kNonFiniteColor : kColors[static_cast<size_t>(color)]);
            c = end;
        }
    }
    return out;
}

std::string worst_marker(const ErrorDetail& d, const ErrorPlane& p, const OutputRun& o, const Geometry& g) {
    const std::vector<int64_t> worst = unravel_index(d.worst, o.shape);
    const size_t lead = p.index.size();
    if (worst.size() < lead + 1 || !std::equal(p.index.begin(), p.index.end(), worst.begin())) return "";
    const int64_t h = worst.size() >= lead + 2 ? worst[lead] : 0, w = worst.back();
    const int cx = g.left + static_cast<int>(w / d.block_cols) * g.cell_w + g.cell_w / 2;
    const int cy = g.top + static_cast<int>(h / d.block_rows) * g.cell_h + g.cell_h / 2;
    const int r = std::max(g.cell_w * 3 / 4, 6);
    return fmt::format("<circle class=\"worst-halo\" cx=\"{0}\" cy=\"{1}\" r=\"{2}\"/><circle class=\"worst\" cx=\"{0}\" "
                       "cy=\"{1}\" r=\"{2}\"><title>worst element {3}</title></circle>",
                       cx, cy, r, index_text(worst));
}

std::string heatmap_svg(const OutputRun& o, const ErrorDetail& d, const ErrorPlane& p, const ColorScale& scale,
                        const Geometry& g) {
    const int plane_w = static_cast<int>(d.grid_cols) * g.cell_w, plane_h = static_cast<int>(d.grid_rows) * g.cell_h;
    std::string svg = fmt::format(
        "<svg class=\"heatmap\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
        "aria-label=\"where {2} mismatches\"><rect x=\"{3}\" y=\"{4}\" width=\"{5}\" height=\"{6}\" fill=\"#ffffff\" "
        "stroke=\"#8c959f\"/>",
        g.width(d), g.height(d), plane_label(p.index), g.left, g.top, plane_w, plane_h);
    svg += cells_svg(d, p, scale, g) + worst_marker(d, p, o, g) + axis_ticks(d, g);
    return svg + "</svg>";
}

std::string legend_svg(const ColorScale& scale, bool non_finite) {
    constexpr int kSwatch = 44;
    constexpr int kLeft = 30;  // room for the first label, centred on the first swatch's edge
    std::string svg = fmt::format("<svg class=\"legend\" width=\"{}\" height=\"52\" role=\"img\" aria-label=\"color "
                                  "legend\">",
                                  kSwatch * kBuckets + 2 * kLeft + 200);
    for (int k = 0; k < kBuckets; ++k) {
        svg += fmt::format("<rect x=\"{}\" y=\"4\" width=\"{}\" height=\"14\" fill=\"{}\"/>", kLeft + k * kSwatch,
                           kSwatch, kColors[static_cast<size_t>(k)]);
        if (k % 2 == 0)
            svg += fmt::format("<text x=\"{}\" y=\"32\" text-anchor=\"middle\">{}</text>", kLeft + k * kSwatch,
                               html_number(scale.bound(k)));
    }
    svg += fmt::format("<text x=\"{}\" y=\"32\" text-anchor=\"middle\">{}</text>", kLeft + kBuckets * kSwatch,
                       html_number(scale.bound(kBuckets)));
    svg += fmt::format("<text x=\"{}\" y=\"48\">absolute error |computed − expected|{}; white: no mismatch{}</text>",
                       kLeft, scale.log ? ", log scale" : "", non_finite ? "; violet: NaN on one side" : "");
    if (non_finite)
        svg += fmt::format("<rect x=\"{}\" y=\"4\" width=\"14\" height=\"14\" fill=\"{}\"/>",
                           kLeft + kBuckets * kSwatch + 24, kNonFiniteColor);
    return svg + "</svg>";
}

std::string histogram_svg(const Comparison& c) {
    const auto& labels = error_bucket_labels();
    constexpr int kBar = 66, kHeight = 120;
    const size_t most = *std::max_element(c.histogram.begin(), c.histogram.end());
    std::string svg = fmt::format("<svg class=\"histogram\" width=\"{}\" height=\"{}\" role=\"img\" "
                                  "aria-label=\"error histogram\">",
                                  kBar * kErrorBuckets + 20, kHeight + 90);
    for (int b = 0; b < kErrorBuckets; ++b) {
        const size_t n = c.histogram[static_cast<size_t>(b)];
        const int h = most ? static_cast<int>(std::lround(kHeight * std::log10(1.0 + static_cast<double>(n)) /
                                                          std::log10(1.0 + static_cast<double>(most))))
                           : 0;
        const int x = 10 + b * kBar;
        svg += fmt::format("<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>"
                           "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>"
                           "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" transform=\"rotate(-30 {} {})\">{}</text>",
                           x + 4, 16 + kHeight - h, kBar - 8, h, b == 0 ? "#8c959f" : "#fc8d59", x + kBar / 2,
                           12 + kHeight - h, n, x + kBar / 2 + 6, kHeight + 32, x + kBar / 2 + 6, kHeight + 32,
                           html_escape(labels[static_cast<size_t>(b)]));
    }
    return svg + "</svg>";
}

std::string planes_html(const OutputRun& o, const ErrorDetail& d) {
    const ColorScale scale = ColorScale::of(d);
    const Geometry g = geometry_of(d, d.drawn.size());
    std::string out = fmt::format(
        "<p class=\"planes\">Mismatches in <b>{}</b> plane{} of the output (a plane: the {} of one {}). Drawn: {}{}, and always the plane of the worst element (circled). "
        "Each cell shows the largest error of its elements{}.</p>\n",
        d.planes_with_mismatches, d.planes_with_mismatches == 1 ? "" : "s", d.rows > 1 ? "H × W positions" : "W positions",
        d.depth_multiples ? "batch, channel and depth index" : "batch and channel index",
        d.depth_multiples ? "the depth planes of the batch and channel with the most mismatches"
                          : "the plane with the most mismatches",
        d.drawn.size() > 1 && !d.depth_multiples ? " and the next ones" : "",
        d.block_rows * d.block_cols > 1
            ? fmt::format(" (one cell: {} × {} positions, as the plane is {} × {})", d.block_rows, d.block_cols, d.rows,
                          d.cols)
            : "");
    for (const ErrorPlane& p : d.drawn)
        out += fmt::format("<figure>{}<figcaption>{}: {} mismatch{}</figcaption></figure>\n",
                           heatmap_svg(o, d, p, scale, g), plane_label(p.index), p.mismatches,
                           p.mismatches == 1 ? "" : "es");
    out += "<div>" + legend_svg(scale, d.non_finite_drawn) + "</div>\n";
    std::string items;
    for (const ErrorPlane& p : d.listed)
        items += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td></tr>", plane_label(p.index), p.mismatches);
    const size_t unlisted = d.planes_with_mismatches - d.listed.size();
    out += fmt::format(
        "<details class=\"plane-list\"><summary>Every plane with mismatches ({}), most first</summary><table>"
        "<thead><tr><th>plane</th><th class=\"num\">mismatches</th></tr></thead><tbody>{}</tbody></table>{}"
        "</details>\n",
        d.planes_with_mismatches, items,
        unlisted ? fmt::format("<p class=\"note\">and {} more planes; `--format json` gives the counts per "
                               "channel</p>",
                               unlisted)
                 : "");
    return out;
}

std::string why_html(const OutputRun& o) {
    if (!o.diagnosed) return "";
    if (o.explanations.empty())
        return "<p class=\"why\">Why: none of the known conventions explains the difference.</p>\n";
    std::string items;
    for (const Explanation& e : o.explanations)
        items += fmt::format("<li><b>{}</b>: {}</li>", html_text(e.convention), html_text(e.description, kPrintedMessageChars));
    return fmt::format("<div class=\"why\"><p>Why: the expected data matches irlint under {}:</p><ul>{}</ul></div>\n",
                       o.explanations.size() == 1 ? "this convention" : "each of these conventions", items);
}

std::string stats_table(const OutputRun& o) {
    const Comparison& c = o.comparison;
    std::string rows = fmt::format(
        "<tr><th>elements</th><td class=\"num\">{}</td></tr><tr><th>mismatches</th><td class=\"num mismatches\">{}"
        "</td></tr><tr><th>tolerance</th><td>atol {} + rtol {} · |expected|</td></tr><tr><th>max abs error</th>"
        "<td class=\"num\">{}</td></tr><tr><th>max rel error</th><td class=\"num\">{}</td></tr><tr><th>mean abs "
        "error</th><td class=\"num\">{}</td></tr>",
        c.total, c.mismatches, html_number(o.tolerance.atol), html_number(o.tolerance.rtol), html_number(c.max_abs_err),
        html_number(c.max_rel_err), html_number(c.mean_abs_err));
    if (c.first_mismatch)
        rows += fmt::format("<tr><th>first mismatch</th><td class=\"first\">{}: expected {}, computed {}</td></tr>",
                            index_text(unravel_index(*c.first_mismatch, o.shape)), html_number(c.first_expected),
                            html_number(c.first_actual));
    if (o.detail)
        rows += fmt::format("<tr><th>worst mismatch</th><td class=\"worst-text\">{}: expected {}, computed {}, "
                            "|error| {}</td></tr>",
                            index_text(unravel_index(o.detail->worst, o.shape)), html_number(o.detail->worst_expected),
                            html_number(o.detail->worst_actual), html_number(o.detail->worst_error));
    return fmt::format("<table class=\"stats\">{}</table>\n", rows);
}

std::string output_html(const OutputRun& o) {
    std::string out = fmt::format("<h3>Output {} ({}) {} {}</h3>\n", o.index, html_escape(o.role), index_text(o.shape),
                                  element_type_name(o.type));
    if (!o.saved_path.empty()) out += fmt::format("<p>Saved to <span class=\"mono\">{}</span>.</p>\n", html_text(o.saved_path, kPrintedMessageChars));
    if (o.expect_path.empty()) return out + "<p class=\"st-not-compared\">Not compared: no expected file.</p>\n";
    out += fmt::format("<p>Expected: <span class=\"mono\">{}</span></p>\n", html_text(o.expect_path, kPrintedMessageChars));
    const Comparison& c = o.comparison;
    if (!c.compared())
        return out + fmt::format("<p class=\"st-mismatch\">Mismatch: {}</p>\n", html_text(c.problem, kPrintedMessageChars)) +
               why_html(o);
    out += fmt::format("<p class=\"{}\">{}</p>\n", c.matches() ? "st-ok" : "st-mismatch",
                       c.matches() ? "Every element within the tolerance." : "Mismatch.");
    out += stats_table(o) + why_html(o);
    if (o.detail) out += planes_html(o, *o.detail);
    out += fmt::format("<h4>Absolute error per element</h4>\n<p class=\"note\">Elements per decade of |computed − "
                       "expected|; bar heights on a log scale.</p>\n{}\n",
                       histogram_svg(c));
    return out;
}

std::string status_cell(RunStatus s) {
    const std::string_view name = run_status_name(s);
    std::string css(name);
    std::replace(css.begin(), css.end(), '_', '-');
    return fmt::format("<span class=\"status st-{}\">{}</span>", css, name);
}

std::string op_of(const LayerRun& r) { return r.op_name.empty() ? r.layer.type : r.op_name; }

std::string layer_html(const LayerRun& r, size_t k) {
    std::string out = fmt::format(
        "<section class=\"layer\" id=\"layer-{}\"><h2>Layer {} <span class=\"mono\">{}</span> ({}) — {}</h2>\n", k,
        html_text(r.layer.id), html_text(r.layer.name), html_text(op_of(r)), status_cell(r.status));
    if (r.status == RunStatus::error)
        return out + fmt::format("<p class=\"st-error\">Error: {}</p></section>\n", html_text(r.error, kPrintedMessageChars));
    out += fmt::format("<p>Input <span class=\"mono\">{}</span> {} {}; kernel time {:.2f} ms.</p>\n",
                       html_text(r.input_path, kPrintedMessageChars), index_text(r.input_shape),
                       element_type_name(r.input_type), r.milliseconds);
    for (const std::string& w : r.warnings)
        out += fmt::format("<p class=\"sev-warning\">Warning: {}</p>\n", html_text(w, kPrintedMessageChars));
    for (const OutputRun& o : r.outputs) out += output_html(o);
    return out + "</section>\n";
}

std::string summary_table(const std::vector<LayerRun>& runs) {
    std::string rows;
    for (size_t k = 0; k < runs.size(); ++k) {
        const LayerRun& r = runs[k];
        std::vector<std::string> compared;
        double worst = 0;
        for (const OutputRun& o : r.outputs)
            if (!o.expect_path.empty() && o.comparison.compared()) {
                compared.push_back(fmt::format("{}/{}", o.comparison.mismatches, o.comparison.total));
                worst = std::max(worst, o.comparison.max_abs_err);
            }
        rows += fmt::format(
            "<tr><td><a href=\"#layer-{}\">{}</a></td><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td class=\"num\">"
            "{}</td><td class=\"num\">{}</td></tr>\n",
            k, html_text(r.layer.id), html_text(r.layer.name), html_text(op_of(r)), status_cell(r.status),
            compared.empty() ? "-" : fmt::format("{}", fmt::join(compared, " ")), compared.empty() ? "-" : html_number(worst));
    }
    return fmt::format("<h2>Layers</h2>\n<table class=\"layers\"><thead><tr><th>layer</th><th>name</th><th>op</th>"
                       "<th>status</th><th class=\"num\">mismatches / elements</th><th class=\"num\">max abs error</th>"
                       "</tr></thead><tbody>\n{}</tbody></table>\n",
                       rows);
}

}  // namespace

std::string runs_html(const std::vector<LayerRun>& runs, std::string_view model_path, bool data_run) {
    std::array<size_t, 4> counts{};
    for (const LayerRun& r : runs) ++counts[static_cast<size_t>(r.status)];
    std::string body = fmt::format(
        "<h1>irlint run report</h1>\n<p class=\"meta\">Model <span class=\"mono\">{}</span>: {} layer{} run — {} ok, "
        "{} mismatch, {} error, {} not compared.</p>\n",
        html_text(model_path, kPrintedMessageChars), runs.size(), runs.size() == 1 ? "" : "s", counts[0], counts[1],
        counts[2], counts[3]);
    if (data_run) body += summary_table(runs);
    for (size_t k = 0; k < runs.size(); ++k) body += layer_html(runs[k], k);
    return html_page("irlint run report", body, "");
}

}  // namespace irlint
