#pragma once
// A wall-clock budget for the work of the current thread (one file of a batch check). The long loops of
// the reader and the rules call check_deadline(), which throws once the budget is spent, so that a
// pathological file costs its budget and no more.

#include <chrono>
#include <optional>
#include <stdexcept>

namespace irlint {

struct DeadlineExceeded : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Sets (or, with nullopt, clears) the budget of the calling thread.
void set_thread_deadline(std::optional<std::chrono::steady_clock::time_point> deadline);

// Throws DeadlineExceeded when the calling thread's budget is spent. Cheap: it reads the clock only on
// every 64th call.
void check_deadline();

// Sets a deadline for one scope and clears it on the way out.
class ScopedDeadline {
public:
    explicit ScopedDeadline(std::optional<std::chrono::steady_clock::time_point> deadline) {
        set_thread_deadline(deadline);
    }
    ~ScopedDeadline() { set_thread_deadline(std::nullopt); }
    ScopedDeadline(const ScopedDeadline&) = delete;
    ScopedDeadline& operator=(const ScopedDeadline&) = delete;
};

}  // namespace irlint
