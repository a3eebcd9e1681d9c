#include "report/rules_markdown.hpp"

#include <string>

namespace irlint {

std::string_view rule_section(std::string_view markdown, std::string_view rule_id) {
    const std::string heading = "\n## " + std::string(rule_id) + "\n";
    const size_t at = markdown.find(heading);
    if (at == std::string_view::npos) return {};
    const size_t begin = at + heading.size();
    const size_t next = markdown.find("\n## ", begin);
    std::string_view section =
        markdown.substr(begin, next == std::string_view::npos ? std::string_view::npos : next + 1 - begin);
    while (!section.empty() && section.front() == '\n') section.remove_prefix(1);
    while (section.size() > 1 && section.back() == '\n' && section[section.size() - 2] == '\n')
        section.remove_suffix(1);
    return section;
}

}  // namespace irlint
