# Writes OUTPUT: a C++ file with the URL-mode page's built-in template and CSS
# (runtime/src/content/form_page.*) as NUL-terminated char arrays, hex bytes as in
# EmbedTemplates.cmake. Run as `cmake -P` at build time.
function(embed_file path symbol out_var)
  file(READ "${path}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){20})" "\\1\n  " bytes "${bytes}")
  set(${out_var} "extern const char ${symbol}[];\nconst char ${symbol}[] = {\n  ${bytes}0x00};\n" PARENT_SCOPE)
endfunction()

embed_file("${SOURCE_DIR}/form_page.html.mustache" kFormPageTemplate page)
embed_file("${SOURCE_DIR}/form_page.css" kFormPageStyle style)
set(content "// Generated from runtime/src/content/form_page.* by cmake/EmbedFormPage.cmake.\nnamespace elicit::detail {\n${page}${style}}  // namespace elicit::detail\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
