#include "core/page_arena.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <new>

namespace irlint {

namespace {
constexpr size_t kPage = 4096;
constexpr size_t kMinChunk = size_t{256} << 10;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }
}  // namespace

PageArena::PageArena(size_t expected) : next_size_(round_up(std::max(expected, kMinChunk), kPage)) {}

PageArena::~PageArena() {
    for (const Chunk& c : chunks_) {
        if (c.mapped)
            munmap(c.base, c.size);
        else
            std::free(c.base);
    }
}

// Small chunks come from malloc, which hands the same memory to the next file of a batch without new page
// faults; large ones are mapped on their own and may get huge pages.
void PageArena::map_chunk(size_t at_least) {
    const size_t size = round_up(std::max(next_size_, at_least), kPage);
    Chunk chunk{nullptr, size, size >= kHugeChunk};
    if (chunk.mapped) {
        chunk.base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (chunk.base == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        madvise(chunk.base, size, MADV_HUGEPAGE);  // a hint: without huge pages the chunk still works
#endif
    } else {
        chunk.base = std::malloc(size);
        if (!chunk.base) throw std::bad_alloc();
    }
    chunks_.push_back(chunk);
    void* base = chunk.base;
    next_ = static_cast<char*>(base);
    end_ = next_ + size;
    populated_ = chunk.mapped ? next_ : end_;
    next_size_ = size * 2;
}

// Faults in the pages the next allocations will touch, kPopulateStep at a time, with one call: a fault
// per 4 KB page is most of the cost of filling a large arena.
void PageArena::populate_ahead() {
    const auto step_end = (reinterpret_cast<uintptr_t>(next_) + kPopulateStep - 1) / kPopulateStep * kPopulateStep;
    char* until = std::min(end_, reinterpret_cast<char*>(step_end + kPopulateStep));
#ifdef MADV_POPULATE_WRITE
    if (madvise(populated_, static_cast<size_t>(until - populated_), MADV_POPULATE_WRITE) == 0) {
        populated_ = until;
        return;
    }
#endif
    populated_ = end_;  // an older kernel: the pages fault in one by one
}

void* PageArena::do_allocate(size_t bytes, size_t alignment) {
    auto aligned = [&] {
        const auto at = reinterpret_cast<uintptr_t>(next_);
        return reinterpret_cast<char*>((at + alignment - 1) & ~(uintptr_t{alignment} - 1));
    };
    char* p = next_ ? aligned() : nullptr;
    if (!p || static_cast<size_t>(end_ - p) < bytes) {
        map_chunk(bytes + alignment);
        p = aligned();
    }
    next_ = p + bytes;
    if (next_ > populated_) populate_ahead();
    return p;
}

}  // namespace irlint
