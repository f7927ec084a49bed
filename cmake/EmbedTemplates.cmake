# Writes OUTPUT: a C++ file defining one NUL-terminated char array per template, as hex bytes so
# that no template text can break the C++ that carries it. Run as `cmake -P` at build time.
function(embed_file path symbol out_var)
  file(READ "${path}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){20})" "\\1\n  " bytes "${bytes}")
  set(${out_var} "extern const char ${symbol}[];\nconst char ${symbol}[] = {\n  ${bytes}0x00};\n" PARENT_SCOPE)
endfunction()

embed_file("${TEMPLATE_DIR}/header.hpp.mustache" kHeaderTemplate header)
embed_file("${TEMPLATE_DIR}/source.cpp.mustache" kSourceTemplate source)
set(content "// Generated from templates/*.mustache by cmake/EmbedTemplates.cmake.\nnamespace elicitgen {\n${header}${source}}  // namespace elicitgen\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
