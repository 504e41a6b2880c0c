// A buffer, pointer or stream of one device is refused by a kernel of another. With one CPU in
// the machine, the second device is a second handle on the CPU backend made from the internals.
#include "backends/cpu/cpu_backend.hpp"
#include "core/device_impl.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

namespace kjit {
namespace {

TEST(ForeignDevice, MemoryAndStreamsOfAnotherDeviceAreRefused) {
  const Device here = Device::select("cpu");
  std::unique_ptr<backend::Backend> backend = cpu::create_backend();
  const Device there(std::make_shared<detail::DeviceImpl>(*backend, backend->enumerate().at(0)));
  ASSERT_NE(here, there);

  auto k = Program::from_source(
               "copy.cu",
               "__global__ void copy(const int* a, int* b) { b[threadIdx.x] = a[threadIdx.x]; }")
               .kernel<const int*, int*>("copy", here);
  auto mine = here.upload(std::vector<int>{1, 2, 3});
  auto theirs = there.upload(std::vector<int>{4, 5, 6});
  const LaunchConfig config{.grid = {1}, .block = {3}};
  try {
    k.launch(config, mine, theirs);
    ADD_FAILURE() << "a buffer of another device was accepted";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("argument 1 points to memory of"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(k.launch(config, theirs.ptr(), mine), LaunchError);
  EXPECT_THROW(k.launch(there.create_stream(), config, mine, mine), LaunchError);
  EXPECT_EQ(theirs.download(), (std::vector<int>{4, 5, 6}));
  k.launch(config, mine, mine);  // and the kernel still works with its own memory
  EXPECT_EQ(mine.download(), (std::vector<int>{1, 2, 3}));
}

}  // namespace
}  // namespace kjit
