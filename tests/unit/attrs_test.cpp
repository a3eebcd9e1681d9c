#include <doctest/doctest.h>

#include <algorithm>

#include "rules/pool_attrs.hpp"

using namespace irlint;

namespace {
const PoolOp avg1{PoolKind::avg_pool, 1};
const PoolOp max1{PoolKind::max_pool, 1};
const PoolOp max8{PoolKind::max_pool, 8};
const PoolOp amax{PoolKind::adaptive_max_pool, 8};

bool has_issue(const ParsedAttrs& p, Severity s, const std::string& text) {
    return std::any_of(p.issues.begin(), p.issues.end(), [&](const AttrIssue& i) {
        return i.severity == s && i.message.find(text) != std::string::npos;
    });
}
}  // namespace

TEST_CASE("attributes are read into the description") {
    auto p = parse_pool_attrs(avg1, {{"kernel", "3, 3"}, {"strides", "2,2"}, {"pads_begin", "1,1"},
                                     {"pads_end", "0,1"}, {"exclude-pad", "False"}, {"auto_pad", "SAME_LOWER"},
                                     {"rounding_type", "Ceil"}});
    CHECK(p.usable());
    CHECK(p.issues.empty());
    CHECK(p.desc.kernel == std::vector<int64_t>{3, 3});
    CHECK(p.desc.pads_end == std::vector<int64_t>{0, 1});
    CHECK_FALSE(p.desc.exclude_pad);
    CHECK(p.desc.auto_pad == PadType::same_lower);
    CHECK(p.desc.rounding == RoundingType::ceil);
}

TEST_CASE("defaults: exclude-pad true, floor, explicit, i64 indices") {
    auto p = parse_pool_attrs(max8, {{"kernel", "2,2"}, {"strides", "1,1"}});
    CHECK(p.usable());
    CHECK(p.desc.rounding == RoundingType::floor);
    CHECK(p.desc.auto_pad == PadType::explicit_pads);
    CHECK(p.desc.index_type == ElementType::i64);
    CHECK(parse_pool_attrs(avg1, {{"kernel", "2"}}).desc.exclude_pad);
}

TEST_CASE("malformed values are errors") {
    CHECK(has_issue(parse_pool_attrs(max1, {{"kernel", "3,,3"}}), Severity::error, "empty field"));
    CHECK(has_issue(parse_pool_attrs(max1, {{"kernel", "3,x"}}), Severity::error, "'x' is not an integer"));
    CHECK(has_issue(parse_pool_attrs(max1, {{"kernel", "2.5,2"}}), Severity::error, "not an integer"));
    CHECK(has_issue(parse_pool_attrs(max1, {{"kernel", "2"}, {"auto_pad", "same"}}), Severity::error,
                    "not one of explicit"));
    CHECK(has_issue(parse_pool_attrs(max1, {{"kernel", "2"}, {"rounding_type", "round"}}), Severity::error,
                    "not one of floor"));
    CHECK(has_issue(parse_pool_attrs(max8, {{"kernel", "2"}, {"axis", "one"}}), Severity::error, "axis"));
    CHECK(has_issue(parse_pool_attrs(max1, {{"strides", "1"}}), Severity::error, "kernel is missing"));
    CHECK(has_issue(parse_pool_attrs(amax, {{"index_element_type", "i16"}}), Severity::error, "i32 or i64"));
    CHECK_FALSE(parse_pool_attrs(amax, {{"index_element_type", "i16"}}).usable());
}

TEST_CASE("what OpenVINO tolerates is a warning") {
    auto floats = parse_pool_attrs(max1, {{"kernel", "2.0,2.0"}});
    CHECK(floats.usable());
    CHECK(floats.desc.kernel == std::vector<int64_t>{2, 2});
    CHECK(has_issue(floats, Severity::warning, "integers as floats"));
    auto extra = parse_pool_attrs(max1, {{"kernel", "2"}, {"dilations", "1"}, {"axis", "0"}});
    CHECK(extra.usable());
    CHECK(has_issue(extra, Severity::warning, "dilations=\"1\" is not defined for MaxPool-1"));
    CHECK(has_issue(extra, Severity::warning, "axis=\"0\" is not defined"));
    auto bad_bool = parse_pool_attrs(avg1, {{"kernel", "2"}, {"exclude-pad", "yes"}});
    CHECK(bad_bool.usable());
    CHECK(bad_bool.desc.exclude_pad);  // the default stays
    CHECK(has_issue(bad_bool, Severity::warning, "not a boolean"));
    auto index16 = parse_pool_attrs(max8, {{"kernel", "2"}, {"index_element_type", "i16"}});
    CHECK(index16.usable());
    CHECK(has_issue(index16, Severity::warning, "i32 or i64"));
}

TEST_CASE("index_element_type reads lowercase names in any case") {
    CHECK(parse_pool_attrs(max8, {{"kernel", "2"}, {"index_element_type", "I32"}}).desc.index_type == ElementType::i32);
    CHECK_FALSE(parse_pool_attrs(max8, {{"kernel", "2"}, {"index_element_type", "FP32"}}).usable());
}

TEST_CASE("each version reads its own attributes") {
    auto names = pool_attr_names(PoolOp{PoolKind::avg_pool, 16});
    CHECK(std::find(names.begin(), names.end(), "dilations") != names.end());
    CHECK(std::find(names.begin(), names.end(), "exclude-pad") != names.end());
    CHECK(pool_attr_names(PoolOp{PoolKind::adaptive_avg_pool, 8}).empty());
    CHECK(pool_attr_names(amax) == std::vector<std::string>{"index_element_type"});
}

TEST_CASE("a trailing comma is accepted, as OpenVINO's reader does") {
    auto p = parse_pool_attrs(max1, {{"kernel", "2,2,"}});
    CHECK(p.usable());
    CHECK(p.desc.kernel == std::vector<int64_t>{2, 2});
    CHECK_FALSE(parse_pool_attrs(max1, {{"kernel", ",2"}}).usable());
}

TEST_CASE("a list longer than any pooling layer can use is refused before it is split") {
    std::string kernel = "1";
    for (int i = 0; i < 64; ++i) kernel += ",1";  // 65 values
    const auto p = parse_pool_attrs(max1, {{"kernel", kernel}, {"strides", "1"}});
    CHECK_FALSE(p.usable());
    CHECK(has_issue(p, Severity::error, "has more than 64 values; a pooling layer has at most 3 spatial axes"));
    CHECK(has_issue(p, Severity::error, "(129 characters)"));  // the value is shortened in the message
    CHECK(p.desc.kernel.empty());
    std::string sixty_four = "1";
    for (int i = 0; i < 63; ++i) sixty_four += ",1";
    CHECK(parse_pool_attrs(max1, {{"kernel", sixty_four}}).desc.kernel.size() == 64);
}
