// The C interface of kjit's Redis plug-in (libkjit_redis.so): a connection and one command at a
// time. libkjit opens the plug-in only when KJIT_CACHE_REMOTE names a Redis server, so a program
// that never uses the remote tier never needs hiredis. All Redis logic (keys, leases, timeouts'
// consequences) is the core's (redis_store.cpp); the plug-in only carries bytes.
#pragma once

#include <stddef.h>  // NOLINT(modernize-deprecated-headers): a C interface

#ifdef __cplusplus
extern "C" {
#endif

/// Bumped when a signature below changes; libkjit refuses a plug-in of another version.
#define KJIT_REDIS_ABI_VERSION 1

typedef struct kjit_redis kjit_redis;  // NOLINT(modernize-use-using): a C interface

/// What a command returned.
enum kjit_redis_kind {
  KJIT_REDIS_FAILED = 0,        // no reply: the connection failed or timed out (text says why)
  KJIT_REDIS_NIL = 1,           // no such key, or a SET NX that did not set
  KJIT_REDIS_STRING = 2,        // a bulk string: text, length
  KJIT_REDIS_INTEGER = 3,       // integer
  KJIT_REDIS_STATUS = 4,        // "OK" and the like: text
  KJIT_REDIS_SERVER_ERROR = 5,  // the server refused the command: text ("NOAUTH ...", "OOM ...")
  KJIT_REDIS_ARRAY = 6          // integer holds the element count; elements are not returned
};

typedef struct kjit_redis_reply {  // NOLINT(modernize-use-using): a C interface
  int kind;
  long long integer;
  char* text;  // malloc'ed by the plug-in; kjit_redis_reply_free releases it
  size_t length;
} kjit_redis_reply;

int kjit_redis_abi_version(void);
/// Connects over TCP (host, port) or, with host NULL, to the unix socket `path`; each socket
/// operation then waits at most `timeout_ms`. NULL on failure, with the reason in `error`.
kjit_redis* kjit_redis_connect(const char* host, int port, const char* path, int timeout_ms,
                               char* error, size_t error_size);
/// Runs one command (binary-safe arguments) and fills `reply`. After a FAILED reply the
/// connection is unusable: close it.
void kjit_redis_command(kjit_redis* connection, int argc, const char** argv, const size_t* lengths,
                        kjit_redis_reply* reply);
void kjit_redis_reply_free(kjit_redis_reply* reply);
void kjit_redis_close(kjit_redis* connection);

#ifdef __cplusplus
}
#endif
