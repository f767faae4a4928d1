#include "scanning/scanner.h"

#include "core/ids.h"
#include "scanning/phone.h"

#include <emmintrin.h>  // SSE2: x86-64, as Hyperscan itself requires
#include <hs/hs.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

namespace credence::scanning {
namespace {

// ---- character classes and small helpers ---------------------------------

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsAlpha(char c) { return IsUpper(c) || IsLower(c); }
bool IsAlnum(char c) { return IsAlpha(c) || IsDigit(c); }
bool IsBase64Url(char c) { return IsAlnum(c) || c == '-' || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

char Lower(char c) { return IsUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

bool ContainsIgnoreCase(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) return false;
  for (size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    size_t k = 0;
    while (k < needle.size() && Lower(haystack[i + k]) == Lower(needle[k])) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

bool EndsWithIgnoreCase(std::string_view s, std::string_view suffix) {
  if (suffix.size() > s.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i)
    if (Lower(s[s.size() - suffix.size() + i]) != Lower(suffix[i])) return false;
  return true;
}

// A token of `text` must not be glued to more token characters: the byte
// before `start` and the byte at `end` are outside `inside`.
template <class Pred>
bool Bounded(std::string_view text, size_t start, size_t end, Pred inside) {
  if (start > 0 && inside(text[start - 1])) return false;
  if (end < text.size() && inside(text[end])) return false;
  return true;
}

template <class Pred>
size_t Extend(std::string_view text, size_t pos, Pred inside, size_t limit = 4096) {
  const size_t stop = std::min(text.size(), pos + limit);
  while (pos < stop && inside(text[pos])) ++pos;
  return pos;
}

// Placeholders that documentation and configuration templates use in place
// of a real secret: EXAMPLE/example markers, long runs of one character
// (xxxxxxxx, ********, 00000000).
bool LooksLikePlaceholder(std::string_view value) {
  if (ContainsIgnoreCase(value, "example")) return true;
  size_t run = 1;
  for (size_t i = 1; i < value.size(); ++i) {
    run = value[i] == value[i - 1] ? run + 1 : 1;
    if (run >= 8) return true;
  }
  return false;
}

bool IsUuid(std::string_view v) {
  if (v.size() != 36) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? v[i] != '-' : !(IsDigit(v[i]) || (Lower(v[i]) >= 'a' && Lower(v[i]) <= 'f'))) return false;
  }
  return true;
}

// ---- validators -----------------------------------------------------------

struct Hit {
  size_t start = 0;
  size_t length = 0;
  std::string_view sub_type;
  std::string value;  // what is fingerprinted when it is not the text itself (a phone number's E.164 form)
};
using Validator = std::optional<Hit> (*)(std::string_view text, size_t from, size_t to);

std::optional<Hit> Fixed(std::string_view text, size_t from, size_t to, std::string_view sub_type) {
  if (!Bounded(text, from, to, IsAlnum)) return std::nullopt;
  if (LooksLikePlaceholder(text.substr(from, to - from))) return std::nullopt;
  return Hit{from, to - from, sub_type};
}

std::optional<Hit> Aws(std::string_view text, size_t from, size_t to) {
  const std::string_view prefix = text.substr(from, 4);
  return Fixed(text, from, to, prefix == "ASIA" ? "aws_temporary_access_key_id" : "aws_access_key_id");
}

bool Base62ChecksumOk(std::string_view random, std::string_view checksum) {
  return checksum == detail::Base62Fixed(detail::Crc32(random), checksum.size());
}

std::optional<Hit> GithubClassic(std::string_view text, size_t from, size_t to) {
  // gh?_ + 30 random base62 + 6 base62 of their CRC-32.
  const std::string_view body = text.substr(from + 4, 36);
  if (!Base62ChecksumOk(body.substr(0, 30), body.substr(30))) return std::nullopt;
  static constexpr std::array<std::pair<char, std::string_view>, 5> kTypes{{{'p', "github_personal_access_token"},
                                                                            {'o', "github_oauth_token"},
                                                                            {'u', "github_user_to_server_token"},
                                                                            {'s', "github_server_to_server_token"},
                                                                            {'r', "github_refresh_token"}}};
  std::string_view sub_type;
  for (const auto& [c, name] : kTypes)
    if (text[from + 2] == c) sub_type = name;
  return Fixed(text, from, to, sub_type);
}

std::optional<Hit> GithubFine(std::string_view text, size_t from, size_t to) {
  return Fixed(text, from, to, "github_fine_grained_pat");
}

std::optional<Hit> Gitlab(std::string_view text, size_t from, size_t to) {
  if (!Bounded(text, from, to, IsBase64Url)) return std::nullopt;
  if (LooksLikePlaceholder(text.substr(from, to - from))) return std::nullopt;
  return Hit{from, to - from, "gitlab_personal_access_token"};
}

std::optional<Hit> Slack(std::string_view text, size_t from, size_t) {
  // xox?-<digits>-<digits or alnum>(-...)*: the whole hyphenated token.
  const size_t end = Extend(
      text, from, [](char c) { return IsAlnum(c) || c == '-'; }, 256);
  const std::string_view token = text.substr(from, end - from);
  if (token.size() < 24 || !Bounded(text, from, end, IsAlnum) || LooksLikePlaceholder(token)) return std::nullopt;
  std::string_view sub_type = "slack_token";
  switch (token[3]) {
    case 'b':
      sub_type = "slack_bot_token";
      break;
    case 'p':
      sub_type = "slack_user_token";
      break;
    case 'a':
      sub_type = "slack_app_token";
      break;
    case 'r':
      sub_type = "slack_refresh_token";
      break;
    default:
      break;
  }
  return Hit{from, token.size(), sub_type};
}

std::optional<Hit> Stripe(std::string_view text, size_t from, size_t) {
  const size_t end = Extend(text, from + 8, IsAlnum, 128);
  const std::string_view token = text.substr(from, end - from);
  if (token.size() - 8 < 24 || !Bounded(text, from, end, IsAlnum) || LooksLikePlaceholder(token)) return std::nullopt;
  return Hit{from, token.size(), text[from] == 's' ? "stripe_secret_key" : "stripe_restricted_key"};
}

std::optional<Hit> Google(std::string_view text, size_t from, size_t to) {
  if (!Bounded(text, from, to, IsBase64Url)) return std::nullopt;
  if (LooksLikePlaceholder(text.substr(from, to - from))) return std::nullopt;
  return Hit{from, to - from, "google_api_key"};
}

std::optional<Hit> OpenAi(std::string_view text, size_t from, size_t) {
  const size_t end = Extend(text, from + 3, IsBase64Url, 512);
  const std::string_view token = text.substr(from, end - from);
  const bool project = token.starts_with("sk-proj-");
  const std::string_view body = token.substr(project ? 8 : 3);
  // Legacy keys are 48 characters of body; project keys are longer. Random
  // keys mix letters and digits and carry high entropy; prose such as
  // "sk-learn-compatible-estimators" does not.
  if (body.size() < 40 || !Bounded(text, from, end, IsBase64Url) || LooksLikePlaceholder(token)) return std::nullopt;
  if (std::none_of(body.begin(), body.end(), IsDigit) || std::none_of(body.begin(), body.end(), IsUpper))
    return std::nullopt;
  if (detail::ShannonEntropy(body) < 4.0) return std::nullopt;
  return Hit{from, token.size(), project ? "openai_project_key" : "openai_api_key"};
}

std::optional<std::string> Base64UrlDecode(std::string_view s) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : s) {
    int d = -1;
    if (IsUpper(c))
      d = c - 'A';
    else if (IsLower(c))
      d = c - 'a' + 26;
    else if (IsDigit(c))
      d = c - '0' + 52;
    else if (c == '-')
      d = 62;
    else if (c == '_')
      d = 63;
    if (d < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFFu));
    }
  }
  return out;
}

std::optional<Hit> Jwt(std::string_view text, size_t from, size_t) {
  if (from > 0 && IsBase64Url(text[from - 1])) return std::nullopt;
  size_t pos = from;
  std::array<std::string_view, 3> segments;
  for (size_t i = 0; i < 3; ++i) {
    const size_t end = Extend(text, pos, IsBase64Url, 16384);
    segments[i] = text.substr(pos, end - pos);
    pos = end;
    if (i < 2) {
      if (pos >= text.size() || text[pos] != '.') return std::nullopt;
      ++pos;
    }
  }
  // Unsigned tokens ("alg":"none") have an empty signature; still a token.
  if (segments[0].size() < 10 || segments[1].size() < 4) return std::nullopt;
  if (pos < text.size() && (text[pos] == '.' || IsBase64Url(text[pos]))) return std::nullopt;
  const auto header = Base64UrlDecode(segments[0]);
  const auto payload = Base64UrlDecode(segments[1]);
  if (!header || !payload || !header->starts_with("{") || header->find("\"alg\"") == std::string::npos ||
      !payload->starts_with("{"))
    return std::nullopt;
  if (ContainsIgnoreCase(*payload, "example")) return std::nullopt;
  return Hit{from, pos - from, "jwt"};
}

std::optional<Hit> Pem(std::string_view text, size_t from, size_t to) {
  const std::string_view begin = text.substr(from, to - from);  // -----BEGIN X PRIVATE KEY-----
  std::string end_line = "-----END ";
  end_line.append(begin.substr(11));
  const size_t end = text.find(end_line, to);
  if (end == std::string_view::npos || end - to > 65536) return std::nullopt;
  // A real key has a base64 body; "-----BEGIN PRIVATE KEY-----\n...\n" in
  // documentation does not.
  size_t base64 = 0;
  for (size_t i = to; i < end; ++i)
    if (IsAlnum(text[i]) || text[i] == '+' || text[i] == '/') ++base64;
  if (base64 < 64) return std::nullopt;
  // Not the run-of-one-character rule: real OpenSSH bodies hold AAAAAAAA.
  if (ContainsIgnoreCase(text.substr(to, end - to), "example")) return std::nullopt;
  std::string_view sub_type = "pkcs8_private_key";
  if (begin.find("RSA") != std::string_view::npos)
    sub_type = "rsa_private_key";
  else if (begin.find("EC ") != std::string_view::npos)
    sub_type = "ec_private_key";
  else if (begin.find("OPENSSH") != std::string_view::npos)
    sub_type = "openssh_private_key";
  else if (begin.find("DSA") != std::string_view::npos)
    sub_type = "dsa_private_key";
  else if (begin.find("ENCRYPTED") != std::string_view::npos)
    sub_type = "encrypted_private_key";
  else if (begin.find("PGP") != std::string_view::npos)
    sub_type = "pgp_private_key";
  return Hit{from, end + end_line.size() - from, sub_type};
}

bool IsPlaceholderPassword(std::string_view p) {
  static constexpr std::array<std::string_view, 13> kWords{"password", "passwd",   "pass", "pwd",      "pw",
                                                           "secret",   "changeme", "user", "username", "redacted",
                                                           "hidden",   "xxx",      "***"};
  for (auto w : kWords)
    if (p.size() == w.size() && ContainsIgnoreCase(p, w)) return true;
  if (p.starts_with("$") || p.starts_with("{") || p.starts_with("<") || p.starts_with("%") || p.starts_with("["))
    return true;
  return LooksLikePlaceholder(p) || std::all_of(p.begin(), p.end(), [](char c) { return c == '*' || c == 'x'; });
}

std::optional<Hit> DatabaseUrl(std::string_view text, size_t from, size_t to) {
  if (from > 0 && IsAlnum(text[from - 1])) return std::nullopt;
  const std::string_view url = text.substr(from, to - from);  // scheme://user:password@
  const size_t scheme_end = url.find("://");
  const size_t colon = url.find(':', scheme_end + 3);
  const std::string_view password = url.substr(colon + 1, url.size() - colon - 2);
  if (password.empty() || IsPlaceholderPassword(password)) return std::nullopt;
  // The host, so the same password on two servers is two findings.
  const size_t end = Extend(
      text, to, [](char c) { return IsAlnum(c) || c == '.' || c == '-' || c == ':' || c == ','; }, 512);
  if (end == to) return std::nullopt;
  const std::string_view scheme = url.substr(0, scheme_end);
  std::string_view sub_type = "database_url";
  if (ContainsIgnoreCase(scheme, "postgres"))
    sub_type = "postgresql_url";
  else if (ContainsIgnoreCase(scheme, "mysql") || ContainsIgnoreCase(scheme, "mariadb"))
    sub_type = "mysql_url";
  else if (ContainsIgnoreCase(scheme, "mongodb"))
    sub_type = "mongodb_url";
  else if (ContainsIgnoreCase(scheme, "redis"))
    sub_type = "redis_url";
  else if (ContainsIgnoreCase(scheme, "amqp"))
    sub_type = "amqp_url";
  return Hit{from, end - from, sub_type};
}

std::optional<Hit> Credence(std::string_view text, size_t from, size_t to) {
  const std::string_view body = text.substr(from + 7, 38);
  if (!Base62ChecksumOk(body.substr(0, 32), body.substr(32))) return std::nullopt;
  return Fixed(text, from, to, text[from + 5] == 'k' ? "credence_api_key_secret" : "credence_session_token");
}

std::optional<Hit> Generic(std::string_view text, size_t from, size_t to) {
  // The key name must start a word: "password=" but not "mypassword=".
  if (from > 0 && IsAlpha(text[from - 1])) return std::nullopt;
  const size_t start = to - 1;  // the first byte of the value
  const size_t end = Extend(
      text, start,
      [](char c) {
        return !IsSpace(c) && c != '"' && c != '\'' && c != '`' && c != ',' && c != ';' && c != '&' && c != ')' &&
               c != '}' && c != ']' && c != '<' && c != '>';
      },
      256);
  const std::string_view value = text.substr(start, end - start);
  if (value.size() < 8 || value.size() > 200 || IsPlaceholderPassword(value) || IsUuid(value)) return std::nullopt;
  // A path, not a secret (PWD: '/Users/ann', token=./token.txt).
  if (value.starts_with("/") || value.starts_with("./") || value.starts_with("../") || value.starts_with("~/"))
    return std::nullopt;
  // Code, not a value: identifiers, calls, member accesses, environment lookups.
  if (value.find('(') != std::string_view::npos || value.find("os.") == 0 || value.find("env.") == 0 ||
      value.find("process.") == 0)
    return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) { return IsLower(c) || c == '_' || c == '.' || c == '-'; }))
    return std::nullopt;
  if (!std::any_of(value.begin(), value.end(), IsDigit) && !std::any_of(value.begin(), value.end(), IsUpper))
    return std::nullopt;
  // Constant names stand for a value (YOUR_API_KEY, DB_PASSWORD).
  if (std::all_of(value.begin(), value.end(), [](char c) { return IsUpper(c) || c == '_' || c == '-'; }))
    return std::nullopt;
  if (detail::ShannonEntropy(value) < 3.0) return std::nullopt;
  return Hit{start, value.size(), "secret_assignment"};
}

bool IsLocalChar(char c) { return IsAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'; }
bool IsDomainChar(char c) { return IsAlnum(c) || c == '.' || c == '-'; }

std::optional<Hit> Email(std::string_view text, size_t from, size_t) {
  const size_t at = from + 1;
  size_t start = at;
  while (start > 0 && at - start < 64 && IsLocalChar(text[start - 1])) --start;
  while (start < at && text[start] == '.') ++start;
  size_t end = Extend(text, at + 1, IsDomainChar, 255);
  while (end > at + 1 && (text[end - 1] == '.' || text[end - 1] == '-')) --end;
  if (start == at || (start > 0 && text[start - 1] == '@')) return std::nullopt;
  // The user:password@host of a URL is not an address (mailto: is).
  if (start > 0 &&
      (text[start - 1] == '/' || (text[start - 1] == ':' && !EndsWithIgnoreCase(text.substr(0, start), "mailto:"))))
    return std::nullopt;
  const std::string_view domain = text.substr(at + 1, end - at - 1);
  const size_t dot = domain.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view tld = domain.substr(dot + 1);
  if (tld.size() < 2 || !std::all_of(tld.begin(), tld.end(), IsAlpha)) return std::nullopt;
  if (domain.find("..") != std::string_view::npos) return std::nullopt;
  // Reserved names (RFC 2606, RFC 6761) are examples by definition.
  static constexpr std::array<std::string_view, 8> kReserved{"example.com", "example.org", "example.net", ".example",
                                                             ".test",       ".invalid",    ".localhost",  ".local"};
  for (auto r : kReserved)
    if (EndsWithIgnoreCase(domain, r) &&
        (r[0] == '.' || domain.size() == r.size() || domain[domain.size() - r.size() - 1] == '.'))
      return std::nullopt;
  if (end < text.size() && text[end] == '@') return std::nullopt;
  // Any label "example" (sub.example.co) is an example; a UUID before the
  // @ is a Message-ID, not a person's address.
  if (ContainsIgnoreCase(domain, "example") || IsUuid(text.substr(start, at - start))) return std::nullopt;
  return Hit{start, end - start, "email_address"};
}

std::optional<std::string_view> CardIssuer(std::string_view d) {
  const auto prefix = [&](size_t n) { return std::stoi(std::string(d.substr(0, n))); };
  const size_t len = d.size();
  if (d[0] == '4' && (len == 13 || len == 16 || len == 19)) return "visa";
  if (len == 16 && ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)))
    return "mastercard";
  if (len == 15 && (prefix(2) == 34 || prefix(2) == 37)) return "american_express";
  if (len >= 16 && (prefix(4) == 6011 || prefix(2) == 65 || (prefix(3) >= 644 && prefix(3) <= 649))) return "discover";
  if (len >= 16 && prefix(4) >= 3528 && prefix(4) <= 3589) return "jcb";
  if (len >= 14 && ((prefix(3) >= 300 && prefix(3) <= 305) || prefix(2) == 36 || prefix(2) == 38)) return "diners_club";
  if (len >= 16 && prefix(2) == 62) return "unionpay";
  return std::nullopt;
}

std::optional<Hit> Card(std::string_view text, size_t from, size_t) {
  if (from > 0 && (IsAlnum(text[from - 1]) || text[from - 1] == '.' || text[from - 1] == '-')) return std::nullopt;
  // Digits with at most one separator (space or hyphen, the same throughout)
  // between them.
  std::string digits;
  size_t pos = from;
  size_t end = from;
  char separator = 0;
  while (pos < text.size() && digits.size() < 20) {
    if (IsDigit(text[pos])) {
      digits.push_back(text[pos]);
      end = ++pos;
    } else if ((text[pos] == ' ' || text[pos] == '-') && pos + 1 < text.size() && IsDigit(text[pos + 1]) &&
               (separator == 0 || separator == text[pos])) {
      separator = text[pos];
      ++pos;
    } else {
      break;
    }
  }
  if (digits.size() < 13 || digits.size() > 19) return std::nullopt;
  if (end < text.size() &&
      (IsAlnum(text[end]) || (text[end] == '.' && end + 1 < text.size() && IsDigit(text[end + 1]))))
    return std::nullopt;
  if (!detail::Luhn(digits)) return std::nullopt;
  if (std::all_of(digits.begin(), digits.end(), [&](char c) { return c == digits[0]; })) return std::nullopt;
  const auto issuer = CardIssuer(digits);
  if (!issuer) return std::nullopt;
  return Hit{from, end - from, *issuer};
}

// Country code -> IBAN length (the SWIFT registry, common countries).
std::optional<size_t> IbanLength(std::string_view country) {
  static const std::map<std::string, size_t, std::less<>> kLengths{
      {"AD", 24}, {"AE", 23}, {"AT", 20}, {"BA", 20}, {"BE", 16}, {"BG", 22}, {"BH", 22}, {"BR", 29}, {"CH", 21},
      {"CY", 28}, {"CZ", 24}, {"DE", 22}, {"DK", 18}, {"EE", 20}, {"ES", 24}, {"FI", 18}, {"FO", 18}, {"FR", 27},
      {"GB", 22}, {"GI", 23}, {"GL", 18}, {"GR", 27}, {"HR", 21}, {"HU", 28}, {"IE", 22}, {"IL", 23}, {"IS", 26},
      {"IT", 27}, {"KW", 30}, {"KZ", 20}, {"LB", 28}, {"LI", 21}, {"LT", 20}, {"LU", 20}, {"LV", 21}, {"MC", 27},
      {"MD", 24}, {"ME", 22}, {"MK", 19}, {"MT", 31}, {"MU", 30}, {"NL", 18}, {"NO", 15}, {"PK", 24}, {"PL", 28},
      {"PT", 25}, {"QA", 29}, {"RO", 24}, {"RS", 22}, {"SA", 24}, {"SE", 24}, {"SI", 19}, {"SK", 24}, {"SM", 27},
      {"TN", 24}, {"TR", 26}, {"UA", 29}, {"VA", 22}, {"XK", 20}};
  const auto it = kLengths.find(country);
  if (it == kLengths.end()) return std::nullopt;
  return it->second;
}

std::optional<Hit> Iban(std::string_view text, size_t from, size_t) {
  if (from > 0 && IsAlnum(text[from - 1])) return std::nullopt;
  const auto length = IbanLength(text.substr(from, 2));
  if (!length) return std::nullopt;
  // Compact (DE89370400440532013000) or in groups of four separated by one
  // space (DE89 3704 0044 0532 0130 00).
  std::string compact;
  size_t pos = from;
  while (pos < text.size() && compact.size() < *length) {
    const char c = text[pos];
    if (IsUpper(c) || IsDigit(c)) {
      compact.push_back(c);
      ++pos;
    } else if (c == ' ' && compact.size() % 4 == 0 && pos + 1 < text.size() && IsAlnum(text[pos + 1])) {
      ++pos;
    } else {
      break;
    }
  }
  if (compact.size() != *length || (pos < text.size() && IsAlnum(text[pos]))) return std::nullopt;
  if (!detail::IbanChecksumValid(compact)) return std::nullopt;
  return Hit{from, pos - from, "iban"};
}

// Phone numbers (phone.cpp): the value fingerprinted is the E.164 form, so
// "+49 30 1234567" and "+49301234567" are one finding.
std::optional<Hit> PhoneHit(std::optional<phone::Match> match) {
  if (!match) return std::nullopt;
  return Hit{match->start, match->length, match->sub_type, std::move(match->e164)};
}
std::optional<Hit> PhoneInternational(std::string_view text, size_t from, size_t to) {
  return PhoneHit(phone::International(text, from, to));
}
std::optional<Hit> PhoneNanp(std::string_view text, size_t from, size_t to) {
  return PhoneHit(phone::Nanp(text, from, to));
}
std::optional<Hit> PhoneAfterKeyword(std::string_view text, size_t from, size_t to) {
  return PhoneHit(phone::AfterKeyword(text, from, to));
}

// ---- where a candidate starts ---------------------------------------------
//
// Hyperscan reports where a match ends. Asking it for the start as well
// (HS_FLAG_SOM_LEFTMOST) moves every rule onto slower engines that track
// starts byte by byte: that was most of a scan's time. Every rule here has
// a shape that can be read backwards from its end to the same leftmost
// start, so each rule has a small hand-written finder; the tests and the
// scanner fuzz target check them against Hyperscan's own start of match
// (detail::StartsDisagreeingWithHyperscan).

constexpr size_t kNoStart = SIZE_MAX;
using StartFinder = size_t (*)(std::string_view text, size_t end);

template <size_t kLength>
size_t FixedLength(std::string_view, size_t end) {
  return end >= kLength ? end - kLength : kNoStart;
}

bool IsQuote(char c) { return c == '"' || c == '\''; }
bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// The bytes (ASCII lower-cased) the words of a list end with: a table
// lookup before trying each word where most positions end none of them.
template <size_t N>
std::array<bool, 256> LastBytesOf(const std::array<std::string_view, N>& words) {
  std::array<bool, 256> last{};
  for (std::string_view word : words) last[static_cast<unsigned char>(word.back())] = true;
  return last;
}

// The start of the longest of `words` (any ASCII case) that ends at `end`:
// the leftmost start when one word ends another (telephone, phone).
template <size_t N>
size_t LongestWordEndingAt(std::string_view text, size_t end, const std::array<std::string_view, N>& words) {
  if (end == 0) return kNoStart;
  const char last = Lower(text[end - 1]);
  size_t best = kNoStart;
  for (std::string_view word : words)
    if (word.back() == last && word.size() <= end && (best == kNoStart || end - word.size() < best) &&
        EndsWithIgnoreCase(text.substr(0, end), word))
      best = end - word.size();
  return best;
}

size_t SlackStart(std::string_view text, size_t end) {
  // xox?-<digits>-<one alnum>: back over the alnum and the '-', the digits,
  // then '-' and xox?.
  size_t pos = end - 2;
  while (pos > 0 && IsDigit(text[pos - 1])) --pos;
  return pos >= 5 ? pos - 5 : kNoStart;
}

size_t OpenAiStart(std::string_view text, size_t end) {
  // sk-proj- or sk- and 20 key characters.
  if (end >= 28 && text.substr(end - 28, 8) == "sk-proj-") return end - 28;
  return end >= 23 ? end - 23 : kNoStart;
}

size_t PemStart(std::string_view text, size_t end) {
  // The words between BEGIN and PRIVATE KEY hold no '-': the last
  // "-----BEGIN " before the end is the start.
  const size_t window = end > 4096 ? end - 4096 : 0;
  const size_t at = text.substr(window, end - window).rfind("-----BEGIN ");
  return at == std::string_view::npos ? kNoStart : window + at;
}

constexpr std::array<std::string_view, 10> kDatabaseSchemes{"postgresql", "postgres", "mysql", "mariadb", "mongodb+srv",
                                                            "mongodb",    "rediss",   "redis", "amqps",   "amqp"};

constexpr std::array<std::string_view, 17> kSecretKeyNames{
    "password",      "passwd",        "pwd",       "secret",     "token",      "apikey",
    "api_key",       "api-key",       "accesskey", "access_key", "access-key", "clientsecret",
    "client_secret", "client-secret", "authtoken", "auth_token", "auth-token"};

size_t EmailStart(std::string_view text, size_t end) {
  // One address byte, '@', a label, '.', two letters: back over the two
  // letters, the dot and the label to the '@'.
  size_t pos = end - 3;
  while (pos > 0 && (IsAlnum(text[pos - 1]) || text[pos - 1] == '-')) --pos;
  return pos >= 2 ? pos - 2 : kNoStart;
}

size_t PhoneDoubleZeroStart(std::string_view text, size_t end) {
  // "00 4" + one more byte, or "004" + one more byte.
  return text[end - 3] == ' ' ? end - 5 : end - 4;
}

size_t PhoneKeywordStart(std::string_view text, size_t end) { return LongestWordEndingAt(text, end, phone::kKeywords); }

// ---- the rule table -------------------------------------------------------

enum class Pass {
  kHyperscan,        // one multi-pattern Hyperscan scan, ends of match only
  kDigits,           // a walk over the digits (ScanDigits)
  kColonsAndEquals,  // a walk over ':' and '=' (ScanColonsAndEquals)
};

struct Rule {
  size_t detector;  // index into kDetectors
  const char* pattern;
  unsigned flags;
  StartFinder find_start;
  Validator validate;
  // Who finds the rule's candidates (see "Finding candidates" below). The
  // pattern stays the definition either way: the reference scan runs every
  // pattern in Hyperscan (detail::ReferenceScan).
  Pass pass = Pass::kHyperscan;
};

constexpr std::array<DetectorInfo, 16> kDetectors{{
    {"aws_access_key", Kind::kSecret, "aws_access_key_id"},
    {"github_token", Kind::kSecret, "github_token"},
    {"gitlab_token", Kind::kSecret, "gitlab_personal_access_token"},
    {"slack_token", Kind::kSecret, "slack_token"},
    {"stripe_key", Kind::kSecret, "stripe_secret_key"},
    {"google_api_key", Kind::kSecret, "google_api_key"},
    {"openai_api_key", Kind::kSecret, "openai_api_key"},
    {"jwt", Kind::kSecret, "jwt"},
    {"private_key", Kind::kSecret, "private_key"},
    {"database_url_password", Kind::kSecret, "database_url"},
    {"credence_credential", Kind::kSecret, "credence_api_key_secret"},
    {"generic_secret_assignment", Kind::kSecret, "secret_assignment"},
    {"email_address", Kind::kPersonalData, "email_address"},
    {"payment_card", Kind::kPersonalData, "payment_card"},
    {"iban", Kind::kPersonalData, "iban"},
    {"phone_number", Kind::kPersonalData, "phone_number"},
}};
constexpr size_t kGenericDetector = 11;
constexpr size_t kPhoneDetector = 15;
constexpr size_t kRuleCount = 20;
constexpr size_t kDatabaseUrlRule = 10;
constexpr size_t kGenericRule = 12;
constexpr size_t kCardRule = 14;
constexpr size_t kIbanRule = 15;
constexpr size_t kNanpRule = 18;
constexpr size_t kPhoneKeywordRule = 19;

const std::array<Rule, kRuleCount>& Rules() {
  static const std::array<Rule, kRuleCount> rules{{
      {0, "(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}", 0, FixedLength<20>, Aws},
      {1, "gh[pousr]_[A-Za-z0-9]{36}", 0, FixedLength<40>, GithubClassic},
      {1, "github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}", 0, FixedLength<93>, GithubFine},
      {2, "glpat-[A-Za-z0-9_\\-]{20}", 0, FixedLength<26>, Gitlab},
      {3, "xox[abprs]-[0-9]{6,}-[0-9A-Za-z]", 0, SlackStart, Slack},
      {4, "[sr]k_live_[0-9A-Za-z]{24}", 0, FixedLength<32>, Stripe},
      {5, "AIza[0-9A-Za-z_\\-]{35}", 0, FixedLength<39>, Google},
      {6, "sk-(?:proj-)?[A-Za-z0-9_\\-]{20}", 0, OpenAiStart, OpenAi},
      {7, "eyJ[A-Za-z0-9_\\-]{7}", 0, FixedLength<10>, Jwt},
      {8, "-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----", 0, PemStart, Pem},
      {9, "(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|rediss?|amqps?)://[^\\s:/@]{0,128}:[^\\s/@]{1,128}@",
       HS_FLAG_CASELESS, nullptr, DatabaseUrl, Pass::kColonsAndEquals},
      {10, "crd_s[ks]_[0-9A-Za-z]{38}", 0, FixedLength<45>, Credence},
      {11,
       "(?:password|passwd|pwd|secret|token|api[_\\-]?key|access[_\\-]?key|client[_\\-]?secret|auth[_\\-]?token)"
       "[\"']?[ \\t]*[:=][ \\t]*[\"']?[^\\s\"'`]",
       HS_FLAG_CASELESS, nullptr, Generic, Pass::kColonsAndEquals},
      {12, "[A-Za-z0-9._%+\\-]@[A-Za-z0-9\\-]+\\.[A-Za-z]{2}", 0, EmailStart, Email},
      {13, "[0-9](?:[ \\-]?[0-9]){12}", 0, nullptr, Card, Pass::kDigits},
      {14, "[A-Z]{2}[0-9]{2}[ ]?[A-Z0-9]{4}", 0, nullptr, Iban, Pass::kDigits},
      // Phone numbers: international (+ or 00 and a country code), the
      // NANP shapes, and national formats shortly after a keyword. Short
      // prefixes: the validators read the rest (phone.cpp).
      {15, "\\+[1-9][0-9 ().\\-/]", 0, FixedLength<3>, PhoneInternational},
      {15, "00 ?[1-9][0-9 ().\\-/]", 0, PhoneDoubleZeroStart, PhoneInternational},
      {15, "(?:\\([2-9][0-9]{2}\\) ?|[2-9][0-9]{2}[\\-.])[2-9][0-9]{2}[\\-. ][0-9]{4}", 0, nullptr, PhoneNanp,
       Pass::kDigits},
      {15, phone::KeywordPattern().c_str(), HS_FLAG_CASELESS, nullptr, PhoneAfterKeyword, Pass::kDigits},
  }};
  return rules;
}

struct Accepted {
  size_t detector;
  Hit hit;
};

// Validates each candidate as it is found: no candidate list, no sort. A
// candidate reported twice (overlapping windows, the two readings of an
// "sk-proj-" key) is validated once.
struct MatchContext {
  std::string_view text;
  size_t base = 0;                                           // offset of the scanned window in text
  std::array<std::pair<size_t, size_t>, kRuleCount> last{};  // per rule: the last (start + 1, end) validated
  std::vector<Accepted>* accepted = nullptr;
};

void Consider(MatchContext& context, size_t rule_index, size_t start, size_t end) {
  auto& last = context.last[rule_index];
  if (last.first == start + 1 && last.second == end) return;
  last = {start + 1, end};
  const Rule& rule = Rules()[rule_index];
  if (auto hit = rule.validate(context.text, start, end)) context.accepted->push_back({rule.detector, std::move(*hit)});
}

int OnMatch(unsigned int id, unsigned long long, unsigned long long to, unsigned int, void* raw) {
  auto& context = *static_cast<MatchContext*>(raw);
  const size_t end = context.base + static_cast<size_t>(to);
  const size_t start = Rules()[id].find_start(context.text, end);
  if (start != kNoStart) Consider(context, id, start, end);
  return 0;
}

// Hyperscan's own start of match, for the reference scan.
int OnMatchWithStart(unsigned int id, unsigned long long from, unsigned long long to, unsigned int, void* raw) {
  auto& context = *static_cast<MatchContext*>(raw);
  Consider(context, id, context.base + static_cast<size_t>(from), context.base + static_cast<size_t>(to));
  return 0;
}

// The rule set as one Hyperscan database. The reference database has
// every rule and reports starts of match (slower); the scanner's has the
// Hyperscan-pass rules, and reports ends only.
Result<hs_database_t*> CompileRules(bool reference) {
  const auto& rules = Rules();
  std::vector<const char*> patterns;
  std::vector<unsigned> flags;
  std::vector<unsigned> ids;
  for (unsigned i = 0; i < rules.size(); ++i) {
    if (rules[i].pass != Pass::kHyperscan && !reference) continue;
    patterns.push_back(rules[i].pattern);
    flags.push_back(rules[i].flags | (reference ? HS_FLAG_SOM_LEFTMOST : 0));
    ids.push_back(i);
  }
  hs_database_t* db = nullptr;
  hs_compile_error_t* error = nullptr;
  if (hs_compile_multi(patterns.data(), flags.data(), ids.data(), static_cast<unsigned>(patterns.size()), HS_MODE_BLOCK,
                       nullptr, &db, &error) != HS_SUCCESS) {
    std::string detail = "The scanner's rules do not compile: ";
    detail += error != nullptr && error->message != nullptr ? error->message : "unknown error";
    if (error != nullptr) detail += " (rule " + std::to_string(error->expression) + ")";
    hs_free_compile_error(error);
    return Error::Internal(detail);
  }
  return db;
}

// The first position at or after `pos` whose byte `is` accepts, or
// text.size(). Sixteen bytes at a time where `mask16` (the same test on a
// vector of bytes, one 0xFF lane per hit) is given: the walks below look
// for bytes most text has few of.
template <class Is, class Mask16>
size_t NextWhere(std::string_view text, size_t pos, Is is, Mask16 mask16) {
  const size_t n = text.size();
  for (; pos + 16 <= n; pos += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + pos));
    const int mask = _mm_movemask_epi8(mask16(bytes));
    if (mask != 0) return pos + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
  while (pos < n && !is(text[pos])) ++pos;
  return pos;
}

size_t NextDigit(std::string_view text, size_t pos) {
  return NextWhere(text, pos, IsDigit, [](__m128i bytes) {
    // c - '0' <= 9 as unsigned bytes: min(c - '0', 9) == c - '0'.
    const __m128i offset = _mm_sub_epi8(bytes, _mm_set1_epi8('0'));
    return _mm_cmpeq_epi8(_mm_min_epu8(offset, _mm_set1_epi8(9)), offset);
  });
}

size_t NextColonOrEquals(std::string_view text, size_t pos) {
  return NextWhere(
      text, pos, [](char c) { return c == ':' || c == '='; },
      [](__m128i bytes) {
        return _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(':')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('=')));
      });
}

bool IsUpperOrDigit(char c) { return IsUpper(c) || IsDigit(c); }

// The IBAN rule, [A-Z]{2}[0-9]{2}[ ]?[A-Z0-9]{4}, where a digit run starts
// at `run`: its two digits start a run, after two capital letters.
void IbanAt(MatchContext& context, size_t run, size_t run_end) {
  const std::string_view text = context.text;
  if (run < 2 || run_end - run < 2 || !IsUpper(text[run - 1]) || !IsUpper(text[run - 2])) return;
  size_t pos = run + 2;
  if (pos < text.size() && text[pos] == ' ') ++pos;
  if (pos + 4 > text.size()) return;
  for (size_t i = pos; i < pos + 4; ++i)
    if (!IsUpperOrDigit(text[i])) return;
  Consider(context, kIbanRule, run - 2, pos + 4);
}

// The NANP rule, (?:\([2-9][0-9]{2}\) ?|[2-9][0-9]{2}[\-.])[2-9][0-9]{2}[\-. ][0-9]{4},
// where a run of at least four digits starts at `run` (the last group's
// four digits follow a separator, so they start a run).
void NanpAt(MatchContext& context, size_t run, size_t run_end) {
  const std::string_view text = context.text;
  const auto digit_2_9 = [&](size_t i) { return text[i] >= '2' && text[i] <= '9'; };
  const auto area = [&](size_t i) { return digit_2_9(i) && IsDigit(text[i + 1]) && IsDigit(text[i + 2]); };
  if (run_end - run < 4 || run < 8) return;
  const char separator = text[run - 1];
  if ((separator != '-' && separator != '.' && separator != ' ') || !area(run - 4)) return;
  const char before = text[run - 5];
  size_t start = kNoStart;
  if (before == ')' && run >= 9 && text[run - 9] == '(' && area(run - 8)) {
    start = run - 9;
  } else if (before == ' ' && run >= 10 && text[run - 6] == ')' && text[run - 10] == '(' && area(run - 9)) {
    start = run - 10;
  } else if ((before == '-' || before == '.') && area(run - 8)) {
    start = run - 8;
  }
  if (start != kNoStart) Consider(context, kNanpRule, start, run + 4);
}

// The card rule, [0-9](?:[ \-]?[0-9]){12}: every thirteen digits of a
// chain (digits with at most one ' ' or '-' between them). Only a start
// that begins a digit group can pass the validator (it wants no letter,
// digit, '.' or '-' before the number), so only those are offered.
void CardsIn(MatchContext& context, const std::vector<size_t>& chain) {
  const std::string_view text = context.text;
  for (size_t k = 0; k + 13 <= chain.size(); ++k) {
    const size_t start = chain[k];
    if (start > 0 && (IsAlnum(text[start - 1]) || text[start - 1] == '.' || text[start - 1] == '-')) continue;
    Consider(context, kCardRule, start, chain[k + 12] + 1);
  }
}

// The ASCII letters each phone keyword ends with: the whole keyword, or
// what follows its last other byte ("phone" of téléphone, "l" of tél).
const std::vector<std::string_view>& PhoneKeywordLetterTails() {
  static const std::vector<std::string_view> tails = [] {
    std::vector<std::string_view> out;
    for (std::string_view keyword : phone::kKeywords) {
      size_t start = keyword.size();
      while (start > 0 && IsAlpha(keyword[start - 1])) --start;
      if (start < keyword.size()) out.push_back(keyword.substr(start));
    }
    return out;
  }();
  return tails;
}

// Whether a phone keyword may end at `end`, before a byte that is no ASCII
// letter, as AfterKeyword wants. A keyword starts after no letter, so the
// letters before `end` must be one of the keywords' letter tails; a keyword
// ending in another byte (the CJK ones) is left to PhoneKeywordStart.
bool PhoneKeywordMayEndAt(std::string_view text, size_t end) {
  if (end == 0 || (end < text.size() && IsAlpha(text[end]))) return false;
  if (!IsAlpha(text[end - 1])) return static_cast<unsigned char>(text[end - 1]) >= 0x80;
  const auto& tails = PhoneKeywordLetterTails();
  static const size_t longest =
      std::max_element(tails.begin(), tails.end(), [](auto a, auto b) { return a.size() < b.size(); })->size();
  size_t start = end - 1;
  while (start > 0 && end - start <= longest && IsAlpha(text[start - 1])) --start;
  const std::string_view word = text.substr(start, end - start);
  for (std::string_view tail : tails)
    if (tail.size() == word.size() && EndsWithIgnoreCase(word, tail)) return true;
  return false;
}

// The phone keyword rule where a digit run starts at `run`. The number
// after a keyword starts at the first digit within kKeywordWindow bytes of
// its end, in the same clause (phone::AfterKeyword), so only keywords that
// end there, with no digit or clause end between, can lead to this run.
void PhoneKeywordsBefore(MatchContext& context, size_t run) {
  const std::string_view text = context.text;
  const size_t lowest = run > phone::kKeywordWindow ? run - phone::kKeywordWindow : 0;
  for (size_t end = run;; --end) {
    if (end < run) {
      const char c = text[end];
      if (IsDigit(c) || c == '\n' || c == ';' || c == '|' || c == '#') return;
    }
    if (PhoneKeywordMayEndAt(text, end)) {
      const size_t start = PhoneKeywordStart(text, end);
      if (start != kNoStart) Consider(context, kPhoneKeywordRule, start, end);
    }
    if (end == lowest) return;
  }
}

// The rules that start at or just before a digit, in one walk over the
// digits.
void ScanDigits(MatchContext& context) {
  const std::string_view text = context.text;
  const size_t n = text.size();
  std::vector<size_t> chain;  // the positions of a chain's digits
  size_t pos = NextDigit(text, 0);
  while (pos < n) {
    chain.clear();
    // One chain: runs of digits joined by single separators.
    for (;;) {
      const size_t run = pos;
      while (pos < n && IsDigit(text[pos])) chain.push_back(pos++);
      IbanAt(context, run, pos);
      NanpAt(context, run, pos);
      PhoneKeywordsBefore(context, run);
      if (pos + 1 < n && (text[pos] == ' ' || text[pos] == '-') && IsDigit(text[pos + 1])) {
        ++pos;
        continue;
      }
      break;
    }
    CardsIn(context, chain);
    pos = NextDigit(text, pos);
  }
}

// The generic assignment rule around the ':' or '=' at `at`:
// name ["']? [ \t]* [:=] [ \t]* ["']? <the value's first byte>.
void AssignmentAt(MatchContext& context, size_t at) {
  const std::string_view text = context.text;
  size_t name_end = at;
  while (name_end > 0 && IsBlank(text[name_end - 1])) --name_end;
  if (name_end > 0 && IsQuote(text[name_end - 1])) --name_end;
  static const std::array<bool, 256> kLastBytes = LastBytesOf(kSecretKeyNames);
  if (name_end == 0 || !kLastBytes[static_cast<unsigned char>(Lower(text[name_end - 1]))]) return;
  const size_t start = LongestWordEndingAt(text, name_end, kSecretKeyNames);
  if (start == kNoStart) return;
  size_t value = at + 1;
  while (value < text.size() && IsBlank(text[value])) ++value;
  if (value < text.size() && IsQuote(text[value])) ++value;
  if (value >= text.size()) return;
  const char c = text[value];
  if (IsSpace(c) || c == '"' || c == '\'' || c == '`') return;
  Consider(context, kGenericRule, start, value + 1);
}

// The database URL rule where "://" starts at `at`:
// scheme :// [^\s:/@]{0,128} : [^\s/@]{1,128} @.
void DatabaseUrlAt(MatchContext& context, size_t at) {
  const std::string_view text = context.text;
  const size_t n = text.size();
  if (at + 2 >= n || text[at + 1] != '/' || text[at + 2] != '/') return;
  const size_t start = LongestWordEndingAt(text, at, kDatabaseSchemes);
  if (start == kNoStart) return;
  // The user: at most 128 bytes, then ':'; the password: 1 to 128, then '@'.
  size_t pos = at + 3;
  const size_t user_limit = std::min(n, pos + 128);
  while (pos < user_limit && !IsSpace(text[pos]) && text[pos] != ':' && text[pos] != '/' && text[pos] != '@') ++pos;
  if (pos >= n || text[pos] != ':') return;
  const size_t password = ++pos;
  const size_t password_limit = std::min(n, pos + 128);
  while (pos < password_limit && !IsSpace(text[pos]) && text[pos] != '/' && text[pos] != '@') ++pos;
  if (pos >= n || text[pos] != '@' || pos == password) return;
  Consider(context, kDatabaseUrlRule, start, pos + 1);
}

// The rules anchored on ':' or '=', in one walk over those bytes.
void ScanColonsAndEquals(MatchContext& context) {
  const std::string_view text = context.text;
  for (size_t at = NextColonOrEquals(text, 0); at < text.size(); at = NextColonOrEquals(text, at + 1)) {
    if (text[at] == ':') DatabaseUrlAt(context, at);
    AssignmentAt(context, at);
  }
}

std::string Fingerprint(std::string_view key, std::string_view value) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(value.data()),
       value.size(), digest, &size);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(size_t{size} * 2);
  for (unsigned int i = 0; i < size; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xF]);
  }
  return out;
}

}  // namespace

std::string_view KindName(Kind kind) { return kind == Kind::kSecret ? "secret" : "personal_data"; }

std::span<const DetectorInfo> Detectors() { return kDetectors; }

Scanner::~Scanner() { hs_free_database(static_cast<hs_database_t*>(database_)); }
Scanner::Scratch::~Scratch() { hs_free_scratch(static_cast<hs_scratch_t*>(scratch_)); }

Result<std::shared_ptr<const Scanner>> Scanner::Create() {
  phone::Warm();
  auto db = CompileRules(false);
  if (!db) return db.error();
  std::shared_ptr<Scanner> scanner(new Scanner());
  scanner->database_ = *db;
  return std::shared_ptr<const Scanner>(std::move(scanner));
}

std::unique_ptr<Scanner::Scratch> Scanner::NewScratch() const {
  std::unique_ptr<Scratch> scratch(new Scratch());
  hs_scratch_t* raw = nullptr;
  if (hs_alloc_scratch(static_cast<hs_database_t*>(database_), &raw) != HS_SUCCESS) throw std::bad_alloc();
  scratch->scratch_ = raw;
  return scratch;
}

namespace {

// Runs `database` over `text` (in windows, for texts past Hyperscan's
// unsigned length) and validates what it reports.
void RunHyperscan(const hs_database_t* database, hs_scratch_t* scratch, match_event_handler on_match,
                  MatchContext& context) {
  const std::string_view text = context.text;
  // No token is longer than the overlap.
  constexpr size_t kWindow = size_t{1} << 30;
  constexpr size_t kOverlap = 1 << 17;
  for (size_t base = 0;; base += kWindow - kOverlap) {
    const size_t size = std::min(kWindow, text.size() - base);
    context.base = base;
    const hs_error_t status =
        hs_scan(database, text.data() + base, static_cast<unsigned>(size), 0, scratch, on_match, &context);
    // Only a broken invariant fails here (a scratch from another scanner,
    // one scratch used by two threads at once).
    if (status != HS_SUCCESS) throw std::runtime_error("hs_scan failed: " + std::to_string(status));
    if (base + size >= text.size()) break;
  }
  context.base = 0;
}

// Drops what another finding says better and makes one finding per
// (detector, value), in offset order.
std::vector<Finding> ToFindings(std::vector<Accepted> accepted, std::string_view text,
                                std::string_view fingerprint_key) {
  // By start, longest first; the same hit found twice (overlapping
  // windows, a rule reporting one start again) counts once.
  std::sort(accepted.begin(), accepted.end(), [](const Accepted& a, const Accepted& b) {
    return std::tie(a.hit.start, b.hit.length, a.detector) < std::tie(b.hit.start, a.hit.length, b.detector);
  });
  accepted.erase(std::unique(accepted.begin(), accepted.end(),
                             [](const Accepted& a, const Accepted& b) {
                               return a.detector == b.detector && a.hit.start == b.hit.start &&
                                      a.hit.length == b.hit.length;
                             }),
                 accepted.end());
  // Drop a hit inside a longer (or earlier) hit of the same detector, and
  // hits that only restate a more specific secret: a generic assignment or
  // personal data (user:password@host) overlapping a provider's token.
  // Only neighbours can overlap: forward while they start before this hit
  // ends, backward while some earlier hit still reaches this one.
  std::vector<size_t> reach(accepted.size());  // max end of accepted[0..i]
  for (size_t i = 0; i < accepted.size(); ++i)
    reach[i] = std::max(i == 0 ? 0 : reach[i - 1], accepted[i].hit.start + accepted[i].hit.length);
  const auto dominated_by = [](const Accepted& a, const Accepted& other) {
    if (other.detector == a.detector)
      return other.hit.length > a.hit.length || (other.hit.length == a.hit.length && other.hit.start < a.hit.start);
    // A phone number is the least specific finding: digits that another
    // detector matched (a card, an IBAN, an assigned secret) are that.
    if (a.detector == kPhoneDetector) return true;
    const bool other_specific_secret =
        kDetectors[other.detector].kind == Kind::kSecret && other.detector != kGenericDetector;
    return other_specific_secret &&
           (a.detector == kGenericDetector || kDetectors[a.detector].kind == Kind::kPersonalData);
  };
  std::vector<Accepted> kept;
  for (size_t i = 0; i < accepted.size(); ++i) {
    const Accepted& a = accepted[i];
    const size_t end = a.hit.start + a.hit.length;
    bool drop = false;
    for (size_t j = i + 1; !drop && j < accepted.size() && accepted[j].hit.start < end; ++j)
      drop = dominated_by(a, accepted[j]);
    for (size_t j = i; !drop && j > 0 && reach[j - 1] > a.hit.start; --j)
      drop = accepted[j - 1].hit.start + accepted[j - 1].hit.length > a.hit.start && dominated_by(a, accepted[j - 1]);
    if (!drop) kept.push_back(a);
  }
  // One finding per (detector, value).
  std::vector<Finding> findings;
  std::map<std::pair<size_t, std::string>, size_t> index;
  for (const auto& a : kept) {
    std::string fp =
        Fingerprint(fingerprint_key, a.hit.value.empty() ? text.substr(a.hit.start, a.hit.length) : a.hit.value);
    auto [it, inserted] = index.try_emplace({a.detector, fp}, findings.size());
    if (inserted) {
      const DetectorInfo& info = kDetectors[a.detector];
      findings.push_back(Finding{std::string(info.id), info.kind, std::string(a.hit.sub_type), a.hit.start,
                                 a.hit.length, 0, std::move(fp)});
    }
    ++findings[it->second].count;
  }
  return findings;
}

}  // namespace

std::vector<Finding> Scanner::Scan(std::string_view text, std::string_view fingerprint_key, Scratch& scratch) const {
  std::vector<Accepted> accepted;
  MatchContext context{text, 0, {}, &accepted};
  RunHyperscan(static_cast<hs_database_t*>(database_), static_cast<hs_scratch_t*>(scratch.scratch_), OnMatch, context);
  ScanDigits(context);
  ScanColonsAndEquals(context);
  return ToFindings(std::move(accepted), text, fingerprint_key);
}

std::vector<Finding> Scanner::Scan(std::string_view text, std::string_view fingerprint_key) const {
  // Every scanner of this build compiles the same rules, so a scratch fits
  // all of them; `owner` only avoids relying on that more than needed.
  thread_local const Scanner* owner = nullptr;
  thread_local std::unique_ptr<Scratch> scratch;
  if (owner != this || !scratch) {
    scratch = NewScratch();
    owner = this;
  }
  return Scan(text, fingerprint_key, *scratch);
}

namespace detail {

namespace {

struct Reference {
  hs_database_t* database = nullptr;
  hs_scratch_t* scratch = nullptr;  // a prototype: each thread clones its own
};

hs_scratch_t* ReferenceScratch(const Reference& reference) {
  thread_local hs_scratch_t* scratch = nullptr;
  if (scratch == nullptr && hs_clone_scratch(reference.scratch, &scratch) != HS_SUCCESS) throw std::bad_alloc();
  return scratch;
}

const Reference& TheReference() {
  static const Reference reference = [] {
    Reference r;
    auto db = CompileRules(true);
    if (!db) throw std::runtime_error(db.error().detail);
    r.database = *db;
    if (hs_alloc_scratch(r.database, &r.scratch) != HS_SUCCESS) throw std::bad_alloc();
    return r;
  }();
  return reference;
}

}  // namespace

std::vector<std::string> StartsDisagreeingWithHyperscan(std::string_view text) {
  if (text.size() > UINT32_MAX) throw std::length_error("text too long for one Hyperscan block");
  const Reference& reference = TheReference();
  struct Context {
    std::string_view text;
    std::vector<std::string> disagreements;
  } context{text, {}};
  const auto on_match = [](unsigned int id, unsigned long long from, unsigned long long to, unsigned int,
                           void* raw) -> int {
    auto& c = *static_cast<Context*>(raw);
    const Rule& rule = Rules()[id];
    if (rule.pass != Pass::kHyperscan) return 0;
    const size_t found = rule.find_start(c.text, static_cast<size_t>(to));
    if (found != static_cast<size_t>(from))
      c.disagreements.push_back("rule " + std::to_string(id) + " (" + rule.pattern + ") ending at " +
                                std::to_string(to) + ": Hyperscan starts it at " + std::to_string(from) +
                                ", the finder at " + (found == kNoStart ? "none" : std::to_string(found)));
    return 0;
  };
  if (hs_scan(reference.database, text.data(), static_cast<unsigned>(text.size()), 0, ReferenceScratch(reference),
              on_match, &context) != HS_SUCCESS)
    throw std::runtime_error("hs_scan failed");
  return context.disagreements;
}

std::vector<Finding> ReferenceScan(std::string_view text, std::string_view fingerprint_key) {
  const Reference& reference = TheReference();
  std::vector<Accepted> accepted;
  MatchContext context{text, 0, {}, &accepted};
  RunHyperscan(reference.database, ReferenceScratch(reference), OnMatchWithStart, context);
  return ToFindings(std::move(accepted), text, fingerprint_key);
}

bool Luhn(std::string_view digits) {
  int sum = 0;
  bool twice = false;
  for (size_t i = digits.size(); i > 0; --i) {
    int d = digits[i - 1] - '0';
    if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    twice = !twice;
  }
  return sum % 10 == 0;
}

bool IbanChecksumValid(std::string_view iban) {
  if (iban.size() < 5) return false;
  // Move the first four characters to the end, letters to 10..35, mod 97.
  int remainder = 0;
  const auto feed = [&](char c) {
    if (IsDigit(c)) {
      remainder = (remainder * 10 + (c - '0')) % 97;
    } else {
      const int v = c - 'A' + 10;
      remainder = (remainder * 100 + v) % 97;
    }
  };
  for (size_t i = 4; i < iban.size(); ++i) feed(iban[i]);
  for (size_t i = 0; i < 4; ++i) feed(iban[i]);
  return remainder == 1;
}

double ShannonEntropy(std::string_view text) {
  if (text.empty()) return 0;
  std::array<int, 256> counts{};
  for (char c : text) ++counts[static_cast<unsigned char>(c)];
  double entropy = 0;
  for (int n : counts) {
    if (n == 0) continue;
    const double p = static_cast<double>(n) / static_cast<double>(text.size());
    entropy -= p * std::log2(p);
  }
  return entropy;
}

}  // namespace detail
}  // namespace credence::scanning
