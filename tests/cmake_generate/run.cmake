# elicitgen_generate() refuses two schemas of one call that would own one name: output names that
# differ only in case at configure time, two schemas generating one C++ type at build time, before
# any header is written; "x-cpp-name" on a root object resolves the second.
# Run with -DELICITGEN=<elicitgen> -DELICITGEN_MODULE=<ElicitgenGenerate.cmake> -DRUNTIME_INCLUDE=<dir>
# -DWORK=<scratch dir> -DGENERATOR=<cmake generator> -DCXX=<compiler>.
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/schemas")
set(form [=[{"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}]=])
file(WRITE "${WORK}/schemas/room_booking.json" "${form}")
file(WRITE "${WORK}/schemas/Room-Booking.json" "${form}")
file(WRITE "${WORK}/schemas/RoomBooking.json" "${form}")

# Configures (and with BUILD, builds) the project over `schemas`; sets rc and out in the caller.
function(attempt name schemas)
  set(build "${WORK}/${name}")
  list(TRANSFORM schemas PREPEND "${WORK}/schemas/")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/project" -B "${build}" -G "${GENERATOR}"
            "-DCMAKE_CXX_COMPILER=${CXX}" "-DELICITGEN_EXECUTABLE=${ELICITGEN}"
            "-DELICITGEN_MODULE=${ELICITGEN_MODULE}" "-DRUNTIME_INCLUDE=${RUNTIME_INCLUDE}"
            "-DOUT_DIR=${build}/out" "-DSCHEMAS=${schemas}" "-DMODE=${MODE}" "-DSECOND_NAMESPACE=${SECOND_NAMESPACE}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 AND ARGN STREQUAL "BUILD")
    execute_process(COMMAND ${CMAKE_COMMAND} --build "${build}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
  endif()
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

function(fail what)
  message(FATAL_ERROR "${what}:\n${out}")
endfunction()

# Stems that differ only in case: refused at configure time, naming both files.
attempt(case "room_booking.json;Room-Booking.json")
if(rc EQUAL 0)
  fail("stems differing in case were configured")
endif()
string(REGEX REPLACE "[\n ]+" " " flat "${out}")
if(NOT flat MATCHES "/Room-Booking.json gives Room_Booking.hpp and [^ ]*/room_booking.json gives room_booking.hpp")
  fail("the configure error does not name both files")
endif()

# Builds the project `name` over room_booking.json and RoomBooking.json, which generate one type:
# the build must fail with an error at RoomBooking.json naming room_booking.json and then `detail`
# (a regular expression), and write nothing into ${WORK}/<name>/out/<written>.
function(expect_one_owner name detail written)
  attempt(${name} "room_booking.json;RoomBooking.json" BUILD)
  if(rc EQUAL 0)
    fail("${name}: two schemas generating app::RoomBooking built")
  endif()
  if(NOT out MATCHES "/RoomBooking.json:[^\n]* error: type app::RoomBooking is also generated from [^\n]*/room_booking.json${detail}")
    fail("${name}: the build error does not name both files")
  endif()
  file(GLOB files "${WORK}/${name}/out/${written}*.?pp")
  if(files)
    fail("${name}: files were written: ${files}")
  endif()
endfunction()

# One type from two files of one call: the build fails in the generator, naming both, and writes nothing.
expect_one_owner(type "" "")

# x-cpp-name on the root names the second type: both generate and compile.
file(WRITE "${WORK}/schemas/RoomBooking.json"
     [=[{"type": "object", "x-cpp-name": "RoomBookingV2", "properties": {"room": {"type": "string"}}}]=])
attempt(named "room_booking.json;RoomBooking.json" BUILD)
if(NOT rc EQUAL 0)
  fail("the build with x-cpp-name failed")
endif()
file(READ "${WORK}/named/out/RoomBooking.hpp" header)
if(NOT header MATCHES "struct RoomBookingV2 {")
  fail("RoomBooking.hpp does not declare RoomBookingV2")
endif()
file(READ "${WORK}/named/out/room_booking.hpp" header)
if(NOT header MATCHES "struct RoomBooking {")
  fail("room_booking.hpp does not declare RoomBooking")
endif()

# One type from two calls: on one target, and on a library and a target that links it. The later
# call's build step fails naming both files and the fix; the same calls with the second type in
# another namespace build.
file(WRITE "${WORK}/schemas/RoomBooking.json" "${form}")
foreach(MODE calls linked)
  set(SECOND_NAMESPACE "")
  expect_one_owner(${MODE} " by another elicitgen_generate\\(\\) call[^\n]*x-cpp-name" "second/")
  set(SECOND_NAMESPACE other)
  attempt(${MODE}-namespaces "room_booking.json;RoomBooking.json" BUILD)
  if(NOT rc EQUAL 0)
    fail("${MODE}: the calls with the second type in another namespace failed")
  endif()
endforeach()
message(STATUS "elicitgen_generate: case-only stems, one type from two files or two calls, x-cpp-name: ok")
