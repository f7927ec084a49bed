# elicitgen_generate(TARGET <target> SCHEMAS <file>... [NAMESPACE <ns>] [OUT_DIR <dir>]
#                    [OUT_VAR <var>] [TEMPLATES <dir>] [LINK <library>] [NO_SEND_PATTERN]
#                    [WARNINGS_AS_ERRORS])
#
# Generates typed C++ (one .hpp and one .cpp per schema file) as a build step, adds the sources to
# <target>, puts OUT_DIR on its include path and links it (PUBLIC) to LINK, elicit::runtime by
# default; generated types need only elicit::content, which a library of types can name instead. Each schema file has
# its own custom command, depending on that file and on the generator, so only what changed is
# regenerated; elicitgen rewrites an output only when its content changes, so an edit that does
# not change the generated code recompiles nothing.
#
# The generator is, in order: ELICITGEN_EXECUTABLE (a host binary, for cross builds), the
# elicitgen target of this build tree, or elicitgen::elicitgen from find_package(elicitgen).
# OUT_VAR receives the list of generated files. OUT_DIR defaults to
# ${CMAKE_CURRENT_BINARY_DIR}/elicitgen/<target>. NO_SEND_PATTERN leaves `pattern` out of the schema
# sent to clients (it is an extension to schema.ts) while still checking responses against it.
# WARNINGS_AS_ERRORS fails the build on any generator warning (unknown keyword, secret-looking field,
# additionalProperties, ...), as `elicitgen generate --warnings-as-errors`.
# elicitgen_output_stem(<var> <path>): the stem of the files generated from <path>: its file name up
# to the first '.', every byte outside [A-Za-z0-9_] as '_', case kept (RSVPForm.json -> RSVPForm,
# cancel-booking.json -> cancel_booking, café.json -> caf__). The generator has the same rule
# (generator/names.cpp, file_stem) and is also told the result with --output-stem, so the names
# CMake expects are the names written. Empty when nothing precedes the first '.'.
function(elicitgen_output_stem var path)
  get_filename_component(name "${path}" NAME)
  string(FIND "${name}" "." dot)
  string(SUBSTRING "${name}" 0 ${dot} stem)
  string(REGEX REPLACE "[^A-Za-z0-9_]" "_" stem "${stem}")
  set(${var} "${stem}" PARENT_SCOPE)
endfunction()

function(elicitgen_generate)
  cmake_parse_arguments(ARG "NO_SEND_PATTERN;WARNINGS_AS_ERRORS" "TARGET;NAMESPACE;OUT_DIR;OUT_VAR;TEMPLATES;LINK" "SCHEMAS" ${ARGN})
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "elicitgen_generate: TARGET is required")
  endif()
  if(NOT ARG_SCHEMAS)
    message(FATAL_ERROR "elicitgen_generate: SCHEMAS needs at least one file")
  endif()
  if(NOT ARG_OUT_DIR)
    set(ARG_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/elicitgen/${ARG_TARGET}")
  endif()

  if(ELICITGEN_EXECUTABLE)
    set(generator "${ELICITGEN_EXECUTABLE}")
    set(generator_dep "${ELICITGEN_EXECUTABLE}")
  elseif(TARGET elicitgen)
    set(generator "$<TARGET_FILE:elicitgen>")
    set(generator_dep elicitgen)
  elseif(TARGET elicitgen::elicitgen)
    set(generator "$<TARGET_FILE:elicitgen::elicitgen>")
    set(generator_dep elicitgen::elicitgen)
  else()
    message(FATAL_ERROR "elicitgen_generate: no generator; set ELICITGEN_EXECUTABLE or find_package(elicitgen)")
  endif()

  set(extra_args)
  set(extra_deps)
  if(ARG_NAMESPACE)
    list(APPEND extra_args --namespace "${ARG_NAMESPACE}")
  endif()
  if(ARG_NO_SEND_PATTERN)
    list(APPEND extra_args --no-send-pattern)
  endif()
  if(ARG_WARNINGS_AS_ERRORS)
    list(APPEND extra_args --warnings-as-errors)
  endif()
  if(ARG_TEMPLATES)
    get_filename_component(templates "${ARG_TEMPLATES}" ABSOLUTE)
    list(APPEND extra_args --templates "${templates}")
    file(GLOB template_files "${templates}/*.mustache")
    list(APPEND extra_deps ${template_files})
  endif()

  set(generated)
  set(stems)
  set(stamps)
  foreach(schema IN LISTS ARG_SCHEMAS)
    get_filename_component(schema_abs "${schema}" ABSOLUTE)
    elicitgen_output_stem(stem "${schema_abs}")
    if(stem STREQUAL "")
      message(FATAL_ERROR "elicitgen_generate: ${schema}: the file name has nothing before its first '.'")
    endif()
    if(stem IN_LIST stems)
      message(FATAL_ERROR "elicitgen_generate: ${schema} gives ${stem}.hpp, as another schema of ${ARG_TARGET} does")
    endif()
    list(APPEND stems "${stem}")
    set(hpp "${ARG_OUT_DIR}/${stem}.hpp")
    set(cpp "${ARG_OUT_DIR}/${stem}.cpp")
    # The stamp is the output the build tool compares with the schema; the sources are byproducts,
    # rewritten only when their content changes. So a touched but unchanged schema reruns the
    # generator once and recompiles nothing, and the next build does nothing, with Makefiles too
    # (Ninja alone would manage with restat).
    set(stamp "${ARG_OUT_DIR}/${stem}.stamp")
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${hpp}" "${cpp}"
      COMMAND ${generator} generate "${schema_abs}" -o "${ARG_OUT_DIR}" --output-stem "${stem}" ${extra_args}
      COMMAND ${CMAKE_COMMAND} -E touch "${stamp}"
      DEPENDS "${schema_abs}" ${generator_dep} ${extra_deps}
      COMMENT "elicitgen: ${schema}"
      VERBATIM)
    list(APPEND generated "${hpp}" "${cpp}")
    list(APPEND stamps "${stamp}")
  endforeach()

  target_sources(${ARG_TARGET} PRIVATE ${generated} ${stamps})
  target_include_directories(${ARG_TARGET} PUBLIC "$<BUILD_INTERFACE:${ARG_OUT_DIR}>")
  if(NOT ARG_LINK)
    set(ARG_LINK elicit::runtime)
  endif()
  target_link_libraries(${ARG_TARGET} PUBLIC ${ARG_LINK})
  if(ARG_OUT_VAR)
    set(${ARG_OUT_VAR} ${generated} PARENT_SCOPE)
  endif()
endfunction()
