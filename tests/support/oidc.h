#pragma once
// Sign-in tests against a real OpenID Connect provider: tests/oidc/provider.mjs
// (the oidc-provider npm package; scripts/test runs `npm ci` there) run as a
// child process, and a scripted Browser (support/browser.h) that signs in
// through its login and consent pages.
//
// How a Credence sign-in test uses it (server side of issue 12):
//
//   // A Credence server of its own, with a provider "test" whose ID tokens
//   // are RS256 and a provider "test-es" (same provider process, another
//   // client) whose ID tokens are ES256:
//   OidcEnvironment env({{.name = "test", .client = {.id = "credence-rs", .secret = "rs-secret"}},
//                        {.name = "test-es", .client = {.id = "credence-es", .secret = "es-secret",
//                                                       .id_token_alg = "ES256"}}});
//   Browser browser;  // one browser per person: the provider remembers who signed in
//   SignInResult r = SignInThroughProvider(browser, env.server().base_url(), "test", "ada@example.com");
//   ASSERT_EQ(r.callback.status(), 200) << browser.Trace();
//   std::string token = Str(r.callback.response.Json(), "token");
//
//   // Negative tests stop at the callback URL and tamper with it:
//   Hop login = StartSignIn(browser, env.server().base_url(), "test");
//   ProviderRedirect back = AuthorizeAtProvider(browser, login.location, "ada@example.com",
//                                               env.callback_url());
//   browser.DropCookie("credence_oidc");                        // missing cookie
//   Hop r1 = CompleteSignIn(browser, WithQueryParam(back.url, "state", "forged"));  // state mismatch
//   Hop r2 = CompleteSignIn(browser, back.url);                 // ... and a reused code after a success
//   env.idp().Restart(KeyRotation::kNewKeysSameKids);           // a signature Credence's cached key rejects
//
// A second issuer: start another OidcProvider, choose the port with FreePort()
// first and pass OidcConfigJson(...) as ServerOptions::oidc_config with
// ServerOptions::port. An expired ID token: move Credence's test clock
// (PUT /dev/clock) past its exp.
//
// Logins: any name signs in; email = the login; email_verified is false when
// the login starts with "unverified"; sub is stable per login (see provider.mjs).
// The provider adds `iss` to the redirect (RFC 9207) beside `code` and `state`.
#include <boost/json/object.hpp>

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/browser.h"
#include "support/http_client.h"
#include "support/server_process.h"

namespace credence::test {

// A client registered at the test provider.
struct OidcClient {
  std::string id;
  std::string secret;
  std::string id_token_alg = "RS256";                       // or "ES256"
  std::string auth_method = "client_secret_basic";          // or "client_secret_post"
  std::vector<std::string> redirect_uris;                   // exact URIs the provider accepts
};

enum class KeyRotation {
  kSameKeys,          // the keys it had (a plain restart)
  kNewKeys,           // fresh keys with new key ids (a rotation: an unknown kid)
  kNewKeysSameKids,   // fresh keys under the old key ids (a cached key no longer verifies)
};

// tests/oidc/provider.mjs as a child process on 127.0.0.1. It exits when
// this object is destroyed, and with the test process (its stdin is a pipe
// from here, and it has PR_SET_PDEATHSIG).
class OidcProvider {
 public:
  // port 0: a free port.
  explicit OidcProvider(std::vector<OidcClient> clients, int port = 0);
  ~OidcProvider();
  OidcProvider(const OidcProvider&) = delete;
  OidcProvider& operator=(const OidcProvider&) = delete;

  const std::string& issuer() const { return issuer_; }  // "http://127.0.0.1:PORT"
  int port() const { return port_; }
  const std::vector<OidcClient>& clients() const { return clients_; }
  const OidcClient& client(const std::string& id) const;

  void Stop();
  // Starts it again on the same port (after Stop, or stopping it first).
  void Restart(KeyRotation keys = KeyRotation::kSameKeys);
  bool running() const { return pid_ > 0; }

  // GET .well-known/openid-configuration and jwks_uri.
  boost::json::object Discovery() const;
  boost::json::object Jwks() const;
  // Its stderr (quiet unless CREDENCE_TEST_OIDC_VERBOSE is set).
  std::string ReadLog() const;

 private:
  void Start(const std::vector<std::string>& key_args);
  std::vector<OidcClient> clients_;
  std::string dir_;
  std::string issuer_;
  int port_ = 0;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
};

// --- Credence with real sign-in ---------------------------------------------

// One entry of Credence's --oidc-config file.
struct CredenceOidcProviderEntry {
  std::string name;  // /auth/login/{name}
  OidcClient client;  // registered at the test provider; its redirect URI is Credence's callback
  std::vector<std::string> scopes;           // empty: left out (Credence's default)
  std::vector<std::string> allowed_domains;  // empty: left out
  std::string issuer;                        // empty: the test provider's issuer
};

// The --oidc-config JSON (decisions.md section 10) for these entries.
std::string OidcConfigJson(const std::vector<CredenceOidcProviderEntry>& entries, const std::string& issuer);
// "http://127.0.0.1:PORT/auth/callback": the redirect URI of a Credence server on PORT.
std::string CredenceCallbackUrl(int port);

// A test provider and a Credence server of its own that signs in through it:
// picks the server's port first, registers each entry's client with the
// redirect URI <server>/auth/callback, writes the --oidc-config file into
// the server's temporary directory and starts the server with it and with
// --public-url = its base URL. `server_options` defaults to the shared
// server's options (development mode, test clock); set dev = false for a
// production-mode server.
class OidcEnvironment {
 public:
  explicit OidcEnvironment(std::vector<CredenceOidcProviderEntry> entries,
                           std::optional<ServerOptions> server_options = std::nullopt);
  OidcProvider& idp() { return *idp_; }
  ServerProcess& server() { return *server_; }
  std::string callback_url() const { return CredenceCallbackUrl(server_->port()); }
  const std::vector<CredenceOidcProviderEntry>& entries() const { return entries_; }

 private:
  std::vector<CredenceOidcProviderEntry> entries_;
  std::unique_ptr<OidcProvider> idp_;
  std::unique_ptr<ServerProcess> server_;
};

// --- The browser's side of a sign-in ------------------------------------------

// Where the provider sent the browser back (not requested yet).
struct ProviderRedirect {
  std::string url;                    // e.g. <credence>/auth/callback?code=..&state=..&iss=..
  std::optional<std::string> code;    // its query parameters
  std::optional<std::string> state;
  std::optional<std::string> error;   // when the provider refused (e.g. access_denied)
  std::vector<Hop> hops;              // the hops at the provider
};

// Step 1: GET <credence>/auth/login/<provider>. Expect a 302 whose location
// is the provider's authorization URL and a Set-Cookie credence_oidc.
Hop StartSignIn(Browser& browser, const std::string& credence_base_url, const std::string& provider_name);
// Step 2: at the provider, from `authorization_url`: fills the login form
// with `login` (when the provider asks; a browser that already signed in is
// remembered), submits the consent form (when asked), and follows redirects
// until the browser is sent to a URL starting with `redirect_prefix`, which
// is returned without being requested. Throws (with the browser's trace) on
// anything else, e.g. an error page at the provider.
ProviderRedirect AuthorizeAtProvider(Browser& browser, const std::string& authorization_url, const std::string& login,
                                     const std::string& redirect_prefix);
// Step 3: GET the callback URL (Credence answers 200 {user, token} or a problem).
Hop CompleteSignIn(Browser& browser, const std::string& callback_url);

struct SignInResult {
  Hop login;                  // step 1
  ProviderRedirect provider;  // step 2
  Hop callback;               // step 3
  const std::string& callback_url() const { return provider.url; }
};
// All three steps; the callback URL is <credence_base_url>/auth/callback.
// Throws (with the trace) when step 1 is not a redirect.
SignInResult SignInThroughProvider(Browser& browser, const std::string& credence_base_url,
                                   const std::string& provider_name, const std::string& login);

// --- What a relying party does (Credence's part), for harness tests ----------

struct Pkce {
  std::string verifier;
  std::string challenge;  // S256
};
Pkce NewPkce();

// The provider's authorization URL for a code flow with PKCE S256.
std::string AuthorizationUrl(const OidcProvider& idp, const OidcClient& client, const std::string& redirect_uri,
                             const std::string& state, const std::string& nonce, const std::string& code_challenge,
                             const std::string& scope = "openid email profile");
// POST to the token endpoint with the client's authentication method.
Response ExchangeCode(const OidcProvider& idp, const OidcClient& client, const std::string& code,
                      const std::string& redirect_uri, const std::string& code_verifier);

// A JWS in compact form, decoded (not verified).
struct DecodedJwt {
  boost::json::object header;
  boost::json::object payload;
  std::string signing_input;  // header.payload, as signed
  std::string signature;      // raw bytes
};
DecodedJwt DecodeJwt(const std::string& compact);
std::string Base64UrlDecode(std::string_view text);

}  // namespace credence::test
