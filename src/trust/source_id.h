#pragma once
// Source identifiers (trust-and-platform.md, "Source identifier"):
// `entry:<guid>`, `<connector_key>:<external_id>` (the external id may
// contain colons), or an http(s) URL. Parsing never fails a request: what
// cannot be parsed is simply unresolvable.
#include <string>
#include <string_view>

namespace credence::trust {

inline constexpr size_t kMaxSourceIdLength = 2048;

enum class SourceForm { kEntry, kConnected, kUrl, kInvalid };

struct ParsedSourceId {
  SourceForm form = SourceForm::kInvalid;
  std::string entry_id;       // kEntry: canonical UUID
  std::string connector_key;  // kConnected
  std::string external_id;    // kConnected
  std::string url;            // kUrl: as given
};

// A connector key: 1..64 of [a-z0-9_-], starting with a letter or digit.
// `entry` is reserved for native entries; `http` and `https` for URLs.
bool IsConnectorKey(std::string_view key);

ParsedSourceId ParseSourceId(std::string_view id);

}  // namespace credence::trust
