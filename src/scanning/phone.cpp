#include "scanning/phone.h"

// libphonenumber 8.12 from Debian's runtime package libphonenumber8, headers
// extracted from libphonenumber-dev (scripts/lib/common.sh explains why).
// CMake defines I18N_PHONENUMBERS_HAVE_POSIX_THREAD and neither USE_BOOST nor
// USE_STDMUTEX: the POSIX singleton and scoped_ptr the library was built with.
#include <phonenumbers/phonenumberutil.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

namespace credence::scanning::phone {
namespace {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiAlpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsAlnum(char c) { return IsDigit(c) || IsAsciiAlpha(c); }

constexpr size_t kMinDigits = 7;
constexpr size_t kMaxDigits = 15;  // E.164

const PhoneNumberUtil& Util() { return *PhoneNumberUtil::GetInstance(); }

// A phone-shaped run as written: an optional '+', digit groups separated by
// one of ' ', '-', '.', '/' (or " - ", " / "), and at most one group in
// parentheses.
struct Run {
  size_t start = 0;
  size_t end = 0;
  bool plus = false;
  std::string digits;
  std::vector<size_t> groups;  // digit-group lengths, as written
  std::vector<size_t> group_ends;
  size_t paren_group = SIZE_MAX;  // the index of the group written in parentheses
  std::string separators;         // the separator before each group but the first ('(' for a parenthesised group)
};

// Reads the run starting at `start` ('+', '(' or a digit). Fails when it has
// more digits than E.164 allows (two more for a "00" prefix): then it is
// part of a longer number.
std::optional<Run> ReadRun(std::string_view text, size_t start) {
  Run run;
  run.start = start;
  size_t pos = start;
  const size_t n = text.size();
  if (pos < n && text[pos] == '+') {
    run.plus = true;
    ++pos;
  }
  bool paren_used = false;
  char pending = 0;  // a separator read before the next group
  while (pos < n) {
    if (text[pos] == '(') {
      size_t close = pos + 1;
      while (close < n && IsDigit(text[close]) && close - pos <= 4) ++close;
      if (paren_used || close == pos + 1 || close >= n || text[close] != ')') break;
      paren_used = true;
      run.paren_group = run.groups.size();
      if (!run.groups.empty()) run.separators.push_back('(');
      run.groups.push_back(close - pos - 1);
      run.digits.append(text.substr(pos + 1, close - pos - 1));
      pos = close + 1;
      run.end = pos;
      run.group_ends.push_back(pos);
    } else if (IsDigit(text[pos])) {
      const size_t begin = pos;
      while (pos < n && IsDigit(text[pos])) ++pos;
      if (!run.groups.empty()) run.separators.push_back(pending != 0 ? pending : '(');
      run.groups.push_back(pos - begin);
      run.digits.append(text.substr(begin, pos - begin));
      run.end = pos;
      run.group_ends.push_back(pos);
    } else {
      break;
    }
    if (run.digits.size() > kMaxDigits + 2) return std::nullopt;
    // One separator (or " - ", " / "), then another group.
    pending = 0;
    const auto group_at = [&](size_t at) { return at < n && (IsDigit(text[at]) || text[at] == '('); };
    if (pos < n && (text[pos] == ' ' || text[pos] == '-' || text[pos] == '.' || text[pos] == '/') &&
        group_at(pos + 1)) {
      pending = text[pos];
      ++pos;
    } else if (pos + 2 < n && text[pos] == ' ' && (text[pos + 1] == '-' || text[pos + 1] == '/') &&
               text[pos + 2] == ' ' && group_at(pos + 3)) {
      pending = text[pos + 1];
      pos += 3;
    } else if (pos >= n || !(text[pos] == '(' || IsDigit(text[pos]))) {
      break;  // not "+44(0)20" nor "(030)1234567"
    }
  }
  if (run.groups.empty()) return std::nullopt;
  return run;
}

// The run stands alone: not glued to letters or to more of a number (a
// decimal, a time, a thousands group, an identifier, an e-mail address).
bool StandsAlone(std::string_view text, const Run& run) {
  if (run.start > 0) {
    const char before = text[run.start - 1];
    if (IsAlnum(before) || before == '_' || before == '.' || before == ',' || before == '-' || before == '/' ||
        before == '+' || before == '@' || before == '#' || before == '$' || before == '%')
      return false;
  }
  if (run.end < text.size()) {
    const char after = text[run.end];
    if (IsAlnum(after) || after == '_' || after == '@' || after == '%') return false;
    if ((after == '.' || after == ',' || after == ':' || after == '-' || after == '/') && run.end + 1 < text.size() &&
        IsDigit(text[run.end + 1]))
      return false;
  }
  return true;
}

int Number(std::string_view digits, size_t from, size_t count) {
  int value = 0;
  for (size_t i = from; i < from + count && i < digits.size(); ++i) value = value * 10 + (digits[i] - '0');
  return value;
}

bool DayMonth(int day, int month) { return day >= 1 && day <= 31 && month >= 1 && month <= 12; }

// Dates and timestamps: 2026-11-25, 25.11.2026, 11/25/26 (alone or before a
// time with another separator), 20261125 and 20261125103000.
bool LooksLikeDate(const Run& run) {
  const auto& g = run.groups;
  if (g.size() >= 3 && run.separators[0] == run.separators[1] &&
      (run.separators[0] == '-' || run.separators[0] == '.' || run.separators[0] == '/') &&
      (g.size() == 3 || run.separators[2] != run.separators[0])) {
    const std::string& d = run.digits;
    if (g[0] == 4 && g[1] <= 2 && g[2] <= 2 && DayMonth(Number(d, 4 + g[1], g[2]), Number(d, 4, g[1]))) return true;
    if (g[0] <= 2 && g[1] <= 2 && (g[2] == 2 || g[2] == 4)) {
      const int a = Number(d, 0, g[0]);
      const int b = Number(d, g[0], g[1]);
      if (DayMonth(a, b) || DayMonth(b, a)) return true;
    }
  }
  if (g.size() == 1 && (run.digits.size() == 8 || run.digits.size() == 12 || run.digits.size() == 14) &&
      (run.digits.starts_with("19") || run.digits.starts_with("20")) &&
      DayMonth(Number(run.digits, 6, 2), Number(run.digits, 4, 2)))
    return true;
  return false;
}

// 192.168.100.200
bool LooksLikeIpv4(const Run& run) {
  if (run.groups.size() != 4 || run.separators != "...") return false;
  size_t at = 0;
  for (size_t len : run.groups) {
    if (len > 3 || Number(run.digits, at, len) > 255) return false;
    at += len;
  }
  return true;
}

// A signed decimal ("+35236450.6"): a lone '.' (dotted numbers have
// several: 06.12.34.56.78).
bool LooksLikeDecimal(const Run& run) { return std::count(run.separators.begin(), run.separators.end(), '.') == 1; }

// ISO 6709 coordinates as in zone.tab: +DDMM-DDDMM, +DDMMSS-DDDMMSS.
bool LooksLikeCoordinates(const Run& run) {
  return run.plus && run.separators == "-" &&
         ((run.groups[0] == 4 && run.groups[1] == 5) || (run.groups[0] == 6 && run.groups[1] == 7));
}

std::string_view SubType(PhoneNumberUtil::PhoneNumberType type) {
  switch (type) {
    case PhoneNumberUtil::FIXED_LINE:
      return "fixed_line";
    case PhoneNumberUtil::MOBILE:
      return "mobile";
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE:
      return "fixed_line_or_mobile";
    case PhoneNumberUtil::TOLL_FREE:
      return "toll_free";
    case PhoneNumberUtil::PREMIUM_RATE:
      return "premium_rate";
    case PhoneNumberUtil::SHARED_COST:
      return "shared_cost";
    case PhoneNumberUtil::VOIP:
      return "voip";
    case PhoneNumberUtil::PERSONAL_NUMBER:
      return "personal_number";
    case PhoneNumberUtil::PAGER:
      return "pager";
    case PhoneNumberUtil::UAN:
      return "uan";
    case PhoneNumberUtil::VOICEMAIL:
      return "voicemail";
    default:
      return "phone_number";
  }
}

std::vector<size_t> GroupsOf(std::string_view formatted) {
  std::vector<size_t> groups;
  size_t length = 0;
  for (char c : formatted) {
    if (IsDigit(c)) {
      ++length;
    } else if (length > 0) {
      groups.push_back(length);
      length = 0;
    }
  }
  if (length > 0) groups.push_back(length);
  return groups;
}

// A candidate found valid, and whether its digits are grouped as
// libphonenumber formats the number (then no shorter reading is tried).
struct Valid {
  Match match;
  bool as_formatted = false;
};

// `written` parsed for `region`; valid when libphonenumber says so.
// `international_groups`: the run's digit groups after the "+" or "00",
// compared with the international format.
std::optional<Valid> Validate(const Run& run, const std::string& written, const char* region,
                              const std::vector<size_t>* international_groups = nullptr) {
  const PhoneNumberUtil& util = Util();
  PhoneNumber number;
  if (util.Parse(written, region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return std::nullopt;
  if (!util.IsValidNumber(number)) return std::nullopt;
  Valid valid{{run.start, run.end - run.start, SubType(util.GetNumberType(number)), {}}, false};
  util.Format(number, PhoneNumberUtil::E164, &valid.match.e164);
  if (international_groups != nullptr) {
    std::string formatted;
    util.Format(number, PhoneNumberUtil::INTERNATIONAL, &formatted);
    valid.as_formatted = GroupsOf(formatted) == *international_groups;
  }
  return valid;
}

// A '+' run, or a run whose first digits are the "00" international prefix.
std::optional<Valid> ValidateInternational(std::string_view text, const Run& run) {
  const size_t prefix = run.plus ? 0 : 2;
  if (run.digits.size() < kMinDigits + prefix || run.digits.size() > kMaxDigits + prefix || LooksLikeDecimal(run) ||
      LooksLikeCoordinates(run))
    return std::nullopt;
  // The groups after the prefix, without a "(0)" trunk prefix.
  std::vector<size_t> groups;
  for (size_t i = 0; i < run.groups.size(); ++i) {
    if (i == run.paren_group && run.groups[i] == 1) continue;
    groups.push_back(run.groups[i]);
  }
  if (run.plus) return Validate(run, std::string(text.substr(run.start, run.end - run.start)), "ZZ", &groups);
  if (!run.digits.starts_with("00") || run.digits[2] == '0') return std::nullopt;
  if (groups[0] > 2)
    groups[0] -= 2;
  else
    groups.erase(groups.begin());
  // Groups of four, all of them, are code points and hex dumps ("0069 0307
  // 0301"), not a number dialled from abroad.
  if (run.groups.size() >= 2 && std::all_of(run.groups.begin(), run.groups.end(), [](size_t g) { return g == 4; }))
    return std::nullopt;
  // "0049 30 1234567", "00 49 30 1234567" -> "+49 30 1234567".
  size_t after = run.start + 2;
  if (after < run.end && !IsDigit(text[after])) ++after;
  std::string written = "+";
  written.append(text.substr(after, run.end - after));
  return Validate(run, written, "ZZ", &groups);
}

// The run without the groups after its last space, once the whole run
// proved no number: "030 1234567 24/7" -> "030 1234567".
std::optional<Run> BeforeLastSpace(const Run& run) {
  for (size_t i = run.separators.size(); i > 0; --i) {
    if (run.separators[i - 1] != ' ') continue;
    Run shorter = run;
    size_t digits = 0;
    for (size_t k = 0; k < i; ++k) digits += run.groups[k];
    shorter.groups.resize(i);
    shorter.group_ends.resize(i);
    shorter.separators.resize(i - 1);
    shorter.digits.resize(digits);
    shorter.end = run.group_ends[i - 1];
    return shorter;
  }
  return std::nullopt;
}

// The number the run starts with: the whole run or the run cut at its last
// spaces (twice at most), the longest that is valid and grouped as
// libphonenumber formats it, else the longest that is valid. So
// "+49 30 1234567 2026" is +49301234567, though Germany's numbering plan
// would also accept the 15 digits.
template <class Validator>
std::optional<Match> BestValid(std::string_view text, Run run, Validator validate) {
  std::optional<Match> longest;
  for (int cut = 0;; ++cut) {
    if (auto valid = validate(text, run)) {
      if (valid->as_formatted) return std::move(valid->match);
      if (!longest) longest = std::move(valid->match);
    }
    std::optional<Run> shorter;
    if (cut == 2 || !(shorter = BeforeLastSpace(run))) return longest;
    run = std::move(*shorter);
  }
}

std::optional<Valid> ValidateNational(std::string_view text, const Run& run) {
  if (run.digits.size() < kMinDigits || run.digits.size() > kMaxDigits || LooksLikeDate(run) || LooksLikeIpv4(run) ||
      LooksLikeDecimal(run))
    return std::nullopt;
  const std::string written(text.substr(run.start, run.end - run.start));
  const PhoneNumberUtil& util = Util();
  // A region counts when the number is valid there and written as that
  // region writes it nationally: the same digits, trunk prefix included
  // (Germany's "030 1234567", not "30 1234567"; a mobile number may leave
  // it out, as India's "98765 43210" usually does). Of those, the first in
  // kDefaultRegions, unless a later one's national format also groups the
  // digits exactly as written ("03 12 34 56 78" is French and
  // "03-1234-5678" Japanese, though both are valid in both countries).
  std::optional<Valid> first;
  for (const char* region : kDefaultRegions) {
    // Saves a parse: written nationally, US numbers start with 2 to 9 and
    // Brazilian ones with the area code (no trunk prefix 0).
    const std::string_view name(region);
    if ((run.digits[0] == '0' && (name == "US" || name == "BR")) || (run.digits[0] == '1' && name == "US")) continue;
    PhoneNumber number;
    if (util.Parse(written, region, &number) != PhoneNumberUtil::NO_PARSING_ERROR || !util.IsValidNumber(number))
      continue;
    const auto type = util.GetNumberType(number);
    std::string national;
    util.Format(number, PhoneNumberUtil::NATIONAL, &national);
    std::vector<size_t> groups = GroupsOf(national);
    std::string digits;
    for (char c : national)
      if (IsDigit(c)) digits.push_back(c);
    if (digits != run.digits) {
      const bool mobile_without_trunk = type == PhoneNumberUtil::MOBILE && digits.size() == run.digits.size() + 1 &&
                                        digits[0] == '0' && digits.compare(1, std::string::npos, run.digits) == 0;
      if (!mobile_without_trunk) continue;
      if (--groups[0] == 0) groups.erase(groups.begin());
    }
    const bool same_grouping = run.groups.size() > 1 && groups == run.groups;
    if (first && !same_grouping) continue;
    Valid valid{{run.start, run.end - run.start, SubType(type), {}}, same_grouping};
    util.Format(number, PhoneNumberUtil::E164, &valid.match.e164);
    if (same_grouping) return valid;
    first = std::move(valid);
  }
  return first;
}

// What the Nanp rule matches: (NXX) NXX-XXXX (or NXX XXXX, NXX.XXXX,
// (NXX)NXX-XXXX), NXX-NXX-XXXX, NXX.NXX.XXXX.
bool IsNanpShaped(std::string_view text, const Run& run) {
  if (run.groups != std::vector<size_t>{3, 3, 4} || run.digits[0] < '2' || run.digits[3] < '2') return false;
  if (text[run.start] == '(') return run.separators[1] != '/';
  return run.separators[0] == run.separators[1] && (run.separators[0] == '-' || run.separators[0] == '.');
}

}  // namespace

std::optional<Match> International(std::string_view text, size_t from, size_t) {
  const auto run = ReadRun(text, from);
  if (!run || !StandsAlone(text, *run)) return std::nullopt;
  return BestValid(text, std::move(*run), ValidateInternational);
}

std::optional<Match> Nanp(std::string_view text, size_t from, size_t to) {
  // The pattern admits (NXX) NXX[-. ]XXXX and NXX[-.]NXX[-. ]XXXX; without
  // parentheses both separators must be the same.
  if (text[from] != '(' && text[from + 3] != text[from + 7]) return std::nullopt;
  Run run;
  run.start = from;
  run.end = to;
  if (!StandsAlone(text, run)) {
    // "1-800-555-0199", "1.212.555.0100": the trunk prefix belongs to it.
    if (from < 2 || text[from - 2] != '1' || (text[from - 1] != '-' && text[from - 1] != '.') ||
        (from >= 3 && (IsAlnum(text[from - 3]) || text[from - 3] == '.' || text[from - 3] == '-')))
      return std::nullopt;
    run.start = from - 2;
    if (!StandsAlone(text, run)) return std::nullopt;
  }
  auto valid = Validate(run, std::string(text.substr(run.start, run.end - run.start)), "US");
  if (!valid || !valid->match.e164.starts_with("+1")) return std::nullopt;
  return std::move(valid->match);
}

std::optional<Match> AfterKeyword(std::string_view text, size_t from, size_t to) {
  // The keyword the pattern matched, [from, to), as a whole word.
  if ((from > 0 && IsAsciiAlpha(text[from - 1])) || (to < text.size() && IsAsciiAlpha(text[to]))) return std::nullopt;
  const size_t keyword_end = to;
  // The number starts within kKeywordWindow bytes, in the same clause.
  const size_t stop = std::min(text.size(), keyword_end + kKeywordWindow + 1);
  size_t digit = keyword_end;
  for (; digit < stop && !IsDigit(text[digit]); ++digit)
    if (text[digit] == '\n' || text[digit] == ';' || text[digit] == '|' || text[digit] == '#') return std::nullopt;
  if (digit == stop) return std::nullopt;
  // The run starts at the digit, or at a '+' or '(' just before it.
  std::optional<Run> run;
  if (digit > 0 && (text[digit - 1] == '+' || text[digit - 1] == '(')) run = ReadRun(text, digit - 1);
  if (!run || (!run->plus && text[run->start] == '(' && run->groups.size() < 2)) run = ReadRun(text, digit);
  if (!run || !StandsAlone(text, *run)) return std::nullopt;
  // International numbers and the NANP shapes are the other rules' (they
  // match with or without a keyword): not parsed twice.
  if (run->plus || run->digits.starts_with("00") || IsNanpShaped(text, *run)) return std::nullopt;
  return BestValid(text, std::move(*run), ValidateNational);
}

const std::string& KeywordPattern() {
  static const std::string pattern = [] {
    std::string p = "(?:";
    for (size_t i = 0; i < kKeywords.size(); ++i) {
      if (i > 0) p += '|';
      for (char c : kKeywords[i]) {
        if (static_cast<unsigned char>(c) >= 0x80) {
          static constexpr char kHex[] = "0123456789abcdef";
          p += "\\x";
          p += kHex[static_cast<unsigned char>(c) >> 4];
          p += kHex[static_cast<unsigned char>(c) & 0xF];
        } else {
          p += c;
        }
      }
    }
    p += ')';
    return p;
  }();
  return pattern;
}

void Warm() {
  static std::once_flag once;
  std::call_once(once, [] {
    // PhoneNumberUtil's constructor installs a NullLogger (checked against
    // libphonenumber8 8.12.57): nothing the scanner reads is logged.
    PhoneNumber number;
    Util().Parse("+41 44 668 1800", "ZZ", &number);
    (void)Util().IsValidNumber(number);
  });
}

}  // namespace credence::scanning::phone
