// Runtime specialisation's compile-time half (Kernel::specialize): each fixed argument as the core
// receives it, and the parameter list a variant keeps. Internal to kjit's templates.
#pragma once

#include <kjit/export.hpp>
#include <kjit/types.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

namespace kjit {
template <class... Params>
class Kernel;
}

namespace kjit::detail {

class KernelImpl;

/// A kernel argument fixed at compile time: which parameter, and its value's bits.
struct Constant {
  enum class Kind : std::uint8_t { boolean, signed_integer, unsigned_integer, floating };
  std::size_t position = 0;  // among the parameters of the kernel specialize() was called on
  Kind kind = Kind::signed_integer;
  std::size_t size = 0;    // bytes of the parameter's type
  std::uint64_t bits = 0;  // integers sign- or zero-extended to 64 bits; floats' IEEE bits
};

/// A pointer argument replaced by a constant array of `bytes` (Kernel::specialize_array).
struct ConstantArray {
  std::size_t position = 0;      // among the parameters of the kernel it was called on
  std::size_t element_size = 0;  // bytes of the pointed-to type
  std::span<const std::byte> bytes;
};

/// The most bytes one variant's arrays may hold: they go to constant memory on GPUs (64 KiB per
/// module, shared with the program's own __constant__ variables).
inline constexpr std::size_t kMaxConstantArrayBytes = std::size_t{32} * 1024;

/// Parameter types specialize() can fix: those whose values are C++ literals in every backend.
template <class T>
inline constexpr bool specializable_parameter =
    (std::is_arithmetic_v<T> || std::is_enum_v<T>)&&!std::is_same_v<T, long double>;

template <class Param, class Value>
Constant make_constant(std::size_t position, const Value& value) {
  using P = std::remove_cv_t<Param>;
  static_assert(specializable_parameter<P>,
                "kjit: specialize() fixes parameters of arithmetic or enum type only");
  static_assert(std::is_convertible_v<const Value&, P>,
                "kjit: a specialize() value must convert to its parameter's type");
  Constant c{position, Constant::Kind::signed_integer, sizeof(P), 0};
  if constexpr (!specializable_parameter<P> || !std::is_convertible_v<const Value&, P>) {
    return c;  // refused above; no further errors
  } else if constexpr (std::is_same_v<P, bool>) {
    c.bits = static_cast<bool>(value) ? 1 : 0;
    c.kind = Constant::Kind::boolean;
  } else if constexpr (std::is_floating_point_v<P>) {
    static_assert(sizeof(P) == 4 || sizeof(P) == 8, "kjit: float and double only");
    c.kind = Constant::Kind::floating;
    using Bits = std::conditional_t<sizeof(P) == 4, std::uint32_t, std::uint64_t>;
    c.bits = std::bit_cast<Bits>(static_cast<P>(value));
  } else {
    using U = typename std::conditional_t<std::is_enum_v<P>, std::underlying_type<P>,
                                          std::type_identity<P>>::type;
    const U u = static_cast<U>(static_cast<P>(value));
    if constexpr (std::is_signed_v<U>) {
      c.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(u));
    } else {
      c.kind = Constant::Kind::unsigned_integer;
      c.bits = static_cast<std::uint64_t>(u);
    }
  }
  return c;
}

/// `kernel` with `constants` fixed and, when set, blocks of exactly `block`: compiled once per
/// device and set of values (program_variants.cpp).
KJIT_API std::shared_ptr<KernelImpl> specialize_kernel(const std::shared_ptr<KernelImpl>& kernel,
                                                       std::span<const Constant> constants,
                                                       std::optional<Dim3> block);

/// `kernel` with the pointer parameter `array.position` replaced by a constant array of
/// `array.bytes`: compiled once per device and contents (program_variants.cpp).
KJIT_API std::shared_ptr<KernelImpl> specialize_kernel_array(
    const std::shared_ptr<KernelImpl>& kernel, const ConstantArray& array);

/// Whether positions I... are distinct and below N.
template <std::size_t N, std::size_t... I>
constexpr bool valid_positions() {
  const std::array<std::size_t, sizeof...(I)> positions{I...};
  for (std::size_t a = 0; a < positions.size(); ++a) {
    if (positions[a] >= N) {
      return false;
    }
    for (std::size_t b = a + 1; b < positions.size(); ++b) {
      if (positions[a] == positions[b]) {
        return false;
      }
    }
  }
  return true;
}

/// The positions 0..N-1 that are not among I..., in order.
template <std::size_t N, std::size_t... I>
constexpr std::array<std::size_t, N - sizeof...(I)> kept_positions() {
  std::array<std::size_t, N - sizeof...(I)> kept{};
  std::size_t next = 0;
  for (std::size_t p = 0; p < N; ++p) {
    if (((p != I) && ...)) {
      kept[next++] = p;
    }
  }
  return kept;
}

/// Kernel<the parameters of Params... other than I...>.
template <class Params, class Kept>
struct kernel_keeping;
template <class... Params, std::size_t... K>
struct kernel_keeping<std::tuple<Params...>, std::index_sequence<K...>> {
  using type = Kernel<std::tuple_element_t<K, std::tuple<Params...>>...>;
};
template <class Params, std::size_t... I>
struct variant_kernel {
  static constexpr std::size_t N = std::tuple_size_v<Params>;
  static constexpr auto kept = kept_positions<N, I...>();
  template <std::size_t... J>
  static auto keep(std::index_sequence<J...> /*kept indices*/)
      -> kernel_keeping<Params, std::index_sequence<kept[J]...>>;
  using type = typename decltype(keep(std::make_index_sequence<kept.size()>{}))::type;
};

}  // namespace kjit::detail
