// fmt's compiled part, built once for the static binary. Debian ships libfmt only as a shared library;
// linked statically, irlint would use fmt header-only, and then every file that formats compiles fmt's
// formatting core again (about 2 s of a Release build per file, 60 files). This file defines that core
// once, the way fmt's own library build does: the functions of format-inl.h, and the templates that
// format.h leaves to the library (the char ones; irlint formats no wide strings).
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;
template void buffer<char>::append(const char*, const char*);
template void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);
}  // namespace detail
FMT_END_NAMESPACE
