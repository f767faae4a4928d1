// Glossary CSV imports (src/platform/glossaries.*): ParseGlossaryCsv, which
// POST .../glossaries/{id}/import/csv runs on the request body.
//
// Invariants: nothing throws; a refusal is a 400 invalid_csv; accepted terms
// are what the store and a JSON answer can hold (valid UTF-8, no NUL; trimmed
// and non-blank, within the length limits) and survive the export:
// ParseGlossaryCsv(WriteGlossaryCsv(terms)) gives the same terms.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/text.h"
#include "platform/glossaries.h"
#include "support/fuzz_support.h"

using credence::platform::GlossaryTerm;

namespace {

bool Storable(std::string_view s) { return credence::IsValidUtf8(s) && s.find('\0') == std::string_view::npos; }

bool Same(const std::vector<GlossaryTerm>& a, const std::vector<GlossaryTerm>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].source != b[i].source || a[i].target != b[i].target || a[i].case_sensitive != b[i].case_sensitive ||
        a[i].notes != b[i].notes)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view csv(reinterpret_cast<const char*>(data), size);
  auto terms = credence::platform::ParseGlossaryCsv(csv);
  if (!terms) {
    FUZZ_CHECK(terms.error().kind == credence::ErrorKind::kInvalidArgument && terms.error().code == "invalid_csv",
               terms.error().code);
    return 0;
  }
  FUZZ_CHECK(terms->size() <= credence::platform::kMaxGlossaryTerms, csv);
  for (const auto& t : *terms) {
    FUZZ_CHECK(Storable(t.source) && Storable(t.target) && (!t.notes || Storable(*t.notes)), csv);
    FUZZ_CHECK(!t.source.empty() && t.source == credence::Trim(t.source), t.source);
    FUZZ_CHECK(!t.target.empty() && t.target == credence::Trim(t.target), t.target);
    FUZZ_CHECK(credence::Utf8Length(t.source) <= credence::platform::kMaxGlossaryTermLength, t.source);
    FUZZ_CHECK(credence::Utf8Length(t.target) <= credence::platform::kMaxGlossaryTermLength, t.target);
  }
  const std::string exported = credence::platform::WriteGlossaryCsv(*terms);
  auto again = credence::platform::ParseGlossaryCsv(exported);
  FUZZ_CHECK(static_cast<bool>(again), exported);
  FUZZ_CHECK(Same(*again, *terms), exported);
  return 0;
}
