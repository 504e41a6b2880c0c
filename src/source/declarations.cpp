#include "source/declarations.hpp"

#include <algorithm>
#include <iterator>

namespace kjit::source {

namespace {

using Kind = SourceToken::Kind;

// Tokens that may follow a function's parameter list before its body.
constexpr std::string_view kTrailing[] = {"const", "volatile", "noexcept", "override",
                                          "final", "&",        "&&",       "mutable"};

// Words before a "(" that make it no declarator's parameter list: keywords and attributes.
// clang-format off
constexpr std::string_view kNotNames[] = {
    "if", "while", "for", "switch", "return", "sizeof", "alignof", "decltype", "alignas",
    "noexcept", "throw", "static_assert", "__attribute__", "__declspec", "__align__",
    "__launch_bounds__", "__builtin_align__", "__maxnreg__", "const", "volatile", "override",
    "final", "mutable", "int", "unsigned", "signed", "char", "short", "long", "float", "double",
    "bool", "void", "auto", "typename", "class", "struct", "template", "requires", "asm",
    "__asm__"};
// clang-format on

bool not_a_name(std::string_view w) {
  return std::find(std::begin(kNotNames), std::end(kNotNames), w) != std::end(kNotNames);
}

bool is_class_key(std::string_view w) {
  return w == "class" || w == "struct" || w == "union" || w == "enum";
}

class Reader {
 public:
  Reader(std::string_view source, const std::vector<SourceToken>& tokens,
         const StatementMacros& statement_macros)
      : s_(source), t_(tokens), statement_macros_(statement_macros) {}

  bool run() { return read_scope(0, t_.size(), std::nullopt); }
  std::vector<Declaration> take() { return std::move(out_); }

 private:
  enum class Head { scope, function, member_init, other };

  [[nodiscard]] std::string_view text(std::size_t i) const { return t_[i].text(s_); }
  [[nodiscard]] bool is(std::size_t i, std::string_view w) const {
    return i < t_.size() && text(i) == w;
  }
  [[nodiscard]] bool identifier(std::size_t i) const {
    return i < t_.size() && t_[i].kind == Kind::identifier;
  }

  /// Reads the declarations in [begin, end): namespace scope (with the namespaces and linkage
  /// blocks in it) when `parent` is empty, else the body of class `parent`.
  bool read_scope(std::size_t begin, std::size_t end, std::optional<std::size_t> parent) {
    std::size_t head = begin;
    std::size_t depth = 0;  // namespaces and linkage blocks open
    for (std::size_t i = begin; i < end; ++i) {
      const std::string_view w = text(i);
      if (parent && i == head && is(i + 1, ":") &&
          (w == "public" || w == "private" || w == "protected")) {
        head = i + 2;
        ++i;
      } else if (i == head && is(i + 1, "(") && statement_macros_.contains(w)) {
        const std::optional<std::size_t> close = matching(i + 1);
        if (!close || *close >= end) {
          return false;
        }
        Declaration d;
        d.head = i;
        d.end = *close;
        d.body = *close;
        d.parent = parent;
        d.macro_statement = true;
        out_.push_back(std::move(d));
        i = *close;
        head = i + 1;
      } else if (w == ";") {
        if (i > head) {
          finish(head, i, parent);
        }
        head = i + 1;
      } else if (w == "}") {
        if (parent || depth == 0) {
          return false;
        }
        --depth;
        head = i + 1;
      } else if (w == "{") {
        const Head kind = classify(head, i);
        if (kind == Head::scope && !parent) {
          if (i > head && identifier(i - 1) && has_word(head, i, "namespace")) {
            namespaces_.push_back(text(i - 1));
          }
          ++depth;
          head = i + 1;
          continue;
        }
        const std::optional<std::size_t> close = matching(i);
        if (!close || *close >= end) {
          return false;
        }
        if (kind == Head::function) {
          add_function(head, i, *close, parent);
          head = *close + 1;
        }
        i = *close;  // otherwise the declaration goes on (a class body ends at its ";")
      }
    }
    return depth == 0;
  }

  [[nodiscard]] std::optional<std::size_t> matching(std::size_t open) const {
    const std::string_view o = text(open);
    const std::string_view c = o == "{" ? "}" : o == "(" ? ")" : "]";
    std::size_t level = 0;
    for (std::size_t i = open; i < t_.size(); ++i) {
      const std::string_view w = text(i);
      if (w == o) {
        ++level;
      } else if (w == c && --level == 0) {
        return i;
      }
    }
    return std::nullopt;
  }

  /// The ">" that closes the template arguments opened at `open`, at or before `limit`;
  /// `limit` when they do not close.
  [[nodiscard]] std::size_t matching_angle(std::size_t open, std::size_t limit) const {
    std::size_t level = 0;
    std::size_t parens = 0;
    for (std::size_t i = open; i < limit; ++i) {
      const std::string_view w = text(i);
      if (w == "(" || w == "[") {
        ++parens;
      } else if ((w == ")" || w == "]") && parens > 0) {
        --parens;
      } else if (parens == 0 && w == "<") {
        ++level;
      } else if (parens == 0 && (w == ">" || w == ">>")) {
        level -= std::min(level, w.size());
        if (level == 0) {
          return i;
        }
      } else if (w == ";" || w == "{" || w == "}") {
        return limit;
      }
    }
    return limit;
  }

  /// The token that opens the bracket closed at `close`, at or after `floor`; `floor` if none.
  [[nodiscard]] std::size_t opening(std::size_t close, std::size_t floor) const {
    const std::string_view c = text(close);
    const std::string_view o = c == ")" ? "(" : "[";
    std::size_t level = 0;
    for (std::size_t i = close + 1; i-- > floor;) {
      const std::string_view w = text(i);
      if (w == c) {
        ++level;
      } else if (w == o && --level == 0) {
        return i;
      }
    }
    return floor;
  }

  [[nodiscard]] bool has_word(std::size_t head, std::size_t end, std::string_view word) const {
    for (std::size_t i = head; i < end; ++i) {
      if (text(i) == word) {
        return true;
      }
    }
    return false;
  }

  /// A top-level "=" (an initializer; not operator=, ==, <= ..., nor a template parameter's
  /// default) in [head, end).
  [[nodiscard]] bool has_initializer(std::size_t head, std::size_t end) const {
    std::size_t level = 0;
    for (std::size_t i = after_template_headers(head, end); i < end; ++i) {
      const std::string_view w = text(i);
      level += (w == "(" || w == "[") ? 1 : 0;
      level -= (w == ")" || w == "]") && level > 0 ? 1 : 0;
      if (level == 0 && w == "=" && (i == head || text(i - 1) != "operator")) {
        return true;
      }
    }
    return false;
  }

  /// The ":" that opens a constructor's initializer list in [head, brace) (") : a(1), b{2}").
  [[nodiscard]] std::optional<std::size_t> initializer_list_colon(std::size_t head,
                                                                  std::size_t brace) const {
    for (std::size_t i = head + 1; i < brace; ++i) {
      if (text(i) == ":" && text(i - 1) == ")") {
        return i;
      }
    }
    return std::nullopt;
  }

  /// The last token of a parameter list in [head, end), skipping what may follow one
  /// (qualifiers, noexcept(...), attributes, a trailing return type); nullopt if there is none.
  [[nodiscard]] std::optional<std::size_t> parameter_list_end(std::size_t head,
                                                              std::size_t end) const {
    // A trailing return type: from a top-level "->" after a ")".
    std::size_t level = 0;
    for (std::size_t i = head; i < end; ++i) {
      const std::string_view w = text(i);
      level += (w == "(" || w == "[") ? 1 : 0;
      level -= (w == ")" || w == "]") && level > 0 ? 1 : 0;
      if (level == 0 && w == "->" && i > head && text(i - 1) != "operator") {
        end = i;
        break;
      }
    }
    std::size_t i = end;
    while (i > head) {
      const std::string_view w = text(i - 1);
      if (std::find(std::begin(kTrailing), std::end(kTrailing), w) != std::end(kTrailing)) {
        --i;
        continue;
      }
      if (w == ")" || w == "]") {  // noexcept(...), __attribute__((...)), [[...]]: skip them
        const std::size_t open = opening(i - 1, head);
        if (open == head) {
          return std::nullopt;
        }
        const std::string_view before = text(open - 1);
        if (before == "noexcept" || before == "throw" || before == "__attribute__" ||
            before == "__declspec" || (w == "]" && before == "[")) {
          i = open - 1;  // before the attribute's name or first "["
          continue;
        }
        if (w == ")") {
          return i - 1;
        }
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  Head classify(std::size_t head, std::size_t brace) const {
    if (head == brace) {
      return Head::other;
    }
    if (has_word(head, brace, "namespace") ||
        (brace - head == 2 && text(head) == "extern" && t_[head + 1].kind == Kind::literal)) {
      return Head::scope;
    }
    if (has_initializer(head, brace)) {
      return Head::other;
    }
    // A constructor's initializer list: ") : a(1), b{2} {". Its braces follow a name.
    if (initializer_list_colon(head, brace)) {
      const std::string_view before = text(brace - 1);
      if (t_[brace - 1].kind == Kind::identifier || before == ">") {
        return Head::member_init;
      }
      return Head::function;
    }
    if (parameter_list_end(head, brace)) {
      return Head::function;
    }
    return Head::other;  // a class, an enum, a lambda's body at namespace scope ...
  }

  struct Name {
    std::size_t at;        // the token
    bool special = false;  // an operator or a destructor
  };

  /// The name that the parameter list (or initializer) opened at `open` belongs to.
  [[nodiscard]] std::optional<Name> name_before(std::size_t open, std::size_t floor) const {
    if (open <= floor) {
      return std::nullopt;
    }
    std::size_t j = open - 1;
    for (std::size_t back = 0; back < 4 && back <= j - floor; ++back) {
      if (is(j - back, "operator")) {  // operator+, operator(), operator new[], operator float
        return Name{j - back, true};
      }
    }
    if (text(j) == ">") {  // a template-id: f<int>(...)
      std::size_t level = 0;
      for (std::size_t i = j + 1; i-- > floor;) {
        if (text(i) == ">") {
          ++level;
        } else if (text(i) == ">>") {
          level += 2;
        } else if (text(i) == "<" && --level == 0) {
          j = i == floor ? i : i - 1;
          break;
        }
      }
    }
    if (!identifier(j) || not_a_name(text(j))) {
      return std::nullopt;
    }
    return Name{j, j > floor && is(j - 1, "~")};
  }

  /// The class or namespace a name at `at` is qualified by ("Foo" of Foo::f, Foo<T>::f).
  [[nodiscard]] std::string_view qualifier_of(std::size_t at, std::size_t floor) const {
    if (at < floor + 2 || !is(at - 1, "::")) {
      return {};
    }
    std::size_t q = at - 2;
    if (text(q) == ">") {
      for (std::size_t level = 0, i = q + 1; i-- > floor;) {
        if (text(i) == ">") {
          ++level;
        } else if (text(i) == "<" && --level == 0) {
          q = i == floor ? i : i - 1;
          break;
        }
      }
    }
    return identifier(q) ? text(q) : std::string_view();
  }

  void add_name(Declaration& d, const Name& n, std::size_t floor) {
    const std::string_view name = text(n.at);
    d.names.push_back(name);
    d.special =
        d.special || n.special ||
        (d.parent && !out_[*d.parent].names.empty() && out_[*d.parent].names.front() == name);
    if (d.qualifier.empty()) {
      d.qualifier = qualifier_of(n.at, floor);
      d.special = d.special || (!d.qualifier.empty() && d.qualifier == name);  // Foo::Foo
    }
  }

  void add_function(std::size_t head, std::size_t open, std::size_t close,
                    std::optional<std::size_t> parent) {
    Declaration d;
    d.kind = Declaration::Kind::function;
    d.head = head;
    d.body = open;
    d.end = close;
    d.parent = parent;
    const std::size_t end = initializer_list_colon(head, open).value_or(open);
    if (const std::optional<std::size_t> params = parameter_list_end(head, end)) {
      if (const std::optional<Name> n = name_before(opening(*params, head), head)) {
        add_name(d, *n, head);
      }
    }
    d.special = d.special || has_word(head, open, "virtual") || has_word(head, open, "friend");
    out_.push_back(std::move(d));
  }

  /// Past `template <...>` headers from `i`.
  [[nodiscard]] std::size_t after_template_headers(std::size_t i, std::size_t end) const {
    while (is(i, "template") && is(i + 1, "<")) {
      i = matching_angle(i + 1, end) + 1;
    }
    return i;
  }

  /// Skips an attribute's parentheses when `i` names one (__attribute__((...)), alignas(16)):
  /// the token after them; else `i`.
  [[nodiscard]] std::size_t past_attribute(std::size_t i) const {
    if (identifier(i) && is(i + 1, "(") && not_a_name(text(i))) {
      if (const std::optional<std::size_t> close = matching(i + 1)) {
        return *close + 1;
      }
    }
    return i;
  }

  struct ClassHead {
    std::size_t key;
    std::optional<std::size_t> name;
    std::size_t stop;  // the "{", ":", ";" or "final" after the name
  };

  /// A class-key at the top level of [first, end) that begins a class's declaration or
  /// definition (not an elaborated type in another declaration, `struct Foo make();`).
  [[nodiscard]] std::optional<ClassHead> class_head(std::size_t first, std::size_t end) const {
    for (std::size_t i = first; i < end; ++i) {
      const std::size_t skipped = past_attribute(i);
      if (skipped != i) {
        i = skipped - 1;
        continue;
      }
      const std::string_view w = text(i);
      if (w == "(" || w == "[" || w == "=" || w == "{") {
        return std::nullopt;
      }
      if (!is_class_key(w)) {
        continue;
      }
      ClassHead h{i, std::nullopt, end};
      std::size_t j = i + 1;
      if (w == "enum" && (is(j, "class") || is(j, "struct"))) {
        ++j;
      }
      while (j < end) {
        const std::size_t past = past_attribute(j);
        if (past != j) {
          j = past;
        } else if (is(j, "[") && is(j + 1, "[")) {
          j = matching(j).value_or(end) + 1;
        } else if (identifier(j) && !is(j, "final")) {
          h.name = j++;
        } else if (is(j, "::")) {
          ++j;
        } else if (is(j, "<")) {
          j = matching_angle(j, end) + 1;
        } else {
          break;
        }
      }
      h.stop = j;
      if (j < end && !is(j, "{") && !is(j, ":") && !is(j, "final")) {
        return std::nullopt;
      }
      return h;
    }
    return std::nullopt;
  }

  /// Whether [from, end) begins with a pointer to member's declarator, "Domain::*" or
  /// "ns::Grid<2>::*": a qualified name, then "::*".
  [[nodiscard]] bool member_pointer(std::size_t from, std::size_t end) const {
    std::size_t j = from;
    while (j < end) {
      if (identifier(j) || is(j, "::")) {
        ++j;
      } else if (is(j, "<") && j > from && identifier(j - 1)) {
        j = matching_angle(j, end) + 1;
      } else {
        break;
      }
    }
    return j > from && j < end && is(j - 1, "::") && is(j, "*");
  }

  /// The names of the declarators in [from, end) ("int a = 1, *b, (*f)(int), g(float);"); true
  /// when the first one declares a function.
  bool declarators(std::size_t from, std::size_t end, Declaration& d) {
    bool function = false;
    bool first = true;
    for (std::size_t i = from; i < end; ++i) {
      const std::string_view w = text(i);
      if (w == "(") {
        const std::size_t close = matching(i).value_or(end);
        if (is(i + 1, "*") || is(i + 1, "&") || is(i + 1, "^") ||
            member_pointer(i + 1, close)) {  // (*f)(int), (&a)[4], (Domain::*get)(int)
          for (std::size_t k = close; k-- > i + 1;) {
            if (identifier(k)) {
              add_name(d, Name{k}, from);
              break;
            }
          }
        } else if (const std::optional<Name> n = name_before(i, from)) {
          add_name(d, *n, from);
          function = function || first;
        }
        i = close;
      } else if (w == "[" || w == "{") {
        i = matching(i).value_or(end);
      } else if (w == "<" && i > from && identifier(i - 1)) {
        i = matching_angle(i, end);
      } else if (w == "=") {  // an initializer, to the next declarator
        for (; i + 1 < end && !is(i + 1, ","); ++i) {
          if (is(i + 1, "(") || is(i + 1, "[") || is(i + 1, "{")) {
            i = matching(i + 1).value_or(end) - 1;
          }
        }
      } else if (w == ",") {
        first = false;
      } else if (identifier(i) && !not_a_name(w) && i + 1 <= end &&
                 (i + 1 == end || is(i + 1, ",") || is(i + 1, "=") || is(i + 1, "[") ||
                  is(i + 1, ":") || is(i + 1, "{"))) {
        add_name(d, Name{i}, from);
      }
    }
    return function;
  }

  void finish(std::size_t head, std::size_t semicolon, std::optional<std::size_t> parent) {
    Declaration d;
    d.head = head;
    d.end = semicolon;
    d.body = semicolon;
    d.parent = parent;
    d.instantiation = (is(head, "template") && !is(head + 1, "<")) ||
                      (is(head, "extern") && is(head + 1, "template"));
    const std::size_t first = after_template_headers(head, semicolon);
    if (is(first, "using") || (is(first, "namespace") && is(first + 2, "="))) {
      // An alias (using x = ...; namespace x = ...;), a using-declaration (using std::min;): the
      // name it declares. A using-directive (using namespace a::b;): the namespace it names.
      d.using_namespace = is(first, "using") && is(first + 1, "namespace");
      if (identifier(first + 1) && is(first + 2, "=")) {
        d.names.push_back(text(first + 1));
      } else {
        for (std::size_t i = semicolon; i-- > first + 1;) {
          if (identifier(i)) {
            d.names.push_back(text(i));
            break;
          }
        }
      }
      d.always = d.names.empty();
      out_.push_back(std::move(d));
      return;
    }
    if (is(first, "static_assert") || is(first, "asm") || is(first, "__asm__")) {
      d.always = true;
      out_.push_back(std::move(d));
      return;
    }
    if (const std::optional<ClassHead> h = class_head(first, semicolon)) {
      finish_class(std::move(d), *h);
      return;
    }
    if (declarators(first, semicolon, d)) {
      d.kind = Declaration::Kind::prototype;
    }
    d.special =
        d.special || has_word(head, semicolon, "virtual") || has_word(head, semicolon, "friend");
    out_.push_back(std::move(d));
  }

  void finish_class(Declaration d, const ClassHead& h) {
    d.kind = Declaration::Kind::type;
    if (h.name) {
      add_name(d, Name{*h.name}, d.head);
    }
    std::optional<std::size_t> open;
    for (std::size_t i = h.stop; i < d.end; ++i) {
      if (is(i, "{")) {
        open = i;
        break;
      }
    }
    std::optional<std::size_t> close = open ? matching(*open) : std::nullopt;
    if (!close || *close >= d.end) {
      out_.push_back(std::move(d));  // a forward declaration, or an instantiation of a class
      return;
    }
    d.body = *open;
    const bool is_enum = text(h.key) == "enum";
    if (is_enum) {  // its enumerators
      std::size_t level = 0;
      for (std::size_t i = *open + 1; i < *close; ++i) {
        const std::string_view w = text(i);
        level += (w == "(" || w == "{" || w == "[") ? 1 : 0;
        level -= (w == ")" || w == "}" || w == "]") && level > 0 ? 1 : 0;
        if (level == 0 && identifier(i) && (is(i + 1, ",") || is(i + 1, "=") || i + 1 == *close)) {
          d.names.push_back(w);
        }
      }
    }
    declarators(*close + 1, d.end, d);  // "} a, *b;"
    const std::size_t index = out_.size();
    out_.push_back(std::move(d));
    if (!is_enum) {
      nested_ok_ = read_scope(*open + 1, *close, index) && nested_ok_;
    }
  }

  std::string_view s_;
  const std::vector<SourceToken>& t_;
  const StatementMacros& statement_macros_;
  std::vector<Declaration> out_;
  std::vector<std::string_view> namespaces_;
  bool nested_ok_ = true;

 public:
  [[nodiscard]] bool nested_ok() const noexcept { return nested_ok_; }
  std::vector<std::string_view> take_namespaces() { return std::move(namespaces_); }
};

}  // namespace

std::optional<FileDeclarations> read_declarations(std::string_view text,
                                                  const StatementMacros& statement_macros) {
  std::optional<std::vector<SourceToken>> tokens = tokenize(text);
  if (!tokens) {
    return std::nullopt;
  }
  FileDeclarations file;
  file.tokens = std::move(*tokens);
  Reader reader(text, file.tokens, statement_macros);
  if (!reader.run() || !reader.nested_ok()) {
    return std::nullopt;
  }
  file.declarations = reader.take();
  file.namespaces = reader.take_namespaces();
  return file;
}

}  // namespace kjit::source
