#include "report/map_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace irlint {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// ---- text -----------------------------------------------------------------------------------------------

constexpr std::array<const char*, 5> kShades{" ", "░", "▒", "▓", "█"};

// 0 for nothing, then one level per quarter of the elements mismatching.
int shade_level(double fraction) {
    if (fraction <= 0) return 0;
    return std::clamp(static_cast<int>(std::ceil(fraction * 4)), 1, 4);
}

// How the cells of the map become characters: a block of cells behind each, small maps drawn two
// characters per cell so that they look less squeezed.
struct TextLayout {
    int64_t rows_per_line = 1, cols_per_char = 1, lines = 1, chars = 1, char_width = 1;
};

TextLayout layout_of(const MismatchMap& m) {
    TextLayout t;
    t.rows_per_line = ceil_div(m.grid_rows, kMapTextLines);
    t.cols_per_char = ceil_div(m.grid_cols, kMapTextColumns);
    t.lines = ceil_div(m.grid_rows, t.rows_per_line);
    t.chars = ceil_div(m.grid_cols, t.cols_per_char);
    t.char_width = t.chars * 2 <= kMapTextColumns ? 2 : 1;
    return t;
}

// A character shows the worst cell behind it, so that one bad row stays visible when rows are merged.
double worst_fraction(const MismatchMap& m, const TextLayout& t, int64_t line, int64_t ch) {
    double worst = 0;
    for (int64_t r = line * t.rows_per_line; r < std::min(m.grid_rows, (line + 1) * t.rows_per_line); ++r)
        for (int64_t c = ch * t.cols_per_char; c < std::min(m.grid_cols, (ch + 1) * t.cols_per_char); ++c)
            worst = std::max(worst, m.cell_fraction(r, c));
    return worst;
}

const fmt::text_style& shade_style(int level, const Palette& p) { return level <= 2 ? p.warning : p.error; }

std::string repeated(const char* s, int64_t n) {
    std::string out;
    for (int64_t i = 0; i < n; ++i) out += s;
    return out;
}

std::string grid_line(const MismatchMap& m, const TextLayout& t, int64_t line, const Palette& p) {
    std::string out;
    for (int64_t ch = 0; ch < t.chars; ++ch) {
        const int level = shade_level(worst_fraction(m, t, line, ch));
        const std::string cell = repeated(kShades[static_cast<size_t>(level)], t.char_width);
        out += level == 0 ? cell : fmt::format("{}", fmt::styled(cell, shade_style(level, p)));
    }
    return out;
}

std::string grid_text(const MismatchMap& m, const TextLayout& t, const Palette& p, const std::string& indent) {
    const int64_t last_row = (t.lines - 1) * t.rows_per_line * m.block_rows;
    const int64_t last_col = (t.chars - 1) * t.cols_per_char * m.block_cols;
    const size_t label_width = fmt::format("{}", last_row).size();
    const int64_t width = t.chars * t.char_width;
    const std::string margin(label_width, ' ');
    const std::string rule = repeated("─", width);
    std::string out = fmt::format("{}{} {}\n", indent, margin, fmt::styled(fmt::format("┌{}┐", rule), p.rule));
    for (int64_t line = 0; line < t.lines; ++line) {
        const bool labelled = line == 0 || line == t.lines - 1;
        const std::string label = labelled ? fmt::format("{}", line * t.rows_per_line * m.block_rows) : "";
        out += fmt::format("{}{:>{}} {}{}{}\n", indent, label, label_width, fmt::styled("│", p.rule),
                           grid_line(m, t, line, p), fmt::styled("│", p.rule));
    }
    out += fmt::format("{}{} {}\n", indent, margin, fmt::styled(fmt::format("└{}┘", rule), p.rule));
    const std::string last = fmt::format("{}", last_col);
    const int64_t room = width - 1 - static_cast<int64_t>(last.size());
    if (t.chars > 1 && room > 0) out += fmt::format("{}{}  0{:>{}}\n", indent, margin, last, width - 1);
    else out += fmt::format("{}{}  0\n", indent, margin);
    return out;
}

std::string bands_text(const MismatchMap& m) {
    const BorderBands& b = m.bands;
    const std::array<std::pair<const char*, size_t>, 6> bands{{{"first row", b.first_row},
                                                                {"last row", b.last_row},
                                                                {"first column", b.first_column},
                                                                {"last column", b.last_column},
                                                                {"first plane", b.first_plane},
                                                                {"last plane", b.last_plane}}};
    std::vector<std::string> named;
    for (const auto& [name, count] : bands)
        if (count) named.push_back(fmt::format("{} {}", name, count));
    const size_t n = m.mismatches;
    if (n == 0) return "no mismatches";
    const bool rows_or_planes = b.first_row || b.last_row || b.first_plane || b.last_plane;
    const bool columns = b.first_column || b.last_column;
    const char* once = !rows_or_planes || !columns ? ""
                       : b.first_plane || b.last_plane
                           ? " (an element on several borders counts once: in its plane, else its row)"
                           : " (a corner counts once, in its row)";
    const std::string border = fmt::format("{}{}", fmt::join(named, ", "), once);
    if (n == 1 && b.interior) return "1 mismatch, in the interior";
    if (n == 1) return fmt::format("1 mismatch, on the border: {}", border);
    if (b.interior == 0) return fmt::format("all {} mismatches on the border: {}", n, border);
    if (named.empty()) return fmt::format("all {} mismatches in the interior", n);
    return fmt::format("{} mismatches: {} in the interior, {} on the border: {}", n, b.interior, n - b.interior,
                       border);
}

std::string legend_text(const MismatchMap& m, const TextLayout& t) {
    std::string out = fmt::format("{}×{} output plane, {} element{} per position (N×C{}); ░▒▓█: up to 25/50/75/100% "
                                  "of them mismatch",
                                  m.rows, m.cols, m.elements_per_position, m.elements_per_position == 1 ? "" : "s",
                                  m.depths.empty() ? "" : "×D");
    const int64_t rows = t.rows_per_line * m.block_rows, cols = t.cols_per_char * m.block_cols;
    if (rows * cols > 1) out += fmt::format("; a character shows the worst of {}×{} positions", rows, cols);
    return out;
}

// "channels: 3 of 64 with mismatches, most in channel 7 (12)"; "..., 12 each" when they are even.
std::string spread_text(const char* plural, const char* singular, const std::vector<size_t>& counts, int64_t block) {
    const auto hit = std::count_if(counts.begin(), counts.end(), [](size_t n) { return n != 0; });
    if (block > 1) return fmt::format("{}: mismatches in {} of {} blocks of {}", plural, hit, counts.size(), block);
    std::string out = fmt::format("{}: {} of {} with mismatches", plural, hit, counts.size());
    if (hit == 0) return out;
    const auto most = std::max_element(counts.begin(), counts.end());
    if (hit == 1) return out + fmt::format(", all in {} {}", singular, most - counts.begin());
    const bool even = std::all_of(counts.begin(), counts.end(), [&](size_t n) { return n == 0 || n == *most; });
    if (even) return out + fmt::format(", {} each", *most);
    return out + fmt::format(", most in {} {} ({})", singular, most - counts.begin(), *most);
}

// ---- JSON -----------------------------------------------------------------------------------------------

void write_counts(JsonWriter& json, const std::vector<size_t>& counts) {
    json.begin_array();
    for (size_t n : counts) json.number(static_cast<int64_t>(n));
    json.end();
}

void write_cells(JsonWriter& json, const MismatchMap& m) {
    json.begin_array();
    for (int64_t r = 0; r < m.grid_rows; ++r) {
        json.begin_array();
        for (int64_t c = 0; c < m.grid_cols; ++c) json.number(static_cast<int64_t>(m.cell(r, c)));
        json.end();
    }
    json.end();
}

// ---- PNG ------------------------------------------------------------------------------------------------

struct Rgb {
    uint8_t r, g, b;
};

// White for none, then from light orange (a few elements) to dark red (all of them).
Rgb heat_color(double fraction) {
    if (fraction <= 0) return {255, 255, 255};
    const double t = std::clamp(fraction, 0.0, 1.0);
    auto mix = [t](double from, double to) { return static_cast<uint8_t>(std::lround(from + (to - from) * t)); };
    return {mix(253, 165), mix(200, 0), mix(120, 38)};
}

void draw_panel(const MismatchMap& m, int64_t top, RgbImage& image) {
    const int64_t s = heatmap_scale(m);
    for (int64_t r = 0; r < m.grid_rows; ++r) {
        for (int64_t c = 0; c < m.grid_cols; ++c) {
            const Rgb color = heat_color(m.cell_fraction(r, c));
            for (int64_t y = 0; y < s; ++y)
                for (int64_t x = 0; x < s; ++x) image.set(c * s + x, top + r * s + y, color.r, color.g, color.b);
        }
    }
}

}  // namespace

std::string map_text(const MismatchMap& m, const Palette& p, const std::string& indent) {
    const TextLayout t = layout_of(m);
    std::string out = fmt::format("{}where: {}\n", indent, bands_text(m));
    out += fmt::format("{}  {}\n", indent, legend_text(m, t));
    out += grid_text(m, t, p, indent + "  ");
    out += fmt::format("{}  {}\n", indent, spread_text("channels", "channel", m.channels, m.channel_block));
    if (!m.depths.empty())
        out += fmt::format("{}  {}\n", indent, spread_text("depth planes", "plane", m.depths, m.depth_block));
    return out;
}

std::string map_json(const MismatchMap& m) {
    JsonWriter json;
    json.begin_object().field("mismatches", m.mismatches);
    json.key("plane").begin_array().number(m.rows).number(m.cols).end();
    json.key("block").begin_array().number(m.block_rows).number(m.block_cols).end();
    json.field("elements_per_position", m.elements_per_position).key("cells");
    write_cells(json, m);
    json.key("channels");
    write_counts(json, m.channels);
    json.field("channel_block", m.channel_block).key("depths");
    write_counts(json, m.depths);
    json.field("depth_block", m.depth_block);
    const BorderBands& b = m.bands;
    json.key("bands").begin_object().field("first_row", b.first_row).field("last_row", b.last_row);
    json.field("first_column", b.first_column).field("last_column", b.last_column);
    json.field("first_plane", b.first_plane).field("last_plane", b.last_plane).field("interior", b.interior);
    return json.end().end().take();
}

int64_t heatmap_scale(const MismatchMap& m) {
    return std::clamp<int64_t>(256 / std::max(m.grid_rows, m.grid_cols), 1, 16);
}

RgbImage map_heatmap(const std::vector<const MismatchMap*>& maps) {
    if (maps.empty()) return {};
    int64_t width = 0, height = kHeatmapGap * static_cast<int64_t>(maps.size() - 1);
    for (const MismatchMap* m : maps) {
        width = std::max(width, m->grid_cols * heatmap_scale(*m));
        height += m->grid_rows * heatmap_scale(*m);
    }
    RgbImage image(width, height, 128);
    int64_t top = 0;
    for (const MismatchMap* m : maps) {
        draw_panel(*m, top, image);
        top += m->grid_rows * heatmap_scale(*m) + kHeatmapGap;
    }
    return image;
}

}  // namespace irlint
