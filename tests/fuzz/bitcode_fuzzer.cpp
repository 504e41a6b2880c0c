// libFuzzer target: the CPU backend's bitcode loader (Program::from_bitcode on the CPU). Bytes
// that are not good host bitcode give CompileError, names that are no kernel there give
// KernelNotFoundError; nothing else escapes and nothing crashes.
//
// LLVM's own bitcode reader is not safe on hostile input: mutated bitcode crashes it (in its
// metadata loader) within seconds, and kjit cannot fix that reader. So each input is read first
// in a forked child, by the same function kjit uses (bitcode::read_bitcode: parse, materialise,
// verify); an input on which the child dies is LLVM's (kjit's answer to it is to compile in a
// child process, KJIT_COMPILE_ISOLATION=process) and is rejected. Every other input runs in this
// process, all of kjit's path, where a crash or a stray exception is a finding.
#include "backends/cpu/compile/cpu_bitcode.hpp"
#include "backends/llvm/bitcode_reader.hpp"

#include <kjit/error.hpp>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#endif
#endif
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

/// Whether LLVM's reader gets through `request` (to a module or to an error) in a child: false
/// when the child died, took over a second (a bitcode file of kilobytes reads in milliseconds),
/// or leaked (under AddressSanitizer, LLVM's reader leaks metadata on some malformed input).
bool llvm_survives_reading(const kjit::backend::CompileRequest& request) {
  const pid_t child = ::fork();
  if (child < 0) {
    std::abort();  // no fork: the run cannot go on honestly
  }
  if (child == 0) {
    // The child is not the fuzzer: libFuzzer's crash callback and its SIGALRM timer would write
    // this input as the fuzzer's own crash or timeout. A dying child says nothing either.
    __sanitizer_set_death_callback(nullptr);
    std::signal(SIGALRM, SIG_DFL);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDERR_FILENO);
    ::alarm(1);
    {
      llvm::LLVMContext context;
      try {
        (void)kjit::bitcode::read_bitcode(context, request, "cpu");
      } catch (const kjit::CompileError&) {
      }
    }
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    if (__lsan_do_recoverable_leak_check() != 0) {
      ::_exit(1);
    }
#endif
#endif
    ::_exit(0);  // no exit handlers: the parent's state is not the child's to tear down
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

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
  if (!llvm_survives_reading(request)) {
    return -1;  // LLVM's crash, not kjit's: keep it out of the corpus
  }
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
