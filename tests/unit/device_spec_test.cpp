#include "core/device_spec.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

namespace kjit::detail {
namespace {

std::vector<DeviceRequest> parse(std::string_view spec) {
  return parse_device_spec(spec, "cpu:0 (test)");
}

TEST(DeviceSpec, ParsesBackendsAndOrdinals) {
  EXPECT_EQ(parse("cpu"), (std::vector<DeviceRequest>{{BackendKind::cpu, std::nullopt}}));
  EXPECT_EQ(parse("cuda:1"), (std::vector<DeviceRequest>{{BackendKind::cuda, 1}}));
  EXPECT_EQ(parse("hip:0"), (std::vector<DeviceRequest>{{BackendKind::hip, 0}}));
  EXPECT_EQ(parse(" CUDA : 12 "), (std::vector<DeviceRequest>{{BackendKind::cuda, 12}}));
}

TEST(DeviceSpec, ParsesPreferenceLists) {
  EXPECT_EQ(parse("cuda,hip,cpu"), (std::vector<DeviceRequest>{{BackendKind::cuda, std::nullopt},
                                                               {BackendKind::hip, std::nullopt},
                                                               {BackendKind::cpu, std::nullopt}}));
  EXPECT_EQ(parse("cuda:1, cpu"),
            (std::vector<DeviceRequest>{{BackendKind::cuda, 1}, {BackendKind::cpu, std::nullopt}}));
}

void expect_rejected(std::string_view spec, std::string_view why) {
  try {
    (void)parse(spec);
    ADD_FAILURE() << "'" << spec << "' was accepted";
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(why), std::string::npos) << what;
    EXPECT_NE(what.find("Devices present: cpu:0 (test)"), std::string::npos) << what;
  }
}

TEST(DeviceSpec, RejectsMalformedSpecsNamingTheProblem) {
  expect_rejected("", "it is empty");
  expect_rejected("   ", "it is empty");
  expect_rejected("gpu", "unknown backend 'gpu'");
  expect_rejected("cuda:", "'' is not a device ordinal");
  expect_rejected("cuda:x", "'x' is not a device ordinal");
  expect_rejected("cuda:-1", "'-1' is not a device ordinal");
  expect_rejected("cuda:1x", "'1x' is not a device ordinal");
  expect_rejected("cuda:99999999999", "is not a device ordinal");
  expect_rejected("cuda,,cpu", "empty entry");
  expect_rejected("cpu,", "empty entry");
  expect_rejected(":1", "has no backend name");
}

TEST(DeviceSpec, RequestPrintsAsWritten) {
  EXPECT_EQ((DeviceRequest{BackendKind::cuda, 2}).to_string(), "cuda:2");
  EXPECT_EQ((DeviceRequest{BackendKind::cpu, std::nullopt}).to_string(), "cpu");
}

}  // namespace
}  // namespace kjit::detail
