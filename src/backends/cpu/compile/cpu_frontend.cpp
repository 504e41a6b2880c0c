#include "backends/cpu/compile/cpu_frontend.hpp"

#include "backends/kit/compile_failure.hpp"
#include "backends/kit/program_sources.hpp"
#include "backends/llvm/llvm_setup.hpp"
#include "source/host_code.hpp"
#include "source/kernel_headers.hpp"

#include <kjit/error.hpp>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <fmt/format.h>

#include <algorithm>

extern const char kjit_cpu_prelude_text[];  // cpu_abi.h + cpu_prelude.h, embedded at build time

namespace kjit::cpu {

namespace {

// Virtual files: the prelude, the generated main file, sources and headers given as text.
constexpr std::string_view kPreludePath = "/__kjit__/prelude.h";
constexpr std::string_view kEntriesPath = "/__kjit__/entries.cpp";
constexpr std::string_view kSourceDir = "/__kjit__/src/";
constexpr std::string_view kHeaderDir = "/__kjit__/headers/";
constexpr std::string_view kSystemDir = "/__kjit__/system/";  // kernel_headers.hpp
constexpr unsigned kFirstEntryLine = 2;  // line 1 of the entries file includes the program

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// Where the main file lives for Clang, and how paths are shown to the user.
class SourcePaths {
 public:
  explicit SourcePaths(const backend::CompileRequest& request) : program_(request.program_name) {
    if (request.source_path) {
      main_ = request.source_path->lexically_normal().string();
    } else {
      llvm::SmallString<256> p(kSourceDir);
      std::string relative = request.program_name;
      while (!relative.empty() && relative.front() == '/') {
        relative.erase(0, 1);
      }
      llvm::sys::path::append(p, relative);
      llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
      main_ = p.str().str();
      if (!starts_with(main_, kSourceDir) || main_.size() == kSourceDir.size()) {
        main_ = std::string(kSourceDir) + llvm::sys::path::filename(request.program_name).str();
      }
    }
    if (main_.find_first_of("\"\n\r") != std::string::npos) {
      throw UsageError(
          fmt::format("kjit: the kernel file path '{}' contains a quote or a line "
                      "break, which an #include cannot name",
                      main_));
    }
  }

  [[nodiscard]] const std::string& main() const noexcept { return main_; }

  /// The name a diagnostic shows for a path Clang reports.
  [[nodiscard]] std::string display(std::string_view path) const {
    if (path == main_) {
      return program_;
    }
    if (path == kPreludePath) {
      return "<kjit cpu prelude>";
    }
    if (path == kEntriesPath) {
      return "<kjit kernel entries>";
    }
    if (starts_with(path, kSourceDir)) {
      return std::string(path.substr(kSourceDir.size()));
    }
    if (starts_with(path, kHeaderDir)) {
      return std::string(path.substr(kHeaderDir.size()));
    }
    if (starts_with(path, kSystemDir)) {
      return "<kjit>/" + std::string(path.substr(kSystemDir.size()));
    }
    return std::string(path);
  }

  /// True for files the user wrote (not the prelude, the generated entries or kjit's headers).
  [[nodiscard]] static bool is_user_file(std::string_view path) {
    return path != kPreludePath && path != kEntriesPath && !path.empty() &&
           !starts_with(path, kSystemDir);
  }

 private:
  std::string program_;
  std::string main_;
};

/// Collects Clang's diagnostics with their locations.
class DiagnosticCollector : public clang::DiagnosticConsumer {
 public:
  struct Entry {
    Diagnostic diagnostic;
    std::string raw_path;  // the path as Clang knows it
  };

  explicit DiagnosticCollector(const SourcePaths& paths) : paths_(paths) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    Entry e;
    switch (level) {
      case clang::DiagnosticsEngine::Ignored:
        return;
      case clang::DiagnosticsEngine::Note:
      case clang::DiagnosticsEngine::Remark:
        e.diagnostic.severity = Diagnostic::Severity::note;
        break;
      case clang::DiagnosticsEngine::Warning:
        e.diagnostic.severity = Diagnostic::Severity::warning;
        break;
      case clang::DiagnosticsEngine::Error:
      case clang::DiagnosticsEngine::Fatal:
        e.diagnostic.severity = Diagnostic::Severity::error;
        break;
    }
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    e.diagnostic.message = message.str().str();
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const clang::SourceManager& sm = info.getSourceManager();
      const clang::PresumedLoc loc = sm.getPresumedLoc(sm.getFileLoc(info.getLocation()));
      if (loc.isValid()) {
        e.raw_path = loc.getFilename();
        e.diagnostic.file = paths_.display(e.raw_path);
        e.diagnostic.line = loc.getLine();
        e.diagnostic.column = loc.getColumn();
      }
    }
    const auto same = [&](const Entry& other) {
      return other.raw_path == e.raw_path && other.diagnostic.line == e.diagnostic.line &&
             other.diagnostic.column == e.diagnostic.column &&
             other.diagnostic.message == e.diagnostic.message &&
             other.diagnostic.severity == e.diagnostic.severity;
    };
    if (std::none_of(entries_.begin(), entries_.end(), same)) {  // a name in several expansions
      entries_.push_back(std::move(e));
    }
  }

  [[nodiscard]] const std::vector<Entry>& entries() const noexcept { return entries_; }

  /// Every diagnostic, one a line: the compile log.
  [[nodiscard]] std::string format() const {
    std::string text;
    for (const Entry& e : entries_) {
      text += e.diagnostic.to_string();
      text += '\n';
    }
    return text;
  }

 private:
  const SourcePaths& paths_;
  std::vector<Entry> entries_;
};

bool has_annotation(const clang::Decl* decl, llvm::StringRef text) {
  for (const auto* attr : decl->specific_attrs<clang::AnnotateAttr>()) {
    if (attr->getAnnotation() == text) {
      return true;
    }
  }
  return false;
}

/// What only the AST can tell: the IR names of the extern __shared__ declarations (Clang does not
/// annotate declarations in IR), and kernels declared in ways CUDA forbids (reported as errors at
/// the user's line, as NVRTC would).
class DeclarationScanner : public clang::ASTConsumer,
                           public clang::RecursiveASTVisitor<DeclarationScanner> {
 public:
  explicit DeclarationScanner(std::vector<std::string>& names) : names_(names) {}

  void HandleTranslationUnit(clang::ASTContext& context) override {
    mangler_.reset(context.createMangleContext());
    diagnostics_ = &context.getDiagnostics();
    TraverseDecl(context.getTranslationUnitDecl());
  }

  bool VisitFunctionDecl(clang::FunctionDecl* decl) {
    if (has_annotation(decl, "kjit.kernel") && !decl->getReturnType()->isVoidType() &&
        !decl->isDependentContext()) {
      const unsigned id = diagnostics_->getCustomDiagID(clang::DiagnosticsEngine::Error,
                                                        "a __global__ function must return void");
      diagnostics_->Report(decl->getLocation(), id);
    }
    return true;
  }

  bool VisitAsmStmt(clang::AsmStmt* stmt) {
    // Kernel source's assembly is PTX: the host's assembler would refuse it at code generation,
    // far from the user's line.
    const unsigned id = diagnostics_->getCustomDiagID(
        clang::DiagnosticsEngine::Error,
        "inline assembly (PTX) is not supported by kjit's CPU backend; give the CPU a C++ "
        "version under #ifdef __KJIT_CPU__");
    diagnostics_->Report(stmt->getAsmLoc(), id);
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* decl) {
    if (decl->hasExternalStorage() && has_annotation(decl, "kjit.shared")) {
      names_.push_back(ir_name(decl));
    }
    return true;
  }

 private:
  std::string ir_name(const clang::VarDecl* decl) const {
    if (!mangler_->shouldMangleDeclName(decl)) {
      return decl->getName().str();
    }
    std::string name;
    llvm::raw_string_ostream os(name);
    mangler_->mangleName(clang::GlobalDecl(decl), os);
    return os.str();
  }

  std::vector<std::string>& names_;
  std::unique_ptr<clang::MangleContext> mangler_;
  clang::DiagnosticsEngine* diagnostics_ = nullptr;
};

class KernelIRAction : public clang::EmitLLVMOnlyAction {
 public:
  KernelIRAction(llvm::LLVMContext& context, std::vector<std::string>& shared)
      : clang::EmitLLVMOnlyAction(&context), shared_(shared) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef file) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(clang::EmitLLVMOnlyAction::CreateASTConsumer(ci, file));
    if (!consumers.back()) {
      return nullptr;
    }
    consumers.push_back(std::make_unique<DeclarationScanner>(shared_));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

 private:
  std::vector<std::string>& shared_;
};

/// The generated main file: the program, then one entry per kernel, each on its own line (so
/// that an error on line kFirstEntryLine + N is about kernel N). A kernel with a signature is
/// the one a cast to that function type selects: a template instantiation, or an overload.
std::string entries_source(const SourcePaths& paths, const backend::CompileRequest& request) {
  std::string text = fmt::format("#include \"{}\"\n", paths.main());
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    text += fmt::format("__KJIT_KERNEL_ENTRY({}, {})\n", i, request.kernel_address(i));
  }
  return text;
}

std::string header_path(const std::string& name) {
  const llvm::StringRef n(name);
  if (n.empty() || llvm::sys::path::is_absolute(n) ||
      std::any_of(llvm::sys::path::begin(n), llvm::sys::path::end(n),
                  [](llvm::StringRef part) { return part == ".." || part == "."; })) {
    throw UsageError(
        fmt::format("kjit: in-memory header name '{}' must be a relative path "
                    "without '.' or '..' components",
                    name));
  }
  return std::string(kHeaderDir) + name;
}

std::vector<std::string> clang_arguments(const backend::CompileRequest& request,
                                         const HostTarget& target, bool line_tables) {
  std::vector<std::string> args = {
      "-triple",
      target.triple,
      "-target-cpu",
      target.cpu,
      "-x",
      "c++",
      "-std=c++20",
      "-O3",
      "-disable-llvm-passes",
      "-fdeclspec",
      "-fno-rtti",
      "-fno-use-cxa-atexit",
      "-ffp-contract=fast",
      "-nostdsysteminc",
      "-nobuiltininc",
      "-mrelocation-model",
      "pic",
      "-pic-level",
      "2",
      "-ferror-limit",
      "50",
      // What nvcc takes from older code with a warning at most: `register` (removed in C++17)
      // and narrowing conversions in braced initializers.
      "-Wno-register",
      "-Wno-c++11-narrowing",
      "-include",
      std::string(kPreludePath),
      "-I",
      std::string(kHeaderDir),
      "-I",
      std::string(kSystemDir),
      // __FILE__ (assert's messages) names a program given as text as the user named it.
      fmt::format("-fmacro-prefix-map={}=", kSourceDir),
      fmt::format("-fmacro-prefix-map={}=", kHeaderDir),
  };
  for (const std::string& feature : target.features) {
    args.emplace_back("-target-feature");
    args.push_back(feature);
  }
  if (request.fast_math) {
    for (const char* flag : {"-ffast-math", "-menable-no-infs", "-menable-no-nans", "-fapprox-func",
                             "-funsafe-math-optimizations", "-fno-signed-zeros", "-mreassociate",
                             "-freciprocal-math"}) {
      args.emplace_back(flag);
    }
  }
  if (request.debug || request.check_memory || line_tables) {
    // Files named as the user knows them: a program given as text by its name, a header given in
    // memory by its include name (a kernel file keeps its path on disk). Checked mode needs only
    // the lines, to name where a bad access is (and `line_tables`, where the lowering refused).
    for (const std::string& flag :
         {std::string(request.debug ? "-debug-info-kind=standalone"
                                    : "-debug-info-kind=line-tables-only"),
          std::string("-dwarf-version=5"), std::string("-debugger-tuning=gdb"),
          fmt::format("-fdebug-prefix-map={}=", kSourceDir),
          fmt::format("-fdebug-prefix-map={}=", kHeaderDir)}) {
      args.push_back(flag);
    }
  }
  for (const auto& dir : request.include_dirs) {
    args.emplace_back("-I");
    args.push_back(dir.string());
  }
  for (const auto& [name, value] : request.defines) {
    args.push_back(value.empty() ? fmt::format("-D{}", name) : fmt::format("-D{}={}", name, value));
  }
  args.emplace_back(kEntriesPath);
  return args;
}

/// Locates each diagnostic for throw_compile_failure. Clang reports an unclosed bracket at the end
/// of the generated entries file with a "to match this" note in the user's file: such errors move
/// to that note's place. An error on the line of kernel N's entry is about N's name. `notes` go
/// last.
[[noreturn]] void report_failure(const DiagnosticCollector& diagnostics,
                                 const backend::CompileRequest& request, const std::string& device,
                                 const std::vector<Diagnostic>& notes) {
  const auto& entries = diagnostics.entries();
  std::vector<backend::LocatedDiagnostic> located;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const DiagnosticCollector::Entry& e = entries[i];
    backend::LocatedDiagnostic d{e.diagnostic, SourcePaths::is_user_file(e.raw_path), std::nullopt};
    if (d.diagnostic.severity == Diagnostic::Severity::error && !d.in_user_file) {
      for (std::size_t j = i + 1;
           j < entries.size() && entries[j].diagnostic.severity == Diagnostic::Severity::note;
           ++j) {
        const Diagnostic& note = entries[j].diagnostic;
        if (SourcePaths::is_user_file(entries[j].raw_path) &&
            note.message.rfind("to match this", 0) == 0) {
          d.diagnostic.file = note.file;
          d.diagnostic.line = note.line;
          d.diagnostic.column = note.column;
          d.diagnostic.message += " (" + note.message + ")";
          d.in_user_file = true;
          break;
        }
      }
      if (!d.in_user_file && e.raw_path == kEntriesPath && d.diagnostic.line >= kFirstEntryLine &&
          d.diagnostic.line - kFirstEntryLine < request.kernel_names.size()) {
        const std::size_t kernel = d.diagnostic.line - kFirstEntryLine;
        d.kernel = kernel;
        if (d.diagnostic.message.find("<overloaded function type>") != std::string::npos) {
          const std::string& name = request.kernel_names[kernel];
          d.diagnostic.message = fmt::format(
              "'{}' is a template or an overloaded function: name the instantiation ('{}<float>') "
              "or ask with the parameter types that select one",
              name, name);
        }
      }
    }
    located.push_back(std::move(d));
  }
  backend::throw_compile_failure(request, device, located, diagnostics.format(), notes);
}

/// A file read from disk, as the compiler sees it: its host code erased.
class FilteredFile : public llvm::vfs::File {
 public:
  FilteredFile(const llvm::vfs::Status& status, std::string text)
      : status_(llvm::vfs::Status::copyWithNewSize(status, text.size())), text_(std::move(text)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return status_; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name,
                                                               int64_t /*size*/, bool /*terminate*/,
                                                               bool /*volatile*/) override {
    return llvm::MemoryBuffer::getMemBufferCopy(text_, name);
  }
  std::error_code close() override { return {}; }

 private:
  llvm::vfs::Status status_;
  std::string text_;
};

/// The disk as the compiler reads it: headers a kernel file includes from disk have their host
/// code erased as the file's own is (program_sources.hpp), so a shared header's host functions
/// do not stop a compile.
class HostCodeFilter : public llvm::vfs::ProxyFileSystem {
 public:
  HostCodeFilter(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> disk,
                 const backend::ProgramSources& sources)
      : ProxyFileSystem(std::move(disk)), sources_(sources) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override {
    auto file = ProxyFileSystem::openFileForRead(path);
    if (!file) {
      return file;
    }
    const auto status = (*file)->status();
    auto buffer = (*file)->getBuffer(path.str(), -1, true, false);
    if (!status || !buffer) {
      return file;  // let the compiler report what it cannot read
    }
    return std::unique_ptr<llvm::vfs::File>(
        std::make_unique<FilteredFile>(*status, sources_.erase((*buffer)->getBuffer())));
  }

 private:
  const backend::ProgramSources& sources_;
};

/// The files Clang reads for `request`: kjit's prelude, entries and headers, the program's
/// in-memory files and stand-ins, then the disk, host code erased from every file of the user's.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> program_files(
    const backend::CompileRequest& request, const SourcePaths& paths,
    const backend::ProgramSources& sources) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  const auto add = [&](std::string_view path, std::string_view text) {
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
  };
  add(kPreludePath, kjit_cpu_prelude_text);
  add(kEntriesPath, entries_source(paths, request));
  add(paths.main(), sources.main());
  for (const auto& [name, text] : sources.memory_headers()) {
    add(header_path(name), text);
  }
  for (const source::KernelHeader& h : source::kernel_headers()) {
    memory->addFile(std::string(kSystemDir) + std::string(h.name), 0,
                    llvm::MemoryBuffer::getMemBuffer(h.text, h.name));
  }
  for (const auto& [name, text] : sources.stand_ins()) {
    add(std::string(kSystemDir) + name, text);
  }
  // A disk of its own per compile: the process-wide one (getRealFileSystem) is a static built
  // inside libLLVM, whose construction a compile on another thread cannot be shown to follow.
  auto files = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::makeIntrusiveRefCnt<HostCodeFilter>(
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(llvm::vfs::createPhysicalFileSystem()),
          sources));
  files->pushOverlay(memory);
  return files;
}

}  // namespace

FrontendOutput compile_to_ir(const backend::CompileRequest& request, const HostTarget& target,
                             llvm::LLVMContext& context, const std::string& device,
                             bool line_tables) {
  // Clang's code generator looks the target up in LLVM's registry; a second thread still
  // registering it there (the first compile of another program) would hand it a half-built one.
  llvm_setup::initialize_targets();
  const SourcePaths paths(request);

  const backend::ProgramSources sources(request);
  const auto files = program_files(request, paths, sources);

  const std::vector<std::string> args = clang_arguments(request, target, line_tables);
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& a : args) {
    argv.push_back(a.c_str());
  }

  DiagnosticCollector diagnostics(paths);
  clang::CompilerInstance compiler;
  compiler.createDiagnostics(&diagnostics, /*ShouldOwnClient=*/false);
  if (!clang::CompilerInvocation::CreateFromArgs(compiler.getInvocation(), argv,
                                                 compiler.getDiagnostics())) {
    throw BackendError(fmt::format("kjit: internal error: Clang rejected kjit's options for {}: {}",
                                   device, diagnostics.format()));
  }
  compiler.getDiagnosticOpts().ShowCarets = false;  // else Clang prints "N errors generated."
  // The engine was made before the options were read: apply their -W flags to it.
  clang::ProcessWarningOptions(compiler.getDiagnostics(), compiler.getDiagnosticOpts(),
                               /*ReportDiags=*/false);
  compiler.createFileManager(files);
  compiler.createSourceManager(compiler.getFileManager());

  FrontendOutput out;
  KernelIRAction action(context, out.dynamic_shared);
  const bool ok = compiler.ExecuteAction(action);
  if (!ok || compiler.getDiagnostics().hasErrorOccurred()) {
    report_failure(diagnostics, request, device, sources.missing_notes());
  }
  out.module = action.takeModule();
  if (!out.module) {
    report_failure(diagnostics, request, device, sources.missing_notes());
  }
  std::string warnings;
  for (const auto& e : diagnostics.entries()) {
    if (e.diagnostic.severity != Diagnostic::Severity::warning) {
      continue;
    }
    if (const std::optional<std::string> callee = source::host_only_callee(e.diagnostic.message)) {
      Diagnostic where = e.diagnostic;
      where.severity = Diagnostic::Severity::error;
      where.message = source::host_call_message(*callee);
      out.host_calls.push_back({*callee, std::move(where)});
    } else if (SourcePaths::is_user_file(e.raw_path)) {
      warnings += e.diagnostic.to_string();
      warnings += '\n';
    }
  }
  out.warnings = std::move(warnings);
  return out;
}

}  // namespace kjit::cpu
