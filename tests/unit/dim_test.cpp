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
