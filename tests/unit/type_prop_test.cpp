// OpenVINO's pooling type_prop tests (src/core/tests/type_prop/{avg_pool,max_pool,adaptive_avg_pool,
// adaptive_max_pool}.cpp), replayed against irlint's shape inference: every OpenVINO case is one row below
// (typed OpenVINO suites are one row run for each op version) or one hand-written TEST_CASE at the end.
//
// What is asserted:
// - the output shape, in OpenVINO's spelling. Output 1 of MaxPool-8/14 and AdaptiveMaxPool (the indices)
//   has the same shape in irlint's model, so "out0 & out1" is one check plus output_count() == 2;
// - the effective pads after auto_pad (get_pads_begin/get_pads_end) where the OpenVINO test checks them;
// - for a case where OpenVINO throws: that irlint reports an error, and that the error names the check
//   that fires first in OpenVINO's validation order. Where the OpenVINO test asserts a message, the word
//   is the matching part of irlint's own wording; elsewhere it follows the case list's hint.
// Symbols (labels) and element types are not part of irlint's model and are not checked.

#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "core/dim.hpp"
#include "rules/pool_attrs.hpp"
#include "rules/pooling.hpp"
#include "op_test_util.hpp"

using namespace irlint;
using irlint::test::S;

namespace {

using Ints = std::vector<int64_t>;

// OpenVINO's enum spellings, so that rows read like the case list.
constexpr PadType EXPLICIT = PadType::explicit_pads;
constexpr PadType SAME_UPPER = PadType::same_upper;
constexpr PadType SAME_LOWER = PadType::same_lower;
constexpr PadType VALID = PadType::valid;
constexpr RoundingType FLOOR = RoundingType::floor;
constexpr RoundingType CEIL = RoundingType::ceil;
constexpr RoundingType CEIL_TORCH = RoundingType::ceil_torch;

// The attributes in the case list's notation. An empty vector is an empty Shape/Strides argument: empty
// pads are resized to zeros and empty dilations mean 1s; strides are always given, exactly as the case has them.
struct PoolCaseAttrs {
    Ints k = {}, s = {}, d = {}, pb = {}, pe = {};
    PadType ap = EXPLICIT;
    RoundingType rt = FLOOR;
    bool excl = true;  // AvgPool's exclude_pad, true when the test does not set it
};

PoolingDesc to_desc(const PoolCaseAttrs& a) {
    PoolingDesc desc;
    desc.kernel = a.k;
    desc.strides = a.s;
    desc.dilations = a.d;
    desc.pads_begin = a.pb;
    desc.pads_end = a.pe;
    desc.auto_pad = a.ap;
    desc.rounding = a.rt;
    desc.exclude_pad = a.excl;
    return desc;
}

struct PoolCase {
    const char* name;    // the OpenVINO test name
    const char* input;   // parse_shape syntax: "1,?,2..10,5.."; "..." is a dynamic rank, "" a scalar
    PoolCaseAttrs attrs;
    const char* output;  // expected output shape (parse_shape syntax), or nullptr: OpenVINO throws
    const char* error_word = "";  // for a throwing case: a word irlint's error must contain
    Ints pads_begin = {};         // effective pads OpenVINO reports; empty: the test does not check them
    Ints pads_end = {};
};

struct AdaptiveCase {
    const char* name;
    const char* input;
    const char* output_size_shape;     // the shape of input 1
    std::optional<Ints> output_size;   // its values when it is a Constant; nullopt for a Parameter
    const char* output;                // nullptr: OpenVINO throws
    const char* error_word = "";
};

std::string ints_str(const Ints& v) {
    std::string out = "{";
    for (size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += ',';
        out += std::to_string(v[i]);
    }
    return out + "}";
}

void check_error(const PoolShape& r, const char* word) {
    CHECK_MESSAGE(r.error.has_value(), "OpenVINO throws; irlint gives " << r.output.str());
    if (r.error) {
        CHECK_MESSAGE(r.error->find(word) != std::string::npos, "'" << std::string(word) << "' not in: " << *r.error);
    }
}

void check_pool(const PoolOp& op, const PoolCase& c) {
    const PoolShape r = infer_pool_shape(op, to_desc(c.attrs), S(c.input));
    if (c.output == nullptr) return check_error(r, c.error_word);
    CHECK_MESSAGE(!r.error.has_value(), "irlint rejects it: " << r.error.value_or(""));
    if (r.error) return;
    CHECK(r.output.str() == S(c.output).str());
    if (!c.pads_begin.empty()) {
        CHECK(ints_str(r.pads_begin) == ints_str(c.pads_begin));
        CHECK(ints_str(r.pads_end) == ints_str(c.pads_end));
    }
}

void check_adaptive(const AdaptiveCase& c) {
    const PoolShape r = infer_adaptive_shape(S(c.input), S(c.output_size_shape), c.output_size);
    if (c.output == nullptr) return check_error(r, c.error_word);
    CHECK_MESSAGE(!r.error.has_value(), "irlint rejects it: " << r.error.value_or(""));
    if (!r.error) CHECK(r.output.str() == S(c.output).str());
}

template <size_t N>
void run_table(const PoolOp& op, const char* suite, const PoolCase (&table)[N]) {
    for (const PoolCase& c : table) {
        const std::string where =
            std::string(suite) + c.name + " on " + std::string(op.type_name()) + "-" + std::to_string(op.version);
        INFO(where);
        check_pool(op, c);
    }
}

const PoolOp AVG_V1{PoolKind::avg_pool, 1};
const PoolOp AVG_V14{PoolKind::avg_pool, 14};
const PoolOp AVG_V16{PoolKind::avg_pool, 16};
const PoolOp MAX_V1{PoolKind::max_pool, 1};
const PoolOp MAX_V8{PoolKind::max_pool, 8};
const PoolOp MAX_V14{PoolKind::max_pool, 14};
const PoolOp ADAPTIVE_AVG{PoolKind::adaptive_avg_pool, 8};
const PoolOp ADAPTIVE_MAX{PoolKind::adaptive_max_pool, 8};

// AvgPoolOperator typed suite (avg_pool.cpp): instantiation 0 is AvgPool-1, 1 is AvgPool-14, 2 is AvgPool-16.
// All three use the constructor without dilations. OpenVINO only asserts that the invalid cases throw; the
// error words here name the check its validation order reaches first (the case list's hints).
const PoolCase kAvgPoolTyped[] = {
    // Default constructor, then set_pads_begin/end, set_kernel, set_strides, rounding and auto_pad;
    // exclude_pad keeps its default (true).
    {"avg_pool_default_ctor", "1,3,32",
     {.k = {2}, .s = {1}, .pb = {2}, .pe = {2}, .ap = SAME_LOWER, .rt = CEIL},
     "1,3,32", "", {1}, {0}},
    {"avg_pool_auto_padding", "1,3,32",
     {.k = {2}, .s = {1}, .pb = {0}, .pe = {0}, .ap = SAME_LOWER, .excl = false},
     "1,3,32", "", {1}, {0}},
    {"avg_pool_explicit_padding_round_ceil_dynamic_dimensions", "?,?,?",
     {.k = {4}, .s = {4}, .pb = {2}, .pe = {2}, .rt = CEIL},
     "?,?,1..", "", {2}, {2}},
    {"avg_pool_auto_padding_4D_nc_dims_dynamic_same_lower", "?,?,32,32",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_LOWER},
     "?,?,32,32", "", {1, 1}, {0, 0}},
    {"avg_pool_auto_padding_nc_dims_dynamic_same_upper", "?,?,32,32",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_UPPER, .excl = false},
     "?,?,32,32", "", {0, 0}, {1, 1}},
    {"avg_pool_auto_padding_spatial_dims_dynamic", "1,3,32,?",
     {.k = {2, 2}, .s = {1, 1}, .pb = {1, 1}, .pe = {0, 0}, .ap = SAME_LOWER},
     "1,3,32,?", "", {1, 0}, {0, 0}},
    {"avg_pool_1d_deduce", "64,3",
     {.k = {10}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_1d_deduce_strided", "64,3",
     {.k = {10}, .s = {2}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_1d_deduce_strided_small_uneven", "64,3",
     {.k = {2}, .s = {2}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_1d_deduce_strided_small_even", "64,3",
     {.k = {2}, .s = {2}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_2d_deduce", "64,3,100,150",
     {.k = {10, 20}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}},
     "64,3,91,131", "", {0, 0}, {0, 0}},
    {"avg_pool_2d_deduce_strided", "64,3,100,150",
     {.k = {10, 20}, .s = {2, 3}, .pb = {0, 0}, .pe = {0, 0}},
     "64,3,46,44", "", {0, 0}, {0, 0}},
    {"avg_pool_3d_deduce_strided_small", "64,3,7,8,10",
     {.k = {2, 3, 2}, .s = {2, 3, 4}, .pb = {0, 0, 0}, .pe = {0, 0, 0}},
     "64,3,3,2,3", "", {0, 0, 0}, {0, 0, 0}},
    {"avg_pool_3d_deduce_strided_padded_small", "64,3,7,8,10",
     {.k = {2, 3, 2}, .s = {2, 3, 4}, .pb = {5, 6, 4}, .pe = {6, 4, 5}, .excl = false},
     "64,3,9,6,5", "", {5, 6, 4}, {6, 4, 5}},
    {"avg_pool_invalid_0d_input", "",
     {.k = {}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_invalid_1d_input", "2",
     {.k = {}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_invalid_2d_input", "2,6",
     {.k = {}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_invalid_0_batch_size", "0,6",
     {.k = {1}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_invalid_0_channels", "6,0",
     {.k = {1}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "3D, 4D or 5D"},
    {"avg_pool_invalid_wrong_number_of_window_dimensions_too_many", "6,2,10,10",
     {.k = {3, 3, 3}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "strides has"},
    {"avg_pool_invalid_wrong_number_of_window_dimensions_too_few", "6,2,10,10",
     {.k = {3}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "spatial axes"},
    {"avg_pool_invalid_movement_stride_rank", "6,2,10,10",
     {.k = {3, 3}, .s = {2, 3, 8}, .pb = {}, .pe = {}},
     nullptr, "strides has"},
    {"avg_pool_invalid_padding_below_rank", "6,2,10,10",
     {.k = {3, 3}, .s = {2, 3}, .pb = {1, 2, 3}, .pe = {1, 2}},
     nullptr, "pads_begin has"},
    {"avg_pool_invalid_padding_above_rank", "6,2,10,10",
     {.k = {3, 3}, .s = {2, 3}, .pb = {1, 2}, .pe = {1, 2, 3}},
     nullptr, "pads_end has"},
    {"avg_pool_invalid_input_item_size_0", "6,2,0,10",
     {.k = {3, 3}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "strides has"},
    {"avg_pool_invalid_window_size_0", "6,2,10,10",
     {.k = {3, 0}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "strides has"},
    {"avg_pool_invalid_dilated_too_large", "6,2,8,8",
     {.k = {9, 9}, .s = {1}, .pb = {}, .pe = {}},
     nullptr, "strides has"},
    {"avg_pool_larger_than_pre_padding_but_fits_in_post_padding", "6,2,8,8",
     {.k = {9, 9}, .s = {1, 1}, .pb = {0, 0}, .pe = {1, 1}},
     "6,2,1,1"},
    {"avg_pool_invalid_movement_stride_0", "6,2,10,10",
     {.k = {3, 3}, .s = {0, 1}, .pb = {}, .pe = {}},
     nullptr, "zero or negative"},
    {"avg_pool_partial_rank_dynamic_ok", "...",
     {.k = {2, 3, 4, 5}, .s = {1, 1, 1, 1}, .pb = {0, 0, 0, 0}, .pe = {0, 0, 0, 0}, .excl = false},
     "?,?,?,?,?,?"},
    {"avg_pool_partial_rank_dynamic_attrib_rank_mismatch", "...",
     {.k = {2, 3, 4, 5}, .s = {1, 1, 1, 1, 1}, .pb = {0, 0, 0, 0}, .pe = {0, 0, 0, 0}, .excl = false},
     nullptr, "strides has"},
    {"avg_pool_partial_rank_static_dynamic_ok", "?,?,?,?,?",
     {.k = {2, 3, 4}, .s = {1, 1, 1}, .pb = {0, 0, 0}, .pe = {0, 0, 0}, .excl = false},
     "?,?,1..,1..,1.."},
    {"avg_pool_partial_rank_static_dynamic_some_dims_known_ok", "5,?,8,?,4",
     {.k = {2, 3, 4}, .s = {1, 1, 1}, .pb = {0, 0, 0}, .pe = {0, 0, 0}, .excl = false},
     "5,?,7,1..,1"},
    {"avg_pool_partial_rank_static_dynamic_attrib_rank_mismatch", "5,?,8,?,4",
     {.k = {2, 3, 4, 5}, .s = {1, 1, 1}, .pb = {0, 0, 0}, .pe = {0, 0, 0}},
     nullptr, "pads_begin has"},
    {"avg_pool_partial_rank_static_dynamic_window_not_too_big", "5,?,8,?,4",
     {.k = {9, 3, 4}, .s = {1, 1, 1}, .pb = {0, 0, 0}, .pe = {0, 0, 0}},
     nullptr, "larger than the padded input"},
    {"avg_pool_partial_rank_static_dynamic_padded_window_not_too_big", "5,?,8,?,4",
     {.k = {9, 3, 4}, .s = {1, 1, 1}, .pb = {0, 0, 0}, .pe = {1, 0, 0}},
     "5,?,1,1..,1"},
    {"avg_pool_partial_rank_static_dynamic_window_in_padding", "5,?,8,?,4",
     {.k = {9, 3, 4}, .s = {1, 1, 1}, .pb = {0, 0, 0}, .pe = {0, 0, 0}},
     nullptr, "larger than the padded input"},
    {"avg_pool_kernel_dilation_not_compatible_with_padding_begin", "5,?,8",
     {.k = {9}, .s = {1}, .pb = {10}, .pe = {0}},
     nullptr, "wholly in the padding"},
    {"avg_pool_kernel_dilation_not_compatible_with_padding_end", "5,?,8",
     {.k = {9}, .s = {1}, .pb = {0}, .pe = {10}},
     nullptr, "wholly in the padding"},
};

// TEST(type_prop, ...) cases of avg_pool.cpp, one table per op version.
const PoolCase kAvgPoolV1[] = {
    {"avg_pool_invalid_rounding_type", "5,?,8,?,4",
     {.k = {9, 3, 4}, .s = {1, 1, 1}, .pb = {0, 0, 0}, .pe = {1, 0, 0}, .rt = CEIL_TORCH},
     nullptr, "ceil_torch"},
};

const PoolCase kAvgPoolV14[] = {
    {"avg_pool_14_auto_padding_ceil_torch", "1,3,9,9",
     {.k = {2, 2}, .s = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .ap = SAME_LOWER, .rt = CEIL_TORCH, .excl = false},
     "1,3,9,9", "", {1, 1}, {0, 0}},
    {"avg_pool_14_explicit_padding_ceil_torch", "1,3,9,9",
     {.k = {2, 2}, .s = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "1,3,5,5", "", {1, 1}, {1, 1}},
    {"avg_pool_14_explicit_padding_ceil_torch_no_strides", "1,3,9,9",
     {.k = {2, 2}, .s = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "1,3,10,10", "", {1, 1}, {1, 1}},
    {"avg_pool_14_2d_deduce_strided_2", "64,3,100,150",
     {.k = {10, 20}, .s = {2, 3}, .pb = {0, 0}, .pe = {0, 0}, .rt = CEIL_TORCH},
     "64,3,46,45", "", {0, 0}, {0, 0}},
    {"avg_pool_14_dynamic_dims_ceil_mode_1", "?,3,5..,6..7",
     {.k = {2, 2}, .s = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL, .excl = false},
     "?,3,4..,4..5"},
    {"avg_pool_14_dynamic_dims_ceil_torch_mode_1", "?,3,5..,6..7",
     {.k = {2, 2}, .s = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "?,3,3..,4"},
    {"avg_pool_14_dynamic_dims_ceil_mode_2", "?,3,14..,15..17",
     {.k = {3, 3}, .s = {3, 3}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL, .excl = false},
     "?,3,6..,6..7"},
    {"avg_pool_14_dynamic_dims_ceil_torch_mode_2", "?,3,14..,15..17",
     {.k = {3, 3}, .s = {3, 3}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "?,3,5..,6"},
};

const PoolCase kAvgPoolV16[] = {
    {"avg_pool_16_auto_padding_ceil_torch", "1,3,9,9",
     {.k = {2, 2}, .s = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .ap = SAME_LOWER, .rt = CEIL_TORCH, .excl = false},
     "1,3,9,9", "", {1, 1}, {0, 0}},
    {"avg_pool_16_explicit_padding_ceil_torch", "1,3,9,9",
     {.k = {2, 2}, .s = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "1,3,5,5", "", {1, 1}, {1, 1}},
    {"avg_pool_16_explicit_padding_ceil_torch_no_strides", "1,3,9,9",
     {.k = {2, 2}, .s = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "1,3,10,10", "", {1, 1}, {1, 1}},
    {"avg_pool_16_2d_deduce_strided_2", "64,3,100,150",
     {.k = {10, 20}, .s = {2, 3}, .pb = {0, 0}, .pe = {0, 0}, .rt = CEIL_TORCH},
     "64,3,46,45", "", {0, 0}, {0, 0}},
    {"avg_pool_16_dynamic_dims_ceil_mode_1", "?,3,5..,6..7",
     {.k = {2, 2}, .s = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL, .excl = false},
     "?,3,4..,4..5"},
    {"avg_pool_16_dynamic_dims_ceil_torch_mode_1", "?,3,5..,6..7",
     {.k = {2, 2}, .s = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "?,3,3..,4"},
    {"avg_pool_16_dynamic_dims_ceil_mode_2", "?,3,14..,15..17",
     {.k = {3, 3}, .s = {3, 3}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL, .excl = false},
     "?,3,6..,6..7"},
    {"avg_pool_16_dynamic_dims_ceil_torch_mode_2", "?,3,14..,15..17",
     {.k = {3, 3}, .s = {3, 3}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "?,3,5..,6"},
    {"avg_pool_16_dilations_auto_padding_ceil_torch", "1,3,9,9",
     {.k = {2, 2}, .s = {1, 1}, .d = {2, 2}, .pb = {1, 1}, .pe = {1, 1},
      .ap = SAME_LOWER, .rt = CEIL_TORCH, .excl = false},
     "1,3,9,9", "", {1, 1}, {1, 1}},
    {"avg_pool_16_dilations_explicit_padding_ceil_torch", "1,3,9,9",
     {.k = {2, 2}, .s = {2, 2}, .d = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "1,3,5,5", "", {1, 1}, {1, 1}},
    {"avg_pool_16_dilations_explicit_padding_ceil_torch_no_strides", "1,3,9,9",
     {.k = {2, 2}, .s = {1, 1}, .d = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "1,3,9,9", "", {1, 1}, {1, 1}},
    {"avg_pool_16_dilations_2d_deduce_strided_2", "64,3,100,150",
     {.k = {10, 20}, .s = {2, 3}, .d = {2, 2}, .pb = {0, 0}, .pe = {0, 0}, .rt = CEIL_TORCH},
     "64,3,42,38", "", {0, 0}, {0, 0}},
    {"avg_pool_16_dilations_dynamic_dims_ceil_mode_1", "?,3,5..,6..8",
     {.k = {2, 2}, .s = {2, 2}, .d = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL, .excl = false},
     "?,3,3..,4..5"},
    {"avg_pool_16_dilations_dynamic_dims_ceil_torch_mode_1", "?,3,5..,6..7",
     {.k = {2, 2}, .s = {2, 2}, .d = {2, 2}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "?,3,3..,4"},
    {"avg_pool_16_dilations_dynamic_dims_ceil_mode_2", "?,3,14..,15..18",
     {.k = {3, 3}, .s = {3, 3}, .d = {3, 3}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL, .excl = false},
     "?,3,4..,5..6"},
    {"avg_pool_16_dilations_dynamic_dims_ceil_torch_mode_2", "?,3,14..,15..18",
     {.k = {3, 3}, .s = {3, 3}, .d = {3, 3}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH, .excl = false},
     "?,3,4..,5..6"},
};

// TEST(type_prop, ...) cases of max_pool.cpp. max_pool_default_values is hand-written below.
const PoolCase kMaxPoolV1[] = {
    // Default constructor, then set_pads_begin/end, set_kernel, set_strides, rounding and auto_pad.
    {"max_pool_default_ctor", "1,3,32",
     {.k = {2}, .s = {1}, .pb = {2}, .pe = {2}, .ap = VALID, .rt = CEIL},
     "1,3,31", "", {0}, {0}},
    {"max_pool_valid_auto_padding", "1,3,10..32",
     {.k = {2}, .s = {1}, .pb = {2}, .pe = {2}, .ap = VALID},
     "1,3,9..31", "", {0}, {0}},
    {"max_pool_1D_auto_padding", "1,3,32",
     {.k = {2}, .s = {1}, .pb = {0}, .pe = {0}, .ap = SAME_LOWER},
     "1,3,32", "", {1}, {0}},
    {"max_pool_2D_auto_padding", "1,3,32,32",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_LOWER},
     "1,3,32,32", "", {1, 1}, {0, 0}},
    {"max_pool_auto_padding_1D_nc_dims_dynamic_same_lower", "?,32,32",
     {.k = {2}, .s = {1}, .pb = {0}, .pe = {0}, .ap = SAME_LOWER},
     "?,32,32", "", {1}, {0}},
    {"max_pool_auto_padding_2D_nc_dims_dynamic_same_lower", "?,?,32,32",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_LOWER},
     "?,?,32,32", "", {1, 1}, {0, 0}},
    {"max_pool_auto_padding_nc_dims_dynamic_same_upper", "?,?,32,32",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_UPPER},
     "?,?,32,32", "", {0, 0}, {1, 1}},
    {"max_pool_auto_padding_interval_dims_same_upper", "1..2,2..3,16..32,11..32",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_UPPER},
     "1..2,2..3,?,?", "", {0, 0}, {0, 0}},
    {"max_pool_auto_padding_spatial_dims_dynamic", "1,3,32,?",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_LOWER},
     "1,3,32,?", "", {1, 0}, {0, 0}},
    {"max_pool_v1_invalid_rounding_type", "1,3,32,?",
     {.k = {2, 2}, .s = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_LOWER, .rt = CEIL_TORCH},
     nullptr, "ceil_torch"},
};

const PoolCase kMaxPoolV8[] = {
    {"max_pool_v8_invalid_rounding_type", "1,3,32,?",
     {.k = {2, 2}, .s = {1, 1}, .d = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .rt = CEIL_TORCH},
     nullptr, "ceil_torch"},
};

// MaxPoolOperator typed suite (max_pool.cpp): instantiation 0 is MaxPool-8, 1 is MaxPool-14.
const PoolCase kMaxPoolTyped[] = {
    {"max_pool_3D_no_dilations", "1,7,13",
     {.k = {3}, .s = {1}, .d = {1}, .pb = {0}, .pe = {0}},
     "1,7,11"},
    {"max_pool_3D_with_dilations", "1,7,13",
     {.k = {3}, .s = {1}, .d = {2}, .pb = {0}, .pe = {0}},
     "1,7,9"},
    {"max_pool_3D_with_dilations_and_padding", "1,7,13",
     {.k = {3}, .s = {1}, .d = {2}, .pb = {1}, .pe = {2}},
     "1,7,12"},
    {"max_pool_4D_no_dilations", "1,3,13,13",
     {.k = {2, 2}, .s = {1, 1}, .d = {1, 1}, .pb = {0, 0}, .pe = {0, 0}},
     "1,3,12,12"},
    {"max_pool_4D_with_dilations", "1,3,13,13",
     {.k = {2, 2}, .s = {1, 1}, .d = {2, 3}, .pb = {0, 0}, .pe = {0, 0}},
     "1,3,11,10"},
    {"max_pool_4D_dynamic_dims_with_non_zero_low_range_floor_mode", "?,64,198..,198..",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {0, 0}, .pe = {0, 0}},
     "?,64,99..,99.."},
    {"max_pool_4D_dynamic_dims_with_non_zero_low_range_ceil_mode", "?,64,198..,198..",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .rt = CEIL},
     "?,64,99..,99.."},
    {"max_pool_4D_interval_dims_with_dilations", "2..3,1..3,2..13,6..13",
     {.k = {2, 2}, .s = {1, 1}, .d = {2, 3}, .pb = {0, 0}, .pe = {0, 0}},
     "2..3,1..3,1..11,3..10"},
    {"max_pool_4D_with_dilations_and_auto_pad_same_upper", "1,3,13,13",
     {.k = {3, 3}, .s = {1, 1}, .d = {2, 3}, .pb = {0, 0}, .pe = {0, 0}, .ap = SAME_UPPER},
     "1,3,13,13", "", {2, 3}, {2, 3}},
};

const PoolCase kMaxPoolV14[] = {
    {"max_pool_v14_4D_static_dims_ceil_mode", "1,3,5,5",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL},
     "1,3,4,4"},
    {"max_pool_v14_4D_static_dims_ceil_torch_mode_1", "1,3,5,5",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH},
     "1,3,3,3"},
    {"max_pool_v14_4D_static_dims_ceil_torch_mode_2", "1,3,9,9",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH},
     "1,3,5,5"},
    {"max_pool_v14_4D_dynamic_dims_with_non_zero_low_range_ceil_torch_mode", "?,64,198..,198..",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {0, 0}, .pe = {0, 0}, .rt = CEIL_TORCH},
     "?,64,99..,99.."},
    {"max_pool_v14_4D_dynamic_dims_ceil_mode_1", "?,3,5..,6..7",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL},
     "?,3,4..,4..5"},
    {"max_pool_v14_4D_dynamic_dims_ceil_torch_mode_1", "?,3,5..,6..7",
     {.k = {2, 2}, .s = {2, 2}, .d = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH},
     "?,3,3..,4"},
    {"max_pool_v14_4D_dynamic_dims_ceil_mode_2", "?,3,14..,15..17",
     {.k = {3, 3}, .s = {3, 3}, .d = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL},
     "?,3,6..,6..7"},
    {"max_pool_v14_4D_dynamic_dims_ceil_torch_mode_2", "?,3,14..,15..17",
     {.k = {3, 3}, .s = {3, 3}, .d = {1, 1}, .pb = {1, 1}, .pe = {1, 1}, .rt = CEIL_TORCH},
     "?,3,5..,6"},
};

// AdaptiveAvgPoolV8Test (adaptive_avg_pool.cpp). preserve_partial_values_and_symbols_on_output_shape_input
// is hand-written below.
const AdaptiveCase kAdaptiveAvgPool[] = {
    {"default_ctor", "2,6,3,2", "2", Ints{5, 7}, "2,6,5,7"},
    {"static_dim_shape_prop", "1,6,8,9", "2", Ints{5, 7}, "1,6,5,7"},
    {"dynamic_batch", "?,6,8,9", "2", Ints{5, 7}, "?,6,5,7"},
    {"dynamic_channel", "1,?,10..20,9", "2", Ints{5, 7}, "1,?,5,7"},
    {"dynamic_spatial", "1,6,?,?", "2", Ints{5, 7}, "1,6,5,7"},
    {"dynamic_output_shape", "1,6,8,9,2", "...", std::nullopt, "1,6,?,?,?"},
    {"output_shape_as_parameter", "1,6,8,9,2", "3", std::nullopt, "1,6,?,?,?"},
    {"data_dynamic_rank", "...", "3", std::nullopt, "..."},
    // OpenVINO: "Output shape for spatial dimension not compatible with data shape."
    {"out_spatial_shape_size_not_match_data_spatial_dimensions", "2,3,5,6", "3", std::nullopt, nullptr,
     "spatial axes"},
    // OpenVINO: "Expected a 3D, 4D or 5D tensor for the input. Got:"
    {"unsupported_input_shape", "1,6", "", Ints{1}, nullptr, "3D, 4D or 5D"},
    // OpenVINO: "Output shape for spatial dimension not compatible with data shape."
    {"wrong_out_shape", "1,6,8,9", "3", Ints{5, 7, 8}, nullptr, "spatial axes"},
};

// AdaptiveMaxPoolV8Test (adaptive_max_pool.cpp). The data element type (f32/f64) plays no part in the shape.
// preserve_partial_values_and_symbols_on_output_shape_input and wrong_index_element_type are hand-written
// below; the index element type of default_ctor and i32_indices is checked there too.
const AdaptiveCase kAdaptiveMaxPool[] = {
    {"default_ctor", "2,6,3,2", "2", Ints{5, 7}, "2,6,5,7"},
    {"shape_infer", "2,6,3,2,10", "3", Ints{5, 7, 1}, "2,6,5,7,1"},
    {"i32_indices", "2,6,2,10", "2", Ints{7, 1}, "2,6,7,1"},
    {"dynamic_batch", "?,6,8,9", "2", Ints{9, 9}, "?,6,9,9"},
    {"dynamic_channel", "2,?,10..20,9", "2", Ints{5, 7}, "2,?,5,7"},
    {"dynamic_spatial", "2,6,?,?", "2", Ints{5, 7}, "2,6,5,7"},
    {"dynamic_output_shape", "1,6,8,9,2", "...", std::nullopt, "1,6,?,?,?"},
    {"output_shape_as_parameter", "1,6,8,9,2", "3", std::nullopt, "1,6,?,?,?"},
    {"data_dynamic_rank", "...", "3", std::nullopt, "..."},
    {"out_spatial_shape_size_not_match_data_spatial_dimensions", "2,3,5,6", "3", std::nullopt, nullptr,
     "spatial axes"},
    {"unsupported_input_shape", "1,6", "", Ints{1}, nullptr, "3D, 4D or 5D"},
    {"wrong_out_shape", "1,6,8,9", "3", Ints{5, 7, 8}, nullptr, "spatial axes"},
};

// Every line of the case list is covered: the table rows (typed suites once per version) plus the 4
// hand-written cases (max_pool_default_values, both preserve_partial_values_..., wrong_index_element_type).
constexpr size_t kHandWritten = 4;
static_assert(std::size(kAvgPoolTyped) * 3 + std::size(kAvgPoolV1) + std::size(kAvgPoolV14) +
                      std::size(kAvgPoolV16) + std::size(kMaxPoolV1) + std::size(kMaxPoolV8) +
                      std::size(kMaxPoolTyped) * 2 + std::size(kMaxPoolV14) + std::size(kAdaptiveAvgPool) +
                      std::size(kAdaptiveMaxPool) + kHandWritten ==
                  206);

}  // namespace

TEST_CASE("type_prop AvgPoolOperator typed suite (AvgPool-1, -14, -16)") {
    const PoolOp ops[] = {AVG_V1, AVG_V14, AVG_V16};
    for (int i = 0; i < 3; ++i) {
        const std::string suite = "type_prop/AvgPoolOperator/" + std::to_string(i) + ".";
        CHECK(ops[i].output_count() == 1);
        run_table(ops[i], suite.c_str(), kAvgPoolTyped);
    }
}

TEST_CASE("type_prop AvgPool-1") { run_table(AVG_V1, "type_prop.", kAvgPoolV1); }
TEST_CASE("type_prop AvgPool-14") { run_table(AVG_V14, "type_prop.", kAvgPoolV14); }
TEST_CASE("type_prop AvgPool-16") { run_table(AVG_V16, "type_prop.", kAvgPoolV16); }

TEST_CASE("type_prop AvgPool avg_pool_default_ctor: getters") {
    // The default constructor leaves exclude_pad true; AvgPool has one output.
    CHECK(PoolingDesc{}.exclude_pad);
    for (const PoolOp& op : {AVG_V1, AVG_V14, AVG_V16}) CHECK(op.output_count() == 1);
}

TEST_CASE("type_prop MaxPool-1") { run_table(MAX_V1, "type_prop.", kMaxPoolV1); }
TEST_CASE("type_prop MaxPool-8") { run_table(MAX_V8, "type_prop.", kMaxPoolV8); }

TEST_CASE("type_prop MaxPoolOperator typed suite (MaxPool-8, -14)") {
    const PoolOp ops[] = {MAX_V8, MAX_V14};
    for (int i = 0; i < 2; ++i) {
        const std::string suite = "type_prop/MaxPoolOperator/" + std::to_string(i) + ".";
        CHECK(ops[i].output_count() == 2);  // values and indices, both of the asserted shape
        run_table(ops[i], suite.c_str(), kMaxPoolTyped);
    }
}

TEST_CASE("type_prop MaxPool-14") {
    CHECK(MAX_V14.output_count() == 2);
    run_table(MAX_V14, "type_prop.", kMaxPoolV14);
}

TEST_CASE("type_prop MaxPool-1 max_pool_default_values") {
    // OpenVINO checks only that rounding_type and auto_pad default to FLOOR and EXPLICIT when not passed.
    // Same defaults in irlint's PoolingDesc and when the IR attributes are missing.
    CHECK(PoolingDesc{}.rounding == FLOOR);
    CHECK(PoolingDesc{}.auto_pad == EXPLICIT);
    const ParsedAttrs parsed = parse_pool_attrs(
        MAX_V1, {{"kernel", "2,2"}, {"strides", "1,1"}, {"pads_begin", "0,0"}, {"pads_end", "0,0"}});
    CHECK(parsed.usable());
    CHECK(parsed.desc.rounding == FLOOR);
    CHECK(parsed.desc.auto_pad == EXPLICIT);
    // The shape follows from the floor formula (OpenVINO's test does not assert it): (32-2)/1+1 = 31.
    const PoolShape r = infer_pool_shape(MAX_V1, parsed.desc, S("1,3,32,32"));
    REQUIRE_FALSE(r.error.has_value());
    CHECK(r.output.str() == "[1,3,31,31]");
}

TEST_CASE("type_prop AdaptiveAvgPoolV8Test") {
    CHECK(ADAPTIVE_AVG.output_count() == 1);
    for (const AdaptiveCase& c : kAdaptiveAvgPool) {
        const std::string where = "AdaptiveAvgPoolV8Test." + std::string(c.name);
        INFO(where);
        check_adaptive(c);
    }
}

TEST_CASE("type_prop AdaptiveMaxPoolV8Test") {
    CHECK(ADAPTIVE_MAX.output_count() == 2);  // values and indices, both of the asserted shape
    for (const AdaptiveCase& c : kAdaptiveMaxPool) {
        const std::string where = "AdaptiveMaxPoolV8Test." + std::string(c.name);
        INFO(where);
        check_adaptive(c);
    }
}

// OpenVINO computes output_size = ShapeOf(Parameter{2..6,3,12..13}) and keeps its value bounds, giving
// {1..2,2..4,2..6,3,12..13}. irlint only reads output_size from a Const, so the values are unknown here
// and the spatial dims are fully dynamic: a deliberate loss of precision, not a wrong answer.
TEST_CASE("type_prop AdaptiveAvgPoolV8Test.preserve_partial_values_and_symbols_on_output_shape_input") {
    const PoolShape r = infer_adaptive_shape(S("1..2,2..4,5,10..20,?"), S("3"), std::nullopt);
    REQUIRE_FALSE(r.error.has_value());
    CHECK(r.output.str() == "[1..2,2..4,?,?,?]");
    for (size_t i = 2; i < r.output.rank(); ++i) CHECK(r.output.dims[i].is_fully_dynamic());
}

// As above; OpenVINO gives {1..2,2..4,2..6,?,12..13} from ShapeOf(Parameter{2..6,?,12..13}).
TEST_CASE("type_prop AdaptiveMaxPoolV8Test.preserve_partial_values_and_symbols_on_output_shape_input") {
    const PoolShape r = infer_adaptive_shape(S("1..2,2..4,5,10..20,?"), S("3"), std::nullopt);
    REQUIRE_FALSE(r.error.has_value());
    CHECK(r.output.str() == "[1..2,2..4,?,?,?]");
    for (size_t i = 2; i < r.output.rank(); ++i) CHECK(r.output.dims[i].is_fully_dynamic());
}

// OpenVINO: "Index element type must be i32 or i64". In irlint the index type is an attribute-parsing
// matter, so the case is checked on parse_pool_attrs; the shape itself would be fine ({1,6,5,7}).
TEST_CASE("type_prop AdaptiveMaxPoolV8Test.wrong_index_element_type") {
    const ParsedAttrs parsed = parse_pool_attrs(ADAPTIVE_MAX, {{"index_element_type", "i16"}});
    CHECK_FALSE(parsed.usable());
    REQUIRE_FALSE(parsed.issues.empty());
    CHECK(parsed.issues.front().message.find("i32 or i64") != std::string::npos);
}

// The index element types default_ctor (set_index_element_type(i64)) and i32_indices (i32) use are accepted.
TEST_CASE("type_prop AdaptiveMaxPoolV8Test index_element_type i64 and i32") {
    for (const auto& [text, type] : {std::pair{"i64", ElementType::i64}, std::pair{"i32", ElementType::i32}}) {
        const std::string where = "index_element_type=" + std::string(text);
        INFO(where);
        const ParsedAttrs parsed = parse_pool_attrs(ADAPTIVE_MAX, {{"index_element_type", text}});
        CHECK(parsed.usable());
        CHECK(parsed.desc.index_type == type);
    }
    CHECK(PoolingDesc{}.index_type == ElementType::i64);
}
