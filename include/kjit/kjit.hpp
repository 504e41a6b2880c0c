// kjit: kernels written once in CUDA C++, JIT-compiled at run time for NVIDIA GPUs, AMD GPUs and
// the CPU. This header is all a user needs.
#pragma once

#define KJIT_VERSION_MAJOR 0
#define KJIT_VERSION_MINOR 1
#define KJIT_VERSION_PATCH 0

#include <kjit/cache.hpp>
#include <kjit/device.hpp>
#include <kjit/embedded.hpp>
#include <kjit/error.hpp>
#include <kjit/graph.hpp>
#include <kjit/half.hpp>
#include <kjit/kernel.hpp>
#include <kjit/memory.hpp>
#include <kjit/program.hpp>
#include <kjit/stream.hpp>
#include <kjit/symbol.hpp>
#include <kjit/types.hpp>
