#include "core/name_expression.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

namespace kjit::detail {
namespace {

TEST(KernelName, AcceptsIdentifiersAndInstantiations) {
  EXPECT_EQ(validate_kernel_name("vadd"), "vadd");
  EXPECT_EQ(validate_kernel_name("  saxpy<float> "), "saxpy<float>");
  EXPECT_EQ(validate_kernel_name("ns::scale<float, 3>"), "ns::scale<float, 3>");
  EXPECT_EQ(validate_kernel_name("::k<-1>"), "::k<-1>");
  EXPECT_EQ(validate_kernel_name("k<(3 > 2)>"), "k<(3 > 2)>");
  EXPECT_EQ(validate_kernel_name("apply<float*, unsigned long long>"),
            "apply<float*, unsigned long long>");
}

TEST(KernelName, RejectsWhatIsNotAName) {
  for (const char* bad :
       {"", "   ", "1abc", "a;b", "a{}", "a\"b", "a\nb", "a/b", "#x", "a<b", "a>b", "k<float>>"}) {
    EXPECT_THROW((void)validate_kernel_name(bad), UsageError) << "'" << bad << "'";
  }
  EXPECT_THROW((void)validate_kernel_name(std::string(2000, 'a')), UsageError);
}

}  // namespace
}  // namespace kjit::detail
