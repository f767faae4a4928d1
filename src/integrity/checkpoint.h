#pragma once
// C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the body of a
// signed note that commits to a log's tree,
//   <origin>\n<tree size>\n<base64 root hash>\n[extension lines]
// Pure.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "integrity/merkle.h"

namespace credence::integrity {

struct Checkpoint {
  std::string origin;
  uint64_t size = 0;
  merkle::Hash root{};
  std::vector<std::string> extensions;  // lines after the root, kept as they are
};

std::string CheckpointBody(const Checkpoint& c);
// 400 malformed_checkpoint naming the line at fault: an empty origin, a size
// that is not a decimal without leading zeros, a root that is not the base64
// of 32 bytes, an empty extension line, a text not ending in a newline.
Result<Checkpoint> ParseCheckpointBody(std::string_view text);

}  // namespace credence::integrity
