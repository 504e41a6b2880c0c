// The HIP backend's entry point for the device registry.
#pragma once

#include "backends/kit/backend.hpp"

#include <memory>
#include <string>

namespace kjit::hip {

struct HipApi;

/// The backend over the host's HIP runtime (hip_api()).
std::unique_ptr<backend::Backend> create_backend();

/// The backend over the runtime `api` gives (null, with the reason in `why`, when there is
/// none): the seam tests use to drive the backend with a fake runtime, since no AMD GPU is
/// available to them.
std::unique_ptr<backend::Backend> create_backend(const HipApi* (*api)(std::string& why));

}  // namespace kjit::hip
