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
foreach(f bin/elicitgen include/elicit/content/validation.hpp include/elicit/jsonrpc/connection.hpp include/elicit/elicit.hpp lib/cmake/elicitgen/elicitgenConfig.cmake
          lib/cmake/elicitgen/ElicitgenGenerate.cmake share/elicitgen/templates/header.hpp.mustache)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# The schemas are copied so that the test can touch and edit them. Besides order.json, file names
# that output names once got wrong (RSVPForm, IDCard, café, cancel-booking).
set(schema "${WORK}/order.json")
file(COPY_FILE "${SOURCE_DIR}/consumer/order.json" "${schema}")
set(forms "${WORK}/forms")
file(COPY "${SOURCE_DIR}/consumer/forms" DESTINATION "${WORK}")
file(GLOB form_schemas "${forms}/*.json")
set(expected_outputs order RSVPForm IDCard caf__ cancel_booking)
set(expected_output
    "How many copies\\?\n{\"gift\":true,\"item\":\"book\",\"quantity\":2}\n/item: must be at least 1 character long\n"
    "/quantity: must be >= 1\n/guests: must be <= 4\nUn café \\?\n"
    "/extra: is not allowed \\(additionalProperties: false\\)\n/more: is not allowed \\(additionalProperties: false\\)\n")
string(CONCAT expected_output ${expected_output})

# Generated types need elicit::content alone (the content model and validation): a consumer that
# links only it must see none of the wings' dependencies, neither on the link line of content_only
# nor among the headers its generated type and main compile with. Any of these in either means
# something reached above the content layer (a page renderer, crypto, an HTTP stack).
set(content_only_forbidden "sodium|mustache|boost|ssl|crypto|hiredis|elicit_forms|elicit_auth|elicit_http|libelicit\\.a|elicit_jsonrpc")
function(check_content_only cmake_generator build)
  if(cmake_generator STREQUAL "Ninja")
    run(${CMAKE_COMMAND} -E env ninja -C "${build}" -t commands content_only)
    string(REGEX MATCH "[^\n]*-o content_only [^\n]*" link_line "${last_output}")
    run(${CMAKE_COMMAND} -E env ninja -C "${build}" -t deps CMakeFiles/content_only.dir/content_only.cpp.o
        CMakeFiles/order_types.dir/elicitgen/order_types/order.cpp.o)
    set(headers "${last_output}")
  else()
    file(READ "${build}/CMakeFiles/content_only.dir/link.txt" link_line)
    set(headers "")
  endif()
  if(link_line STREQUAL "")
    message(FATAL_ERROR "${cmake_generator}: no link line found for content_only")
  endif()
  string(TOLOWER "${link_line}" lower)
  if(lower MATCHES "(${content_only_forbidden})")
    message(FATAL_ERROR "${cmake_generator}: content_only (elicit::content alone) links ${CMAKE_MATCH_1}:\n${link_line}")
  endif()
  if(cmake_generator STREQUAL "Ninja")
    if(NOT headers MATCHES "elicit/content/")
      message(FATAL_ERROR "no header dependencies recorded for content_only and order_types:\n${headers}")
    endif()
    string(TOLOWER "${headers}" lower)
    string(REGEX MATCH "[^\n]*(sodium|mustache|boost|openssl|hiredis|elicit/forms/|elicit/http/|elicit/auth/)[^\n]*" bad "${lower}")
    if(bad)
      message(FATAL_ERROR "content_only or its generated type includes ${bad}")
    endif()
  endif()
endfunction()

# Builds the consumer with `cmake_generator` in `build`, then checks that a second build does nothing,
# that touching every schema reruns the generator but rewrites and recompiles nothing, and that a
# changed schema is regenerated.
function(check_consumer cmake_generator build)
  run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/consumer" -B "${build}" -G "${cmake_generator}"
      "-DCMAKE_PREFIX_PATH=${prefix}" "-DORDER_SCHEMA=${schema}" "-DFORMS_DIR=${forms}" ${flags})
  foreach(stem IN LISTS expected_outputs)
    if(NOT last_output MATCHES "OUT_VAR: [^\n]*/${stem}\\.hpp;[^\n]*/${stem}\\.cpp")
      message(FATAL_ERROR "OUT_VAR lacks ${stem}.hpp/.cpp: ${last_output}")
    endif()
  endforeach()
  run(${CMAKE_COMMAND} --build "${build}")
  foreach(stem IN LISTS expected_outputs)
    if(NOT EXISTS "${build}/elicitgen/consumer/${stem}.hpp" OR NOT EXISTS "${build}/elicitgen/consumer/${stem}.cpp")
      message(FATAL_ERROR "${cmake_generator}: ${stem}.hpp/.cpp not generated")
    endif()
  endforeach()
  run("${build}/consumer")
  if(NOT last_output MATCHES "^${expected_output}$")
    message(FATAL_ERROR "${cmake_generator}: unexpected consumer output:\n${last_output}")
  endif()
  run("${build}/content_only")
  if(NOT last_output MATCHES "^{\"gift\":false,\"item\":\"pen\",\"quantity\":3}\n/quantity: must be >= 1\n$")
    message(FATAL_ERROR "${cmake_generator}: unexpected content_only output:\n${last_output}")
  endif()
  check_content_only("${cmake_generator}" "${build}")

  # Nothing changed: the next build runs neither the generator nor the compiler.
  run(${CMAKE_COMMAND} --build "${build}")
  if(last_output MATCHES "elicitgen: |Building CXX|Linking CXX")
    message(FATAL_ERROR "${cmake_generator}: a build with nothing changed did work:\n${last_output}")
  endif()
  if(cmake_generator STREQUAL "Ninja" AND NOT last_output MATCHES "no work to do")
    message(FATAL_ERROR "Ninja: a build with nothing changed did work:\n${last_output}")
  endif()

  # Touching the schemas reruns the generator, which leaves identical outputs untouched: nothing is
  # recompiled.
  file(GLOB_RECURSE watched "${build}/elicitgen/consumer/*.?pp" "${build}/*.o")
  list(LENGTH watched n)
  if(n LESS 16)
    message(FATAL_ERROR "${cmake_generator}: expected 10 generated files and 6 objects, found ${watched}")
  endif()
  set(before)
  foreach(f IN LISTS watched)
    file(TIMESTAMP "${f}" t "%s")
    list(APPEND before "${f}=${t}")
  endforeach()
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
  file(TOUCH "${schema}" ${form_schemas})
  run(${CMAKE_COMMAND} --build "${build}")
  if(NOT last_output MATCHES "elicitgen: [^\n]*RSVPForm.json")
    message(FATAL_ERROR "${cmake_generator}: touching the schemas did not rerun the generator:\n${last_output}")
  endif()
  set(after)
  foreach(f IN LISTS watched)
    file(TIMESTAMP "${f}" t "%s")
    list(APPEND after "${f}=${t}")
  endforeach()
  if(NOT before STREQUAL after)
    message(FATAL_ERROR "${cmake_generator}: touching the schemas rewrote or recompiled generated code:\n${before}\n${after}")
  endif()
  # ... and once regenerated, the build is quiet again.
  run(${CMAKE_COMMAND} --build "${build}")
  if(last_output MATCHES "elicitgen: |Building CXX|Linking CXX")
    message(FATAL_ERROR "${cmake_generator}: the build after a touch did work again:\n${last_output}")
  endif()
endfunction()

set(build "${WORK}/consumer-build")
check_consumer("${GENERATOR}" "${build}")
set(header "${build}/elicitgen/consumer/order.hpp")

# Changing the schema regenerates and rebuilds.
file(READ "${schema}" text)
string(REPLACE "\"maximum\": 10" "\"maximum\": 5" text "${text}")
file(WRITE "${schema}" "${text}")
run(${CMAKE_COMMAND} --build "${build}")
file(READ "${header}" header_text)
if(NOT header_text MATCHES "<= 5")
  message(FATAL_ERROR "changed schema was not regenerated")
endif()

# The same with Unix Makefiles, when the main run used another generator and make is there.
find_program(make_program NAMES gmake make)
if(NOT GENERATOR STREQUAL "Unix Makefiles" AND make_program)
  check_consumer("Unix Makefiles" "${WORK}/consumer-make")
endif()

# A cross build names a host generator with ELICITGEN_EXECUTABLE; it must be the one that runs.
set(wrapper "${WORK}/host-elicitgen.sh")
file(WRITE "${wrapper}" "#!/bin/sh\necho \"$@\" >> '${WORK}/host-elicitgen.log'\nexec '${prefix}/bin/elicitgen' \"$@\"\n")
file(CHMOD "${wrapper}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(cross "${WORK}/cross-build")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/consumer" -B "${cross}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DORDER_SCHEMA=${schema}" "-DFORMS_DIR=${forms}"
    "-DELICITGEN_EXECUTABLE=${wrapper}" ${flags})
run(${CMAKE_COMMAND} --build "${cross}")
if(NOT EXISTS "${WORK}/host-elicitgen.log")
  message(FATAL_ERROR "ELICITGEN_EXECUTABLE was not used")
endif()
run("${cross}/consumer")
message(STATUS "install tree, find_package, regeneration and ELICITGEN_EXECUTABLE: ok")
