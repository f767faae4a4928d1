// Source ids (src/trust/source_id.*): ParseSourceId, which the trust plane
// runs on every id a caller asks about (evaluate, filter-sources), on
// findings filters and on source links.
//
// Invariants: nothing throws (parsing never fails a request); a parsed id
// re-serializes to itself (an entry id up to the case of its hex digits,
// which are canonicalized), and parsing that again gives the same result.
#include <string>
#include <string_view>

#include "core/ids.h"
#include "support/fuzz_support.h"
#include "trust/source_id.h"

using credence::trust::ParsedSourceId;
using credence::trust::SourceForm;

namespace {

std::string Serialize(const ParsedSourceId& p) {
  switch (p.form) {
    case SourceForm::kEntry: return "entry:" + p.entry_id;
    case SourceForm::kConnected: return p.connector_key + ":" + p.external_id;
    case SourceForm::kUrl: return p.url;
    case SourceForm::kInvalid: break;
  }
  return {};
}

bool SameParse(const ParsedSourceId& a, const ParsedSourceId& b) {
  return a.form == b.form && a.entry_id == b.entry_id && a.connector_key == b.connector_key &&
         a.external_id == b.external_id && a.url == b.url;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view id(reinterpret_cast<const char*>(data), size);
  const ParsedSourceId p = credence::trust::ParseSourceId(id);
  if (p.form == SourceForm::kInvalid) {
    FUZZ_CHECK(p.entry_id.empty() && p.connector_key.empty() && p.external_id.empty() && p.url.empty(), id);
    return 0;
  }
  FUZZ_CHECK(!id.empty() && id.size() <= credence::trust::kMaxSourceIdLength, id);
  const std::string serialized = Serialize(p);
  if (p.form == SourceForm::kEntry) {
    FUZZ_CHECK(credence::IsUuid(p.entry_id) && p.entry_id == credence::CanonicalUuid(p.entry_id), id);
    FUZZ_CHECK(credence::CanonicalUuid(id) == serialized, id);
  } else {
    FUZZ_CHECK(serialized == id, id);
  }
  if (p.form == SourceForm::kConnected) {
    FUZZ_CHECK(credence::trust::IsConnectorKey(p.connector_key) && !p.external_id.empty(), id);
  }
  FUZZ_CHECK(SameParse(credence::trust::ParseSourceId(serialized), p), id);
  return 0;
}
