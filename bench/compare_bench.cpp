// Google Benchmark of the comparison `irlint run` makes, against the least it must do: read both arrays
// once. Two f32 arrays of 512 MiB each (in memory, as mapped .npy files are after the first read):
//   read_both            a sum over every 64-bit word of both arrays (the memory traffic alone)
//   compare/identical    compare_tensors on equal arrays (every error 0)
//   compare/close        compare_tensors where every element differs within the tolerance
//   compare/close/2      the same on two threads
//   pieces/close         PiecewiseComparison fed batches of 64K elements, as `irlint run --expect` compares
//                        the outputs its kernels write
//
//   compare_bench [MiB] [google benchmark flags]

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "exec/compare/compare.hpp"

namespace {

irlint::Tensor filled(size_t elements, float scale) {
    irlint::Tensor t = irlint::Tensor::uninitialized(irlint::ElementType::f32, {static_cast<int64_t>(elements)});
    float* p = t.mutable_data<float>();
    uint32_t state = 12345;
    for (size_t i = 0; i < elements; ++i) {
        state = state * 1664525u + 1013904223u;
        p[i] = static_cast<float>(state >> 8) * 0x1p-24f * scale;
    }
    return t;
}

uint64_t sum_words(const std::byte* p, size_t bytes) {
    const size_t words = bytes / sizeof(uint64_t);
    uint64_t sum[4]{};
    for (size_t i = 0; i + 4 <= words; i += 4)
        for (size_t k = 0; k < 4; ++k) {
            uint64_t w;
            std::memcpy(&w, p + (i + k) * sizeof(uint64_t), sizeof w);
            sum[k] += w;
        }
    return sum[0] + sum[1] + sum[2] + sum[3];
}

}  // namespace

int main(int argc, char** argv) {
    size_t mib = 512;
    if (argc > 1 && argv[1][0] != '-') {
        mib = std::strtoull(argv[1], nullptr, 10);
        argv[1] = argv[0];
        ++argv, --argc;
    }
    const size_t elements = mib * (size_t{1} << 20) / sizeof(float);
    const irlint::Tensor actual = filled(elements, 1.0f);
    irlint::Tensor same = irlint::Tensor::uninitialized(irlint::ElementType::f32, {static_cast<int64_t>(elements)});
    std::memcpy(same.mutable_bytes(), actual.bytes(), actual.byte_size());
    irlint::Tensor close = irlint::Tensor::uninitialized(irlint::ElementType::f32, {static_cast<int64_t>(elements)});
    for (size_t i = 0; i < elements; ++i) close.mutable_data<float>()[i] = actual.data<float>()[i] * (1 + 0x1p-20f) + 1e-9f;
    const irlint::Tolerance tolerance = irlint::default_tolerance(irlint::ElementType::f32);

    benchmark::RegisterBenchmark("read_both", [&](benchmark::State& state) {
        for (auto _ : state) {
            benchmark::DoNotOptimize(sum_words(actual.bytes(), actual.byte_size()));
            benchmark::DoNotOptimize(sum_words(same.bytes(), same.byte_size()));
        }
    })->Unit(benchmark::kMillisecond)->UseRealTime();
    struct Case {
        const char* name;
        const irlint::Tensor* expected;
        int threads;
    };
    for (const Case& c : {Case{"compare/identical", &same, 1}, Case{"compare/close", &close, 1},
                          Case{"compare/close/2", &close, 2}})
        benchmark::RegisterBenchmark(c.name, [&, c](benchmark::State& state) {
            for (auto _ : state) {
                const irlint::Comparison result = irlint::compare_tensors(actual, *c.expected, tolerance, c.threads);
                if (result.mismatches != 0) state.SkipWithError("the arrays should match");
                benchmark::DoNotOptimize(result.max_abs_err);
            }
        })->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark("pieces/close", [&](benchmark::State& state) {
        constexpr size_t kBatch = size_t{1} << 16;
        for (auto _ : state) {
            irlint::PiecewiseComparison comparison(close, tolerance);
            for (size_t first = 0; first < elements; first += kBatch)
                comparison.add(actual.bytes() + first * sizeof(float), first, std::min(kBatch, elements - first));
            if (comparison.result().mismatches != 0) state.SkipWithError("the arrays should match");
        }
    })->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
