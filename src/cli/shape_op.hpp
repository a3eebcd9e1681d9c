#pragma once
// `irlint shape` for the ops of the registry; shape.cpp keeps the pooling ops' own arithmetic and output.

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "ir/model.hpp"

namespace irlint::cli {

// "KEY=VALUE" pairs of --attr (views into `options`); nullopt (and the error printed) for one without its '='.
std::optional<std::vector<Attr>> parse_attr_options(const std::vector<std::string>& options);

// Infers the outputs of o.op (an op type of the registry that is not a pooling op) in opsetN and prints them.
int run_registry_shape(const ShapeOptions& o, int opset);

}  // namespace irlint::cli
