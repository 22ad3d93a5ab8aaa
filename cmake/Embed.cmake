# by_embed_files(<out-var> NAME <file stem> NAMESPACE <ns> FUNCTION <fn> HEADER <header>
#                COMMENT <text> FILES <name>=<path>...)
# Compiles files into Brickyard as text: a custom command runs cmake/EmbedFiles.cmake to write
# <binary dir>/<NAME>.cpp, defining `const std::vector<EmbeddedFile>& <ns>::<fn>()` (declared
# in <header>), and sets <out-var> to it for add_library. Used for what brickyard needs at run
# time without the source tree: the model adapter (rtlmodel), the driver (compiler), the plot
# scripts (evaluation).
function(by_embed_files out)
  cmake_parse_arguments(ARG "" "NAME;NAMESPACE;FUNCTION;HEADER;COMMENT" "FILES" ${ARGN})
  set(output ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.cpp)
  set(paths)
  foreach(input ${ARG_FILES})
    string(REGEX REPLACE "^[^=]*=" "" path "${input}")
    list(APPEND paths ${path})
  endforeach()
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${ARG_FILES}"
            -DNAMESPACE=${ARG_NAMESPACE} -DFUNCTION=${ARG_FUNCTION} -DHEADER=${ARG_HEADER}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    DEPENDS ${paths} ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    COMMENT "${ARG_COMMENT}"
    VERBATIM)
  set(${out} ${output} PARENT_SCOPE)
endfunction()
