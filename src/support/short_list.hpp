// A list of a size fixed at its making that lives in place when short and on the heap when long:
// for what a launch builds on every call (its arguments' addresses, the values a variant folds),
// which is nearly always a few entries, and which should cost no allocation.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

namespace kjit::detail {

template <class T, std::size_t N>
class ShortList {
  static_assert(std::is_trivially_destructible_v<T>, "ShortList holds trivially destructible T");

 public:
  /// `size` value-made entries. Only those are made: a launch with 3 arguments does not clear
  /// room for N (a few hundred bytes to clear on every launch otherwise).
  explicit ShortList(std::size_t size) : size_(size) {
    if (size > N) {
      heap_.resize(size);
    } else {
      std::uninitialized_value_construct_n(in_place(), size);
    }
  }
  ShortList(const ShortList&) = delete;
  ShortList& operator=(const ShortList&) = delete;
  ~ShortList() = default;  // T is trivially destructible: nothing to end in place

  [[nodiscard]] T* data() noexcept { return size_ > N ? heap_.data() : in_place(); }
  [[nodiscard]] const T* data() const noexcept { return size_ > N ? heap_.data() : in_place(); }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::span<T> span() noexcept { return {data(), size_}; }
  [[nodiscard]] std::span<const T> span() const noexcept { return {data(), size_}; }
  T& operator[](std::size_t i) noexcept { return data()[i]; }

 private:
  T* in_place() noexcept { return std::launder(reinterpret_cast<T*>(storage_)); }
  const T* in_place() const noexcept { return std::launder(reinterpret_cast<const T*>(storage_)); }

  alignas(T) std::byte storage_[N * sizeof(T)];  // NOLINT: raw room, made up to size_ only
  std::vector<T> heap_;
  std::size_t size_;
};

}  // namespace kjit::detail
