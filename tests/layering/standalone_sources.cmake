# Every source of a target compiles on its own, as the README's builds (non-unity) compile it, even
# when this build is a unity build (as CI's are). In a unity batch a source sees what the sources
# before it included and declared (a using-declaration, a header), so a missing include or
# qualification compiles in CI and breaks the README's main job (it happened: 8f41fd2). This script
# takes the target's unity batches from the build's compile_commands.json and checks each source of
# a batch of two or more with the batch's own command, one source at a time, syntax only (no code
# generation: name lookup, overload resolution and template instantiation are what a batch can hide).
# Run: cmake -DBUILD_DIR=<unity build> -DSOURCE_DIR=<repository> -DTARGET=<target> -P standalone_sources.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT BUILD_DIR OR NOT SOURCE_DIR OR NOT TARGET)
  message(FATAL_ERROR "usage: cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<repository> -DTARGET=<target> -P standalone_sources.cmake")
endif()

file(READ "${BUILD_DIR}/compile_commands.json" commands)
string(JSON count LENGTH "${commands}")
math(EXPR last "${count} - 1")
set(checked 0)
set(failures "")
foreach(i RANGE ${last})
  string(JSON file GET "${commands}" ${i} file)
  if(NOT file MATCHES "/CMakeFiles/${TARGET}\\.dir/Unity/unity_[0-9]+_cxx\\.cxx$")
    continue()
  endif()
  string(JSON directory GET "${commands}" ${i} directory)
  string(JSON command GET "${commands}" ${i} command)
  separate_arguments(arguments UNIX_COMMAND "${command}")
  # The batch's command without its output and input: `-o <object>` and `-c <unity file>`.
  set(base "")
  set(skip FALSE)
  foreach(argument IN LISTS arguments)
    if(skip)
      set(skip FALSE)
    elseif(argument STREQUAL "-o" OR argument STREQUAL "-c")
      set(skip TRUE)
    else()
      list(APPEND base "${argument}")
    endif()
  endforeach()
  file(STRINGS "${file}" includes REGEX "^#include \"")
  list(LENGTH includes batch_size)
  if(batch_size LESS 2)
    continue()  # a batch of one is the source on its own: the build compiled it so
  endif()
  # The batch's first source sees nothing before it: the build compiled it exactly as on its own.
  list(REMOVE_AT includes 0)
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"(.*)\"$" "\\1" source "${line}")
    if(NOT source MATCHES "^${SOURCE_DIR}/")
      continue()  # generated sources (the embedded page) are written whole by a generator
    endif()
    execute_process(COMMAND ${base} -fsyntax-only -c "${source}" WORKING_DIRECTORY "${directory}"
                    RESULT_VARIABLE rc ERROR_VARIABLE errors OUTPUT_VARIABLE errors)
    math(EXPR checked "${checked} + 1")
    if(NOT rc EQUAL 0)
      string(REPLACE "${SOURCE_DIR}/" "" name "${source}")
      string(SUBSTRING "${errors}" 0 3000 errors)
      string(APPEND failures "\n${name} does not compile on its own (it did in its unity batch):\n${errors}")
    endif()
  endforeach()
endforeach()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "${failures}")
endif()
if(checked EQUAL 0)
  message(FATAL_ERROR "${TARGET}: no unity batch of two or more sources in ${BUILD_DIR}/compile_commands.json "
                      "(is this a unity build with CMAKE_EXPORT_COMPILE_COMMANDS?)")
endif()
message(STATUS "${TARGET}: ${checked} sources compile on their own")
