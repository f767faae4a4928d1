#include "integrity/checkpoint.h"

#include "integrity/encoding.h"

namespace credence::integrity {
namespace {

Error Malformed(std::string detail) { return Error::InvalidArgument("malformed_checkpoint", std::move(detail)); }

}  // namespace

std::string CheckpointBody(const Checkpoint& c) {
  std::string out = c.origin;
  out += '\n';
  out += std::to_string(c.size);
  out += '\n';
  out += Base64Encode(merkle::Bytes(c.root));
  out += '\n';
  for (const auto& e : c.extensions) out.append(e).append("\n");
  return out;
}

Result<Checkpoint> ParseCheckpointBody(std::string_view text) {
  if (text.empty() || text.back() != '\n') return Malformed("A checkpoint's lines end in a newline.");
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < text.size();) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (lines.size() < 3) return Malformed("A checkpoint has an origin, a tree size and a root hash, one a line.");
  Checkpoint c;
  c.origin = std::string(lines[0]);
  if (c.origin.empty()) return Malformed("The checkpoint's origin (line 1) is empty.");
  const std::string_view size = lines[1];
  if (size.empty() || size.size() > 20 || (size.size() > 1 && size[0] == '0'))
    return Malformed("The checkpoint's tree size (line 2) is not a decimal number without leading zeros.");
  for (char ch : size) {
    if (ch < '0' || ch > '9')
      return Malformed("The checkpoint's tree size (line 2) is not a decimal number without leading zeros.");
    const uint64_t digit = static_cast<uint64_t>(ch - '0');
    if (c.size > (UINT64_MAX - digit) / 10) return Malformed("The checkpoint's tree size (line 2) is too large.");
    c.size = c.size * 10 + digit;
  }
  const auto root = Base64DecodeStrict(lines[2]);
  if (!root || !merkle::FromBytes(*root, c.root))
    return Malformed("The checkpoint's root hash (line 3) is not 32 bytes in base64.");
  for (size_t i = 3; i < lines.size(); ++i) {
    if (lines[i].empty()) return Malformed("The checkpoint has an empty line " + std::to_string(i + 1) + ".");
    c.extensions.emplace_back(lines[i]);
  }
  return c;
}

}  // namespace credence::integrity
