# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# nx_pass_statistics(OUTPUT TD_FILE): generates OUTPUT, the
# NX_PASS_STATISTIC(argument, name, description) list of TD_FILE's pass
# statistics (see cmake/gen-pass-statistics.py and
# include/nx/Support/PassStatistics.h), from llvm-tblgen's JSON dump of its
# records. Appends OUTPUT to NX_PASS_STATISTICS_OUTPUTS in the caller's scope.
find_program(NX_LLVM_TBLGEN llvm-tblgen HINTS ${LLVM_TOOLS_BINARY_DIR}
             NO_DEFAULT_PATH REQUIRED)
if(NOT Python3_EXECUTABLE)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()

function(nx_pass_statistics output td)
  set(includes)
  foreach(dir ${MLIR_INCLUDE_DIRS} ${NX_SOURCE_DIR}/include)
    list(APPEND includes -I ${dir})
  endforeach()
  set(json ${output}.json)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${NX_LLVM_TBLGEN} --dump-json ${includes} ${td} -o ${json}
    COMMAND ${Python3_EXECUTABLE} ${NX_SOURCE_DIR}/cmake/gen-pass-statistics.py
            ${json} ${output}
    DEPENDS ${td} ${NX_SOURCE_DIR}/cmake/gen-pass-statistics.py
    COMMENT "Generating the pass statistics list of ${td}")
  set(NX_PASS_STATISTICS_OUTPUTS ${NX_PASS_STATISTICS_OUTPUTS} ${output}
      PARENT_SCOPE)
endfunction()
