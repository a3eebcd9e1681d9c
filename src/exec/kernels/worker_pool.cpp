#include "exec/kernels/worker_pool.hpp"

#include <chrono>

namespace irlint::kernels {

namespace {

// Polls `done` for up to `budget`; true when it held before the time ran out.
template <class Done>
bool poll_for(std::chrono::microseconds budget, Done&& done) {
    const auto until = std::chrono::steady_clock::now() + budget;
    for (int i = 1;; ++i) {
        if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) return done();
    }
}

// How long the caller polls for the last part before it blocks. Helpers do not poll: a job small enough
// for waking them to cost more than it saves runs on the calling thread alone (threads_for).
constexpr std::chrono::microseconds kCallerPoll{1000};

}  // namespace

WorkerPool& WorkerPool::shared() {
    static WorkerPool pool;
    return pool;
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto& t : helpers_) t.join();
}

void WorkerPool::grow(size_t helpers) {
    while (helpers_.size() < helpers) helpers_.emplace_back([this] { serve(); });
}

// Runs one part of the current job with the lock released; false when no part is left.
bool WorkerPool::take_part(std::unique_lock<std::mutex>& lock) {
    if (!job_ || next_part_ >= parts_) return false;
    const int part = next_part_++;
    const auto* job = job_;
    lock.unlock();
    (*job)(part);
    lock.lock();
    if (--unfinished_ == 0) work_done_.notify_all();
    return true;
}

void WorkerPool::serve() {
    uint64_t seen = 0;
    auto new_work = [&] { return stopping_.load() || published_.load(std::memory_order_acquire) != seen; };
    for (;;) {
        std::unique_lock lock(mutex_);
        work_ready_.wait(lock, new_work);
        if (stopping_) return;
        seen = published_.load();
        while (take_part(lock)) {
        }
    }
}

void WorkerPool::run(int parts, const std::function<void(int)>& job) {
    if (parts <= 1) {
        if (parts == 1) job(0);
        return;
    }
    std::lock_guard one_job(job_mutex_);
    std::unique_lock lock(mutex_);
    grow(static_cast<size_t>(parts - 1));
    job_ = &job;
    next_part_ = 1;
    parts_ = parts;
    unfinished_ = parts;
    published_.fetch_add(1, std::memory_order_release);
    work_ready_.notify_all();
    lock.unlock();
    job(0);
    lock.lock();
    if (--unfinished_ == 0) work_done_.notify_all();
    while (take_part(lock)) {
    }
    lock.unlock();
    poll_for(kCallerPoll, [this] { return unfinished_.load(std::memory_order_acquire) == 0; });
    lock.lock();
    work_done_.wait(lock, [this] { return unfinished_ == 0; });
    job_ = nullptr;
}

}  // namespace irlint::kernels
