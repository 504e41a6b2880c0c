#include "backends/cpu/cpu_compiler.hpp"

#include "backends/cpu/cpu_codegen.hpp"
#include "backends/cpu/cpu_frontend.hpp"
#include "backends/cpu/cpu_kernel_lowering.hpp"
#include "jit/logging.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <fmt/format.h>

#include <chrono>

namespace kjit::cpu {

backend::Binary compile_program(const backend::CompileRequest& request, const HostTarget& target,
                                const std::string& device) {
  using clock = std::chrono::steady_clock;
  using ms = std::chrono::duration<double, std::milli>;
  const auto t0 = clock::now();
  llvm::LLVMContext context;
  FrontendOutput front = compile_to_ir(request, target, context, device);
  const auto t1 = clock::now();

  LoweringRequest lowering{request.program_name, device, request.kernel_names,
                           std::move(front.dynamic_shared)};
  lower_kernels(*front.module, lowering);
  const auto t2 = clock::now();

  backend::Binary binary;
  binary.program = request.program_name;
  binary.format = "cpu-elf-object";
  binary.bytes = optimize_and_emit(*front.module, target,
                                   {request.program_name, device, request.fast_math});
  binary.log = std::move(front.warnings);
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    binary.kernel_symbols.push_back(std::to_string(i));
  }
  const auto t3 = clock::now();
  detail::log().debug("cpu compile of '{}': front end {:.1f} ms, lowering {:.1f} ms, O3 + codegen "
                      "{:.1f} ms, {} bytes",
                      request.program_name, ms(t1 - t0).count(), ms(t2 - t1).count(),
                      ms(t3 - t2).count(), binary.bytes.size());
  return binary;
}

}  // namespace kjit::cpu
