#include "connectors/web/internal/markup.h"
#include "core/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <unordered_map>

namespace credence::connectors::web::internal {
namespace {

// A tag with more attributes than this keeps the first ones: a bound on the
// work one hostile tag can cause beyond reading it.
constexpr size_t kMaxAttributes = 64;
constexpr uint32_t kReplacement = 0xFFFD;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

bool IEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Windows-1252 for 0x80-0x9F: what browsers make of those bytes and of
// &#128;-&#159;. 0 where the code page has no character.
constexpr std::array<uint16_t, 32> kWindows1252 = {0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                                   0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
                                                   0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                                   0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

uint32_t FromWindows1252(uint32_t c) {
  if (c < 0x80 || c > 0x9F) return c;
  const uint32_t mapped = kWindows1252[c - 0x80];
  return mapped == 0 ? kReplacement : mapped;
}

const std::unordered_map<std::string_view, uint32_t>& NamedEntities() {
  static const auto* table = [] {
    auto* t = new std::unordered_map<std::string_view, uint32_t>{
        {"amp", '&'},       {"lt", '<'},        {"gt", '>'},        {"quot", '"'},      {"apos", '\''},
        {"nbsp", ' '},      {"copy", 0xA9},     {"reg", 0xAE},      {"trade", 0x2122},  {"hellip", 0x2026},
        {"mdash", 0x2014},  {"ndash", 0x2013},  {"lsquo", 0x2018},  {"rsquo", 0x2019},  {"sbquo", 0x201A},
        {"ldquo", 0x201C},  {"rdquo", 0x201D},  {"bdquo", 0x201E},  {"laquo", 0xAB},    {"raquo", 0xBB},
        {"lsaquo", 0x2039}, {"rsaquo", 0x203A}, {"bull", 0x2022},   {"middot", 0xB7},   {"euro", 0x20AC},
        {"pound", 0xA3},    {"yen", 0xA5},      {"cent", 0xA2},     {"curren", 0xA4},   {"sect", 0xA7},
        {"para", 0xB6},     {"deg", 0xB0},      {"plusmn", 0xB1},   {"times", 0xD7},    {"divide", 0xF7},
        {"frac14", 0xBC},   {"frac12", 0xBD},   {"frac34", 0xBE},   {"sup1", 0xB9},     {"sup2", 0xB2},
        {"sup3", 0xB3},     {"micro", 0xB5},    {"iexcl", 0xA1},    {"iquest", 0xBF},   {"shy", 0xAD},
        {"ordf", 0xAA},     {"ordm", 0xBA},     {"not", 0xAC},      {"macr", 0xAF},     {"acute", 0xB4},
        {"cedil", 0xB8},    {"uml", 0xA8},      {"brvbar", 0xA6},   {"larr", 0x2190},   {"uarr", 0x2191},
        {"rarr", 0x2192},   {"darr", 0x2193},   {"harr", 0x2194},   {"le", 0x2264},     {"ge", 0x2265},
        {"ne", 0x2260},     {"asymp", 0x2248},  {"infin", 0x221E},  {"minus", 0x2212},  {"prime", 0x2032},
        {"Prime", 0x2033},  {"dagger", 0x2020}, {"Dagger", 0x2021}, {"permil", 0x2030}, {"thinsp", 0x2009},
        {"ensp", 0x2002},   {"emsp", 0x2003},   {"zwj", 0x200D},    {"zwnj", 0x200C},   {"lrm", 0x200E},
        {"rlm", 0x200F},    {"OElig", 0x152},   {"oelig", 0x153},   {"Scaron", 0x160},  {"scaron", 0x161},
        {"Yuml", 0x178},    {"fnof", 0x192},    {"circ", 0x2C6},    {"tilde", 0x2DC},   {"check", 0x2713},
        {"alpha", 0x3B1},   {"beta", 0x3B2},    {"gamma", 0x3B3},   {"delta", 0x3B4},   {"epsilon", 0x3B5},
        {"theta", 0x3B8},   {"lambda", 0x3BB},  {"mu", 0x3BC},      {"pi", 0x3C0},      {"sigma", 0x3C3},
        {"tau", 0x3C4},     {"phi", 0x3C6},     {"omega", 0x3C9},   {"Delta", 0x394},   {"Omega", 0x3A9},
        {"sum", 0x2211},    {"prod", 0x220F},   {"radic", 0x221A},  {"empty", 0x2205},  {"isin", 0x2208},
        {"forall", 0x2200}, {"exist", 0x2203},  {"and", 0x2227},    {"or", 0x2228},     {"cap", 0x2229},
        {"cup", 0x222A},    {"hearts", 0x2665}, {"star", 0x2606},   {"loz", 0x25CA},    {"oline", 0x203E},
    };
    // Latin-1 letters U+00C0..U+00FF, in code point order (0xD7 and 0xF7 are
    // &times; and &divide;, above).
    static constexpr const char* kLatin1[64] = {
        "Agrave", "Aacute", "Acirc",  "Atilde", "Auml",   "Aring",  "AElig",  "Ccedil", "Egrave", "Eacute", "Ecirc",
        "Euml",   "Igrave", "Iacute", "Icirc",  "Iuml",   "ETH",    "Ntilde", "Ograve", "Oacute", "Ocirc",  "Otilde",
        "Ouml",   nullptr,  "Oslash", "Ugrave", "Uacute", "Ucirc",  "Uuml",   "Yacute", "THORN",  "szlig",  "agrave",
        "aacute", "acirc",  "atilde", "auml",   "aring",  "aelig",  "ccedil", "egrave", "eacute", "ecirc",  "euml",
        "igrave", "iacute", "icirc",  "iuml",   "eth",    "ntilde", "ograve", "oacute", "ocirc",  "otilde", "ouml",
        nullptr,  "oslash", "ugrave", "uacute", "ucirc",  "uuml",   "yacute", "thorn",  "yuml"};
    for (uint32_t i = 0; i < 64; ++i)
      if (kLatin1[i] != nullptr) t->emplace(kLatin1[i], 0xC0 + i);
    return t;
  }();
  return *table;
}

}  // namespace

const std::string* Tag::Attr(std::string_view name) const {
  for (const Attribute& a : attributes)
    if (a.name == name) return &a.value;
  return nullptr;
}

void MarkupTokenizer::SkipPast(std::string_view terminator) {
  const size_t at = in_.find(terminator, pos_);
  pos_ = at == std::string_view::npos ? in_.size() : at + terminator.size();
}

MarkupTokenizer::Token MarkupTokenizer::Next() {
  text_ = {};
  cdata_ = false;
  while (pos_ < in_.size()) {
    if (in_[pos_] != '<') {
      size_t end = in_.find('<', pos_);
      if (end == std::string_view::npos) end = in_.size();
      text_ = in_.substr(pos_, end - pos_);
      pos_ = end;
      return Token::kText;
    }
    const std::string_view rest = in_.substr(pos_);
    if (rest.starts_with("<!--")) {
      pos_ += 4;
      // "<!-->" and "<!--->" are empty comments.
      if (in_.substr(pos_).starts_with(">")) {
        pos_ += 1;
      } else if (in_.substr(pos_).starts_with("->")) {
        pos_ += 2;
      } else {
        SkipPast("-->");
      }
      continue;
    }
    if (rest.starts_with("<![CDATA[") && xml_) {
      const size_t start = pos_ + 9;
      const size_t end = in_.find("]]>", start);
      text_ = in_.substr(start, (end == std::string_view::npos ? in_.size() : end) - start);
      pos_ = end == std::string_view::npos ? in_.size() : end + 3;
      cdata_ = true;
      return Token::kText;
    }
    if (rest.starts_with("<!") || rest.starts_with("<?")) {  // doctype, processing instruction: skipped
      pos_ += 2;
      SkipPast(">");
      continue;
    }
    if (rest.starts_with("</")) {
      if (rest.size() > 2 && IsAlpha(rest[2])) {
        size_t end = 2;
        while (end < rest.size() && !IsSpace(rest[end]) && rest[end] != '/' && rest[end] != '>') ++end;
        tag_.name = AsciiLower(rest.substr(2, end - 2));
        tag_.attributes.clear();
        tag_.end = true;
        tag_.self_closing = false;
        pos_ += end;
        SkipPast(">");
        return Token::kTag;
      }
      if (rest.size() > 2) {  // "</>" is nothing, "</3" a bogus comment
        pos_ += 2;
        SkipPast(">");
        continue;
      }
      text_ = rest;  // "</" at the very end
      pos_ = in_.size();
      return Token::kText;
    }
    if (rest.size() > 1 && IsAlpha(rest[1])) {
      ParseStartTag();
      return pos_ <= in_.size() && !tag_.name.empty() ? Token::kTag : Token::kDone;
    }
    text_ = rest.substr(0, 1);  // a '<' that starts nothing: "a < b"
    pos_ += 1;
    return Token::kText;
  }
  return Token::kDone;
}

void MarkupTokenizer::ParseStartTag() {
  const std::string_view s = in_;
  size_t i = pos_ + 1;
  const size_t name_start = i;
  while (i < s.size() && !IsSpace(s[i]) && s[i] != '/' && s[i] != '>') ++i;
  tag_.name = AsciiLower(s.substr(name_start, i - name_start));
  tag_.attributes.clear();
  tag_.end = false;
  tag_.self_closing = false;
  while (true) {
    while (i < s.size() && IsSpace(s[i])) ++i;
    if (i >= s.size()) {
      // A tag the input ends inside is dropped, as browsers do.
      tag_.name.clear();
      pos_ = s.size();
      return;
    }
    if (s[i] == '>') {
      ++i;
      break;
    }
    if (s[i] == '/') {
      if (i + 1 < s.size() && s[i + 1] == '>') {
        tag_.self_closing = true;
        i += 2;
        break;
      }
      ++i;
      continue;
    }
    const size_t attr_start = i;
    if (s[i] == '=') ++i;  // "<a =x>": the '=' starts a name, so the loop always moves on
    while (i < s.size() && !IsSpace(s[i]) && s[i] != '/' && s[i] != '>' && s[i] != '=') ++i;
    const std::string_view name = s.substr(attr_start, i - attr_start);
    while (i < s.size() && IsSpace(s[i])) ++i;
    std::string_view value;
    if (i < s.size() && s[i] == '=') {
      ++i;
      while (i < s.size() && IsSpace(s[i])) ++i;
      if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
        const size_t close = s.find(s[i], i + 1);
        const size_t end = close == std::string_view::npos ? s.size() : close;
        value = s.substr(i + 1, end - i - 1);
        i = close == std::string_view::npos ? s.size() : close + 1;
      } else {
        const size_t value_start = i;
        while (i < s.size() && !IsSpace(s[i]) && s[i] != '>') ++i;
        value = s.substr(value_start, i - value_start);
      }
    }
    if (tag_.attributes.size() < kMaxAttributes) tag_.attributes.push_back({AsciiLower(name), DecodeEntities(value)});
  }
  pos_ = i;
}

std::string_view MarkupTokenizer::SkipContent(std::string_view name) {
  const size_t content_start = pos_;
  size_t from = pos_;
  while (true) {
    const size_t lt = in_.find("</", from);
    if (lt == std::string_view::npos) {
      pos_ = in_.size();
      return in_.substr(content_start);
    }
    const size_t after = lt + 2 + name.size();
    if (after <= in_.size() && IEquals(in_.substr(lt + 2, name.size()), name) &&
        (after == in_.size() || IsSpace(in_[after]) || in_[after] == '/' || in_[after] == '>')) {
      pos_ = after;
      SkipPast(">");
      return in_.substr(content_start, lt - content_start);
    }
    from = lt + 2;
  }
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacement;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string DecodeEntities(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const size_t amp = s.find('&', i);
    if (amp == std::string_view::npos) {
      out.append(s.substr(i));
      break;
    }
    out.append(s.substr(i, amp - i));
    i = amp + 1;
    if (i < s.size() && s[i] == '#') {
      size_t j = i + 1;
      const bool hex = j < s.size() && (s[j] == 'x' || s[j] == 'X');
      if (hex) ++j;
      const size_t digits_start = j;
      uint32_t value = 0;
      while (j < s.size() && (hex ? std::isxdigit(static_cast<unsigned char>(s[j])) != 0
                                  : std::isdigit(static_cast<unsigned char>(s[j])) != 0)) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[j])));
        const uint32_t digit = c <= '9' ? static_cast<uint32_t>(c - '0') : static_cast<uint32_t>(c - 'a' + 10);
        value = std::min<uint32_t>(value * (hex ? 16 : 10) + digit, 0x110000);  // saturates: no overflow
        ++j;
      }
      if (j == digits_start) {  // "&#" or "&#x" without digits: literal
        out += '&';
        continue;
      }
      if (j < s.size() && s[j] == ';') ++j;
      AppendUtf8(out, FromWindows1252(value));
      i = j;
      continue;
    }
    size_t j = i;
    while (j < s.size() && j - i < 32 && std::isalnum(static_cast<unsigned char>(s[j])) != 0) ++j;
    if (j < s.size() && s[j] == ';' && j > i) {
      const auto& table = NamedEntities();
      if (const auto it = table.find(s.substr(i, j - i)); it != table.end()) {
        AppendUtf8(out, it->second);
        i = j + 1;
        continue;
      }
    }
    out += '&';
  }
  return out;
}

std::string ValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == 0) {
        AppendUtf8(out, kReplacement);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    size_t length = 0;
    uint32_t cp = 0;
    uint32_t min = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2, cp = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3, cp = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4, cp = c & 0x07, min = 0x10000;
    }
    bool ok = length != 0 && i + length <= s.size();
    for (size_t k = 1; ok && k < length; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) {
        ok = false;
      } else {
        cp = (cp << 6) | (cc & 0x3F);
      }
    }
    if (ok && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
    if (ok) {
      out.append(s.substr(i, length));
      i += length;
    } else {
      AppendUtf8(out, kReplacement);
      ++i;
    }
  }
  return out;
}

std::string Latin1ToUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (unsigned char c : s) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      AppendUtf8(out, FromWindows1252(c));
    }
  }
  return out;
}

}  // namespace credence::connectors::web::internal
