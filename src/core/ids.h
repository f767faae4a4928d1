#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace credence {

// A new record id: a UUID version 7 (time-ordered, so inserts stay local in
// B-tree indexes), lowercase and hyphenated.
std::string NewId();

// True for a lowercase-or-uppercase hyphenated UUID of any version.
bool IsUuid(std::string_view text);

// Lowercases a valid UUID; callers check IsUuid first.
std::string CanonicalUuid(std::string_view text);

// `bytes` bytes from a cryptographically secure generator.
std::string SecureRandomBytes(size_t bytes);

// Base64url without padding, for tokens and secrets.
std::string Base64UrlEncode(std::string_view bytes);

// Base64 (RFC 4648 section 4, padding optional) or base64url (section 5,
// no padding) decoding; nullopt for a character outside the alphabet or an
// impossible length. For HTTP Basic credentials and JWT segments.
std::optional<std::string> Base64Decode(std::string_view text, bool url_alphabet);

// CRC-32 (IEEE 802.3, as zlib computes it): the checksum of Credence's key
// and session formats, which the secret scanner checks too.
uint32_t Crc32(std::string_view data);

// `value` as exactly `width` base62 digits, most significant first,
// zero-padded. 6 digits hold any 32-bit value (62^6 > 2^32).
std::string Base62Fixed(uint32_t value, size_t width);

// Lowercase hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

}  // namespace credence
