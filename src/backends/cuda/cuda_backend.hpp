// The CUDA backend's entry point for the device registry.
#pragma once

#include "backends/kit/backend.hpp"

#include <memory>

namespace kjit::cuda {

std::unique_ptr<backend::Backend> create_backend();

}  // namespace kjit::cuda
