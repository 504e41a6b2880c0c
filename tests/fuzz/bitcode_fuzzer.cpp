// libFuzzer target: the CPU backend's bitcode loader (Program::from_bitcode on the CPU). Bytes
// that are not good host bitcode give CompileError, names that are no kernel there give
// KernelNotFoundError; nothing else escapes and nothing crashes.
#include "backends/cpu/cpu_bitcode.hpp"

#include <kjit/error.hpp>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  // The first byte picks the kernels asked for: the seed's (kernels/bitcode/examples.cu) or not.
  static const char* const kNames[] = {"saxpy<float>", "reduce_sum", "saxpy", "missing"};
  kjit::backend::CompileRequest request;
  request.program_name = "fuzz.bc";
  request.input = kjit::backend::InputKind::bitcode;
  request.source.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  request.kernel_names = {kNames[data[0] % 4]};
  request.kernel_signatures = {
      data[0] % 8 == 1 ? std::optional<std::string>("const int*, int*, int") : std::nullopt};
  llvm::LLVMContext context;
  try {
    const auto out = kjit::cpu::bitcode_to_ir(request, kjit::cpu::host_target(), context, "cpu");
    if (!out.module) {
      std::abort();
    }
  } catch (const kjit::CompileError&) {
  } catch (const kjit::KernelNotFoundError&) {
  }
  return 0;
}
