#include "connectors/web/html_text.h"

#include <set>
#include <unordered_set>

#include "connectors/web/internal/markup.h"
#include "connectors/web/internal/url.h"

namespace credence::connectors::web {
namespace {

using internal::MarkupTokenizer;

constexpr size_t kMaxTitleChars = 512;
// Longer links are not followed (browsers and servers commonly stop near 2 KB).
constexpr size_t kMaxLinkLength = 2048;

// Builds text with white space collapsed: runs of blanks become one space,
// line breaks come only from Newline(), never two in a row, none leading.
class TextBuilder {
 public:
  void Append(std::string_view s) {
    for (char c : s) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        pending_space_ = true;
        continue;
      }
      if (pending_space_ && !out_.empty() && out_.back() != '\n') out_ += ' ';
      pending_space_ = false;
      out_ += c;
    }
  }
  void Newline() {
    pending_space_ = false;
    if (!out_.empty() && out_.back() != '\n') out_ += '\n';
  }
  std::string Take() {
    while (!out_.empty() && out_.back() == '\n') out_.pop_back();
    return internal::ValidUtf8(out_);
  }

 private:
  std::string out_;
  bool pending_space_ = false;
};

std::string Collapse(std::string_view s) {
  TextBuilder b;
  b.Append(s);
  return b.Take();
}

// At most `max` characters of valid UTF-8, cut at a character boundary.
std::string Truncate(std::string s, size_t max) {
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (++chars > max) {
      s.resize(i);
      break;
    }
  }
  return s;
}

// Elements whose whole content is not text a reader sees.
bool IsDropped(std::string_view name) {
  static const std::unordered_set<std::string_view> kDropped = {"script", "style",  "noscript", "template", "svg",
                                                                "math",   "iframe", "object",   "textarea", "select"};
  return kDropped.contains(name);
}

// Elements that start and end a line of text.
bool IsBlock(std::string_view name) {
  static const std::unordered_set<std::string_view> kBlock = {
      "address", "article", "aside",    "blockquote", "br",     "caption", "dd",     "details", "dialog", "div",
      "dl",      "dt",      "fieldset", "figcaption", "figure", "footer",  "form",   "h1",      "h2",     "h3",
      "h4",      "h5",      "h6",       "header",     "hgroup", "hr",      "li",     "main",    "nav",    "ol",
      "p",       "pre",     "section",  "summary",    "table",  "tbody",   "td",     "tfoot",   "th",     "thead",
      "tr",      "ul",      "body",     "html",       "legend", "option",  "center", "menu"};
  return kBlock.contains(name);
}

}  // namespace

HtmlText HtmlToText(std::string_view html, std::string_view base_url) {
  HtmlText out;
  TextBuilder text;
  std::string base = internal::CanonicalUrl(base_url).value_or(std::string());
  bool base_set = false;
  bool title_seen = false;
  std::string title_raw;
  enum { kBeforeH1, kInH1, kAfterH1 } h1 = kBeforeH1;
  std::string h1_text;
  std::set<std::string> seen_links;

  MarkupTokenizer tokens(html);
  for (auto t = tokens.Next(); t != MarkupTokenizer::Token::kDone; t = tokens.Next()) {
    if (t == MarkupTokenizer::Token::kText) {
      const std::string decoded = internal::DecodeEntities(tokens.text());
      text.Append(decoded);
      if (h1 == kInH1) h1_text += decoded;
      continue;
    }
    const internal::Tag& tag = tokens.tag();
    const std::string& name = tag.name;
    if (tag.end) {
      if (IsBlock(name)) text.Newline();
      if (name == "h1" && h1 == kInH1) h1 = kAfterH1;
      continue;
    }
    if (name == "title") {
      // Raw text up to </title> (RCDATA: no tags inside); the first one wins.
      const std::string_view raw = tag.self_closing ? std::string_view() : tokens.SkipContent("title");
      if (!title_seen) title_raw = internal::DecodeEntities(raw);
      title_seen = true;
      continue;
    }
    if (name == "head") continue;  // its content is tags (title, meta, base), handled one by one
    if (IsDropped(name)) {
      if (!tag.self_closing) tokens.SkipContent(name);
      continue;
    }
    if (IsBlock(name)) text.Newline();
    if (name == "h1" && h1 == kBeforeH1) h1 = kInH1;
    if (name == "base" && !base_set) {
      if (const std::string* href = tag.Attr("href")) {
        if (auto resolved = internal::ResolveUrl(base, *href)) base = *resolved;
      }
      base_set = true;
    } else if (name == "a" || name == "area") {
      const std::string* href = tag.Attr("href");
      if (href != nullptr && !base.empty()) {
        auto link = internal::ResolveUrl(base, *href);
        if (link && link->size() <= kMaxLinkLength && seen_links.insert(*link).second)
          out.links.push_back(std::move(*link));
      }
    } else if (name == "meta") {
      const std::string* key = tag.Attr("name");
      if (key == nullptr) key = tag.Attr("property");
      const std::string* content = tag.Attr("content");
      if (key != nullptr && content != nullptr) {
        std::string k = *key;
        for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        out.meta.emplace(std::move(k), Collapse(*content));
      }
    }
  }
  out.text = text.Take();
  out.title = Collapse(title_raw);
  if (out.title.empty()) out.title = Collapse(h1_text);
  if (out.title.empty()) out.title = internal::ValidUtf8(base_url);
  out.title = Truncate(std::move(out.title), kMaxTitleChars);
  return out;
}

HtmlText PlainToText(std::string_view plain, std::string_view base_url) {
  HtmlText out;
  TextBuilder text;
  size_t start = 0;
  while (start <= plain.size()) {
    size_t end = plain.find('\n', start);
    if (end == std::string_view::npos) end = plain.size();
    text.Append(plain.substr(start, end - start));
    text.Newline();
    start = end + 1;
  }
  out.text = text.Take();
  out.title = Truncate(internal::ValidUtf8(base_url), kMaxTitleChars);
  return out;
}

}  // namespace credence::connectors::web
