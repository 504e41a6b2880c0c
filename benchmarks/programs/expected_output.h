// A kjit host program's --out and --expect: its outputs written as raw values, and compared with
// those another build wrote, equal within a relative tolerance (each program says why it needs
// one), with PASS or FAIL printed for the scripts and tests that run it.
#ifndef KJIT_PROGRAMS_EXPECTED_OUTPUT_H
#define KJIT_PROGRAMS_EXPECTED_OUTPUT_H

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace programs {

/// Writes `values` to `path` as raw bytes.
template <class T>
void write_values(const std::string& path, const std::vector<T>& values) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(values.data()),
             static_cast<std::streamsize>(values.size() * sizeof(T)));
  if (!file) {
    throw std::runtime_error("cannot write " + path);
  }
}

/// The raw values a file holds.
template <class T>
std::vector<T> read_values(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw std::runtime_error("cannot read " + path);
  }
  const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

/// Whether `got` equals `expected` to `relative`, or by `absolute` at most; prints how many
/// values are equal bit for bit and the first few that differ by more.
template <class T>
bool agrees(const std::vector<T>& expected, const std::vector<T>& got, T relative, T absolute) {
  static_assert(std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  if (expected.size() != got.size()) {
    std::printf("%zu values, expected %zu\n", got.size(), expected.size());
    return false;
  }
  std::size_t exact = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); i++) {
    const T x = expected[i];
    const T y = got[i];
    const T diff = std::fabs(x - y);
    if (std::bit_cast<Bits>(x) == std::bit_cast<Bits>(y)) {
      exact++;
    } else if (!(diff <= relative * std::max(std::fabs(x), std::fabs(y)) || diff <= absolute)) {
      if (bad++ < 5) {
        std::printf("value %zu: %.17g, expected %.17g\n", i, static_cast<double>(y),
                    static_cast<double>(x));
      }
    }
  }
  std::printf("%zu of %zu values bit for bit, %zu beyond a relative %g (and %g)\n", exact,
              got.size(), bad, static_cast<double>(relative), static_cast<double>(absolute));
  return bad == 0;
}

/// --expect: "Against FILE: ..." then PASS or FAIL; the program's exit status (0, or 3 on FAIL).
template <class T>
int check_expected(const std::string& path, const std::vector<T>& got, T relative, T absolute) {
  std::printf("Against %s: ", path.c_str());
  if (!agrees(read_values<T>(path), got, relative, absolute)) {
    std::printf("FAIL\n");
    return 3;
  }
  std::printf("PASS\n");
  return 0;
}

}  // namespace programs

#endif
