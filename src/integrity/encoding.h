#pragma once
// The text forms of the transparency formats (C2SP signed-note and
// tlog-checkpoint, receipts): standard base64 with padding (RFC 4648
// section 4), which those formats use, and lowercase hex, which the ledger's
// hashes use. Decoding is strict: one text per byte string, so a receipt
// cannot be altered in its encoding alone.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace credence::integrity {

std::string Base64Encode(std::string_view bytes);
// nullopt unless `text` is exactly Base64Encode of some bytes.
std::optional<std::string> Base64DecodeStrict(std::string_view text);

std::string HexEncode(std::string_view bytes);
// nullopt unless `text` is lowercase hex of an even length.
std::optional<std::string> HexDecodeStrict(std::string_view text);
// The same into `out` with no allocation: false unless `text` is lowercase
// hex of exactly out.size() bytes.
bool HexDecodeInto(std::string_view text, std::span<unsigned char> out);

}  // namespace credence::integrity
