// A launch allocates no memory once its kernel has run before (issue 23): launches of a pipeline
// of small kernels should cost what the work costs, not what the allocator does. This program
// replaces the global operator new and counts every allocation made through it on any thread
// (the caller, the stream's dispatcher, the workers), then launches kernels of every shape the
// CPU backend runs in its own way: one block (run on the caller), many blocks over the pool, a
// kernel split at its barriers whose blocks take turns, ranges of threads, warp operations, a
// launch on a stream of the user's, with results checked so that the launches did run. Barriers
// split into regions (the default); on fibers, each worker makes its fiber runner once, at its
// first block on fibers, which a short warm-up does not reach on every worker.
#include "test_support.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<long> allocations{0};

}  // namespace

// ThreadSanitizer's runtime defines the global operator new and delete itself (strongly, in a
// static library): there the tests below skip, saying so.
#if !defined(KJIT_TEST_THREAD_SANITIZER)
namespace {

void* counted(std::size_t bytes, std::size_t alignment) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (bytes == 0) {
    bytes = 1;
  }
  void* p = alignment <= alignof(std::max_align_t)
                ? std::malloc(bytes)
                : std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (p == nullptr) {
    throw std::bad_alloc();
  }
  return p;
}

}  // namespace

// NOLINTBEGIN(misc-new-delete-overloads, cert-dcl54-cpp): the replaceable global forms
void* operator new(std::size_t bytes) {
  return counted(bytes, alignof(std::max_align_t));
}
void* operator new[](std::size_t bytes) {
  return counted(bytes, alignof(std::max_align_t));
}
void* operator new(std::size_t bytes, std::align_val_t a) {
  return counted(bytes, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t bytes, std::align_val_t a) {
  return counted(bytes, static_cast<std::size_t>(a));
}
// The nothrow forms too: left to the runtime's own (AddressSanitizer's), what they allocate would
// reach the free() below as "operator new" memory.
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return counted(bytes, alignof(std::max_align_t));
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t bytes, const std::nothrow_t& tag) noexcept {
  return operator new(bytes, tag);
}
void* operator new(std::size_t bytes, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return counted(bytes, static_cast<std::size_t>(a));
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t bytes, std::align_val_t a, const std::nothrow_t& tag) noexcept {
  return operator new(bytes, a, tag);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
// NOLINTEND(misc-new-delete-overloads, cert-dcl54-cpp)
#endif

namespace kjit::test {
namespace {

class LaunchAllocations : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
#if defined(KJIT_TEST_THREAD_SANITIZER)
    GTEST_SKIP() << "under ThreadSanitizer, whose runtime defines operator new itself, "
                    "allocations cannot be counted";
#endif
    if (!IsSkipped() && device.info().backend != BackendKind::cpu) {
      GTEST_SKIP() << "allocation-free launches are a CPU backend guarantee; this is "
                   << device.info().id();
    }
  }

  /// Allocations made by `launches` calls of `launch` after two to warm up (the first compiles
  /// nothing but may grow a worker's scratch memory or a queue), each followed by synchronize.
  template <class F>
  long allocations_of(F&& launch, const Stream* stream = nullptr, int launches = 50) {
    const auto wait = [&] { stream != nullptr ? stream->synchronize() : device.synchronize(); };
    for (int i = 0; i < 2; ++i) {
      launch();
      wait();
    }
    const long before = allocations.load();
    for (int i = 0; i < launches; ++i) {
      launch();
      wait();
    }
    return allocations.load() - before;
  }
};

TEST_F(LaunchAllocations, CountingSeesAnAllocation) {
  // The counter itself works.
  const long before = allocations.load();
  auto* p = new int(7);  // NOLINT(cppcoreguidelines-owning-memory)
  EXPECT_EQ(*p, 7);
  delete p;  // NOLINT(cppcoreguidelines-owning-memory)
  EXPECT_GE(allocations.load() - before, 1);
}

TEST_F(LaunchAllocations, ElementWiseKernelsOnOneBlockAndOnManyAllocateNothing) {
  auto k = Program::from_file(kernel_path("vadd.cu"))
               .kernel<const float*, const float*, float*, int>("vadd", device);
  for (const int n : {200, 1 << 18}) {
    SCOPED_TRACE(n);
    const auto a = random_vector<float>(static_cast<std::size_t>(n), -1.0F, 1.0F);
    const auto b = random_vector<float>(static_cast<std::size_t>(n), -1.0F, 1.0F);
    auto da = device.upload(a);
    auto db = device.upload(b);
    auto dc = device.upload(std::vector<float>(static_cast<std::size_t>(n), -7.0F));
    const LaunchConfig config = LaunchConfig::for_elements(static_cast<std::size_t>(n), 256);
    EXPECT_EQ(allocations_of([&] { k.launch(config, da, db, dc, n); }), 0);
    const std::vector<float> c = dc.download();
    for (std::size_t i = 0; i < c.size(); ++i) {
      ASSERT_EQ(c[i], a[i] + b[i]) << i;
    }
  }
}

TEST_F(LaunchAllocations, KernelsWithBarriersAndWarpOperationsAllocateNothing) {
  const int n = 1 << 16;
  const std::vector<int> in(n, 3);
  auto din = device.upload(in);
  auto sum = device.upload(std::vector<int>{0});
  for (const auto& [file, name] : {std::pair{"reduction.cu", "reduce_sum<int>"},
                                   {"warp_reduction.cu", "reduce_sum_shfl<int>"}}) {
    SCOPED_TRACE(name);
    auto k = Program::from_file(kernel_path(file)).kernel<const int*, int*, int>(name, device);
    // A grid-stride loop's few blocks per worker (blocks take turns) and one element per thread.
    for (const LaunchConfig& config :
         {LaunchConfig{.grid = {4 * device.info().compute_units}, .block = {256}},
          LaunchConfig::for_elements(n, 256)}) {
      sum.upload(std::vector<int>{0});
      const int launches = 20;
      EXPECT_EQ(allocations_of([&] { k.launch(config, din, sum, n); }, nullptr, launches), 0);
      EXPECT_EQ(sum.download()[0], 3 * n * (launches + 2));
    }
  }
}

TEST_F(LaunchAllocations, LaunchesOnAStreamOfTheUsersAllocateNothing) {
  auto k = Program::from_file(kernel_path("saxpy.cu"))
               .kernel<float, const float*, float*, int>("saxpy<float>", device);
  const int n = 5000;
  auto x = device.upload(std::vector<float>(n, 1.0F));
  auto y = device.upload(std::vector<float>(n, 0.0F));
  const Stream stream = device.create_stream();
  const int launches = 30;
  EXPECT_EQ(allocations_of([&] { k.launch(stream, LaunchConfig::for_elements(n), 2.0F, x, y, n); },
                           &stream, launches),
            0);
  for (const float v : y.download()) {
    ASSERT_EQ(v, 2.0F * (launches + 2));
  }
}

TEST_F(LaunchAllocations, LaunchesOfAnAnnotatedKernelWhoseVariantIsReadyAllocateNothing) {
  // A launch builds the folded values and the variant's key, finds the variant and passes the
  // other arguments on: all in place.
  CompileOptions options;
  options.kernels = {"window"};
  options.launch_waits_for_variants = true;
  auto k = Program::from_file(test_kernel_path("jit_annotated.cu"), std::move(options))
               .kernel<const float*, float*, int, float, int>("window", device);
  const int n = 3000;
  const int steps = 5;
  const float scale = 0.5F;
  const auto x = random_vector<float>(static_cast<std::size_t>(n), -1.0F, 1.0F);
  auto dx = device.upload(x);
  auto dy = device.upload(std::vector<float>(static_cast<std::size_t>(n), -7.0F));
  const LaunchConfig config = LaunchConfig::for_elements(static_cast<std::size_t>(n), 128);
  EXPECT_EQ(allocations_of([&] { k.launch(config, dx, dy, steps, scale, n); }), 0);
  const std::vector<float> y = dy.download();
  for (int i = 0; i < n; ++i) {
    float want = 0.0F;
    for (int s = 0; s < steps; ++s) {
      want += x[static_cast<std::size_t>((i + s) % n)] * scale;
    }
    ASSERT_FLOAT_EQ(y[static_cast<std::size_t>(i)], want) << i;
  }
}

}  // namespace
}  // namespace kjit::test
