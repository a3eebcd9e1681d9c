#include "exec/worker_pool.hpp"

namespace irlint::kernels {

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
    std::unique_lock lock(mutex_);
    for (;;) {
        work_ready_.wait(lock, [this] { return stopping_ || (job_ && next_part_ < parts_); });
        if (stopping_) return;
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
    work_ready_.notify_all();
    lock.unlock();
    job(0);
    lock.lock();
    if (--unfinished_ == 0) work_done_.notify_all();
    while (take_part(lock)) {
    }
    work_done_.wait(lock, [this] { return unfinished_ == 0; });
    job_ = nullptr;
}

}  // namespace irlint::kernels
