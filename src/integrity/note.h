#pragma once
// C2SP signed-note (https://c2sp.org/signed-note), the envelope of
// checkpoints: a text, a blank line, and signature lines
// "— <key name> <base64(key id || signature)>". Only Ed25519 keys
// (signature type 0x01) are made or checked here. A verifier key is
// "<name>+<key id as 8 hex digits>+<base64(0x01 || public key)>"; the key
// id is the first four bytes of SHA-256(name || 0x0A || 0x01 || public
// key), so one key has an id per name. Pure, apart from OpenSSL's Ed25519.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace credence::integrity {
class SigningKey;
}

namespace credence::integrity::note {

inline constexpr unsigned char kEd25519 = 0x01;

// A key name: not empty, no Unicode space, no '+'.
bool ValidKeyName(std::string_view name);
// The key id of the raw 32-byte Ed25519 `public_key` under `name`.
uint32_t KeyId(std::string_view name, std::string_view public_key);

struct VerifierKey {
  std::string name;
  uint32_t id = 0;
  std::string public_key;  // raw Ed25519, 32 bytes
};
// "<name>+<8 hex>+<base64(0x01 || key)>".
std::string Encode(const VerifierKey& key);
VerifierKey VerifierKeyOf(std::string_view name, std::string_view public_key);
// 400 invalid_verifier_key naming what is wrong: the shape, the name, an
// algorithm other than Ed25519, a key of the wrong length, an id that is not
// the key's.
Result<VerifierKey> ParseVerifierKey(std::string_view text);

// `text` (non-empty, ending in a newline) signed by `key` under `name`: the
// whole signed note.
std::string Sign(std::string_view text, std::string_view name, const SigningKey& key);
// The same from a raw 64-byte signature, for signatures made elsewhere.
std::string SignatureLine(std::string_view name, uint32_t id, std::string_view signature);

struct Signature {
  std::string name;
  uint32_t id = 0;
  std::string signature;  // what follows the key id: 64 bytes for Ed25519
};
struct Note {
  std::string text;  // up to and including the newline before the blank line
  std::vector<Signature> signatures;
};
// 400 malformed_note with the reason: not UTF-8, control characters in the
// text, no blank line before the signatures, a signature line that is not
// "— name base64", more than 100 signatures.
Result<Note> Parse(std::string_view signed_note);

// Why no signature of `note` verifies with `key` ("" when one does): no
// signature under the key's name, one under its name with another key id,
// or one whose signature does not verify (the text or the signature was
// altered).
std::string VerificationProblem(const Note& note, const VerifierKey& key);

}  // namespace credence::integrity::note
