#include "integrity/note.h"

#include <stdexcept>

#include "integrity/encoding.h"
#include "integrity/merkle.h"
#include "integrity/signing_key.h"

namespace credence::integrity::note {
namespace {

constexpr std::string_view kSignaturePrefix = "\xE2\x80\x94 ";  // U+2014 EM DASH, then a space
constexpr size_t kMaxSignatures = 100;

// The code point at `i` of UTF-8 `text` and its length; length 0 when the
// bytes there are not UTF-8 (overlong forms and surrogates included).
std::pair<uint32_t, size_t> DecodeUtf8(std::string_view text, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return {c, 1};
  size_t n = 0;
  uint32_t cp = 0, min = 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return {0, 0};
  }
  if (i + n > text.size()) return {0, 0};
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
  return {cp, n};
}

bool IsUnicodeSpace(uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// UTF-8 with no control character but the newline (what a note may hold).
bool ValidNoteText(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    auto [cp, n] = DecodeUtf8(text, i);
    if (n == 0 || (cp < 0x20 && cp != '\n')) return false;
    i += n;
  }
  return true;
}

uint32_t BigEndian(std::string_view four) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(four[i]);
  return v;
}

std::string Hex8(uint32_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(8, '0');
  for (int i = 7; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = kHex[v & 15];
  return out;
}

Error BadKey(std::string detail) { return Error::InvalidArgument("invalid_verifier_key", std::move(detail)); }
Error Malformed(std::string detail) { return Error::InvalidArgument("malformed_note", std::move(detail)); }

}  // namespace

bool ValidKeyName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size();) {
    auto [cp, n] = DecodeUtf8(name, i);
    if (n == 0 || cp == '+' || IsUnicodeSpace(cp) || cp < 0x20) return false;
    i += n;
  }
  return true;
}

uint32_t KeyId(std::string_view name, std::string_view public_key) {
  std::string material(name);
  material += '\n';
  material += static_cast<char>(kEd25519);
  material += public_key;
  const merkle::Hash h = merkle::Sha256(material);
  return BigEndian(std::string_view(reinterpret_cast<const char*>(h.data()), 4));
}

VerifierKey VerifierKeyOf(std::string_view name, std::string_view public_key) {
  return VerifierKey{std::string(name), KeyId(name, public_key), std::string(public_key)};
}

std::string Encode(const VerifierKey& key) {
  std::string typed(1, static_cast<char>(kEd25519));
  typed += key.public_key;
  return key.name + "+" + Hex8(key.id) + "+" + Base64Encode(typed);
}

Result<VerifierKey> ParseVerifierKey(std::string_view text) {
  const size_t first = text.find('+');
  const size_t second = first == std::string_view::npos ? first : text.find('+', first + 1);
  if (second == std::string_view::npos) return BadKey("A verifier key is <name>+<8 hex digits>+<base64 key>.");
  const std::string_view name = text.substr(0, first), id_hex = text.substr(first + 1, second - first - 1),
                         key64 = text.substr(second + 1);
  if (!ValidKeyName(name)) return BadKey("The key name is empty or holds a space or a '+'.");
  uint32_t id = 0;
  if (id_hex.size() != 8) return BadKey("The key id is not 8 hex digits.");
  for (char c : id_hex) {
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return BadKey("The key id is not 8 hex digits.");
    id = (id << 4) | static_cast<uint32_t>(d);
  }
  const auto typed = Base64DecodeStrict(key64);
  if (!typed || typed->empty()) return BadKey("The key is not base64.");
  if (static_cast<unsigned char>((*typed)[0]) != kEd25519)
    return BadKey("The key is not an Ed25519 key (its first byte is not 0x01).");
  const std::string raw = typed->substr(1);
  if (raw.size() != 32) return BadKey("An Ed25519 key is 32 bytes, this one " + std::to_string(raw.size()) + ".");
  if (KeyId(name, raw) != id)
    return BadKey("The key id " + std::string(id_hex) + " is not the id of this key and name.");
  return VerifierKey{std::string(name), id, raw};
}

std::string SignatureLine(std::string_view name, uint32_t id, std::string_view signature) {
  std::string typed;
  for (int shift = 24; shift >= 0; shift -= 8) typed += static_cast<char>((id >> shift) & 0xFF);
  typed += signature;
  std::string out(kSignaturePrefix);
  out.append(name).append(" ").append(Base64Encode(typed)).append("\n");
  return out;
}

std::string Sign(std::string_view text, std::string_view name, const SigningKey& key) {
  if (text.empty() || text.back() != '\n' || !ValidNoteText(text))
    throw std::invalid_argument("a note's text is UTF-8 lines without control characters, ending in a newline");
  if (!ValidKeyName(name)) throw std::invalid_argument("invalid key name");
  std::string out(text);
  out += '\n';
  out += SignatureLine(name, KeyId(name, key.raw_public_key()), key.SignRaw(text));
  return out;
}

Result<Note> Parse(std::string_view signed_note) {
  if (!ValidNoteText(signed_note))
    return Malformed("The note is not UTF-8 text without control characters other than newlines.");
  const size_t split = signed_note.rfind("\n\n");
  if (split == std::string_view::npos) return Malformed("The note has no blank line before its signatures.");
  Note out;
  out.text = std::string(signed_note.substr(0, split + 1));
  std::string_view sigs = signed_note.substr(split + 2);
  if (sigs.empty() || sigs.back() != '\n') return Malformed("The note's signature lines do not end in a newline.");
  while (!sigs.empty()) {
    const size_t end = sigs.find('\n');
    std::string_view line = sigs.substr(0, end);
    sigs.remove_prefix(end + 1);
    if (!line.starts_with(kSignaturePrefix)) return Malformed("A signature line does not start with an em dash.");
    line.remove_prefix(kSignaturePrefix.size());
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) return Malformed("A signature line is not \"— <name> <signature>\".");
    const std::string_view name = line.substr(0, space);
    const auto typed = Base64DecodeStrict(line.substr(space + 1));
    if (!ValidKeyName(name) || !typed || typed->size() < 5)
      return Malformed("A signature line is not \"— <name> <base64 signature>\".");
    if (out.signatures.size() == kMaxSignatures) return Malformed("The note has more than 100 signatures.");
    out.signatures.push_back(Signature{std::string(name), BigEndian(*typed), typed->substr(4)});
  }
  return out;
}

std::string VerificationProblem(const Note& note, const VerifierKey& key) {
  const Signature* by_name = nullptr;
  for (const auto& s : note.signatures) {
    if (s.name != key.name) continue;
    by_name = &s;
    if (s.id != key.id) continue;
    if (VerifyEd25519(key.public_key, note.text, s.signature)) return "";
    return "the signature of key " + key.name + "+" + Hex8(key.id) +
           " does not verify: the signed text or the signature was altered";
  }
  if (by_name != nullptr)
    return "the note is signed by " + key.name + "+" + Hex8(by_name->id) + ", not by the key given (" + key.name + "+" +
           Hex8(key.id) + ")";
  return "the note has no signature by a key named " + key.name;
}

}  // namespace credence::integrity::note
