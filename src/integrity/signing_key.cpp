#include "integrity/signing_key.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/ids.h"

namespace credence::integrity {
namespace {

using KeyPtr = std::shared_ptr<EVP_PKEY>;

KeyPtr Own(EVP_PKEY* key) { return KeyPtr(key, EVP_PKEY_free); }

std::string RawPublic(EVP_PKEY* key) {
  unsigned char raw[64];
  size_t len = sizeof raw;
  if (EVP_PKEY_get_raw_public_key(key, raw, &len) != 1) throw std::runtime_error("cannot read the public key");
  return std::string(reinterpret_cast<const char*>(raw), len);
}

int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-' || c == '+') return 62;
  if (c == '_' || c == '/') return 63;
  return -1;
}

}  // namespace

std::string Base64UrlDecodeOr(std::string_view text, bool& ok) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  ok = text.size() % 4 != 1;
  for (char c : text) {
    const int v = Sextet(c);
    if (v < 0) {
      ok = false;
      return {};
    }
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

SigningKey::SigningKey(std::shared_ptr<evp_pkey_st> key) : key_(std::move(key)) {
  raw_public_key_ = RawPublic(key_.get());
  public_key_ = Base64UrlEncode(raw_public_key_);
  key_id_ = Sha256Hex(raw_public_key_).substr(0, 16);
}

Result<SigningKey> SigningKey::FromSeed(std::string_view seed) {
  if (seed.size() != 32) return Error::InvalidArgument("invalid_chain_key", "An Ed25519 seed is 32 bytes.");
  EVP_PKEY* key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr,
                                               reinterpret_cast<const unsigned char*>(seed.data()), seed.size());
  if (key == nullptr) return Error::InvalidArgument("invalid_chain_key", "The seed is not an Ed25519 private key.");
  return SigningKey(Own(key));
}

SigningKey SigningKey::Generate() {
  EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (key == nullptr) throw std::runtime_error("cannot generate an Ed25519 key");
  return SigningKey(Own(key));
}

Result<SigningKey> SigningKey::FromPem(std::string_view pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
  if (key == nullptr) return Error::InvalidArgument("invalid_chain_key", "The chain-signing key is not a PEM private key.");
  auto owned = Own(key);
  if (EVP_PKEY_get_id(key) != EVP_PKEY_ED25519)
    return Error::InvalidArgument("invalid_chain_key", "The chain-signing key is not an Ed25519 key.");
  return SigningKey(owned);
}

std::string SigningKey::PrivatePem() const {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    throw std::runtime_error("cannot write the chain-signing key");
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(len));
}

std::string SigningKey::PublicPem() const {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), key_.get()) != 1) throw std::runtime_error("cannot write a public key");
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(len));
}

Result<SigningKey> SigningKey::LoadOrCreate(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::stringstream pem;
    pem << in.rdbuf();
    auto key = FromPem(pem.str());
    if (!key) return Error::InvalidArgument("invalid_chain_key", path + ": " + key.error().detail);
    return key;
  }
  const std::filesystem::path file(path);
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  SigningKey key = Generate();
  const std::string pem = key.PrivatePem();
  // Written whole to a file of its own, then linked into place: link() fails
  // with EEXIST if another node got there first, and then the loser reads a
  // complete key (with O_EXCL on the final name it could read the winner's
  // file before its bytes were written).
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Error::InvalidArgument("invalid_chain_key", path + ": cannot create: " + std::strerror(errno));
  const bool written = ::write(fd, pem.data(), pem.size()) == static_cast<ssize_t>(pem.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!written) {
    ::unlink(temp.c_str());
    return Error::InvalidArgument("invalid_chain_key", path + ": cannot write the new key");
  }
  const int linked = ::link(temp.c_str(), path.c_str());
  const int link_errno = errno;
  ::unlink(temp.c_str());
  if (linked != 0) {
    if (link_errno == EEXIST) return LoadOrCreate(path);
    return Error::InvalidArgument("invalid_chain_key", path + ": cannot create: " + std::strerror(link_errno));
  }
  if (file.has_parent_path()) {
    // The new name survives a crash only once its directory is on disk.
    const int dir = ::open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }
  return key;
}

std::string SigningKey::Sign(std::string_view message) const { return Base64UrlEncode(SignRaw(message)); }

std::string SigningKey::SignRaw(std::string_view message) const {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  unsigned char sig[64];
  size_t len = sizeof sig;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key_.get()) != 1 ||
      EVP_DigestSign(ctx.get(), sig, &len, reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1)
    throw std::runtime_error("cannot sign with the chain-signing key");
  return std::string(reinterpret_cast<const char*>(sig), len);
}

std::string KeyIdOf(std::string_view public_key_b64) {
  bool ok = false;
  const std::string raw = Base64UrlDecodeOr(public_key_b64, ok);
  return ok ? Sha256Hex(raw).substr(0, 16) : std::string();
}

bool VerifySignature(std::string_view public_key_b64, std::string_view message, std::string_view signature_b64) {
  bool ok_key = false, ok_sig = false;
  const std::string raw = Base64UrlDecodeOr(public_key_b64, ok_key);
  const std::string sig = Base64UrlDecodeOr(signature_b64, ok_sig);
  return ok_key && ok_sig && VerifyEd25519(raw, message, sig);
}

bool VerifyEd25519(std::string_view raw, std::string_view message, std::string_view sig) {
  if (raw.size() != 32 || sig.size() != 64) return false;
  EVP_PKEY* key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                              reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
  if (key == nullptr) return false;
  auto owned = Own(key);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  return ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key) == 1 &&
         EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                          reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
}

std::string HeadMessage(std::string_view chain, std::string_view tenant_id, int64_t seq, std::string_view hash,
                        TimeMs signed_at) {
  std::string out = "credence-chain-head:v1\n";
  out.append(chain).append("\n").append(tenant_id).append("\n").append(std::to_string(seq)).append("\n");
  out.append(hash).append("\n").append(FormatTimestamp(signed_at));
  return out;
}

std::string RetirementMessage(std::string_view key_id, std::string_view public_key_b64, TimeMs retired_at) {
  std::string out = "credence-chain-key-retired:v1\n";
  out.append(key_id).append("\n").append(public_key_b64).append("\n").append(FormatTimestamp(retired_at));
  return out;
}

}  // namespace credence::integrity
