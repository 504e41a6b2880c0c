// The Redis store: RemoteStore on the plug-in libkjit_redis.so (redis_abi.h), opened on first
// use. Entries are plain strings under "kjit:entry:<key>"; the lease on compiling a key is
// "kjit:lease:<key>", holding its holder's token and ending by itself (SET NX PX); a holder whose
// compile failed leaves "failed" there for a while.
#include "core/cache/redis/redis_abi.h"
#include "core/cache/remote_store.hpp"
#include "support/dynamic_library.hpp"

#include <fmt/format.h>

#include <array>
#include <mutex>
#include <vector>

namespace kjit::detail::cache {
namespace {

struct RedisPlugin {
  std::unique_ptr<backend::DynamicLibrary> library;
  int (*abi_version)() = nullptr;
  kjit_redis* (*connect)(const char*, int, const char*, int, char*, size_t) = nullptr;
  void (*command)(kjit_redis*, int, const char**, const size_t*, kjit_redis_reply*) = nullptr;
  void (*reply_free)(kjit_redis_reply*) = nullptr;
  void (*close)(kjit_redis*) = nullptr;
};

/// Where the plug-in is: beside the file holding this code (libkjit.so, installed or built),
/// then where this build made it.
std::vector<std::string> plugin_candidates() {
  std::vector<std::string> candidates = {
      (backend::kjit_code_directory() / "libkjit_redis.so").string()};
#ifdef KJIT_REDIS_PLUGIN_BUILT_AT
  candidates.emplace_back(KJIT_REDIS_PLUGIN_BUILT_AT);
#endif
  return candidates;
}

const RedisPlugin& plugin() {
  static std::once_flag once;
  // Never unloaded: a lease's renewal may still run while the process exits.
  static RedisPlugin& p = *new RedisPlugin;
  static std::string failure;
  std::call_once(once, [] {
    std::string why;
    p.library = backend::DynamicLibrary::open(plugin_candidates(), why);
    if (!p.library) {
      failure = fmt::format(
          "kjit's Redis plug-in libkjit_redis.so cannot be loaded (kjit builds it where "
          "hiredis's headers are, libhiredis-dev): {}",
          why);
      return;
    }
    const std::vector<backend::SymbolEntry> symbols = {
        {"kjit_redis_abi_version", nullptr, reinterpret_cast<void**>(&p.abi_version), true},
        {"kjit_redis_connect", nullptr, reinterpret_cast<void**>(&p.connect), true},
        {"kjit_redis_command", nullptr, reinterpret_cast<void**>(&p.command), true},
        {"kjit_redis_reply_free", nullptr, reinterpret_cast<void**>(&p.reply_free), true},
        {"kjit_redis_close", nullptr, reinterpret_cast<void**>(&p.close), true}};
    if (!backend::load_symbols(*p.library, symbols, why)) {
      failure = fmt::format("{} is not kjit's Redis plug-in: {}", p.library->name(), why);
      p.library.reset();
    } else if (p.abi_version() != KJIT_REDIS_ABI_VERSION) {
      failure = fmt::format("{} is a Redis plug-in of another kjit (interface {}, not {})",
                            p.library->name(), p.abi_version(), KJIT_REDIS_ABI_VERSION);
      p.library.reset();
    }
  });
  if (!p.library) {
    throw RemoteStoreFailure{failure};
  }
  return p;
}

/// A command's reply, copied out of the plug-in's.
struct Answer {
  int kind = KJIT_REDIS_FAILED;
  long long integer = 0;
  std::string text;
};

class RedisStore final : public RemoteStore {
 public:
  RedisStore(const RemoteAddress& address, std::chrono::milliseconds timeout)
      : plugin_(plugin()), address_(address.describe()), timeout_(timeout) {
    std::array<char, 256> error{};
    connection_.reset(plugin_.connect(
        address.scheme == "redis" ? address.host.c_str() : nullptr, address.port,
        address.socket.c_str(), static_cast<int>(timeout.count()), error.data(), error.size()));
    if (connection_ == nullptr) {
      throw RemoteStoreFailure{fmt::format("cannot connect to {}: {}", address_, error.data())};
    }
    if (!address.password.empty()) {
      if (address.user.empty()) {
        expect_ok({"AUTH", address.password}, "AUTH");
      } else {
        expect_ok({"AUTH", address.user, address.password}, "AUTH");
      }
    }
    if (address.database != 0) {
      expect_ok({"SELECT", std::to_string(address.database)}, "SELECT");
    }
  }
  RedisStore(const RedisStore&) = delete;
  RedisStore& operator=(const RedisStore&) = delete;
  ~RedisStore() override = default;

  std::optional<std::string> get(const std::string& key) override {
    Answer r = run({"GET", entry_name(key)}, "GET");
    if (r.kind == KJIT_REDIS_NIL) {
      return std::nullopt;
    }
    if (r.kind != KJIT_REDIS_STRING) {
      throw RemoteStoreFailure{
          fmt::format("{}: GET answered with a reply of kind {}", address_, r.kind)};
    }
    return std::move(r.text);
  }

  void put(const std::string& key, std::string_view bytes) override {
    const std::string name = entry_name(key);
    expect_ok({"SET", name, bytes}, "SET");
  }

  bool take_lease(const std::string& key, const std::string& token,
                  std::chrono::milliseconds ttl) override {
    const std::string name = lease_name(key);
    const std::string ms = std::to_string(ttl.count());
    return run({"SET", name, token, "NX", "PX", ms}, "SET NX").kind == KJIT_REDIS_STATUS;
  }

  bool renew_lease(const std::string& key, const std::string& token,
                   std::chrono::milliseconds ttl) override {
    // Only the holder's token extends it: a lease that ended and was taken by another stays theirs.
    static constexpr std::string_view kRenew =
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
    const std::string name = lease_name(key);
    const std::string ms = std::to_string(ttl.count());
    const Answer r = run({"EVAL", kRenew, "1", name, token, ms}, "EVAL (renew a lease)");
    return r.kind == KJIT_REDIS_INTEGER && r.integer == 1;
  }

  void release_lease(const std::string& key, const std::string& token) override {
    static constexpr std::string_view kRelease =
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('del', KEYS[1]) else return 0 end";
    const std::string name = lease_name(key);
    (void)run({"EVAL", kRelease, "1", name, token}, "EVAL (release a lease)");
  }

  void mark_failed(const std::string& key, const std::string& token,
                   std::chrono::milliseconds ttl) override {
    static constexpr std::string_view kMark =
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) else return 0 end";
    const std::string name = lease_name(key);
    const std::string ms = std::to_string(ttl.count());
    (void)run({"EVAL", kMark, "1", name, token, kFailedMark, ms}, "EVAL (mark a failed compile)");
  }

  bool marked_failed(const std::string& key) override {
    const Answer r = run({"GET", lease_name(key)}, "GET (a lease)");
    return r.kind == KJIT_REDIS_STRING && r.text == kFailedMark;
  }

 private:
  static std::string entry_name(const std::string& key) { return "kjit:entry:" + key; }
  static std::string lease_name(const std::string& key) { return "kjit:lease:" + key; }
  /// A lease's value once its holder's compile failed (a holder's token is "<pid>-<hex>").
  static constexpr std::string_view kFailedMark = "failed";

  /// Runs a command; RemoteStoreFailure when there is no reply or the server refused it.
  Answer run(const std::vector<std::string_view>& args, const char* what) {
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    for (std::string_view a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    kjit_redis_reply reply{};
    plugin_.command(connection_.get(), static_cast<int>(argv.size()), argv.data(), lengths.data(),
                    &reply);
    Answer r{reply.kind, reply.integer,
             reply.text != nullptr ? std::string(reply.text, reply.length) : std::string()};
    plugin_.reply_free(&reply);
    if (r.kind == KJIT_REDIS_FAILED) {
      throw RemoteStoreFailure{fmt::format("{}: {} failed (each step may take {} ms): {}", address_,
                                           what, timeout_.count(), r.text)};
    }
    if (r.kind == KJIT_REDIS_SERVER_ERROR) {
      throw RemoteStoreFailure{fmt::format("{}: {} refused: {}", address_, what, r.text),
                               r.text.starts_with("NOPERM")};
    }
    return r;
  }

  void expect_ok(const std::vector<std::string_view>& args, const char* what) {
    (void)run(args, what);
  }

  /// Closes a connection through the plug-in, also when the constructor throws after connecting
  /// (a refused AUTH).
  struct Close {
    const RedisPlugin* plugin;
    void operator()(kjit_redis* c) const { plugin->close(c); }
  };

  const RedisPlugin& plugin_;
  std::string address_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<kjit_redis, Close> connection_{nullptr, Close{&plugin_}};
};

}  // namespace

std::unique_ptr<RemoteStore> connect_remote_store(const RemoteAddress& address,
                                                  std::chrono::milliseconds timeout) {
  return std::make_unique<RedisStore>(address, timeout);
}

}  // namespace kjit::detail::cache
