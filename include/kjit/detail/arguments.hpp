// How each launch argument is checked at compile time and passed to a kernel parameter.
// Internal to kjit's templates; users see these names only in compiler messages, where
// ArgumentCheck<position, Parameter, Argument> says which argument failed and why.
#pragma once

#include <kjit/device_copyable.hpp>
#include <kjit/export.hpp>
#include <kjit/memory.hpp>
#include <kjit/types.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

namespace kjit {
class Stream;
}

namespace kjit::detail {

class DeviceImpl;
class KernelImpl;
class StreamImpl;

/// One argument as the core receives it: the bytes to pass, and where a device address came from.
struct KernelArg {
  enum class Kind : std::uint8_t { value, device_address, null_pointer, moved_from_buffer };
  const void* value = nullptr;
  std::size_t size = 0;
  const DeviceImpl* device = nullptr;  // the device owning the address (device_address only)
  Kind kind = Kind::value;
};

static_assert(sizeof(void*) == sizeof(std::uint64_t), "kjit supports 64-bit hosts only");

template <class T>
struct is_device_buffer : std::false_type {};
template <class T>
struct is_device_buffer<DeviceBuffer<T>> : std::true_type {};
template <class T>
struct is_device_buffer<ManagedBuffer<T>> : std::true_type {};
template <class T>
struct is_device_ptr : std::false_type {};
template <class T>
struct is_device_ptr<DevicePtr<T>> : std::true_type {};
template <class T>
struct is_span : std::false_type {};
template <class T, std::size_t E>
struct is_span<std::span<T, E>> : std::true_type {};

/// The element type an argument refers to, const-qualified when the argument grants read only.
template <class Arg, class A = std::remove_cvref_t<Arg>>
struct referenced_element {
  using type = void;
};
template <class Arg, class T>
struct referenced_element<Arg, DeviceBuffer<T>> {
  using type = std::conditional_t<std::is_const_v<std::remove_reference_t<Arg>>, const T, T>;
};
template <class Arg, class T>
struct referenced_element<Arg, ManagedBuffer<T>> : referenced_element<Arg, DeviceBuffer<T>> {};
template <class Arg, class T>
struct referenced_element<Arg, DevicePtr<T>> {
  using type = T;
};
template <class Arg, class T, std::size_t E>
struct referenced_element<Arg, std::span<T, E>> {
  using type = T;
};

enum class ArgForm { value, buffer, device_ptr, host_span, null_pointer };

/// Compile-time check of argument `Pos` (0-based) against kernel parameter type `Param`.
/// Each static_assert below names one rule of the launch contract.
template <std::size_t Pos, class Param, class Arg>
struct ArgumentCheck {
  using A = std::remove_cvref_t<Arg>;
  static constexpr bool param_is_pointer = std::is_pointer_v<Param>;
  static constexpr bool arg_is_memory =
      is_device_buffer<A>::value || is_device_ptr<A>::value || is_span<A>::value;
  using Pointee = std::remove_pointer_t<Param>;
  using Element = typename referenced_element<Arg>::type;

  static_assert(!std::is_reference_v<Param>,
                "kjit: a kernel parameter cannot be a reference; kernels take values and pointers");
  static_assert(param_is_pointer || DeviceCopyable<Param>,
                "kjit: a kernel parameter passed by value must be trivially copyable");
  static_assert(!(param_is_pointer && std::is_pointer_v<A>),
                "kjit: a raw host pointer cannot be passed for a kernel pointer parameter; pass a "
                "DeviceBuffer<T>, a DevicePtr<T>, or a std::span<T> (copied in and out)");
  static_assert(!(!param_is_pointer && (arg_is_memory || std::is_same_v<A, std::nullptr_t>)),
                "kjit: device memory (DeviceBuffer, DevicePtr, span) can only be passed for a "
                "pointer parameter");
  static_assert(!param_is_pointer || std::is_pointer_v<A> || arg_is_memory ||
                    std::is_same_v<A, std::nullptr_t>,
                "kjit: a kernel pointer parameter takes a DeviceBuffer<T>, a DevicePtr<T>, a "
                "std::span<T> or nullptr");
  static_assert(!(param_is_pointer && arg_is_memory) ||
                    std::is_same_v<std::remove_cv_t<Element>, std::remove_cv_t<Pointee>>,
                "kjit: the element type of the buffer, pointer or span differs from the type the "
                "kernel parameter points to");
  static_assert(!(param_is_pointer && arg_is_memory) || !std::is_const_v<Element> ||
                    std::is_const_v<Pointee>,
                "kjit: read-only memory (a const DeviceBuffer, DevicePtr<const T>, "
                "std::span<const T>) can only be passed for a const T* parameter");
  static_assert(param_is_pointer || arg_is_memory || std::is_convertible_v<Arg, Param>,
                "kjit: the argument does not convert to the kernel parameter's type");

  static constexpr ArgForm form = !param_is_pointer            ? ArgForm::value
                                  : is_device_buffer<A>::value ? ArgForm::buffer
                                  : is_device_ptr<A>::value    ? ArgForm::device_ptr
                                  : is_span<A>::value          ? ArgForm::host_span
                                                               : ArgForm::null_pointer;
};

/// Staging for host spans: temporary device buffers, copied in before and out after a launch.
class KJIT_API StagingContext {
 public:
  StagingContext(const KernelImpl& kernel, const Stream* stream);
  /// A device buffer holding a copy of `bytes` of host data, ordered on the launch's stream.
  RawBuffer stage_in(const void* host, std::size_t bytes) const;
  /// Enqueues the copy of a staged buffer back to the host.
  void stage_out(const RawBuffer& staged, void* host, std::size_t bytes) const;
  /// Waits for the launch and the copies (the host spans are then up to date).
  void finish() const;

 private:
  [[nodiscard]] Stream stream() const;  // the launch's stream: the given one or the default
  const KernelImpl& kernel_;
  const Stream* stream_;
};

/// The value a launch passes for one parameter, alive for the duration of launch().
template <class Param, class Arg, ArgForm Form>
class BoundArgument;

template <class Param, class Arg>
class BoundArgument<Param, Arg, ArgForm::value> {
 public:
  static constexpr bool stages = false;
  BoundArgument(const StagingContext& /*staging*/, Arg&& arg)
      : value_(convert(std::forward<Arg>(arg))) {}
  [[nodiscard]] KernelArg arg() const {
    return {&value_, sizeof(Param), nullptr, KernelArg::Kind::value};
  }
  void finish(const StagingContext& /*staging*/) {}

 private:
  // Copy-initialisation, so the conversions allowed are those of a function call.
  static Param convert(Arg&& arg) { return std::forward<Arg>(arg); }
  Param value_;
};

template <class Param, class Arg>
class BoundArgument<Param, Arg, ArgForm::buffer> {
 public:
  static constexpr bool stages = false;
  BoundArgument(const StagingContext& /*staging*/, Arg&& arg)
      : address_(arg.raw().address()), device_(arg.raw().device_impl()) {}
  [[nodiscard]] KernelArg arg() const {
    return {
        &address_, sizeof(Param), device_,
        device_ != nullptr ? KernelArg::Kind::device_address : KernelArg::Kind::moved_from_buffer};
  }
  void finish(const StagingContext& /*staging*/) {}

 private:
  std::uint64_t address_;
  const DeviceImpl* device_;
};

template <class Param, class Arg>
class BoundArgument<Param, Arg, ArgForm::device_ptr> {
 public:
  static constexpr bool stages = false;
  BoundArgument(const StagingContext& /*staging*/, Arg&& arg)
      : address_(arg.address()), device_(arg.device_impl()) {}
  [[nodiscard]] KernelArg arg() const {
    return {&address_, sizeof(Param), device_,
            address_ != 0 ? KernelArg::Kind::device_address : KernelArg::Kind::null_pointer};
  }
  void finish(const StagingContext& /*staging*/) {}

 private:
  std::uint64_t address_;
  const DeviceImpl* device_;
};

template <class Param, class Arg>
class BoundArgument<Param, Arg, ArgForm::null_pointer> {
 public:
  static constexpr bool stages = false;
  BoundArgument(const StagingContext& /*staging*/, Arg&& /*arg*/) {}
  [[nodiscard]] KernelArg arg() const {
    return {&address_, sizeof(Param), nullptr, KernelArg::Kind::null_pointer};
  }
  void finish(const StagingContext& /*staging*/) {}

 private:
  std::uint64_t address_ = 0;
};

template <class Param, class Arg>
class BoundArgument<Param, Arg, ArgForm::host_span> {
 public:
  static constexpr bool stages = true;
  BoundArgument(const StagingContext& staging, Arg&& arg)
      : host_(arg.data()),
        bytes_(arg.size_bytes()),
        staged_(staging.stage_in(host_, bytes_)),
        address_(staged_.address()) {}
  [[nodiscard]] KernelArg arg() const {
    return {&address_, sizeof(Param), staged_.device_impl(), KernelArg::Kind::device_address};
  }
  void finish(const StagingContext& staging) {
    if constexpr (!std::is_const_v<std::remove_pointer_t<Param>> &&
                  !std::is_const_v<typename referenced_element<Arg>::type>) {
      staging.stage_out(staged_, const_cast<void*>(host_), bytes_);
    }
  }

 private:
  const void* host_;
  std::size_t bytes_;
  RawBuffer staged_;
  std::uint64_t address_;
};

template <std::size_t Pos, class Param, class Arg>
using Bound = BoundArgument<Param, Arg, ArgumentCheck<Pos, Param, Arg>::form>;

/// Validates the arguments against the kernel (devices, moved-from buffers) and launches.
/// `stream` may be null for the device's default stream.
KJIT_API void launch_kernel(const KernelImpl& kernel, const Stream* stream,
                            const LaunchConfig& config, const KernelArg* args, std::size_t count);

}  // namespace kjit::detail
