#include "ir/producer.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace irlint {

namespace {

// A metadata entry is <Key value="..."/>, or <info name="Key" value="..."/> when Key is no XML name.
std::string_view key_of(const pugi::xml_node& entry) {
    const pugi::xml_attribute name = entry.attribute("name");
    return name ? std::string_view(name.value()) : std::string_view(entry.name());
}

bool says_true(std::string_view value) { return iequals(trim(value), "true"); }

void read_conversion_parameters(const pugi::xml_node& params, Producer& producer) {
    producer.conversion_parameters = true;
    for (const pugi::xml_node entry : params.children()) {
        if (entry.type() != pugi::node_element) continue;
        const std::string_view key = key_of(entry);
        const std::string_view value = entry.attribute("value").value();
        if ((key == "compress_fp16" || key == "compress_to_fp16") && says_true(value))
            producer.fp16_compressed = true;
        if (key == "data_type" && (iequals(value, "FP16") || iequals(value, "half")))
            producer.fp16_compressed = true;
    }
}

// "2022.3.0-9052-9752fafe8eb-releases/2022/3" -> "2022.3.0"; a custom build or "unknown version" -> "".
std::string release_of(std::string_view version) {
    version = trim(version);
    if (version.empty() || version[0] < '0' || version[0] > '9') return "";
    return std::string(version.substr(0, version.find('-')));
}

std::string named(std::string_view tool, std::string_view version) {
    const std::string release = release_of(version);
    return release.empty() ? std::string(tool) : fmt::format("{} {}", tool, release);
}

}  // namespace

void read_producer_entries(const pugi::xml_node& section, Producer& producer) {
    for (const pugi::xml_node entry : section.children()) {
        if (entry.type() != pugi::node_element) continue;
        const std::string_view key = key_of(entry);
        const std::string_view value = entry.attribute("value").value();
        if (key == "MO_version") producer.mo_version = value.empty() ? "unknown version" : std::string(value);
        else if (key == "Runtime_version") producer.runtime_version = value;
        else if (key == "legacy_path") producer.legacy_path = says_true(value);
        else if (key == "conversion_parameters" || key == "cli_parameters") read_conversion_parameters(entry, producer);
        else if (key == "nncf") producer.quantized_by = "NNCF";
        else if (key == "optimization" && producer.quantized_by.empty()) producer.quantized_by = "POT";
    }
    if (section.parent().child("quantization_parameters") && producer.quantized_by.empty())
        producer.quantized_by = "POT";
}

bool Producer::legacy_model_optimizer() const {
    if (mo_version.empty()) return false;
    if (legacy_path) return *legacy_path;
    return runtime_version.empty();  // before 2022.1 Model Optimizer had only its Python pipeline
}

std::string Producer::describe() const {
    std::string text;
    if (!mo_version.empty()) {
        text = named("Model Optimizer", mo_version);
        if (legacy_path) text += *legacy_path ? " (legacy path)" : " (new front end)";
    } else if (!runtime_version.empty()) {
        text = named("OpenVINO", runtime_version) + " (ovc or save_model)";
    }
    if (!quantized_by.empty()) text += text.empty() ? "quantized by " + quantized_by : ", quantized by " + quantized_by;
    if (fp16_compressed && !text.empty()) text += ", weights compressed to FP16";
    return text;
}

}  // namespace irlint
