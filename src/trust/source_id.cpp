#include "trust/source_id.h"

#include "core/ids.h"

namespace credence::trust {

bool IsConnectorKey(std::string_view key) {
  if (key.empty() || key.size() > 64) return false;
  for (size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '-'))) return false;
  }
  return key != "entry" && key != "http" && key != "https";
}

ParsedSourceId ParseSourceId(std::string_view id) {
  ParsedSourceId out;
  if (id.empty() || id.size() > kMaxSourceIdLength) return out;
  if (id.rfind("https://", 0) == 0 || id.rfind("http://", 0) == 0) {
    out.form = SourceForm::kUrl;
    out.url = std::string(id);
    return out;
  }
  const auto colon = id.find(':');
  if (colon == std::string_view::npos) return out;
  const std::string_view prefix = id.substr(0, colon);
  const std::string_view rest = id.substr(colon + 1);
  if (prefix == "entry") {
    if (IsUuid(rest)) {
      out.form = SourceForm::kEntry;
      out.entry_id = CanonicalUuid(std::string(rest));
    }
    return out;
  }
  if (IsConnectorKey(prefix) && !rest.empty()) {
    out.form = SourceForm::kConnected;
    out.connector_key = std::string(prefix);
    out.external_id = std::string(rest);
  }
  return out;
}

}  // namespace credence::trust
