// The declarations of a kernel file, read from its tokens without a compiler: each one at
// namespace scope (inside namespaces and linkage blocks too) and each member of a class body,
// with the names it declares and where its body is. The host-code analysis (device_reach.hpp)
// decides from them what device code needs; what it does not need is erased (host_code.hpp).
#pragma once

#include "source/source_tokens.hpp"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::source {

struct Declaration {
  enum class Kind : unsigned char {
    function,   // a function definition: its body is [body, end]
    prototype,  // a function declaration without a body
    type,       // a class, struct, union or enum (its body, if any, opens at `body`)
    other,      // variables, typedefs, aliases, forward declarations, instantiations
  };
  Kind kind = Kind::other;
  std::size_t head = 0;  // its first token
  std::size_t end = 0;   // its last token: the ';', or a function body's '}'
  std::size_t body = 0;  // the '{' of a function's or a class's body; `end` if it has none
  /// What it declares: a function's name ("operator" for every operator), a class's, its
  /// enumerators, each declarator's. Empty when no name could be read: such a declaration stays.
  std::vector<std::string_view> names;
  std::string_view qualifier;         // "Foo" of a member defined outside its class (Foo::f)
  std::optional<std::size_t> parent;  // the class declaration it is a member of
  /// A constructor, destructor, operator, conversion, virtual or friend function: used without
  /// being named, so it stays whenever its class (or, at namespace scope, its types) stays.
  bool special = false;
  bool always = false;  // static_assert, asm, and what has no name that could be read
  /// A using-directive (`using namespace a::b;`): `names` holds the namespace's own name ("b").
  bool using_namespace = false;
  bool instantiation = false;    // an explicit instantiation (`template void f<int>(int*);`)
  bool macro_statement = false;  // an invocation of one of the StatementMacros
};

struct FileDeclarations {
  std::vector<SourceToken> tokens;
  std::vector<Declaration> declarations;     // in the file's order; a class before its members
  std::vector<std::string_view> namespaces;  // the names of the namespaces it opens
};

/// Names of function-like macros whose replacement is a declaration of its own (holds a "{" or
/// a ";"): an invocation of one at the start of a declaration is a declaration by itself
/// (`BIND(add)` on its line, with no semicolon after it).
using StatementMacros = std::set<std::string, std::less<>>;

/// The declarations of `text`, or nullopt when it cannot be read reliably (unbalanced braces, an
/// unterminated comment or literal).
std::optional<FileDeclarations> read_declarations(std::string_view text,
                                                  const StatementMacros& statement_macros = {});

}  // namespace kjit::source
