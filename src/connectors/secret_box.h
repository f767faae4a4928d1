#pragma once
// Connector credentials at rest (docs/connectors.md, "Credentials"):
// AES-256-GCM through OpenSSL EVP, with keys kept outside the database in a
// key file (by default <data-dir>/connector-secrets.key, created 0600 on
// first start; --secrets-key-file). Someone who can read the database but
// not that file cannot read a repository token or a site's password.
//
// The file holds one key a line, "<key id> <base64 key>"; '#' lines are
// comments. The first key seals new secrets; every key opens. A sealed
// secret names its key, so rotation (credence admin rotate-secrets-key)
// puts a new key first, re-seals what is stored, and keeps the old keys
// until --prune removes those nothing uses.
//
// Sealed form: "v1.<key id>.<base64url(nonce 12 | ciphertext | tag 16)>".
// The context (the tenant and connector ids) is authenticated with it, so a
// sealed value copied to another row or tenant does not open.
//
// Thread-safe: Open re-reads the file (under a mutex) when it meets a key id
// it does not hold, so a node sees a key another node's rotation added.
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace credence::connectors {

class SecretBox {
 public:
  // Reads the key file at `path`, or creates one with a fresh key (mode
  // 0600, parent directories as needed) when it does not exist. A file with
  // no valid key is an error naming the file.
  static Result<std::shared_ptr<SecretBox>> LoadOrCreate(const std::string& path);
  // A fresh key in memory only (tests, tools that store no secret).
  static std::shared_ptr<SecretBox> Ephemeral();

  // Puts a new key first in the file at `path` (created when absent); the
  // new key's id. The file is replaced atomically.
  static Result<std::string> AddKey(const std::string& path);
  // Rewrites the file at `path` keeping the first key and the keys `keep`
  // names; the ids removed.
  static Result<std::vector<std::string>> Prune(const std::string& path, const std::vector<std::string>& keep);

  std::string Seal(std::string_view plaintext, std::string_view context) const;
  // The plaintext, or an error when the value is malformed, its key is not
  // in the file, or it was not sealed under this context (tampered, moved).
  Result<std::string> Open(std::string_view sealed, std::string_view context) const;

  std::string current_key_id() const;
  // The key id a sealed value names ("" when malformed).
  static std::string KeyIdOf(std::string_view sealed);

 private:
  struct Key {
    std::string id;
    std::string bytes;  // 32
  };
  SecretBox(std::string path, std::vector<Key> keys) : path_(std::move(path)), keys_(std::move(keys)) {}
  std::string path_;  // empty: in memory only
  mutable std::mutex mu_;
  mutable std::vector<Key> keys_;  // guarded by mu_; never empty, the first seals
};

}  // namespace credence::connectors
