#include "identity/token_format.h"

#include <array>

#include "core/ids.h"

namespace credence::identity {
namespace {

constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

constexpr std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kCrcTable = MakeCrcTable();

bool IsBase62(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

bool AllBase62(std::string_view s) {
  for (char c : s)
    if (!IsBase62(c)) return false;
  return true;
}

}  // namespace

std::string RandomBase62(size_t n) {
  std::string out;
  out.reserve(n);
  while (out.size() < n) {
    // 248 = 4 * 62: bytes at or above it are dropped so every character
    // is equally likely.
    for (char byte : SecureRandomBytes(n - out.size() + 8)) {
      const auto b = static_cast<unsigned char>(byte);
      if (b < 248 && out.size() < n) out.push_back(kBase62[b % 62]);
    }
  }
  return out;
}

uint32_t Crc32(std::string_view data) {
  uint32_t c = 0xFFFFFFFFu;
  for (char ch : data) c = kCrcTable[(c ^ static_cast<unsigned char>(ch)) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::string Base62Fixed(uint32_t value, size_t width) {
  std::string out(width, '0');
  for (size_t i = width; i > 0 && value > 0; --i) {
    out[i - 1] = kBase62[value % 62];
    value /= 62;
  }
  return out;
}

std::string NewSecret() {
  const std::string random = RandomBase62(kSecretRandomLength);
  return std::string(kSecretPrefix) + random + Base62Fixed(Crc32(random), kSecretChecksumLength);
}

std::string NewClientId() { return std::string(kClientIdPrefix) + RandomBase62(kClientIdRandomLength); }

bool IsWellFormedSecret(std::string_view text) {
  if (text.size() != kSecretLength || !text.starts_with(kSecretPrefix)) return false;
  const std::string_view random = text.substr(kSecretPrefix.size(), kSecretRandomLength);
  const std::string_view checksum = text.substr(kSecretPrefix.size() + kSecretRandomLength);
  return AllBase62(random) && checksum == Base62Fixed(Crc32(random), kSecretChecksumLength);
}

bool IsWellFormedClientId(std::string_view text) {
  return text.size() == kClientIdLength && text.starts_with(kClientIdPrefix) &&
         AllBase62(text.substr(kClientIdPrefix.size()));
}

std::optional<std::string> Base64Decode(std::string_view text, bool url_alphabet) {
  if (!url_alphabet) {
    // Padding is accepted only where it belongs: to a multiple of four.
    if (text.size() % 4 == 0)
      while (text.ends_with('=')) text.remove_suffix(1);
    if (text.find('=') != std::string_view::npos) return std::nullopt;
  }
  if (text.size() % 4 == 1) return std::nullopt;
  auto digit = [url_alphabet](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == (url_alphabet ? '-' : '+')) return 62;
    if (c == (url_alphabet ? '_' : '/')) return 63;
    return -1;
  };
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    const int d = digit(c);
    if (d < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFFu));
    }
  }
  // Leftover bits must be zero, so each byte string has one encoding.
  if ((buffer & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace credence::identity
