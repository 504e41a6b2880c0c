// Shared by the cache tests that compile real programs: a scaled-copy kernel whose scale comes
// from a header, and its check against the host.
#pragma once

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace kjit::test {

/// out[i] = in[i] * SCALE + salt, SCALE from "scale.h". Distinct salts make distinct programs.
inline std::string scaled_copy_source(int salt) {
  return "#include \"scale.h\"\n"
         "__global__ void scaled(const int* in, int* out, int n) {\n"
         "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) out[i] = in[i] * SCALE + " +
         std::to_string(salt) + ";\n}\n";
}

/// Runs `scaled` of `program` on n values; returns how many outputs differ from
/// in[i] * scale + salt.
inline int scaled_copy_mismatches(const Program& program, const Device& device, int scale, int salt,
                                  std::uint32_t seed) {
  constexpr int n = 4099;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) {
    in[static_cast<std::size_t>(i)] = static_cast<int>((seed + 2654435761U * i) % 100000);
  }
  auto k = program.kernel<const int*, int*, int>("scaled", device);
  auto d_in = device.upload(std::span<const int>(in));
  auto d_out = device.upload(std::span<const int>(std::vector<int>(n, -7777777)));
  k.launch(LaunchConfig::for_elements(n), d_in, d_out, n);
  const std::vector<int> out = d_out.download();
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    bad += out[static_cast<std::size_t>(i)] != in[static_cast<std::size_t>(i)] * scale + salt;
  }
  return bad;
}

/// The output of a worker process started with popen, once it has exited, which it must with
/// status 0 (a test failure otherwise).
inline std::string finish_worker(FILE* worker) {
  std::string output;
  std::array<char, 256> buffer{};
  while (worker != nullptr && fgets(buffer.data(), buffer.size(), worker) != nullptr) {
    output += buffer.data();
  }
  EXPECT_EQ(worker != nullptr ? pclose(worker) : -1, 0) << output;
  return output;
}

}  // namespace kjit::test
