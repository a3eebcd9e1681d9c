# Precompiled headers: the standard library and fmt headers that nearly every file includes, parsed once per
# target instead of once per file (0.3 to 0.7 s a file in a Release build), and the heavy headers a target's
# files all include (CLI11 for the subcommands, about 4.7 s a file; pybind11 for the module, about 3.6 s a file;
# doctest for the tests). IRLINT_PCH=OFF builds without them, as a check that every file includes what it uses.
option(IRLINT_PCH "Build with precompiled headers" ON)

set(irlint_pch_common
  <algorithm> <array> <cstdint> <cstring> <functional> <map> <memory> <optional> <set> <span> <string>
  <string_view> <unordered_map> <utility> <variant> <vector>
  <fmt/format.h>
)

# With a precompiled header GCC 12 reports false positives of these warnings inside the inlined standard
# library (std::string and std::vector copies) that the same files without one do not get; clang does not.
if(IRLINT_PCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options(-Wno-array-bounds -Wno-restrict -Wno-stringop-overread -Wno-stringop-overflow)
endif()

# irlint_precompile(TARGET [HEADER...]): the common headers, and HEADERs, precompiled for TARGET.
function(irlint_precompile target)
  if(IRLINT_PCH)
    target_precompile_headers(${target} PRIVATE ${irlint_pch_common} ${ARGN})
  endif()
endfunction()
