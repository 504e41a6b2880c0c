#include "backends/llvm/bitcode_reader.hpp"

#include <kjit/error.hpp>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <utility>

namespace kjit::bitcode {

namespace {

std::string without_spaces(std::string_view s) {
  std::string out;
  std::copy_if(s.begin(), s.end(), std::back_inserter(out), [](char c) { return c != ' '; });
  return out;
}

/// A C++ parameter type as the demangler spells it: "const float*" -> "float const*", and a
/// top-level const (which mangled names drop) removed: "float* const" -> "float*".
std::string demangler_spelling(std::string type) {
  while (type.ends_with(" const")) {
    type.resize(type.size() - 6);
  }
  if (type.starts_with("const ")) {
    const std::size_t star = type.find_first_of("*&");
    type = star == std::string::npos ? type.substr(6)
                                     : type.substr(6, star - 6) + " const" + type.substr(star);
  }
  return without_spaces(type);
}

/// "(float, const float*)" for a signature, as the demangler would spell it, without spaces.
std::string parameter_list(const std::string& signature) {
  std::string out = "(";
  std::size_t start = 0;
  while (start <= signature.size()) {
    const std::size_t comma = signature.find(',', start);
    const std::string part =
        signature.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t first = part.find_first_not_of(' ');
    if (first != std::string::npos) {
      if (out.size() > 1) {
        out += ',';
      }
      out += demangler_spelling(part.substr(first));
    }
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return out + ")";
}

struct Candidate {
  llvm::Function* function;
  std::string name;        // demangled, no spaces: "saxpy<float>"
  std::string parameters;  // demangled, no spaces: "(float,floatconst*)"; "" when not mangled
};

/// The demangled name ("saxpy<float>") and parameter list ("(float, float const*)") of a
/// mangled C++ function; nothing for other symbols.
std::optional<std::pair<std::string, std::string>> demangle_function(const std::string& symbol) {
  llvm::ItaniumPartialDemangler d;  // keeps pointers into `symbol`
  if (d.partialDemangle(symbol.c_str()) || !d.isFunction()) {
    return std::nullopt;
  }
  char* name = d.getFunctionName(nullptr, nullptr);
  char* params = d.getFunctionParameters(nullptr, nullptr);
  std::pair<std::string, std::string> out{name != nullptr ? name : symbol,
                                          params != nullptr ? params : ""};
  std::free(name);    // NOLINT(cppcoreguidelines-no-malloc): the demangler's malloc
  std::free(params);  // NOLINT(cppcoreguidelines-no-malloc)
  return out;
}

Candidate describe(llvm::Function& f) {
  const std::string symbol = f.getName().str();
  Candidate c{&f, without_spaces(symbol), ""};
  if (const auto parts = demangle_function(symbol)) {
    c.name = without_spaces(parts->first);
    c.parameters = without_spaces(parts->second);
  }
  return c;
}

std::string without_template_arguments(const std::string& name) {
  if (!name.ends_with('>')) {
    return name;
  }
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    depth += name[i] == '>' ? 1 : name[i] == '<' ? -1 : 0;
    if (depth == 0) {
      return name.substr(0, i);
    }
  }
  return name;
}

std::string listing(const std::vector<Candidate>& kernels) {
  if (kernels.empty()) {
    return "it has no kernels";
  }
  std::vector<std::string> names;
  for (const Candidate& k : kernels) {
    const std::string symbol = k.function->getName().str();
    const std::string readable = llvm::demangle(symbol);
    names.push_back(readable == symbol ? symbol : fmt::format("{} ({})", readable, symbol));
  }
  return fmt::format("its kernels are: {}", fmt::join(names, ", "));
}

}  // namespace

std::string demangled_name(std::string_view symbol) {
  std::string s(symbol);
  const auto parts = demangle_function(s);
  return parts ? parts->first : s;
}

void throw_bitcode_error(const backend::CompileRequest& request, const std::string& device,
                         const std::string& message) {
  Diagnostic d;
  d.file = request.program_name;
  d.message = message;
  throw CompileError(request.program_name, device, {d}, message);
}

std::unique_ptr<llvm::Module> read_bitcode(llvm::LLVMContext& context,
                                           const backend::CompileRequest& request,
                                           const std::string& device) {
  const auto buffer = llvm::MemoryBuffer::getMemBuffer(request.source, request.program_name,
                                                       /*RequiresNullTerminator=*/false);
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!module) {
    throw_bitcode_error(
        request, device,
        fmt::format("cannot read the bitcode ({} bytes): {} (kjit reads bitcode of LLVM {} and "
                    "older)",
                    request.source.size(), llvm::toString(module.takeError()), LLVM_VERSION_MAJOR));
  }
  if (llvm::Error e = (*module)->materializeAll()) {
    throw_bitcode_error(request, device,
                        fmt::format("cannot read the bitcode: {}", llvm::toString(std::move(e))));
  }
  // Invalid IR would make LLVM's passes fail in ways that end the process: refuse it here.
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(**module, &os)) {
    throw_bitcode_error(request, device,
                        fmt::format("the bitcode is not valid LLVM IR: {}", os.str()));
  }
  return std::move(*module);
}

void check_triple(const llvm::Module& module, const TargetRule& rule,
                  const backend::CompileRequest& request, const std::string& device) {
  const llvm::Triple triple(module.getTargetTriple());
  const std::string arch(llvm::Triple::getArchTypeName(triple.getArch()));
  const bool arch_fits = std::find(rule.archs.begin(), rule.archs.end(), arch) != rule.archs.end();
  const bool os_fits = rule.os.empty() || triple.getOSName() == rule.os;
  if (arch_fits && os_fits) {
    return;
  }
  throw_bitcode_error(
      request, device,
      fmt::format("the bitcode is for {}, which {} cannot run (it needs {}{}; {})",
                  module.getTargetTriple().empty() ? "no target (its triple is empty)"
                                                   : "'" + module.getTargetTriple() + "'",
                  device, fmt::join(rule.archs, " or "), rule.os.empty() ? "" : "-*-" + rule.os,
                  rule.recipe));
}

std::vector<llvm::Function*> resolve_kernels(
    llvm::Module& module, const backend::CompileRequest& request, const std::string& device,
    const std::function<bool(const llvm::Function&)>& is_kernel, std::string_view kernel_mark) {
  std::vector<Candidate> kernels;
  std::vector<Candidate> others;
  for (llvm::Function& f : module) {
    if (f.isDeclaration() || f.isIntrinsic()) {
      continue;
    }
    (is_kernel(f) ? kernels : others).push_back(describe(f));
  }
  std::vector<llvm::Function*> out;
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    const std::string& asked = request.kernel_names[i];
    const std::string wanted = without_spaces(asked);
    const std::optional<std::string>& signature = request.signature(i);
    const std::optional<std::string> params =
        signature ? std::optional(parameter_list(*signature)) : std::nullopt;
    const auto matches = [&](const std::vector<Candidate>& among) {
      std::vector<const Candidate*> exact;
      std::vector<const Candidate*> by_name;
      std::vector<const Candidate*> by_base;
      for (const Candidate& c : among) {
        if (c.function->getName() == asked) {
          exact.push_back(&c);
        } else if (c.name == wanted) {
          by_name.push_back(&c);
        } else if (without_template_arguments(c.name) == wanted) {
          by_base.push_back(&c);
        }
      }
      for (auto* found : {&exact, &by_name, &by_base}) {
        if (found->size() > 1 && params) {
          std::erase_if(*found, [&](const Candidate* c) { return c->parameters != *params; });
        }
        if (!found->empty()) {
          return *found;
        }
      }
      return std::vector<const Candidate*>{};
    };
    const std::vector<const Candidate*> found = matches(kernels);
    if (found.size() == 1) {
      out.push_back(found.front()->function);
      continue;
    }
    if (found.size() > 1) {
      std::vector<std::string> symbols;
      symbols.reserve(found.size());
      for (const Candidate* c : found) {
        symbols.push_back(fmt::format("{} ({})", llvm::demangle(c->function->getName().str()),
                                      c->function->getName().str()));
      }
      throw KernelNotFoundError(fmt::format(
          "kjit: '{}' names {} kernels of bitcode '{}' for {}: {}; ask for one by its symbol{}",
          request.kernel_label(i), found.size(), request.program_name, device,
          fmt::join(symbols, ", "), params ? "" : " or with its parameter types"));
    }
    const std::vector<const Candidate*> plain = matches(others);
    if (!plain.empty()) {
      throw KernelNotFoundError(fmt::format(
          "kjit: '{}' in bitcode '{}' is not a kernel (it is '{}', which has no {}); {}",
          request.kernel_label(i), request.program_name,
          llvm::demangle(plain.front()->function->getName().str()), kernel_mark, listing(kernels)));
    }
    throw KernelNotFoundError(fmt::format("kjit: bitcode '{}' has no kernel '{}' for {}; {}",
                                          request.program_name, request.kernel_label(i), device,
                                          listing(kernels)));
  }
  return out;
}

}  // namespace kjit::bitcode
