// kjit::Symbol: a program's __constant__ and __device__ variables, read and written from the host
// by name (what cudaMemcpyToSymbol and cudaMemcpyFromSymbol do for an nvcc-built program).
#pragma once

#include <kjit/device.hpp>
#include <kjit/device_copyable.hpp>
#include <kjit/export.hpp>
#include <kjit/memory.hpp>
#include <kjit/program.hpp>
#include <kjit/stream.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace kjit {

namespace detail {

/// The untyped half of Symbol<T>: one variable of one program on one device.
class KJIT_API RawSymbol {
 public:
  /// Finds the variable (building the program's declared kernels first when the device has no
  /// build yet); UsageError when it is unknown (the message lists the program's variables) or
  /// is not `type_bytes` long.
  RawSymbol(std::shared_ptr<ProgramImpl> program, std::string_view name, const Device& device,
            std::size_t type_bytes);
  /// Copies host bytes into the variable at `offset`, in every build of the program on the
  /// device, and into those built later. Without a stream: synchronous, after the device's
  /// earlier work; with one: ordered on it, and `src` must stay valid until it is done.
  void write(std::size_t offset, const void* src, std::size_t bytes, const Stream* stream) const;
  /// Copies the variable's bytes out, with the same rules; UsageError when more than one build
  /// of the program on the device holds the variable (each has its own copy).
  void read(std::size_t offset, void* dst, std::size_t bytes, const Stream* stream) const;
  /// The variable's device address (cudaGetSymbolAddress), with the same rule as read().
  [[nodiscard]] std::uint64_t address() const;
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] DeviceImpl* device_impl() const noexcept { return device_.get(); }

 private:
  std::shared_ptr<ProgramImpl> program_;
  std::shared_ptr<DeviceImpl> device_;
  std::string name_;
  std::size_t bytes_;
};

}  // namespace detail

/// A namespace-scope __constant__ or __device__ variable of a program on one device. T is its
/// type as the source declares it: `float[64]` for `__constant__ float c_Kernel[64]`, a struct,
/// an int. Cheap to copy. Its writes reach every build of the program on the device, including
/// builds made later (a kernel compiled after the write sees the value written).
template <class T>
class Symbol {
 public:
  using element_type = std::remove_all_extents_t<T>;
  static_assert(std::is_trivially_copyable_v<T> && DeviceCopyable<element_type>,
                "kjit: Symbol<T> needs a trivially copyable type T (or an array of one)");

  explicit Symbol(detail::RawSymbol raw) : raw_(std::move(raw)) {}

  [[nodiscard]] const std::string& name() const noexcept { return raw_.name(); }

  /// Sets the variable; synchronous (after the device's earlier work).
  void write(const T& value) const { raw_.write(0, &value, sizeof(T), nullptr); }
  /// Sets it in stream order; `value` must stay valid until the stream is done.
  void write(const T& value, const Stream& stream) const {
    raw_.write(0, &value, sizeof(T), &stream);
  }
  /// Sets elements [first, first + elements.size()) of an array variable; synchronous.
  void write(std::span<const element_type> elements,
             std::size_t first = 0) const requires std::is_array_v<T> {
    raw_.write(element_offset(first), elements.data(), elements.size_bytes(), nullptr);
  }
  /// The same in stream order; `elements` must stay valid until the stream is done.
  void write(std::span<const element_type> elements, std::size_t first,
             const Stream& stream) const requires std::is_array_v<T> {
    raw_.write(element_offset(first), elements.data(), elements.size_bytes(), &stream);
  }

  /// The variable's value; waits for the device's earlier work.
  template <class U = T>
  requires(!std::is_array_v<U>) [[nodiscard]] U read() const {
    U value;
    raw_.read(0, &value, sizeof(T), nullptr);
    return value;
  }
  /// Copies the variable into `out`; synchronous.
  void read(T& out) const { raw_.read(0, &out, sizeof(T), nullptr); }
  /// Copies it into `out` in stream order; `out` must stay valid until the stream is done.
  void read(T& out, const Stream& stream) const { raw_.read(0, &out, sizeof(T), &stream); }

  /// The variable's device address, to pass to a kernel's pointer parameter.
  [[nodiscard]] DevicePtr<element_type> ptr() const {
    return DevicePtr<element_type>::from_parts(raw_.device_impl(), raw_.address(),
                                               sizeof(T) / sizeof(element_type));
  }

 private:
  [[nodiscard]] static std::size_t element_offset(std::size_t first) {
    return detail::checked_bytes(first, sizeof(element_type), "Symbol::write");
  }
  detail::RawSymbol raw_;
};

template <class T>
Symbol<T> Program::symbol(std::string_view name, const Device& device) const {
  return Symbol<T>(detail::RawSymbol(shared_impl(), name, device, sizeof(T)));
}

}  // namespace kjit
