// Glossary TBX imports (src/platform/glossaries.*) and the XML reader under
// them (src/platform/internal/xml_reader.*): ParseGlossaryTbx, which
// POST .../glossaries/{id}/import/tbx runs on the request body with the
// glossary's languages (here en -> de).
//
// Invariants: nothing throws; ParseXml refuses with 400 invalid_xml, within
// its depth bound; ParseGlossaryTbx refuses with invalid_xml or invalid_tbx;
// accepted terms are valid UTF-8 without NUL and non-blank, and survive the
// export: ParseGlossaryTbx(WriteGlossaryTbx(g)) gives the same terms.
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/text.h"
#include "platform/glossaries.h"
#include "platform/internal/xml_reader.h"
#include "support/fuzz_support.h"

using credence::platform::GlossaryTerm;

namespace {

bool Storable(std::string_view s) { return credence::IsValidUtf8(s) && s.find('\0') == std::string_view::npos; }

size_t Depth(const credence::platform::internal::XmlElement& e) {
  size_t deepest = 0;
  for (const auto& child : e.children) deepest = std::max(deepest, Depth(child));
  return deepest + 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  const credence::platform::internal::XmlLimits limits;
  auto root = credence::platform::internal::ParseXml(xml, limits);
  if (!root) {
    FUZZ_CHECK(root.error().kind == credence::ErrorKind::kInvalidArgument && root.error().code == "invalid_xml",
               root.error().code);
  } else {
    FUZZ_CHECK(Depth(*root) <= limits.max_depth, xml);
    (void)root->AllText();
  }

  auto tbx = credence::platform::ParseGlossaryTbx(xml, "en", "de");
  if (!tbx) {
    const auto& e = tbx.error();
    FUZZ_CHECK(e.kind == credence::ErrorKind::kInvalidArgument && (e.code == "invalid_xml" || e.code == "invalid_tbx"),
               e.code);
    return 0;
  }
  for (const auto& t : tbx->terms) {
    FUZZ_CHECK(Storable(t.source) && Storable(t.target) && (!t.notes || Storable(*t.notes)), xml);
    FUZZ_CHECK(!credence::Trim(t.source).empty() && !credence::Trim(t.target).empty(), xml);
  }
  credence::platform::Glossary g;
  g.name = "fuzz";
  g.source_language = "en";
  g.target_language = "de";
  g.terms = tbx->terms;
  g.term_count = g.terms.size();
  const std::string exported = credence::platform::WriteGlossaryTbx(g);
  auto again = credence::platform::ParseGlossaryTbx(exported, "en", "de");
  FUZZ_CHECK(static_cast<bool>(again), exported);
  FUZZ_CHECK(again->skipped == 0 && again->terms.size() == tbx->terms.size(), exported);
  for (size_t i = 0; i < tbx->terms.size(); ++i) {
    const GlossaryTerm& a = tbx->terms[i];
    const GlossaryTerm& b = again->terms[i];
    FUZZ_CHECK(a.source == b.source && a.target == b.target && a.notes == b.notes, exported);
  }
  return 0;
}
