#include "core/cache/remote_store.hpp"

#include "support/text.hpp"

#include <fmt/format.h>

#include <optional>

namespace kjit::detail::cache {
namespace {

/// `text` with the password of its credentials (between "://" and "@") replaced by "***", for
/// messages: a malformed URL is still someone's secret.
std::string without_password(std::string_view text) {
  const auto start = text.find("://");
  const auto at = text.rfind('@');
  if (start == std::string_view::npos || at == std::string_view::npos || at < start) {
    return std::string(text);
  }
  const std::string_view credentials = text.substr(start + 3, at - start - 3);
  const auto colon = credentials.find(':');
  const std::string user(colon == std::string_view::npos ? "" : credentials.substr(0, colon));
  return fmt::format("{}://{}:***{}", text.substr(0, start), user, text.substr(at));
}

int parse_number(std::string_view text, int low, int high, std::string_view what,
                 std::string_view whole, const char* variable) {
  const std::optional<int> value = whole_number<int>(text);
  if (!value || *value < low || *value > high) {
    throw ConfigError(fmt::format("kjit: {}='{}': '{}' is not a {} ({} to {})", variable,
                                  without_password(whole), text, what, low, high));
  }
  return *value;
}

/// "[[user]:password@]rest": fills user and password, returns rest.
std::string_view take_credentials(std::string_view text, RemoteAddress& out) {
  const auto at = text.rfind('@');
  if (at == std::string_view::npos) {
    return text;
  }
  const std::string_view credentials = text.substr(0, at);
  const auto colon = credentials.find(':');
  if (colon == std::string_view::npos) {
    out.password = credentials;  // redis://password@host, as redis-cli's -u reads it
  } else {
    out.user = credentials.substr(0, colon);
    out.password = credentials.substr(colon + 1);
  }
  return text.substr(at + 1);
}

}  // namespace

std::string RemoteAddress::describe() const {
  const std::string who = user.empty() ? "" : user + "@";
  if (scheme == "unix") {
    return fmt::format("unix://{}{}{}", who, socket,
                       database != 0 ? fmt::format("?db={}", database) : "");
  }
  return fmt::format("redis://{}{}:{}{}", who, host, port,
                     database != 0 ? fmt::format("/{}", database) : "");
}

RemoteAddress parse_remote_address(std::string_view text, const char* variable) {
  RemoteAddress out;
  const auto bad = [&](std::string_view why) {
    return ConfigError(
        fmt::format("kjit: {}='{}' {}; use redis://[[user]:password@]host[:port][/db] or "
                    "unix://[[user]:password@]/path/to/socket[?db=N]",
                    variable, without_password(text), why));
  };
  const auto scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos) {
    throw bad("has no scheme");
  }
  out.scheme = text.substr(0, scheme_end);
  std::string_view rest = take_credentials(text.substr(scheme_end + 3), out);
  if (out.scheme == "unix") {
    const auto query = rest.find('?');
    if (query != std::string_view::npos) {
      const std::string_view q = rest.substr(query + 1);
      if (!q.starts_with("db=")) {
        throw bad("has a query other than ?db=N");
      }
      out.database = parse_number(q.substr(3), 0, 1 << 20, "database number", text, variable);
      rest = rest.substr(0, query);
    }
    if (!rest.starts_with('/')) {
      throw bad("names no absolute socket path");
    }
    out.socket = rest;
    return out;
  }
  if (out.scheme != "redis") {
    throw bad(fmt::format("has the scheme '{}'", out.scheme));
  }
  const auto slash = rest.find('/');
  if (slash != std::string_view::npos) {
    out.database =
        parse_number(rest.substr(slash + 1), 0, 1 << 20, "database number", text, variable);
    rest = rest.substr(0, slash);
  }
  // An IPv6 address is bracketed: [::1]:6379.
  const auto host_end = rest.starts_with('[') ? rest.find(']') : std::string_view::npos;
  const auto colon = rest.find(':', host_end == std::string_view::npos ? 0 : host_end);
  if (colon != std::string_view::npos) {
    out.port = parse_number(rest.substr(colon + 1), 1, 65535, "port", text, variable);
    rest = rest.substr(0, colon);
  }
  if (host_end != std::string_view::npos) {
    rest = rest.substr(1, host_end - 1);
  }
  if (rest.empty()) {
    throw bad("names no host");
  }
  out.host = rest;
  return out;
}

}  // namespace kjit::detail::cache
