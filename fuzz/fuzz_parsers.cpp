// libFuzzer target: the dims and attribute parsers, the pooling shape arithmetic and, when the tensors are
// small, the reference kernels. The input is text, one item a line; fuzz/make_seeds.py writes seeds from
// the pooling layers of testdata:
//
//     MaxPool 8             the op type and the opset number (first line)
//     input 1,3,8..16,?     the input shape
//     declared 1,3,4,4      a declared output shape, for the attribute-change hint
//     output_size 2,2       adaptive pools
//     type f16              the element type the kernels run on (default f32)
//     kernel=3,3            any other line: an attribute, KEY=VALUE

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "core/text.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "exec/tensor.hpp"
#include "rules/pool_attrs.hpp"
#include "rules/pool_rules.hpp"
#include "rules/pooling.hpp"

namespace {

using irlint::Shape;

// Kernels run only where their work stays small: elements in, elements out, and both multiplied.
constexpr size_t kMaxInput = 4096;
constexpr size_t kMaxOutput = 100000;
constexpr size_t kMaxWork = 10000000;

struct Case {
    std::string op_type = "MaxPool";
    int opset = 16;
    std::string input, declared, output_size, type = "f32";
    std::vector<irlint::Attr> attrs;
};

bool take(std::string_view line, std::string_view key, std::string& out) {
    if (line.substr(0, key.size()) != key) return false;
    out = std::string(line.substr(key.size()));
    return true;
}

Case parse_case(std::string_view text) {
    Case c;
    const auto lines = irlint::split(text, '\n');
    const std::string_view head = lines[0];
    const auto space = head.find(' ');
    c.op_type = std::string(head.substr(0, space));
    if (space != std::string_view::npos)
        c.opset = static_cast<int>(std::clamp<int64_t>(irlint::parse_int(head.substr(space + 1)).value_or(16), 0, 100));
    for (size_t i = 1; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        if (take(line, "input ", c.input) || take(line, "declared ", c.declared) ||
            take(line, "output_size ", c.output_size) || take(line, "type ", c.type))
            continue;
        const auto eq = line.find('=');
        if (eq != std::string_view::npos) c.attrs.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    }
    return c;
}

void trap_unless(bool condition) {
    if (!condition) std::abort();
}

// The element count of a static shape, or nullopt when it is not static or past `limit`.
std::optional<size_t> small_count(const Shape& s, size_t limit) {
    if (!s.is_static()) return std::nullopt;
    size_t n = 1;
    for (const irlint::Dim& d : s.dims) {
        const auto len = static_cast<size_t>(d.length());
        if (len != 0 && n > limit / len) return std::nullopt;
        n *= len;
    }
    return n <= limit ? std::optional<size_t>(n) : std::nullopt;
}

std::vector<int64_t> static_dims(const Shape& s) {
    std::vector<int64_t> dims;
    for (const irlint::Dim& d : s.dims) dims.push_back(d.length());
    return dims;
}

unsigned char fuzzed_byte(std::string_view text, size_t i) {
    return static_cast<unsigned char>(static_cast<unsigned char>(text[i % text.size()]) ^ (i * 37));
}

// A tensor of `shape` whose values come from the fuzzed text: any bit pattern for floats (NaN and infinities
// too). Integers stay within [-128, 127], an open bug being kept out of the kernels until it is fixed:
// integer AvgPool sums in the element type, which large values overflow
// (testdata/hostile/run_avgpool_i64_sum_overflow.xml).
irlint::Tensor make_tensor(irlint::ElementType type, const Shape& shape, std::string_view text) {
    irlint::Tensor t(type, static_dims(shape));
    std::byte* bytes = t.mutable_bytes();
    const size_t width = static_cast<size_t>(std::max(irlint::element_type_bits(type), 8) / 8);
    const bool small_ints = irlint::is_integer_type(type);
    for (size_t i = 0; i < t.byte_size(); ++i) {
        const unsigned char b = fuzzed_byte(text, small_ints ? i / width : i);
        const bool low_byte = i % width == 0;
        bytes[i] = static_cast<std::byte>(!small_ints || low_byte ? b : (b & 0x80 ? 0xFF : 0x00));
    }
    return t;
}

// Open bug, kept out of the kernels until it is fixed: AvgPool's divisor is the product of the kernel
// values in int64, which overflows for kernels such as 2^32 x 2^32 over a padded input
// (testdata/hostile/run_avgpool_kernel_taps_overflow.xml).
bool kernel_volume_overflows(const irlint::PoolingDesc& desc) {
    int64_t volume = 1;
    for (int64_t k : desc.kernel)
        if (__builtin_mul_overflow(volume, k, &volume)) return true;
    return false;
}

bool kernels_may_run(const irlint::PoolingDesc& desc, const Shape& input, const Shape& output) {
    const auto in = small_count(input, kMaxInput);
    const auto out = small_count(output, kMaxOutput);
    return in && out && *in * *out <= kMaxWork && !kernel_volume_overflows(desc);
}

void run_kernels(const irlint::PoolOp& op, const irlint::PoolingDesc& desc, const Shape& input,
                 const irlint::PoolShape& ps, const Case& c, std::string_view text,
                 const std::vector<int64_t>& output_size) {
    if (ps.error || !kernels_may_run(desc, input, ps.output)) return;
    const auto type = irlint::parse_element_type_attr(c.type).value_or(irlint::ElementType::f32);
    if (!irlint::is_executable_type(type)) return;
    const irlint::Tensor x = make_tensor(type, input, text);
    const irlint::KernelOptions options{1, size_t{1} << 26};
    const irlint::PoolRunResult result = op.is_adaptive() ? irlint::run_adaptive_pool(op, desc, x, output_size, options)
                                                          : irlint::run_pool(op, desc, x, options);
    if (result.ok()) trap_unless(result.outputs.size() == op.output_count() &&
                                 result.outputs[0].shape() == static_dims(ps.output));
}

std::optional<std::vector<int64_t>> parse_sizes(const std::string& text) {
    if (text.empty()) return std::nullopt;
    std::vector<int64_t> values;
    for (std::string_view field : irlint::split(text, ',')) {
        if (values.size() == 8) break;
        values.push_back(irlint::parse_int(irlint::trim(field)).value_or(-1));
    }
    return values;
}

void fuzz_adaptive(const irlint::PoolOp& op, const irlint::ParsedAttrs& attrs, const Shape& input, const Case& c,
                   std::string_view text) {
    const auto sizes = parse_sizes(c.output_size);
    const Shape sizes_shape = sizes ? irlint::shape_from_port_dims({static_cast<int64_t>(sizes->size())})
                                    : Shape::dynamic_rank();
    const irlint::PoolShape ps = irlint::infer_adaptive_shape(input, sizes_shape, sizes);
    if (!ps.error && !input.rank_dynamic) trap_unless(ps.output.rank() == input.rank());
    if (sizes) run_kernels(op, attrs.desc, input, ps, c, text, *sizes);
}

void fuzz_pool(const irlint::PoolOp& op, const irlint::ParsedAttrs& attrs, const Shape& input, const Case& c,
               std::string_view text) {
    const irlint::PoolShape ps = irlint::infer_pool_shape(op, attrs.desc, input);
    if (!ps.error && !input.rank_dynamic) trap_unless(ps.output.rank() == input.rank());
    if (!ps.error && input.is_static()) trap_unless(ps.output.is_static());
    std::string error;
    if (const auto declared = irlint::parse_shape(c.declared, &error))
        irlint::suggest_attribute_change(op, attrs.desc, input, *declared);
    run_kernels(op, attrs.desc, input, ps, c, text, {});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Case c = parse_case(text);
    std::string error;
    for (std::string_view field : irlint::split(c.input, ',')) irlint::parse_dim(field, &error);
    const auto input = irlint::parse_shape(c.input, &error);
    const auto op = irlint::pool_op_for(c.op_type, c.opset);
    if (!input || !op) return 0;
    trap_unless(input->compatible(*input));
    const irlint::ParsedAttrs attrs = irlint::parse_pool_attrs(*op, c.attrs);
    if (!attrs.usable()) return 0;
    if (op->is_adaptive()) fuzz_adaptive(*op, attrs, *input, c, text);
    else fuzz_pool(*op, attrs, *input, c, text);
    return 0;
}
