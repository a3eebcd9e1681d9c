#pragma once
// A command-line run that exits right after checking its one file need not free that file's model and
// report: tens of thousands of small blocks freed one by one cost a tenth of the check of a large model
// (bench/README.md), and the operating system takes the pages back at once, as compilers do with their
// own trees. What is kept stays reachable from a list that is never destroyed, so a leak checker does not
// count it.

#include <memory>

namespace irlint {

void keep_until_exit(std::shared_ptr<const void> object);

}  // namespace irlint
