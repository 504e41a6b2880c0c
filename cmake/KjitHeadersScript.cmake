# Script mode helper of kjit_embed_headers(): OUTPUT, ROOT and FILES come from -D.
set(entries "")
foreach(f IN LISTS FILES)
  file(READ ${f} content)
  string(FIND "${content}" ")kjit_embed\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${f} contains the raw-string delimiter )kjit_embed\"")
  endif()
  file(RELATIVE_PATH name ${ROOT} ${f})
  string(APPEND entries "    {\"${name}\", R\"kjit_embed(${content})kjit_embed\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp
  "// Generated from ${ROOT}; do not edit.\n"
  "#include \"source/kernel_headers.hpp\"\n\n"
  "namespace kjit::source {\n\n"
  "namespace {\n\n"
  "constexpr KernelHeader kHeaders[] = {\n${entries}};\n\n"
  "}  // namespace\n\n"
  "std::span<const KernelHeader> kernel_headers() noexcept {\n"
  "  return kHeaders;\n"
  "}\n\n"
  "}  // namespace kjit::source\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
