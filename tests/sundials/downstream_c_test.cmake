# Installs the build tree into a scratch prefix, then builds C programs against it the two ways
# a C user does, and runs them:
#   MODE=cmake      the C-only CMake project downstream_c/ (Eigen and Boost made unfindable)
#   MODE=pkgconfig  cc prog.c $(pkg-config --cflags --libs geomint-sundials) -Wl,-rpath,<libdir> -o prog,
#                   run without LD_LIBRARY_PATH
#   cmake -DMODE=... -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DC_SOURCES="a.c;b.c"
#         [-DC_COMPILER=cc -DPKG_CONFIG=pkg-config -DREADELF=readelf] -P downstream_c_test.cmake
# EXTRA_FLAGS (optional): compiler and linker flags for the downstream builds (the build tree's
# sanitizers: an instrumented library needs an instrumented program).
file(REMOVE_RECURSE ${WORK_DIR})
set(extra_list "${EXTRA_FLAGS}")
string(REPLACE ";" " " EXTRA_FLAGS "${EXTRA_FLAGS}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
file(GLOB_RECURSE shared_libs ${prefix}/libgeomint_sundials.so*)
file(GLOB_RECURSE pc_files ${prefix}/geomint-sundials.pc)
list(LENGTH pc_files pc_count)
if(NOT pc_count EQUAL 1)
  message(FATAL_ERROR "expected one installed geomint-sundials.pc, found: ${pc_files}")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
get_filename_component(lib_dir ${pc_dir} DIRECTORY)

if(MODE STREQUAL "cmake")
  string(REPLACE ";" "|" sources "${C_SOURCES}")  # execute_process would split a list argument
  set(compiler)
  if(C_COMPILER)
    set(compiler -DCMAKE_C_COMPILER=${C_COMPILER})
  endif()
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/sundials/downstream_c -B ${WORK_DIR}/build ${compiler}
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS=${EXTRA_FLAGS}"
      "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}" -DCMAKE_DISABLE_FIND_PACKAGE_Eigen3=ON
      -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON -DC_SOURCES=${sources})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j 2)
  foreach(source ${C_SOURCES})
    get_filename_component(name ${source} NAME_WE)
    foreach(kind shared static)
      run(${WORK_DIR}/build/${name}_${kind})
    endforeach()
  endforeach()
elseif(MODE STREQUAL "pkgconfig")
  # The shared library is versioned: real file, SONAME link, development link.
  set(real ${lib_dir}/libgeomint_sundials.so.${VERSION})
  if(NOT EXISTS ${real} OR NOT EXISTS ${lib_dir}/libgeomint_sundials.so.${SOVERSION} OR NOT EXISTS ${lib_dir}/libgeomint_sundials.so)
    message(FATAL_ERROR "expected ${real} with its links, found: ${shared_libs}")
  endif()
  run(${READELF} -d ${real})
  if(NOT last_output MATCHES "SONAME[^\n]*libgeomint_sundials\\.so\\.${SOVERSION}]")
    message(FATAL_ERROR "no SONAME libgeomint_sundials.so.${SOVERSION} in:\n${last_output}")
  endif()
  if(NOT last_output MATCHES "NEEDED[^\n]*libstdc\\+\\+")
    message(FATAL_ERROR "the shared library does not depend on the C++ runtime:\n${last_output}")
  endif()
  # docs/sundials.md's recipe for a private prefix: PKG_CONFIG_PATH to find the .pc, and an
  # rpath to the prefix's libdir so that the program starts without LD_LIBRARY_PATH.
  set(ENV{PKG_CONFIG_PATH} ${pc_dir})
  run(${PKG_CONFIG} --cflags --libs geomint-sundials)
  string(STRIP "${last_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${PKG_CONFIG} --variable=libdir geomint-sundials)
  string(STRIP "${last_output}" pc_libdir)
  file(MAKE_DIRECTORY ${WORK_DIR}/build)
  foreach(source ${C_SOURCES})
    get_filename_component(name ${source} NAME_WE)
    run(${C_COMPILER} -std=c99 ${extra_list} ${source} ${flags} -Wl,-rpath,${pc_libdir} -o ${WORK_DIR}/build/${name})
    run(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${WORK_DIR}/build/${name})
  endforeach()
else()
  message(FATAL_ERROR "MODE must be cmake or pkgconfig")
endif()
