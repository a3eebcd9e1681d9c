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

TEST_CASE("a sequence's or optional's shape is its tensors' dims, and compatible only with its own kind") {
    Shape seq{false, {Dim(2), Dim::dynamic()}, ValueKind::sequence};
    CHECK(seq.str() == "seq([2,?])");
    CHECK(seq.as(ValueKind::optional_sequence).str() == "opt(seq([2,?]))");
    CHECK(Shape::dynamic_rank().as(ValueKind::optional).str() == "opt([...])");
    CHECK(seq.compatible(Shape{false, {Dim(2), Dim(3)}, ValueKind::sequence}));
    CHECK_FALSE(seq.compatible(Shape{false, {Dim(2), Dim(3)}}));
    CHECK_FALSE(seq.compatible(Shape::dynamic_rank().as(ValueKind::optional)));
    // A tensor of unknown rank is what is inferred for a value nothing is known of: it may be anything.
    CHECK(seq.compatible(Shape::dynamic_rank()));
    CHECK(Shape::dynamic_rank().compatible(seq));
    CHECK(value_kind_name(ValueKind::optional_sequence) == "optional sequence");
}
