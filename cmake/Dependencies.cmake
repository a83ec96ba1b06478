# Optional Debian libraries. Each sets CUCHECK_HAVE_<NAME> and an imported target when found;
# code that uses one checks the matching compile definition.
# CUCHECK_USE_SYSTEM_LIBS=OFF links none of them (a Python wheel for machines that may lack them,
# scripts/build-wheels.sh --without-system-libs): compressed fatbin entries are then not read and
# host stacks are symbolized with dladdr (function names, no file:line).
option(CUCHECK_USE_SYSTEM_LIBS "Link zstd, lz4 and libdw when they are found" ON)
if(CUCHECK_USE_SYSTEM_LIBS)
  find_package(PkgConfig QUIET)
else()
  # src/agent looks for libdw without pkg-config too: a defined, false value stops that search.
  set(CUCHECK_LIBDW_INCLUDE_DIR OFF)
  set(CUCHECK_LIBDW_LIBRARY OFF)
endif()
if(PkgConfig_FOUND)
  pkg_check_modules(ZSTD QUIET IMPORTED_TARGET libzstd)
  pkg_check_modules(LZ4 QUIET IMPORTED_TARGET liblz4)
  pkg_check_modules(LIBDW QUIET IMPORTED_TARGET libdw)
endif()
foreach(dep ZSTD LZ4 LIBDW)
  if(CUCHECK_USE_SYSTEM_LIBS AND ${dep}_FOUND)
    message(STATUS "cucheck: ${dep} found")
  else()
    if(NOT CUCHECK_USE_SYSTEM_LIBS)
      message(STATUS "cucheck: ${dep} not used (CUCHECK_USE_SYSTEM_LIBS=OFF)")
    else()
      message(STATUS "cucheck: ${dep} not found (install the Debian -dev package; scripts/setup-deps.sh does)")
    endif()
  endif()
endforeach()
