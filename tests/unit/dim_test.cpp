#include <doctest/doctest.h>

#include <limits>

#include "core/checked_int.hpp"
#include "core/dim.hpp"

using namespace irlint;

TEST_CASE("dims print as OpenVINO prints them") {
    CHECK(Dim(5).str() == "5");
    CHECK(Dim(-1).str() == "?");
    CHECK(Dim(2, 10).str() == "2..10");
    CHECK(Dim(2, -1).str() == "2..");
    CHECK(Dim(0, 10).str() == "..10");
}

TEST_CASE("a shape of more dims than irlint reads is refused") {
    std::string text = "1";
    for (size_t i = 1; i < kMaxShapeRank; ++i) text += ",1";
    std::string error;
    const auto largest = parse_shape(text, &error);
    REQUIRE(largest.has_value());
    CHECK(largest->rank() == kMaxShapeRank);
    CHECK_FALSE(parse_shape(text + ",1", &error).has_value());
    CHECK(error == "more than 1024 dims; irlint reads shapes up to that rank");
}

TEST_CASE("CheckedInt: a formula past int64 is invalid at its end") {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    CHECK((CheckedInt(4) + kMax).get() == std::nullopt);
    CHECK((CheckedInt(kMax) - 1 + 1).get() == kMax);
    CHECK(((CheckedInt(kMax) + 1) - 5).get() == std::nullopt);  // invalid stays invalid
    CHECK((CheckedInt(int64_t{1} << 32) * (int64_t{1} << 31)).get() == std::nullopt);
    CHECK((CheckedInt(-7) / 2).get() == -3);  // truncates toward zero
    CHECK((CheckedInt(-7) % 2).get() == -1);
    CHECK((CheckedInt(1) / 0).get() == std::nullopt);
    CHECK((CheckedInt(std::numeric_limits<int64_t>::min()) / -1).get() == std::nullopt);
    CHECK((CheckedInt(std::numeric_limits<int64_t>::min()) % -1).get() == std::nullopt);
    CHECK(!CheckedInt::invalid().valid());
}
