# Builds the ensemble tests and the C module with ThreadSanitizer in WORK_DIR (a build of this
# source tree with nothing else in it) and runs them: ensemble_c_threads (one C memory block per
# thread) and test_ensemble (the C++ thread pool). ThreadSanitizer makes a program exit with 66
# on a data race; any failure fails this script.
#   cmake -DSOURCE_DIR=<geomint> -DWORK_DIR=<dir> -P tsan_build.cmake
foreach(v SOURCE_DIR WORK_DIR)
  if(NOT ${v})
    message(FATAL_ERROR "tsan_build.cmake: ${v} is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "tsan_build.cmake: '${ARGN}' failed (${code})")
  endif()
endfunction()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O1\ -g1
    -DCMAKE_CXX_FLAGS_DEBUG=-O1\ -g1 -DGEOMINT_SANITIZE_THREAD=ON -DGEOMINT_TEST_FAMILIES=ensemble
    -DGEOMINT_BUILD_CLI=OFF -DGEOMINT_BUILD_EXAMPLES=OFF -DGEOMINT_BUILD_BENCH=OFF -DGEOMINT_BUILD_MPI=OFF)
run(${CMAKE_COMMAND} --build ${WORK_DIR} --target ensemble_c_threads test_ensemble)
set(ENV{TSAN_OPTIONS} "halt_on_error=1")
run(${WORK_DIR}/tests/ensemble/ensemble_c_threads)
run(${WORK_DIR}/tests/ensemble/test_ensemble --log_level=warning)
