# Installs the build tree into a scratch prefix, then configures, builds and runs a downstream
# project that finds geomint::sundials with find_package(geomint CONFIG).
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P downstream_test.cmake
# EXTRA_FLAGS (optional): compiler and linker flags for the downstream builds (the build tree's
# sanitizers: an instrumented library needs an instrumented program). C_COMPILER, CXX_COMPILER
# (optional): the build tree's compilers, whose sanitizer runtime the instrumented library needs.
file(REMOVE_RECURSE ${WORK_DIR})
set(extra_list "${EXTRA_FLAGS}")
string(REPLACE ";" " " EXTRA_FLAGS "${EXTRA_FLAGS}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
# The reference problems and the allocation counter are not part of the default install.
foreach(extra include/geomint/problems include/geomint/diagnostics/count_allocations.hpp)
  if(EXISTS ${WORK_DIR}/prefix/${extra})
    message(FATAL_ERROR "the default install contains ${extra}, which is installed on request only")
  endif()
endforeach()
# The downstream program uses a reference problem: installed on request only.
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix --component geomint_extras)
set(compilers)
if(C_COMPILER AND CXX_COMPILER)
  set(compilers -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/sundials/downstream -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release ${compilers}
    "-DCMAKE_C_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_CXX_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}"
    -DEXAMPLE_SOURCE=${SOURCE_DIR}/examples/sundials/double_pendulum.c
    -DLIE_EXAMPLE_SOURCE=${SOURCE_DIR}/examples/sundials/rigid_body.c)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j 2)
run(${WORK_DIR}/build/downstream_c)
run(${WORK_DIR}/build/downstream_lie_c)
run(${WORK_DIR}/build/downstream_cxx)
