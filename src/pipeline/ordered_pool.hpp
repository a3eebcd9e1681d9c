#pragma once
// Checks files on a pool of threads and hands the results over in file order, so that the report is the
// same for every number of threads and can be written while the check goes on.

#include <cstddef>
#include <functional>

#include "report/report.hpp"

namespace irlint {

struct OrderedPool {
    size_t threads;
    // How many files may be finished but not yet handed over (waiting for an earlier, slower file): memory
    // stays bounded by it and the files in flight, whatever the number of files.
    size_t window;
};

// Runs check(i) for every i in [0, count) on pool.threads threads and calls take(result) on the calling
// thread for i = 0, 1, 2, ... in that order. While it waits, it calls idle() about ten times a second.
// Once cancelled() is true no new file is started: the files already started are still handed over.
// Returns how many results were handed over.
size_t run_ordered(const OrderedPool& pool, size_t count, const std::function<FileResult(size_t)>& check,
                   const std::function<void(FileResult&)>& take, const std::function<void()>& idle,
                   const std::function<bool()>& cancelled);

}  // namespace irlint
