#pragma once
// The phone-number detector's validation (docs/scanning.md, `phone_number`),
// internal to the scanner. Hyperscan finds phone-shaped candidates (rules in
// scanner.cpp, in the one database); each is re-read here by hand and
// validated with libphonenumber, whose headers only phone.cpp includes.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace credence::scanning::phone {

struct Match {
  size_t start = 0;
  size_t length = 0;
  std::string_view sub_type;  // from libphonenumber's number type
  std::string e164;           // "+49301234567": the value fingerprinted
};

// `from`..`to` is the Hyperscan match of the rule; each validator re-reads
// the text from `from` itself.
// `+` or `00` then a country code: parsed with the unknown region "ZZ".
std::optional<Match> International(std::string_view text, size_t from, size_t to);
// The NANP shapes (NXX) NXX-XXXX, NXX-NXX-XXXX, NXX.NXX.XXXX: parsed as US.
std::optional<Match> Nanp(std::string_view text, size_t from, size_t to);
// A keyword (phone, tel, fax, ...) at [from, to), a whole word (no ASCII
// letter on either side), then, within a short window, a number in
// national format: parsed against kDefaultRegions.
std::optional<Match> AfterKeyword(std::string_view text, size_t from, size_t to);

// Words that make a national-format number a phone number when they stand
// shortly before it (any ASCII case, a whole word). The pattern is built
// from this list (KeywordPattern); the scanner finds the keywords before a
// number's digits with the same list.
inline constexpr std::array<std::string_view, 24> kKeywords{
    "phone",
    "telephone",
    "tel",
    "mobile",
    "mobil",
    "mob",
    "cell",
    "cellphone",
    "call",
    "fax",
    "ph",
    "whatsapp",
    "sms",
    "hotline",
    "telefon",
    "telefono",
    "telefone",
    "handy",
    "portable",
    "celular",
    "t\xC3\xA9l\xC3\xA9phone",   // téléphone
    "t\xC3\xA9l",                // tél
    "\xE9\x9B\xBB\xE8\xA9\xB1",  // 電話
    "\xE6\x90\xBA\xE5\xB8\xAF",  // 携帯
};
// The most bytes between the keyword and the number.
inline constexpr size_t kKeywordWindow = 20;
// The regions a keyword-anchored national number is tried against, in this
// order (docs/scanning.md explains the choice).
inline constexpr std::array<const char*, 7> kDefaultRegions{"US", "GB", "DE", "FR", "IN", "BR", "JP"};

// "(?:phone|telephone|...)", for HS_FLAG_CASELESS: only the keyword, the
// window after it is read by AfterKeyword (cheaper for Hyperscan).
const std::string& KeywordPattern();

// Loads libphonenumber's metadata (once per process; Scanner::Create calls
// it so the first scan does not pay for it).
void Warm();

}  // namespace credence::scanning::phone
