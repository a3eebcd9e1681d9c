# What `cmake --install build --prefix P` puts under P, and the Debian package `cpack -G DEB` makes of it:
#   bin/irlint
#   share/man/man1/irlint.1                        generated from the binary's --help (packaging/gen_man.py)
#   share/bash-completion/completions/irlint       generated the same way (packaging/gen_completion.py)
#   share/doc/irlint/README.md, share/doc/irlint/docs/*.md
#   the Python package irlint in the interpreter's site directory (python/CMakeLists.txt), when IRLINT_PYTHON

find_program(IRLINT_SCRIPT_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT IRLINT_SCRIPT_PYTHON)
  find_program(IRLINT_SCRIPT_PYTHON NAMES python3 REQUIRED)
endif()

set(IRLINT_MAN_PAGE "${PROJECT_BINARY_DIR}/irlint.1")
set(IRLINT_COMPLETION "${PROJECT_BINARY_DIR}/irlint.bash-completion")
set(IRLINT_HELP_READER "${PROJECT_SOURCE_DIR}/packaging/cli_help.py")
add_custom_command(
  OUTPUT "${IRLINT_MAN_PAGE}"
  COMMAND "${IRLINT_SCRIPT_PYTHON}" "${PROJECT_SOURCE_DIR}/packaging/gen_man.py" --irlint $<TARGET_FILE:irlint>
          --out "${IRLINT_MAN_PAGE}"
  DEPENDS irlint "${PROJECT_SOURCE_DIR}/packaging/gen_man.py" "${IRLINT_HELP_READER}"
  COMMENT "Generating the man page irlint.1 from irlint --help"
  VERBATIM)
add_custom_command(
  OUTPUT "${IRLINT_COMPLETION}"
  COMMAND "${IRLINT_SCRIPT_PYTHON}" "${PROJECT_SOURCE_DIR}/packaging/gen_completion.py" --irlint $<TARGET_FILE:irlint>
          --out "${IRLINT_COMPLETION}"
  DEPENDS irlint "${PROJECT_SOURCE_DIR}/packaging/gen_completion.py" "${IRLINT_HELP_READER}"
  COMMENT "Generating the bash completion of irlint from irlint --help"
  VERBATIM)
add_custom_target(irlint_help_files ALL DEPENDS "${IRLINT_MAN_PAGE}" "${IRLINT_COMPLETION}")

install(TARGETS irlint RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${IRLINT_MAN_PAGE}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${IRLINT_COMPLETION}" DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions"
        RENAME irlint)
install(FILES README.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY docs/ DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs" FILES_MATCHING PATTERN "*.md")

# Debian package: irlint_VERSION_ARCH.deb; Depends is what dpkg-shlibdeps finds the binary linked against.
set(CPACK_PACKAGE_NAME irlint)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "irlint developers <${PROJECT_HOMEPAGE_URL}/issues>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGE_DESCRIPTION
    "irlint infers the output shapes of AvgPool, MaxPool and the adaptive pools exactly as OpenVINO does and \
reports every disagreement with the file, with the arithmetic, as text, JSON, SARIF or JUnit XML. It also \
runs one pooling layer on .npy data and explains mismatches.")
# The Python module ships in the same package, not in a python3-irlint beside it: it is the same code as the
# binary (one pipeline, one version), built by the same build, and a second package would be a second thing
# to keep in step for the few hundred kilobytes it costs. Its libraries are the helper irlint-onnx's (libonnx,
# libprotobuf), so it adds no Depends; python3 is only suggested, in the version the module was built for
# (the extension's ABI tag names it), since the command line needs no Python.
if(IRLINT_PYTHON)
  math(EXPR irlint_python_next_minor "${Python_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS
      "python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}~), python3 (<< ${Python_VERSION_MAJOR}.${irlint_python_next_minor}), python3-numpy")
endif()
include(CPack)
