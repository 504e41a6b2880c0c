#include "source/source_tokens.hpp"

#include "source/logical_lines.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace kjit::source {

namespace {

bool is_identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

// Longest first, so that "<<<" is one token and "<<=" is not "<<" then "=".
constexpr std::array kPunctuators = {
    std::string_view("<<<"), std::string_view(">>>"), std::string_view("<<="),
    std::string_view(">>="), std::string_view("..."), std::string_view("->*"),
    std::string_view("<=>"), std::string_view("::"),  std::string_view("->"),
    std::string_view("++"),  std::string_view("--"),  std::string_view("<<"),
    std::string_view(">>"),  std::string_view("<="),  std::string_view(">="),
    std::string_view("=="),  std::string_view("!="),  std::string_view("&&"),
    std::string_view("||"),  std::string_view("+="),  std::string_view("-="),
    std::string_view("*="),  std::string_view("/="),  std::string_view("%="),
    std::string_view("&="),  std::string_view("|="),  std::string_view("^="),
    std::string_view(".*"),  std::string_view("##"),
};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::optional<std::vector<SourceToken>> run() {
    bool line_start = true;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        line_start = true;
        ++i_;
      } else if (continuation() != 0) {
        i_ += continuation();  // a continued line
      } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        ++i_;
      } else if ((c == '/' && peek(1) == '/') || (c == '#' && line_start)) {
        // A comment, or a directive with its continued lines and comments.
        if (!skip_line()) {
          return std::nullopt;
        }
      } else if (c == '/' && peek(1) == '*') {
        const std::size_t end = s_.find("*/", i_ + 2);
        if (end == std::string_view::npos) {
          return std::nullopt;
        }
        i_ = end + 2;
      } else {
        line_start = false;
        if (!token()) {
          return std::nullopt;
        }
      }
    }
    return std::move(tokens_);
  }

 private:
  [[nodiscard]] char peek(std::size_t ahead) const {
    return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0';
  }

  /// The length of a line continuation at i_ (a backslash before a newline, "\\\n" or
  /// "\\\r\n"), or 0.
  [[nodiscard]] std::size_t continuation() const {
    if (s_[i_] != '\\') {
      return 0;
    }
    return peek(1) == '\n' ? 2 : (peek(1) == '\r' && peek(2) == '\n') ? 3 : 0;
  }

  /// To the end of the line, across continued lines; false at a block comment left open. In a
  /// line comment, "/*" opens nothing ("//*** FOR TEST ***" is one comment).
  bool skip_line() {
    bool line_comment = false;
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (const std::size_t n = continuation(); n != 0) {
        i_ += n - 1;
      } else if (!line_comment && s_[i_] == '/' && peek(1) == '/') {
        line_comment = true;
        ++i_;
      } else if (!line_comment && s_[i_] == '/' && peek(1) == '*') {
        // A block comment in a directive may span lines.
        const std::size_t end = s_.find("*/", i_ + 2);
        if (end == std::string_view::npos) {
          return false;
        }
        i_ = end + 1;
      }
      ++i_;
    }
    return true;
  }

  void add(SourceToken::Kind kind, std::size_t begin) { tokens_.push_back({kind, begin, i_}); }

  bool token() {
    const std::size_t begin = i_;
    const char c = s_[i_];
    if (is_identifier_start(c)) {
      while (i_ < s_.size() && is_identifier_char(s_[i_])) {
        ++i_;
      }
      const std::string_view word = s_.substr(begin, i_ - begin);
      const bool prefix = word == "L" || word == "u" || word == "U" || word == "u8" ||
                          word == "R" || word == "LR" || word == "uR" || word == "UR" ||
                          word == "u8R";
      if (prefix && i_ < s_.size() && (s_[i_] == '"' || (s_[i_] == '\'' && word.back() != 'R'))) {
        return literal(begin, word.back() == 'R');
      }
      add(SourceToken::Kind::identifier, begin);
      return true;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))) != 0)) {
      while (i_ < s_.size()) {
        const char d = s_[i_];
        const char before = s_[i_ - 1];
        const bool exponent_sign = (d == '+' || d == '-') && (before == 'e' || before == 'E' ||
                                                              before == 'p' || before == 'P');
        if (!exponent_sign && !is_identifier_char(d) && d != '.' && d != '\'') {
          break;
        }
        ++i_;
      }
      add(SourceToken::Kind::number, begin);
      return true;
    }
    if (c == '"' || c == '\'') {
      return literal(begin, false);
    }
    for (const std::string_view p : kPunctuators) {
      if (s_.substr(i_, p.size()) == p) {
        i_ += p.size();
        add(SourceToken::Kind::punctuator, begin);
        return true;
      }
    }
    ++i_;
    add(SourceToken::Kind::punctuator, begin);
    return true;
  }

  /// A string or character literal from i_ (at its quote), or a raw string.
  bool literal(std::size_t begin, bool raw) {
    const char quote = s_[i_];
    if (raw) {
      const std::size_t open = s_.find('(', i_);
      if (open == std::string_view::npos) {
        return false;
      }
      std::string closing(1, ')');
      closing.append(s_.substr(i_ + 1, open - i_ - 1));
      closing.push_back(quote);
      const std::size_t end = s_.find(closing, open);
      if (end == std::string_view::npos) {
        return false;
      }
      i_ = end + closing.size();
    } else {
      for (++i_; i_ < s_.size() && s_[i_] != quote; ++i_) {
        if (s_[i_] == '\\') {
          ++i_;
        } else if (s_[i_] == '\n') {
          return false;
        }
      }
      if (i_ >= s_.size()) {
        return false;
      }
      ++i_;
    }
    add(SourceToken::Kind::literal, begin);
    return true;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::vector<SourceToken> tokens_;
};

}  // namespace

std::optional<std::vector<SourceToken>> tokenize(std::string_view source) {
  return Lexer(source).run();
}

unsigned line_at(std::string_view source, std::size_t offset) {
  const std::string_view before = source.substr(0, offset);
  return 1 + static_cast<unsigned>(std::count(before.begin(), before.end(), '\n'));
}

}  // namespace kjit::source
