#pragma once
// Test secrets in their real formats, with correct checksums, from a seeded
// generator: shared by the scanner's corpus test and its benchmark. None is
// anyone's real credential.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scanning/scanner.h"

namespace credence::scanning::testing {

class SecretGenerator {
 public:
  explicit SecretGenerator(uint32_t seed) : rng_(seed) {}

  std::string Chars(std::string_view alphabet, size_t n) {
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    std::string out;
    for (size_t i = 0; i < n; ++i) out.push_back(alphabet[pick(rng_)]);
    return out;
  }
  std::string Base62(size_t n) { return Chars(kBase62, n); }
  std::string Base64Url(size_t n) { return Chars(kBase64Url, n); }
  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  static std::string Base64UrlEncode(std::string_view bytes) {
    std::string out;
    uint32_t buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
      buffer = (buffer << 8) | c;
      bits += 8;
      while (bits >= 6) {
        bits -= 6;
        out.push_back(kBase64Url[(buffer >> bits) & 0x3F]);
      }
    }
    if (bits > 0) out.push_back(kBase64Url[(buffer << (6 - bits)) & 0x3F]);
    return out;
  }

  // (detector id, value) pairs, one of each format per call.
  std::vector<std::pair<std::string, std::string>> OneOfEach() {
    std::vector<std::pair<std::string, std::string>> out;
    static constexpr std::string_view kAwsPrefixes[] = {"AKIA", "ASIA"};
    out.emplace_back("aws_access_key", std::string(kAwsPrefixes[Pick(2)]) + Chars(kUpperDigits, 16));
    static constexpr std::string_view kGithub[] = {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"};
    const std::string random = Base62(30);
    out.emplace_back("github_token",
                     std::string(kGithub[Pick(5)]) + random + detail::Base62Fixed(detail::Crc32(random), 6));
    out.emplace_back("github_token", "github_pat_" + Base62(22) + "_" + Base62(59));
    out.emplace_back("gitlab_token", "glpat-" + Base62(20));
    static constexpr std::string_view kSlack[] = {"xoxb-", "xoxp-", "xoxa-", "xoxr-"};
    out.emplace_back("slack_token",
                     std::string(kSlack[Pick(4)]) + Chars(kDigits, 12) + "-" + Chars(kDigits, 13) + "-" + Base62(24));
    out.emplace_back("stripe_key", std::string(Pick(2) == 0 ? "sk_live_" : "rk_live_") + Base62(24 + Pick(76)));
    out.emplace_back("google_api_key", "AIza" + Base64Url(35));
    out.emplace_back("openai_api_key", "sk-" + Base62(20) + "T3BlbkFJ" + Base62(20));
    out.emplace_back("openai_api_key", "sk-proj-" + Base64Url(156));
    const std::string header = Base64UrlEncode(R"({"alg":"HS256","typ":"JWT"})");
    const std::string payload =
        Base64UrlEncode(R"({"sub":"user-)" + Base62(8) + R"(","iat":17325)" + Chars(kDigits, 5) + "}");
    out.emplace_back("jwt", header + "." + payload + "." + Base64Url(43));
    static constexpr std::string_view kPem[] = {"RSA PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY",
                                                "EC PRIVATE KEY"};
    const std::string_view label = kPem[Pick(4)];
    std::string pem = "-----BEGIN " + std::string(label) + "-----\n";
    for (int i = 0; i < 4; ++i) pem += Chars(kBase64, 64) + "\n";
    pem += "-----END " + std::string(label) + "-----";
    out.emplace_back("private_key", pem);
    const std::string crd = Base62(32);
    out.emplace_back("credence_credential", std::string(Pick(2) == 0 ? "crd_sk_" : "crd_ss_") + crd +
                                                detail::Base62Fixed(detail::Crc32(crd), 6));
    return out;
  }

  // Same shapes with a wrong checksum: must not match.
  std::vector<std::string> BadChecksums() {
    const std::string random = Base62(30);
    const std::string crd = Base62(32);
    auto bad = [](std::string s) {
      s.back() = s.back() == 'A' ? 'B' : 'A';
      return s;
    };
    return {bad("ghp_" + random + detail::Base62Fixed(detail::Crc32(random), 6)),
            bad("crd_sk_" + crd + detail::Base62Fixed(detail::Crc32(crd), 6))};
  }

  static constexpr std::string_view kBase62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  static constexpr std::string_view kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  static constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  static constexpr std::string_view kUpperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static constexpr std::string_view kDigits = "0123456789";

 private:
  std::mt19937 rng_;
};

}  // namespace credence::scanning::testing
