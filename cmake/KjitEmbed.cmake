# kjit_embed_text(<output.cpp> <symbol> <file>...)
# Writes a C++ source that defines `extern const char <symbol>[]` holding the given files
# concatenated, regenerated whenever one of them changes. Used for the CPU kernel prelude.
set(KJIT_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/KjitEmbedScript.cmake)

function(kjit_embed_text output symbol)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DSYMBOL=${symbol} "-DFILES=${files}"
            -P ${KJIT_EMBED_SCRIPT}
    DEPENDS ${files} ${KJIT_EMBED_SCRIPT}
    COMMENT "Embedding ${symbol}"
    VERBATIM)
endfunction()
