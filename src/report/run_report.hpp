#pragma once
// Renders what `irlint run` computed and compared: text for people, JSON per the contract.

#include <string>
#include <vector>

#include "exec/layer_run.hpp"
#include "report/report.hpp"

namespace irlint {

std::string run_text(const LayerRun& run, const Palette& palette);
std::string run_json(const LayerRun& run);

// `run --data DIR`: every layer's text, then a table with one row per layer.
std::string runs_text(const std::vector<LayerRun>& runs, const Palette& palette);
std::string runs_json(const std::vector<LayerRun>& runs);

// `run --report`: one self-contained HTML page; `data_run` adds the table of layers at the top.
std::string runs_html(const std::vector<LayerRun>& runs, std::string_view model_path, bool data_run);

}  // namespace irlint
