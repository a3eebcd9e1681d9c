// libFuzzer target: any bytes as a --baseline file. A baseline the reader accepts comes back the same after
// it is written again; a refused one says why.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "policy/baseline.hpp"
#include "fuzz_fail.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const auto fingerprints = irlint::parse_baseline(text, error);
    if (!fingerprints) {
        if (error.empty()) fail("a refused baseline without a reason", std::string(text));
        return 0;
    }
    const std::string written = irlint::baseline_json(*fingerprints);
    const auto again = irlint::parse_baseline(written, error);
    if (!again) fail("the writer wrote a baseline the reader refuses", error);
    if (*again != *fingerprints) fail("a baseline changed in a round trip", written);
    return 0;
}
