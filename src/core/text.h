#pragma once
// Small text rules shared by every module.
#include <cstddef>
#include <string>
#include <string_view>

namespace credence {

// `s` without leading and trailing ASCII white space.
std::string Trim(std::string_view s);

// `s` with ASCII letters lowercased; other bytes as they are.
std::string AsciiLower(std::string_view s);

// The uniqueness key of a user-visible name: ASCII letters lowercased,
// computed here because the backends' LOWER() disagree beyond ASCII.
std::string NameKey(std::string_view name);

// Characters, not bytes, of valid UTF-8.
size_t Utf8Length(std::string_view s);

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing
// above U+10FFFF. JSON text the server writes must be, so text taken from
// a URL is checked with this before it can be echoed.
bool IsValidUtf8(std::string_view s);

// The line (1-based) of the first byte of `s` that is not UTF-8 text, i.e.
// not well-formed UTF-8 (IsValidUtf8) or a NUL, which PostgreSQL text
// cannot hold; 0 when `s` is UTF-8 text. For imports that name the line.
size_t FirstLineNotUtf8Text(std::string_view s);

// `s` percent-encoded for a URL query or form component: RFC 3986
// unreserved characters kept, every other byte %XX (uppercase hex).
std::string PercentEncode(std::string_view s);

// An email address mail can be sent to: printable ASCII without blanks or
// the characters that could end an SMTP command or a header early, or
// smuggle in a second address (<>,;:"()[]\), one '@' with something before
// it, a dotted domain without empty labels; at most 254 characters.
inline constexpr size_t kMaxEmailLength = 254;
bool IsPlainEmail(std::string_view s);

}  // namespace credence
