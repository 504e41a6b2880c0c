// C++ spellings of kernel parameter types ("const float*"), so that a template kernel asked for
// by its plain name can be instantiated from the parameter types given to Program::kernel<>.
// Internal to kjit's templates.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

namespace kjit::detail {

/// The spelling of T, or "" for a type kjit cannot name in kernel source (a struct: its name on
/// the host side may differ from the kernel's).
template <class T>
std::string type_spelling() {
  if constexpr (std::is_pointer_v<T>) {
    const std::string pointee = type_spelling<std::remove_pointer_t<T>>();
    const std::string self = pointee.empty() ? "" : pointee + "*";
    return self.empty() || !std::is_const_v<T> ? self : self + " const";
  } else if constexpr (std::is_const_v<T>) {
    const std::string inner = type_spelling<std::remove_const_t<T>>();
    return inner.empty() ? "" : "const " + inner;
  } else if constexpr (std::is_same_v<T, void>) {
    return "void";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "bool";
  } else if constexpr (std::is_same_v<T, char>) {
    return "char";
  } else if constexpr (std::is_same_v<T, signed char>) {
    return "signed char";
  } else if constexpr (std::is_same_v<T, unsigned char>) {
    return "unsigned char";
  } else if constexpr (std::is_same_v<T, short>) {
    return "short";
  } else if constexpr (std::is_same_v<T, unsigned short>) {
    return "unsigned short";
  } else if constexpr (std::is_same_v<T, int>) {
    return "int";
  } else if constexpr (std::is_same_v<T, unsigned>) {
    return "unsigned int";
  } else if constexpr (std::is_same_v<T, long>) {
    return "long";
  } else if constexpr (std::is_same_v<T, unsigned long>) {
    return "unsigned long";
  } else if constexpr (std::is_same_v<T, long long>) {
    return "long long";
  } else if constexpr (std::is_same_v<T, unsigned long long>) {
    return "unsigned long long";
  } else if constexpr (std::is_same_v<T, float>) {
    return "float";
  } else if constexpr (std::is_same_v<T, double>) {
    return "double";
  } else {
    return "";
  }
}

/// The spellings of a parameter list; called only when a plain name needs resolving by types.
template <class... Params>
std::vector<std::string> parameter_spellings() {
  return {type_spelling<Params>()...};
}

using ParameterSpellings = std::vector<std::string> (*)();

}  // namespace kjit::detail
