#include "platform/internal/xml_reader.h"

#include <cstdint>

#include "core/text.h"

namespace credence::platform::internal {
namespace {

class Parser {
 public:
  Parser(std::string_view text, const XmlLimits& limits) : s_(text), limits_(limits) {}

  Result<XmlElement> Document() {
    if (s_.size() > limits_.max_bytes) return Fail("the document is larger than the limit");
    // UTF-8 only (no encoding declaration is honoured), and terms must be
    // storable: a NUL or a malformed sequence refuses the document.
    if (const size_t bad = FirstLineNotUtf8Text(s_); bad != 0)
      return Error::InvalidArgument("invalid_xml", "Not a well-formed XML document (line " + std::to_string(bad) +
                                                       "): not UTF-8 text.");
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    if (!SkipMisc()) return Fail(error_);
    if (AtEnd() || Peek() != '<') return Fail("expected the root element");
    XmlElement root;
    if (!Element(root, 1)) return Fail(error_);
    if (!SkipMisc()) return Fail(error_);
    if (!AtEnd()) return Fail("content after the root element");
    return root;
  }

 private:
  bool AtEnd() const { return pos_ >= s_.size(); }
  char Peek() const { return s_[pos_]; }
  bool StartsWith(std::string_view p) const { return s_.substr(pos_, p.size()) == p; }

  Error Fail(const std::string& what) const {
    size_t line = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) line += s_[i] == '\n' ? 1 : 0;
    return Error::InvalidArgument("invalid_xml",
                                  "Not a well-formed XML document (line " + std::to_string(line) + "): " + what + ".");
  }
  bool Bad(std::string what) {
    error_ = std::move(what);
    return false;
  }

  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\r' || Peek() == '\n')) ++pos_;
  }

  bool SkipUntil(std::string_view end) {
    const size_t found = s_.find(end, pos_);
    if (found == std::string_view::npos) return Bad("unterminated construct");
    pos_ = found + end.size();
    return true;
  }

  // White space, comments, processing instructions (and the declaration)
  // between top-level constructs. A DOCTYPE is refused.
  bool SkipMisc() {
    for (;;) {
      SkipSpace();
      if (StartsWith("<?")) {
        if (!SkipUntil("?>")) return false;
      } else if (StartsWith("<!--")) {
        if (!SkipUntil("-->")) return false;
      } else if (StartsWith("<!")) {
        return Bad("DOCTYPE and other declarations are not allowed (no DTDs, no entities)");
      } else {
        return true;
      }
    }
  }

  static bool IsNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
  }

  bool Name(std::string& out) {
    const size_t start = pos_;
    while (!AtEnd() && IsNameChar(Peek())) ++pos_;
    if (pos_ == start) return Bad("expected a name");
    out.assign(s_.substr(start, pos_ - start));
    return true;
  }

  static void AppendUtf8(std::string& out, uint32_t cp) {
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

  // At '&': a predefined entity or a character reference.
  bool Reference(std::string& out) {
    const size_t end = s_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 12) return Bad("a bare '&' (write &amp;)");
    const std::string_view ref = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    if (ref == "amp")
      out += '&';
    else if (ref == "lt")
      out += '<';
    else if (ref == "gt")
      out += '>';
    else if (ref == "quot")
      out += '"';
    else if (ref == "apos")
      out += '\'';
    else if (ref.size() > 1 && ref[0] == '#') {
      uint32_t cp = 0;
      const bool hex = ref[1] == 'x';
      const std::string_view digits = ref.substr(hex ? 2 : 1);
      if (digits.empty()) return Bad("an empty character reference");
      for (char c : digits) {
        int d = -1;
        if (c >= '0' && c <= '9')
          d = c - '0';
        else if (hex && c >= 'a' && c <= 'f')
          d = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F')
          d = c - 'A' + 10;
        if (d < 0) return Bad("a malformed character reference");
        cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(d);
        if (cp > 0x10FFFF) return Bad("a character reference out of range");
      }
      if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return Bad("a character reference to an invalid character");
      AppendUtf8(out, cp);
    } else {
      return Bad("the entity '&" + std::string(ref) + ";' is not defined (only the five predefined ones are)");
    }
    return true;
  }

  bool AttributeValue(std::string& out) {
    if (AtEnd() || (Peek() != '"' && Peek() != '\'')) return Bad("expected a quoted attribute value");
    const char quote = s_[pos_++];
    while (!AtEnd() && Peek() != quote) {
      if (Peek() == '<') return Bad("'<' in an attribute value");
      if (Peek() == '&') {
        if (!Reference(out)) return false;
      } else {
        out += s_[pos_++];
      }
    }
    if (AtEnd()) return Bad("unterminated attribute value");
    ++pos_;
    return true;
  }

  static std::string LocalName(const std::string& qualified) {
    const auto colon = qualified.find(':');
    return colon == std::string::npos ? qualified : qualified.substr(colon + 1);
  }

  // At '<' of a start tag.
  bool Element(XmlElement& el, size_t depth) {
    if (depth > limits_.max_depth) return Bad("nested deeper than " + std::to_string(limits_.max_depth));
    if (++elements_ > limits_.max_elements)
      return Bad("more than " + std::to_string(limits_.max_elements) + " elements");
    ++pos_;
    std::string qualified;
    if (!Name(qualified)) return false;
    el.name = LocalName(qualified);
    for (;;) {
      SkipSpace();
      if (AtEnd()) return Bad("unterminated start tag");
      if (StartsWith("/>")) {
        pos_ += 2;
        return true;
      }
      if (Peek() == '>') {
        ++pos_;
        break;
      }
      std::string name, value;
      if (!Name(name)) return false;
      SkipSpace();
      if (AtEnd() || Peek() != '=') return Bad("expected '=' after an attribute name");
      ++pos_;
      SkipSpace();
      if (!AttributeValue(value)) return false;
      el.attributes.emplace_back(std::move(name), std::move(value));
    }
    // Content.
    for (;;) {
      if (AtEnd()) return Bad("the element <" + qualified + "> is not closed");
      if (StartsWith("</")) {
        pos_ += 2;
        std::string closing;
        if (!Name(closing)) return false;
        if (closing != qualified) {
          std::string what = "</";
          what.append(closing).append("> closes <").append(qualified).append(">");
          return Bad(std::move(what));
        }
        SkipSpace();
        if (AtEnd() || Peek() != '>') return Bad("expected '>'");
        ++pos_;
        return true;
      }
      if (StartsWith("<!--")) {
        if (!SkipUntil("-->")) return false;
      } else if (StartsWith("<![CDATA[")) {
        pos_ += 9;
        const size_t end = s_.find("]]>", pos_);
        if (end == std::string_view::npos) return Bad("unterminated CDATA section");
        el.text.append(s_.substr(pos_, end - pos_));
        pos_ = end + 3;
      } else if (StartsWith("<?")) {
        if (!SkipUntil("?>")) return false;
      } else if (StartsWith("<!")) {
        return Bad("declarations are not allowed inside elements");
      } else if (Peek() == '<') {
        el.children.emplace_back();
        if (!Element(el.children.back(), depth + 1)) return false;
      } else if (Peek() == '&') {
        if (!Reference(el.text)) return false;
      } else {
        el.text += s_[pos_++];
      }
    }
  }

  std::string_view s_;
  XmlLimits limits_;
  size_t pos_ = 0;
  size_t elements_ = 0;
  std::string error_;
};

void CollectText(const XmlElement& el, std::string& out) {
  // Text directly inside comes first: TBX terms carry no mixed content that
  // would need interleaving.
  out += el.text;
  for (const auto& c : el.children) CollectText(c, out);
}

}  // namespace

const std::string* XmlElement::Attribute(std::string_view name) const {
  for (const auto& [n, v] : attributes)
    if (n == name) return &v;
  return nullptr;
}

std::string XmlElement::AllText() const {
  std::string out;
  CollectText(*this, out);
  return out;
}

Result<XmlElement> ParseXml(std::string_view text, const XmlLimits& limits) { return Parser(text, limits).Document(); }

}  // namespace credence::platform::internal
