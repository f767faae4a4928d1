// Front matter and CODEOWNERS of connected repositories
// (src/connectors/document_text.*): ReadFileFacts on every document file a
// git connector syncs, CodeOwners on the repository's CODEOWNERS file.
//
// Input: "path\n" then the file. The same text is also read as a
// CODEOWNERS file and asked for the path's owner.
//
// Invariants: nothing throws; a refusal is a 400-kind error (the sync
// records it against the file); accepted facts are storable: the title is
// valid UTF-8 without NUL, at most 500 bytes; the body is the end of the
// file; an owner is a lowercase address; a review type is one of three and
// comes with a review date.
#include <string>
#include <string_view>

#include "connectors/document_text.h"
#include "core/error.h"
#include "core/text.h"
#include "support/fuzz_support.h"

namespace {

bool Storable(std::string_view s) { return credence::IsValidUtf8(s) && s.find('\0') == std::string_view::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string_view path = input.substr(0, std::min(newline, input.size()));
  const std::string_view text = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

  (void)credence::connectors::IsDocumentPath(path);
  auto facts = credence::connectors::ReadFileFacts(path, text);
  if (!facts) {
    FUZZ_CHECK(facts.error().kind == credence::ErrorKind::kInvalidArgument, facts.error().code);
  } else {
    FUZZ_CHECK(Storable(facts->title) && facts->title.size() <= 500, facts->title);
    FUZZ_CHECK(Storable(facts->body), "a body that is not UTF-8 text");
    FUZZ_CHECK(text.ends_with(facts->body), facts->body);
    if (facts->owner_email) {
      FUZZ_CHECK(Storable(*facts->owner_email) && facts->owner_email->find('@') != std::string::npos,
                 *facts->owner_email);
    }
    if (facts->review_type) {
      FUZZ_CHECK(*facts->review_type == "QuickReview" || *facts->review_type == "FullReview" ||
                     *facts->review_type == "Attestation",
                 *facts->review_type);
      FUZZ_CHECK(facts->reviewed_at.has_value(), "a review type without a review date");
    }
  }

  const credence::connectors::CodeOwners owners(text);
  if (auto owner = owners.OwnerOf(path)) FUZZ_CHECK(owner->find('@') != std::string::npos, *owner);
  return 0;
}
