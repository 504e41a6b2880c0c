// SPDX-License-Identifier: GPL-2.0-only
// sw4ck's host side, shared by kjit's host program (kjit_sw4ck.cpp), the nvcc output build
// (nvcc_sw4ck.cu) and the OpenMP build (openmp_sw4ck.cpp): the input file read and its arrays
// filled as upstream/main.cu and utils.cpp do, the norm upstream checks, the launches that
// upstream/curvilinear4sg.cu's curvilinear4sg_ci makes, and the kernels' times reported.
// GPL-2.0-only, as the program it follows (this folder's LICENSE.md).
#ifndef KJIT_SW4CK_INPUT_H
#define KJIT_SW4CK_INPUT_H

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sw4ck {

/// One of the input's arrays (upstream's Sarray): nc components on an ni x nj x nk grid.
struct Array {
  int g = 0;
  int nc = 0;
  int ni = 0;
  int nj = 0;
  int nk = 0;
  std::vector<double> data;

  [[nodiscard]] std::size_t count() const {
    return static_cast<std::size_t>(nc) * static_cast<std::size_t>(ni) *
           static_cast<std::size_t>(nj) * static_cast<std::size_t>(nk);
  }

  /// Sarray::init: sin(x) sin(y) sin(z) at every point, for every component.
  void init() {
    const double dx = 0.001;
    const int offi = nc;
    const int offj = nc * ni;
    const int offk = nc * ni * nj;
    for (int i = 0; i < ni; i++) {
      for (int j = 0; j < nj; j++) {
        for (int k = 0; k < nk; k++) {
          for (int c = 0; c < nc; c++) {
            const int index = c + i * offi + j * offj + k * offk;
            const double x = i * dx;
            const double y = j * dx;
            const double z = k * dx;
            data[static_cast<std::size_t>(index)] = std::sin(x) * std::sin(y) * std::sin(z);
          }
        }
      }
    }
  }

  /// Sarray::norm: the sum of the squares, in order.
  [[nodiscard]] double norm() const {
    double sum = 0.0;
    for (const double d : data) {
      sum += d * d;
    }
    return sum;
  }
};

/// One data set: its 14 "onesided" integers (bounds and flags) and its arrays by name.
struct Case {
  std::array<int, 14> onesided{};
  std::map<std::string, Array> arrays;

  [[nodiscard]] Array& at(const std::string& name) {
    const auto it = arrays.find(name);
    if (it == arrays.end()) {
      throw std::runtime_error("sw4ck: the input has no array '" + name + "'");
    }
    return it->second;
  }
};

/// The data sets of an input file: groups of 16 lines, a line of integers and 15 arrays each.
/// Every array of the first two sets is filled (upstream fills those, and runs those).
inline std::vector<Case> read_input(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    throw std::runtime_error("sw4ck: cannot read " + path);
  }
  std::vector<Case> cases;
  std::string line;
  for (int lc = 0; std::getline(file, line); lc++) {
    std::istringstream words(line);
    if (lc % 16 == 0) {
      Case c;
      for (int& v : c.onesided) {
        if (!(words >> v)) {
          throw std::runtime_error("sw4ck: bad integers on line " + std::to_string(lc + 1));
        }
      }
      cases.push_back(std::move(c));
      continue;
    }
    std::string name;
    Array a;
    long long base = 0;
    std::size_t offsets[5] = {};
    int bounds[6] = {};
    if (!(words >> name >> a.g >> a.nc >> a.ni >> a.nj >> a.nk >> bounds[0] >> bounds[1] >>
          bounds[2] >> bounds[3] >> bounds[4] >> bounds[5] >> base >> offsets[0] >> offsets[1] >>
          offsets[2] >> offsets[3] >> offsets[4])) {
      throw std::runtime_error("sw4ck: bad array on line " + std::to_string(lc + 1));
    }
    a.data.resize(a.count());
    cases.back().arrays[name] = std::move(a);
  }
  if (cases.size() < 2) {
    throw std::runtime_error("sw4ck: " + path + " holds fewer than two data sets");
  }
  for (std::size_t i = 0; i < 2; i++) {
    for (auto& [name, a] : cases[i].arrays) {
      a.init();
    }
  }
  return cases;
}

/// main.cu's table of coefficients: sbop, acof, bop, bope, ghcof, acof_no_gp, ghcof_no_gp, each
/// value i / 1000, and the offsets of those the kernels read.
constexpr std::size_t kCoefficients = 6 + 384 + 24 + 48 + 6 + 384 + 6 + 6;
constexpr std::size_t kBope = 6 + 384 + 24;
constexpr std::size_t kAcofNoGp = kBope + 48 + 6;
constexpr std::size_t kGhcofNoGp = kAcofNoGp + 384;

inline std::vector<double> coefficients() {
  std::vector<double> c(kCoefficients);
  for (std::size_t i = 0; i < c.size(); i++) {
    c[i] = static_cast<double>(i) / 1000.0;
  }
  return c;
}

/// main.cu's stretching factors of a data set: x's then y's, value n / 1000.
inline std::vector<double> stretching(const Case& c) {
  const auto& o = c.onesided;
  std::vector<double> s(static_cast<std::size_t>(o[7] - o[6] + o[9] - o[8] + 2));
  for (std::size_t n = 0; n < s.size(); n++) {
    s[n] = static_cast<double>(n) / 1000.0;
  }
  return s;
}
/// Where the y factors start in stretching()'s vector.
inline std::size_t stretching_y(const Case& c) {
  return static_cast<std::size_t>(c.onesided[7] - c.onesided[6] + 1);
}

/// The expected norms of a_Uacc after the kernels, for the shipped input's two data sets.
constexpr std::array<double, 2> kExactNorm = {2.2502232733796421194, 202.0512747393526638};

/// Upstream's check of data set `set`: how far a_Uacc's norm is from the expected one, in percent
/// (the "Error = " line every build prints).
inline double error_percent(std::size_t set, const Array& uacc) {
  return (uacc.norm() - kExactNorm[set]) / kExactNorm[set] * 100;
}

/// The kernels' time of each repeat of a data set. Upstream's line averages every repeat; the
/// programs' "Average kernel execution time" line leaves the first out (in it kjit's variants
/// are asked for).
class RepeatTimes {
 public:
  /// Counts a repeat whose kernels started at `start` and have ended now.
  void stop(std::chrono::steady_clock::time_point start) {
    const std::int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now() - start)
                                .count();
    if (repeats_++ == 0) {
      first_ns_ = ns;
    }
    all_ns_ += ns;
  }

  /// Milliseconds a repeat after the first (the first, if it is the only one).
  [[nodiscard]] double later_ms() const {
    return static_cast<double>(repeats_ > 1 ? all_ns_ - first_ns_ : all_ns_) * 1e-6 /
           std::max(repeats_ - 1, 1);
  }

  /// Upstream's line: the average of every repeat.
  void report() const {
    std::cout << "\nAverage execution time of sw4ck kernels: "
              << (static_cast<double>(all_ns_) * 1e-6) / std::max(repeats_, 1)
              << " milliseconds\n\n";
  }

 private:
  std::int64_t all_ns_ = 0;
  std::int64_t first_ns_ = 0;
  int repeats_ = 0;
};

/// One kernel launch of curvilinear4sg_ci: which kernel (1 to 5), its geometry and the bounds of
/// the points it updates.
struct Launch {
  int kernel = 0;
  std::array<int, 3> block{};
  std::array<int, 3> grid{};
  std::array<int, 6> range{};  // start0, N0, start1, N1, start2, N2
};

/// The launches curvilinear4sg_ci makes for a data set: its Range<N> geometry (N threads a
/// block in a dimension, as many blocks as cover end - start).
inline std::vector<Launch> launches(const Case& c) {
  const auto& o = c.onesided;
  const int ifirst = o[6];
  const int ilast = o[7];
  const int jfirst = o[8];
  const int jlast = o[9];
  const int kfirst = o[10];
  const int klast = o[11];
  const int nk = o[12];
  const auto dim = [](int n, int start, int end, int& threads, int& blocks) {
    threads = n;
    blocks = (end - start) / n + ((end - start) % n == 0 ? 0 : 1);
  };
  const auto make = [&](int kernel, std::array<int, 3> n, std::array<int, 6> range) {
    Launch l;
    l.kernel = kernel;
    l.range = range;
    for (int d = 0; d < 3; d++) {
      dim(n[static_cast<std::size_t>(d)], range[static_cast<std::size_t>(2 * d)],
          range[static_cast<std::size_t>(2 * d + 1)], l.block[static_cast<std::size_t>(d)],
          l.grid[static_cast<std::size_t>(d)]);
    }
    return l;
  };
  std::vector<Launch> all;
  int kstart = kfirst + 2;
  int kend = klast - 2;
  if (o[5] == 1) {
    kend = nk - 6;
  }
  if (o[4] == 1) {
    kstart = 7;
    all.push_back(make(1, {16, 4, 3}, {ifirst + 2, ilast - 1, jfirst + 2, jlast - 1, 1, 7}));
  }
  const std::array<int, 6> middle = {ifirst + 2, ilast - 1, jfirst + 2,
                                     jlast - 1,  kstart,    kend + 1};
  for (const int kernel : {2, 3, 4}) {
    all.push_back(make(kernel, {64, 2, 2}, middle));
  }
  if (o[5] == 1) {
    all.push_back(
        make(5, {16, 4, 4}, {ifirst + 2, ilast - 1, jfirst + 2, jlast - 1, nk - 5, nk + 1}));
  }
  return all;
}

}  // namespace sw4ck

#endif
