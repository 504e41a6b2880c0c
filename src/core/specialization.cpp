#include "core/specialization.hpp"

#include "source/kernel_parameters.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kjit::detail {

namespace {

/// A constant's value as C++ would print it, for messages.
std::string readable(const Constant& c) {
  switch (c.kind) {
    case Constant::Kind::boolean:
      return c.bits != 0 ? "true" : "false";
    case Constant::Kind::signed_integer:
      return fmt::format("{}", static_cast<std::int64_t>(c.bits));
    case Constant::Kind::unsigned_integer:
      return fmt::format("{}", c.bits);
    case Constant::Kind::floating:
      return c.size == 4
                 ? fmt::format("{}", std::bit_cast<float>(static_cast<std::uint32_t>(c.bits)))
                 : fmt::format("{}", std::bit_cast<double>(c.bits));
  }
  return {};
}

std::string dims(const Dim3& d) {
  return fmt::format("({}, {}, {})", d.x, d.y, d.z);
}

/// The definition of the constant array that stands for parameter `a.position` in a variant:
/// bytes, aligned for any element, from which loads through the parameter's type fold.
std::string array_definition(const ArrayConstant& a) {
  std::string text = fmt::format(
      "__constant__ const unsigned char __kjit_array_{}[{}] "
      "__attribute__((aligned(16))) = {{",
      a.position, a.bytes->size());
  for (std::size_t i = 0; i < a.bytes->size(); ++i) {
    text += fmt::format("{}{},", i % 32 == 0 ? "\n" : "",
                        static_cast<unsigned>(static_cast<unsigned char>((*a.bytes)[i])));
  }
  return text + "};\n";
}

}  // namespace

std::vector<std::size_t> Specialization::kept(std::size_t count) const {
  std::vector<std::size_t> kept;
  for (std::size_t p = 0; p < count; ++p) {
    if (std::none_of(constants.begin(), constants.end(),
                     [&](const Constant& c) { return c.position == p; }) &&
        std::none_of(arrays.begin(), arrays.end(),
                     [&](const ArrayConstant& a) { return a.position == p; })) {
      kept.push_back(p);
    }
  }
  return kept;
}

std::size_t Specialization::array_bytes() const {
  std::size_t total = 0;
  for (const ArrayConstant& a : arrays) {
    total += a.bytes->size();
  }
  return total;
}

Specialization Specialization::with(std::span<const Constant> more, std::optional<Dim3> fixed,
                                    std::size_t count, std::optional<Dim3> fixed_grid,
                                    std::span<const ArrayConstant> more_arrays) const {
  Specialization result = *this;
  const std::vector<std::size_t> open = kept(count);
  const auto opened = [&](std::size_t position) {
    if (position >= open.size()) {
      throw UsageError(fmt::format(
          "kjit: specialize(): parameter {} does not exist; the kernel takes {} parameters",
          position, open.size()));
    }
    return open[position];
  };
  for (Constant c : more) {
    c.position = opened(c.position);
    result.constants.push_back(c);
  }
  for (ArrayConstant a : more_arrays) {
    a.position = opened(a.position);
    result.arrays.push_back(std::move(a));
  }
  std::sort(result.constants.begin(), result.constants.end(),
            [](const Constant& a, const Constant& b) { return a.position < b.position; });
  std::sort(result.arrays.begin(), result.arrays.end(),
            [](const ArrayConstant& a, const ArrayConstant& b) { return a.position < b.position; });
  if (fixed) {
    if (block && *block != *fixed) {
      throw UsageError(fmt::format(
          "kjit: specialize_block{}: the kernel is specialised for blocks of {} already",
          dims(*fixed), dims(*block)));
    }
    result.block = fixed;
  }
  if (fixed_grid) {
    result.grid = fixed_grid;
  }
  return result;
}

std::string Specialization::describe() const {
  std::vector<std::string> parts;
  parts.reserve(constants.size() + 1);
  for (const Constant& c : constants) {
    parts.push_back(fmt::format("parameter {} = {}", c.position, readable(c)));
  }
  for (const ArrayConstant& a : arrays) {
    parts.push_back(fmt::format("parameter {} = an array of {} bytes (hash {:016x})", a.position,
                                a.bytes->size(), a.hash));
  }
  if (block) {
    parts.push_back("block " + dims(*block));
  }
  if (grid) {
    parts.push_back("grid " + dims(*grid));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string Specialization::key() const {
  std::string key;
  for (const Constant& c : constants) {
    key += fmt::format("p{}:{}{}:{:x};", c.position, static_cast<int>(c.kind), c.size, c.bits);
  }
  for (const ArrayConstant& a : arrays) {
    key += fmt::format("a{}:{}:{}:{:x};", a.position, a.element_size, a.bytes->size(), a.hash);
  }
  if (block) {
    key += fmt::format("b{}x{}x{}", block->x, block->y, block->z);
  }
  if (grid) {
    key += fmt::format("g{}x{}x{}", grid->x, grid->y, grid->z);
  }
  return key;
}

std::string constant_literal(const Constant& c) {
  switch (c.kind) {
    case Constant::Kind::boolean:
      return c.bits != 0 ? "true" : "false";
    case Constant::Kind::signed_integer: {
      const auto v = static_cast<std::int64_t>(c.bits);
      if (v == std::numeric_limits<std::int64_t>::min()) {
        return "(-9223372036854775807LL - 1)";
      }
      return v < 0 ? fmt::format("({}LL)", v) : fmt::format("{}LL", v);
    }
    case Constant::Kind::unsigned_integer:
      return fmt::format("{}ULL", c.bits);
    case Constant::Kind::floating:
      break;
  }
  // Finite values as hexadecimal literals (exact); infinities and NaNs by their bits.
  if (c.size == 4) {
    const auto bits = static_cast<std::uint32_t>(c.bits);
    const float f = std::bit_cast<float>(bits);
    return std::isfinite(f) ? fmt::format("({:a})", static_cast<double>(f))
                            : fmt::format("__int_as_float(static_cast<int>(0x{:08x}U))", bits);
  }
  const double d = std::bit_cast<double>(c.bits);
  return std::isfinite(d)
             ? fmt::format("({:a})", d)
             : fmt::format("__longlong_as_double(static_cast<long long>(0x{:016x}ULL))", c.bits);
}

namespace {

/// The variant kernel's parameters (those `spec` does not fix) and its call's arguments, in
/// `params` and `args`; returns the text they need before the kernel. A function's type forgets
/// its parameters' __restrict__: the variant's kernel spells it again at the positions
/// `restricted` that the kernel's declaration gives (kernel_parameters.hpp), on pointers only.
std::string variant_parameters(std::span<const std::size_t> restricted, std::size_t count,
                               const Specialization& spec, std::vector<std::string>& params,
                               std::vector<std::string>& args) {
  std::string text;
  if (!restricted.empty()) {
    text =
        "template <class T> struct __kjit_restrict { typedef T type; };\n"
        "template <class T> struct __kjit_restrict<T*> { typedef T* __restrict__ type; };\n";
  }
  auto constant = spec.constants.begin();
  auto array = spec.arrays.begin();
  for (std::size_t p = 0; p < count; ++p) {
    const std::string type = fmt::format("__kjit_kernel_type::param<{}>", p);
    if (constant != spec.constants.end() && constant->position == p) {
      args.push_back(fmt::format("static_cast<{}>({})", type, constant_literal(*constant)));
      ++constant;
    } else if (array != spec.arrays.end() && array->position == p) {
      args.push_back(fmt::format("({})(const void*)__kjit_array_{}", type, p));
      ++array;
    } else {
      params.push_back(std::ranges::binary_search(restricted, p)
                           ? fmt::format("__kjit_restrict<{}>::type p{}", type, p)
                           : fmt::format("{} p{}", type, p));
      args.push_back(fmt::format("p{}", p));
    }
  }
  return text;
}

}  // namespace

std::string variant_source(std::string_view source, std::string_view call, std::string_view address,
                           std::size_t count, const Specialization& spec,
                           std::optional<std::size_t> max_threads,
                           std::span<const std::string> headers,
                           const std::map<std::string, std::string, std::less<>>& defines) {
  std::string text = fmt::format(
      "// kjit: a variant of {} with {}.\n"
      "// The program's kernels become device functions; the variant's kernel is at the end.\n"
      "#undef __global__\n#define __global__ __device__\n"
      "#undef __launch_bounds__\n#define __launch_bounds__(...)\n"
      "#undef __grid_constant__\n#define __grid_constant__\n",
      call, spec.describe());
  if (spec.block) {
    text += fmt::format("#undef blockDim\n#define blockDim __KJIT_FIXED_BLOCK({}u, {}u, {}u)\n",
                        spec.block->x, spec.block->y, spec.block->z);
  }
  if (spec.grid) {
    text += fmt::format("#undef gridDim\n#define gridDim (dim3({}u, {}u, {}u))\n", spec.grid->x,
                        spec.grid->y, spec.grid->z);
  }
  text += "#line 1\n";
  text += source;
  if (!source.empty() && source.back() != '\n') {
    text += '\n';
  }
  text += fmt::format(
      "#line 1 \"kjit-variant\"\n"
      "template <int I, class... P> struct __kjit_nth;\n"
      "template <class H, class... T> struct __kjit_nth<0, H, T...> {{ typedef H type; }};\n"
      "template <int I, class H, class... T>\n"
      "struct __kjit_nth<I, H, T...> : __kjit_nth<I - 1, T...> {{}};\n"
      "template <class F> struct __kjit_signature;\n"
      "template <class R, class... P> struct __kjit_signature<R (*)(P...)> {{\n"
      "  template <int I> using param = typename __kjit_nth<I, P...>::type;\n"
      "}};\n"
      "template <class R, class... P> struct __kjit_signature<R (*)(P...) noexcept>\n"
      "    : __kjit_signature<R (*)(P...)> {{}};\n"
      "typedef __kjit_signature<decltype({})> __kjit_kernel_type;\n",
      address);
  for (const ArrayConstant& a : spec.arrays) {
    text += array_definition(a);
  }
  std::vector<std::string_view> texts{source};
  texts.insert(texts.end(), headers.begin(), headers.end());
  const source::KernelDeclaration declared =
      source::read_kernel_declaration(texts, call, count, defines);
  std::vector<std::string> params;
  std::vector<std::string> args;
  text += variant_parameters(declared.restricted, count, spec, params, args);
  // The kernel's own bounds when it declares them (with their minimum of blocks, which sets how
  // many registers a thread may have); else each backend's prelude says whether bounds of so many
  // threads are worth writing.
  const std::optional<std::size_t> threads = spec.block ? spec.block->volume() : max_threads;
  if (!declared.launch_bounds.empty()) {
    text += fmt::format("#define __KJIT_VARIANT_BOUNDS __KJIT_DECLARED_BOUNDS({})\n",
                        declared.launch_bounds);
  } else if (threads) {
    text += fmt::format(
        "#if __KJIT_BOUNDS_MATTER({0})\n#define __KJIT_VARIANT_BOUNDS __KJIT_LAUNCH_BOUNDS({0})\n"
        "#else\n#define __KJIT_VARIANT_BOUNDS\n#endif\n",
        *threads);
  } else {
    text += "#define __KJIT_VARIANT_BOUNDS\n";
  }
  text += fmt::format(
      "extern \"C\" __KJIT_KERNEL void __KJIT_VARIANT_BOUNDS {}({}) {{\n"
      "  __KJIT_INLINE_CALL {}({});\n}}\n",
      kVariantKernel, fmt::join(params, ", "), call, fmt::join(args, ", "));
  return text;
}

}  // namespace kjit::detail
