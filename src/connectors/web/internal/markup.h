#pragma once
// A forgiving tokenizer for HTML (and the simple XML of sitemaps), entity
// decoding and UTF-8 repair.
//
// Hand-written rather than libxml2's HTML parser or gumbo: the crawler needs
// text, links, a title and a few meta tags, not a DOM. This is a few hundred
// lines, linear in the input, allocates only what it returns, and has one
// behaviour on broken markup that we test (unclosed tags, stray '<',
// unterminated comments and quotes: all end at the end of the input), where
// libxml2 adds a dependency, its own error recovery and, for XML, entity
// expansion we would have to switch off (docs/connectors-web.md).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace credence::connectors::web::internal {

struct Attribute {
  std::string name;   // lowercased
  std::string value;  // entities decoded
};

struct Tag {
  std::string name;  // lowercased ("h1", "sm:loc")
  std::vector<Attribute> attributes;
  bool end = false;           // </name>
  bool self_closing = false;  // <name ... />
  // The value of the first attribute `name` (lowercase), or nullptr.
  const std::string* Attr(std::string_view name) const;
};

class MarkupTokenizer {
 public:
  enum class Token { kText, kTag, kDone };

  // `xml`: <![CDATA[...]]> is text; otherwise it is skipped as a comment.
  explicit MarkupTokenizer(std::string_view input, bool xml = false) : in_(input), xml_(xml) {}

  // The next token. Comments, doctypes and processing instructions are
  // skipped; a '<' that starts no tag is text. After kDone, always kDone.
  Token Next();

  // kText: raw text (entities not decoded), except CDATA which is literal;
  // cdata() tells which.
  std::string_view text() const { return text_; }
  bool cdata() const { return cdata_; }
  // kTag: the tag.
  const Tag& tag() const { return tag_; }

  // After a start tag: everything up to the matching end tag `</name`
  // (case-insensitive; the rest of the input when there is none), which is
  // consumed too. For raw-text elements (script, style) and elements whose
  // content is dropped whole (svg, template).
  std::string_view SkipContent(std::string_view name);

 private:
  void ParseStartTag();
  void SkipPast(std::string_view terminator);

  std::string_view in_;
  size_t pos_ = 0;
  bool xml_;
  std::string_view text_;
  bool cdata_ = false;
  Tag tag_;
};

// Decodes character references: named ones (the common HTML set, e.g. &amp;
// &nbsp; &eacute; &mdash;; a semicolon is required) and numeric ones (&#169;
// &#xA9;, semicolon optional). Unknown or malformed references stay literal;
// numbers that are no character become U+FFFD. &nbsp; becomes a plain space.
std::string DecodeEntities(std::string_view s);

// Appends the UTF-8 encoding of `code_point` (U+FFFD when it is none).
void AppendUtf8(std::string& out, uint32_t code_point);

// `s` with every invalid UTF-8 sequence, and every NUL byte (which PostgreSQL
// text cannot hold), replaced by U+FFFD.
std::string ValidUtf8(std::string_view s);

// ISO-8859-1 (and, for 0x80-0x9F, windows-1252) bytes as UTF-8.
std::string Latin1ToUtf8(std::string_view s);

}  // namespace credence::connectors::web::internal
