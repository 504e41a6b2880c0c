// Rewrites the front end's IR into kjit's CPU execution model (cpu_abi.h):
//  - every function that reads threadIdx & co. or touches __shared__ memory gets the running
//    thread's context as an extra parameter, passed down from the kernel entries;
//  - __shared__ variables (static, local and extern) become offsets into the block's area;
//  - each kernel keeps the entry its synchronisation needs and gets an info record: a loop over
//    the threads, loops between barriers (cpu_barrier_regions.hpp), or fibers where a kernel
//    cannot be split; everything else becomes internal, so the optimiser may inline and drop it.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace kjit::cpu {

struct LoweringRequest {
  std::string program;                      // for messages
  std::string device;                       // for messages
  std::vector<std::string> kernel_names;    // entry N is kernel_names[N]
  std::vector<std::string> dynamic_shared;  // IR names of the extern __shared__ variables
  bool split_barriers = true;               // barrier kernels: regions (true) or fibers
  bool debug = false;  // give functions that read the thread context threadIdx & co. as locals
  bool check_memory = false;     // a check before each access (cpu_access_checks.hpp)
  bool flush_denormals = false;  // fast math: KJIT_CPU_KERNEL_FLUSHES_DENORMALS on every entry
  bool lanes_in_step = true;  // warp shuffles as vectors where lanes are together (cpu_warp_lanes)
};

/// Each entry's static shared size and barrier use go into its __kjit_info_N record. Throws
/// KernelNotFoundError for a name that is not a __global__ function, CompileError for code the
/// CPU backend cannot run (its message names the construct).
void lower_kernels(llvm::Module& module, const LoweringRequest& request);

/// The functions kjit's __global__ marks (annotate("kjit.kernel")).
std::set<llvm::Function*> kernel_functions(llvm::Module& module);

}  // namespace kjit::cpu
