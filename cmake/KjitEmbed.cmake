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

# kjit_source_fingerprint(<output.cpp> <root> <file>...)
# Writes a C++ source defining `kjit_source_fingerprint`, a hash of the given files: part of every
# disk cache key, so that a kjit built from other sources never loads this one's entries.
set(KJIT_FINGERPRINT_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/KjitFingerprintScript.cmake)

function(kjit_source_fingerprint output root)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DROOT=${root} "-DFILES=${files}"
            -P ${KJIT_FINGERPRINT_SCRIPT}
    DEPENDS ${files} ${KJIT_FINGERPRINT_SCRIPT}
    COMMENT "Fingerprinting kjit's sources"
    VERBATIM)
endfunction()

# kjit_embed_headers(<output.cpp> <root> <file>...)
# Writes a C++ source that defines kjit::backend::kernel_headers(): each file's path relative to
# <root> (the name kernels include it by) and its text. Used for the headers kjit gives kernels.
set(KJIT_HEADERS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/KjitHeadersScript.cmake)

function(kjit_embed_headers output root)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DROOT=${root} "-DFILES=${files}"
            -P ${KJIT_HEADERS_SCRIPT}
    DEPENDS ${files} ${KJIT_HEADERS_SCRIPT}
    COMMENT "Embedding the kernel headers"
    VERBATIM)
endfunction()
