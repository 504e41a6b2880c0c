// The backends compiled into this libkjit.so, in the order devices are listed and preferred.
#pragma once

#include "backends/kit/backend.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kjit::detail {

struct BackendSlot {
  BackendKind kind;
  std::unique_ptr<backend::Backend> backend;  // null when the build left the backend out
};

/// One slot per backend kind (cuda, hip, cpu), created explicitly: no static registration.
std::vector<BackendSlot> create_backends();

}  // namespace kjit::detail
