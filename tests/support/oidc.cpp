#include "support/oidc.h"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/ids.h"
#include "support/api_fixture.h"

namespace credence::test {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

fs::path OidcDir() { return fs::path(CREDENCE_TESTS_DIR) / "oidc"; }

std::string ReadWholeFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

json::array Strings(const std::vector<std::string>& values) {
  json::array out;
  for (const auto& v : values) out.emplace_back(v);
  return out;
}

std::string Base64Encode(std::string_view bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], table[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += {table[v >> 18], table[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], '='};
  }
  return out;
}

std::string HexToBytes(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

}  // namespace

// --- OidcProvider -------------------------------------------------------------

OidcProvider::OidcProvider(std::vector<OidcClient> clients, int port) : clients_(std::move(clients)), port_(port) {
  if (!fs::exists(OidcDir() / "node_modules" / "oidc-provider"))
    throw std::runtime_error("tests/oidc/node_modules is missing: run `npm ci` in " + OidcDir().string() +
                             " (scripts/test does)");
  char tmpl[] = "/tmp/credence-oidc-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  json::array list;
  for (const auto& c : clients_) {
    list.push_back(json::object{{"client_id", c.id},
                                {"client_secret", c.secret},
                                {"redirect_uris", Strings(c.redirect_uris)},
                                {"id_token_signed_response_alg", c.id_token_alg},
                                {"token_endpoint_auth_method", c.auth_method}});
  }
  std::ofstream(dir_ + "/clients.json") << json::serialize(list);
  Start({"--keys-out", dir_ + "/keys.json"});
}

OidcProvider::~OidcProvider() {
  Stop();
  if (std::getenv("CREDENCE_TEST_KEEP") == nullptr) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

const OidcClient& OidcProvider::client(const std::string& id) const {
  for (const auto& c : clients_)
    if (c.id == id) return c;
  throw std::runtime_error("no client " + id + " at the test provider");
}

void OidcProvider::Start(const std::vector<std::string>& key_args) {
  int in[2];
  int out[2];
  // Close-on-exec: processes forked later (the Credence server) must not
  // hold either pipe.
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> args = {"node",      (OidcDir() / "provider.mjs").string(),
                                   "--port",    std::to_string(port_),
                                   "--clients", dir_ + "/clients.json"};
  args.insert(args.end(), key_args.begin(), key_args.end());
  if (std::getenv("CREDENCE_TEST_OIDC_VERBOSE") != nullptr) args.push_back("--verbose");
  const std::string log_path = dir_ + "/provider.log";
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) ::dup2(log, STDERR_FILENO);
    ::execvp(argv[0], argv.data());
    std::_Exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  stdin_fd_ = in[1];

  // The first line is "ISSUER http://127.0.0.1:PORT".
  std::string output;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  bool done = false;
  while (!done && std::chrono::steady_clock::now() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buffer[256];
    const ssize_t n = ::read(out[0], buffer, sizeof buffer);
    if (n <= 0) break;  // it exited
    output.append(buffer, static_cast<size_t>(n));
    done = output.find('\n') != std::string::npos;
  }
  ::close(out[0]);
  const auto newline = output.find('\n');
  if (newline == std::string::npos || output.rfind("ISSUER ", 0) != 0) {
    Stop();
    throw std::runtime_error("the test OIDC provider did not start; output: " + output + "; log:\n" + ReadLog());
  }
  issuer_ = output.substr(7, newline - 7);
  port_ = std::stoi(issuer_.substr(issuer_.rfind(':') + 1));
}

void OidcProvider::Stop() {
  if (stdin_fd_ >= 0) {
    ::close(stdin_fd_);  // it exits on end of input
    stdin_fd_ = -1;
  }
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
}

void OidcProvider::Restart(KeyRotation keys) {
  Stop();
  const std::string current = dir_ + "/keys.json";
  const std::string previous = dir_ + "/keys.previous.json";
  std::vector<std::string> key_args;
  switch (keys) {
    case KeyRotation::kSameKeys:
      key_args = {"--keys", current};
      break;
    case KeyRotation::kNewKeys:
      key_args = {"--keys-out", current};
      break;
    case KeyRotation::kNewKeysSameKids:
      fs::copy_file(current, previous, fs::copy_options::overwrite_existing);
      key_args = {"--kids-from", previous, "--keys-out", current};
      break;
  }
  // The port was just released; give the kernel a moment if it is not free yet.
  for (int attempt = 0;; ++attempt) {
    try {
      Start(key_args);
      return;
    } catch (const std::exception&) {
      if (attempt == 4) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
}

json::object OidcProvider::Discovery() const {
  HttpClient client(issuer_);
  const auto r = client.Get("/.well-known/openid-configuration");
  if (r.status != 200) throw std::runtime_error("discovery failed: " + r.body);
  return r.Json().as_object();
}

json::object OidcProvider::Jwks() const {
  HttpClient client("");
  const auto r = client.Get(std::string(Discovery().at("jwks_uri").as_string()));
  if (r.status != 200) throw std::runtime_error("jwks failed: " + r.body);
  return r.Json().as_object();
}

std::string OidcProvider::ReadLog() const { return ReadWholeFile(dir_ + "/provider.log"); }

// --- Credence with real sign-in ---------------------------------------------

std::string CredenceCallbackUrl(int port) { return "http://127.0.0.1:" + std::to_string(port) + "/auth/callback"; }

std::string OidcConfigJson(const std::vector<CredenceOidcProviderEntry>& entries, const std::string& issuer) {
  json::array providers;
  for (const auto& e : entries) {
    json::object p{{"name", e.name},
                   {"issuer", e.issuer.empty() ? issuer : e.issuer},
                   {"clientId", e.client.id},
                   {"clientSecret", e.client.secret}};
    if (!e.scopes.empty()) p["scopes"] = Strings(e.scopes);
    if (!e.allowed_domains.empty()) p["allowedDomains"] = Strings(e.allowed_domains);
    providers.push_back(std::move(p));
  }
  return json::serialize(json::object{{"providers", std::move(providers)}});
}

OidcEnvironment::OidcEnvironment(std::vector<CredenceOidcProviderEntry> entries,
                                 std::optional<ServerOptions> server_options)
    : entries_(std::move(entries)) {
  ServerOptions options = server_options ? *server_options : SharedServerOptions();
  if (options.port == 0) options.port = FreePort();
  std::vector<OidcClient> clients;
  for (auto& e : entries_) {
    if (e.client.redirect_uris.empty()) e.client.redirect_uris = {CredenceCallbackUrl(options.port)};
    clients.push_back(e.client);
  }
  idp_ = std::make_unique<OidcProvider>(std::move(clients));
  options.oidc_config = OidcConfigJson(entries_, idp_->issuer());
  server_ = std::make_unique<ServerProcess>(std::move(options));
}

// --- The browser's side of a sign-in ------------------------------------------

Hop StartSignIn(Browser& browser, const std::string& credence_base_url, const std::string& provider_name) {
  return browser.Get(credence_base_url + "/auth/login/" + provider_name);
}

ProviderRedirect AuthorizeAtProvider(Browser& browser, const std::string& authorization_url, const std::string& login,
                                     const std::string& redirect_prefix) {
  ProviderRedirect out;
  Hop hop = browser.Get(authorization_url);
  out.hops.push_back(hop);
  for (int step = 0; step < 30; ++step) {
    if (hop.IsRedirect()) {
      if (hop.location.rfind(redirect_prefix, 0) == 0) {
        out.url = hop.location;
        out.code = QueryParam(out.url, "code");
        out.state = QueryParam(out.url, "state");
        out.error = QueryParam(out.url, "error");
        return out;
      }
      hop = browser.Get(hop.location);
      out.hops.push_back(hop);
      continue;
    }
    if (hop.status() != 200) break;
    // oidc-provider's development interactions: a login form (prompt=login,
    // fields login and password) and a consent form (prompt=consent).
    std::optional<HtmlForm> form;
    for (auto& f : ParseForms(hop.body(), hop.url))
      if (f.Has("prompt")) form = std::move(f);
    if (!form) break;
    if (form->Value("prompt") == "login") {
      form->Set("login", login);
      form->Set("password", "any password");
    } else if (form->Value("prompt") != "consent") {
      break;
    }
    hop = Submit(browser, *form);
    out.hops.push_back(hop);
  }
  throw std::runtime_error("sign-in at the provider did not reach " + redirect_prefix + "; trace:\n" + browser.Trace());
}

Hop CompleteSignIn(Browser& browser, const std::string& callback_url) { return browser.Get(callback_url); }

SignInResult SignInThroughProvider(Browser& browser, const std::string& credence_base_url,
                                   const std::string& provider_name, const std::string& login) {
  SignInResult r;
  r.login = StartSignIn(browser, credence_base_url, provider_name);
  if (!r.login.IsRedirect())
    throw std::runtime_error("GET /auth/login/" + provider_name + " did not redirect; trace:\n" + browser.Trace());
  r.provider = AuthorizeAtProvider(browser, r.login.location, login, credence_base_url + "/auth/callback");
  r.callback = CompleteSignIn(browser, r.provider.url);
  return r;
}

// --- What a relying party does --------------------------------------------------

Pkce NewPkce() {
  Pkce p;
  p.verifier = Base64UrlEncode(SecureRandomBytes(32));
  p.challenge = Base64UrlEncode(HexToBytes(Sha256Hex(p.verifier)));
  return p;
}

std::string AuthorizationUrl(const OidcProvider& idp, const OidcClient& client, const std::string& redirect_uri,
                             const std::string& state, const std::string& nonce, const std::string& code_challenge,
                             const std::string& scope) {
  const std::string endpoint(idp.Discovery().at("authorization_endpoint").as_string());
  return endpoint + "?" +
         FormEncode({{"response_type", "code"},
                     {"client_id", client.id},
                     {"redirect_uri", redirect_uri},
                     {"scope", scope},
                     {"state", state},
                     {"nonce", nonce},
                     {"code_challenge", code_challenge},
                     {"code_challenge_method", "S256"}});
}

Response ExchangeCode(const OidcProvider& idp, const OidcClient& client, const std::string& code,
                      const std::string& redirect_uri, const std::string& code_verifier) {
  const std::string endpoint(idp.Discovery().at("token_endpoint").as_string());
  FormFields fields = {{"grant_type", "authorization_code"},
                       {"code", code},
                       {"redirect_uri", redirect_uri},
                       {"code_verifier", code_verifier}};
  Headers headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
  if (client.auth_method == "client_secret_post") {
    fields.emplace_back("client_id", client.id);
    fields.emplace_back("client_secret", client.secret);
  } else {
    // RFC 6749 2.3.1: the id and secret are form-encoded before Basic.
    const auto component = [](const std::string& s) {
      std::string encoded = FormEncode({{s, ""}});
      encoded.pop_back();  // the '=' of an empty value
      return encoded;
    };
    headers.emplace_back("Authorization",
                         "Basic " + Base64Encode(component(client.id) + ":" + component(client.secret)));
  }
  HttpClient http("");
  return http.Send("POST", endpoint, FormEncode(fields), "", headers);
}

std::string Base64UrlDecode(std::string_view text) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '-' || c == '+')
      v = 62;
    else if (c == '_' || c == '/')
      v = 63;
    else if (c == '=')
      break;
    else
      throw std::runtime_error("not base64url");
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

DecodedJwt DecodeJwt(const std::string& compact) {
  const auto first = compact.find('.');
  const auto second = compact.find('.', first == std::string::npos ? 0 : first + 1);
  if (first == std::string::npos || second == std::string::npos) throw std::runtime_error("not a compact JWS");
  DecodedJwt jwt;
  jwt.header = json::parse(Base64UrlDecode(std::string_view(compact).substr(0, first))).as_object();
  jwt.payload =
      json::parse(Base64UrlDecode(std::string_view(compact).substr(first + 1, second - first - 1))).as_object();
  jwt.signing_input = compact.substr(0, second);
  jwt.signature = Base64UrlDecode(std::string_view(compact).substr(second + 1));
  return jwt;
}

}  // namespace credence::test
