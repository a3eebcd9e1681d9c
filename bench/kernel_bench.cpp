// Google Benchmark of irlint's pooling kernels on the cases bench/kernel_cases.py writes: one
// benchmark per case and thread count, on the very .npy inputs the PyTorch side times.
//
//   kernel_bench CASES_DIR [google benchmark flags]
//
// CASES_DIR/cases.tsv holds one case a line: name, op (AvgPool-14, MaxPool-8, AdaptiveAvgPool-8, ...),
// attributes (key=value;...), input file, output_size (adaptive pools; "-" otherwise).

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "exec/io/npy.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "rules/pool_attrs.hpp"

namespace {

struct Case {
    std::string name;
    irlint::PoolOp op;
    irlint::PoolingDesc desc;
    irlint::Tensor input;
    std::vector<int64_t> output_size;
};

std::optional<irlint::PoolOp> parse_op(const std::string& text) {
    const auto dash = text.rfind('-');
    if (dash == std::string::npos) return std::nullopt;
    const auto version = irlint::parse_int(text.substr(dash + 1));
    if (!version) return std::nullopt;
    auto op = irlint::pool_op_for(text.substr(0, dash), static_cast<int>(*version));
    if (op) op->version = static_cast<int>(*version);
    return op;
}

std::vector<int64_t> parse_ints(const std::string& text) {
    std::vector<int64_t> out;
    for (const auto& part : irlint::split(text, ','))
        if (auto v = irlint::parse_int(part)) out.push_back(*v);
    return out;
}

bool load_case(const std::string& dir, const std::string& line, Case& c) {
    const auto fields = irlint::split(line, '\t');
    if (fields.size() != 5) return false;
    const auto op = parse_op(std::string(fields[1]));
    if (!op) return false;
    std::vector<irlint::Attr> attrs;  // views into `line`, which outlives the parse
    for (const auto& kv : irlint::split(fields[2], ';')) {
        const auto eq = kv.find('=');
        if (eq != std::string_view::npos) attrs.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    const irlint::ParsedAttrs parsed = irlint::parse_pool_attrs(*op, attrs);
    if (!parsed.usable()) return false;
    irlint::NpyRead read = irlint::read_npy(dir + "/" + std::string(fields[3]));
    if (!read.tensor) {
        std::cerr << fields[3] << ": " << read.error << "\n";
        return false;
    }
    irlint::Tensor owned(read.tensor->type(), read.tensor->shape());
    std::memcpy(owned.mutable_bytes(), read.tensor->bytes(), read.tensor->byte_size());
    c = Case{std::string(fields[0]), *op, parsed.desc, std::move(owned),
             fields[4] == "-" ? std::vector<int64_t>{} : parse_ints(std::string(fields[4]))};
    return true;
}

void run_case(benchmark::State& state, const Case* c, int threads) {
    const irlint::KernelOptions options{threads};
    for (auto _ : state) {
        auto result = c->op.is_adaptive() ? irlint::run_adaptive_pool(c->op, c->desc, c->input, c->output_size, options)
                                          : irlint::run_pool(c->op, c->desc, c->input, options);
        if (!result.ok()) {
            state.SkipWithError(result.error.c_str());
            break;
        }
        benchmark::DoNotOptimize(result.outputs[0].bytes());
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: kernel_bench CASES_DIR [benchmark flags]\n");
        return 2;
    }
    const std::string dir = argv[1];
    std::ifstream manifest(dir + "/cases.tsv");
    if (!manifest) {
        std::fprintf(stderr, "%s/cases.tsv: cannot read\n", dir.c_str());
        return 2;
    }
    std::vector<std::unique_ptr<Case>> cases;
    for (std::string line; std::getline(manifest, line);) {
        if (line.empty() || line[0] == '#') continue;
        auto c = std::make_unique<Case>();
        if (!load_case(dir, line, *c)) {
            std::fprintf(stderr, "cases.tsv: cannot use the line: %s\n", line.c_str());
            return 2;
        }
        cases.push_back(std::move(c));
    }
    for (const auto& c : cases)
        for (int threads : {1, 2})
            benchmark::RegisterBenchmark((c->name + "/threads:" + std::to_string(threads)).c_str(), run_case, c.get(),
                                         threads)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
    argv[1] = argv[0];
    int rest = argc - 1;
    benchmark::Initialize(&rest, argv + 1);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
