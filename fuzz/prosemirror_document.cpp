// ProseMirror/TipTap documents (src/kb/document.*): ParseOriginal, which
// every entry create and update runs on the client's `content`, and
// ParseTranslation, which every translation save runs.
//
// Invariants: nothing throws; a refusal is a 400 naming the field; an
// accepted document's blocks have distinct UUIDs at positions 0..n-1, with
// the hash and text of their own node; the re-serialized document is a
// fixed point (parsing it again keeps every id, hash and byte), and it is
// accepted as a translation of itself.
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/error.h"
#include "core/ids.h"
#include "kb/document.h"
#include "support/fuzz_support.h"

using credence::kb::ParsedDocument;

namespace {

void CheckRefusal(const credence::Error& e) {
  FUZZ_CHECK(e.kind == credence::ErrorKind::kInvalidArgument, e.code + ": " + e.detail);
  FUZZ_CHECK(!e.fields.empty() && e.fields.front().field == "content", e.code);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto doc = credence::kb::ParseOriginal(input, "content");
  if (!doc) {
    CheckRefusal(doc.error());
    // The same shape checks guard translations.
    auto translation = credence::kb::ParseTranslation(input, "content", {});
    if (translation) FUZZ_CHECK(translation->blocks.empty(), "a translation of nothing accepted blocks");
    else CheckRefusal(translation.error());
    return 0;
  }
  std::set<std::string> ids;
  std::unordered_map<std::string, int> positions;
  for (size_t i = 0; i < doc->blocks.size(); ++i) {
    const auto& b = doc->blocks[i];
    FUZZ_CHECK(credence::IsUuid(b.block_id) && b.block_id == credence::CanonicalUuid(b.block_id), b.block_id);
    FUZZ_CHECK(ids.insert(b.block_id).second, "duplicate block id " + b.block_id);
    FUZZ_CHECK(b.position == static_cast<int>(i), b.node_json);
    FUZZ_CHECK(credence::kb::BlockHash(b.node_json) == b.hash, b.node_json);
    FUZZ_CHECK(credence::kb::NodeText(b.node_json) == b.text, b.node_json);
    positions[b.block_id] = b.position;
  }

  auto again = credence::kb::ParseOriginal(doc->content, "content");
  FUZZ_CHECK(static_cast<bool>(again), doc->content);
  FUZZ_CHECK(again->content == doc->content, doc->content);
  FUZZ_CHECK(again->blocks.size() == doc->blocks.size(), doc->content);
  for (size_t i = 0; i < doc->blocks.size(); ++i) {
    FUZZ_CHECK(again->blocks[i].block_id == doc->blocks[i].block_id, doc->content);
    FUZZ_CHECK(again->blocks[i].hash == doc->blocks[i].hash, doc->content);
  }

  auto translation = credence::kb::ParseTranslation(doc->content, "content", positions);
  FUZZ_CHECK(static_cast<bool>(translation), doc->content);
  FUZZ_CHECK(translation->blocks.size() == doc->blocks.size(), doc->content);
  for (size_t i = 0; i < doc->blocks.size(); ++i)
    FUZZ_CHECK(translation->blocks[i].hash == doc->blocks[i].hash, doc->content);
  return 0;
}
