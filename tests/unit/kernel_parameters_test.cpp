// The parameters a kernel's declaration spells __restrict__ and the launch bounds it gives
// (source/kernel_parameters.hpp), which a specialised variant spells again: only where every
// declaration of the kernel with that many parameters agrees.
#include "source/kernel_parameters.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace kjit::source {
namespace {

using Positions = std::vector<std::size_t>;

/// The restricted positions read_kernel_declaration finds in one text.
Positions restricted_in(std::string_view text, std::string_view name, std::size_t count) {
  const std::string_view texts[] = {text};
  return read_kernel_declaration(texts, name, count).restricted;
}

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
  EXPECT_EQ(restricted_in(text, "ns::step<float>", 5), (Positions{0, 2}));
  EXPECT_EQ(restricted_in(text, "wsm", 4), (Positions{0, 1}));
  // A declaration with another count is another overload; a device function is no kernel.
  EXPECT_EQ(restricted_in(text, "wsm", 3), Positions{});
  EXPECT_EQ(restricted_in(text, "helper", 2), Positions{});
  // Words that only contain the keyword are names.
  EXPECT_EQ(restricted_in(text, "named", 3), Positions{});
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
  const std::string_view texts[] = {text};
  EXPECT_EQ(read_kernel_declaration(texts, "k", 2, {{"OTHER", ""}}).restricted, Positions{});
  // Without OTHER, the preprocessor leaves one declaration.
  EXPECT_EQ(restricted_in(text, "k", 2), (Positions{0}));
  EXPECT_EQ(restricted_in(text, "same", 1), (Positions{0}));
  EXPECT_EQ(restricted_in("not { a file", "k", 2), Positions{});
}

TEST(KernelParameters, ConditionalsInsideTheListCountOnlyTheBranchTheProgramTakes) {
  // LULESH's CalcVolumeForceForElems_kernel: three force arrays, under one name or another.
  const char* text = R"(
__global__ void force(const double* __restrict__ x, double h,
#ifdef DOUBLE_PRECISION
    double* __restrict__ fx_elem,
#else
    double* fx_node, double* fy_node,
#endif
    int n) {}
)";
  const std::string_view texts[] = {text};
  EXPECT_EQ(read_kernel_declaration(texts, "force", 4, {{"DOUBLE_PRECISION", ""}}).restricted,
            (Positions{0, 2}));
  EXPECT_EQ(restricted_in(text, "force", 5), (Positions{0}));
  EXPECT_EQ(restricted_in(text, "force", 6), Positions{});
}

TEST(KernelParameters, AKernelDeclaredInAHeaderIsFoundThere) {
  // upstream/main.cu of wsm5 launches the kernel that kernel.h, which it includes, declares.
  const std::string_view main_text = R"(
#include "kernel.h"
int main() { wsm<<<1, 1>>>(nullptr, nullptr, 3); }
)";
  const std::string_view header =
      "__global__ void wsm(float* __restrict__ a, const float* "
      "__restrict__ b, int n) {}\n";
  const std::string_view both[] = {main_text, header};
  EXPECT_EQ(read_kernel_declaration(both, "wsm", 3).restricted, (Positions{0, 1}));
  // Declared again without the promise elsewhere: the declarations disagree.
  const std::string_view other = "__global__ void wsm(float* a, const float* b, int n);\n";
  const std::string_view three[] = {main_text, header, other};
  EXPECT_EQ(read_kernel_declaration(three, "wsm", 3).restricted, Positions{});
}

/// The launch bounds read_kernel_declaration finds in one text.
std::string bounds_in(std::string_view text, std::string_view name, std::size_t count,
                      const std::map<std::string, std::string, std::less<>>& defines = {}) {
  const std::string_view texts[] = {text};
  return read_kernel_declaration(texts, name, count, defines).launch_bounds;
}

TEST(KernelParameters, LaunchBoundsAreReadAsTheLiveBranchSpellsThem) {
  // LULESH's kinematics kernel: other bounds for single precision, and a comment after them.
  const char* text = R"(
#define BLOCK 256
__global__
#ifdef DOUBLE_PRECISION
__launch_bounds__(64,8) // 64-bit
#else
__launch_bounds__(64,16) // 32-bit
#endif
void kinematics(int n, const double* x) {}
__global__ void __launch_bounds__( BLOCK , 2 ) after_the_type(int n) {}
__global__ void none(int n) {}
template <int Threads, class T>
__global__ void __launch_bounds__(Threads) templated(T* x) {}
template <class T>
__global__ void __launch_bounds__(BLOCK) fixed(T* x) {}
)";
  EXPECT_EQ(bounds_in(text, "kinematics", 2, {{"DOUBLE_PRECISION", ""}}), "64,8");
  EXPECT_EQ(bounds_in(text, "kinematics", 2), "64,16");
  EXPECT_EQ(bounds_in(text, "kinematics", 3), "");  // another overload
  EXPECT_EQ(bounds_in(text, "after_the_type", 1), "BLOCK , 2");
  EXPECT_EQ(bounds_in(text, "none", 1), "");
  // A variant's kernel is no template: bounds of a template parameter cannot be spelled there.
  EXPECT_EQ(bounds_in(text, "templated<256, float>", 1), "");
  EXPECT_EQ(bounds_in(text, "fixed<float>", 1), "BLOCK");
}

TEST(KernelParameters, DeclarationsThatGiveOtherBoundsGiveNone) {
  const char* text = R"(
__global__ void k(float* a);
__global__ void __launch_bounds__(128) k(float* a) {}
__global__ void __launch_bounds__(128) j(float* a);
__global__ void __launch_bounds__(256) j(float* a) {}
)";
  // A prototype without bounds agrees with a definition that gives them.
  EXPECT_EQ(bounds_in(text, "k", 1), "128");
  EXPECT_EQ(bounds_in(text, "j", 1), "");
}

}  // namespace
}  // namespace kjit::source
