// Repro bundles (KJIT_REPRO_DIR): a compile that fails leaves a folder a user can send back, from
// which `kjit-warm` reproduces the failure on another machine: the program's text and every
// header it includes from disk or memory, in a manifest that needs no other file; the options,
// the target and the compiler's identity; kjit's version; the error; and the command.
#pragma once

#include "backends/kit/backend.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace kjit::detail {

/// Writes a bundle for `request`, which failed on `identity`'s target with `error`, under `root`
/// (KJIT_REPRO_DIR); returns its folder, or nullopt when writing failed (logged: a bundle must
/// never hide the compile error it is about).
std::optional<std::filesystem::path> write_repro_bundle(const std::filesystem::path& root,
                                                        const backend::CompileRequest& request,
                                                        const backend::TargetIdentity& identity,
                                                        const std::string& error) noexcept;

}  // namespace kjit::detail
