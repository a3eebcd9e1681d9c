#pragma once
// The keys of the JSON check report (docs/cli.md), named once: the JSON reporter writes them and the report
// reader of `irlint merge` reads them.

#include <string_view>

namespace irlint::report_key {

// The report.
inline constexpr std::string_view tool = "tool", version = "version", files = "files", summary = "summary",
                                  shard = "shard";
// A file of `files`.
inline constexpr std::string_view path = "path", layers = "layers", checked = "checked",
                                  checked_by_invariants = "checked_by_invariants", diagnostics = "diagnostics",
                                  checked_layers = "checked_layers", op_types = "op_types";
// A finding of `diagnostics`.
inline constexpr std::string_view severity = "severity", rule = "rule", message = "message", line = "line",
                                  layer_id = "layer_id", layer_name = "layer_name", layer_type = "layer_type",
                                  fingerprint = "fingerprint";
// A finding's `consequence` (contract v4): its `kind`, the layer `by` (an object of id, name, type), or the
// `outputs` it reaches and through how many `layers`.
inline constexpr std::string_view consequence = "consequence", kind = "kind", by = "by", outputs = "outputs";
// A layer of `checked_layers` (and `line`); `how` is one of the two values below.
inline constexpr std::string_view id = "id", name = "name", type = "type", how = "how";
inline constexpr std::string_view how_full = "full", how_invariants = "invariants";
// `summary` (and `files`, `layers`, `checked`).
inline constexpr std::string_view errors = "errors", warnings = "warnings", notes = "notes";
// `shard`.
inline constexpr std::string_view index = "index", count = "count", run = "run";

}  // namespace irlint::report_key
