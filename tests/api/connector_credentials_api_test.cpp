// Connector credentials over real HTTP (docs/connectors.md, "Credentials"):
// a git repository served by git http-backend behind a server that wants a
// token (Basic or Bearer), and a web site that wants a named header and
// redirects to another origin (tests/support/private_site.py). The secret is
// write-only: never in an answer, the audit log, the server's log or the
// store in clear. Runs on SQLite and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/clock_fixture.h"
#include "support/connectors_fixture.h"
#include "support/server_process.h"
#include "support/sinks.h"
#include "support/temp_dir.h"

namespace credence::test {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

std::string Base64(const std::string& in) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int bits = 0;
  unsigned acc = 0;
  for (unsigned char c : in) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kAlphabet[(acc >> bits) & 63]);
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(acc << (6 - bits)) & 63]);
  while (out.size() % 4 != 0) out.push_back('=');
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Whether `needle` is in the server's store (SQLite files, or a pg_dump).
bool ConnectorCredentialsStoreContains(const std::string& needle) {
  const ServerProcess& server = SharedServer();
  if (TestBackend() == "postgres") {
    FILE* p = popen(("pg_dump --data-only '" + server.database_url() + "' 2>/dev/null").c_str(), "r");
    if (p == nullptr) throw std::runtime_error("pg_dump failed");
    std::string dump;
    char buf[65536];
    size_t n = 0;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) dump.append(buf, n);
    if (pclose(p) != 0 || dump.empty()) throw std::runtime_error("pg_dump failed");
    return dump.find(needle) != std::string::npos;
  }
  for (const char* file : {"/credence.db", "/credence.db-wal"})
    if (ReadFile(server.data_dir() + file).find(needle) != std::string::npos) return true;
  return false;
}

std::string Shell(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "";
  std::string out;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// Debian's sshd, unprivileged on a free port, with a host key and one
// authorized (deploy) key made here: it runs git-upload-pack for the user
// the tests run as.
class SshServer {
 public:
  SshServer() {
    const std::string d = dir_.path;
    Shell("ssh-keygen -q -t ed25519 -N '' -f " + d + "/host_key && ssh-keygen -q -t ed25519 -N '' -C deploy -f " + d +
          "/deploy_key && cp " + d + "/deploy_key.pub " + d + "/authorized_keys && chmod 600 " + d +
          "/authorized_keys");
    const std::string fingerprint = Shell("ssh-keygen -lf " + d + "/host_key.pub");
    host_key_ = fingerprint.substr(fingerprint.find(' ') + 1);
    host_key_ = host_key_.substr(0, host_key_.find(' '));
    private_key_ = ReadFile(d + "/deploy_key");
    port_ = FreePort();
    std::ofstream(d + "/sshd_config") << "Port " << port_ << "\nListenAddress 127.0.0.1\nHostKey " << d
                                      << "/host_key\nAuthorizedKeysFile " << d << "/authorized_keys\nPidFile " << d
                                      << "/sshd.pid\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                                         "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n";
    if (::geteuid() == 0) fs::create_directories("/run/sshd");  // privilege separation wants it
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execl("/usr/sbin/sshd", "/usr/sbin/sshd", "-D", "-E", (d + "/sshd.log").c_str(), "-f",
              (d + "/sshd_config").c_str(), nullptr);
      ::_exit(127);
    }
    for (int i = 0; i < 100 && !Listening(); ++i) ::usleep(50'000);
  }
  ~SshServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  static bool Available() { return ::access("/usr/sbin/sshd", X_OK) == 0; }
  int port() const { return port_; }
  const std::string& host_key() const { return host_key_; }
  const std::string& private_key() const { return private_key_; }
  std::string url(const std::string& repo_path) const {
    const passwd* pw = ::getpwuid(::geteuid());
    return "ssh://" + std::string(pw != nullptr ? pw->pw_name : "root") + "@127.0.0.1:" + std::to_string(port_) +
           repo_path;
  }

 private:
  bool Listening() const {
    return Shell("ssh-keyscan -p " + std::to_string(port_) + " 127.0.0.1 2>/dev/null").find("ssh-ed25519") !=
           std::string::npos;
  }
  TempDir dir_{"credence-sshd"};
  std::string host_key_, private_key_;
  int port_ = 0;
  pid_t pid_ = -1;
};

class ConnectorCredentials : public ClockedApiTest {
 protected:
  void SetUp() override {
    ClockedApiTest::SetUp();
    if (IsSkipped()) return;
    SetServerTime(api(), "2030-01-01T00:00:00Z");
  }

  json::value Sync(const TestTenant& t, const std::string& id) {
    auto queued = api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
    EXPECT_EQ(queued.status, 202) << queued.body;
    if (queued.status != 202) return json::object{};
    RunConnectorPass(api());
    auto run = api().Get("/trust-admin/connectors/" + id + "/runs/" + Str(queued.Json(), "id"), t.token("admin"));
    EXPECT_EQ(run.status, 200) << run.body;
    return run.Json();
  }

  // Neither an answer nor the audit log nor the server's log nor the store
  // holds `secret`.
  void ExpectNowhere(const TestTenant& t, const std::string& secret) {
    auto list = api().Get("/trust-admin/connectors", t.token("admin"));
    EXPECT_EQ(list.body.find(secret), std::string::npos);
    auto audit = api().Get("/api/admin/audit?targetType=connector", t.token("admin"));
    ASSERT_EQ(audit.status, 200) << audit.body;
    EXPECT_GT(audit.Json().at("entries").as_array().size(), 0u);
    EXPECT_EQ(audit.body.find(secret), std::string::npos) << "in the audit log";
    EXPECT_EQ(ReadFile(SharedServer().log_path()).find(secret), std::string::npos) << "in the server's log";
    EXPECT_FALSE(ConnectorCredentialsStoreContains(secret)) << "in the store in clear";
  }
};

TEST_F(ConnectorCredentials, GitOverHttpWithATokenIsWriteOnlyAndSyncs) {
  auto t = CreateTenant(api(), "cred-git");
  GitRepoFixture repo;
  repo.Write("guide/a.md", "# Refunds\nWithin 30 days.\n");
  repo.Commit("first");
  const std::string token = "glpat-Zx81kQ2wPq7mN4vB9cTt";
  const std::string root = fs::path(repo.path()).parent_path().string();
  PrivateSite server("Authorization", "Basic " + Base64("oauth2:" + token), root);
  const std::string url = server.url("/git/" + fs::path(repo.path()).filename().string());

  // Without the credential the run fails, saying why.
  auto created = api().Post("/trust-admin/connectors",
                            {{"key", "private"}, {"kind", "git"}, {"settings", {{"url", url}}}}, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  EXPECT_EQ(created.Json().at("credential"),
            json::parse(R"({"set":false,"kind":null,"username":null,"headerName":null})"));
  json::value refused = Sync(t, id);
  EXPECT_EQ(Str(refused, "status"), "failed") << json::serialize(refused);
  EXPECT_NE(Str(refused, "error").find("credential"), std::string::npos) << json::serialize(refused);

  // Given: shown as set, never the token; the sync reads the repository.
  auto updated = api().Put(
      "/trust-admin/connectors/" + id,
      {{"settings", {{"url", url}}}, {"credential", {{"kind", "basic"}, {"username", "oauth2"}, {"password", token}}}},
      t.token("admin"));
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(updated.Json().at("credential"),
            json::parse(R"({"set":true,"kind":"basic","username":"oauth2","headerName":null})"));
  EXPECT_EQ(updated.body.find(token), std::string::npos);
  json::value first = Sync(t, id);
  EXPECT_EQ(Str(first, "status"), "succeeded") << json::serialize(first);
  EXPECT_EQ(first.at("documentsAdded").as_int64(), 1);

  // An update without "credential" keeps it.
  repo.Write("guide/b.md", "# Shipping\n");
  repo.Commit("second");
  auto renamed =
      api().Put("/trust-admin/connectors/" + id, {{"name", "Private"}, {"settings", {{"url", url}}}}, t.token("admin"));
  ASSERT_EQ(renamed.status, 200) << renamed.body;
  EXPECT_TRUE(renamed.Json().at("credential").at("set").as_bool());
  json::value second = Sync(t, id);
  EXPECT_EQ(Str(second, "status"), "succeeded") << json::serialize(second);
  EXPECT_EQ(second.at("documentsAdded").as_int64(), 1);

  // A wrong token: refused, and said so.
  ASSERT_EQ(api()
                .Put("/trust-admin/connectors/" + id,
                     {{"settings", {{"url", url}}},
                      {"credential", {{"kind", "basic"}, {"username", "oauth2"}, {"password", "wrong-token"}}}},
                     t.token("admin"))
                .status,
            200);
  repo.Write("guide/c.md", "# Returns\n");
  repo.Commit("third");
  json::value wrong = Sync(t, id);
  EXPECT_EQ(Str(wrong, "status"), "failed");
  EXPECT_NE(Str(wrong, "error").find("refused the connector's basic credential"), std::string::npos)
      << json::serialize(wrong);

  // null removes it.
  auto cleared = api().Put("/trust-admin/connectors/" + id, {{"settings", {{"url", url}}}, {"credential", nullptr}},
                           t.token("admin"));
  ASSERT_EQ(cleared.status, 200) << cleared.body;
  EXPECT_FALSE(cleared.Json().at("credential").at("set").as_bool());

  // A bearer token, sent as a header from the first request.
  const std::string bearer = "gitea-bearer-7Hq2LmZp0Xv3";
  PrivateSite bearer_server("Authorization", "Bearer " + bearer, root);
  const std::string bearer_url = bearer_server.url("/git/" + fs::path(repo.path()).filename().string());
  auto with_bearer = api().Post("/trust-admin/connectors",
                                {{"key", "bearer"},
                                 {"kind", "git"},
                                 {"settings", {{"url", bearer_url}}},
                                 {"credential", {{"kind", "bearer"}, {"token", bearer}}}},
                                t.token("admin"));
  ASSERT_EQ(with_bearer.status, 201) << with_bearer.body;
  json::value by_bearer = Sync(t, Str(with_bearer.Json(), "id"));
  EXPECT_EQ(Str(by_bearer, "status"), "succeeded") << json::serialize(by_bearer);
  EXPECT_EQ(by_bearer.at("documentsAdded").as_int64(), 3);

  auto audit = api().Get("/api/admin/audit?action=connector.updated", t.token("admin"));
  EXPECT_NE(audit.body.find("\"credentialChange\":\"set\""), std::string::npos) << audit.body;
  EXPECT_NE(audit.body.find("\"credentialChange\":\"removed\""), std::string::npos) << audit.body;
  ExpectNowhere(t, token);
  ExpectNowhere(t, bearer);
  ExpectNowhere(t, Base64("oauth2:" + token));
}

TEST_F(ConnectorCredentials, BadCredentialsAreFieldErrors) {
  auto t = CreateTenant(api(), "cred-bad");
  auto create = [&](json::object settings, json::value credential, const std::string& kind = "git") {
    json::object body{{"key", "c"}, {"kind", kind}, {"credential", credential}};
    if (!settings.empty()) body["settings"] = settings;
    return api().Post("/trust-admin/connectors", body, t.token("admin"));
  };
  const json::object https{{"url", "https://git.example.com/docs.git"}};
  ExpectValidation(create(https, {{"kind", "sshKey"}, {"privateKey", "x"}}), "credential.kind");
  ExpectValidation(create(https, {{"kind", "header"}, {"name", "X-Key"}, {"value", "v"}}), "credential.kind");
  ExpectValidation(create(https, {{"kind", "basic"}, {"username", "u"}}), "credential.password");
  ExpectValidation(create(https, {{"kind", "basic"}, {"username", "a:b"}, {"password", "p"}}), "credential.username");
  ExpectValidation(create(https, {{"kind", "bearer"}, {"token", "t"}, {"extra", 1}}), "credential.extra");
  ExpectValidation(create(https, {{"kind", "bearer"}, {"token", "a\r\nX-Injected: 1"}}), "credential.token");
  ExpectValidation(create({}, {{"kind", "bearer"}, {"token", "t"}}, "push"), "credential");
  ExpectValidation(create({{"url", "https://user:pass@git.example.com/docs.git"}}, nullptr), "settings.url");
  const json::object web{{"startUrls", {"https://intranet.example.com/"}}};
  ExpectValidation(create(web, {{"kind", "header"}, {"name", "Host"}, {"value", "v"}}, "web"), "credential.name");
  ExpectValidation(create(web, {{"kind", "header"}, {"name", "Bad Name"}, {"value", "v"}}, "web"), "credential.name");
  ExpectValidation(create(web, {{"kind", "sshKey"}, {"privateKey", "x"}}, "web"), "credential.kind");
  ExpectValidation(create({{"url", "git@git.example.com:docs.git"}}, nullptr), "settings.sshHostKey");
  ExpectValidation(create({{"url", "git@git.example.com:docs.git"}, {"sshHostKey", "SHA256:nope"}}, nullptr),
                   "settings.sshHostKey");
  ExpectValidation(create({{"url", "ssh://git@git.example.com/docs.git"},
                           {"sshHostKey", "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"}},
                          {{"kind", "sshKey"}, {"privateKey", "not a key"}}),
                   "credential.privateKey");
  ExpectValidation(create(https, "a string"), "credential");

  // A stored credential that no longer fits the settings must be replaced or removed.
  auto ok = create(https, {{"kind", "bearer"}, {"token", "t0k3n"}});
  ASSERT_EQ(ok.status, 201) << ok.body;
  ExpectValidation(api().Put("/trust-admin/connectors/" + Str(ok.Json(), "id"),
                             {{"settings",
                               {{"url", "ssh://git@git.example.com/docs.git"},
                                {"sshHostKey", "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"}}}},
                             t.token("admin")),
                   "credential");
}

TEST_F(ConnectorCredentials, WebCredentialGoesToTheStartUrlsOriginOnly) {
  auto t = CreateTenant(api(), "cred-web");
  const std::string key = "intranet-key-Rk3u9Wq1Zs";
  PrivateSite site("X-Api-Key", key);
  // localhost is the same server under another origin.
  const std::string other = "http://localhost:" + std::to_string(site.port());
  auto page = [](const std::string& title, const std::string& body) {
    return "<html><head><title>" + title + "</title></head><body>" + body + "</body></html>";
  };
  site.Put("/index.html", page("Home", "<a href=\"/a.html\">A</a> <a href=\"/away.html\">Away</a> <a href=\"" + other +
                                           "/c.html\">C</a>"));
  site.Put("/a.html", page("Refunds", "<p>Within 30 days.</p>"));
  site.Put("/away.html", "REDIRECT " + other + "/b.html");
  site.Put("/b.html", page("Moved", "<p>Elsewhere.</p>"));
  site.Put("/c.html", page("Other", "<p>Other origin.</p>"));

  auto created = api().Post(
      "/trust-admin/connectors",
      {{"key", "intranet"},
       {"kind", "web"},
       {"settings", {{"startUrls", {site.url("/index.html")}}, {"includePrefixes", {site.url("/"), other + "/"}}}},
       {"credential", {{"kind", "header"}, {"name", "X-Api-Key"}, {"value", key}}}},
      t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.Json().at("credential"),
            json::parse(R"({"set":true,"kind":"header","username":null,"headerName":"X-Api-Key"})"));
  json::value run = Sync(t, Str(created.Json(), "id"));
  EXPECT_EQ(Str(run, "status"), "succeeded") << json::serialize(run);
  EXPECT_EQ(run.at("documentsAdded").as_int64(), 2) << json::serialize(run);   // index, a
  EXPECT_EQ(run.at("documentsFailed").as_int64(), 2) << json::serialize(run);  // away (redirected), c: 401

  int to_start = 0, to_other = 0;
  for (const auto& r : site.Requests()) {
    const std::string host(r.at("host").as_string());
    if (host.rfind("localhost:", 0) == 0) {
      ++to_other;
      EXPECT_FALSE(r.at("sent").as_bool()) << "the credential went to " << host << json::serialize(r);
    } else {
      ++to_start;
      EXPECT_TRUE(r.at("valid").as_bool()) << json::serialize(r);
    }
  }
  EXPECT_GE(to_start, 3);
  EXPECT_GE(to_other, 2);  // b by the redirect, c by the link (and robots.txt)
  ExpectNowhere(t, key);
}

// Rotation while the server runs: a new key first in the file, every
// credential sealed again with it; the server opens them (reading the file
// again for the key it lacks), and pruning drops the old key.
TEST_F(ConnectorCredentials, RotatingTheSecretsKeyReSealsWhileTheServerRuns) {
  auto t = CreateTenant(api(), "cred-rotate");
  GitRepoFixture repo;
  repo.Write("a.md", "# Rotation\n");
  repo.Commit("first");
  const std::string token = "rotate-token-Vb71Kx0";
  PrivateSite server("Authorization", "Bearer " + token, fs::path(repo.path()).parent_path().string());
  auto created = api().Post("/trust-admin/connectors",
                            {{"key", "rotated"},
                             {"kind", "git"},
                             {"settings", {{"url", server.url("/git/" + fs::path(repo.path()).filename().string())}}},
                             {"credential", {{"kind", "bearer"}, {"token", token}}}},
                            t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");

  const ServerProcess& shared = SharedServer();
  const std::string key_file = shared.data_dir() + "/connector-secrets.key";
  const std::string before = ReadFile(key_file);
  ASSERT_FALSE(before.empty());
  std::vector<std::string> store = {"--data-dir", shared.data_dir()};
  if (TestBackend() == "postgres") store.insert(store.end(), {"--database", shared.database_url()});
  std::vector<std::string> rotate = {"admin", "rotate-secrets-key"};
  rotate.insert(rotate.end(), store.begin(), store.end());
  const CommandResult rotated = RunCredence(rotate);
  ASSERT_EQ(rotated.exit_code, 0) << rotated.out << rotated.err;
  const json::value summary = json::parse(rotated.out);
  EXPECT_GE(summary.at("resealed").as_int64(), 1) << rotated.out;
  EXPECT_EQ(summary.at("failed").as_array().size(), 0u) << rotated.out;
  const std::string after = ReadFile(key_file);
  const size_t first_key = after.find('\n', after.rfind("\n# ") + 1) + 1;  // past the comment lines
  EXPECT_EQ(after.compare(first_key, Str(summary, "newKeyId").size(), Str(summary, "newKeyId")), 0) << after;

  json::value first = Sync(t, id);
  EXPECT_EQ(Str(first, "status"), "succeeded") << json::serialize(first);

  std::vector<std::string> prune = {"admin", "prune-secrets-keys"};
  prune.insert(prune.end(), store.begin(), store.end());
  const CommandResult pruned = RunCredence(prune);
  ASSERT_EQ(pruned.exit_code, 0) << pruned.out << pruned.err;
  EXPECT_GE(json::parse(pruned.out).at("removed").as_array().size(), 1u) << pruned.out;
  repo.Write("b.md", "# After pruning\n");
  repo.Commit("second");
  json::value second = Sync(t, id);
  EXPECT_EQ(Str(second, "status"), "succeeded") << json::serialize(second);
  EXPECT_EQ(second.at("documentsAdded").as_int64(), 1);
  EXPECT_EQ(rotated.out.find(token), std::string::npos);
  EXPECT_EQ(pruned.out.find(token), std::string::npos);
}

TEST_F(ConnectorCredentials, GitOverSshWithADeployKey) {
  if (!SshServer::Available()) GTEST_SKIP() << "no /usr/sbin/sshd (Debian's openssh-server)";
  auto t = CreateTenant(api(), "cred-ssh");
  GitRepoFixture repo;
  repo.Write("a.md", "# Deploy keys\n");
  repo.Commit("first");
  SshServer sshd;
  const std::string url = sshd.url(repo.path());
  auto create = [&](const std::string& key, const std::string& host_key) {
    return api().Post("/trust-admin/connectors",
                      {{"key", key},
                       {"kind", "git"},
                       {"settings", {{"url", url}, {"sshHostKey", host_key}}},
                       {"credential", {{"kind", "sshKey"}, {"privateKey", sshd.private_key()}}}},
                      t.token("admin"));
  };
  auto created = create("deploy", sshd.host_key());
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.Json().at("credential"),
            json::parse(R"({"set":true,"kind":"sshKey","username":"git","headerName":null})"));
  json::value run = Sync(t, Str(created.Json(), "id"));
  EXPECT_EQ(Str(run, "status"), "succeeded") << json::serialize(run);
  EXPECT_EQ(run.at("documentsAdded").as_int64(), 1) << json::serialize(run);

  // Another host key than the settings name: refused before any key is offered.
  auto spoofed = create("spoofed", "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU");
  ASSERT_EQ(spoofed.status, 201) << spoofed.body;
  json::value refused = Sync(t, Str(spoofed.Json(), "id"));
  EXPECT_EQ(Str(refused, "status"), "failed");
  EXPECT_NE(Str(refused, "error").find("not the settings' sshHostKey"), std::string::npos) << json::serialize(refused);

  const std::string key_body = sshd.private_key().substr(40, 40);  // a piece of the key's base64
  ExpectNowhere(t, key_body);
}

}  // namespace
}  // namespace credence::test
