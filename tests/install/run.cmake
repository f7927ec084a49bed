# Install elicitgen, build a consumer project against the install tree with find_package and
# elicitgen_generate, and check that regeneration happens only when it should.
# Run with -DBUILD_DIR=<elicitgen build> -DWORK=<scratch dir> -DSOURCE_DIR=<this dir> -DGENERATOR=<cmake generator>
# [-DCONSUMER_FLAGS=<flags the installed library was built with, e.g. sanitizers>].
cmake_minimum_required(VERSION 3.25)
set(flags "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(prefix "${WORK}/prefix")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(f bin/elicitgen include/elicit/validation.hpp lib/cmake/elicitgen/elicitgenConfig.cmake
          lib/cmake/elicitgen/ElicitgenGenerate.cmake share/elicitgen/templates/header.hpp.mustache)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# The schema is copied so that the test can touch and edit it.
set(schema "${WORK}/order.json")
file(COPY_FILE "${SOURCE_DIR}/consumer/order.json" "${schema}")
set(build "${WORK}/consumer-build")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/consumer" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DORDER_SCHEMA=${schema}" ${flags})
if(NOT last_output MATCHES "OUT_VAR: [^\n]*order.hpp;[^\n]*order.cpp")
  message(FATAL_ERROR "OUT_VAR not set: ${last_output}")
endif()
run(${CMAKE_COMMAND} --build "${build}")
run("${build}/consumer")
if(NOT last_output MATCHES "How many copies\\?\n{\"gift\":true,\"item\":\"book\",\"quantity\":2}\n/item: must be at least 1 character long\n/quantity: must be >= 1\n")
  message(FATAL_ERROR "unexpected consumer output:\n${last_output}")
endif()

# Touching the schema reruns the generator, which leaves identical outputs untouched: nothing is
# recompiled.
set(header "${build}/elicitgen/consumer/order.hpp")
file(TIMESTAMP "${header}" header_before "%s")
file(GLOB_RECURSE objects "${build}/*.o")
list(GET objects 0 object)
file(TIMESTAMP "${object}" object_before "%s")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(TOUCH "${schema}")
run(${CMAKE_COMMAND} --build "${build}")
file(TIMESTAMP "${header}" header_after "%s")
file(TIMESTAMP "${object}" object_after "%s")
if(NOT header_before STREQUAL header_after OR NOT object_before STREQUAL object_after)
  message(FATAL_ERROR "touching the schema rewrote or recompiled generated code")
endif()

# Changing the schema regenerates and rebuilds.
file(READ "${schema}" text)
string(REPLACE "\"maximum\": 10" "\"maximum\": 5" text "${text}")
file(WRITE "${schema}" "${text}")
run(${CMAKE_COMMAND} --build "${build}")
file(READ "${header}" header_text)
if(NOT header_text MATCHES "<= 5")
  message(FATAL_ERROR "changed schema was not regenerated")
endif()

# A cross build names a host generator with ELICITGEN_EXECUTABLE; it must be the one that runs.
set(wrapper "${WORK}/host-elicitgen.sh")
file(WRITE "${wrapper}" "#!/bin/sh\necho \"$@\" >> '${WORK}/host-elicitgen.log'\nexec '${prefix}/bin/elicitgen' \"$@\"\n")
file(CHMOD "${wrapper}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(cross "${WORK}/cross-build")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/consumer" -B "${cross}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DORDER_SCHEMA=${schema}" "-DELICITGEN_EXECUTABLE=${wrapper}" ${flags})
run(${CMAKE_COMMAND} --build "${cross}")
if(NOT EXISTS "${WORK}/host-elicitgen.log")
  message(FATAL_ERROR "ELICITGEN_EXECUTABLE was not used")
endif()
run("${cross}/consumer")
message(STATUS "install tree, find_package, regeneration and ELICITGEN_EXECUTABLE: ok")
