#include "core/deadline.hpp"

namespace irlint {

namespace {
thread_local std::optional<std::chrono::steady_clock::time_point> t_deadline;
thread_local unsigned t_calls = 0;
}  // namespace

void set_thread_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) {
    t_deadline = deadline;
    t_calls = 0;
}

void check_deadline() {
    if (!t_deadline || ++t_calls % 64 != 0) return;
    if (std::chrono::steady_clock::now() >= *t_deadline) throw DeadlineExceeded("the time budget is spent");
}

}  // namespace irlint
