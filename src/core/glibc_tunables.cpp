#include "core/glibc_tunables.hpp"

namespace irlint {

namespace {

constexpr std::string_view kVariable = "GLIBC_TUNABLES=";

// `list` ("a=1:b=2") with the settings whose tunable it does not name appended.
std::string joined(std::string_view list, std::initializer_list<std::string_view> settings) {
    std::string out(list);
    for (const std::string_view setting : settings) {
        const std::string_view tunable = setting.substr(0, setting.find('='));
        if (list.find(tunable) != std::string_view::npos) continue;
        out.append(out.empty() ? "" : ":").append(setting);
    }
    return out;
}

}  // namespace

std::vector<std::string> with_glibc_tunables(const char* const* env, std::initializer_list<std::string_view> settings) {
    std::vector<std::string> out;
    bool found = false;
    for (const char* const* e = env; *e; ++e) {
        const std::string_view entry(*e);
        if (!found && entry.starts_with(kVariable)) {
            found = true;
            out.push_back(std::string(kVariable).append(joined(entry.substr(kVariable.size()), settings)));
        } else {
            out.emplace_back(entry);
        }
    }
    if (!found) out.push_back(std::string(kVariable).append(joined({}, settings)));
    return out;
}

}  // namespace irlint
