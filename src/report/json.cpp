#include <fmt/format.h>

#include "report/report.hpp"

namespace irlint {

std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) out += fmt::format("\\u{:04x}", c);
                else out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string dims_json(const Shape& shape) {
    if (shape.rank_dynamic) return "\"...\"";
    std::string out = "[";
    for (size_t i = 0; i < shape.dims.size(); ++i) {
        if (i) out += ",";
        const Dim& d = shape.dims[i];
        if (d.is_static()) out += std::to_string(d.length());
        else if (d.is_fully_dynamic()) out += "-1";
        else out += json_string(d.str());
    }
    return out + "]";
}

std::string check_json(const std::vector<FileResult>& files) {
    const Summary s = summarize(files);
    std::string out = fmt::format("{{\"tool\":\"irlint\",\"version\":\"{}\",\"files\":[", IRLINT_VERSION);
    for (size_t f = 0; f < files.size(); ++f) {
        const FileResult& file = files[f];
        if (f) out += ",";
        out += fmt::format("{{\"path\":{},\"layers\":{},\"checked\":{},\"diagnostics\":[", json_string(file.path),
                           file.layers, file.checked);
        for (size_t i = 0; i < file.diagnostics.size(); ++i) {
            const Diagnostic& d = file.diagnostics[i];
            if (i) out += ",";
            out += fmt::format(
                "{{\"severity\":\"{}\",\"rule\":{},\"message\":{},\"line\":{},\"layer_id\":{},\"layer_name\":{},"
                "\"layer_type\":{}}}",
                severity_name(d.severity), json_string(d.rule), json_string(d.message), d.line,
                json_string(d.layer.id), json_string(d.layer.name), json_string(d.layer.type));
        }
        out += "]}";
    }
    out += fmt::format("],\"summary\":{{\"files\":{},\"errors\":{},\"warnings\":{},\"notes\":{}}}}}\n", s.files,
                       s.errors, s.warnings, s.notes);
    return out;
}

}  // namespace irlint
