#include "core/ids.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>

namespace credence {
namespace {

constexpr char kHex[] = "0123456789abcdef";
constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

constexpr std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kCrcTable = MakeCrcTable();


void AppendHex(std::string& out, const unsigned char* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kHex[data[i] >> 4]);
    out.push_back(kHex[data[i] & 0xf]);
  }
}

// Ids need uniqueness, not secrecy: a per-thread generator seeded from the OS
// avoids a syscall per id.
std::mt19937_64& IdGenerator() {
  thread_local std::mt19937_64 generator([] {
    std::random_device device;
    return (static_cast<uint64_t>(device()) << 32) ^ device();
  }());
  return generator;
}

}  // namespace

std::string NewId() {
  const uint64_t ms = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::system_clock::now().time_since_epoch()).count());
  std::array<unsigned char, 16> b{};
  for (int i = 0; i < 6; ++i) b[i] = static_cast<unsigned char>(ms >> (40 - 8 * i));
  uint64_t r1 = IdGenerator()(), r2 = IdGenerator()();
  std::memcpy(b.data() + 6, &r1, 2);
  std::memcpy(b.data() + 8, &r2, 8);
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x70);  // version 7
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  std::string out;
  out.reserve(36);
  AppendHex(out, b.data(), 4);
  out.push_back('-');
  AppendHex(out, b.data() + 4, 2);
  out.push_back('-');
  AppendHex(out, b.data() + 6, 2);
  out.push_back('-');
  AppendHex(out, b.data() + 8, 2);
  out.push_back('-');
  AppendHex(out, b.data() + 10, 6);
  return out;
}

bool IsUuid(std::string_view t) {
  if (t.size() != 36) return false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

std::string CanonicalUuid(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string SecureRandomBytes(size_t bytes) {
  std::string out(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(bytes)) != 1)
    throw std::runtime_error("RAND_bytes failed");
  return out;
}

std::string Base64UrlEncode(std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((in.size() * 4 + 2) / 3);
  size_t i = 0;
  auto byte = [&](size_t k) { return static_cast<unsigned char>(in[k]); };
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  if (i + 1 == in.size()) {
    const uint32_t v = byte(i) << 16;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
  } else if (i + 2 == in.size()) {
    const uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  // OpenSSL 3 looks the algorithm up on every EVP_Digest call; for the many
  // small inputs here (one per block) that lookup dominates. Fetch once,
  // and reuse one context per thread.
  static EVP_MD* const kSha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (kSha256 == nullptr || ctx == nullptr || EVP_DigestInit_ex2(ctx.get(), kSha256, nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1)
    throw std::runtime_error("SHA-256 failed");
  std::string out;
  out.reserve(static_cast<size_t>(length) * 2);
  AppendHex(out, digest, length);
  return out;
}

uint32_t Crc32(std::string_view data) {
  uint32_t c = 0xFFFFFFFFu;
  for (char ch : data) c = kCrcTable[(c ^ static_cast<unsigned char>(ch)) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::string Base62Fixed(uint32_t value, size_t width) {
  std::string out(width, '0');
  for (size_t i = width; i > 0 && value > 0; --i) {
    out[i - 1] = kBase62[value % 62];
    value /= 62;
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text, bool url_alphabet) {
  if (!url_alphabet) {
    // Padding is accepted only where it belongs: to a multiple of four.
    if (text.size() % 4 == 0)
      while (text.ends_with('=')) text.remove_suffix(1);
    if (text.find('=') != std::string_view::npos) return std::nullopt;
  }
  if (text.size() % 4 == 1) return std::nullopt;
  auto digit = [url_alphabet](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == (url_alphabet ? '-' : '+')) return 62;
    if (c == (url_alphabet ? '_' : '/')) return 63;
    return -1;
  };
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    const int d = digit(c);
    if (d < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFFu));
    }
  }
  // Leftover bits must be zero, so each byte string has one encoding.
  if ((buffer & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace credence
