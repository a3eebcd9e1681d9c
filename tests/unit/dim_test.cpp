#include <doctest/doctest.h>

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
