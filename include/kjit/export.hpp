// Symbol visibility: libkjit.so is built with hidden visibility; only what carries KJIT_API
// (the public API) is exported.
#pragma once

#define KJIT_API __attribute__((visibility("default")))
