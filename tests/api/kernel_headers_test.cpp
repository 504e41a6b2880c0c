// The headers kjit gives kernels: a kernel that includes each one and uses what it declares
// compiles and computes what the host's own C and C++ library computes (kernel_header_cases.hpp).
#include "kernel_header_cases.hpp"
#include "test_support.hpp"

#include <cmath>

namespace kjit::test {
namespace {

class KernelHeaders : public DeviceTest, public ::testing::WithParamInterface<HeaderCase> {};

TEST_P(KernelHeaders, AKernelThatIncludesItComputesWhatTheHostDoes) {
  const HeaderCase& c = GetParam();
  auto check = Program::from_source(c.header + ".cu", c.source)
                   .kernel<const double*, double*>("check", device);
  auto in = device.upload(kHeaderCaseInputs);
  auto out = poisoned<double>(c.expected.size());
  check.launch(LaunchConfig{}, in, out);
  const std::vector<double> got = out.download();
  for (std::size_t i = 0; i < c.expected.size(); ++i) {
    const double want = c.expected[i];
    if (c.tolerance == 0.0) {
      EXPECT_EQ(got[i], want) << c.header << ": out[" << i << "]";
    } else {
      EXPECT_NEAR(got[i], want, c.tolerance * std::abs(want)) << c.header << ": out[" << i << "]";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EachHeader, KernelHeaders, ::testing::ValuesIn(header_cases()),
                         [](const ::testing::TestParamInfo<HeaderCase>& info) {
                           std::string name = info.param.header;
                           for (char& ch : name) {
                             if (std::isalnum(static_cast<unsigned char>(ch)) == 0) {
                               ch = '_';
                             }
                           }
                           return name;
                         });

}  // namespace
}  // namespace kjit::test
