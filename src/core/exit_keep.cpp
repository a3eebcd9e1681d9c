#include "core/exit_keep.hpp"

#include <mutex>
#include <vector>

namespace irlint {

void keep_until_exit(std::shared_ptr<const void> object) {
    static std::mutex mutex;
    static auto* const kept = new std::vector<std::shared_ptr<const void>>;
    const std::lock_guard lock(mutex);
    kept->push_back(std::move(object));
}

}  // namespace irlint
