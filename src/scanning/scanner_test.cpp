#include "scanning/scanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "scanning/generated_secrets.h"  // tests/scanning

namespace credence::scanning {
namespace {

std::shared_ptr<const Scanner> TheScanner() {
  static const std::shared_ptr<const Scanner> scanner = [] {
    auto created = Scanner::Create();
    if (!created) throw std::runtime_error(created.error().detail);
    return *created;
  }();
  return scanner;
}

std::vector<Finding> ScanText(std::string_view text, std::string_view key = "tenant-key") {
  auto scratch = TheScanner()->NewScratch();
  return TheScanner()->Scan(text, key, *scratch);
}

struct Sample {
  std::string label;  // detector id, or "-"
  std::string text;
};

std::vector<Sample> CorpusFile() {
  std::ifstream in(std::string(CREDENCE_SOURCE_DIR) + "/tests/scanning/corpus/labelled.tsv");
  EXPECT_TRUE(in.good());
  std::vector<Sample> samples;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::string text;
    const std::string raw = line.substr(tab + 1);
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == 'n') {
        text.push_back('\n');
        ++i;
      } else {
        text.push_back(raw[i]);
      }
    }
    samples.push_back({line.substr(0, tab), text});
  }
  return samples;
}

std::vector<Sample> GeneratedSamples() {
  testing::SecretGenerator gen(20261125);
  static constexpr std::string_view kContexts[] = {"{}",
                                                   "export VALUE={}",
                                                   "  \"credential\": \"{}\",",
                                                   "config:\n  value: {}\n",
                                                   "Accidentally pasted {} in chat.",
                                                   "TOKEN='{}'",
                                                   "<code>{}</code>"};
  std::vector<Sample> samples;
  for (int round = 0; round < 21; ++round) {
    for (auto& [detector, value] : gen.OneOfEach()) {
      std::string text(kContexts[round % std::size(kContexts)]);
      text.replace(text.find("{}"), 2, value);
      samples.push_back({detector, text});
    }
    for (auto& bad : gen.BadChecksums()) samples.push_back({"-", "A mistyped key " + bad + " in prose."});
  }
  return samples;
}

struct Counts {
  int tp = 0, fn = 0, fp = 0;
};

TEST(ScannerCorpus, EveryDetectorMeetsItsRecallAndPrecisionFloor) {
  std::vector<Sample> samples = CorpusFile();
  for (auto& s : GeneratedSamples()) samples.push_back(s);
  ASSERT_GT(samples.size(), 300u);

  std::map<std::string, Counts> counts;
  for (const auto& info : Detectors()) counts[std::string(info.id)];
  for (const auto& sample : samples) {
    std::set<std::string> found;
    for (const auto& f : ScanText(sample.text)) found.insert(f.detector);
    if (sample.label != "-") {
      ASSERT_TRUE(counts.contains(sample.label)) << "unknown label " << sample.label;
      if (found.contains(sample.label)) {
        ++counts[sample.label].tp;
      } else {
        ++counts[sample.label].fn;
        ADD_FAILURE() << "missed " << sample.label << " in: " << sample.text;
      }
    }
    for (const auto& d : found) {
      if (d == sample.label) continue;
      ++counts[d].fp;
      ADD_FAILURE() << "false " << d << " in: " << sample.text;
    }
  }
  std::ostringstream table;
  table << "detector                     TP  FN  FP  recall  precision\n";
  for (const auto& [id, c] : counts) {
    const double recall = c.tp + c.fn == 0 ? 1.0 : static_cast<double>(c.tp) / (c.tp + c.fn);
    const double precision = c.tp + c.fp == 0 ? 1.0 : static_cast<double>(c.tp) / (c.tp + c.fp);
    char row[160];
    std::snprintf(row, sizeof row, "%-27s %4d %3d %3d  %6.3f  %9.3f\n", id.c_str(), c.tp, c.fn, c.fp, recall,
                  precision);
    table << row;
    EXPECT_GT(c.tp, 0) << id << " has no positive sample";
    EXPECT_EQ(recall, 1.0) << id;
    EXPECT_GE(precision, 0.95) << id;
  }
  std::cout << table.str();
}

TEST(Scanner, AFindingCarriesPositionCountAndAKeyedFingerprintButNotTheText) {
  testing::SecretGenerator gen(7);
  const std::string key = gen.OneOfEach()[1].second;  // a GitHub token
  const std::string text = "first " + key + "\nagain: " + key + "\n";
  const auto findings = ScanText(text, "tenant-a");
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.detector, "github_token");
  EXPECT_EQ(f.kind, Kind::kSecret);
  EXPECT_EQ(f.offset, 6u);
  EXPECT_EQ(f.length, key.size());
  EXPECT_EQ(f.count, 2);
  EXPECT_EQ(f.fingerprint.size(), 64u);
  EXPECT_EQ(f.fingerprint.find(key), std::string::npos);

  // The same value in another text is the same finding for the same
  // tenant, and a different one for another tenant's key.
  EXPECT_EQ(ScanText("x " + key, "tenant-a")[0].fingerprint, f.fingerprint);
  EXPECT_NE(ScanText("x " + key, "tenant-b")[0].fingerprint, f.fingerprint);
}

TEST(Scanner, DistinctValuesAreDistinctFindingsInOffsetOrder) {
  const auto findings = ScanText("a@acme-corp.de and b@acme-corp.de and a@acme-corp.de, card 4111111111111111");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].detector, "email_address");
  EXPECT_EQ(findings[0].count, 2);
  EXPECT_EQ(findings[1].count, 1);
  EXPECT_EQ(findings[2].detector, "payment_card");
  EXPECT_EQ(findings[2].kind, Kind::kPersonalData);
  EXPECT_EQ(findings[2].sub_type, "visa");
}

TEST(Scanner, EmptyAndBinaryTextScanCleanly) {
  EXPECT_TRUE(ScanText("").empty());
  std::string binary(4096, '\0');
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 131 % 256);
  EXPECT_NO_THROW(ScanText(binary));
}

TEST(Scanner, OneCompiledScannerServesManyThreadsEachWithItsScratch) {
  testing::SecretGenerator gen(11);
  std::string text;
  for (int i = 0; i < 50; ++i)
    for (auto& [d, v] : gen.OneOfEach()) text += "line " + v + "\n";
  const size_t expected = ScanText(text).size();
  EXPECT_EQ(expected, 50u * 12u);
  std::vector<std::thread> threads;
  threads.reserve(4);
  std::vector<size_t> got(4);
  for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { got[t] = TheScanner()->Scan(text, "tenant-key").size(); });
  for (auto& th : threads) th.join();
  for (size_t g : got) EXPECT_EQ(g, expected);
}

TEST(Scanner, APrivateKeyFindingSpansTheWholeBlockEvenWithRunsOfOneCharacter) {
  const std::string key =
      "-----BEGIN OPENSSH PRIVATE KEY-----\n"
      "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
      "QyNTUxOQAAACBf3l4Xq0bYz9y8gq3kV2mXb1n0N5r7u9w2aZ3c4d5e6AAAAJgAAAAAAAAA\n"
      "-----END OPENSSH PRIVATE KEY-----";
  const std::string text = "id_ed25519:\n" + key + "\ntrailing";
  const auto findings = ScanText(text);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].detector, "private_key");
  EXPECT_EQ(findings[0].sub_type, "openssh_private_key");
  EXPECT_EQ(findings[0].offset, text.find("-----BEGIN"));
  EXPECT_EQ(findings[0].length, key.size());
}

TEST(Scanner, AnAssignedSecretIsFingerprintedByItsValueAlone) {
  // The same value under two key names is one finding seen twice.
  const auto findings = ScanText("password=Hx72kq9PzLm4\nsecret: \"Hx72kq9PzLm4\"\n");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].detector, "generic_secret_assignment");
  EXPECT_EQ(findings[0].count, 2);
  EXPECT_EQ(findings[0].offset, 9u);
  EXPECT_EQ(findings[0].length, 12u);
}

TEST(Scanner, OnePasswordOnTwoDatabaseHostsIsTwoFindings) {
  const auto findings =
      ScanText("a=postgres://app:Zx9kLm2Qw@db1.acme.io/app b=postgres://app:Zx9kLm2Qw@db2.acme.io/app");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].sub_type, "postgresql_url");
  EXPECT_NE(findings[0].fingerprint, findings[1].fingerprint);
}

TEST(Scanner, DocumentedExampleKeysDoNotMatch) {
  EXPECT_TRUE(ScanText("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE").empty());
  EXPECT_TRUE(ScanText("aws_access_key_id = AKIAI44QH8DHBEXAMPLE").empty());
  EXPECT_TRUE(ScanText("mail jane@example.com").empty());
}

TEST(Scanner, TruncatedAndGluedFragmentsScanSafely) {
  // Every prefix of every format, alone and glued to the next, so each
  // validator meets the end of the text at every point (run under
  // -DCREDENCE_SANITIZE=address,undefined).
  testing::SecretGenerator gen(3);
  std::vector<std::string> values;
  for (auto& [d, v] : gen.OneOfEach()) values.push_back(v);
  for (const char* v :
       {"4111 1111 1111 1111", "DE89 3704 0044 0532 0130 00", "a.b@acme-corp.de", "postgres://u:Zx9kLm2Qw@db.acme.io",
        "password = \"Xk9#mP2$vL7q\"", "mailto:x@y.io", "+44 (0)20 7946 0018", "Tel: 030/1234567", "(212) 555-0100",
        "1-800-555-0199", "00 49 89 1234567", "\xE9\x9B\xBB\xE8\xA9\xB1: 03-1234-5678"})
    values.emplace_back(v);
  size_t scanned = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string& v = values[i];
    for (size_t n = 0; n <= v.size(); ++n) {
      const std::string prefix = v.substr(0, n);
      EXPECT_NO_THROW(ScanText(prefix));
      EXPECT_NO_THROW(ScanText(prefix + values[(i + 1) % values.size()]));
      EXPECT_NO_THROW(ScanText(v.substr(n)));
      scanned += 3;
    }
  }
  EXPECT_GT(scanned, 1000u);
}

// The findings of `a` that `b` lacks, with the text around each.
std::string Missing(const std::vector<Finding>& a, const std::vector<Finding>& b, std::string_view text) {
  std::ostringstream out;
  for (const auto& f : a)
    if (std::find(b.begin(), b.end(), f) == b.end())
      out << "  " << f.detector << " at " << f.offset << " x" << f.count << ": \""
          << text.substr(f.offset > 20 ? f.offset - 20 : 0, f.length + 40) << "\"\n";
  return out.str();
}

// The scanner asks Hyperscan only for ends of match, reads each start back
// by hand, and leaves the digit-led rules (cards, IBANs, NANP numbers) to a
// pass of its own. Both must find exactly what the rules' patterns define:
// the same starts as Hyperscan's own leftmost start of match, and the same
// findings as a scan with every pattern in Hyperscan (detail::ReferenceScan).
void ExpectTheRulesAsDefined(const std::string& text) {
  for (const auto& disagreement : detail::StartsDisagreeingWithHyperscan(text))
    ADD_FAILURE() << disagreement << " in \"" << text.substr(0, 300) << "\"";
  const auto scanned = ScanText(text);
  const auto reference = detail::ReferenceScan(text, "tenant-key");
  if (scanned != reference)
    ADD_FAILURE() << "only the scanner found:\n"
                  << Missing(scanned, reference, text) << "only the reference scan found:\n"
                  << Missing(reference, scanned, text);
}

TEST(Scanner, FindsExactlyWhatItsRulesDefine) {
  std::string text;
  for (const auto& sample : CorpusFile()) text += sample.text + "\n";
  for (const auto& sample : GeneratedSamples()) text += sample.text + "\n";
  ExpectTheRulesAsDefined(text);
  EXPECT_GT(ScanText(text).size(), 100u);
}

TEST(Scanner, FindsExactlyWhatItsRulesDefineInRandomMixtures) {
  // Fragments where a backward reading could go wrong (keywords that end
  // other keywords, schemes that prefix others, separators, quotes) and
  // digit groups that make cards, IBANs and phone numbers or almost do.
  // clang-format off
  static constexpr std::string_view kFragments[] = {
      "password", "PassWord", "passwd", "pwd", "my", "client_secret", "clientsecret", "client-", "secret", "auth",
      "_token", "token", "api-key", "apikey", "access_key", "\"", "'", " ", "\t", ":", "=", "==", ":=", "x", "Zx9kLm2Qw",
      "postgres", "postgresql", "ql", "mongodb+srv", "rediss", "redis", "amqps", "://", "/", "u", "@", "db.acme.io",
      "a.b", "-", ".", "co", "4111", "1111", "4111 1111 1111 1111", "5500-0000-0000-0004", "0", "00", " 49", "+",
      "+49", "(212)", "(212) ", "555-0100", "555.0100", "212-", "1-800-555-0199", "DE89", "DE89 ", "3704", "0044",
      "DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "2026-11-25", "7", "12", "telephone", "phone",
      "cellphone", "tel", "mob", "mobil", "mobile", "call", "Tel. 030 2", "sk-", "sk-proj-", "proj-",
      "abcdefghijKLMNOPQRST1234", "xoxb-", "123456", "-A", "-----BEGIN ", "RSA ", "PRIVATE KEY-----",
      "PRIVATE KEY BLOCK-----", "eyJhbGciOi", "\n", "\xE9\x9B\xBB\xE8\xA9\xB1", "t\xC3\xA9l\xC3\xA9phone",
      "t\xC3\xA9l", "Tel", "fax:", "; ", "#"};
  // clang-format on
  testing::SecretGenerator gen(7);
  size_t checked = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string mixture;
    const size_t pieces = 2 + gen.Pick(14);
    for (size_t i = 0; i < pieces; ++i) mixture += kFragments[gen.Pick(std::size(kFragments))];
    ExpectTheRulesAsDefined(mixture);
    checked += mixture.size();
    if (HasFailure()) break;
  }
  EXPECT_GT(checked, 50000u);
}

TEST(ScannerPhone, OneNumberInAnyFormatIsOneFindingFingerprintedByItsE164Form) {
  const std::string text =
      "+49 30 1234567, +49301234567, Tel. 030 1234567, 0049 30 1234567 and <a href=\"tel:+49-30-1234567\">";
  const auto findings = ScanText(text);
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.detector, "phone_number");
  EXPECT_EQ(f.kind, Kind::kPersonalData);
  EXPECT_EQ(f.sub_type, "fixed_line");
  EXPECT_EQ(f.offset, 0u);
  EXPECT_EQ(f.length, std::string_view("+49 30 1234567").size());
  EXPECT_EQ(f.count, 5);
  // The fingerprint is that of the E.164 form, whatever the text's format.
  const auto compact = ScanText("+49301234567");
  ASSERT_EQ(compact.size(), 1u);
  EXPECT_EQ(compact[0].fingerprint, f.fingerprint);
  // Another number, or another tenant, is another fingerprint.
  EXPECT_NE(ScanText("+49 30 1234568")[0].fingerprint, f.fingerprint);
  EXPECT_NE(ScanText("+49 30 1234567", "tenant-b")[0].fingerprint, f.fingerprint);
}

TEST(ScannerPhone, The00InternationalPrefixIsTheSameNumberAsPlus) {
  const std::string text = "Ring 00 44 20 7946 0018 or 0044 20 7946 0018 from abroad.";
  const auto findings = ScanText(text);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].detector, "phone_number");
  EXPECT_EQ(findings[0].offset, 5u);
  EXPECT_EQ(findings[0].length, std::string_view("00 44 20 7946 0018").size());
  EXPECT_EQ(findings[0].count, 2);
  EXPECT_EQ(findings[0].fingerprint, ScanText("+44 20 7946 0018")[0].fingerprint);
  // Not inside a longer number, and not "000" (no country code starts with 0).
  EXPECT_TRUE(ScanText("id 1000442079460018 in the log").empty());
  EXPECT_TRUE(ScanText("value 000 44 20 7946").empty());
}

TEST(ScannerPhone, ACardNumberIsACardAndNotAlsoAPhone) {
  for (const char* text : {"Phone: 4111 1111 1111 1111", "call 378282246310005 back", "tel 3782 822463 10005",
                           "mobile 5105-1051-0510-5100", "+4111111111111111"}) {
    const auto findings = ScanText(text);
    ASSERT_EQ(findings.size(), 1u) << text;
    EXPECT_EQ(findings[0].detector, "payment_card") << text;
  }
}

TEST(ScannerPhone, SubTypesComeFromTheNumberType) {
  const std::map<std::string, std::string> expected{{"+49 151 23456789", "mobile"},
                                                    {"1-800-555-0199", "toll_free"},
                                                    {"+44 20 7946 0018", "fixed_line"},
                                                    {"(212) 555-0100", "fixed_line_or_mobile"}};
  for (const auto& [text, sub_type] : expected) {
    const auto findings = ScanText(text);
    ASSERT_EQ(findings.size(), 1u) << text;
    EXPECT_EQ(findings[0].sub_type, sub_type) << text;
    EXPECT_EQ(findings[0].length, text.size()) << text;
  }
}

TEST(ScannerPhone, NationalNumbersNeedAKeywordOrTheNanpShapeAndMustBeValid) {
  EXPECT_TRUE(ScanText("Serial 030 1234567 in stock").empty());
  EXPECT_EQ(ScanText("Tel: 030 1234567").size(), 1u);
  // Written as the country writes it: the German trunk prefix is needed.
  EXPECT_TRUE(ScanText("Tel: 30 1234567").empty());
  // A keyword inside a word is no keyword.
  EXPECT_TRUE(ScanText("hotel 030 1234567").empty());
  // Area code 555 does not exist; libphonenumber says invalid.
  EXPECT_TRUE(ScanText("(555) 123-4567 and 555-123-4567").empty());
  // Dates after a keyword are dates.
  EXPECT_TRUE(ScanText("Call on 2026-11-25 or 25.11.2026").empty());
  // The same digits grouped as France writes them are French; as Japan
  // writes them, Japanese (valid in both).
  EXPECT_EQ(ScanText("Tel: 03 12 34 56 78")[0].fingerprint, ScanText("+33 3 12 34 56 78")[0].fingerprint);
  EXPECT_EQ(ScanText("Tel: 03-1234-5678")[0].fingerprint, ScanText("+81 3-1234-5678")[0].fingerprint);
}

TEST(ScannerPhone, DigitsAfterANumberAreNotPartOfIt) {
  // Germany's plan would accept "030 1234567 24" too; the reading grouped as
  // the number is formatted wins.
  for (const std::string text : {"Tel: 030 1234567 24/7", "+49 30 1234567 2026", "0049 30 1234567 12"}) {
    const auto findings = ScanText(text);
    ASSERT_EQ(findings.size(), 1u) << text;
    EXPECT_EQ(findings[0].fingerprint, ScanText("+49301234567")[0].fingerprint) << text;
    EXPECT_TRUE(text.substr(findings[0].offset, findings[0].length).ends_with(" 1234567")) << text;
  }
}

TEST(ScannerChecks, LuhnIbanAndEntropy) {
  EXPECT_TRUE(detail::Luhn("4111111111111111"));
  EXPECT_FALSE(detail::Luhn("4111111111111112"));
  EXPECT_TRUE(detail::IbanChecksumValid("GB82WEST12345698765432"));
  EXPECT_FALSE(detail::IbanChecksumValid("GB82WEST12345698765433"));
  EXPECT_DOUBLE_EQ(detail::ShannonEntropy("aaaa"), 0.0);
  EXPECT_DOUBLE_EQ(detail::ShannonEntropy("abcd"), 2.0);
  // The same CRC-32 and base62 as identity/token_format (zlib's CRC-32).
  EXPECT_EQ(detail::Crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(detail::Base62Fixed(61, 3), "00z");
}

TEST(ScannerDetectors, EachHasAStableIdKindAndSubType) {
  std::set<std::string_view> ids;
  for (const auto& d : Detectors()) {
    EXPECT_TRUE(ids.insert(d.id).second) << d.id;
    EXPECT_FALSE(d.sub_type.empty());
  }
  EXPECT_EQ(ids.size(), 16u);
}

}  // namespace
}  // namespace credence::scanning
