#include "connectors/credential.h"

#include <openssl/evp.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <set>

#include "connectors/connector.h"

namespace credence::connectors {
namespace {

namespace json = boost::json;

constexpr size_t kMaxSecret = 4096;

std::string Base64Encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}
constexpr size_t kMaxPrivateKey = 16384;
constexpr size_t kMaxName = 256;

// Printable ASCII and, for values, UTF-8 beyond it; never a control
// character: a secret must not be able to add a header line.
bool NoControl(std::string_view s) {
  return std::none_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
}

bool IsTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool IsHeaderName(std::string_view s) {
  return !s.empty() && s.size() <= 100 && std::all_of(s.begin(), s.end(), IsTokenChar);
}

// Headers the crawler or HTTP itself owns: a credential may not replace them.
bool IsReservedHeader(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::set<std::string> kReserved = {
      "host",         "content-length", "transfer-encoding", "connection", "upgrade",          "te",
      "trailer",      "keep-alive",     "expect",            "accept",     "accept-encoding",  "user-agent",
      "if-none-match", "if-modified-since", "range",         "traceparent", "tracestate"};
  return kReserved.count(name) > 0 || name.rfind("proxy-", 0) == 0;
}

enum class Target { kNone, kGitHttp, kGitSsh, kWeb };

Target TargetOf(const std::string& connector_kind, const std::string& settings_json) {
  if (connector_kind == kKindWeb) return Target::kWeb;
  if (connector_kind != kKindGit) return Target::kNone;
  boost::system::error_code ec;
  const json::value v = json::parse(settings_json, ec);
  const json::value* url = !ec && v.is_object() ? v.as_object().if_contains("url") : nullptr;
  if (url == nullptr || !url->is_string()) return Target::kNone;
  const std::string_view u = url->as_string();
  if (u.starts_with("http://") || u.starts_with("https://")) return Target::kGitHttp;
  if (IsSshUrl(u)) return Target::kGitSsh;
  return Target::kNone;
}

std::string KindsFor(Target t) {
  switch (t) {
    case Target::kGitHttp:
      return "basic or bearer";
    case Target::kGitSsh:
      return "sshKey";
    case Target::kWeb:
      return "basic, bearer or header";
    default:
      return "";
  }
}

bool Fits(Target t, const std::string& kind) {
  switch (t) {
    case Target::kGitHttp:
      return kind == kCredentialBasic || kind == kCredentialBearer;
    case Target::kGitSsh:
      return kind == kCredentialSshKey;
    case Target::kWeb:
      return kind == kCredentialBasic || kind == kCredentialBearer || kind == kCredentialHeader;
    default:
      return false;
  }
}

std::string NoneMessage(const std::string& connector_kind) {
  return connector_kind == kKindGit ? "a local repository takes no credential"
                                    : "a " + connector_kind + " connector takes no credential";
}

}  // namespace

CredentialInfo InfoOf(const Credential& c) { return {c.kind, c.username, c.header_name}; }

Result<Credential> ParseCredential(const std::string& json_text, const std::string& connector_kind,
                                   const std::string& settings_json) {
  boost::system::error_code ec;
  const json::value v = json::parse(json_text, ec);
  if (ec || !v.is_object()) return Error::Validation({{"credential", "must be an object, or null to remove it"}});
  const json::object& o = v.as_object();
  const Target target = TargetOf(connector_kind, settings_json);
  if (target == Target::kNone) return Error::Validation({{"credential", NoneMessage(connector_kind)}});

  std::vector<FieldError> errors;
  std::set<std::string> seen{"kind"};
  auto str = [&](const char* name, bool required, size_t max) -> std::optional<std::string> {
    seen.insert(name);
    const json::value* f = o.if_contains(name);
    if (f == nullptr || f->is_null()) {
      if (required) errors.push_back({std::string("credential.") + name, "is required"});
      return std::nullopt;
    }
    if (!f->is_string() || f->as_string().empty() || f->as_string().size() > max || !NoControl(f->as_string())) {
      errors.push_back({std::string("credential.") + name,
                        "must be a string of 1 to " + std::to_string(max) + " characters, without control characters"});
      return std::nullopt;
    }
    return std::string(f->as_string());
  };

  Credential c;
  const json::value* kind = o.if_contains("kind");
  if (kind == nullptr || !kind->is_string() || !Fits(target, std::string(kind->as_string())))
    return Error::Validation({{"credential.kind", "must be " + KindsFor(target) + " for this connector"}});
  c.kind = std::string(kind->as_string());
  if (c.kind == kCredentialBasic) {
    if (auto u = str("username", true, kMaxName)) {
      if (u->find(':') != std::string::npos)
        errors.push_back({"credential.username", "must not contain ':' (RFC 7617)"});
      c.username = *u;
    }
    if (auto p = str("password", true, kMaxSecret)) c.secret = *p;
  } else if (c.kind == kCredentialBearer) {
    if (auto t = str("token", true, kMaxSecret)) {
      if (t->find(' ') != std::string::npos) errors.push_back({"credential.token", "must not contain spaces"});
      c.secret = *t;
    }
  } else if (c.kind == kCredentialHeader) {
    if (auto n = str("name", true, 100)) {
      if (!IsHeaderName(*n))
        errors.push_back({"credential.name", "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)"});
      else if (IsReservedHeader(*n))
        errors.push_back({"credential.name", "is a header the crawler or HTTP itself sets"});
      c.header_name = *n;
    }
    if (auto value = str("value", true, kMaxSecret)) c.secret = *value;
  } else {  // sshKey
    c.username = str("username", false, kMaxName).value_or("git");
    seen.insert("privateKey");
    const json::value* key = o.if_contains("privateKey");
    if (key == nullptr || !key->is_string() || key->as_string().size() > kMaxPrivateKey ||
        !std::string_view(key->as_string()).starts_with("-----BEGIN ") ||
        std::string_view(key->as_string()).find("PRIVATE KEY-----") == std::string_view::npos)
      errors.push_back({"credential.privateKey", "must be a PEM or OpenSSH private key (-----BEGIN ... PRIVATE "
                                                 "KEY-----), at most " + std::to_string(kMaxPrivateKey) + " bytes"});
    else
      c.secret = std::string(key->as_string());
    if (auto p = str("passphrase", false, kMaxSecret)) c.passphrase = *p;
  }
  for (const auto& [k, _] : o)
    if (!seen.count(std::string(k)))
      errors.push_back({"credential." + std::string(k), "is not a field of a " + c.kind + " credential"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return c;
}

std::optional<FieldError> CredentialMismatch(const CredentialInfo& info, const std::string& connector_kind,
                                             const std::string& settings_json) {
  const Target target = TargetOf(connector_kind, settings_json);
  if (target == Target::kNone)
    return FieldError{"credential", NoneMessage(connector_kind) + ": send \"credential\": null to remove the one set"};
  if (!Fits(target, info.kind))
    return FieldError{"credential", "the credential set is " + info.kind + "; this URL needs " + KindsFor(target) +
                                        ": send a new one, or null"};
  return std::nullopt;
}

std::string CredentialToJson(const Credential& c) {
  return json::serialize(json::object{{"kind", c.kind},
                                      {"username", c.username},
                                      {"headerName", c.header_name},
                                      {"secret", c.secret},
                                      {"passphrase", c.passphrase}});
}

Result<Credential> CredentialFromJson(const std::string& json_text) {
  boost::system::error_code ec;
  const json::value v = json::parse(json_text, ec);
  if (ec || !v.is_object()) return Error::Internal("a stored credential is malformed");
  const auto& o = v.as_object();
  auto get = [&o](const char* k) {
    const json::value* f = o.if_contains(k);
    return f != nullptr && f->is_string() ? std::string(f->as_string()) : std::string();
  };
  return Credential{get("kind"), get("username"), get("headerName"), get("secret"), get("passphrase")};
}

std::string InfoToJson(const CredentialInfo& info) {
  return json::serialize(json::object{{"kind", info.kind}, {"username", info.username}, {"headerName", info.header_name}});
}

CredentialInfo InfoFromJson(const std::string& json_text) {
  boost::system::error_code ec;
  const json::value v = json::parse(json_text, ec);
  CredentialInfo info;
  if (ec || !v.is_object()) return info;
  const auto& o = v.as_object();
  auto get = [&o](const char* k) {
    const json::value* f = o.if_contains(k);
    return f != nullptr && f->is_string() ? std::string(f->as_string()) : std::string();
  };
  return {get("kind"), get("username"), get("headerName")};
}

std::string CredentialSealContext(const std::string& tenant_id, const std::string& connector_id) {
  return "connector-credential:v1:" + tenant_id + ":" + connector_id;
}

std::string HeaderLineOf(const Credential& c) {
  if (c.kind == kCredentialBasic) return "Authorization: Basic " + Base64Encode(c.username + ":" + c.secret);
  if (c.kind == kCredentialBearer) return "Authorization: Bearer " + c.secret;
  return c.header_name + ": " + c.secret;
}

bool IsSshUrl(std::string_view url) {
  if (url.starts_with("ssh://")) return url.size() > 6;
  if (url.empty() || url.front() == '/' || url.find("://") != std::string_view::npos) return false;
  // scp-like: [user@]host:path, the colon before any slash.
  const size_t colon = url.find(':');
  const size_t slash = url.find('/');
  return colon != std::string_view::npos && colon > 0 && (slash == std::string_view::npos || colon < slash) &&
         colon + 1 < url.size();
}

std::string SshHostOf(std::string_view url) {
  std::string_view rest;
  if (url.starts_with("ssh://")) {
    rest = url.substr(6);
    rest = rest.substr(0, rest.find('/'));
  } else {
    if (!IsSshUrl(url)) return "";
    rest = url.substr(0, url.find(':'));
  }
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  if (rest.starts_with("[")) {
    const size_t close = rest.find(']');
    return close == std::string_view::npos ? "" : std::string(rest.substr(1, close - 1));
  }
  if (url.starts_with("ssh://")) rest = rest.substr(0, rest.find(':'));
  return std::string(rest);
}

}  // namespace credence::connectors
