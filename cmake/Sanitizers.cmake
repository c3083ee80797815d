# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# NX_SANITIZER=address -> ASan + UBSan, NX_SANITIZER=thread -> TSan.
if(NX_SANITIZER STREQUAL "address")
  set(NX_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
elseif(NX_SANITIZER STREQUAL "thread")
  set(NX_SANITIZER_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
elseif(NOT NX_SANITIZER STREQUAL "")
  message(FATAL_ERROR "NX_SANITIZER must be '', 'address' or 'thread', got '${NX_SANITIZER}'")
endif()
if(NX_SANITIZER_FLAGS)
  add_compile_options(${NX_SANITIZER_FLAGS})
  add_link_options(${NX_SANITIZER_FLAGS})
endif()
# Clang links the sanitizer runtime statically into executables only, so a
# shared library's references to it stay undefined until it is loaded:
# sanitizer builds with clang link shared libraries without -z defs (as LLVM
# itself does under LLVM_USE_SANITIZER).
set(NX_SHARED_LIBS_ALLOW_UNDEFINED OFF)
if(NX_SANITIZER_FLAGS AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(NX_SHARED_LIBS_ALLOW_UNDEFINED ON)
endif()
