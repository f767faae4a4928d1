#pragma once
// The server's chain-signing key: Ed25519 through OpenSSL EVP, kept outside
// the database (a PEM file, by default <data-dir>/chain-signing-key.pem,
// created 0600 on first start; the nodes of a PostgreSQL deployment share
// the file). Someone who can write the database but not read that file
// cannot sign a chain head.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/result.h"

struct evp_pkey_st;

namespace credence::integrity {

inline constexpr char kAlgorithm[] = "Ed25519";

class SigningKey {
 public:
  // Reads the PEM private key at `path`, or creates one there (mode 0600,
  // parent directories as needed) when the file does not exist. A file that
  // is not an Ed25519 private key is an error.
  static Result<SigningKey> LoadOrCreate(const std::string& path);
  // A fresh key in memory (tests, tools).
  static SigningKey Generate();
  static Result<SigningKey> FromPem(std::string_view pem);
  // A key from its raw 32-byte private seed (RFC 8032), as signed-note's
  // private keys carry it: tests against published vectors.
  static Result<SigningKey> FromSeed(std::string_view seed);

  std::string PrivatePem() const;
  // The raw 32-byte public key, base64url without padding.
  const std::string& public_key() const { return public_key_; }
  // The same 32 bytes, raw.
  const std::string& raw_public_key() const { return raw_public_key_; }
  // SubjectPublicKeyInfo PEM, for tools that want one (openssl pkey -pubin).
  std::string PublicPem() const;
  // The first 16 hex digits of SHA-256 of the raw public key.
  const std::string& key_id() const { return key_id_; }
  // The Ed25519 signature of `message`, base64url without padding.
  std::string Sign(std::string_view message) const;
  // The same signature, the raw 64 bytes.
  std::string SignRaw(std::string_view message) const;

 private:
  explicit SigningKey(std::shared_ptr<evp_pkey_st> key);
  std::shared_ptr<evp_pkey_st> key_;
  std::string public_key_;
  std::string raw_public_key_;
  std::string key_id_;
};

// The key id of a raw public key given base64url; "" when it does not decode.
std::string KeyIdOf(std::string_view public_key_b64);
// True when `signature_b64` is a valid Ed25519 signature of `message` by the
// raw public key `public_key_b64` (both base64url, padding optional).
bool VerifySignature(std::string_view public_key_b64, std::string_view message, std::string_view signature_b64);
// The same with the raw 32-byte key and 64-byte signature.
bool VerifyEd25519(std::string_view public_key, std::string_view message, std::string_view signature);

std::string Base64UrlDecodeOr(std::string_view text, bool& ok);

// What a head's signature covers:
// "credence-chain-head:v1\n<chain>\n<tenant>\n<seq>\n<hash>\n<signed_at>", the
// time as RFC 3339 UTC with milliseconds.
std::string HeadMessage(std::string_view chain, std::string_view tenant_id, int64_t seq, std::string_view hash,
                        TimeMs signed_at);
// What a successor key signs when it retires a key:
// "credence-chain-key-retired:v1\n<key id>\n<public key>\n<retired_at>".
std::string RetirementMessage(std::string_view key_id, std::string_view public_key_b64, TimeMs retired_at);

}  // namespace credence::integrity
