# The build of the Python package (pyproject.toml passes -DCUCHECK_PYTHON_WHEEL=ON; scikit-build-core
# drives this CMake build and installs into site-packages/cucheck). Included by the top-level
# CMakeLists.txt after find_package(CUDAToolkit) and before find_package(ComputeSanitizer); does
# nothing unless CUCHECK_PYTHON_WHEEL is ON. It
#  - takes the Compute Sanitizer API from the nvidia-cuda-sanitizer-api wheel in the Python build
#    environment (scikit-build-core puts its site-packages on CMAKE_PREFIX_PATH) when there is one,
#    so that the agent is built against the copy users get;
#  - requires nvcc and the Sanitizer API (a wheel without the agent or its patches is useless);
#  - checks that pyproject.toml's nvidia-cuda-sanitizer-api pin names the toolkit's CUDA version;
#  - sets CUCHECK_WHEEL_SANITIZER_RELDIR, the Sanitizer library's folder relative to site-packages
#    (nvidia/cu13/lib), which cmake/Install.cmake turns into the agent's RUNPATH.
option(CUCHECK_PYTHON_WHEEL "Build for the Python package (set by pyproject.toml)" OFF)
if(NOT CUCHECK_PYTHON_WHEEL)
  return()
endif()

if(NOT CUDAToolkit_NVCC_EXECUTABLE)
  message(FATAL_ERROR "cucheck wheel: nvcc was not found; the agent's device patches need the "
                      "CUDA toolkit (set CUDACXX or put the toolkit's bin/ on PATH)")
endif()

# A cached Sanitizer library from an earlier build environment that no longer exists (pip's
# isolated build environments are temporary; the build folder is reused) is looked up again.
if(ComputeSanitizer_LIBRARY AND NOT EXISTS "${ComputeSanitizer_LIBRARY}")
  unset(ComputeSanitizer_LIBRARY CACHE)
  unset(ComputeSanitizer_INCLUDE_DIR CACHE)
endif()
if(NOT ComputeSanitizer_ROOT AND NOT DEFINED ENV{COMPUTE_SANITIZER_ROOT})
  foreach(_cw_prefix IN LISTS CMAKE_PREFIX_PATH)
    file(GLOB _cw_headers LIST_DIRECTORIES false "${_cw_prefix}/nvidia/*/include/sanitizer.h")
    list(SORT _cw_headers ORDER DESCENDING)   # cu13 before cu12
    if(_cw_headers)
      list(GET _cw_headers 0 _cw_header)
      get_filename_component(_cw_root "${_cw_header}" DIRECTORY)
      get_filename_component(ComputeSanitizer_ROOT "${_cw_root}" DIRECTORY)
      message(STATUS "cucheck wheel: Compute Sanitizer API from ${ComputeSanitizer_ROOT}")
      break()
    endif()
  endforeach()
endif()

# pyproject.toml's pin and the toolkit's version must agree: the agent is built against this
# toolkit's headers and the wheel declares the Sanitizer library users will load.
set(_cw_major "${CUDAToolkit_VERSION_MAJOR}")
set(_cw_minor "${CUDAToolkit_VERSION_MINOR}")
if(_cw_major GREATER_EQUAL 13)
  set(_cw_pin "nvidia-cuda-sanitizer-api==${_cw_major}.${_cw_minor}.*")
  set(CUCHECK_WHEEL_SANITIZER_RELDIR "nvidia/cu${_cw_major}/lib")
else()
  set(_cw_pin "nvidia-cuda-sanitizer-api-cu${_cw_major}==${_cw_major}.${_cw_minor}.*")
  set(CUCHECK_WHEEL_SANITIZER_RELDIR "nvidia/cuda_sanitizer_api/lib")
endif()
file(STRINGS "${CMAKE_SOURCE_DIR}/pyproject.toml" _cw_dependencies REGEX "^dependencies *=")
string(FIND "${_cw_dependencies}" "\"${_cw_pin}\"" _cw_at)
if(_cw_at LESS 0)
  message(FATAL_ERROR "cucheck wheel: the CUDA toolkit is ${_cw_major}.${_cw_minor} but "
                      "pyproject.toml's dependencies are ${_cw_dependencies}; make them "
                      "[\"${_cw_pin}\"] (and the same pin in build-system.requires)")
endif()

unset(_cw_prefix)
unset(_cw_headers)
unset(_cw_header)
unset(_cw_root)
unset(_cw_major)
unset(_cw_minor)
unset(_cw_pin)
unset(_cw_dependencies)
unset(_cw_at)
