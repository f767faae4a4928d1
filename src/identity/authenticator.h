#pragma once
// Resolves the credentials of a request to a Principal: development tokens
// (decisions.md 4), tenant API keys, app-bound keys and the access tokens
// issued for them (docs/credentials.md), so every route authenticates
// through one function. The principal of an app key, or of a token issued
// to one, carries the app's id.
// Sign-in session tokens (session_service.h) are users.
// Told apart by shape: "dev-token-", "crd_ss_", "crd_sk_", or three
// dot-separated segments (a JWT). The browser session cookie holds a
// session token and nothing else (http/session_cookie.h).
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
  std::string_view api_key;        // the X-Api-Key header, if any (Authorization wins when both are sent)
  // The browser session cookie's value, if any; read only when neither
  // header is sent, and only a session token is accepted there.
  std::string_view session_cookie;
};

class ApiKeyService;
class SessionService;

class Authenticator {
 public:
  // Without `api_keys`, machine credentials are refused (invalid_token).
  Authenticator(storage::Database& db, bool dev_mode, const ApiKeyService* api_keys = nullptr,
                const SessionService* sessions = nullptr)
      : db_(db), dev_mode_(dev_mode), api_keys_(api_keys), sessions_(sessions) {}

  // nullopt when no credentials were sent; an Unauthenticated error
  // (code invalid_token) when they were sent but are not valid. Thread-safe.
  Result<std::optional<Principal>> Authenticate(const Credentials& credentials) const;

 private:
  Result<Principal> AuthenticateDevToken(std::string_view token) const;

  storage::Database& db_;
  const bool dev_mode_;
  const ApiKeyService* const api_keys_;
  const SessionService* const sessions_;
};

}  // namespace credence::identity
