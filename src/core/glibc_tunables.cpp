#include "core/glibc_tunables.hpp"

namespace irlint {

namespace {
constexpr std::string_view kVariable = "GLIBC_TUNABLES=";
}  // namespace

std::vector<std::string> with_glibc_tunable(const char* const* env, std::string_view setting) {
    const std::string_view tunable = setting.substr(0, setting.find('='));
    std::vector<std::string> out;
    bool found = false;
    for (const char* const* e = env; *e; ++e) {
        std::string entry(*e);
        if (!found && entry.starts_with(kVariable)) {
            found = true;
            const std::string_view list = std::string_view(entry).substr(kVariable.size());
            if (list.find(tunable) == std::string_view::npos) entry.append(list.empty() ? "" : ":").append(setting);
        }
        out.push_back(std::move(entry));
    }
    if (!found) out.push_back(std::string(kVariable).append(setting));
    return out;
}

}  // namespace irlint
