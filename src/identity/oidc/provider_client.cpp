#include "identity/oidc/provider_client.h"

#include <curl/curl.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "core/text.h"
#include "telemetry/outbound_call.h"

namespace credence::identity::oidc {
namespace {

namespace json = boost::json;

constexpr long kTimeoutMs = 10'000;
constexpr size_t kMaxBody = 1 << 20;
// An unknown key id fetches the key set again, but not more often than
// this: a stream of forged tokens must not become a stream of fetches.
constexpr int64_t kMinKeyRefreshMs = 10'000;

Error Unavailable(const ProviderConfig& p, const std::string& why) {
  return Error{ErrorKind::kUpstreamFailed, "provider_unavailable",
               "The sign-in provider '" + p.name + "' could not be used: " + why, {}, {}};
}

std::string Str(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

size_t Collect(char* data, size_t size, size_t n, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() + size * n > kMaxBody) return 0;  // aborts the transfer
  body->append(data, size * n);
  return size * n;
}

int64_t SteadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Result<json::object> FetchJson(const ProviderConfig& p, const FetchRequest& request, const char* what) {
  FetchResponse r = Fetch(request);
  if (r.status == 0) return Unavailable(p, std::string(what) + ": " + r.error);
  boost::system::error_code ec;
  json::value v = json::parse(r.body, ec);
  if (ec || !v.is_object())
    return Unavailable(p, std::string(what) + " answered " + std::to_string(r.status) + " without a JSON object");
  json::object o = std::move(v.as_object());
  if (r.status != 200) o["__status"] = r.status;
  return o;
}

}  // namespace

FetchResponse Fetch(const FetchRequest& request) {
  FetchResponse out;
  telemetry::OutboundCall call("openid provider", request.form_body.empty() ? "GET" : "POST", request.url);
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    out.error = "curl_easy_init failed";
    call.Finish(0, out.error);
    return out;
  }
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, kTimeoutMs);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out.body);
  curl_slist* headers = curl_slist_append(nullptr, "Accept: application/json");
  for (const std::string& h : call.HeaderLines()) headers = curl_slist_append(headers, h.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (!request.form_body.empty()) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.form_body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.form_body.size()));
  }
  if (!request.basic_user.empty()) {
    curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(curl, CURLOPT_USERNAME, request.basic_user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, request.basic_password.c_str());
  }
  const CURLcode rc = curl_easy_perform(curl);
  if (rc == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
  } else {
    out.error = curl_easy_strerror(rc);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  call.Finish(out.status, out.error);
  return out;
}


Result<std::vector<ProviderConfig>> ParseProviderConfig(std::string_view text) {
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);
  auto bad = [](std::string field, std::string message) {
    return Error::InvalidArgument("invalid_oidc_config", field + ": " + message, {{field, message}});
  };
  if (ec) return bad("(file)", "not JSON: " + ec.message());
  const json::value* list = doc.is_object() ? doc.as_object().if_contains("providers") : nullptr;
  if (list == nullptr || !list->is_array()) return bad("providers", "must be an array");
  std::vector<ProviderConfig> out;
  for (size_t i = 0; i < list->as_array().size(); ++i) {
    const json::value& item = list->as_array()[i];
    const std::string at = "providers[" + std::to_string(i) + "]";
    if (!item.is_object()) return bad(at, "must be an object");
    const json::object& o = item.as_object();
    ProviderConfig p;
    p.name = Str(o, "name");
    p.issuer = Str(o, "issuer");
    p.client_id = Str(o, "clientId");
    p.client_secret = Str(o, "clientSecret");
    if (p.name.empty()) return bad(at + ".name", "is required");
    for (char c : p.name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
        return bad(at + ".name", "only letters, digits, '-' and '_'");
    for (const auto& other : out)
      if (other.name == p.name) return bad(at + ".name", "'" + p.name + "' is configured twice");
    if (p.issuer.rfind("https://", 0) != 0 && p.issuer.rfind("http://", 0) != 0)
      return bad(at + ".issuer", "must be an http(s) URL");
    if (p.client_id.empty()) return bad(at + ".clientId", "is required");
    if (p.client_secret.empty()) return bad(at + ".clientSecret", "is required");
    if (const auto* scopes = o.if_contains("scopes")) {
      if (!scopes->is_array()) return bad(at + ".scopes", "must be an array of strings");
      p.scopes.clear();
      for (const auto& s : scopes->as_array()) {
        if (!s.is_string()) return bad(at + ".scopes", "must be an array of strings");
        p.scopes.emplace_back(s.as_string());
      }
      if (std::find(p.scopes.begin(), p.scopes.end(), "openid") == p.scopes.end())
        p.scopes.insert(p.scopes.begin(), "openid");
    }
    if (const auto* domains = o.if_contains("allowedDomains")) {
      if (!domains->is_array()) return bad(at + ".allowedDomains", "must be an array of strings");
      for (const auto& d : domains->as_array()) {
        if (!d.is_string() || d.as_string().empty()) return bad(at + ".allowedDomains", "must be domain names");
        std::string domain(d.as_string());
        for (char& c : domain) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        p.allowed_domains.push_back(std::move(domain));
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

Result<std::vector<ProviderConfig>> LoadProviderConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    return Error::InvalidArgument("invalid_oidc_config", "cannot read " + path, {{"oidc-config", "cannot read"}});
  std::stringstream text;
  text << in.rdbuf();
  return ParseProviderConfig(text.str());
}

Result<ProviderClient::Metadata> ProviderClient::Discover() const {
  {
    std::lock_guard lock(mu_);
    if (metadata_) return *metadata_;
  }
  std::string issuer = config_.issuer;
  while (!issuer.empty() && issuer.back() == '/') issuer.pop_back();
  CR_TRY_ASSIGN(json::object doc,
                FetchJson(config_, {issuer + "/.well-known/openid-configuration", {}, {}, {}}, "discovery"));
  if (doc.contains("__status")) return Unavailable(config_, "discovery answered an error status");
  // OpenID Connect Discovery 4.3: the issuer stated must be the one configured.
  if (Str(doc, "issuer") != config_.issuer)
    return Unavailable(config_, "its discovery document names issuer '" + Str(doc, "issuer") + "', not '" +
                                    config_.issuer + "'");
  Metadata m{Str(doc, "authorization_endpoint"), Str(doc, "token_endpoint"), Str(doc, "jwks_uri"), true};
  if (m.authorization_endpoint.empty() || m.token_endpoint.empty() || m.jwks_uri.empty())
    return Unavailable(config_, "its discovery document lacks an endpoint");
  if (const auto* methods = doc.if_contains("token_endpoint_auth_methods_supported"); methods && methods->is_array()) {
    bool basic = false, post = false;
    for (const auto& v : methods->as_array()) {
      if (v == "client_secret_basic") basic = true;
      if (v == "client_secret_post") post = true;
    }
    m.basic_auth = basic || !post;
  }
  std::lock_guard lock(mu_);
  metadata_ = m;
  return m;
}

Result<std::shared_ptr<const std::vector<PublicJwk>>> ProviderClient::Keys(bool refresh) const {
  {
    std::lock_guard lock(mu_);
    // Only refreshes forced by unknown key ids are spaced out; the first
    // one after an ordinary fetch goes through (a rotation just happened).
    if (keys_ && (!refresh || (last_forced_refresh_at_ != 0 && SteadyMs() - last_forced_refresh_at_ < kMinKeyRefreshMs)))
      return keys_;
  }
  CR_TRY_ASSIGN(Metadata m, Discover());
  FetchResponse r = Fetch({m.jwks_uri, {}, {}, {}});
  if (r.status != 200) return Unavailable(config_, "its key set (" + (r.status == 0 ? r.error : std::to_string(r.status)) + ")");
  std::string error;
  auto keys = std::make_shared<const std::vector<PublicJwk>>(ParseJwks(r.body, &error));
  if (!error.empty()) return Unavailable(config_, error);
  std::lock_guard lock(mu_);
  keys_ = keys;
  if (refresh) last_forced_refresh_at_ = SteadyMs();
  return keys_;
}

Result<std::string> ProviderClient::AuthorizationUrl(const std::string& redirect_uri, const std::string& state,
                                                     const std::string& nonce,
                                                     const std::string& code_challenge) const {
  CR_TRY_ASSIGN(Metadata m, Discover());
  std::string scope;
  for (const auto& s : config_.scopes) scope += (scope.empty() ? "" : " ") + s;
  std::string url = m.authorization_endpoint;
  url += url.find('?') == std::string::npos ? '?' : '&';
  url += "response_type=code&client_id=" + PercentEncode(config_.client_id) +
         "&redirect_uri=" + PercentEncode(redirect_uri) + "&scope=" + PercentEncode(scope) +
         "&state=" + PercentEncode(state) + "&nonce=" + PercentEncode(nonce) +
         "&code_challenge=" + PercentEncode(code_challenge) + "&code_challenge_method=S256";
  return url;
}

Result<IdTokenClaims> ProviderClient::Redeem(const std::string& code, const std::string& code_verifier,
                                             const std::string& redirect_uri, const std::string& nonce,
                                             TimeMs now) const {
  CR_TRY_ASSIGN(Metadata m, Discover());
  FetchRequest request{m.token_endpoint,
                       "grant_type=authorization_code&code=" + PercentEncode(code) +
                           "&redirect_uri=" + PercentEncode(redirect_uri) + "&code_verifier=" + PercentEncode(code_verifier),
                       {},
                       {}};
  if (m.basic_auth) {
    // RFC 6749 2.3.1: the credentials are form-encoded before Basic.
    request.basic_user = PercentEncode(config_.client_id);
    request.basic_password = PercentEncode(config_.client_secret);
  } else {
    request.form_body += "&client_id=" + PercentEncode(config_.client_id) +
                         "&client_secret=" + PercentEncode(config_.client_secret);
  }
  CR_TRY_ASSIGN(json::object answer, FetchJson(config_, request, "the token endpoint"));
  if (answer.contains("__status") || answer.contains("error")) {
    const std::string error = Str(answer, "error");
    if (error == "invalid_grant")
      return Error::InvalidArgument("code_rejected",
                                    "The provider refused the authorization code (already used, expired, or not "
                                    "issued for this sign-in): " + Str(answer, "error_description"));
    return Unavailable(config_, "the token endpoint answered '" + error + "'");
  }
  const std::string id_token = Str(answer, "id_token");
  if (id_token.empty()) return Unavailable(config_, "the token endpoint answered no id_token");
  return VerifyToken(id_token, nonce, now);
}

Result<IdTokenClaims> ProviderClient::VerifyToken(const std::string& id_token, const std::string& nonce,
                                                  TimeMs now) const {
  IdTokenExpectations expect{config_.issuer, config_.client_id, nonce, now / 1000, 60};
  CR_TRY_ASSIGN(auto keys, Keys(/*refresh=*/false));
  auto claims = VerifyIdToken(id_token, *keys, expect);
  if (!claims && claims.error().code == "id_token_unknown_key") {
    // The provider may have rotated its keys since they were cached.
    CR_TRY_ASSIGN(auto fresh, Keys(/*refresh=*/true));
    if (fresh != keys) return VerifyIdToken(id_token, *fresh, expect);
  }
  return claims;
}

}  // namespace credence::identity::oidc
