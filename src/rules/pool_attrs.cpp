#include "rules/pool_attrs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

bool ParsedAttrs::usable() const {
    return std::none_of(issues.begin(), issues.end(), [](const AttrIssue& i) { return i.severity == Severity::error; });
}

std::vector<std::string> pool_attr_names(const PoolOp& op) {
    std::vector<std::string> names;
    if (op.kind == PoolKind::avg_pool || op.kind == PoolKind::max_pool) {
        names = {"kernel", "strides", "pads_begin", "pads_end", "auto_pad", "rounding_type"};
        if (op.has_exclude_pad()) names.push_back("exclude-pad");
        if (op.has_dilations()) names.push_back("dilations");
    }
    if (op.has_axis()) names.push_back("axis");
    if (op.has_index_output()) names.push_back("index_element_type");
    return names;
}

namespace {

// Far above the three spatial axes a pooling layer can have; longer lists are refused unread.
constexpr size_t kMaxListValues = 64;

class AttrReader {
public:
    AttrReader(const PoolOp& op, ParsedAttrs& out) : op_(op), out_(out) {}

    void error(std::string message) { out_.issues.push_back({Severity::error, std::move(message)}); }
    void warning(std::string message) { out_.issues.push_back({Severity::warning, std::move(message)}); }

    // OpenVINO splits on ',' and reads each field with a stream: it takes "1.0" as 1 and rejects an empty
    // field. irlint accepts the integral float form with a warning and refuses anything else.
    void int_list(std::string_view key, std::string_view value, std::vector<int64_t>& out) {
        out.clear();
        if (trim(value).empty()) return;
        // Counted before splitting, so that a huge attribute costs no memory beyond its own text.
        if (static_cast<size_t>(std::count(value.begin(), value.end(), ',')) >= kMaxListValues) {
            error(fmt::format("{}=\"{}\" has more than {} values; a pooling layer has at most 3 spatial axes", key,
                              excerpt(value), kMaxListValues));
            return;
        }
        bool float_form = false;
        auto fields = split(value, ',');
        if (fields.size() > 1 && fields.back().empty()) fields.pop_back();  // OpenVINO accepts a trailing comma
        for (std::string_view field : fields) {
            const std::string_view f = trim(field);
            if (f.empty()) {
                error(fmt::format("{}=\"{}\" has an empty field; OpenVINO cannot read it", key, excerpt(value)));
                return;
            }
            if (auto v = parse_int(f)) {
                out.push_back(*v);
                continue;
            }
            if (auto v = integral_float(f)) {
                out.push_back(*v);
                float_form = true;
                continue;
            }
            error(fmt::format("{}=\"{}\": '{}' is not an integer", key, excerpt(value), excerpt(f)));
            return;
        }
        if (float_form)
            warning(fmt::format("{}=\"{}\" writes integers as floats; OpenVINO reads them as {}", key, excerpt(value),
                                join_ints(out)));
    }

    void boolean(std::string_view key, std::string_view value, bool& out) {
        const std::string v = to_lower(trim(value));
        if (v == "true" || v == "1") {
            out = true;
        } else if (v == "false" || v == "0") {
            out = false;
        } else {
            warning(fmt::format("{}=\"{}\" is not a boolean (true, false, 1, 0); OpenVINO ignores it and keeps the "
                                "default {}",
                                key, excerpt(value), out ? "true" : "false"));
        }
    }

    void index_type(std::string_view value, ElementType& out) {
        const auto t = parse_element_type_attr(value);
        if (!t) {
            error(fmt::format("index_element_type=\"{}\" is not an element type", excerpt(value)));
        } else if (*t != ElementType::i32 && *t != ElementType::i64) {
            // AdaptiveMaxPool rejects other types; MaxPool accepts them but cannot compute with them.
            const std::string why = fmt::format("index_element_type={}: the index element type must be i32 or i64",
                                                element_type_name(*t));
            if (op_.kind == PoolKind::adaptive_max_pool) error(why);
            else warning(why + " (OpenVINO's MaxPool reads it, but its reference kernel cannot produce it)");
            out = *t;
        } else {
            out = *t;
        }
    }

    void read(std::string_view key, std::string_view value) {
        PoolingDesc& d = out_.desc;
        if (key == "kernel") return int_list(key, value, d.kernel);
        if (key == "strides") return int_list(key, value, d.strides);
        if (key == "pads_begin") return int_list(key, value, d.pads_begin);
        if (key == "pads_end") return int_list(key, value, d.pads_end);
        if (key == "dilations") return int_list(key, value, d.dilations);
        if (key == "exclude-pad") return boolean(key, value, d.exclude_pad);
        if (key == "index_element_type") return index_type(value, d.index_type);
        if (key == "auto_pad") {
            if (auto t = parse_pad_type(trim(value))) d.auto_pad = *t;
            else error(fmt::format("auto_pad=\"{}\" is not one of explicit, same_upper, same_lower, valid",
                                   excerpt(value)));
            return;
        }
        if (key == "rounding_type") {
            if (auto t = parse_rounding_type(trim(value))) d.rounding = *t;
            else error(fmt::format("rounding_type=\"{}\" is not one of floor, ceil, ceil_torch", excerpt(value)));
            return;
        }
        if (key == "axis") {
            if (auto v = parse_int(trim(value))) d.axis = *v;
            else error(fmt::format("axis=\"{}\" is not an integer", excerpt(value)));
        }
    }

private:
    static std::optional<int64_t> integral_float(std::string_view f) {
        const auto dot = f.find('.');
        if (dot == std::string_view::npos || dot == 0) return std::nullopt;
        const std::string_view frac = f.substr(dot + 1);
        if (!std::all_of(frac.begin(), frac.end(), [](char c) { return c == '0'; })) return std::nullopt;
        return parse_int(f.substr(0, dot));
    }

    const PoolOp& op_;
    ParsedAttrs& out_;
};

}  // namespace

ParsedAttrs parse_pool_attrs(const PoolOp& op, AttrList attrs) {
    ParsedAttrs out;
    AttrReader reader(op, out);
    const auto known = pool_attr_names(op);
    for (const auto& [key, value] : attrs) {
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            reader.warning(fmt::format("attribute {}=\"{}\" is not defined for {}-{}; OpenVINO ignores it", key,
                                       excerpt(value), op.type_name(), op.version));
            continue;
        }
        reader.read(key, value);
    }
    const bool needs_kernel = !op.is_adaptive();
    const bool has_kernel = std::any_of(attrs.begin(), attrs.end(), [](const auto& a) { return a.first == "kernel"; });
    if (needs_kernel && !has_kernel) reader.error("the required attribute kernel is missing");
    return out;
}

}  // namespace irlint
