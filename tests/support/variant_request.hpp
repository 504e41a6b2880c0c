// A compile request for a specialised variant (core/specialization.hpp), as Kernel::specialize
// makes it: saxpy of tests/kernels/specialize.cu with n = 1000 and a = 2.5 fixed and blocks of
// 128 threads (or what a test fixes), for the compilers' tests that need no device.
#pragma once

#include "backends/kit/backend.hpp"
#include "core/specialization.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace kjit::test {

/// A variant of saxpy fixing `spec`, whose launch bounds are `max_threads` if it fixes no block.
inline backend::CompileRequest saxpy_variant_request(
    const detail::Specialization& spec, std::optional<std::size_t> max_threads = std::nullopt) {
  const std::filesystem::path path =
      std::filesystem::path(KJIT_SOURCE_DIR) / "tests" / "kernels" / "specialize.cu";
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  backend::CompileRequest r;
  r.program_name = path.string();
  r.source_path = path;
  r.source = detail::variant_source(text.str(), "saxpy", "&saxpy", 5, spec, max_threads);
  r.kernel_names = {std::string(detail::kVariantKernel)};
  r.kernel_signatures.resize(1);
  return r;
}

inline backend::CompileRequest saxpy_variant_request() {
  detail::Specialization spec;
  spec.constants = {detail::make_constant<int>(0, 1000), detail::make_constant<float>(1, 2.5f)};
  spec.block = Dim3{128};
  return saxpy_variant_request(spec);
}

}  // namespace kjit::test
