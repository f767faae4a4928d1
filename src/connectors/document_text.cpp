#include "connectors/document_text.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace credence::connectors {
namespace {

std::string_view TrimView(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Unquote(std::string_view v) {
  v = TrimView(v);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  return std::string(v);
}

// Text the store can hold: well-formed UTF-8 without NUL bytes (surrogates
// and overlong forms are refused too: PostgreSQL would refuse them).
bool IsUtf8(std::string_view s) { return FirstLineNotUtf8Text(s) == 0; }

bool IsEmail(std::string_view s) {
  const auto at = s.find('@');
  return at != std::string_view::npos && at > 0 && at + 1 < s.size() && s.find(' ') == std::string_view::npos &&
         s.find('.', at) != std::string_view::npos;
}

// 2024-05-01 or a full timestamp.
std::optional<TimeMs> ParseDate(std::string_view v) {
  if (v.size() == 10) return ParseTimestamp(std::string(v) + "T00:00:00Z");
  return ParseTimestamp(v);
}

std::string FileName(std::string_view path) {
  const auto slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const auto dot = name.rfind('.');
  if (dot != std::string_view::npos && dot > 0) name = name.substr(0, dot);
  return std::string(name);
}

// The first Markdown (ATX or setext) or AsciiDoc heading.
std::optional<std::string> FirstHeading(std::string_view text) {
  std::string_view prev;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t hashes = 0;
    while (hashes < line.size() && (line[hashes] == '#' || line[hashes] == '=')) ++hashes;
    if (hashes >= 1 && hashes <= 6 && hashes < line.size() && line[hashes] == ' ') {
      std::string_view title = TrimView(line.substr(hashes));
      while (!title.empty() && title.back() == '#') title.remove_suffix(1);
      title = TrimView(title);
      if (!title.empty()) return std::string(title);
    }
    const std::string_view t = TrimView(line);
    if (!TrimView(prev).empty() && t.size() >= 2 &&
        (t.find_first_not_of('=') == std::string_view::npos || t.find_first_not_of('-') == std::string_view::npos))
      return std::string(TrimView(prev));
    prev = line;
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace

bool IsDocumentPath(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return false;
  const std::string ext = AsciiLower(path.substr(dot));
  return ext == ".md" || ext == ".markdown" || ext == ".adoc" || ext == ".asciidoc" || ext == ".txt";
}

Result<FileFacts> ReadFileFacts(std::string_view path, std::string_view text) {
  if (!IsUtf8(text)) return Error::InvalidArgument("not_text", "the file is not UTF-8 text");
  // A git path is any bytes; the title may come from it.
  if (!IsUtf8(path)) return Error::InvalidArgument("not_text", "the file's path is not UTF-8 text");
  FileFacts f;
  std::string_view body = text;
  std::optional<std::string> title;
  // Front matter: a first line of ---, key: value lines, a closing ---.
  if (text.rfind("---\n", 0) == 0 || text.rfind("---\r\n", 0) == 0) {
    const size_t start = text.find('\n') + 1;
    size_t at = start;
    bool closed = false;
    while (at < text.size()) {
      size_t end = text.find('\n', at);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(at, end - at);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line == "---" || line == "...") {
        body = text.substr(std::min(end + 1, text.size()));
        closed = true;
        break;
      }
      const auto colon = line.find(':');
      if (colon != std::string_view::npos) {
        const std::string key = AsciiLower(TrimView(line.substr(0, colon)));
        const std::string value = Unquote(line.substr(colon + 1));
        if (key == "title" && !value.empty()) title = value;
        if (key == "owner" && !value.empty()) {
          if (!IsEmail(value)) return Error::InvalidArgument("bad_front_matter", "front matter owner is not an email");
          f.owner_email = AsciiLower(value);
        }
        if ((key == "reviewed_at" || key == "reviewedat") && !value.empty()) {
          f.reviewed_at = ParseDate(value);
          if (!f.reviewed_at)
            return Error::InvalidArgument("bad_front_matter",
                                          "front matter reviewed_at is not a date (YYYY-MM-DD or an ISO 8601 time)");
        }
        if ((key == "review_type" || key == "reviewtype") && !value.empty()) {
          if (value != "QuickReview" && value != "FullReview" && value != "Attestation")
            return Error::InvalidArgument("bad_front_matter",
                                          "front matter review_type must be QuickReview, FullReview or Attestation");
          f.review_type = value;
        }
      }
      at = end + 1;
    }
    if (!closed) body = text;  // not front matter after all
    if (!closed) {
      f.owner_email.reset();
      f.reviewed_at.reset();
      f.review_type.reset();
      title.reset();
    }
  }
  if (f.review_type && !f.reviewed_at) f.review_type.reset();
  if (f.reviewed_at && !f.review_type) f.review_type = "FullReview";
  if (!title) title = FirstHeading(body);
  f.title = title ? *title : FileName(path);
  if (f.title.size() > 500) {
    // At a character's first byte, so the title stays UTF-8.
    size_t cut = 500;
    while (cut > 0 && (static_cast<unsigned char>(f.title[cut]) & 0xC0) == 0x80) --cut;
    f.title.resize(cut);
  }
  f.body = std::string(body);
  return f;
}

CodeOwners::CodeOwners(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = TrimView(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line.front() == '#') continue;
    Line l;
    size_t sp = line.find_first_of(" \t");
    l.pattern = std::string(line.substr(0, sp));
    while (sp != std::string_view::npos) {
      line = TrimView(line.substr(sp));
      sp = line.find_first_of(" \t");
      const std::string_view owner = line.substr(0, sp);
      if (!l.email && IsEmail(owner) && owner.front() != '@') l.email = AsciiLower(owner);
      if (sp == std::string_view::npos) break;
    }
    lines_.push_back(std::move(l));
  }
}

std::optional<std::string> CodeOwners::OwnerOf(std::string_view path) const {
  const std::string p(path);
  for (auto it = lines_.rbegin(); it != lines_.rend(); ++it) {
    std::string pattern = it->pattern;
    bool match = false;
    if (pattern == "*") {
      match = true;
    } else if (pattern.back() == '/') {
      std::string dir = pattern.front() == '/' ? pattern.substr(1) : pattern;
      match = p.rfind(dir, 0) == 0 || (pattern.front() != '/' && p.find("/" + dir) != std::string::npos);
    } else if (pattern.find('/') == std::string::npos) {
      const auto slash = p.rfind('/');
      const std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
      match = fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
    } else {
      if (pattern.front() == '/') pattern = pattern.substr(1);
      match = fnmatch(pattern.c_str(), p.c_str(), FNM_PATHNAME) == 0 ||
              p.rfind(pattern + "/", 0) == 0;  // a directory named without its slash
    }
    if (match) return it->email;
  }
  return std::nullopt;
}

}  // namespace credence::connectors
