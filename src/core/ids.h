#pragma once
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

// Lowercase hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

}  // namespace credence
