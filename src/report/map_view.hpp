#pragma once
// The three views of a MismatchMap: a block map for the terminal, the JSON object of the run report, and a
// PNG heatmap for CI artifacts.

#include <string>
#include <vector>

#include "exec/diagnosis/mismatch_map.hpp"
#include "report/png.hpp"
#include "report/report.hpp"

namespace irlint {

// At most kMapTextColumns x kMapTextLines characters of Unicode shades, then the bands and channels; every
// line starts with `indent`.
inline constexpr int64_t kMapTextColumns = 64;
inline constexpr int64_t kMapTextLines = 16;
std::string map_text(const MismatchMap& map, const Palette& palette, const std::string& indent);

std::string map_json(const MismatchMap& map);

// One panel per map, top to bottom, kHeatmapGap grey pixel rows apart. Each map cell is a square of
// heatmap_scale(map) pixels: white where nothing mismatches, light orange to dark red as the share of
// mismatching elements grows.
inline constexpr int64_t kHeatmapGap = 8;
int64_t heatmap_scale(const MismatchMap& map);
RgbImage map_heatmap(const std::vector<const MismatchMap*>& maps);

}  // namespace irlint
