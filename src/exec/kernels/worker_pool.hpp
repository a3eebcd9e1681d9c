#pragma once
// Threads that live for the whole program and take parts of a job: a kernel call that lasts a fraction
// of a millisecond must not pay for starting threads. They are started on the first job that wants them
// and sleep between jobs; the caller polls a short while for the last part before it blocks, since waking
// it costs tens of microseconds on a virtual machine.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace irlint::kernels {

class WorkerPool {
public:
    static WorkerPool& shared();

    // Runs job(0) .. job(parts - 1), part 0 on the calling thread, and returns when all are done. One job
    // runs at a time; callers from several threads take turns.
    void run(int parts, const std::function<void(int)>& job);

    ~WorkerPool();

private:
    WorkerPool() = default;
    void grow(size_t helpers);
    void serve();
    bool take_part(std::unique_lock<std::mutex>& lock);

    std::mutex job_mutex_;  // one job at a time
    std::mutex mutex_;
    std::condition_variable work_ready_, work_done_;
    std::vector<std::thread> helpers_;
    const std::function<void(int)>* job_ = nullptr;
    int next_part_ = 0, parts_ = 0;
    std::atomic<int> unfinished_{0};
    std::atomic<uint64_t> published_{0};  // jobs published so far: a helper polls it for new work
    std::atomic<bool> stopping_{false};
};

}  // namespace irlint::kernels
