// LLVM's NVPTX and AMDGPU code generators, and lld, behind bitcode_compilers.hpp.
#include "backends/llvm/bitcode_compilers.hpp"
#include "backends/llvm/bitcode_reader.hpp"
#include "backends/llvm/llvm_setup.hpp"

#include <kjit/error.hpp>

#include <lld/Common/Driver.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <fmt/format.h>

#include <unistd.h>
#include <array>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <utility>

#if KJIT_LLVM_AMDGPU
LLD_HAS_DRIVER(elf)
#endif

namespace kjit::bitcode {

namespace {

constexpr const char* kNvptxRecipe =
    "make it with clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_XX -emit-llvm -c, as "
    "kernels/bitcode/make-bitcode.sh does";
constexpr const char* kAmdgpuRecipe =
    "make it with clang-19 -x hip --cuda-device-only --offload-arch=gfxXXX -emit-llvm -c, as "
    "kernels/bitcode/make-bitcode.sh does";

/// The code object version when the bitcode does not set one: what ROCm 5's hipRTC makes, and
/// what every ROCm since 5.0 loads.
constexpr int kDefaultCodeObjectVersion = 400;

llvm::TargetOptions target_options(bool fast_math) {
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;  // as CUDA compilers do by default
  if (fast_math) {
    options.UnsafeFPMath = true;
    options.NoInfsFPMath = true;
    options.NoNaNsFPMath = true;
    options.NoSignedZerosFPMath = true;
    options.ApproxFuncFPMath = true;
  }
  return options;
}

std::unique_ptr<llvm::TargetMachine> make_target_machine(
    const std::string& triple, const std::string& cpu, const std::string& features, bool fast_math,
    const backend::CompileRequest& request, const std::string& device) {
  llvm_setup::initialize_targets();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (target == nullptr) {
    throw BackendError(
        fmt::format("kjit: this LLVM ({}) cannot generate code for {} ('{}' for {}): {}",
                    LLVM_VERSION_STRING, triple, request.program_name, device, error));
  }
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, target_options(fast_math), llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) {
    throw BackendError(fmt::format("kjit: LLVM cannot generate code for {} ({}) ('{}' for {})",
                                   triple, cpu, request.program_name, device));
  }
  return tm;
}

/// Leaves the processor to the target machine: the module is compiled for the device, whatever
/// its functions said (after each backend's checks).
void drop_processor(llvm::Module& module) {
  for (llvm::Function& f : module) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("tune-cpu");
  }
}

std::vector<std::uint8_t> emit(llvm::Module& module, llvm::TargetMachine& tm,
                               llvm::CodeGenFileType type, const backend::CompileRequest& request,
                               const std::string& device) {
  module.setDataLayout(tm.createDataLayout());
  llvm_setup::run_o3(module, tm);
  llvm::SmallVector<char, 0> out;
  llvm::raw_svector_ostream stream(out);
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, stream, nullptr, type)) {
    throw BackendError(fmt::format("kjit: LLVM cannot emit code for {} ('{}' for {})",
                                   tm.getTargetTriple().str(), request.program_name, device));
  }
  codegen.run(module);
  return {out.begin(), out.end()};
}

std::vector<std::string> symbols_of(const std::vector<llvm::Function*>& kernels) {
  std::vector<std::string> symbols;
  symbols.reserve(kernels.size());
  for (const llvm::Function* f : kernels) {
    symbols.push_back(f->getName().str());
  }
  return symbols;
}

// ---- NVPTX ----------------------------------------------------------------------------------

/// The functions nvvm.annotations marks as kernels (LLVM 19's marking; later LLVMs also use the
/// ptx_kernel calling convention, accepted too).
std::set<const llvm::Function*> nvvm_kernels(const llvm::Module& module) {
  std::set<const llvm::Function*> kernels;
  if (const llvm::NamedMDNode* annotations = module.getNamedMetadata("nvvm.annotations")) {
    for (const llvm::MDNode* node : annotations->operands()) {
      for (unsigned i = 1; i + 1 < node->getNumOperands(); i += 2) {
        const auto* key = llvm::dyn_cast<llvm::MDString>(node->getOperand(i));
        const auto* value =
            llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(i + 1));
        if (key != nullptr && key->getString() == "kernel" && value != nullptr &&
            !value->isZero()) {
          if (const auto* f =
                  llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0))) {
            kernels.insert(f);
          }
        }
      }
    }
  }
  for (const llvm::Function& f : module) {
    if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel) {
      kernels.insert(&f);
    }
  }
  return kernels;
}

int sm_number(llvm::StringRef cpu) {
  int sm = 0;
  return cpu.consume_front("sm_") && !cpu.consumeInteger(10, sm) ? sm : 0;
}

/// The oldest PTX ISA version that knows sm_N (LLVM 19's own table), for bitcode whose
/// functions name none: the newest a driver must understand.
int minimum_ptx(int sm) {
  constexpr std::array<std::pair<int, int>, 6> kTable{
      {{89, 78}, {87, 74}, {86, 71}, {80, 70}, {75, 63}, {72, 61}}};
  for (const auto& [arch, ptx] : kTable) {
    if (sm >= arch) {
      return ptx;
    }
  }
  return 60;
}

class NvptxCompiler : public backend::Compiler {
 public:
  NvptxCompiler(int arch, std::string target, std::string label)
      : arch_(arch), target_(std::move(target)), label_(std::move(label)) {}

  backend::TargetIdentity identity() override {
    return {target_,
            {{"llvm", LLVM_VERSION_STRING},
             {"codegen", fmt::format("nvptx64 sm_{}", ptx_arch())},
             {"format", "ptx"}}};
  }

  backend::Binary compile(const backend::CompileRequest& request) override {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = read_bitcode(context, request, label_);
    check_triple(*module, {{"nvptx64"}, "cuda", kNvptxRecipe}, request, label_);
    const std::set<const llvm::Function*> kernels = nvvm_kernels(*module);
    const std::vector<llvm::Function*> found = resolve_kernels(
        *module, request, label_, [&](const llvm::Function& f) { return kernels.count(&f) != 0; },
        "\"kernel\" entry in nvvm.annotations (a __global__ function has one)");

    const int sm = ptx_arch();
    int ptx = 0;
    for (llvm::Function& f : *module) {
      const int wants = sm_number(f.getFnAttribute("target-cpu").getValueAsString());
      if (wants > arch_) {
        throw_bitcode_error(
            request, label_,
            fmt::format("the bitcode was compiled for sm_{} ('{}' needs it), which {} (sm_{}) "
                        "cannot run; compile it for sm_{} or older",
                        wants, demangled_name(f.getName()), label_, arch_, arch_));
      }
      llvm::SmallVector<llvm::StringRef, 32> features;
      f.getFnAttribute("target-features").getValueAsString().split(features, ',');
      for (llvm::StringRef feature : features) {
        int version = 0;
        if (feature.consume_front("+ptx") && !feature.consumeInteger(10, version)) {
          ptx = std::max(ptx, version);
        }
      }
    }
    ptx = std::max(ptx, minimum_ptx(sm));
    drop_processor(*module);
    for (llvm::Function& f : *module) {
      f.removeFnAttr("target-features");  // the PTX version found above goes to the machine
    }
    const std::unique_ptr<llvm::TargetMachine> tm =
        make_target_machine(module->getTargetTriple(), fmt::format("sm_{}", sm),
                            fmt::format("+ptx{}", ptx), request.fast_math, request, label_);
    backend::Binary binary;
    binary.program = request.program_name;
    binary.format = "ptx";
    binary.kernel_symbols = symbols_of(found);
    binary.bytes = emit(*module, *tm, llvm::CodeGenFileType::AssemblyFile, request, label_);
    binary.bytes.push_back(0);  // the driver reads PTX as a C string
    return binary;
  }

 private:
  /// The device's architecture, or the newest this LLVM knows below it (the driver compiles the
  /// PTX for the device).
  int ptx_arch() {
    std::call_once(arch_once_, [this] {
      llvm_setup::initialize_targets();
      std::string error;
      const llvm::Target* target = llvm::TargetRegistry::lookupTarget("nvptx64-nvidia-cuda", error);
      ptx_arch_ = arch_;
      if (target == nullptr) {
        return;  // make_target_machine reports it
      }
      const std::unique_ptr<llvm::MCSubtargetInfo> info(
          target->createMCSubtargetInfo("nvptx64-nvidia-cuda", "sm_20", ""));
      while (ptx_arch_ > 20 && !info->isCPUStringValid(fmt::format("sm_{}", ptx_arch_))) {
        --ptx_arch_;
      }
    });
    return ptx_arch_;
  }

  int arch_;
  std::string target_;
  std::string label_;
  std::once_flag arch_once_;
  int ptx_arch_ = 0;
};

// ---- AMDGPU ---------------------------------------------------------------------------------

/// lld's ELF linker, in process: relocatable object -> shared object (the code object). lld
/// keeps global state, so links take turns.
std::vector<std::uint8_t> link_code_object(const std::vector<std::uint8_t>& object,
                                           const backend::CompileRequest& request,
                                           const std::string& device) {
#if KJIT_LLVM_AMDGPU
  static std::mutex mutex;
  static bool broken = false;  // lld said it cannot run again in this process
  static std::atomic<unsigned> counter{0};
  const std::lock_guard lock(mutex);
  if (broken) {
    throw BackendError(
        "kjit: lld failed in a way that keeps it from linking again in this process");
  }
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(ec) /
                                    fmt::format("kjit-lld-{}-{}", ::getpid(), counter.fetch_add(1));
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw BackendError(
        fmt::format("kjit: cannot make a folder for lld at {}: {}", dir.string(), ec.message()));
  }
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } cleanup{dir};
  const std::string in = (dir / "kernels.o").string();
  const std::string out = (dir / "kernels.hsaco").string();
  {
    std::ofstream file(in, std::ios::binary);
    file.write(reinterpret_cast<const char*>(object.data()),
               static_cast<std::streamsize>(object.size()));
    if (!file) {
      throw BackendError(fmt::format("kjit: cannot write {} for lld", in));
    }
  }
  std::string messages;
  llvm::raw_string_ostream stream(messages);
  const std::vector<const char*> args{"ld.lld",   "-shared", "--no-undefined",
                                      in.c_str(), "-o",      out.c_str()};
  const lld::Result result = lld::lldMain(args, stream, stream, {{lld::Gnu, &lld::elf::link}});
  broken = !result.canRunAgain;
  if (result.retCode != 0) {
    throw_bitcode_error(request, device,
                        fmt::format("lld cannot link the code object: {}", messages));
  }
  std::ifstream file(out, std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                  std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    throw BackendError(
        fmt::format("kjit: lld wrote no code object for '{}' ({})", request.program_name, device));
  }
  return bytes;
#else
  (void)object;
  throw BackendError(fmt::format("kjit: cannot link '{}' for {}: this LLVM has no AMDGPU target",
                                 request.program_name, device));
#endif
}

std::string feature_string(const AmdgpuSettings& s) {
  std::string features;
  if (s.sramecc) {
    features += *s.sramecc ? "+sramecc" : "-sramecc";
  }
  if (s.xnack) {
    features += features.empty() ? "" : ",";
    features += *s.xnack ? "+xnack" : "-xnack";
  }
  return features;
}

class AmdgpuCompiler : public backend::Compiler {
 public:
  AmdgpuCompiler(AmdgpuSettings settings, std::string target, std::string label)
      : settings_(std::move(settings)), target_(std::move(target)), label_(std::move(label)) {}

  backend::TargetIdentity identity() override {
    return {
        target_,
        {{"llvm", LLVM_VERSION_STRING},
         {"codegen", fmt::format("amdgcn {} {}", settings_.processor, feature_string(settings_))},
         {"default code object version", std::to_string(kDefaultCodeObjectVersion / 100)},
         {"format", "hsaco"}}};
  }

  backend::Binary compile(const backend::CompileRequest& request) override {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = read_bitcode(context, request, label_);
    check_triple(*module, {{"amdgcn"}, "amdhsa", kAmdgpuRecipe}, request, label_);
    const std::vector<llvm::Function*> found = resolve_kernels(
        *module, request, label_,
        [](const llvm::Function& f) {
          return f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL;
        },
        "amdgpu_kernel calling convention (a __global__ function has it)");
    for (const llvm::Function& f : *module) {
      const llvm::StringRef cpu = f.getFnAttribute("target-cpu").getValueAsString();
      if (!cpu.empty() && cpu != settings_.processor) {
        // Device libraries and builtins are specific to one processor: never retarget.
        throw_bitcode_error(
            request, label_,
            fmt::format("the bitcode was compiled for {} ('{}' is), but {} is {}; compile it with "
                        "--offload-arch={}",
                        cpu.str(), demangled_name(f.getName()), label_, settings_.processor,
                        settings_.processor));
      }
    }
    if (module->getModuleFlag("amdhsa_code_object_version") == nullptr) {
      module->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                            kDefaultCodeObjectVersion);
    }
    // sramecc and xnack come from the device; the rest of each function's features stay.
    drop_processor(*module);
    for (llvm::Function& f : *module) {
      llvm::SmallVector<llvm::StringRef, 32> features;
      f.getFnAttribute("target-features").getValueAsString().split(features, ',', -1, false);
      std::string kept;
      for (llvm::StringRef feature : features) {
        if (!feature.drop_front().starts_with("sramecc") &&
            !feature.drop_front().starts_with("xnack")) {
          if (!kept.empty()) {
            kept += ',';
          }
          kept += feature.str();
        }
      }
      if (kept.empty()) {
        f.removeFnAttr("target-features");
      } else {
        f.addFnAttr("target-features", kept);
      }
    }
    const std::unique_ptr<llvm::TargetMachine> tm =
        make_target_machine(module->getTargetTriple(), settings_.processor,
                            feature_string(settings_), request.fast_math, request, label_);
    const std::vector<std::uint8_t> object =
        emit(*module, *tm, llvm::CodeGenFileType::ObjectFile, request, label_);
    backend::Binary binary;
    binary.program = request.program_name;
    binary.format = "hsaco";
    binary.kernel_symbols = symbols_of(found);
    binary.bytes = link_code_object(object, request, label_);
    return binary;
  }

 private:
  AmdgpuSettings settings_;
  std::string target_;
  std::string label_;
};

}  // namespace

std::string llvm_version() {
  return LLVM_VERSION_STRING;
}

std::unique_ptr<backend::Compiler> nvptx_compiler(int arch, std::string target, std::string label) {
  if (!llvm_setup::has_nvptx()) {
    throw BackendError(
        fmt::format("kjit: cannot compile bitcode for {}: this LLVM ({}) has no NVPTX target",
                    label, LLVM_VERSION_STRING));
  }
  return std::make_unique<NvptxCompiler>(arch, std::move(target), std::move(label));
}

std::unique_ptr<backend::Compiler> amdgpu_compiler(AmdgpuSettings settings, std::string target,
                                                   std::string label) {
  if (!llvm_setup::has_amdgpu()) {
    throw BackendError(
        fmt::format("kjit: cannot compile bitcode for {}: this LLVM ({}) has no AMDGPU target",
                    label, LLVM_VERSION_STRING));
  }
  llvm_setup::initialize_targets();
  std::string error;
  const llvm::Target* amdgpu = llvm::TargetRegistry::lookupTarget("amdgcn-amd-amdhsa", error);
  const std::unique_ptr<llvm::MCSubtargetInfo> info(
      amdgpu == nullptr ? nullptr
                        : amdgpu->createMCSubtargetInfo("amdgcn-amd-amdhsa", "generic", ""));
  if (info == nullptr || !info->isCPUStringValid(settings.processor)) {
    throw ConfigError(
        fmt::format("kjit: LLVM {} cannot compile bitcode for {}: it does not know "
                    "processor '{}'",
                    LLVM_VERSION_STRING, label, settings.processor));
  }
  return std::make_unique<AmdgpuCompiler>(std::move(settings), std::move(target), std::move(label));
}

}  // namespace kjit::bitcode
