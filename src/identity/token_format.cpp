#include "identity/token_format.h"

#include <array>

#include "core/ids.h"

namespace credence::identity {
namespace {

constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

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

std::string NewChecksummedToken(std::string_view prefix) {
  const std::string random = RandomBase62(kSecretRandomLength);
  return std::string(prefix) + random + Base62Fixed(Crc32(random), kSecretChecksumLength);
}

std::string NewSecret() { return NewChecksummedToken(kSecretPrefix); }

std::string NewClientId() { return std::string(kClientIdPrefix) + RandomBase62(kClientIdRandomLength); }

bool IsWellFormedChecksummedToken(std::string_view text, std::string_view prefix) {
  if (text.size() != prefix.size() + kSecretRandomLength + kSecretChecksumLength || !text.starts_with(prefix))
    return false;
  const std::string_view random = text.substr(prefix.size(), kSecretRandomLength);
  const std::string_view checksum = text.substr(prefix.size() + kSecretRandomLength);
  return AllBase62(random) && checksum == Base62Fixed(Crc32(random), kSecretChecksumLength);
}

bool IsWellFormedSecret(std::string_view text) { return IsWellFormedChecksummedToken(text, kSecretPrefix); }

bool IsWellFormedClientId(std::string_view text) {
  return text.size() == kClientIdLength && text.starts_with(kClientIdPrefix) &&
         AllBase62(text.substr(kClientIdPrefix.size()));
}

}  // namespace credence::identity
