# cmake -DGEOMINT_BUILD_DIR=… -DDOWNSTREAM_SOURCE_DIR=… -DWORK_DIR=… [-DEXTRA_FLAGS=…] -P run_downstream.cmake
# EXTRA_FLAGS: compiler and linker flags for the downstream build (the sanitizers of the build tree).
# CXX_COMPILER: the build tree's compiler (an instrumented library needs its own sanitizer runtime).
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${GEOMINT_BUILD_DIR} --prefix ${WORK_DIR}/prefix)
# The program uses a bundled test problem: it asks for them as a user would.
run(${CMAKE_COMMAND} --install ${GEOMINT_BUILD_DIR} --prefix ${WORK_DIR}/prefix --component geomint_extras)
string(REPLACE ";" " " EXTRA_FLAGS "${EXTRA_FLAGS}")
set(compiler)
if(CXX_COMPILER)
  set(compiler -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
# The machine as a header-only user's may be: without SUNDIALS, FFTW (found through pkg-config)
# or MPI. find_package(geomint COMPONENTS core odeint) must not need them.
set(hidden -DCMAKE_DISABLE_FIND_PACKAGE_SUNDIALS=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
run(${CMAKE_COMMAND} -S ${DOWNSTREAM_SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release ${compiler}
    ${hidden} "-DCMAKE_CXX_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/downstream)
if(NOT last_output MATCHES "constraint residual")
  message(FATAL_ERROR "unexpected output: ${last_output}")
endif()
message(STATUS "${last_output}")
# A component whose dependency is missing fails find_package, naming it (where geomint was built
# with the SUNDIALS adapter).
file(GLOB_RECURSE sundials_targets ${WORK_DIR}/prefix/geomintSundialsTargets.cmake)
if(sundials_targets)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${DOWNSTREAM_SOURCE_DIR} -B ${WORK_DIR}/build-sundials
                  -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${compiler} ${hidden} -DGEOMINT_COMPONENTS=sundials
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \t\r\n]+" " " said "${out}${err}")  # CMake wraps the reason given
  if(rc EQUAL 0 OR NOT said MATCHES "sundials, sundials_static and ida need SUNDIALS 6\\.4")
    message(FATAL_ERROR "find_package(geomint COMPONENTS sundials) without SUNDIALS: rc ${rc}\n${out}\n${err}")
  endif()
endif()
