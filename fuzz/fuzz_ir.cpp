// libFuzzer target: any bytes as an IR .xml, through the reader and every rule, then `infer --reshape` of
// its inputs (the first dim made dynamic, or doubled plus one: bodies, values and symbols inferred again). A
// fixed .bin lies beside the fuzzed model's path, so that Const ranges are checked and adaptive output_size
// values are read.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "ir/reader.hpp"
#include "rules/engine.hpp"
#include "rules/reshape.hpp"

namespace {

std::string& model_path() {
    static std::string path;
    return path;
}

// Sizes a pool can use, and values that are no sizes at all.
void write_bin(const std::filesystem::path& bin) {
    const int64_t values[] = {7, 7, 2, 3, 4, 1, -1, std::numeric_limits<int64_t>::max()};
    std::ofstream(bin, std::ios::binary).write(reinterpret_cast<const char*>(values), sizeof values);
}

// New shapes for the main graph's Parameters: each one's first dim dynamic, or (odd inputs) 2n+1.
irlint::NewInputs new_inputs(const irlint::ModelReport& report, bool dynamic) {
    irlint::NewInputs out;
    for (const irlint::LayerShapes& s : report.layers) {
        if (s.graph != 0 || s.layer->kind != irlint::LayerKind::parameter || s.inferred.empty()) continue;
        irlint::Shape shape = s.inferred[0];
        if (!shape.rank_dynamic && !shape.dims.empty()) {
            const irlint::Dim& d = shape.dims[0];
            shape.dims[0] = dynamic || !d.is_static() || d.length() > (1 << 20) ? irlint::Dim::dynamic()
                                                                                   : irlint::Dim(2 * d.length() + 1);
        }
        out.emplace(std::string(s.layer->name), std::move(shape));
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char*** argv) {
    const auto dir = std::filesystem::absolute((*argv)[0]).parent_path() / "fuzz_ir_model";
    std::filesystem::create_directories(dir);
    write_bin(dir / "model.bin");
    model_path() = (dir / "model.xml").string();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const irlint::ReadResult read = irlint::read_model_from_memory(text, model_path());
    if (!read.model) return 0;
    const irlint::ModelReport report = irlint::check_model(*read.model);
    irlint::reshape_model(*read.model, new_inputs(report, size % 2 == 0));
    return 0;
}
