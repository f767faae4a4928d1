#pragma once
// The content scanner (docs/scanning.md): text in, findings out. Pure: no
// storage, no logging of what it reads. Every pattern of every detector runs
// in one multi-pattern Hyperscan pass that yields candidates; each candidate
// is then validated in C++ (checksum, structure, entropy, placeholders) and
// its exact span re-extracted by the detector's own parser.
//
// A finding never carries the matched text: only where it was first seen,
// how often the same value occurs, and a keyed HMAC-SHA256 fingerprint of the
// value (the key is the caller's, one per tenant), so the same secret seen
// twice, in one text or in two, is the same finding.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"

#include "core/result.h"

namespace credence::scanning {

enum class Kind { kSecret, kPersonalData };
std::string_view KindName(Kind kind);  // "secret" | "personal_data"

// A detector's stable identity (docs/scanning.md lists them all).
struct DetectorInfo {
  std::string_view id;  // e.g. "github_token"
  Kind kind = Kind::kSecret;
  std::string_view sub_type;  // e.g. "github_classic_pat"
};

// The detectors this build knows, in a stable order.
std::span<const DetectorInfo> Detectors();

struct Finding {
  std::string detector;  // DetectorInfo::id
  Kind kind = Kind::kSecret;
  std::string sub_type;
  size_t offset = 0;        // byte offset of the first occurrence
  size_t length = 0;        // its length in bytes
  int count = 0;            // occurrences of this value in the text
  std::string fingerprint;  // lowercase hex HMAC-SHA256(key, value)

  bool operator==(const Finding&) const = default;
};

// One compiled rule set. Compile once (it is immutable and may be shared by
// threads); each thread scans with its own Scratch.
class Scanner {
 public:
  ~Scanner();
  Scanner(const Scanner&) = delete;
  Scanner& operator=(const Scanner&) = delete;

  static Result<std::shared_ptr<const Scanner>> Create();

  // Per-thread working memory for scans with this scanner.
  class Scratch {
   public:
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

   private:
    friend class Scanner;
    Scratch() = default;
    void* scratch_ = nullptr;  // hs_scratch_t
  };
  std::unique_ptr<Scratch> NewScratch() const;

  // The findings in `text`, one per distinct (detector, value), ordered by
  // offset. `fingerprint_key` is the tenant's HMAC key.
  std::vector<Finding> Scan(std::string_view text, std::string_view fingerprint_key, Scratch& scratch) const;
  // The same with a scratch of the calling thread's own, made on its first
  // scan (and again when the thread turns to another scanner).
  std::vector<Finding> Scan(std::string_view text, std::string_view fingerprint_key) const;

 private:
  Scanner() = default;
  void* database_ = nullptr;  // hs_database_t
};

// Exposed for tests and for generating test data.
namespace detail {
using credence::Base62Fixed;  // core/ids.h: the checksum of Credence's formats
using credence::Crc32;
bool Luhn(std::string_view digits);
bool IbanChecksumValid(std::string_view compact_iban);
double ShannonEntropy(std::string_view text);  // bits per byte
// Every candidate whose start, as the scanner finds it from the match's end,
// differs from the leftmost start Hyperscan reports when asked for starts
// (a description of each; none when the scanner is right).
std::vector<std::string> StartsDisagreeingWithHyperscan(std::string_view text);
// The scan as the rules define it: every rule's pattern in one Hyperscan
// database that reports starts of match, no digit pass. Slower; the
// scanner's findings must equal these.
std::vector<Finding> ReferenceScan(std::string_view text, std::string_view fingerprint_key);
}  // namespace detail

}  // namespace credence::scanning
