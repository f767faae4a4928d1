// The content scanner (src/scanning): every document body, entry block and
// connected file is scanned for secrets and personal data.
//
// Input: the text.
//
// Invariants: nothing throws; every finding lies inside the text, counts at
// least once, names a known detector and comes in offset order; and the
// scanner finds exactly what a scan with every rule's pattern in Hyperscan
// finds (detail::ReferenceScan), with every candidate starting where
// Hyperscan's own start of match says (the scanner reads starts back by
// hand and walks digits, ':' and '=' itself: docs/scanning.md).
#include <string>
#include <string_view>

#include "scanning/scanner.h"
#include "support/fuzz_support.h"

namespace {

const credence::scanning::Scanner& TheScanner() {
  static const auto scanner = [] {
    auto created = credence::scanning::Scanner::Create();
    if (!created) __builtin_trap();
    return *created;
  }();
  return *scanner;
}

bool KnownDetector(std::string_view id) {
  for (const auto& detector : credence::scanning::Detectors())
    if (detector.id == id) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto findings = TheScanner().Scan(text, "fuzz-tenant-key");
  size_t previous = 0;
  for (const auto& f : findings) {
    FUZZ_CHECK(f.offset + f.length <= text.size() && f.length > 0, f.detector);
    FUZZ_CHECK(f.count >= 1 && KnownDetector(f.detector), f.detector);
    FUZZ_CHECK(f.offset >= previous, "findings out of offset order");
    FUZZ_CHECK(f.fingerprint.size() == 64, f.fingerprint);
    previous = f.offset;
  }
  FUZZ_CHECK(findings == credence::scanning::detail::ReferenceScan(text, "fuzz-tenant-key"),
             "the scanner and the reference scan disagree");
  const auto disagreements = credence::scanning::detail::StartsDisagreeingWithHyperscan(text);
  FUZZ_CHECK(disagreements.empty(), disagreements.empty() ? std::string() : disagreements.front());
  return 0;
}
