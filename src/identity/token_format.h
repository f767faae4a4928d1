#pragma once
// The text format of tenant API key credentials (docs/credentials.md).
//
//   client id: "crd_ci_" + 16 random base62 characters
//   secret:    "crd_sk_" + 32 random base62 characters + 6 base62 characters
//              of the CRC-32 of the random part
//
// The fixed prefixes let secret scanners recognize a leaked key; the
// checksum lets the server refuse a mistyped or truncated secret without a
// database lookup. The checksum is not a security measure (anyone can
// compute it): secrecy comes from the 32 random characters (190 bits).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/ids.h"  // Crc32, Base62Fixed, Base64Decode

namespace credence::identity {

inline constexpr std::string_view kSecretPrefix = "crd_sk_";
inline constexpr std::string_view kClientIdPrefix = "crd_ci_";
inline constexpr size_t kSecretRandomLength = 32;
inline constexpr size_t kSecretChecksumLength = 6;
inline constexpr size_t kSecretLength = 7 + kSecretRandomLength + kSecretChecksumLength;  // 45
inline constexpr size_t kClientIdRandomLength = 16;
inline constexpr size_t kClientIdLength = 7 + kClientIdRandomLength;  // 23
// The indexed part of a secret used to find its row: the prefix and the
// first 8 random characters. The rest is only ever compared as a hash.
inline constexpr size_t kSecretLookupLength = 15;

// `n` characters of [0-9A-Za-z] from a cryptographically secure generator,
// each uniformly distributed (rejection sampling, no modulo bias).
std::string RandomBase62(size_t n);

// `prefix` + 32 random base62 characters + 6 base62 characters of the
// CRC-32 of the random part: the shape of secrets and of session tokens
// (session_service.h), and the check of that shape.
std::string NewChecksummedToken(std::string_view prefix);
bool IsWellFormedChecksummedToken(std::string_view text, std::string_view prefix);

// A new secret and a new client id.
std::string NewSecret();
std::string NewClientId();

// True when `text` has the secret's shape and its checksum matches.
bool IsWellFormedSecret(std::string_view text);
// True when `text` has the shape of a client id.
bool IsWellFormedClientId(std::string_view text);

// The lookup prefix of a well-formed secret.
inline std::string_view SecretLookupPrefix(std::string_view secret) { return secret.substr(0, kSecretLookupLength); }

}  // namespace credence::identity
