// Vendor functions kjit loads when they exist (a driver older than the feature lacks them): null
// in the loaded table, and a clear error where a feature needs one.
#pragma once

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <string>

namespace kjit::backend {

/// `f`, or BackendError saying that the `library` of `device` has no function `name`.
template <class F>
F optional_function(F f, const char* name, const std::string& device, const char* library) {
  if (f == nullptr) {
    throw BackendError(fmt::format("kjit: {}: this {} has no {}", device, library, name));
  }
  return f;
}

}  // namespace kjit::backend
