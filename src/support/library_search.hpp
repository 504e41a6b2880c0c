// Which file a dlopen would open, described without opening it: lets a warm start skip loading a
// 100 MB compiler library whose identity it already knows (docs/cache.md, "Compiler identity").
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kjit::backend {

/// "device:inode, size, modification time" of a file (links followed), or nullopt when it cannot
/// be read. Equal stamps mean the same unchanged file.
std::optional<std::string> file_stamp(const std::filesystem::path& file);

/// Everything the dynamic loader reads to choose among `candidates` for a dlopen from libkjit:
/// copies already loaded in this process, the directories it searches (LD_LIBRARY_PATH,
/// RPATH/RUNPATH, the system's) with the stamp of every candidate file in them, and the stamp of
/// /etc/ld.so.cache. When two descriptions are equal, dlopen picks the same file, except one
/// found through ld.so.cache that was replaced in place: check its stamp after loading it.
/// nullopt when the loader cannot say where it searches.
std::optional<std::string> describe_library_search(const std::vector<std::string>& candidates);

}  // namespace kjit::backend
