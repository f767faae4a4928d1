#pragma once
// A connector's credential (docs/connectors.md, "Credentials"): what a git
// connector fetches with (HTTPS: a username and password or token, or a
// bearer token; SSH: a deploy key) and what a web connector sends to its
// start URL's origin (Basic, Bearer, or a named header). Write-only: the
// API accepts it and answers only its kind and non-secret parts
// (CredentialInfo); it is stored sealed with SecretBox, never logged, never
// in the audit log.
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace credence::connectors {

inline constexpr char kCredentialBasic[] = "basic";
inline constexpr char kCredentialBearer[] = "bearer";
inline constexpr char kCredentialHeader[] = "header";
inline constexpr char kCredentialSshKey[] = "sshKey";

struct Credential {
  std::string kind;         // basic | bearer | header | sshKey
  std::string username;     // basic; sshKey (default "git")
  std::string header_name;  // header
  std::string secret;       // basic: the password or token; bearer: the token; header: the value; sshKey: the key
  std::string passphrase;   // sshKey, when the key is encrypted
};

// What answers show: never the secret.
struct CredentialInfo {
  std::string kind;
  std::string username;     // basic, sshKey
  std::string header_name;  // header
};
CredentialInfo InfoOf(const Credential& c);

// The credential of a `kind` connector whose stored settings are
// `settings_json`, from the request's JSON text; every error named
// credential.<field> (400). git over http(s): basic, bearer; git over ssh:
// sshKey; web: basic, bearer, header; local repositories and push: none.
Result<Credential> ParseCredential(const std::string& json_text, const std::string& connector_kind,
                                   const std::string& settings_json);
// Whether a stored credential still fits settings that changed (a git URL
// moved from https to ssh): the field error when it does not.
std::optional<FieldError> CredentialMismatch(const CredentialInfo& info, const std::string& connector_kind,
                                             const std::string& settings_json);

// What is sealed, and read back.
std::string CredentialToJson(const Credential& c);
Result<Credential> CredentialFromJson(const std::string& json_text);
std::string InfoToJson(const CredentialInfo& info);
CredentialInfo InfoFromJson(const std::string& json_text);

// What a sealed credential is bound to (SecretBox's context): a copy in
// another row or tenant does not open.
std::string CredentialSealContext(const std::string& tenant_id, const std::string& connector_id);

// The header line a web credential sends ("Authorization: Basic ...").
std::string HeaderLineOf(const Credential& c);

// ssh://[user@]host[:port]/path or scp-like [user@]host:path.
bool IsSshUrl(std::string_view url);
// The host of an ssh URL (IPv6 without brackets); "" when it has none.
std::string SshHostOf(std::string_view url);

}  // namespace credence::connectors
