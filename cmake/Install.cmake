# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installation and the two CMake packages:
#   nxrt    the runtime alone (libnxrt, its headers, nxrt-run): no MLIR, and
#           the only package of a -DNX_ENABLE_COMPILER=OFF build;
#   NxMLIR  the compiler's libraries (dialect, passes, pipelines, JIT and
#           AOT compilers, C API), the tools and the mlir-opt plugin.
# Installed binaries find their libraries through RUNPATHs relative to
# themselves ($ORIGIN), so a prefix can move; only external libraries (LLVM's
# own directory) keep absolute entries.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NX_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake)
file(RELATIVE_PATH NX_BIN_TO_LIB "/${CMAKE_INSTALL_BINDIR}"
     "/${CMAKE_INSTALL_LIBDIR}")
set(NX_BINARY_RUNPATH "$ORIGIN/${NX_BIN_TO_LIB}")
set(NX_LIBRARY_RUNPATH "$ORIGIN")

# Adds `runpath` to the targets' install RUNPATH, plus the non-system
# directories they link from (LLVM's), which CMake appends itself.
function(nx_set_install_runpath runpath)
  foreach(target ${ARGN})
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES
        INSTALL_RPATH "${runpath}"
        INSTALL_RPATH_USE_LINK_PATH ON)
    endif()
  endforeach()
endfunction()

# --- nxrt ---------------------------------------------------------------------
install(TARGETS nxrt EXPORT nxrtTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${NX_SOURCE_DIR}/runtime/include/nxrt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
install(FILES ${NX_BINARY_DIR}/include/nxrt/nxrt_version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nxrt)
if(TARGET nxrt-run)
  install(TARGETS nxrt-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  nx_set_install_runpath("${NX_BINARY_RUNPATH}" nxrt-run)
endif()
nx_set_install_runpath("${NX_LIBRARY_RUNPATH}" nxrt)
# libgomp.so.1 beside libnxrt names libomp (runtime/lib/nxrt/CMakeLists.txt).
install(FILES ${NXRT_GOMP_LINK} DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT nxrtTargets NAMESPACE nxrt::
  DESTINATION ${NX_INSTALL_CMAKEDIR}/nxrt)
configure_package_config_file(${NX_SOURCE_DIR}/cmake/nxrtConfig.cmake.in
  ${NX_BINARY_DIR}/cmake/nxrtConfig.cmake
  INSTALL_DESTINATION ${NX_INSTALL_CMAKEDIR}/nxrt
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${NX_BINARY_DIR}/cmake/nxrtConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${NX_BINARY_DIR}/cmake/nxrtConfig.cmake
              ${NX_BINARY_DIR}/cmake/nxrtConfigVersion.cmake
  DESTINATION ${NX_INSTALL_CMAKEDIR}/nxrt)

# The README and the manual keep the source tree's layout, so their relative
# links hold where they are installed.
install(FILES ${NX_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${NX_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
  FILES_MATCHING PATTERN "*.md" PATTERN "Dialects" EXCLUDE PATTERN "Passes" EXCLUDE)

# --- NxMLIR -------------------------------------------------------------------
if(NOT NX_ENABLE_COMPILER)
  return()
endif()

# The compiler's libraries, dependencies before dependents. Static libraries
# carry their dependencies in the export (as link-only entries), so every one
# a library links must be exported too.
set(NX_COMPILER_LIBRARIES
  NxSupport NxDialect NxBlockLowering NxTransforms NxCodegenCPU NxDialectTransforms
  NxToCustomCall NxToLLVM NxLinalgToOpenMP NxLinalgToBlas NxLinalgToDnnl NxStableHLO
  NxHooksToIoCallback NxPipelines NxRegistration nxhost NxRunner NxAot
  NxMLIRCAPI NxCAPI)
set(NX_EXPORTED_LIBRARIES)
foreach(library ${NX_COMPILER_LIBRARIES})
  if(TARGET ${library})
    list(APPEND NX_EXPORTED_LIBRARIES ${library})
  endif()
endforeach()

# NxMLIR::NxMLIR: every C++ library, with the include directories of the
# install. Not the C API's shared libraries: libNxCAPI.so holds its own copy
# of the dialect and passes (linked in privately), and a C++ tool linking
# both would carry two of each (an ODR violation, which ASan reports). C
# hosts link NxMLIR::NxCAPI alone.
set(NX_CXX_LIBRARIES ${NX_EXPORTED_LIBRARIES})
list(REMOVE_ITEM NX_CXX_LIBRARIES NxMLIRCAPI NxCAPI)
add_library(NxMLIR INTERFACE)
target_link_libraries(NxMLIR INTERFACE ${NX_CXX_LIBRARIES})
target_include_directories(NxMLIR INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

install(TARGETS ${NX_EXPORTED_LIBRARIES} NxMLIR EXPORT NxMLIRTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
nx_set_install_runpath("${NX_LIBRARY_RUNPATH}" NxBlockLowering NxMLIRCAPI NxCAPI)

set(NX_TOOLS nx-opt nx-runner nx-compile)
install(TARGETS ${NX_TOOLS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
nx_set_install_runpath("${NX_BINARY_RUNPATH}" ${NX_TOOLS})
install(TARGETS NxPlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
nx_set_install_runpath("${NX_LIBRARY_RUNPATH}" NxPlugin)

# Headers: the sources' (with the TableGen files, as upstream MLIR installs
# them) and the generated ones.
install(DIRECTORY ${NX_SOURCE_DIR}/include/nx
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def"
  PATTERN "CMakeLists.txt" EXCLUDE)
# nxhost's headers: nxhost is exported here, as NxRunner links it.
install(DIRECTORY ${NX_SOURCE_DIR}/runtime/include/nxhost
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
if(EXISTS ${NX_SOURCE_DIR}/include/nx-c)
  install(DIRECTORY ${NX_SOURCE_DIR}/include/nx-c
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
endif()
install(DIRECTORY ${NX_BINARY_DIR}/include/nx
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY ${NX_SOURCE_DIR}/docs/Dialects ${NX_SOURCE_DIR}/docs/Passes
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

install(EXPORT NxMLIRTargets NAMESPACE NxMLIR::
  DESTINATION ${NX_INSTALL_CMAKEDIR}/NxMLIR)
configure_package_config_file(${NX_SOURCE_DIR}/cmake/NxMLIRConfig.cmake.in
  ${NX_BINARY_DIR}/cmake/NxMLIRConfig.cmake
  INSTALL_DESTINATION ${NX_INSTALL_CMAKEDIR}/NxMLIR
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${NX_BINARY_DIR}/cmake/NxMLIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${NX_BINARY_DIR}/cmake/NxMLIRConfig.cmake
              ${NX_BINARY_DIR}/cmake/NxMLIRConfigVersion.cmake
  DESTINATION ${NX_INSTALL_CMAKEDIR}/NxMLIR)
