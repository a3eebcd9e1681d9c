#pragma once
// Memory for the pieces of one parsed file, given back at once. A large IR's document tree and model are
// tens of MB in small pieces: allocated one by one and touched a 4 KB page at a time, their page faults
// were half the time of a check. A chunk of at least kHugeChunk bytes is mapped on its own, asks for
// transparent huge pages, and has its pages brought in a MB ahead of use with one call each; smaller
// chunks come from malloc. Nothing is freed before the arena is.

#include <cstddef>
#include <memory_resource>
#include <vector>

namespace irlint {

class PageArena : public std::pmr::memory_resource {
public:
    // `expected` sizes the first mapping; later ones double.
    explicit PageArena(size_t expected = 0);
    ~PageArena() override;
    PageArena(const PageArena&) = delete;
    PageArena& operator=(const PageArena&) = delete;

    static constexpr size_t kHugeChunk = size_t{4} << 20;

private:
    void* do_allocate(size_t bytes, size_t alignment) override;
    void do_deallocate(void*, size_t, size_t) override {}
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

    void map_chunk(size_t at_least);
    void populate_ahead();

    static constexpr size_t kPopulateStep = size_t{1} << 20;

    struct Chunk {
        void* base;
        size_t size;
        bool mapped;  // by mmap, else by malloc
    };
    std::vector<Chunk> chunks_;
    size_t next_size_;
    char* next_ = nullptr;
    char* end_ = nullptr;
    char* populated_ = nullptr;  // the current chunk's pages up to here are in memory
};

}  // namespace irlint
