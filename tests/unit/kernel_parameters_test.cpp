// The parameters a kernel's declaration spells __restrict__ (source/kernel_parameters.hpp), which
// a specialised variant spells again: only where every declaration of the kernel with that many
// parameters agrees.
#include "source/kernel_parameters.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace kjit::source {
namespace {

using Positions = std::vector<std::size_t>;

TEST(KernelParameters, RestrictedParametersAreReadFromTheKernelsDeclaration) {
  const char* text = R"(
__device__ float helper(const float* __restrict__ a, int n);
namespace ns {
template <class T>
__global__ void step(const T* __restrict__ x, T scale, T *__restrict y, const T* keep, int n) {}
}
__global__ void wsm(float *__restrict__ th, const float *__restrict__ pii, float* q,
                    const int ids) {}
__global__ void named(float* __restrict__x2, float* restricted, int n) {}
)";
  EXPECT_EQ(restrict_parameters(text, "ns::step<float>", 5), (Positions{0, 2}));
  EXPECT_EQ(restrict_parameters(text, "wsm", 4), (Positions{0, 1}));
  // A declaration with another count is another overload; a device function is no kernel.
  EXPECT_EQ(restrict_parameters(text, "wsm", 3), Positions{});
  EXPECT_EQ(restrict_parameters(text, "helper", 2), Positions{});
  // Words that only contain the keyword are names.
  EXPECT_EQ(restrict_parameters(text, "named", 3), Positions{});
}

TEST(KernelParameters, OverloadsThatDisagreePromiseNothing) {
  const char* text = R"(
__global__ void k(float* __restrict__ a, float* b) {}
#ifdef OTHER
__global__ void k(float* a, float* __restrict__ b) {}
#endif
__global__ void same(float* __restrict__ a);
__global__ void same(float* __restrict__ a) {}
)";
  EXPECT_EQ(restrict_parameters(text, "k", 2), Positions{});
  EXPECT_EQ(restrict_parameters(text, "same", 1), (Positions{0}));
  EXPECT_EQ(restrict_parameters("not { a file", "k", 2), Positions{});
}

}  // namespace
}  // namespace kjit::source
