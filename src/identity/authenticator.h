#pragma once
// Resolves the credentials of a request to a Principal. Today: development
// tokens (decisions.md 4). Machine keys and signed access tokens join here,
// so every route authenticates through one function.
#include <optional>
#include <string_view>

#include "core/result.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::identity {

struct Credentials {
  std::string_view authorization;  // the Authorization header, if any
  std::string_view api_key;        // the X-Api-Key header, if any
};

class Authenticator {
 public:
  Authenticator(storage::Database& db, bool dev_mode) : db_(db), dev_mode_(dev_mode) {}

  // nullopt when no credentials were sent; an Unauthenticated error
  // (code invalid_token) when they were sent but are not valid. Thread-safe.
  Result<std::optional<Principal>> Authenticate(const Credentials& credentials) const;

 private:
  Result<Principal> AuthenticateDevToken(std::string_view token) const;

  storage::Database& db_;
  const bool dev_mode_;
};

}  // namespace credence::identity
