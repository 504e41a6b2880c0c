// kjit::Kernel<Params...>: a compiled kernel with a typed launch.
#pragma once

#include <kjit/detail/arguments.hpp>
#include <kjit/detail/specialization.hpp>
#include <kjit/device.hpp>
#include <kjit/export.hpp>
#include <kjit/program.hpp>
#include <kjit/stream.hpp>
#include <kjit/types.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace kjit {

class Graph;
namespace detail {
class GraphImpl;
KJIT_API const std::string& kernel_name(const KernelImpl& kernel);
KJIT_API Device kernel_device(const KernelImpl& kernel);
KJIT_API void wait_for_variants(const KernelImpl& kernel);
KJIT_API void set_graph_arguments(GraphImpl& graph, std::size_t launch, const KernelImpl& kernel,
                                  const KernelArg* args, std::size_t count);
}  // namespace detail

/// A kernel of a Program compiled for one device, with parameter types Params. Cheap to copy;
/// keeps its compiled code alive. launch() may be called from several threads at once.
///
/// Each argument must convert to its parameter at compile time: values convert as in a function
/// call; a T* parameter takes a DeviceBuffer<T>, a DevicePtr<T>, a std::span<T> (copied to the
/// device before and back after the launch, which then waits for the stream), or nullptr; a
/// const T* parameter also takes a const DeviceBuffer<T>, DevicePtr<const T>, std::span<const T>.
template <class... Params>
class Kernel {
 public:
  Kernel() noexcept = default;
  explicit Kernel(std::shared_ptr<detail::KernelImpl> impl) noexcept : impl_(std::move(impl)) {}

  /// Enqueues the kernel on the device's default stream.
  template <class... Args>
  void launch(const LaunchConfig& config, Args&&... args) const {
    launch_on(nullptr, config, std::forward<Args>(args)...);
  }
  /// Enqueues the kernel on `stream`, which must belong to the kernel's device.
  template <class... Args>
  void launch(const Stream& stream, const LaunchConfig& config, Args&&... args) const {
    launch_on(&stream, config, std::forward<Args>(args)...);
  }

  /// A variant of this kernel with parameters I... fixed to `values` (one each, in the order of
  /// I...), which the compiler folds into the code: loop bounds, strides, coefficients become
  /// constants. It takes the other parameters, in their order:
  ///   Kernel<int, float, const float*, float*> saxpy = ...;
  ///   Kernel<const float*, float*> fixed = saxpy.specialize<0, 1>(n, 2.5f);
  /// Fixes parameters of arithmetic or enum type. Compiled on first use per device and set of
  /// values (a few hundred milliseconds; then from the disk cache), kept in memory up to
  /// CompileOptions::max_variants per kernel. A variant is a module of its own: Program::symbol
  /// writes reach it, but __device__ variables that its kernels write are its own copies.
  /// Throws what Program::kernel throws, and UsageError for a program from bitcode.
  template <std::size_t... I, class... V>
  [[nodiscard]] auto specialize(const V&... values) const ->
      typename detail::variant_kernel<std::tuple<Params...>, I...>::type {
    static_assert(sizeof...(I) > 0 && sizeof...(I) == sizeof...(V),
                  "kjit: specialize<I...>(values...) takes one value per position I");
    static_assert(detail::valid_positions<sizeof...(Params), I...>(),
                  "kjit: specialize<I...>: positions must be distinct parameter indices");
    using All = std::tuple<Params...>;
    const std::array<detail::Constant, sizeof...(I)> constants{
        detail::make_constant<std::tuple_element_t<I, All>>(I, values)...};
    using Variant = typename detail::variant_kernel<All, I...>::type;
    return Variant(detail::specialize_kernel(checked_impl(), constants, std::nullopt));
  }
  /// A variant of this kernel with pointer parameter I replaced by a constant array holding
  /// `contents` (a small read-only table: coefficients, weights, a stencil): loads at constant
  /// indices fold into the code, the others read constant memory on GPUs. It takes the other
  /// parameters, in their order:
  ///   Kernel<const float*, const float*, float*, int> poly = ...;  // coefficients first
  ///   Kernel<const float*, float*, int> fixed = poly.specialize_array<0>(coefficients);
  /// The variant holds its own copy of `contents`: later changes to them do not reach it;
  /// specialising again with new contents gives another variant (one per contents, kept like
  /// specialize()'s, by a hash of the bytes). The kernel must only read through the pointer.
  /// UsageError for an empty span or one of more than 32 KiB.
  template <std::size_t I>
  [[nodiscard]] auto specialize_array(
      std::span<const std::remove_cv_t<
          std::remove_pointer_t<std::tuple_element_t<I, std::tuple<Params...>>>>>
          contents) const -> typename detail::variant_kernel<std::tuple<Params...>, I>::type {
    using Param = std::tuple_element_t<I, std::tuple<Params...>>;
    static_assert(std::is_pointer_v<Param>,
                  "kjit: specialize_array<I>: parameter I must be a pointer");
    using Element = std::remove_cv_t<std::remove_pointer_t<Param>>;
    static_assert(std::is_trivially_copyable_v<Element> && !std::is_void_v<Element>,
                  "kjit: specialize_array<I>: the elements must be trivially copyable");
    using Variant = typename detail::variant_kernel<std::tuple<Params...>, I>::type;
    return Variant(detail::specialize_kernel_array(
        checked_impl(), detail::ConstantArray{I, sizeof(Element), std::as_bytes(contents)}));
  }
  /// A variant compiled for blocks of exactly `block` threads: blockDim is a constant in its code
  /// and it gets launch bounds (__launch_bounds__) of block.volume(). Launching it with another
  /// block is a LaunchError. Combines with specialize(), in either order.
  [[nodiscard]] Kernel specialize_block(Dim3 block) const {
    return Kernel(detail::specialize_kernel(checked_impl(), {}, block));
  }

  [[nodiscard]] const std::string& name() const { return detail::kernel_name(checked()); }
  [[nodiscard]] Device device() const { return detail::kernel_device(checked()); }
  /// For a kernel annotated with annotate("jit", ...): waits until the variants that its
  /// launches started compiling in the background are ready (later launches run them) or have
  /// failed (logged; those values keep running the kernel itself). Returns at once otherwise.
  void wait_for_variants() const { detail::wait_for_variants(checked()); }
  [[nodiscard]] explicit operator bool() const noexcept { return impl_ != nullptr; }

 private:
  [[nodiscard]] const detail::KernelImpl& checked() const {
    if (!impl_) {
      throw UsageError("kjit: use of an empty Kernel (default-constructed or moved-from)");
    }
    return *impl_;
  }
  [[nodiscard]] const std::shared_ptr<detail::KernelImpl>& checked_impl() const {
    (void)checked();
    return impl_;
  }

  template <class... Args>
  void launch_on(const Stream* stream, const LaunchConfig& config, Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "kjit: launch() needs exactly one argument per kernel parameter");
    bind<true>(
        stream, std::index_sequence_for<Params...>{},
        [&](const detail::KernelImpl& kernel, const auto& packed) {
          detail::launch_kernel(kernel, stream, config, packed.data(), packed.size());
        },
        std::forward<Args>(args)...);
  }

  friend class Graph;
  /// Graph::set_arguments' work: the arguments bound as a launch binds them.
  template <class... Args>
  void set_in_graph(detail::GraphImpl& graph, std::size_t launch, Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "kjit: set_arguments() needs exactly one argument per kernel parameter");
    bind<false>(
        nullptr, std::index_sequence_for<Params...>{},
        [&](const detail::KernelImpl& kernel, const auto& packed) {
          detail::set_graph_arguments(graph, launch, kernel, packed.data(), packed.size());
        },
        std::forward<Args>(args)...);
  }

  /// Checks and converts `args` (host spans staged on `stream` where `Spans`, else a compile
  /// error), passes them packed to `use`, then copies staged spans back and waits.
  template <bool Spans, std::size_t... I, class Use, class... Args>
  void bind(const Stream* stream, std::index_sequence<I...> /*positions*/, Use&& use,
            Args&&... args) const {
    constexpr bool stages = (detail::Bound<I, Params, Args>::stages || ...);
    static_assert(Spans || !stages,
                  "kjit: a graph's launch cannot take a host span (it is copied in and out at "
                  "each launch); pass a DeviceBuffer");
    const detail::KernelImpl& kernel = checked();
    const detail::StagingContext staging(kernel, stream);
    std::tuple<detail::Bound<I, Params, Args>...> bound{
        detail::Bound<I, Params, Args>(staging, std::forward<Args>(args))...};
    const std::array<detail::KernelArg, sizeof...(Params)> packed{std::get<I>(bound).arg()...};
    std::forward<Use>(use)(kernel, packed);
    if constexpr (stages) {
      (std::get<I>(bound).finish(staging), ...);
      staging.finish();
    }
  }

  std::shared_ptr<detail::KernelImpl> impl_;
};

template <class... Params>
Kernel<Params...> Program::kernel(std::string_view name, const Device& device) const {
  static_assert((!std::is_reference_v<Params> && ...),
                "kjit: kernel parameters are values or pointers, never references");
  static_assert(((std::is_pointer_v<Params> || DeviceCopyable<Params>)&&...),
                "kjit: a kernel parameter passed by value must be trivially copyable");
  static constexpr std::array<std::size_t, sizeof...(Params)> sizes{sizeof(Params)...};
  return Kernel<Params...>(
      find_kernel(name, device, sizes, &detail::parameter_spellings<Params...>));
}

}  // namespace kjit
