#include "connectors/secret_box.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/ids.h"

namespace credence::connectors {
namespace {

constexpr size_t kKeyBytes = 32;
constexpr size_t kNonceBytes = 12;
constexpr size_t kTagBytes = 16;
constexpr char kHeader[] =
    "# Credence connector secrets keys (docs/connectors.md, \"Credentials\"). One key a line:\n"
    "# <key id> <base64 AES-256 key>. The first seals new secrets; every key opens.\n"
    "# Keep this file with the backups of the database, apart from them.\n";

Error KeyFileError(const std::string& path, const std::string& why) {
  return Error::InvalidArgument("invalid_secrets_key", path + ": " + why);
}

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

struct ParsedKey {
  std::string id, bytes;
};

Result<std::vector<ParsedKey>> ReadKeyFile(const std::string& path, bool& exists) {
  std::ifstream in(path, std::ios::binary);
  exists = static_cast<bool>(in);
  std::vector<ParsedKey> keys;
  if (!in) return keys;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    std::istringstream fields(line);
    std::string id, b64, extra;
    fields >> id >> b64 >> extra;
    auto bytes = Base64Decode(b64, false);
    if (id.empty() || id.size() > 64 || id.find('.') != std::string::npos || !extra.empty() || !bytes ||
        bytes->size() != kKeyBytes)
      return KeyFileError(path, "line " + std::to_string(number) + " is not \"<key id> <base64 32-byte key>\"");
    keys.push_back({id, std::move(*bytes)});
  }
  return keys;
}

std::string Base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

// Written whole to a file of its own, then renamed into place, so a reader
// (another node starting) sees the old file or the new one, never half.
Status WriteKeyFile(const std::string& path, const std::vector<ParsedKey>& keys, bool must_not_exist) {
  namespace fs = std::filesystem;
  const fs::path file(path);
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  std::string text = kHeader;
  for (const auto& k : keys) text += k.id + " " + Base64(k.bytes) + "\n";
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return KeyFileError(path, std::string("cannot create: ") + std::strerror(errno));
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!written) {
    ::unlink(temp.c_str());
    return KeyFileError(path, "cannot write the key file");
  }
  // A first start links (EEXIST when another node was first: its key wins);
  // a rotation renames over the old file.
  const int placed = must_not_exist ? ::link(temp.c_str(), path.c_str()) : ::rename(temp.c_str(), path.c_str());
  const int place_errno = errno;
  if (must_not_exist || placed != 0) ::unlink(temp.c_str());
  if (placed != 0) {
    if (place_errno == EEXIST) return Error::Conflict("secrets_key_exists", path);
    return KeyFileError(path, std::string("cannot create: ") + std::strerror(place_errno));
  }
  if (file.has_parent_path()) {
    const int dir = ::open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }
  return Ok();
}

ParsedKey NewKey() { return {Hex(SecureRandomBytes(8)), SecureRandomBytes(kKeyBytes)}; }

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

}  // namespace

Result<std::shared_ptr<SecretBox>> SecretBox::LoadOrCreate(const std::string& path) {
  bool exists = false;
  auto keys = ReadKeyFile(path, exists);
  if (!keys) return keys.error();
  if (!exists) {
    auto written = WriteKeyFile(path, {NewKey()}, /*must_not_exist=*/true);
    if (!written && written.error().code != "secrets_key_exists") return written.error();
    keys = ReadKeyFile(path, exists);
    if (!keys) return keys.error();
  }
  if (keys->empty()) return KeyFileError(path, "holds no key");
  std::vector<Key> out;
  for (auto& k : *keys) out.push_back({std::move(k.id), std::move(k.bytes)});
  return std::shared_ptr<SecretBox>(new SecretBox(path, std::move(out)));
}

std::shared_ptr<SecretBox> SecretBox::Ephemeral() {
  ParsedKey k = NewKey();
  return std::shared_ptr<SecretBox>(new SecretBox("", {{k.id, k.bytes}}));
}

Result<std::string> SecretBox::AddKey(const std::string& path) {
  bool exists = false;
  auto keys = ReadKeyFile(path, exists);
  if (!keys) return keys.error();
  keys->insert(keys->begin(), NewKey());
  CR_TRY(WriteKeyFile(path, *keys, /*must_not_exist=*/false));
  return keys->front().id;
}

Result<std::vector<std::string>> SecretBox::Prune(const std::string& path, const std::vector<std::string>& keep) {
  bool exists = false;
  auto keys = ReadKeyFile(path, exists);
  if (!keys) return keys.error();
  if (keys->empty()) return KeyFileError(path, "holds no key");
  std::vector<ParsedKey> kept{keys->front()};
  std::vector<std::string> removed;
  for (size_t i = 1; i < keys->size(); ++i) {
    if (std::find(keep.begin(), keep.end(), (*keys)[i].id) != keep.end())
      kept.push_back((*keys)[i]);
    else
      removed.push_back((*keys)[i].id);
  }
  if (!removed.empty()) CR_TRY(WriteKeyFile(path, kept, /*must_not_exist=*/false));
  return removed;
}

std::string SecretBox::current_key_id() const {
  std::lock_guard lock(mu_);
  return keys_.front().id;
}

std::string SecretBox::KeyIdOf(std::string_view sealed) {
  if (!sealed.starts_with("v1.")) return "";
  sealed.remove_prefix(3);
  const size_t dot = sealed.find('.');
  return dot == std::string_view::npos ? "" : std::string(sealed.substr(0, dot));
}

std::string SecretBox::Seal(std::string_view plaintext, std::string_view context) const {
  Key key;
  {
    std::lock_guard lock(mu_);
    key = keys_.front();
  }
  const std::string nonce = SecureRandomBytes(kNonceBytes);
  std::string out(kNonceBytes + plaintext.size() + kTagBytes, '\0');
  std::memcpy(out.data(), nonce.data(), kNonceBytes);
  auto* ct = reinterpret_cast<unsigned char*>(out.data() + kNonceBytes);
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int len = 0, total = 0;
  if (!ctx ||
      EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, reinterpret_cast<const unsigned char*>(key.bytes.data()),
                         reinterpret_cast<const unsigned char*>(nonce.data())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(context.data()),
                        static_cast<int>(context.size())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), ct, &len, reinterpret_cast<const unsigned char*>(plaintext.data()),
                        static_cast<int>(plaintext.size())) != 1)
    throw std::runtime_error("cannot seal a secret");
  total = len;
  if (EVP_EncryptFinal_ex(ctx.get(), ct + total, &len) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes), ct + plaintext.size()) != 1)
    throw std::runtime_error("cannot seal a secret");
  return "v1." + key.id + "." + Base64UrlEncode(out);
}

Result<std::string> SecretBox::Open(std::string_view sealed, std::string_view context) const {
  const std::string id = KeyIdOf(sealed);
  if (id.empty()) return Error::Internal("a stored secret is malformed");
  auto raw = Base64Decode(sealed.substr(3 + id.size() + 1), true);
  if (!raw || raw->size() < kNonceBytes + kTagBytes) return Error::Internal("a stored secret is malformed");
  Key key;
  {
    std::lock_guard lock(mu_);
    auto find = [&] {
      for (const auto& k : keys_)
        if (k.id == id) return true;
      return false;
    };
    if (!find() && !path_.empty()) {
      // Another node's rotation may have added it since this one started.
      bool exists = false;
      if (auto reread = ReadKeyFile(path_, exists); reread && !reread->empty()) {
        // The key this node seals with stays first: only a restart changes it.
        std::vector<Key> fresh{keys_.front()};
        for (auto& k : *reread)
          if (k.id != fresh.front().id) fresh.push_back({std::move(k.id), std::move(k.bytes)});
        keys_ = std::move(fresh);
      }
    }
    for (const auto& k : keys_)
      if (k.id == id) key = k;
  }
  if (key.bytes.empty())
    return Error::Internal("a stored secret was sealed with key " + id +
                           ", which is not in the secrets key file (docs/connectors.md, \"Credentials\")");
  const size_t n = raw->size() - kNonceBytes - kTagBytes;
  std::string out(n, '\0');
  auto* in = reinterpret_cast<unsigned char*>(raw->data());
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int len = 0;
  bool ok = ctx &&
            EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr,
                               reinterpret_cast<const unsigned char*>(key.bytes.data()), in) == 1 &&
            EVP_DecryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(context.data()),
                              static_cast<int>(context.size())) == 1 &&
            EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len, in + kNonceBytes,
                              static_cast<int>(n)) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes), in + kNonceBytes + n) == 1;
  int final_len = 0;
  ok = ok && EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + len, &final_len) == 1;
  if (!ok) return Error::Internal("a stored secret does not open with key " + id + " (altered, or moved)");
  return out;
}

}  // namespace credence::connectors
