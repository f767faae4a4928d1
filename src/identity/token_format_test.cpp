#include "identity/token_format.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace credence::identity {
namespace {

bool IsBase62(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

TEST(TokenFormat, Crc32MatchesTheStandardCheckValue) {
  // The check value of CRC-32/ISO-HDLC (zlib's crc32) for "123456789".
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(Crc32(""), 0u);
}

TEST(TokenFormat, Base62FixedIsZeroPaddedAndHoldsAny32BitValue) {
  EXPECT_EQ(Base62Fixed(0, 6), "000000");
  EXPECT_EQ(Base62Fixed(61, 6), "00000z");
  EXPECT_EQ(Base62Fixed(62, 6), "000010");
  // 0xFFFFFFFF = 4 * 62^5 + ... fits in six digits.
  const std::string max = Base62Fixed(0xFFFFFFFFu, 6);
  EXPECT_EQ(max.size(), 6u);
  EXPECT_EQ(max, "4gfFC3");
}

TEST(TokenFormat, SecretHasPrefixRandomPartAndChecksum) {
  const std::string secret = NewSecret();
  ASSERT_EQ(secret.size(), kSecretLength);
  EXPECT_EQ(secret.substr(0, 7), "crd_sk_");
  for (char c : secret.substr(7)) EXPECT_TRUE(IsBase62(c)) << secret;
  EXPECT_EQ(secret.substr(39), Base62Fixed(Crc32(secret.substr(7, 32)), 6));
  EXPECT_TRUE(IsWellFormedSecret(secret));
  EXPECT_EQ(SecretLookupPrefix(secret), secret.substr(0, 15));
}

TEST(TokenFormat, ClientIdHasPrefixAndSixteenBase62Characters) {
  const std::string id = NewClientId();
  ASSERT_EQ(id.size(), kClientIdLength);
  EXPECT_EQ(id.substr(0, 7), "crd_ci_");
  EXPECT_TRUE(IsWellFormedClientId(id));
  EXPECT_FALSE(IsWellFormedClientId(id.substr(1)));
  EXPECT_FALSE(IsWellFormedClientId(id + "a"));
  EXPECT_FALSE(IsWellFormedClientId("crd_sk_" + id.substr(7)));
  EXPECT_FALSE(IsWellFormedClientId(id.substr(0, 22) + "-"));
}

TEST(TokenFormat, EveryOneCharacterChangeOfTheRandomPartFailsTheChecksum) {
  const std::string secret = NewSecret();
  // CRC-32 detects every single-character change; try each position with
  // a few replacement characters.
  for (size_t i = 7; i < secret.size(); ++i) {
    for (char replacement : {'0', 'A', 'z', 'q'}) {
      if (secret[i] == replacement) continue;
      std::string mangled = secret;
      mangled[i] = replacement;
      EXPECT_FALSE(IsWellFormedSecret(mangled)) << "position " << i << ": " << mangled;
    }
  }
}

TEST(TokenFormat, MalformedSecretsAreRefused) {
  const std::string secret = NewSecret();
  EXPECT_FALSE(IsWellFormedSecret(""));
  EXPECT_FALSE(IsWellFormedSecret(secret.substr(0, secret.size() - 1)));  // truncated
  EXPECT_FALSE(IsWellFormedSecret(secret + "0"));                          // too long
  EXPECT_FALSE(IsWellFormedSecret("crd_ci_" + secret.substr(7)));          // other prefix
  EXPECT_FALSE(IsWellFormedSecret("CRD_SK_" + secret.substr(7)));
  std::string swapped = secret;
  std::swap(swapped[10], swapped[11]);
  if (swapped != secret) {
    EXPECT_FALSE(IsWellFormedSecret(swapped));  // transposition
  }
  std::string bad_char = secret;
  bad_char[20] = '-';
  EXPECT_FALSE(IsWellFormedSecret(bad_char));
}

TEST(TokenFormat, SecretsAreUnique) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(seen.insert(NewSecret()).second);
}

TEST(TokenFormat, RandomBase62UsesTheWholeAlphabetEvenly) {
  std::map<char, int> counts;
  const std::string text = RandomBase62(62 * 400);
  ASSERT_EQ(text.size(), 62u * 400u);
  for (char c : text) {
    ASSERT_TRUE(IsBase62(c));
    ++counts[c];
  }
  EXPECT_EQ(counts.size(), 62u);
  // Expected 400 each; a modulo bias (256 % 62 = 8) would push the first
  // eight characters to about 500. Bounds are many standard deviations out.
  for (const auto& [c, n] : counts) {
    EXPECT_GT(n, 300) << c;
    EXPECT_LT(n, 500) << c;
  }
}

TEST(TokenFormat, Base64DecodesBothAlphabets) {
  EXPECT_EQ(Base64Decode("aGVsbG8=", false), std::optional<std::string>("hello"));
  EXPECT_EQ(Base64Decode("aGVsbG8", false), std::optional<std::string>("hello"));
  EXPECT_EQ(Base64Decode("aGVsbG8", true), std::optional<std::string>("hello"));
  EXPECT_EQ(Base64Decode("", false), std::optional<std::string>(""));
  EXPECT_EQ(Base64Decode("-_8", true), std::optional<std::string>("\xfb\xff"));
  EXPECT_EQ(Base64Decode("+/8=", false), std::optional<std::string>("\xfb\xff"));
  EXPECT_FALSE(Base64Decode("+/8", true));     // standard characters in base64url
  EXPECT_FALSE(Base64Decode("-_8=", false));   // url characters in standard base64
  EXPECT_FALSE(Base64Decode("aGVsbG8=", true));  // no padding in base64url
  EXPECT_FALSE(Base64Decode("a", false));        // impossible length
  EXPECT_FALSE(Base64Decode("aGVs bG8=", false));
  EXPECT_FALSE(Base64Decode("aG=sbG8=", false));  // padding in the middle
  EXPECT_FALSE(Base64Decode("aGVsbG9=", false));  // non-zero leftover bits
}

}  // namespace
}  // namespace credence::identity
