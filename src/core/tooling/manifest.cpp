#include "core/tooling/manifest.hpp"

#include "support/environment.hpp"
#include "support/file_text.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <mutex>

namespace kjit::detail {

namespace {

using Json = nlohmann::ordered_json;

std::string to_hex(std::string_view bytes) {
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    hex += fmt::format("{:02x}", static_cast<unsigned char>(c));
  }
  return hex;
}

std::string from_hex(std::string_view hex) {
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    throw std::invalid_argument("\"bitcode_hex\" holds a character that is not a hex digit");
  };
  if (hex.size() % 2 != 0) {
    throw std::invalid_argument("\"bitcode_hex\" has an odd number of digits");
  }
  std::string bytes(hex.size() / 2, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<char>(digit(hex[2 * i]) * 16 + digit(hex[2 * i + 1]));
  }
  return bytes;
}

Json to_json(const ManifestBuild& b) {
  const backend::CompileRequest& r = b.request;
  Json j;
  j["name"] = r.program_name;
  const bool bitcode = r.input == backend::InputKind::bitcode;
  if (bitcode) {
    j["input"] = "bitcode";
  }
  if (r.source_path) {
    j["file"] = r.source_path->string();
  } else if (bitcode) {
    j["bitcode_hex"] = to_hex(r.source);  // JSON strings hold text, not bytes
  } else {
    j["source"] = r.source;
  }
  j["include_dirs"] = Json::array();
  for (const auto& d : r.include_dirs) {
    j["include_dirs"].push_back(d.string());
  }
  j["headers"] = Json::object();
  for (const auto& [name, text] : r.headers) {
    j["headers"][name] = text;
  }
  j["defines"] = Json::object();
  for (const auto& [name, value] : r.defines) {
    j["defines"][name] = value;
  }
  j["fast_math"] = r.fast_math;
  if (r.debug) {
    j["debug"] = true;
  }
  if (r.check_memory) {
    j["check"] = "memory";
  }
  j["kernels"] = Json::array();
  for (std::size_t i = 0; i < r.kernel_names.size(); ++i) {
    Json k{{"name", r.kernel_names[i]}};
    if (const auto& signature = r.kernel_signatures.at(i)) {
      k["signature"] = *signature;
    }
    j["kernels"].push_back(std::move(k));
  }
  j["target"] = b.target;
  j["not_found"] = b.not_found;
  return j;
}

ManifestBuild from_json(const Json& j) {
  ManifestBuild b;
  backend::CompileRequest& r = b.request;
  r.program_name = j.at("name").get<std::string>();
  const std::string input = j.value("input", "source");
  if (input != "source" && input != "bitcode") {
    throw std::invalid_argument(fmt::format("\"input\" is '{}', not source or bitcode", input));
  }
  if (input == "bitcode") {
    r.input = backend::InputKind::bitcode;
  }
  if (j.contains("file")) {
    r.source_path = std::filesystem::path(j.at("file").get<std::string>());
    r.source =
        read_file_or_throw(*r.source_path, input == "bitcode" ? "bitcode file" : "kernel file");
  } else if (input == "bitcode") {
    r.source = from_hex(j.at("bitcode_hex").get<std::string>());
  } else {
    r.source = j.at("source").get<std::string>();
  }
  for (const auto& d : j.value("include_dirs", Json::array())) {
    r.include_dirs.emplace_back(d.get<std::string>());
  }
  const Json headers = j.value("headers", Json::object());  // named: items() refers to it
  for (const auto& [name, text] : headers.items()) {
    r.headers.emplace_back(name, text.get<std::string>());
  }
  const Json defines = j.value("defines", Json::object());
  for (const auto& [name, value] : defines.items()) {
    r.defines.emplace_back(name, value.get<std::string>());
  }
  r.fast_math = j.value("fast_math", false);
  r.debug = j.value("debug", false);
  r.check_memory = j.value("check", std::string("none")) == "memory";
  for (const auto& k : j.at("kernels")) {
    r.kernel_names.push_back(k.at("name").get<std::string>());
    r.kernel_signatures.push_back(k.contains("signature")
                                      ? std::optional(k.at("signature").get<std::string>())
                                      : std::nullopt);
  }
  if (r.kernel_names.empty()) {
    throw std::invalid_argument("a build without kernels");
  }
  b.target = j.value("target", "");
  b.not_found = j.value("not_found", false);
  return b;
}

Json parse(const std::string& text, const std::filesystem::path& path) {
  Json j = Json::parse(text, nullptr, false);
  // No value(): it throws nlohmann's type_error when "kjit_manifest" is not a number (found by
  // the manifest fuzzer).
  if (j.is_discarded() || !j.is_object() || !j.contains("kjit_manifest") ||
      j.at("kjit_manifest") != 1 || !j.contains("builds") || !j.at("builds").is_array()) {
    throw Error(fmt::format(
        "kjit: '{}' is not a kjit manifest (a JSON object with \"kjit_manifest\": 1 and "
        "\"builds\")",
        path.string()));
  }
  return j;
}

}  // namespace

std::vector<ManifestBuild> read_manifest(const std::filesystem::path& path) {
  return parse_manifest(read_file_or_throw(path, "manifest"), path);
}

std::vector<ManifestBuild> parse_manifest(const std::string& text,
                                          const std::filesystem::path& path) {
  const Json j = parse(text, path);
  std::vector<ManifestBuild> builds;
  std::size_t index = 0;
  for (const Json& b : j.at("builds")) {
    try {
      builds.push_back(from_json(b));
    } catch (const Error& e) {
      throw Error(
          fmt::format("kjit: build {} of manifest '{}': {}", index, path.string(), e.what()));
    } catch (const std::exception& e) {
      throw Error(fmt::format("kjit: build {} of manifest '{}' is malformed: {}", index,
                              path.string(), e.what()));
    }
    ++index;
  }
  return builds;
}

namespace {

/// KJIT_RECORD_MANIFEST, read once.
const std::optional<std::filesystem::path>& manifest_path() {
  static const std::optional<std::filesystem::path> path = environment::record_manifest();
  return path;
}

}  // namespace

std::string manifest_text(const std::vector<ManifestBuild>& builds) {
  Json j{{"kjit_manifest", 1}, {"builds", Json::array()}};
  for (const ManifestBuild& b : builds) {
    j["builds"].push_back(to_json(b));
  }
  return j.dump(2) + "\n";
}

bool recording_manifest() {
  return manifest_path().has_value();
}

void record_build(const ManifestBuild& build) {
  const auto& path = manifest_path();
  if (!path) {
    return;
  }
  static std::mutex mutex;  // threads of this process; the file lock covers other processes
  const std::lock_guard guard(mutex);
  const std::string lock_path = path->string() + ".lock";
  const int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 || flock(fd, LOCK_EX) != 0) {
    log().warn("kjit: cannot lock '{}' to record a manifest", lock_path);
    if (fd >= 0) {
      close(fd);
    }
    return;
  }
  try {
    Json j{{"kjit_manifest", 1}, {"builds", Json::array()}};
    std::error_code ec;
    if (std::filesystem::exists(*path, ec)) {
      j = parse(read_file_or_throw(*path, "manifest"), *path);
    }
    const Json entry = to_json(build);
    bool known = false;
    for (const Json& b : j["builds"]) {
      known = known || b == entry;
    }
    if (!known) {
      j["builds"].push_back(entry);
      if (const auto problem = write_file_atomically(*path, j.dump(2) + "\n")) {
        log().warn("kjit: cannot record the manifest '{}': {}", path->string(), *problem);
      }
    }
  } catch (const std::exception& e) {
    log().warn("kjit: cannot record the manifest '{}': {}", path->string(), e.what());
  }
  close(fd);
}

}  // namespace kjit::detail
