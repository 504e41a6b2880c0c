// Runtime specialisation: which arguments of a kernel a variant fixes, and the source a variant is
// compiled from. The program's own text is compiled again with its kernels demoted to device
// functions, followed by one new kernel that calls the chosen one with the fixed values as
// literals (and, for a fixed block, blockDim as a constant and launch bounds; for a fixed grid,
// gridDim as a constant). Every backend's
// compiler then folds the values as it would constants written in the source.
#pragma once

#include <kjit/detail/specialization.hpp>
#include <kjit/types.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::detail {

/// The name of a variant's one kernel (extern "C").
inline constexpr std::string_view kVariantKernel = "__kjit_variant";

/// A pointer parameter that a variant replaces by a constant array of these bytes.
struct ArrayConstant {
  std::size_t position = 0;
  std::size_t element_size = 0;
  std::shared_ptr<const std::string> bytes;
  std::uint64_t hash = 0;  // of the bytes: tells variants apart in the in-memory table
};

/// What a variant fixes, against the parameters of the unspecialised kernel.
struct Specialization {
  std::vector<Constant> constants;    // sorted by position
  std::vector<ArrayConstant> arrays;  // sorted by position
  std::optional<Dim3> block;
  std::optional<Dim3> grid;  // only launches fix it (annotated kernels)

  [[nodiscard]] bool empty() const noexcept {
    return constants.empty() && arrays.empty() && !block && !grid;
  }
  /// The unspecialised kernel's parameters that this leaves to the launch, of `count`.
  [[nodiscard]] std::vector<std::size_t> kept(std::size_t count) const;
  /// This with `more` added, whose positions count the `kept(count)` parameters, the block
  /// `fixed` and the grid `fixed_grid`. UsageError when `fixed` differs from a block fixed already.
  [[nodiscard]] Specialization with(std::span<const Constant> more, std::optional<Dim3> fixed,
                                    std::size_t count,
                                    std::optional<Dim3> fixed_grid = std::nullopt,
                                    std::span<const ArrayConstant> more_arrays = {}) const;
  /// The bytes that the arrays hold, together.
  [[nodiscard]] std::size_t array_bytes() const;
  /// "parameter 1 = 1000, parameter 3 = 2.5, block (128, 1, 1), grid (64, 1, 1)", for messages.
  [[nodiscard]] std::string describe() const;
  /// Exact and unique text (values as bits), for the in-memory table of variants.
  [[nodiscard]] std::string key() const;
};

/// A C++ expression of `c`'s type's value, exact in every backend (casts to the parameter's type
/// are the caller's).
[[nodiscard]] std::string constant_literal(const Constant& c);

/// The source of a variant of the kernel that `call` names ("saxpy<float>", "ns::scale") and
/// `address` designates ("&saxpy<float>", or a cast that picks an overload), which takes `count`
/// parameters, made from the program's text `source`. Its launch bounds: the fixed block's
/// volume, else `max_threads`, the kernel's own limit where it has one (the variant must launch
/// wherever the kernel does: its __launch_bounds__ are gone with its __global__). `headers`: the
/// texts of the headers `source` includes, where the kernel may be declared; `defines`: the
/// program's, for conditionals inside the kernel's parameter list.
[[nodiscard]] std::string variant_source(
    std::string_view source, std::string_view call, std::string_view address, std::size_t count,
    const Specialization& spec, std::optional<std::size_t> max_threads = std::nullopt,
    std::span<const std::string> headers = {},
    const std::map<std::string, std::string, std::less<>>& defines = {});

}  // namespace kjit::detail
