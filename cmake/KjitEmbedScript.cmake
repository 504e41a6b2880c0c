# Script mode helper of kjit_embed_text(): OUTPUT, SYMBOL and FILES come from -D.
set(text "")
foreach(f IN LISTS FILES)
  file(READ ${f} content)
  string(FIND "${content}" ")kjit_embed\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${f} contains the raw-string delimiter )kjit_embed\"")
  endif()
  get_filename_component(name ${f} NAME)
  string(APPEND text "// ---- ${name} ----\n${content}\n")
endforeach()
file(WRITE ${OUTPUT}.tmp
  "// Generated from ${FILES}; do not edit.\n"
  "extern const char ${SYMBOL}[];\n"
  "const char ${SYMBOL}[] = R\"kjit_embed(${text})kjit_embed\";\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
