// Webhooks over real HTTP (docs/webhooks.md), delivering to real receivers
// (tests/support/http_sink.py): every endpoint, validation (URLs, the SSRF
// rule for literal addresses, event types), who may call them, isolation
// between tenants, Standard Webhooks signatures checked by an independent
// verifier (tests/support/verify_webhook.py: Python's hmac and base64, not
// the server's code), retries, secret rotation with both signatures during
// the grace period, test events, redelivery, disabling after a day of
// failures (audited), and events emitted by real actions. Runs on SQLite
// and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/ids.h"
#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"
#include "support/sinks.h"

namespace credence::test {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

// Runs the independent verifier on one received post with `secret`.
bool Verified(const std::string& secret, const ReceivedPost& post) {
  char path[] = "/tmp/credence-whverify-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return false;
  ::close(fd);
  {
    std::ofstream f(path);
    f << json::serialize(json::object{{"secret", secret},
                                      {"id", post.Header("webhook-id")},
                                      {"timestamp", post.Header("webhook-timestamp")},
                                      {"body", post.body},
                                      {"signature", post.Header("webhook-signature")}});
  }
  const std::string command = std::string("python3 ") + CREDENCE_TESTS_DIR + "/support/verify_webhook.py " + path;
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buffer[64];
    while (::fgets(buffer, sizeof buffer, p) != nullptr) out += buffer;
    ::pclose(p);
  }
  ::unlink(path);
  return out == "ok\n";
}

json::array Array(const std::vector<std::string>& values) {
  json::array out;
  for (const auto& v : values) out.emplace_back(v);
  return out;
}

class Webhooks : public ClockedApiTest {
 protected:
  // Registers a webhook; returns {id, secret}.
  std::pair<std::string, std::string> Make(const TestTenant& t, const std::string& url,
                                           const std::vector<std::string>& types = {"entry.published"}) {
    auto r = api().Post("/webhooks", {{"url", url}, {"eventTypes", Array(types)}, {"description", "test"}},
                        t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    if (r.status != 201) return {};
    return {Str(r.Json(), "id"), Str(r.Json(), "secret")};
  }

  std::string SendTest(const TestTenant& t, const std::string& id) {
    auto r = api().Post("/webhooks/" + id + "/test", json::object{}, t.token("admin"));
    EXPECT_EQ(r.status, 202) << r.body;
    return r.status == 202 ? Str(r.Json(), "deliveryId") : "";
  }

  json::array Deliveries(const TestTenant& t, const std::string& id) {
    auto r = api().Get("/webhooks/" + id + "/deliveries", t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().as_array() : json::array{};
  }

  json::object Delivery(const TestTenant& t, const std::string& id, const std::string& delivery) {
    for (const auto& d : Deliveries(t, id))
      if (Str(d, "id") == delivery) return d.as_object();
    ADD_FAILURE() << "no delivery " << delivery;
    return {};
  }

  static std::vector<ReceivedPost> PostsOf(const HttpSink& sink, const std::string& delivery_id) {
    std::vector<ReceivedPost> out;
    for (auto& p : sink.Posts())
      if (p.Header("webhook-id") == delivery_id) out.push_back(std::move(p));
    return out;
  }

  static std::vector<ReceivedPost> PostsOfType(const HttpSink& sink, const std::string& type) {
    std::vector<ReceivedPost> out;
    for (auto& p : sink.Posts())
      if (Str(p.Json(), "type") == type) out.push_back(std::move(p));
    return out;
  }

  json::array Audit(const TestTenant& t, const std::string& action) {
    auto r = api().Get("/api/admin/audit?action=" + action, t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().at("entries").as_array() : json::array{};
  }
};

TEST_F(Webhooks, CrudWithTheSecretShownOnceAndEveryChangeAudited) {
  auto t = CreateTenant(api(), "wh-crud");
  const std::string admin = t.token("admin");
  auto created = api().Post("/webhooks",
                            {{"url", "https://hooks.example.com/credence"},
                             {"eventTypes", {"entry.updated", "entry.published", "entry.published"}},
                             {"description", "CI"}},
                            admin);
  ASSERT_EQ(created.status, 201) << created.body;
  const json::value w = created.Json();
  const std::string id = Str(w, "id");
  EXPECT_EQ(id.size(), 36u);
  const std::string secret = Str(w, "secret");
  ASSERT_TRUE(secret.starts_with("whsec_")) << secret;
  EXPECT_EQ(secret.size(), 6u + 32u) << "base64 of 24 bytes";
  EXPECT_EQ(Str(w, "url"), "https://hooks.example.com/credence");
  // Deduplicated, in catalog order.
  EXPECT_EQ(Strings(w.at("eventTypes")), (std::vector<std::string>{"entry.published", "entry.updated"}));
  EXPECT_TRUE(w.at("enabled").as_bool());
  EXPECT_TRUE(w.at("disabledReason").is_null());
  EXPECT_TRUE(w.at("previousSecretUntil").is_null());

  auto list = api().Get("/webhooks", admin);
  ASSERT_EQ(list.status, 200);
  ASSERT_EQ(list.Json().as_array().size(), 1u);
  EXPECT_FALSE(list.Json().as_array()[0].as_object().contains("secret"));
  EXPECT_EQ(list.body.find(secret), std::string::npos);
  auto got = api().Get("/webhooks/" + id, admin);
  ASSERT_EQ(got.status, 200);
  EXPECT_FALSE(got.Json().as_object().contains("secret"));
  EXPECT_EQ(Str(got.Json(), "description"), "CI");

  auto patched = api().Patch("/webhooks/" + id, {{"enabled", false}, {"eventTypes", {"apikey.created"}}}, admin);
  ASSERT_EQ(patched.status, 200) << patched.body;
  EXPECT_FALSE(patched.Json().at("enabled").as_bool());
  EXPECT_EQ(Strings(patched.Json().at("eventTypes")), std::vector<std::string>{"apikey.created"});
  EXPECT_EQ(Str(patched.Json(), "url"), "https://hooks.example.com/credence") << "fields left out are kept";
  EXPECT_EQ(Str(patched.Json(), "description"), "CI");

  auto rotated = api().Post("/webhooks/" + id + "/rotate-secret", json::object{}, admin);
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  EXPECT_NE(Str(rotated.Json(), "secret"), secret);
  EXPECT_FALSE(rotated.Json().at("previousSecretUntil").is_null());

  EXPECT_EQ(api().Delete("/webhooks/" + id, admin).status, 204);
  ExpectProblem(api().Get("/webhooks/" + id, admin), 404, "not_found");
  EXPECT_TRUE(api().Get("/webhooks", admin).Json().as_array().empty());

  for (const char* action : {"webhook.created", "webhook.updated", "webhook.secret_rotated", "webhook.deleted"}) {
    const auto entries = Audit(t, action);
    ASSERT_EQ(entries.size(), 1u) << action;
    EXPECT_EQ(Str(entries[0].at("target"), "id"), id) << action;
    EXPECT_EQ(Str(entries[0].at("actor"), "id"), t.user_ids.at("admin")) << action;
    EXPECT_EQ(json::serialize(entries[0]).find(secret), std::string::npos) << "no secret in the audit log";
  }
}

TEST_F(Webhooks, ValidationRefusesBadUrlsPrivateAddressesAndUnknownEventTypes) {
  auto t = CreateTenant(api(), "wh-valid");
  const std::string admin = t.token("admin");
  auto post = [&](json::object body) { return api().Post("/webhooks", body, admin); };
  ExpectValidation(post({{"eventTypes", {"entry.published"}}}), "url");
  ExpectValidation(post({{"url", "https://x.example"}}), "eventTypes");
  ExpectValidation(post({{"url", "ftp://x.example/hook"}, {"eventTypes", {"entry.published"}}}), "url");
  ExpectValidation(post({{"url", "not a url"}, {"eventTypes", {"entry.published"}}}), "url");
  auto unknown = post({{"url", "https://x.example"}, {"eventTypes", {"entry.published", "entry.exploded"}}});
  EXPECT_EQ(unknown.status, 400) << unknown.body;
  EXPECT_EQ(ErrorFields(unknown).count("eventTypes[1]"), 1u) << unknown.body;
  ExpectValidation(post({{"url", "https://x.example"}, {"eventTypes", json::array{}}}), "eventTypes");
  ExpectValidation(post({{"url", "https://x.example"}, {"eventTypes", {"webhook.test"}}}), "eventTypes[0]");
  for (const char* url : {"http://169.254.169.254/latest/meta-data", "http://10.0.0.8/hook", "http://192.168.1.1/",
                          "http://[fd00:ec2::254]/", "http://[::ffff:10.1.2.3]/"}) {
    SCOPED_TRACE(url);
    ExpectProblem(post({{"url", url}, {"eventTypes", {"entry.published"}}}), 400, "url_not_allowed");
  }
  auto [id, secret] = Make(t, "https://ok.example/hook");
  ExpectProblem(api().Patch("/webhooks/" + id, {{"url", "http://169.254.169.254/"}}, admin), 400, "url_not_allowed");
  // inet_aton's numeric forms are the addresses they spell (docs/outbound.md):
  // 169.254.169.254 and 10.0.0.7 as one number, in hexadecimal and octal parts.
  for (const char* url :
       {"http://2852039166/", "https://0xa9fea9fe/", "http://0251.0376.0251.0376/x", "http://0xa9.0xfe.0xa9.0xfe/",
        "http://169.254.43518/", "http://167772167/", "http://012.0.0.7/hook", "https://0x0a.0.0.7/"}) {
    SCOPED_TRACE(url);
    auto created = post({{"url", url}, {"eventTypes", {"entry.published"}}});
    ExpectProblem(created, 400, "url_not_allowed");
    EXPECT_EQ(ErrorFields(created).count("url"), 1u) << created.body;
    auto patched = api().Patch("/webhooks/" + id, {{"url", url}}, admin);
    ExpectProblem(patched, 400, "url_not_allowed");
    EXPECT_EQ(ErrorFields(patched).count("url"), 1u) << patched.body;
  }
  ExpectValidation(api().Patch("/webhooks/" + id, {{"eventTypes", {"nope"}}}, admin), "eventTypes[0]");
  EXPECT_TRUE(api().Get("/webhooks", admin).Json().as_array().size() == 1);
}

TEST_F(Webhooks, OnlyTenantAdminsAndAnotherTenantsWebhookIsNotFound) {
  auto a = CreateTenant(api(), "wh-iso-a");
  auto b = CreateTenant(api(), "wh-iso-b");
  auto [id, secret] = Make(a, "https://a.example/hook");
  for (const char* persona : {"editor", "viewer"}) {
    SCOPED_TRACE(persona);
    ExpectProblem(api().Get("/webhooks", a.token(persona)), 403, "forbidden");
    ExpectProblem(
        api().Post("/webhooks", {{"url", "https://a.example"}, {"eventTypes", {"entry.published"}}}, a.token(persona)),
        403, "forbidden");
    ExpectProblem(api().Get("/webhooks/" + id, a.token(persona)), 403, "forbidden");
  }
  const std::string other = b.token("admin");
  EXPECT_TRUE(api().Get("/webhooks", other).Json().as_array().empty());
  ExpectProblem(api().Get("/webhooks/" + id, other), 404, "not_found");
  ExpectProblem(api().Patch("/webhooks/" + id, {{"enabled", false}}, other), 404, "not_found");
  ExpectProblem(api().Delete("/webhooks/" + id, other), 404, "not_found");
  ExpectProblem(api().Post("/webhooks/" + id + "/test", json::object{}, other), 404, "not_found");
  ExpectProblem(api().Post("/webhooks/" + id + "/rotate-secret", json::object{}, other), 404, "not_found");
  ExpectProblem(api().Get("/webhooks/" + id + "/deliveries", other), 404, "not_found");
  ExpectProblem(api().Post("/webhooks/" + id + "/deliveries/" + kUnknownId + "/redeliver", json::object{}, other), 404,
                "not_found");
  ExpectProblem(api().Get(std::string("/webhooks/") + kUnknownId, a.token("admin")), 404, "not_found");
  EXPECT_EQ(api().Get("/webhooks/" + id, a.token("admin")).status, 200) << "still there";
  // No alias: webhooks are listed once in the spec (decisions.md 9).
  EXPECT_EQ(api().Get("/api/webhooks", a.token("admin")).status, 404);
}

TEST_F(Webhooks, ATestEventIsSignedPerStandardWebhooks) {
  auto t = CreateTenant(api(), "wh-sign");
  HttpSink sink;
  auto [id, secret] = Make(t, sink.url());
  const std::string delivery = SendTest(t, id);
  EXPECT_TRUE(sink.Posts().empty()) << "nothing is sent on the request path";
  RunJobs(api());
  const auto posts = PostsOf(sink, delivery);
  ASSERT_EQ(posts.size(), 1u);
  const ReceivedPost& p = posts[0];
  EXPECT_EQ(p.Header("content-type"), "application/json");
  EXPECT_EQ(p.Header("webhook-id"), delivery);
  const auto now_s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_NEAR(std::stoll(p.Header("webhook-timestamp")), now_s, 120);
  EXPECT_TRUE(p.Header("webhook-signature").starts_with("v1,")) << p.Header("webhook-signature");
  EXPECT_EQ(p.Header("webhook-signature").find(' '), std::string::npos) << "one secret, one signature";
  EXPECT_TRUE(Verified(secret, p));
  EXPECT_FALSE(Verified("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", p)) << "another secret does not verify";
  ReceivedPost tampered = p;
  tampered.body += " ";
  EXPECT_FALSE(Verified(secret, tampered));

  const json::value body = p.Json();
  EXPECT_EQ(body.as_object().size(), 3u) << p.body;
  EXPECT_EQ(Str(body, "type"), "webhook.test");
  EXPECT_TRUE(ParseTimestamp(Str(body, "timestamp")).has_value());
  EXPECT_EQ(Str(body.at("data"), "webhookId"), id);

  const auto d = Delivery(t, id, delivery);
  EXPECT_EQ(Str(d, "status"), "delivered");
  EXPECT_EQ(Str(d, "eventType"), "webhook.test");
  EXPECT_EQ(d.at("attempts").as_int64(), 1);
  EXPECT_EQ(d.at("responseCode").as_int64(), 200);
  EXPECT_TRUE(d.at("lastError").is_null());
  EXPECT_FALSE(d.at("deliveredAt").is_null());
  EXPECT_EQ(Audit(t, "webhook.tested").size(), 1u);
}

TEST_F(Webhooks, AFailingReceiverIsRetriedWithBackOffAndJitterThenRedelivered) {
  auto t = CreateTenant(api(), "wh-retry");
  HttpSink sink(/*fail_first=*/1);
  auto [id, secret] = Make(t, sink.url());
  const std::string delivery = SendTest(t, id);
  RunJobs(api());
  ASSERT_EQ(PostsOf(sink, delivery).size(), 1u);
  auto d = Delivery(t, id, delivery);
  EXPECT_EQ(Str(d, "status"), "pending");
  EXPECT_EQ(d.at("attempts").as_int64(), 1);
  EXPECT_EQ(d.at("responseCode").as_int64(), 500);
  EXPECT_NE(Str(d, "lastError").find("HTTP 500"), std::string::npos);
  // 5 s, stretched by at most 20% of jitter.
  const TimeMs now = *ParseTimestamp(ServerTime(api()));
  const TimeMs next = *ParseTimestamp(Str(d, "nextAttemptAt"));
  EXPECT_GE(next - now, 4'000);
  EXPECT_LE(next - now, 6'500);

  SetServerTime(api(), FormatTimestamp(next - 1));
  RunJobs(api());
  EXPECT_EQ(PostsOf(sink, delivery).size(), 1u) << "not before the back-off";
  SetServerTime(api(), FormatTimestamp(next));
  RunJobs(api());
  const auto posts = PostsOf(sink, delivery);
  ASSERT_EQ(posts.size(), 2u);
  EXPECT_EQ(posts[1].status, 200);
  EXPECT_EQ(posts[1].body, posts[0].body) << "a retry sends the same message";
  EXPECT_TRUE(Verified(secret, posts[0]));
  EXPECT_TRUE(Verified(secret, posts[1]));
  d = Delivery(t, id, delivery);
  EXPECT_EQ(Str(d, "status"), "delivered");
  EXPECT_EQ(d.at("attempts").as_int64(), 2);
  EXPECT_EQ(d.at("responseCode").as_int64(), 200);

  // Redeliver: the same body again, as a new message.
  auto again =
      api().Post("/webhooks/" + id + "/deliveries/" + delivery + "/redeliver", json::object{}, t.token("admin"));
  ASSERT_EQ(again.status, 202) << again.body;
  const std::string second = Str(again.Json(), "deliveryId");
  EXPECT_NE(second, delivery);
  RunJobs(api());
  const auto redelivered = PostsOf(sink, second);
  ASSERT_EQ(redelivered.size(), 1u);
  EXPECT_EQ(redelivered[0].body, posts[0].body);
  EXPECT_TRUE(Verified(secret, redelivered[0]));
  EXPECT_EQ(Deliveries(t, id).size(), 2u);
  ExpectProblem(
      api().Post("/webhooks/" + id + "/deliveries/" + kUnknownId + "/redeliver", json::object{}, t.token("admin")), 404,
      "not_found");
  EXPECT_EQ(Audit(t, "webhook.redelivered").size(), 1u);
}

TEST_F(Webhooks, ARotatedSecretSignsAlongsideTheNewOneForTheGracePeriod) {
  auto t = CreateTenant(api(), "wh-rotate");
  HttpSink sink;
  auto [id, old_secret] = Make(t, sink.url());
  auto rotated = api().Post("/webhooks/" + id + "/rotate-secret", json::object{}, t.token("admin"));
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  const std::string new_secret = Str(rotated.Json(), "secret");
  const TimeMs until = *ParseTimestamp(Str(rotated.Json(), "previousSecretUntil"));

  const std::string during = SendTest(t, id);
  RunJobs(api());
  auto posts = PostsOf(sink, during);
  ASSERT_EQ(posts.size(), 1u);
  const std::string header = posts[0].Header("webhook-signature");
  const auto space = header.find(' ');
  ASSERT_NE(space, std::string::npos) << "two signatures: " << header;
  EXPECT_TRUE(Verified(new_secret, posts[0]));
  EXPECT_TRUE(Verified(old_secret, posts[0]));
  // Each signature alone verifies with its own secret.
  ReceivedPost first = posts[0], second = posts[0];
  first.headers["webhook-signature"] = header.substr(0, space);
  second.headers["webhook-signature"] = header.substr(space + 1);
  EXPECT_TRUE(Verified(new_secret, first));
  EXPECT_FALSE(Verified(old_secret, first));
  EXPECT_TRUE(Verified(old_secret, second));

  SetServerTime(api(), FormatTimestamp(until + 1));
  const std::string after = SendTest(t, id);
  RunJobs(api());
  posts = PostsOf(sink, after);
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_EQ(posts[0].Header("webhook-signature").find(' '), std::string::npos);
  EXPECT_TRUE(Verified(new_secret, posts[0]));
  EXPECT_FALSE(Verified(old_secret, posts[0]));
}

TEST_F(Webhooks, AWebhookFailingForADayIsDisabledAuditedAndCanBeEnabledAgain) {
  auto t = CreateTenant(api(), "wh-disable");
  HttpSink sink(/*fail_first=*/1000);
  auto [id, secret] = Make(t, sink.url());
  const std::string delivery = SendTest(t, id);
  bool disabled = false;
  for (int attempt = 1; attempt <= 8 && !disabled; ++attempt) {
    SCOPED_TRACE(attempt);
    RunJobs(api());
    EXPECT_EQ(PostsOf(sink, delivery).size(), static_cast<size_t>(attempt));
    disabled = !api().Get("/webhooks/" + id, t.token("admin")).Json().at("enabled").as_bool();
    AdvanceServerDays(api(), 0.5);  // past the longest back-off (12 h with jitter)
  }
  ASSERT_TRUE(disabled);
  const auto w = api().Get("/webhooks/" + id, t.token("admin")).Json();
  EXPECT_NE(Str(w, "disabledReason").find("failed since"), std::string::npos) << json::serialize(w);
  const auto entries = Audit(t, "webhook.disabled");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(Str(entries[0].at("actor"), "type"), "system");
  EXPECT_EQ(Str(entries[0].at("target"), "id"), id);
  // The admins are told: a direct email to the owners was queued and sent
  // to the shared SMTP sink.
  RunJobs(api());
  bool mailed = WaitUntil([&] { return !SharedSmtpSink().MessagesTo("admin@" + t.slug + ".example").empty(); },
                          milliseconds(5000));
  EXPECT_TRUE(mailed);

  // A disabled webhook gets no events; enabling clears its failure state.
  auto enabled = api().Patch("/webhooks/" + id, {{"enabled", true}}, t.token("admin"));
  ASSERT_EQ(enabled.status, 200) << enabled.body;
  EXPECT_TRUE(enabled.Json().at("enabled").as_bool());
  EXPECT_TRUE(enabled.Json().at("disabledReason").is_null());
}

TEST_F(Webhooks, RealActionsEmitTheirEvents) {
  auto t = CreateTenant(api(), "wh-events");
  HttpSink sink;
  auto [id, secret] = Make(t, sink.url(),
                           {"entry.published", "entry.deleted", "apikey.created", "apikey.revoked",
                            "trust.decision.blocked", "review.submitted"});
  HttpSink other;  // subscribed to nothing these actions emit
  Make(t, other.url(), {"connector.sync.failed"});

  MakeHub(api(), t.token("admin"), "kb", "Editor");
  const std::string entry = Str(MakeEntry(api(), t.token("editor"), "kb", "guide", {"Hello."}), "id");
  // A draft blocks (not_published): trust.decision.blocked.
  auto evaluated = api().Post("/api/trust/evaluate", {{"sources", {"entry:" + entry}}}, t.token("viewer"));
  ASSERT_EQ(evaluated.status, 200) << evaluated.body;
  ASSERT_EQ(api().Post("/api/entries/" + entry + "/publish", json::object{}, t.token("editor")).status, 200);
  auto review = api().Post("/api/entries/" + entry + "/review",
                           {{"reviewType", "FullReview"}, {"timeSpentSeconds", 60}}, t.token("editor"));
  ASSERT_EQ(review.status, 200) << review.body;
  // An allowed decision emits nothing.
  auto allowed = api().Post("/api/trust/evaluate", {{"sources", {"entry:" + entry}}}, t.token("viewer"));
  ASSERT_EQ(allowed.status, 200);
  EXPECT_EQ(Str(allowed.Json(), "overallDecision"), "allow") << allowed.body;
  auto key = api().Post("/apikeys", {{"name", "bot"}, {"scopes", {"trust:read"}}}, t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  const std::string key_id = Str(key.Json(), "id");
  ASSERT_EQ(api().Delete("/apikeys/" + key_id, t.token("admin")).status, 204);
  // A refused action emits nothing: a guest may not publish.
  const int refused = api().Post("/api/entries/" + entry + "/publish", json::object{}, t.token("guest")).status;
  EXPECT_TRUE(refused == 403 || refused == 404) << refused;

  RunJobs(api());
  const auto published = PostsOfType(sink, "entry.published");
  ASSERT_EQ(published.size(), 1u);
  EXPECT_EQ(Str(published[0].Json().at("data"), "entryId"), entry);
  EXPECT_TRUE(Verified(secret, published[0]));

  const auto blocked = PostsOfType(sink, "trust.decision.blocked");
  ASSERT_EQ(blocked.size(), 1u) << "the allowed decision emitted nothing";
  const auto data = blocked[0].Json().at("data");
  EXPECT_EQ(Str(data, "decisionId"), Str(evaluated.Json(), "decisionId"));
  ASSERT_EQ(data.at("sources").as_array().size(), 1u);
  const auto& source = data.at("sources").as_array()[0];
  EXPECT_EQ(Str(source, "sourceId"), "entry:" + entry);
  EXPECT_EQ(Str(source, "decision"), "block");
  EXPECT_EQ(Strings(source.at("reasonCodes"))[0], "not_published");

  const auto created = PostsOfType(sink, "apikey.created");
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(Str(created[0].Json().at("data"), "keyId"), key_id);
  EXPECT_EQ(created[0].body.find(Str(key.Json(), "clientSecret")), std::string::npos) << "never the key's secret";
  ASSERT_EQ(PostsOfType(sink, "apikey.revoked").size(), 1u);
  const auto reviewed = PostsOfType(sink, "review.submitted");
  ASSERT_EQ(reviewed.size(), 1u);
  EXPECT_EQ(Str(reviewed[0].Json().at("data"), "entryId"), entry);
  EXPECT_EQ(Str(reviewed[0].Json().at("data"), "reviewType"), "FullReview");

  ASSERT_EQ(api().Delete("/api/entries/" + entry, t.token("editor")).status, 204);
  RunJobs(api());
  const auto deleted = PostsOfType(sink, "entry.deleted");
  ASSERT_EQ(deleted.size(), 1u);
  EXPECT_EQ(Str(deleted[0].Json().at("data"), "entryId"), entry);
  EXPECT_TRUE(PostsOfType(sink, "entry.updated").empty()) << "not subscribed";
  EXPECT_TRUE(other.Posts().empty());
}

TEST_F(Webhooks, TheExpirySchedulerAndRenewalsEmitTheirEvents) {
  SetServerTime(api(), "2031-03-01T00:00:00Z");
  auto t = CreateTenant(api(), "wh-expiry");
  HttpSink sink;
  auto [id, secret] = Make(t, sink.url(), {"entry.expiring", "entry.expired", "entry.renewed"});
  auto tpl =
      api().Post("/api/expiry-templates",
                 {{"name", "Standard"}, {"expiryDays", 30}, {"warningDays", 10}, {"graceDays", 5}}, t.token("admin"));
  ASSERT_EQ(tpl.status, 201) << tpl.body;
  ASSERT_EQ(api()
                .Post("/api/hubs",
                      {{"key", "docs"},
                       {"name", "Docs"},
                       {"defaultExpiryDays", 30},
                       {"defaultOrgRole", "Editor"},
                       {"defaultExpiryTemplateId", Str(tpl.Json(), "id")}},
                      t.token("admin"))
                .status,
            201);
  auto e = api().Post("/api/entries",
                      {{"hubKey", "docs"},
                       {"key", "guide"},
                       {"originalLanguage", "en"},
                       {"title", "Guide"},
                       {"content", Doc({"Text"})},
                       {"expiryDays", 30}},
                      t.token("editor"));
  ASSERT_EQ(e.status, 201) << e.body;
  const std::string entry = Str(e.Json(), "id");
  ASSERT_EQ(api().Post("/api/entries/" + entry + "/publish", json::object{}, t.token("editor")).status, 200);

  AdvanceServerDays(api(), 25);
  RunJobs(api());
  RunJobs(api());
  const auto expiring = PostsOfType(sink, "entry.expiring");
  ASSERT_GE(expiring.size(), 1u);
  EXPECT_EQ(Str(expiring[0].Json().at("data"), "entryId"), entry);
  EXPECT_TRUE(Verified(secret, expiring[0]));

  AdvanceServerDays(api(), 20);
  RunJobs(api());
  RunJobs(api());
  const auto expired = PostsOfType(sink, "entry.expired");
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(Str(expired[0].Json().at("data"), "entryId"), entry);

  auto renewed = api().Post("/api/entries/" + entry + "/renew", json::object{}, t.token("editor"));
  ASSERT_EQ(renewed.status, 200) << renewed.body;
  RunJobs(api());
  const auto renewals = PostsOfType(sink, "entry.renewed");
  ASSERT_EQ(renewals.size(), 1u);
  EXPECT_EQ(Str(renewals[0].Json().at("data"), "entryId"), entry);
}

TEST_F(Webhooks, TranslationsAppKeysAndScanningEmitTheirEvents) {
  SetServerTime(api(), "2031-06-01T00:00:00Z");
  auto t = CreateTenant(api(), "wh-more");
  HttpSink sink;
  auto [id, secret] = Make(
      t, sink.url(),
      {"entry.updated", "translation.stale", "translation.updated", "app.key.disabled", "scanning.secret.detected"});
  MakeHub(api(), t.token("admin"), "kb", "Editor");
  auto e = MakeEntry(api(), t.token("editor"), "kb", "guide", {"One.", "Two."});
  const std::string entry = Str(e, "id");
  const auto ids = BlockIds(Str(e, "content"));
  auto tr = api().Post("/api/entries/" + entry + "/translations/de",
                       {{"title", "Titel"}, {"content", Doc({"Eins.", "Zwei."}, ids)}}, t.token("editor"));
  ASSERT_EQ(tr.status, 201) << tr.body;
  // Changing a translated block makes the German translation stale.
  ASSERT_EQ(api()
                .Put("/api/entries/" + entry, {{"title", "Guide"}, {"content", Doc({"One, revised.", "Two."}, ids)}},
                     t.token("editor"))
                .status,
            200);
  // Stale already: a second change tells nobody again.
  ASSERT_EQ(api()
                .Put("/api/entries/" + entry, {{"title", "Guide"}, {"content", Doc({"One, again.", "Two."}, ids)}},
                     t.token("editor"))
                .status,
            200);

  // An app key disabled.
  auto app =
      api().Post("/trust-admin/apps", {{"name", "Bot"}, {"channel", "internal"}, {"risk", "low"}}, t.token("admin"));
  ASSERT_EQ(app.status, 201) << app.body;
  const std::string app_id = Str(app.Json(), "id");
  const auto expires = FormatTimestamp(*ParseTimestamp(ServerTime(api())) + 30 * kMsPerDay);
  auto key =
      api().Post("/trust-admin/apps/" + app_id + "/keys", {{"name", "k"}, {"expiresAt", expires}}, t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  const std::string key_id = Str(key.Json(), "id");
  auto disabled =
      api().Post("/trust-admin/apps/" + app_id + "/keys/" + key_id + "/disable", json::object{}, t.token("admin"));
  ASSERT_EQ(disabled.status, 200) << disabled.body;

  // A private key saved in an entry: found by the scanner at save.
  const std::string pem =
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
      "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----";
  const std::string leaky = Str(MakeEntry(api(), t.token("editor"), "kb", "leaky", {"Config:", pem}), "id");

  RunJobs(api());
  const auto updated = PostsOfType(sink, "translation.updated");
  ASSERT_EQ(updated.size(), 1u);
  EXPECT_EQ(Str(updated[0].Json().at("data"), "language"), "de");
  const auto stale = PostsOfType(sink, "translation.stale");
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(Str(stale[0].Json().at("data"), "entryId"), entry);
  EXPECT_EQ(Str(stale[0].Json().at("data"), "language"), "de");
  EXPECT_EQ(PostsOfType(sink, "entry.updated").size(), 2u);

  const auto key_off = PostsOfType(sink, "app.key.disabled");
  ASSERT_EQ(key_off.size(), 1u);
  EXPECT_EQ(Str(key_off[0].Json().at("data"), "appId"), app_id);
  EXPECT_EQ(Str(key_off[0].Json().at("data"), "keyId"), key_id);

  const auto found = PostsOfType(sink, "scanning.secret.detected");
  ASSERT_GE(found.size(), 1u);
  const auto data = found[0].Json().at("data");
  EXPECT_EQ(Str(data, "sourceKind"), "entry");
  EXPECT_EQ(Str(data, "sourceId"), leaky);
  EXPECT_EQ(Str(data, "kind"), "secret");
  EXPECT_FALSE(Str(data, "detector").empty());
  for (const auto& p : found) {
    EXPECT_EQ(p.body.find("PRIVATE KEY"), std::string::npos) << "no secret in the payload";
    EXPECT_EQ(p.body.find("MIIEowIBAAKCAQEA"), std::string::npos);
    EXPECT_TRUE(Verified(secret, p));
  }
}

TEST_F(Webhooks, AFailedConnectorSyncEmitsItsEvent) {
  auto t = CreateTenant(api(), "wh-conn");
  HttpSink sink;
  auto [id, secret] = Make(t, sink.url(), {"connector.sync.failed"});
  auto connector = api().Post(
      "/trust-admin/connectors",
      {{"key", "handbook"}, {"kind", "git"}, {"settings", {{"url", "/tmp/credence-no-such-repository-for-webhooks"}}}},
      t.token("admin"));
  ASSERT_EQ(connector.status, 201) << connector.body;
  const std::string connector_id = Str(connector.Json(), "id");
  auto queued = api().Post("/trust-admin/connectors/" + connector_id + "/sync", json::object{}, t.token("admin"));
  ASSERT_EQ(queued.status, 202) << queued.body;
  ASSERT_EQ(api().Post("/dev/connectors/run", json::object{}).status, 200);
  RunJobs(api());
  const auto failed = PostsOfType(sink, "connector.sync.failed");
  ASSERT_EQ(failed.size(), 1u);
  const auto data = failed[0].Json().at("data");
  EXPECT_EQ(Str(data, "connectorId"), connector_id);
  EXPECT_EQ(Str(data, "connectorKey"), "handbook");
  EXPECT_EQ(Str(data, "runId"), Str(queued.Json(), "id"));
  EXPECT_EQ(Str(data, "errorCode"), "sync_failed");
  EXPECT_TRUE(Verified(secret, failed[0]));
}

// Deliveries live in the database: a crash before the outbox ran loses none.
TEST_F(Webhooks, NothingQueuedIsLostAcrossACrash) {
  ServerProcess server({.dev = true, .extra_args = {"--test-clock", "--jobs-interval-ms", "0"}});
  HttpSink sink;
  std::string delivery, secret;
  {
    HttpClient client(server.base_url());
    auto t = CreateTenant(client, "wh-crash");
    auto r = client.Post("/webhooks", {{"url", sink.url()}, {"eventTypes", {"entry.published"}}}, t.token("admin"));
    ASSERT_EQ(r.status, 201) << r.body;
    secret = Str(r.Json(), "secret");
    auto test = client.Post("/webhooks/" + Str(r.Json(), "id") + "/test", json::object{}, t.token("admin"));
    ASSERT_EQ(test.status, 202);
    delivery = Str(test.Json(), "deliveryId");
  }
  server.Kill();  // SIGKILL, before any job ran
  server.Restart();
  HttpClient client(server.base_url());
  EXPECT_TRUE(sink.Posts().empty());
  RunJobs(client);
  const auto posts = PostsOf(sink, delivery);
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_TRUE(Verified(secret, posts[0]));
}

// A receiver that accepts and never answers: the API answers at once, and
// only the outbox worker waits (up to its timeout).
TEST_F(Webhooks, ASlowReceiverNeverSlowsTheApi) {
  auto t = CreateTenant(api(), "wh-slow");
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 16), 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/hook";
  auto [id, secret] = Make(t, url, {"entry.published"});
  MakeHub(api(), t.token("admin"), "kb", "Editor");
  const auto start = steady_clock::now();
  for (int i = 0; i < 5; ++i) {
    const std::string entry = Str(MakeEntry(api(), t.token("editor"), "kb", "e" + std::to_string(i), {"x"}), "id");
    ASSERT_EQ(api().Post("/api/entries/" + entry + "/publish", json::object{}, t.token("editor")).status, 200);
  }
  SendTest(t, id);
  EXPECT_LT(steady_clock::now() - start, milliseconds(3000));
  EXPECT_EQ(Deliveries(t, id).size(), 6u);
  for (const auto& d : Deliveries(t, id)) EXPECT_EQ(Str(d, "status"), "pending");
  ::close(fd);
}

}  // namespace
}  // namespace credence::test
