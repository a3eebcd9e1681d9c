// The helpers that several layers share, each written once: integer rounding, the taps of a window, the
// lowest value of an element type, the plane grid of the diagnosis, globs, whole-file reads and the glibc
// tunable of a process irlint starts.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/element_type.hpp"
#include "core/glibc_tunables.hpp"
#include "core/int_math.hpp"
#include "core/read_file.hpp"
#include "core/text.hpp"
#include "exec/diagnosis/plane_grid.hpp"
#include "core/half.hpp"
#include "exec/kernels/taps.hpp"

using namespace irlint;

TEST_CASE("floor_div rounds toward negative infinity, ceil_div up") {
    CHECK(floor_div(7, 2) == 3);
    CHECK(floor_div(-7, 2) == -4);
    CHECK(floor_div(7, -2) == -4);
    CHECK(floor_div(-6, 2) == -3);
    CHECK(ceil_div(7, 2) == 4);
    CHECK(ceil_div(8, 2) == 4);
    CHECK(ceil_div(0, 5) == 0);
}

TEST_CASE("taps_within: the half-open range of taps whose positions lie in [lo, hi)") {
    // Kernel 3, dilation 2, window at -3: positions -3, -1, 1. On [0, 4) only the last tap lands.
    const TapRange data = taps_within(-3, 3, 2, 0, 4);
    CHECK(data.first == 2);
    CHECK(data.last == 3);
    CHECK(data.count() == 1);
    // With 2 of padding in front, the padded input [-2, 6) holds taps 1 and 2.
    CHECK(taps_within(-3, 3, 2, -2, 6).first == 1);
    CHECK(taps_within(-3, 3, 2, -2, 6).count() == 2);
    // A window entirely past the input holds none.
    CHECK(taps_within(5, 2, 1, 0, 4).count() == 0);
    CHECK(taps_within(0, 4, 1, 0, 10).count() == 4);
}

TEST_CASE("lowest_value: f16 and bf16 have their own, not float's") {
    CHECK(lowest_value(ElementType::f16) == -65504.0);
    CHECK(lowest_value(ElementType::bf16) == static_cast<double>(bf16_to_float(0xFF7F)));
    CHECK(lowest_value(ElementType::f32) == static_cast<double>(std::numeric_limits<float>::lowest()));
    CHECK(lowest_value(ElementType::i8) == -128.0);
    CHECK(lowest_value(ElementType::u8) == 0.0);
    CHECK(lowest_value(ElementType::f64) == std::numeric_limits<double>::lowest());
}

TEST_CASE("plane_grid: the spatial plane of an output, and its blocks") {
    const PlaneGrid g4 = plane_grid({2, 3, 5, 7});
    CHECK(g4.rows == 5);
    CHECK(g4.cols == 7);
    CHECK(g4.leading_axes == 2);
    CHECK(g4.cell_count() == 35);
    const PlaneGrid g3 = plane_grid({1, 4, 9});
    CHECK(g3.rows == 1);
    CHECK(g3.cols == 9);
    CHECK(g3.leading_axes == 2);
    const PlaneGrid g5 = plane_grid({1, 2, 3, 4, 5});
    CHECK(g5.rows == 4);
    CHECK(g5.cols == 5);
    CHECK(g5.leading_axes == 3);
    PlaneGrid blocks = plane_grid({1, 1, 200, 130});
    cut_into_blocks(blocks, 4, 3);
    CHECK(blocks.grid_rows == 50);
    CHECK(blocks.grid_cols == 44);
    CHECK(blocks.cell_of(199, 129) == 49 * 44 + 43);
    // Element 1 * 26000 + 7 * 130 + 5 lies in the second plane at row 7, column 5: block (1, 1).
    CHECK(blocks.cell_of_element(26000 + 7 * 130 + 5) == 1 * 44 + 1);
}

TEST_CASE("glob_match: fnmatch over the whole text") {
    CHECK(glob_match("*.xml", "a/b/model.xml"));
    CHECK(glob_match("models/*", "models/x.onnx"));
    CHECK_FALSE(glob_match("*.xml", "model.onnx"));
    CHECK(glob_match("m?del.[ox]*", "model.onnx"));
    CHECK_FALSE(glob_match("model", "model.xml"));
}

TEST_CASE("read_whole_file: the bytes, or nullopt when the file cannot be opened") {
    const auto path = std::filesystem::temp_directory_path() / ("irlint-read-" + std::to_string(::getpid()));
    {
        std::ofstream out(path, std::ios::binary);
        out << std::string("a\0b\n", 4);
    }
    const auto bytes = read_whole_file(path.string());
    REQUIRE(bytes);
    CHECK(*bytes == std::string("a\0b\n", 4));
    std::filesystem::remove(path);
    CHECK_FALSE(read_whole_file(path.string()));
}

TEST_CASE("glibc tunables are added to GLIBC_TUNABLES, or the variable added, and the user's own settings stand") {
    using Env = std::vector<std::string>;
    const auto with = [](std::vector<const char*> env) {
        env.push_back(nullptr);
        return with_glibc_tunables(env.data(), {"glibc.malloc.hugetlb=1", "glibc.malloc.tcache_count=512"});
    };
    const std::string both = "glibc.malloc.hugetlb=1:glibc.malloc.tcache_count=512";
    CHECK(with({"PATH=/bin", "HOME=/h"}) == Env{"PATH=/bin", "HOME=/h", "GLIBC_TUNABLES=" + both});
    CHECK(with({"GLIBC_TUNABLES=glibc.malloc.arena_max=2", "A=b"}) ==
          Env{"GLIBC_TUNABLES=glibc.malloc.arena_max=2:" + both, "A=b"});
    CHECK(with({"GLIBC_TUNABLES="}) == Env{"GLIBC_TUNABLES=" + both});
    CHECK(with({"A=b", "GLIBC_TUNABLES=glibc.malloc.hugetlb=0"}) ==
          Env{"A=b", "GLIBC_TUNABLES=glibc.malloc.hugetlb=0:glibc.malloc.tcache_count=512"});
    CHECK(with({"GLIBC_TUNABLES=glibc.malloc.tcache_count=7:glibc.malloc.hugetlb=0"}) ==
          Env{"GLIBC_TUNABLES=glibc.malloc.tcache_count=7:glibc.malloc.hugetlb=0"});
    CHECK(with({}) == Env{"GLIBC_TUNABLES=" + both});
}
