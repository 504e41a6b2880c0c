#include "core/tooling/compile_wire.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <exception>

namespace kjit::detail::wire {

namespace {

using Json = nlohmann::json;
using Bytes = Json::binary_t;

Bytes as_bytes(const std::string& text) {
  return Bytes(std::vector<std::uint8_t>(text.begin(), text.end()));
}

std::string as_text(const Json& value) {
  const auto& bytes = value.get_ref<const Bytes&>();
  return {bytes.begin(), bytes.end()};
}

std::vector<std::uint8_t> to_cbor(const Json& document) {
  return Json::to_cbor(document);
}

Json error_reply(std::string_view kind, const std::string& message) {
  return Json{{"error", {{"kind", kind}, {"message", message}}}};
}

}  // namespace

std::vector<std::uint8_t> encode_request(const std::string& target,
                                         const backend::CompileRequest& r) {
  Json signatures = Json::array();
  for (const auto& s : r.kernel_signatures) {
    signatures.push_back(s ? Json(*s) : Json(nullptr));
  }
  std::vector<std::string> include_dirs;
  include_dirs.reserve(r.include_dirs.size());
  for (const auto& dir : r.include_dirs) {
    include_dirs.push_back(dir.string());
  }
  Json headers = Json::array();
  for (const auto& [name, text] : r.headers) {
    headers.push_back({name, as_bytes(text)});
  }
  return to_cbor({
      {"target", target},
      {"program_name", r.program_name},
      {"bitcode", r.input == backend::InputKind::bitcode},
      {"source", as_bytes(r.source)},
      {"source_path", r.source_path ? Json(r.source_path->string()) : Json(nullptr)},
      {"include_dirs", include_dirs},
      {"headers", headers},
      {"defines", r.defines},
      {"kernel_names", r.kernel_names},
      {"kernel_signatures", signatures},
      {"fast_math", r.fast_math},
      {"debug", r.debug},
      {"check_memory", r.check_memory},
  });
}

std::pair<std::string, backend::CompileRequest> decode_request(
    std::span<const std::uint8_t> bytes) {
  try {
    const Json j = Json::from_cbor(bytes.begin(), bytes.end());
    backend::CompileRequest r;
    r.program_name = j.at("program_name").get<std::string>();
    r.input =
        j.at("bitcode").get<bool>() ? backend::InputKind::bitcode : backend::InputKind::source;
    r.source = as_text(j.at("source"));
    if (!j.at("source_path").is_null()) {
      r.source_path = j.at("source_path").get<std::string>();
    }
    for (const auto& dir : j.at("include_dirs")) {
      r.include_dirs.emplace_back(dir.get<std::string>());
    }
    for (const auto& header : j.at("headers")) {
      r.headers.emplace_back(header.at(0).get<std::string>(), as_text(header.at(1)));
    }
    r.defines = j.at("defines").get<std::vector<std::pair<std::string, std::string>>>();
    r.kernel_names = j.at("kernel_names").get<std::vector<std::string>>();
    for (const auto& s : j.at("kernel_signatures")) {
      r.kernel_signatures.push_back(s.is_null() ? std::nullopt
                                                : std::optional<std::string>(s.get<std::string>()));
    }
    r.fast_math = j.at("fast_math").get<bool>();
    r.debug = j.at("debug").get<bool>();
    r.check_memory = j.at("check_memory").get<bool>();
    return {j.at("target").get<std::string>(), std::move(r)};
  } catch (const Json::exception& e) {
    throw BackendError(fmt::format("kjit: not a compile request: {}", e.what()));
  }
}

std::vector<std::uint8_t> encode_binary(const backend::Binary& b) {
  return to_cbor({{"binary",
                   {{"program", b.program},
                    {"format", b.format},
                    {"bytes", Bytes(b.bytes)},
                    {"kernel_symbols", b.kernel_symbols},
                    {"log", b.log}}}});
}

std::vector<std::uint8_t> encode_current_error() {
  try {
    throw;
  } catch (const CompileError& e) {
    Json diagnostics = Json::array();
    for (const Diagnostic& d : e.diagnostics()) {
      diagnostics.push_back({d.file, d.line, d.column, static_cast<int>(d.severity), d.message});
    }
    return to_cbor({{"error",
                     {{"kind", "compile"},
                      {"program", e.program()},
                      {"target", e.target()},
                      {"diagnostics", diagnostics},
                      {"log", e.log()}}}});
  } catch (const KernelNotFoundError& e) {
    return to_cbor(error_reply("kernel_not_found", e.what()));
  } catch (const ConfigError& e) {
    return to_cbor(error_reply("config", e.what()));
  } catch (const std::exception& e) {
    return to_cbor(error_reply("backend", e.what()));
  }
}

backend::Binary decode_reply(std::span<const std::uint8_t> bytes, const std::string& sender) {
  Json j;
  try {
    j = Json::from_cbor(bytes.begin(), bytes.end());
    if (j.contains("binary")) {
      const Json& b = j.at("binary");
      backend::Binary out;
      out.program = b.at("program").get<std::string>();
      out.format = b.at("format").get<std::string>();
      out.bytes = b.at("bytes").get_ref<const Bytes&>();
      out.kernel_symbols = b.at("kernel_symbols").get<std::vector<std::string>>();
      out.log = b.at("log").get<std::string>();
      return out;
    }
    const Json& e = j.at("error");
    const auto kind = e.at("kind").get<std::string>();
    if (kind == "compile") {
      std::vector<Diagnostic> diagnostics;
      for (const auto& d : e.at("diagnostics")) {
        const int severity = d.at(3).get<int>();
        if (severity < 0 || severity > static_cast<int>(Diagnostic::Severity::error)) {
          throw BackendError(
              fmt::format("kjit: {} sent a diagnostic of no known severity", sender));
        }
        diagnostics.push_back({d.at(0).get<std::string>(), d.at(1).get<unsigned>(),
                               d.at(2).get<unsigned>(), static_cast<Diagnostic::Severity>(severity),
                               d.at(4).get<std::string>()});
      }
      throw CompileError(e.at("program").get<std::string>(), e.at("target").get<std::string>(),
                         std::move(diagnostics), e.at("log").get<std::string>());
    }
    const auto message = e.at("message").get<std::string>();
    if (kind == "kernel_not_found") {
      throw KernelNotFoundError(message);
    }
    if (kind == "config") {
      throw ConfigError(message);
    }
    throw BackendError(message);
  } catch (const Json::exception& e) {
    throw BackendError(fmt::format("kjit: {} sent a reply that is not one: {}", sender, e.what()));
  }
}

}  // namespace kjit::detail::wire
