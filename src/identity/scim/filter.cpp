#include "identity/scim/filter.h"
#include "core/text.h"

#include <array>
#include <cctype>
#include <utility>
#include <vector>

#include <boost/json.hpp>

namespace credence::identity::scim {
namespace {

constexpr std::string_view kUserSchemaPrefix = "urn:ietf:params:scim:schemas:core:2.0:user:";
constexpr std::string_view kGroupSchemaPrefix = "urn:ietf:params:scim:schemas:core:2.0:group:";

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '$'; }

Error FilterError(std::string detail) { return Error::InvalidArgument("invalidFilter", std::move(detail)); }

// A small cursor over the filter text; every method leaves it where the next
// token starts.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void SkipSpaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  size_t pos() const { return pos_; }

  // attrPath: [URN ":"]ATTRNAME["." subAttr]. A URN holds colons and dots,
  // so the known core schema prefixes are stripped before splitting.
  Result<std::string> AttrPath() {
    const size_t start = pos_;
    while (pos_ < text_.size() && (IsNameChar(text_[pos_]) || text_[pos_] == '.' || text_[pos_] == ':')) {
      ++pos_;
    }
    std::string path = AsciiLower(text_.substr(start, pos_ - start));
    for (std::string_view prefix : {kUserSchemaPrefix, kGroupSchemaPrefix}) {
      if (path.starts_with(prefix)) path.erase(0, prefix.size());
    }
    if (path.empty() || path.find(':') != std::string::npos || path.front() == '.' || path.back() == '.' ||
        path.find("..") != std::string::npos) {
      return FilterError("expected an attribute name at position " + std::to_string(start));
    }
    return path;
  }

  std::string_view Word() {
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_])) != 0) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  Result<CompareValue> Value() {
    CompareValue v;
    if (Peek() == '"') return String();
    if (Peek() == '-' || std::isdigit(static_cast<unsigned char>(Peek())) != 0) {
      const size_t start = pos_;
      ++pos_;
      while (pos_ < text_.size() &&
             (std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0 || text_[pos_] == '.' || text_[pos_] == 'e' ||
              text_[pos_] == 'E' || text_[pos_] == '+' || text_[pos_] == '-')) {
        ++pos_;
      }
      v.kind = CompareValue::Kind::kNumber;
      v.text = std::string(text_.substr(start, pos_ - start));
      return v;
    }
    const std::string word = AsciiLower(Word());
    if (word == "true" || word == "false") {
      v.kind = CompareValue::Kind::kBoolean;
      v.boolean = word == "true";
      return v;
    }
    if (word == "null") return v;
    return FilterError("expected a value (a quoted string, true, false, null or a number)");
  }

 private:
  // A JSON string (RFC 7644 compValue is JSON): the escapes JSON allows,
  // \uXXXX written out as UTF-8 (surrogate pairs joined).
  Result<CompareValue> String() {
    CompareValue v;
    v.kind = CompareValue::Kind::kString;
    ++pos_;  // opening quote
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return v;
      if (static_cast<unsigned char>(c) < 0x20) return FilterError("control character in a string");
      if (c != '\\') {
        v.text.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) break;
      const char e = text_[pos_++];
      switch (e) {
        case '"':
          v.text.push_back('"');
          break;
        case '\\':
          v.text.push_back('\\');
          break;
        case '/':
          v.text.push_back('/');
          break;
        case 'b':
          v.text.push_back('\b');
          break;
        case 'f':
          v.text.push_back('\f');
          break;
        case 'n':
          v.text.push_back('\n');
          break;
        case 'r':
          v.text.push_back('\r');
          break;
        case 't':
          v.text.push_back('\t');
          break;
        case 'u': {
          CR_TRY_ASSIGN(unsigned cp, Hex4());
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (pos_ + 1 >= text_.size() || text_[pos_] != '\\' || text_[pos_ + 1] != 'u') {
              return FilterError("unpaired surrogate in a string");
            }
            pos_ += 2;
            CR_TRY_ASSIGN(unsigned low, Hex4());
            if (low < 0xDC00 || low > 0xDFFF) return FilterError("unpaired surrogate in a string");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return FilterError("unpaired surrogate in a string");
          }
          AppendUtf8(v.text, cp);
          break;
        }
        default:
          return FilterError("invalid escape in a string");
      }
    }
    return FilterError("unterminated string");
  }

  Result<unsigned> Hex4() {
    if (pos_ + 4 > text_.size()) return FilterError("truncated \\u escape");
    unsigned cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        cp |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        cp |= static_cast<unsigned>(h - 'A' + 10);
      else
        return FilterError("invalid \\u escape");
    }
    return cp;
  }

  static void AppendUtf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<CompareOp> OpFromWord(std::string_view word) {
  static constexpr std::array<std::pair<std::string_view, CompareOp>, 10> kOps{{
      {"eq", CompareOp::kEq},
      {"ne", CompareOp::kNe},
      {"co", CompareOp::kCo},
      {"sw", CompareOp::kSw},
      {"ew", CompareOp::kEw},
      {"gt", CompareOp::kGt},
      {"ge", CompareOp::kGe},
      {"lt", CompareOp::kLt},
      {"le", CompareOp::kLe},
      {"pr", CompareOp::kPr},
  }};
  const std::string lower = AsciiLower(word);
  for (const auto& [name, op] : kOps) {
    if (lower == name) return op;
  }
  return std::nullopt;
}

// One comparison, leaving the scanner after it (spaces skipped).
Result<Filter> ParseComparison(Scanner& s) {
  s.SkipSpaces();
  if (s.Peek() == '(') return FilterError("grouping with parentheses is not supported");
  Filter f;
  CR_TRY_ASSIGN(f.attribute, s.AttrPath());
  if (f.attribute == "not") return FilterError("'not' is not supported");
  if (s.Peek() != ' ') return FilterError("expected an operator after '" + f.attribute + "'");
  s.SkipSpaces();
  const std::string_view op_word = s.Word();
  const std::optional<CompareOp> op = OpFromWord(op_word);
  if (!op) return FilterError("unknown operator '" + std::string(op_word) + "'");
  f.op = *op;
  if (f.op != CompareOp::kPr) {
    if (s.Peek() != ' ') return FilterError("expected a value after the operator");
    s.SkipSpaces();
    CR_TRY_ASSIGN(f.value, s.Value());
  }
  s.SkipSpaces();
  return f;
}

}  // namespace

Result<Filter> ParseFilter(std::string_view text) {
  Scanner s(text);
  CR_TRY_ASSIGN(Filter f, ParseComparison(s));
  if (!s.AtEnd()) {
    return FilterError(
        "only one comparison is supported (no 'and', 'or' or grouping); unexpected "
        "text at position " +
        std::to_string(s.pos()));
  }
  return f;
}

Result<PatchPath> ParsePatchPath(std::string_view text) {
  auto path_error = [&](std::string detail) { return Error::InvalidArgument("invalidPath", std::move(detail)); };
  PatchPath p;
  const size_t open = text.find('[');
  if (open == std::string_view::npos) {
    Scanner s(text);
    auto attr = s.AttrPath();
    if (!attr || !s.AtEnd()) return path_error("invalid path '" + std::string(text) + "'");
    const std::string& a = *attr;
    const size_t dot = a.find('.');
    p.attribute = a.substr(0, dot);
    if (dot != std::string::npos) {
      p.sub_attribute = a.substr(dot + 1);
      if (p.sub_attribute.find('.') != std::string::npos) {
        return path_error("invalid path '" + std::string(text) + "'");
      }
    }
    return p;
  }
  const size_t close = text.rfind(']');
  if (close == std::string_view::npos || close < open) {
    return path_error("unbalanced '[' in path '" + std::string(text) + "'");
  }
  Scanner head(text.substr(0, open));
  auto attr = head.AttrPath();
  if (!attr || !head.AtEnd() || attr->find('.') != std::string::npos) {
    return path_error("invalid attribute before '[' in path '" + std::string(text) + "'");
  }
  p.attribute = *attr;
  auto filter = ParseFilter(text.substr(open + 1, close - open - 1));
  if (!filter) return path_error("invalid value filter: " + filter.error().detail);
  p.filter = std::move(*filter);
  const std::string_view rest = text.substr(close + 1);
  if (!rest.empty()) {
    if (rest.front() != '.') return path_error("expected '.' after ']' in path '" + std::string(text) + "'");
    Scanner tail(rest.substr(1));
    auto sub = tail.AttrPath();
    if (!sub || !tail.AtEnd() || sub->find('.') != std::string::npos) {
      return path_error("invalid sub-attribute in path '" + std::string(text) + "'");
    }
    p.sub_attribute = *sub;
  }
  return p;
}

bool MatchesString(CompareOp op, std::string_view candidate, const CompareValue& value, bool case_exact) {
  if (op == CompareOp::kPr) return !candidate.empty();
  if (value.kind != CompareValue::Kind::kString) return false;
  const std::string a = case_exact ? std::string(candidate) : AsciiLower(candidate);
  const std::string b = case_exact ? value.text : AsciiLower(value.text);
  switch (op) {
    case CompareOp::kEq:
      return a == b;
    case CompareOp::kNe:
      return a != b;
    case CompareOp::kCo:
      return a.find(b) != std::string::npos;
    case CompareOp::kSw:
      return a.starts_with(b);
    case CompareOp::kEw:
      return a.ends_with(b);
    case CompareOp::kGt:
      return a > b;
    case CompareOp::kGe:
      return a >= b;
    case CompareOp::kLt:
      return a < b;
    case CompareOp::kLe:
      return a <= b;
    case CompareOp::kPr:
      break;
  }
  return false;
}

namespace {

// The values at `path` (lowercase names separated by dots) in `value`,
// arrays flattened.
void Collect(const boost::json::value& value, std::string_view path, std::vector<const boost::json::value*>& out) {
  if (value.is_array()) {
    for (const auto& element : value.as_array()) Collect(element, path, out);
    return;
  }
  if (path.empty()) {
    out.push_back(&value);
    return;
  }
  if (!value.is_object()) return;
  const size_t dot = path.find('.');
  const std::string_view head = path.substr(0, dot);
  const std::string_view rest = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  for (const auto& member : value.as_object())
    if (AsciiLower(member.key()) == head) Collect(member.value(), rest, out);
}

}  // namespace

bool MatchesJson(const boost::json::value& resource, const Filter& filter) {
  std::vector<const boost::json::value*> values;
  Collect(resource, filter.attribute, values);
  const bool case_exact = filter.attribute == "id" || filter.attribute == "externalid";
  for (const boost::json::value* v : values) {
    if (v->is_null()) continue;
    if (filter.op == CompareOp::kPr) return true;
    if (v->is_bool()) {
      if (filter.value.kind != CompareValue::Kind::kBoolean) continue;
      if (filter.op == CompareOp::kEq && v->as_bool() == filter.value.boolean) return true;
      if (filter.op == CompareOp::kNe && v->as_bool() != filter.value.boolean) return true;
    } else if (v->is_string() && MatchesString(filter.op, std::string_view(v->as_string()), filter.value, case_exact)) {
      return true;
    }
  }
  return false;
}

}  // namespace credence::identity::scim
