# Compile-fail test of the mode in the type (issue: a URL-mode type asked in form mode): compiles
# url_mode_form_call.cpp with -fsyntax-only once per CALL. CALL=0 (elicit_in_browser) must compile;
# CALL=1..6 (every typed form-mode call) must fail, each with require_form_mode's message.
# Run with -DCXX=<compiler> -DRUNTIME_INCLUDE=<runtime/include> -DTYPES_INCLUDE=<the sample types'
# generated headers>.
cmake_minimum_required(VERSION 3.25)

set(flags -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic "-I${RUNTIME_INCLUDE}" "-I${TYPES_INCLUDE}")
set(expected "generated from a schema marked \"mode\": \"url\"")

foreach(call RANGE 0 6)
  execute_process(COMMAND ${CXX} ${flags} -DCALL=${call} ${CMAKE_CURRENT_LIST_DIR}/url_mode_form_call.cpp
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(call EQUAL 0)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "CALL=0 (elicit_in_browser<T>) must compile, so that the other failures mean "
                          "something; it failed:\n${out}${err}")
    endif()
  elseif(rc EQUAL 0)
    message(FATAL_ERROR "CALL=${call}: a URL-mode type asked in form mode compiled")
  else()
    string(FIND "${err}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "CALL=${call} failed, but not with require_form_mode's static_assert:\n${err}")
    endif()
  endif()
  message(STATUS "CALL=${call}: as expected")
endforeach()
