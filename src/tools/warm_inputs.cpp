#include "tools/warm_inputs.hpp"

#include "source/include_scan.hpp"
#include "source/kernel_names.hpp"
#include "support/file_text.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace kjit::warm {

namespace fs = std::filesystem;

namespace {

/// `path`'s name relative to `base`; Error when it lies outside.
std::string embedded_name(const fs::path& path, const fs::path& base) {
  const fs::path relative = fs::absolute(path).lexically_normal().lexically_relative(
      fs::absolute(base).lexically_normal());
  if (relative.empty() || *relative.begin() == "..") {
    throw Error(fmt::format("kjit-warm: '{}' is not under the embedding base '{}'", path.string(),
                            base.string()));
  }
  return relative.generic_string();
}

using Headers = std::vector<std::pair<std::string, std::string>>;

/// `files` as from_embedded() passes them: named relative to `base`, sorted as
/// CompileOptions::headers is.
Headers read_embedded_headers(const std::vector<fs::path>& files, const fs::path& base) {
  std::map<std::string, std::string> headers;
  for (const fs::path& h : files) {
    headers.emplace(embedded_name(h, base), detail::read_file_or_throw(h, "embedded header"));
  }
  return {headers.begin(), headers.end()};
}

/// `embedded_headers`: options.embedded_headers, read once for every file.
void add_file(const fs::path& path, const FileOptions& options, const Headers& embedded_headers,
              Inputs& inputs) {
  const bool bitcode = path.extension() == ".bc";
  backend::CompileRequest base;
  base.program_name = path.string();
  base.input = bitcode ? backend::InputKind::bitcode : backend::InputKind::source;
  base.source = detail::read_file_or_throw(path, bitcode ? "bitcode file" : "kernel file");
  base.source_path = fs::absolute(path).lexically_normal();
  if (options.embed_base && !bitcode) {
    base.program_name = embedded_name(path, *options.embed_base);
    base.source_path.reset();  // from_embedded() compiles the text, not a file
    base.headers = embedded_headers;
  }
  if (!bitcode) {
    base.include_dirs = options.include_dirs;
    base.defines = options.defines;
  } else if (!options.include_dirs.empty() || !options.defines.empty()) {
    inputs.notes.push_back(
        fmt::format("{}: -I and -D do not apply to bitcode (it was preprocessed when it was made)",
                    path.string()));
  }
  base.fast_math = options.fast_math;
  base.debug = options.debug;
  const auto add = [&](std::vector<std::string> kernels) {
    detail::ManifestBuild b;
    b.request = base;
    for (std::string& k : kernels) {
      b.request.kernel_names.push_back(std::move(k));
      b.request.kernel_signatures.emplace_back();
    }
    inputs.builds.push_back(std::move(b));
  };
  if (!options.kernels.empty()) {
    add(options.kernels);  // as CompileOptions::kernels: one build with all of them
    return;
  }
  if (bitcode) {
    inputs.notes.push_back(fmt::format(
        "{}: bitcode left out: name the kernels to compile from it with --kernel", path.string()));
    return;
  }
  // The kernels of the file and of the headers of its own that it includes.
  source::KernelNames names = source::kernels_defined(base.source);
  for (const auto& [name, header] : kjit::source::scan_includes(base.files()).found) {
    if (const std::optional<std::string> text = detail::read_file(header)) {
      source::KernelNames more = source::kernels_defined(*text);
      for (auto [from, to] :
           {std::pair{&more.plain, &names.plain}, std::pair{&more.templates, &names.templates}}) {
        for (std::string& k : *from) {
          if (std::find(to->begin(), to->end(), k) == to->end()) {
            to->push_back(std::move(k));
          }
        }
      }
    }
  }
  for (const std::string& k : names.plain) {
    add({k});  // as Program::kernel asks for a name: one build each
  }
  for (const std::string& t : names.templates) {
    inputs.notes.push_back(
        fmt::format("{}: template kernel '{}' left out: name its instantiations with --kernel "
                    "'{}<float>', or warm from a manifest (KJIT_RECORD_MANIFEST)",
                    path.string(), t, t));
  }
  if (names.plain.empty() && names.templates.empty()) {
    inputs.notes.push_back(fmt::format("{}: no __global__ function found", path.string()));
  }
}

}  // namespace

Inputs collect_inputs(const std::vector<std::string>& paths, const FileOptions& options) {
  Inputs inputs;
  const Headers embedded_headers =
      options.embed_base ? read_embedded_headers(options.embedded_headers, *options.embed_base)
                         : Headers{};
  for (const std::string& p : paths) {
    const fs::path path(p);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> files;
      for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file() && it->path().extension() == ".cu") {
          files.push_back(it->path());
        }
      }
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        add_file(f, options, embedded_headers, inputs);
      }
    } else if (path.extension() == ".json") {
      for (detail::ManifestBuild& b : detail::read_manifest(path)) {
        inputs.builds.push_back(std::move(b));
      }
    } else if (fs::exists(path, ec)) {
      add_file(path, options, embedded_headers, inputs);
    } else {
      throw Error(fmt::format("kjit-warm: '{}' does not exist", p));
    }
  }
  return inputs;
}

}  // namespace kjit::warm
