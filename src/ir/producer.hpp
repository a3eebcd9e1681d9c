#pragma once
// Reads the producer metadata at the end of an IR file into Model::producer.

#include <pugixml.hpp>

#include "ir/model.hpp"

namespace irlint {

// Fills `producer` from the children of a net-level <rt_info> or <meta_data> element, and notes a POT
// <quantization_parameters> beside them.
void read_producer_entries(const pugi::xml_node& section, Producer& producer);

}  // namespace irlint
