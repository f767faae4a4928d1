// Notification channels over real HTTP, delivering to real receivers: an
// SMTP server (aiosmtpd, shared by the binary's test server) and HTTP
// receivers started per test (tests/support/sinks.h). CRUD, validation, who
// may do what, isolation between tenants, test sends by email, Slack, Teams
// and webhook (body, headers, signature), retries with back-off until
// delivered or dead, and the outbox's promises: a down channel never slows
// the API, nothing queued is lost across a crash, background jobs deliver
// on their own. Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/ids.h"
#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "support/sinks.h"

namespace credence::test {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

constexpr char kSecret[] = "a-webhook-secret-of-some-length";
const std::vector<std::string> kAllEvents = {"entry.expiring_soon", "entry.warning", "entry.expired"};

std::string HmacHex(const std::string& key, const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), digest, &length);
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[digest[i] >> 4];
    hex += kDigits[digest[i] & 0x0f];
  }
  return hex;
}

// An address no other test uses: the SMTP server is shared.
std::string UniqueAddress(const std::string& who) { return who + "-" + NewId().substr(24) + "@notify.example"; }

json::object EmailChannel(const std::string& name, const std::vector<std::string>& recipients) {
  json::array r;
  for (const auto& a : recipients) r.emplace_back(a);
  return {{"name", name}, {"type", "email"}, {"config", {{"recipients", r}}}};
}

json::object ChatChannel(const std::string& name, const std::string& type, const std::string& url) {
  return {{"name", name}, {"type", type}, {"config", {{"webhookUrl", url}}}};
}

json::object WebhookChannel(const std::string& name, const std::string& url, const std::string& secret = "") {
  json::object config{{"url", url}};
  if (!secret.empty()) config["secret"] = secret;
  return {{"name", name}, {"type", "webhook"}, {"config", std::move(config)}};
}

// A listening socket that never accepts: connections complete in the
// kernel's backlog, and a request sent on one is never answered.
class BlackHole {
 public:
  BlackHole() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 16) != 0)
      throw std::runtime_error("black hole: bind/listen failed");
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~BlackHole() { ::close(fd_); }
  BlackHole(const BlackHole&) = delete;
  BlackHole& operator=(const BlackHole&) = delete;
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook"; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

class Notify : public ClockedApiTest {
 protected:
  static std::string MakeChannel(HttpClient& client, const TestTenant& t, const json::object& body) {
    auto r = client.Post("/api/notification-channels", body, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "id") : "";
  }
  std::string MakeChannel(const TestTenant& t, const json::object& body) { return MakeChannel(api(), t, body); }

  static std::string SendTest(HttpClient& client, const TestTenant& t, const std::string& id) {
    auto r = client.Post("/api/notification-channels/" + id + "/test", json::object{}, t.token("admin"));
    EXPECT_EQ(r.status, 202) << r.body;
    if (r.status != 202) return "";
    EXPECT_EQ(Str(r.Json(), "status"), "queued");
    return Str(r.Json(), "deliveryId");
  }
  std::string SendTest(const TestTenant& t, const std::string& id) { return SendTest(api(), t, id); }

  static json::object Stats(HttpClient& client, const TestTenant& t, const std::string& id) {
    auto r = client.Get("/api/notification-channels/" + id + "/stats", t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().as_object() : json::object{};
  }
  json::object Stats(const TestTenant& t, const std::string& id) { return Stats(api(), t, id); }

  static json::array Deliveries(HttpClient& client, const TestTenant& t, const std::string& id) {
    auto r = client.Get("/api/notification-channels/" + id + "/deliveries", t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().as_array() : json::array{};
  }
  json::array Deliveries(const TestTenant& t, const std::string& id) { return Deliveries(api(), t, id); }

  // The posts of one delivery (receivers de-duplicate by this header).
  static std::vector<ReceivedPost> PostsOf(const HttpSink& sink, const std::string& delivery_id) {
    std::vector<ReceivedPost> out;
    for (auto& p : sink.Posts())
      if (p.Header("x-credence-delivery") == delivery_id) out.push_back(std::move(p));
    return out;
  }
};

TEST_F(Notify, CrudRoundTripsForEveryType) {
  auto t = CreateTenant(api(), "ntf-crud");
  const std::string admin = t.token("admin");
  const std::string to = UniqueAddress("crud");

  auto email = api().Post("/api/notification-channels", EmailChannel("  Ops mail  ", {to}), admin);
  ASSERT_EQ(email.status, 201) << email.body;
  auto e = email.Json();
  const std::string email_id = Str(e, "id");
  EXPECT_EQ(email_id.size(), 36u);
  EXPECT_EQ(Str(e, "name"), "Ops mail");
  EXPECT_EQ(Str(e, "type"), "email");
  EXPECT_TRUE(e.at("isEnabled").as_bool());
  EXPECT_EQ(Strings(e.at("events")), kAllEvents);
  EXPECT_EQ(Strings(e.at("config").at("recipients")), std::vector<std::string>{to});
  EXPECT_FALSE(e.at("config").at("notifyOwners").as_bool());
  EXPECT_EQ(Str(e, "createdAt").back(), 'Z');
  EXPECT_EQ(Str(e, "updatedAt"), Str(e, "createdAt"));

  auto slack = api().Post("/api/notification-channels",
                          ChatChannel("Slack room", "slack", "https://hooks.slack.example/services/T0/B0/x"), admin);
  ASSERT_EQ(slack.status, 201) << slack.body;
  EXPECT_EQ(Str(slack.Json().at("config"), "webhookUrl"), "https://hooks.slack.example/services/T0/B0/x");
  auto teams_body = ChatChannel("Teams room", "teams", "https://teams.example/webhook/abc");
  teams_body["events"] = json::array{"entry.expired", "entry.warning"};
  teams_body["isEnabled"] = false;
  auto teams = api().Post("/notification-channels", teams_body, admin);
  ASSERT_EQ(teams.status, 201) << teams.body;
  // Events come back in their canonical order.
  EXPECT_EQ(Strings(teams.Json().at("events")), (std::vector<std::string>{"entry.warning", "entry.expired"}));
  EXPECT_FALSE(teams.Json().at("isEnabled").as_bool());
  auto hook = api().Post("/api/notification-channels",
                         WebhookChannel("Audit hook", "https://audit.example/in", kSecret), admin);
  ASSERT_EQ(hook.status, 201) << hook.body;
  const auto h = hook.Json();
  EXPECT_EQ(Str(h.at("config"), "url"), "https://audit.example/in");
  EXPECT_EQ(Str(h.at("config"), "secret"), kSecret);
  const std::string hook_id = Str(h, "id");

  for (const char* base : {"/api/notification-channels", "/notification-channels"}) {
    auto list = api().Get(base, admin);
    ASSERT_EQ(list.status, 200) << list.body;
    std::vector<std::string> names;
    const auto listed = list.Json();
    for (const auto& c : listed.as_array()) names.push_back(Str(c, "name"));
    EXPECT_EQ(names, (std::vector<std::string>{"Audit hook", "Ops mail", "Slack room", "Teams room"})) << base;
    auto one = api().Get(std::string(base) + "/" + hook_id, admin);
    ASSERT_EQ(one.status, 200) << one.body;
    EXPECT_EQ(json::serialize(one.Json()), json::serialize(h));
  }

  // PUT replaces every field; the secret left out is gone.
  json::object update = WebhookChannel("Audit hook v2", "https://audit.example/v2");
  update["events"] = json::array{"entry.expired"};
  update["isEnabled"] = false;
  auto updated = api().Put("/api/notification-channels/" + hook_id, update, admin);
  ASSERT_EQ(updated.status, 200) << updated.body;
  const auto u = updated.Json();
  EXPECT_EQ(Str(u, "id"), hook_id);
  EXPECT_EQ(Str(u, "name"), "Audit hook v2");
  EXPECT_EQ(Strings(u.at("events")), std::vector<std::string>{"entry.expired"});
  EXPECT_FALSE(u.at("isEnabled").as_bool());
  EXPECT_EQ(Str(u.at("config"), "url"), "https://audit.example/v2");
  EXPECT_TRUE(u.at("config").at("secret").is_null());
  EXPECT_EQ(Str(u, "createdAt"), Str(h, "createdAt"));
  EXPECT_GE(Str(u, "updatedAt"), Str(h, "updatedAt"));
  // The type may change too.
  auto retyped = api().Put("/notification-channels/" + email_id,
                           ChatChannel("Ops mail", "teams", "https://teams.example/webhook/ops"), admin);
  ASSERT_EQ(retyped.status, 200) << retyped.body;
  EXPECT_EQ(Str(retyped.Json(), "type"), "teams");
  EXPECT_EQ(Str(retyped.Json().at("config"), "webhookUrl"), "https://teams.example/webhook/ops");
  EXPECT_FALSE(retyped.Json().at("config").as_object().contains("recipients"));

  auto stats = Stats(t, hook_id);
  EXPECT_EQ(stats.at("successCount").as_int64(), 0);
  EXPECT_EQ(stats.at("failureCount").as_int64(), 0);
  EXPECT_TRUE(stats.at("lastUsedAt").is_null());
  EXPECT_EQ(stats.at("pendingCount").as_int64(), 0);
  EXPECT_TRUE(Deliveries(t, hook_id).empty());

  ASSERT_EQ(api().Delete("/api/notification-channels/" + hook_id, admin).status, 204);
  ExpectProblem(api().Get("/api/notification-channels/" + hook_id, admin), 404, "not_found");
  ExpectProblem(api().Delete("/notification-channels/" + hook_id, admin), 404, "not_found");
  ExpectProblem(api().Get("/api/notification-channels/" + hook_id + "/stats", admin), 404, "not_found");
  EXPECT_EQ(api().Get("/api/notification-channels", admin).Json().as_array().size(), 3u);
}

TEST_F(Notify, BadInputIsRefused) {
  auto t = CreateTenant(api(), "ntf-400");
  const std::string admin = t.token("admin");
  const std::string id = MakeChannel(t, WebhookChannel("Existing", "https://example.com/hook"));
  const json::object ok_config{{"url", "https://example.com/h"}};
  json::array too_many;
  for (int i = 0; i < 51; ++i) too_many.emplace_back("r" + std::to_string(i) + "@example.com");

  struct Case {
    json::object body;
    std::string field;
  };
  const std::vector<Case> cases = {
      {{{"type", "webhook"}, {"config", ok_config}}, "name"},
      {{{"name", ""}, {"type", "webhook"}, {"config", ok_config}}, "name"},
      {{{"name", "   "}, {"type", "webhook"}, {"config", ok_config}}, "name"},
      {{{"name", std::string(201, 'n')}, {"type", "webhook"}, {"config", ok_config}}, "name"},
      {{{"name", 7}, {"type", "webhook"}, {"config", ok_config}}, "name"},
      {{{"name", "x"}, {"config", ok_config}}, "type"},
      {{{"name", "x"}, {"type", "sms"}, {"config", ok_config}}, "type"},
      {{{"name", "x"}, {"type", 1}, {"config", ok_config}}, "type"},
      {{{"name", "x"}, {"type", "webhook"}}, "config"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", "https://example.com"}}, "config"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", ok_config}, {"isEnabled", "yes"}}, "isEnabled"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", ok_config}, {"events", json::array{}}}, "events"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", ok_config}, {"events", "entry.expired"}}, "events"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", ok_config}, {"events", json::array{"entry.deleted"}}},
       "events[0]"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", ok_config}, {"events", json::array{"entry.expired", 3}}},
       "events[1]"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", json::object{}}}, "config.url"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", {{"url", "ftp://example.com/x"}}}}, "config.url"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", {{"url", "example.com/x"}}}}, "config.url"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", {{"url", 80}}}}, "config.url"},
      {{{"name", "x"}, {"type", "webhook"}, {"config", {{"url", "https://example.com"}, {"secret", "short"}}}},
       "config.secret"},
      {{{"name", "x"}, {"type", "slack"}, {"config", json::object{}}}, "config.webhookUrl"},
      {{{"name", "x"}, {"type", "slack"}, {"config", {{"webhookUrl", "not a url"}}}}, "config.webhookUrl"},
      {{{"name", "x"}, {"type", "teams"}, {"config", {{"url", "https://teams.example/x"}}}}, "config.webhookUrl"},
      {{{"name", "x"}, {"type", "email"}, {"config", json::object{}}}, "config.recipients"},
      {{{"name", "x"}, {"type", "email"}, {"config", {{"recipients", json::array{}}}}}, "config.recipients"},
      {{{"name", "x"}, {"type", "email"}, {"config", {{"recipients", "a@example.com"}}}}, "config.recipients"},
      {{{"name", "x"}, {"type", "email"}, {"config", {{"recipients", too_many}}}}, "config.recipients"},
      {{{"name", "x"}, {"type", "email"}, {"config", {{"recipients", json::array{"nope"}}}}}, "config.recipients[0]"},
      {{{"name", "x"}, {"type", "email"}, {"config", {{"recipients", json::array{"a@example.com", "b@c"}}}}},
       "config.recipients[1]"},
      {{{"name", "x"},
        {"type", "email"},
        {"config", {{"recipients", json::array{"a@example.com\r\nRCPT TO:<x@example.com>"}}}}},
       "config.recipients[0]"},
      {{{"name", "x"},
        {"type", "email"},
        {"config", {{"recipients", json::array{"a@example.com"}}, {"notifyOwners", 1}}}},
       "config.notifyOwners"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(json::serialize(c.body));
    ExpectValidation(api().Post("/api/notification-channels", c.body, admin), c.field);
    ExpectValidation(api().Put("/notification-channels/" + id, c.body, admin), c.field);
  }
  // URLs that would turn deliveries against the network (docs/outbound.md):
  // refused at creation when the host is a literal address. The test server
  // runs in development mode, which allows loopback only.
  for (const char* url : {"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://10.0.0.7/hook",
                          "http://192.168.1.20:8080/x", "http://[fd12::1]/", "http://0.0.0.0:9/",
                          "http://[::ffff:169.254.169.254]/", "https://224.0.0.1/"}) {
    SCOPED_TRACE(url);
    auto created = api().Post("/api/notification-channels",
                              {{"name", "x"}, {"type", "webhook"}, {"config", {{"url", url}}}}, admin);
    ExpectProblem(created, 400, "url_not_allowed");
    EXPECT_EQ(*ErrorFields(created).begin(), "config.url");
    ExpectProblem(api().Put("/notification-channels/" + id,
                            {{"name", "x"}, {"type", "slack"}, {"config", {{"webhookUrl", url}}}}, admin),
                  400, "url_not_allowed");
  }
  // The same addresses written as inet_aton's numeric forms, which libcurl
  // connects to as the address they spell (docs/outbound.md): one decimal
  // number, hexadecimal, octal parts, a.b.c and a.b forms.
  for (const char* url : {"http://2852039166/", "http://0xa9fea9fe/latest/meta-data/", "http://0251.0376.0251.0376/",
                          "http://0xa9.0xfe.0xa9.0xfe/", "http://169.254.43518/", "http://169.16689662/",
                          "http://167772167/hook", "http://012.0.0.7/", "http://0x0a000007:8080/", "http://0/"}) {
    SCOPED_TRACE(url);
    auto webhook = api().Post("/api/notification-channels",
                              {{"name", "x"}, {"type", "webhook"}, {"config", {{"url", url}}}}, admin);
    ExpectProblem(webhook, 400, "url_not_allowed");
    EXPECT_EQ(ErrorFields(webhook), std::set<std::string>{"config.url"}) << webhook.body;
    for (const char* type : {"slack", "teams"}) {
      auto chat = api().Put("/notification-channels/" + id,
                            {{"name", "x"}, {"type", type}, {"config", {{"webhookUrl", url}}}}, admin);
      ExpectProblem(chat, 400, "url_not_allowed");
      EXPECT_EQ(ErrorFields(chat), std::set<std::string>{"config.webhookUrl"}) << chat.body;
    }
  }
  ExpectProblem(api().Send("POST", "/api/notification-channels", "{\"name\": ", admin), 400, "malformed_json");
  ExpectProblem(api().Send("PUT", "/api/notification-channels/" + id, "[", admin), 400, "malformed_json");
  for (const std::string path : {"/api/notification-channels/nope", "/api/notification-channels/nope/stats",
                                 "/notification-channels/nope/deliveries"})
    ExpectProblem(api().Get(path, admin), 400, "invalid_path_parameter");
  ExpectProblem(api().Post("/api/notification-channels/nope/test", json::object{}, admin), 400,
                "invalid_path_parameter");
  ExpectProblem(api().Delete("/notification-channels/nope", admin), 400, "invalid_path_parameter");

  // Names are unique in the tenant ignoring case and surrounding blanks.
  ExpectProblem(api().Post("/api/notification-channels", WebhookChannel(" EXISTING ", "https://example.com/2"), admin),
                409, "channel_name_taken");
  const std::string other = MakeChannel(t, WebhookChannel("Other", "https://example.com/3"));
  ExpectProblem(
      api().Put("/api/notification-channels/" + other, WebhookChannel("existing", "https://example.com/3"), admin), 409,
      "channel_name_taken");
  EXPECT_EQ(api()
                .Put("/api/notification-channels/" + id, WebhookChannel("EXISTING", "https://example.com/hook"), admin)
                .status,
            200);
  // Nothing else changed.
  const auto list = api().Get("/api/notification-channels", admin).Json().as_array();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(Str(list[0], "name"), "EXISTING");
  EXPECT_EQ(Str(list[1], "name"), "Other");
}

TEST_F(Notify, OnlyGlobalAdminsMayChangeThemOrSeeCredentials) {
  auto t = CreateTenant(api(), "ntf-403");
  const std::string to = UniqueAddress("redact");
  auto email_body = EmailChannel("Mail", {to, UniqueAddress("redact2")});
  email_body["config"].as_object()["notifyOwners"] = true;
  const std::string email = MakeChannel(t, email_body);
  const std::string slack =
      MakeChannel(t, ChatChannel("Chat", "slack", "https://hooks.slack.example/services/T0/B0/SLACKTOKEN"));
  const std::string hook =
      MakeChannel(t, WebhookChannel("Hook", "https://user:pw@audit.example:8443/in/HOOKTOKEN", kSecret));
  const std::string plain = MakeChannel(t, WebhookChannel("Plain", "https://plain.example/in"));

  for (const char* persona : {"editor", "viewer", "guest"}) {
    SCOPED_TRACE(persona);
    const std::string token = t.token(persona);
    for (const std::string base : {"/api/notification-channels", "/notification-channels"}) {
      ExpectProblem(api().Post(base, WebhookChannel("Nope", "https://example.com"), token), 403, "forbidden");
      ExpectProblem(api().Put(base + "/" + hook, WebhookChannel("Nope", "https://example.com"), token), 403,
                    "forbidden");
      ExpectProblem(api().Delete(base + "/" + hook, token), 403, "forbidden");
      ExpectProblem(api().Post(base + "/" + hook + "/test", json::object{}, token), 403, "forbidden");
      ExpectProblem(api().Get(base + "/" + hook + "/deliveries", token), 403, "forbidden");
      // Reading is for everyone, without the credentials.
      auto list = api().Get(base, token);
      ASSERT_EQ(list.status, 200) << list.body;
      EXPECT_EQ(list.Json().as_array().size(), 4u);
      for (const std::string& secret :
           {std::string(kSecret), std::string("SLACKTOKEN"), std::string("HOOKTOKEN"), to, std::string("user:pw")})
        EXPECT_EQ(list.body.find(secret), std::string::npos) << secret;
      EXPECT_EQ(api().Get(base + "/" + hook + "/stats", token).status, 200);
    }
    auto e = api().Get("/api/notification-channels/" + email, token).Json();
    EXPECT_EQ(json::serialize(e.at("config")), R"({"recipientCount":2,"notifyOwners":true})");
    auto s = api().Get("/api/notification-channels/" + slack, token).Json();
    EXPECT_EQ(json::serialize(s.at("config")), R"({"host":"hooks.slack.example"})");
    auto h = api().Get("/api/notification-channels/" + hook, token).Json();
    EXPECT_EQ(json::serialize(h.at("config")), R"({"host":"audit.example","signed":true})");
    auto p = api().Get("/api/notification-channels/" + plain, token).Json();
    EXPECT_EQ(json::serialize(p.at("config")), R"({"host":"plain.example","signed":false})");
  }
  ExpectProblem(api().Get("/api/notification-channels"), 401, "missing_credentials");
  ExpectProblem(api().Get("/api/notification-channels/" + hook + "/stats"), 401, "missing_credentials");
  // Nothing changed, nothing queued.
  auto h = api().Get("/api/notification-channels/" + hook, t.token("admin")).Json();
  EXPECT_EQ(Str(h, "name"), "Hook");
  EXPECT_EQ(Str(h.at("config"), "secret"), kSecret);
  EXPECT_TRUE(Deliveries(t, hook).empty());
}

TEST_F(Notify, AnotherTenantsChannelsAreNotFound) {
  auto a = CreateTenant(api(), "ntf-iso-a");
  auto b = CreateTenant(api(), "ntf-iso-b");
  const std::string mine = MakeChannel(a, WebhookChannel("Mine", "https://a.example/hook", kSecret));
  const std::string admin = b.token("admin");
  for (const std::string base : {"/api/notification-channels", "/notification-channels"}) {
    for (const std::string& id : {mine, std::string(kUnknownId)}) {
      SCOPED_TRACE(base + "/" + id);
      ExpectProblem(api().Get(base + "/" + id, admin), 404, "not_found");
      ExpectProblem(api().Get(base + "/" + id, b.token("viewer")), 404, "not_found");
      ExpectProblem(api().Put(base + "/" + id, WebhookChannel("Theirs", "https://b.example"), admin), 404, "not_found");
      ExpectProblem(api().Delete(base + "/" + id, admin), 404, "not_found");
      ExpectProblem(api().Post(base + "/" + id + "/test", json::object{}, admin), 404, "not_found");
      ExpectProblem(api().Get(base + "/" + id + "/stats", admin), 404, "not_found");
      ExpectProblem(api().Get(base + "/" + id + "/stats", b.token("viewer")), 404, "not_found");
      ExpectProblem(api().Get(base + "/" + id + "/deliveries", admin), 404, "not_found");
    }
    EXPECT_TRUE(api().Get(base, admin).Json().as_array().empty());
  }
  // The name may be reused in another tenant; the channel is untouched.
  EXPECT_EQ(api().Post("/api/notification-channels", WebhookChannel("Mine", "https://b.example"), admin).status, 201);
  EXPECT_EQ(Str(api().Get("/api/notification-channels/" + mine, a.token("admin")).Json(), "name"), "Mine");
  EXPECT_TRUE(Deliveries(a, mine).empty());
}

TEST_F(Notify, TestSendDeliversRealEmail) {
  auto t = CreateTenant(api(), "ntf-mail");
  const std::string to = UniqueAddress("ops");
  const std::string cc = UniqueAddress("lead");
  const std::string name = "Équipe Ops ✓";
  const std::string id = MakeChannel(t, EmailChannel(name, {to, cc}));
  const std::string delivery = SendTest(t, id);

  auto queued = Deliveries(t, id);
  ASSERT_EQ(queued.size(), 1u);
  EXPECT_EQ(Str(queued[0], "id"), delivery);
  EXPECT_EQ(Str(queued[0], "event"), "channel.test");
  EXPECT_EQ(Str(queued[0], "status"), "pending");
  EXPECT_EQ(queued[0].at("attempts").as_int64(), 0);
  EXPECT_FALSE(queued[0].at("nextAttemptAt").is_null());
  EXPECT_EQ(Stats(t, id).at("pendingCount").as_int64(), 1);
  EXPECT_TRUE(SharedSmtpSink().MessagesTo(to).empty());

  RunJobs(api());
  const auto messages = SharedSmtpSink().MessagesTo(to);
  ASSERT_EQ(messages.size(), 1u);
  const auto& m = messages[0];
  EXPECT_EQ(m.at("mailFrom").as_string(), "credence@localhost");
  EXPECT_EQ(Strings(m.at("rcptTos")), (std::vector<std::string>{to, cc}));
  const auto& headers = m.at("headers");
  EXPECT_EQ(Str(headers, "Subject"), "Credence test notification: " + name);
  EXPECT_EQ(Str(m.at("rawHeaders"), "Subject").rfind("=?UTF-8?B?", 0), 0u) << m.at("rawHeaders");
  EXPECT_NE(Str(headers, "To").find(to), std::string::npos);
  EXPECT_NE(Str(headers, "To").find(cc), std::string::npos);
  EXPECT_EQ(Str(headers, "From"), "credence@localhost");
  EXPECT_EQ(Str(headers, "Message-ID"), "<" + delivery + "@localhost>");
  EXPECT_EQ(Str(headers, "X-Credence-Delivery"), delivery);
  EXPECT_EQ(Str(headers, "X-Credence-Event"), "channel.test");
  EXPECT_EQ(Str(headers, "MIME-Version"), "1.0");
  EXPECT_NE(Str(headers, "Content-Type").find("text/plain"), std::string::npos);
  EXPECT_NE(Str(headers, "Date").find(" +0000"), std::string::npos) << Str(headers, "Date");
  EXPECT_NE(Str(m, "body").find("'" + name + "' (email)"), std::string::npos) << m.at("body");
  EXPECT_TRUE(m.at("crlfOnly").as_bool());
  EXPECT_EQ(SharedSmtpSink().MessagesTo(cc).size(), 1u);

  auto done = Deliveries(t, id);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(Str(done[0], "status"), "delivered");
  EXPECT_EQ(done[0].at("attempts").as_int64(), 1);
  EXPECT_TRUE(done[0].at("lastError").is_null());
  EXPECT_TRUE(done[0].at("nextAttemptAt").is_null());
  EXPECT_FALSE(done[0].at("deliveredAt").is_null());
  auto stats = Stats(t, id);
  EXPECT_EQ(stats.at("successCount").as_int64(), 1);
  EXPECT_EQ(stats.at("failureCount").as_int64(), 0);
  EXPECT_FALSE(stats.at("lastUsedAt").is_null());
  EXPECT_EQ(stats.at("pendingCount").as_int64(), 0);

  // Delivered once: another pass sends nothing more.
  RunJobs(api());
  EXPECT_EQ(SharedSmtpSink().MessagesTo(to).size(), 1u);
}

TEST_F(Notify, TestSendPostsToSlackTeamsAndWebhooks) {
  auto t = CreateTenant(api(), "ntf-http");
  HttpSink sink;
  const std::string slack = MakeChannel(t, ChatChannel("Slack", "slack", sink.url("/slack")));
  const std::string teams = MakeChannel(t, ChatChannel("Teams", "teams", sink.url("/teams")));
  const std::string signed_hook = MakeChannel(t, WebhookChannel("Signed", sink.url("/signed"), kSecret));
  const std::string plain_hook = MakeChannel(t, WebhookChannel("Plain", sink.url("/plain")));
  // A disabled channel still takes test sends: they are probes.
  auto disabled_body = WebhookChannel("Disabled", sink.url("/disabled"));
  disabled_body["isEnabled"] = false;
  const std::string disabled = MakeChannel(t, disabled_body);
  std::map<std::string, std::string> delivery_of;
  for (const auto& id : {slack, teams, signed_hook, plain_hook, disabled}) delivery_of[id] = SendTest(t, id);
  EXPECT_TRUE(sink.Posts().empty());

  RunJobs(api());
  std::map<std::string, ReceivedPost> by_path;
  for (auto& p : sink.Posts()) by_path[p.path] = p;
  ASSERT_EQ(by_path.size(), 5u);
  for (const auto& [path, p] : by_path) {
    EXPECT_EQ(p.Header("content-type"), "application/json") << path;
    EXPECT_EQ(p.status, 200);
  }

  const auto s = by_path["/slack"].Json().as_object();
  EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(Str(s, "text"),
            "Credence test notification: Slack\nThis is a test message for the notification "
            "channel 'Slack' (slack).\nIf you can read it, the channel works.");

  const auto m = by_path["/teams"].Json().as_object();
  EXPECT_EQ(Str(m, "@type"), "MessageCard");
  EXPECT_EQ(Str(m, "@context"), "https://schema.org/extensions");
  EXPECT_EQ(Str(m, "summary"), "Credence test notification: Teams");
  EXPECT_EQ(Str(m, "title"), "Credence test notification: Teams");
  EXPECT_NE(Str(m, "text").find("'Teams' (teams)"), std::string::npos);

  const ReceivedPost& hp = by_path["/signed"];
  const auto h = hp.Json().as_object();
  EXPECT_EQ(Str(h, "event"), "channel.test");
  EXPECT_EQ(Str(h, "deliveryId"), delivery_of[signed_hook]);
  EXPECT_EQ(Str(h, "tenantId"), t.id);
  EXPECT_TRUE(ParseTimestamp(Str(h, "occurredAt")).has_value());
  EXPECT_EQ(Str(h, "subject"), "Credence test notification: Signed");
  EXPECT_NE(Str(h, "text").find("'Signed' (webhook)"), std::string::npos);
  EXPECT_EQ(Str(h.at("data"), "channelId"), signed_hook);
  EXPECT_EQ(Str(h.at("data"), "channelName"), "Signed");
  EXPECT_EQ(Str(h.at("data"), "requestedBy"), t.user_ids.at("admin"));
  EXPECT_EQ(hp.Header("x-credence-event"), "channel.test");
  EXPECT_EQ(hp.Header("x-credence-delivery"), delivery_of[signed_hook]);
  // The signature covers the exact bytes received.
  EXPECT_EQ(hp.Header("x-credence-signature"), "sha256=" + HmacHex(kSecret, hp.body));
  EXPECT_NE(hp.Header("x-credence-signature"), "sha256=" + HmacHex("another-secret-of-length", hp.body));

  const ReceivedPost& pp = by_path["/plain"];
  EXPECT_EQ(pp.Header("x-credence-delivery"), delivery_of[plain_hook]);
  EXPECT_EQ(pp.Header("x-credence-signature"), "");
  EXPECT_EQ(Str(by_path["/disabled"].Json(), "deliveryId"), delivery_of[disabled]);

  for (const auto& id : {slack, teams, signed_hook, plain_hook, disabled}) {
    EXPECT_EQ(Stats(t, id).at("successCount").as_int64(), 1) << id;
    EXPECT_EQ(Str(Deliveries(t, id)[0], "status"), "delivered") << id;
  }
  RunJobs(api());
  EXPECT_EQ(sink.Posts().size(), 5u);
}

TEST_F(Notify, AFailingReceiverIsRetriedAfterTheBackOff) {
  auto t = CreateTenant(api(), "ntf-retry");
  HttpSink sink(/*fail_first=*/1);
  const std::string id = MakeChannel(t, WebhookChannel("Flaky", sink.url()));
  const std::string delivery = SendTest(t, id);

  RunJobs(api());
  ASSERT_EQ(PostsOf(sink, delivery).size(), 1u);
  EXPECT_EQ(PostsOf(sink, delivery)[0].status, 500);
  auto stats = Stats(t, id);
  EXPECT_EQ(stats.at("successCount").as_int64(), 0);
  EXPECT_EQ(stats.at("failureCount").as_int64(), 1);
  EXPECT_EQ(stats.at("pendingCount").as_int64(), 1);
  ASSERT_FALSE(stats.at("lastUsedAt").is_null());
  auto d = Deliveries(t, id);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(Str(d[0], "status"), "pending");
  EXPECT_EQ(d[0].at("attempts").as_int64(), 1);
  EXPECT_NE(Str(d[0], "lastError").find("HTTP 500"), std::string::npos) << d[0];
  const TimeMs failed_at = *ParseTimestamp(Str(stats, "lastUsedAt"));
  EXPECT_EQ(*ParseTimestamp(Str(d[0], "nextAttemptAt")), failed_at + 30'000);

  // Not before the back-off has passed.
  SetServerTime(api(), FormatTimestamp(failed_at + 29'000));
  RunJobs(api());
  EXPECT_EQ(PostsOf(sink, delivery).size(), 1u);
  SetServerTime(api(), FormatTimestamp(failed_at + 30'000));
  RunJobs(api());
  const auto posts = PostsOf(sink, delivery);
  ASSERT_EQ(posts.size(), 2u);
  EXPECT_EQ(posts[1].status, 200);
  EXPECT_EQ(posts[1].body, posts[0].body) << "a retry sends the same delivery";

  stats = Stats(t, id);
  EXPECT_EQ(stats.at("successCount").as_int64(), 1);
  EXPECT_EQ(stats.at("failureCount").as_int64(), 1);
  EXPECT_EQ(stats.at("pendingCount").as_int64(), 0);
  EXPECT_EQ(*ParseTimestamp(Str(stats, "lastUsedAt")), failed_at + 30'000);
  d = Deliveries(t, id);
  EXPECT_EQ(Str(d[0], "status"), "delivered");
  EXPECT_EQ(d[0].at("attempts").as_int64(), 2);
  EXPECT_TRUE(d[0].at("lastError").is_null());
  EXPECT_EQ(Str(d[0], "deliveredAt"), FormatTimestamp(failed_at + 30'000));
}

TEST_F(Notify, ADeliveryThatNeverSucceedsIsDeadAfterEightAttempts) {
  auto t = CreateTenant(api(), "ntf-dead");
  HttpSink sink(/*fail_first=*/1000);
  const std::string id = MakeChannel(t, WebhookChannel("Broken", sink.url()));
  const std::string delivery = SendTest(t, id);
  for (int attempt = 1; attempt <= 8; ++attempt) {
    SCOPED_TRACE(attempt);
    RunJobs(api());
    EXPECT_EQ(PostsOf(sink, delivery).size(), static_cast<size_t>(attempt));
    const auto d = Deliveries(t, id)[0];
    EXPECT_EQ(d.at("attempts").as_int64(), attempt);
    EXPECT_EQ(Str(d, "status"), attempt < 8 ? "pending" : "dead");
    // The longest back-off is an hour.
    AdvanceServerDays(api(), 1.0 / 24 + 0.001);
  }
  const auto d = Deliveries(t, id)[0];
  EXPECT_TRUE(d.at("nextAttemptAt").is_null());
  EXPECT_NE(Str(d, "lastError").find("HTTP 500"), std::string::npos);
  const auto stats = Stats(t, id);
  EXPECT_EQ(stats.at("failureCount").as_int64(), 8);
  EXPECT_EQ(stats.at("successCount").as_int64(), 0);
  EXPECT_EQ(stats.at("pendingCount").as_int64(), 0);
  AdvanceServerDays(api(), 7);
  RunJobs(api());
  EXPECT_EQ(PostsOf(sink, delivery).size(), 8u);
}

TEST_F(Notify, FixingAChannelFixesItsQueuedDeliveries) {
  auto t = CreateTenant(api(), "ntf-fix");
  HttpSink sink;
  const std::string id = MakeChannel(t, WebhookChannel("Typo", "http://127.0.0.1:9/nothing-listens"));
  const std::string delivery = SendTest(t, id);
  RunJobs(api());
  auto d = Deliveries(t, id);
  EXPECT_EQ(Str(d[0], "status"), "pending");
  EXPECT_NE(Str(d[0], "lastError").find("HTTP request failed"), std::string::npos) << d[0];

  ASSERT_EQ(api().Put("/api/notification-channels/" + id, WebhookChannel("Typo", sink.url()), t.token("admin")).status,
            200);
  AdvanceServerDays(api(), 1.0 / 24);
  RunJobs(api());
  ASSERT_EQ(PostsOf(sink, delivery).size(), 1u);
  EXPECT_EQ(Str(Deliveries(t, id)[0], "status"), "delivered");

  // Deleting the channel takes its deliveries along.
  SendTest(t, id);
  ASSERT_EQ(api().Delete("/api/notification-channels/" + id, t.token("admin")).status, 204);
  RunJobs(api());
  EXPECT_EQ(sink.Posts().size(), 1u);
}

// ---- The outbox's promises, on servers of their own.

TEST_F(Notify, ADownChannelNeverSlowsTheApi) {
  // Background jobs on: the worker is stuck on the receiver that never
  // answers (for the 5 s timeout) while the API is used.
  ServerProcess server({.dev = true, .extra_args = {"--jobs-interval-ms", "100"}});
  HttpClient client(server.base_url());
  auto t = CreateTenant(client, "ntf-down");
  BlackHole hole;
  const std::string id = MakeChannel(client, t, WebhookChannel("Hangs", hole.url()));

  const auto sent_at = steady_clock::now();
  SendTest(client, t, id);
  EXPECT_LT(steady_clock::now() - sent_at, milliseconds(1000));
  // Meanwhile the worker has picked the delivery up and waits on the hole.
  for (int i = 0; i < 20; ++i) {
    const auto before = steady_clock::now();
    auto stats = client.Get("/api/notification-channels/" + id + "/stats", t.token("viewer"));
    EXPECT_EQ(stats.status, 200);
    auto created = client.Post("/api/notification-channels", WebhookChannel("Another " + std::to_string(i), hole.url()),
                               t.token("admin"));
    EXPECT_EQ(created.status, 201);
    EXPECT_LT(steady_clock::now() - before, milliseconds(1000)) << i;
  }
  if (steady_clock::now() - sent_at < milliseconds(4000)) {
    EXPECT_EQ(Stats(client, t, id).at("failureCount").as_int64(), 0) << "still waiting on the receiver";
  }
  ASSERT_TRUE(WaitUntil([&] { return Stats(client, t, id).at("failureCount").as_int64() == 1; }, milliseconds(15'000)));
  const auto d = Deliveries(client, t, id);
  EXPECT_EQ(Str(d[0], "status"), "pending");
  EXPECT_NE(Str(d[0], "lastError").find("timed out"), std::string::npos) << d[0];
}

TEST_F(Notify, NothingQueuedIsLostAcrossACrash) {
  ServerProcess server({.dev = true, .extra_args = {"--test-clock", "--jobs-interval-ms", "0"}});
  HttpSink sink;
  std::string delivery;
  TestTenant t;
  std::string id;
  {
    HttpClient client(server.base_url());
    t = CreateTenant(client, "ntf-crash");
    id = MakeChannel(client, t, WebhookChannel("Survivor", sink.url()));
    delivery = SendTest(client, t, id);
  }
  server.Kill();  // SIGKILL, before any job ran
  server.Restart();
  HttpClient client(server.base_url());
  EXPECT_TRUE(sink.Posts().empty());
  RunJobs(client);
  RunJobs(client);
  const auto posts = sink.Posts();
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_EQ(posts[0].Header("x-credence-delivery"), delivery);
  const auto d = Deliveries(client, t, id);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(Str(d[0], "status"), "delivered");
  EXPECT_EQ(d[0].at("attempts").as_int64(), 1);
}

TEST_F(Notify, BackgroundJobsDeliverWithoutBeingAsked) {
  ServerProcess server({.dev = true, .extra_args = {"--jobs-interval-ms", "100"}});
  HttpClient client(server.base_url());
  HttpSink sink;
  auto t = CreateTenant(client, "ntf-background");
  const std::string id = MakeChannel(client, t, ChatChannel("Room", "teams", sink.url("/teams")));
  const std::string delivery = SendTest(client, t, id);
  ASSERT_TRUE(WaitUntil([&] { return !sink.Posts().empty(); }, milliseconds(10'000)));
  EXPECT_EQ(Str(sink.Posts()[0].Json(), "@type"), "MessageCard");
  ASSERT_TRUE(WaitUntil([&] { return Stats(client, t, id).at("successCount").as_int64() == 1; }, milliseconds(10'000)));
  EXPECT_EQ(Str(Deliveries(client, t, id)[0], "id"), delivery);
  EXPECT_EQ(sink.Posts().size(), 1u);
}

}  // namespace
}  // namespace credence::test
