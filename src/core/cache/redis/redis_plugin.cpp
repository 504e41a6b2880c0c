// libkjit_redis.so: redis_abi.h on hiredis. Built only where hiredis's headers are; linked
// against hiredis, so that only the plug-in, loaded on demand, needs it at run time.
#include "core/cache/redis/redis_abi.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void write_error(char* error, std::size_t size, const std::string& text) {
  if (error != nullptr && size > 0) {
    std::snprintf(error, size, "%s", text.c_str());
  }
}

char* copy(const char* text, std::size_t length) {
  auto* out = static_cast<char*>(std::malloc(length + 1));  // NOLINT: freed by the C interface
  if (out != nullptr) {
    std::memcpy(out, text, length);
    out[length] = '\0';
  }
  return out;
}

void fill(kjit_redis_reply* out, int kind, const char* text, std::size_t length) {
  out->kind = kind;
  out->text = text != nullptr ? copy(text, length) : nullptr;
  out->length = text != nullptr ? length : 0;
}

}  // namespace

extern "C" {

struct kjit_redis {
  redisContext* context;
};

int kjit_redis_abi_version(void) {
  return KJIT_REDIS_ABI_VERSION;
}

kjit_redis* kjit_redis_connect(const char* host, int port, const char* path, int timeout_ms,
                               char* error, size_t error_size) {
  timeval timeout{};
  timeout.tv_sec = timeout_ms / 1000;
  timeout.tv_usec = static_cast<suseconds_t>(timeout_ms % 1000) * 1000;
  redisContext* context = host != nullptr ? redisConnectWithTimeout(host, port, timeout)
                                          : redisConnectUnixWithTimeout(path, timeout);
  if (context == nullptr) {
    write_error(error, error_size, "out of memory");
    return nullptr;
  }
  if (context->err != 0 || redisSetTimeout(context, timeout) != REDIS_OK) {
    write_error(error, error_size, context->errstr);
    redisFree(context);
    return nullptr;
  }
  return new kjit_redis{context};  // NOLINT(cppcoreguidelines-owning-memory): a C handle
}

void kjit_redis_command(kjit_redis* connection, int argc, const char** argv, const size_t* lengths,
                        kjit_redis_reply* reply) {
  *reply = kjit_redis_reply{KJIT_REDIS_FAILED, 0, nullptr, 0};
  auto* r = static_cast<redisReply*>(redisCommandArgv(connection->context, argc, argv, lengths));
  if (r == nullptr) {
    const char* why = connection->context->errstr;
    fill(reply, KJIT_REDIS_FAILED, why, std::strlen(why));
    return;
  }
  switch (r->type) {
    case REDIS_REPLY_STRING:
      fill(reply, KJIT_REDIS_STRING, r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      fill(reply, KJIT_REDIS_STATUS, r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      fill(reply, KJIT_REDIS_SERVER_ERROR, r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      reply->kind = KJIT_REDIS_INTEGER;
      reply->integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      reply->kind = KJIT_REDIS_ARRAY;
      reply->integer = static_cast<long long>(r->elements);
      break;
    default:
      reply->kind = KJIT_REDIS_NIL;
      break;
  }
  freeReplyObject(r);
}

void kjit_redis_reply_free(kjit_redis_reply* reply) {
  std::free(reply->text);  // NOLINT(cppcoreguidelines-no-malloc): allocated by copy()
  reply->text = nullptr;
}

void kjit_redis_close(kjit_redis* connection) {
  if (connection != nullptr) {
    redisFree(connection->context);
    delete connection;  // NOLINT(cppcoreguidelines-owning-memory): a C handle
  }
}

}  // extern "C"
