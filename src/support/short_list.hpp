// A list of a size fixed at its making that lives in place when short and on the heap when long:
// for what a launch builds on every call (its arguments' addresses, the values a variant folds),
// which is nearly always a few entries, and which should cost no allocation.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace kjit::detail {

template <class T, std::size_t N>
class ShortList {
 public:
  /// `size` value-made entries.
  explicit ShortList(std::size_t size) : size_(size) {
    if (size > N) {
      heap_.resize(size);
    }
  }
  ShortList(const ShortList&) = delete;
  ShortList& operator=(const ShortList&) = delete;

  [[nodiscard]] T* data() noexcept { return size_ > N ? heap_.data() : in_place_.data(); }
  [[nodiscard]] const T* data() const noexcept {
    return size_ > N ? heap_.data() : in_place_.data();
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::span<T> span() noexcept { return {data(), size_}; }
  [[nodiscard]] std::span<const T> span() const noexcept { return {data(), size_}; }
  T& operator[](std::size_t i) noexcept { return data()[i]; }

 private:
  std::array<T, N> in_place_{};
  std::vector<T> heap_;
  std::size_t size_;
};

}  // namespace kjit::detail
