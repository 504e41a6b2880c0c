// A compile request for a specialised variant (core/specialization.hpp), as Kernel::specialize
// makes it: saxpy of tests/kernels/specialize.cu with n = 1000 and a = 2.5 fixed and blocks of
// 128 threads (or what a test fixes), or the variant an annotated kernel's launch makes, for the
// compilers' tests that need no device.
#pragma once

#include "backends/kit/backend.hpp"
#include "core/specialization.hpp"
#include "source/jit_annotations.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace kjit::test {

/// A variant of kernel `kernel`, taking `count` parameters, of tests/kernels/`file` fixing `spec`,
/// whose launch bounds are `max_threads` if it fixes no block.
inline backend::CompileRequest variant_request(
    const std::string& file, const std::string& kernel, std::size_t count,
    const detail::Specialization& spec, std::optional<std::size_t> max_threads = std::nullopt) {
  const std::filesystem::path path =
      std::filesystem::path(KJIT_SOURCE_DIR) / "tests" / "kernels" / file;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  backend::CompileRequest r;
  r.program_name = path.string();
  r.source_path = path;
  r.source = detail::variant_source(text.str(), kernel, "&" + kernel, count, spec, max_threads);
  r.kernel_names = {std::string(detail::kVariantKernel)};
  r.kernel_signatures.resize(1);
  return r;
}

/// A variant of saxpy fixing `spec`, whose launch bounds are `max_threads` if it fixes no block.
inline backend::CompileRequest saxpy_variant_request(
    const detail::Specialization& spec, std::optional<std::size_t> max_threads = std::nullopt) {
  return variant_request("specialize.cu", "saxpy", 5, spec, max_threads);
}

/// A variant of window of tests/kernels/jit_annotated.cu, as its annotation asks at a launch
/// with steps = 7 and scale = 0.5, and as the core gives it to a compiler (the annotation
/// blanked).
inline backend::CompileRequest annotated_variant_request() {
  detail::Specialization spec;
  spec.constants = {detail::make_constant<int>(2, 7), detail::make_constant<float>(3, 0.5f)};
  backend::CompileRequest r = variant_request("jit_annotated.cu", "window", 5, spec);
  r.source = source::without_jit_annotations(r.source);
  return r;
}

inline backend::CompileRequest saxpy_variant_request() {
  detail::Specialization spec;
  spec.constants = {detail::make_constant<int>(0, 1000), detail::make_constant<float>(1, 2.5f)};
  spec.block = Dim3{128};
  return saxpy_variant_request(spec);
}

}  // namespace kjit::test
