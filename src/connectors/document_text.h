#pragma once
// Reading what a Git connector needs from a file (docs/connectors.md, "git"):
// front matter (owner, reviewed_at, review_type, title), the title (front
// matter, else the first heading, else the file name), and CODEOWNERS. Pure.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"

namespace credence::connectors {

// .md .markdown .adoc .asciidoc .txt (case-insensitive).
bool IsDocumentPath(std::string_view path);

struct FileFacts {
  std::string title;
  std::string body;  // the text after the front matter: what the content hash covers
  std::optional<std::string> owner_email;
  std::optional<TimeMs> reviewed_at;
  std::optional<std::string> review_type;
};

// Errors name what is wrong (not UTF-8 text; a front matter date that does
// not parse; an unknown review_type).
Result<FileFacts> ReadFileFacts(std::string_view path, std::string_view text);

// CODEOWNERS (GitHub's syntax, simplified): per line a pattern and owners;
// the last matching line wins; its first owner that is an email is the
// owner. Patterns: `*`, `/anchored/path`, `dir/` (a directory), globs with
// `*` and `?` (on the file name when the pattern has no slash).
class CodeOwners {
 public:
  explicit CodeOwners(std::string_view text = {});
  std::optional<std::string> OwnerOf(std::string_view path) const;

 private:
  struct Line {
    std::string pattern;
    std::optional<std::string> email;
  };
  std::vector<Line> lines_;
};

}  // namespace credence::connectors
