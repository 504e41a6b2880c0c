// How a compile travels to the kjit-compile helper process and back: one request and one reply,
// each a CBOR document (nlohmann-json's encoding, which carries source text and binaries as they
// are). Both ends are the same build of kjit, so the format has no versions to reconcile.
#pragma once

#include "backends/kit/backend.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kjit::detail::wire {

/// A request to compile `request` with the offline compiler of `target` ("cpu", "cuda:sm_90").
std::vector<std::uint8_t> encode_request(const std::string& target,
                                         const backend::CompileRequest& request);
/// The target and the request; BackendError for bytes that are not a request.
std::pair<std::string, backend::CompileRequest> decode_request(std::span<const std::uint8_t> bytes);

/// The reply that carries a compiled program.
std::vector<std::uint8_t> encode_binary(const backend::Binary& binary);
/// The reply that carries the exception in flight; call it inside a catch block. CompileError,
/// KernelNotFoundError, ConfigError and BackendError travel as themselves, anything else as a
/// BackendError.
std::vector<std::uint8_t> encode_current_error();
/// The program a reply carries, or throws the error it carries; BackendError naming `sender`
/// for bytes that are not a reply.
backend::Binary decode_reply(std::span<const std::uint8_t> bytes, const std::string& sender);

}  // namespace kjit::detail::wire
