# Install layout (GNUInstallDirs), included by the top-level CMakeLists.txt after every target:
#   <prefix>/<bindir>/cucheck                           the CLI
#   <prefix>/<libdir>/cucheck/libcucheck_agent.so       the agent the CLI injects (device patches
#                                                       are embedded in it)
#   <prefix>/<libdir>/cucheck/libsanitizer-public.so    the Compute Sanitizer API, when the build
#                                                       used a private copy
#                                                       (CUCHECK_INSTALL_SANITIZER)
# The Python package (pyproject.toml, cmake/PythonWheel.cmake) installs the same tree under
# site-packages/cucheck, the agent's RUNPATH pointing at the nvidia-cuda-sanitizer-api wheel.
# The CLI finds the agent relative to its own executable (src/cli/agent_locate.c): the relative
# path from bindir to the agent's folder is compiled in, so an installed tree works from any
# prefix, also one given later with `cmake --install <build> --prefix <dir>`.
include(GNUInstallDirs)

set(CUCHECK_INSTALL_AGENTDIR "${CMAKE_INSTALL_LIBDIR}/cucheck")

# bin -> lib/cucheck gives "../lib/cucheck". Both relative: computed under a stand-in prefix, so
# the result holds for every prefix; otherwise from the absolute folders.
if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}" OR IS_ABSOLUTE "${CUCHECK_INSTALL_AGENTDIR}")
  set(_cc_bin "${CMAKE_INSTALL_FULL_BINDIR}")
  set(_cc_agent "${CMAKE_INSTALL_FULL_LIBDIR}/cucheck")
else()
  set(_cc_bin "/prefix/${CMAKE_INSTALL_BINDIR}")
  set(_cc_agent "/prefix/${CUCHECK_INSTALL_AGENTDIR}")
endif()
file(RELATIVE_PATH _cc_agent_rel "${_cc_bin}" "${_cc_agent}")
if(_cc_agent_rel STREQUAL "")
  set(_cc_agent_rel ".")
endif()
target_compile_definitions(cucheck PRIVATE CUCHECK_AGENT_RELDIR="${_cc_agent_rel}")
install(TARGETS cucheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(TARGET cucheck_agent)
  # The agent finds libsanitizer-public.so where the build found it (its RUNPATH: a CUDA
  # toolkit's compute-sanitizer/ folder or the nvidia-cuda-sanitizer-api wheel unpacked into
  # .deps/). NVIDIA's library is not copied by default: CUCHECK_INSTALL_SANITIZER=ON installs it
  # next to the agent (with its licence), for a tree that must not depend on where it was built.
  option(CUCHECK_INSTALL_SANITIZER
         "Install NVIDIA's libsanitizer-public.so next to the agent (default OFF: found where built)"
         OFF)

  if(CUCHECK_PYTHON_WHEEL AND CUCHECK_INSTALL_SANITIZER)
    message(FATAL_ERROR "cucheck wheel: NVIDIA's library is not put into the wheel (it comes from "
                        "the nvidia-cuda-sanitizer-api dependency); leave CUCHECK_INSTALL_SANITIZER OFF")
  endif()
  install(TARGETS cucheck_agent LIBRARY DESTINATION ${CUCHECK_INSTALL_AGENTDIR})
  if(CUCHECK_INSTALL_SANITIZER)
    file(REAL_PATH "${ComputeSanitizer_LIBRARY}" _cc_sanitizer_file)
    install(FILES "${_cc_sanitizer_file}" DESTINATION ${CUCHECK_INSTALL_AGENTDIR}
            RENAME libsanitizer-public.so)
    # Its licence travels with it (the wheel's dist-info, when the copy came from one).
    get_filename_component(_cc_wheel_root "${ComputeSanitizer_LIBRARY_DIR}/../../.." ABSOLUTE)
    file(GLOB _cc_sanitizer_licences
         "${_cc_wheel_root}/nvidia_cuda_sanitizer_api-*.dist-info/licenses/*")
    if(_cc_sanitizer_licences)
      install(FILES ${_cc_sanitizer_licences}
              DESTINATION ${CMAKE_INSTALL_DOCDIR}/compute-sanitizer-api)
    endif()
    set_target_properties(cucheck_agent PROPERTIES INSTALL_RPATH "$ORIGIN")
  elseif(CUCHECK_PYTHON_WHEEL)
    # The Python package (cmake/PythonWheel.cmake): the prefix is site-packages/cucheck, and the
    # Sanitizer library is the nvidia-cuda-sanitizer-api wheel's, in the same site-packages
    # (nvidia/cu13/lib); a CUDA toolkit's copy in the default place is the fallback.
    file(RELATIVE_PATH _cc_wheel_rel "/site-packages/cucheck/${CUCHECK_INSTALL_AGENTDIR}"
         "/site-packages/${CUCHECK_WHEEL_SANITIZER_RELDIR}")
    set_target_properties(cucheck_agent PROPERTIES
      INSTALL_RPATH "$ORIGIN/${_cc_wheel_rel};/usr/local/cuda/compute-sanitizer")
  else()
    set_target_properties(cucheck_agent PROPERTIES INSTALL_RPATH "${ComputeSanitizer_LIBRARY_DIR}")
  endif()
endif()

if(CUCHECK_PYTHON_WHEEL AND NOT TARGET cucheck_agent)
  message(FATAL_ERROR "cucheck wheel: the Compute Sanitizer API was not found, so the agent cannot "
                      "be built (build with pip's build isolation, which installs "
                      "nvidia-cuda-sanitizer-api, or run scripts/setup-deps.sh first)")
endif()

unset(_cc_bin)
unset(_cc_agent)
unset(_cc_agent_rel)
unset(_cc_private_sanitizer)
unset(_cc_sanitizer_file)
unset(_cc_wheel_root)
unset(_cc_sanitizer_licences)
unset(_cc_wheel_rel)
