# FindComputeSanitizer: locate NVIDIA's Compute Sanitizer API (sanitizer.h + libsanitizer-public.so).
#
# Search order (first hit wins):
#   1. -DComputeSanitizer_ROOT=<dir>            (CMake's <Package>_ROOT variable)
#   2. $ENV{COMPUTE_SANITIZER_ROOT}
#   3. <CUDA toolkit root>/compute-sanitizer, then /usr/local/cuda/compute-sanitizer
#   4. ${CMAKE_SOURCE_DIR}/.deps/**/nvidia/cu*/{include,lib}   (the wheel scripts/setup-deps.sh unpacks)
# Each root may hold the files directly (toolkit layout: include/sanitizer.h, libsanitizer-public.so)
# or in include/ and lib/ (wheel layout).
#
# Defines:
#   ComputeSanitizer_FOUND, ComputeSanitizer_INCLUDE_DIR, ComputeSanitizer_LIBRARY,
#   ComputeSanitizer_LIBRARY_DIR, ComputeSanitizer_ROOT_DIR (where it was found)
#   imported target ComputeSanitizer::sanitizer (headers + library; the sanitizer headers include
#   <cuda.h>, so the CUDA toolkit's include directory is added to its interface too).

set(_cs_roots)
if(ComputeSanitizer_ROOT)
  list(APPEND _cs_roots "${ComputeSanitizer_ROOT}")
endif()
if(DEFINED ENV{COMPUTE_SANITIZER_ROOT} AND NOT "$ENV{COMPUTE_SANITIZER_ROOT}" STREQUAL "")
  list(APPEND _cs_roots "$ENV{COMPUTE_SANITIZER_ROOT}")
endif()
if(CUDAToolkit_BIN_DIR)
  get_filename_component(_cs_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  list(APPEND _cs_roots "${_cs_cuda_root}/compute-sanitizer")
endif()
if(CUDAToolkit_LIBRARY_ROOT)
  list(APPEND _cs_roots "${CUDAToolkit_LIBRARY_ROOT}/compute-sanitizer")
endif()
list(APPEND _cs_roots "/usr/local/cuda/compute-sanitizer")
# Wheels unpacked by scripts/setup-deps.sh: <src>/.deps/.../nvidia/cu13/include/sanitizer.h.
file(GLOB_RECURSE _cs_dep_headers LIST_DIRECTORIES false "${CMAKE_SOURCE_DIR}/.deps/*/sanitizer.h")
list(SORT _cs_dep_headers ORDER DESCENDING)   # cu13 before cu12 when both are present
foreach(_h IN LISTS _cs_dep_headers)
  get_filename_component(_d "${_h}" DIRECTORY)
  get_filename_component(_d "${_d}" DIRECTORY)
  list(APPEND _cs_roots "${_d}")
endforeach()
list(REMOVE_DUPLICATES _cs_roots)

# Take the first root that has both the header and the library, so that the two always match.
if(NOT ComputeSanitizer_INCLUDE_DIR OR NOT ComputeSanitizer_LIBRARY)
  foreach(_root IN LISTS _cs_roots)
    unset(_cs_inc CACHE)
    unset(_cs_lib CACHE)
    find_path(_cs_inc NAMES sanitizer.h PATHS "${_root}" PATH_SUFFIXES include NO_DEFAULT_PATH)
    find_library(_cs_lib NAMES sanitizer-public PATHS "${_root}" PATH_SUFFIXES lib lib64
                 NO_DEFAULT_PATH)
    if(_cs_inc AND _cs_lib)
      set(ComputeSanitizer_INCLUDE_DIR "${_cs_inc}" CACHE PATH "Compute Sanitizer API headers")
      set(ComputeSanitizer_LIBRARY "${_cs_lib}" CACHE FILEPATH "libsanitizer-public.so")
      set(ComputeSanitizer_ROOT_DIR "${_root}")
      break()
    endif()
  endforeach()
  unset(_cs_inc CACHE)
  unset(_cs_lib CACHE)
endif()

# sanitizer_callbacks.h includes <cuda.h>.
set(_cs_cuda_includes)
if(CUDAToolkit_INCLUDE_DIRS)
  set(_cs_cuda_includes ${CUDAToolkit_INCLUDE_DIRS})
endif()
find_path(ComputeSanitizer_CUDA_INCLUDE_DIR NAMES cuda.h
          HINTS ${_cs_cuda_includes} /usr/local/cuda/include)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ComputeSanitizer
  REQUIRED_VARS ComputeSanitizer_LIBRARY ComputeSanitizer_INCLUDE_DIR ComputeSanitizer_CUDA_INCLUDE_DIR
  REASON_FAILURE_MESSAGE
    "run scripts/setup-deps.sh, or pass -DComputeSanitizer_ROOT=<dir with sanitizer.h and libsanitizer-public.so>")

if(ComputeSanitizer_FOUND)
  get_filename_component(ComputeSanitizer_LIBRARY_DIR "${ComputeSanitizer_LIBRARY}" DIRECTORY)
  if(NOT TARGET ComputeSanitizer::sanitizer)
    add_library(ComputeSanitizer::sanitizer SHARED IMPORTED)
    set_target_properties(ComputeSanitizer::sanitizer PROPERTIES
      IMPORTED_LOCATION "${ComputeSanitizer_LIBRARY}"
      IMPORTED_SONAME "libsanitizer-public.so"
      INTERFACE_INCLUDE_DIRECTORIES
        "${ComputeSanitizer_INCLUDE_DIR};${ComputeSanitizer_CUDA_INCLUDE_DIR}")
  endif()
endif()
mark_as_advanced(ComputeSanitizer_INCLUDE_DIR ComputeSanitizer_LIBRARY
                 ComputeSanitizer_CUDA_INCLUDE_DIR)
unset(_cs_roots)
unset(_cs_dep_headers)
