// The machine-translation triggers (docs/machine-translation.md, "Triggers")
// over real HTTP: a server whose LibreTranslate adapter points at the
// stand-in (support/mt_standin.py); jobs run by POST /dev/jobs/run.
#include <boost/json.hpp>

#include <future>
#include <memory>

#include "core/clock.h"
#include "support/api_fixture.h"
#include "support/kb_fixture.h"
#include "support/sinks.h"

namespace credence::test {
namespace {
namespace json = boost::json;

std::string ParagraphsDoc(const std::vector<std::string>& paragraphs) {
  json::array content;
  for (const auto& p : paragraphs)
    content.push_back(
        json::object{{"type", "paragraph"}, {"content", json::array{json::object{{"type", "text"}, {"text", p}}}}});
  return json::serialize(json::object{{"type", "doc"}, {"content", content}});
}

std::vector<std::string> Texts(const std::string& content) {
  std::vector<std::string> out;
  const json::value doc = json::parse(content);
  for (const auto& n : doc.at("content").as_array()) out.emplace_back(n.at("content").at(0).at("text").as_string());
  return out;
}

std::vector<std::string> MtArgs(const std::string& url, const std::string& key) {
  std::vector<std::string> args = SharedServerOptions().extra_args;
  for (const char* a : {"--mt-libretranslate-url", url.c_str(), "--mt-libretranslate-key", key.c_str(),
                        "--mt-default-provider", "libretranslate", "--mt-timeout-ms", "1000"})
    args.emplace_back(a);
  return args;
}

class MtTriggers : public ApiTest {
 protected:
  static void SetUpTestSuite() {
    standin_ = std::make_unique<MtStandIn>();
    ServerOptions options = SharedServerOptions();
    options.extra_args = MtArgs(standin_->url(), "good-key");
    server_ = std::make_unique<ServerProcess>(options);
  }
  static void TearDownTestSuite() {
    server_.reset();
    standin_.reset();
  }
  void SetUp() override {
    ApiTest::SetUp();
    if (IsSkipped()) return;
    client_ = std::make_unique<HttpClient>(server_->base_url());
    Setup(*client_);
  }
  void Setup(HttpClient& client) {
    t_ = CreateTenant(client, "mtt");
    MakeHub(client, admin(), "docs");
    for (const auto& [code, trigger] : std::vector<std::pair<std::string, std::string>>{
             {"es", "AlwaysTranslate"}, {"de", "Never"}, {"fr", "OnDemand"}}) {
      auto r =
          client.Post("/api/admin/languages", {{"code", code}, {"displayName", code}, {"trigger", trigger}}, admin());
      if (r.status == 409)
        r = client.Put("/api/admin/languages/" + code, {{"trigger", trigger}, {"isEnabled", true}}, admin());
      ASSERT_TRUE(r.status == 200 || r.status == 201) << r.body;
    }
    auto e = client.Post("/api/entries",
                         {{"hubKey", "docs"},
                          {"key", "guide"},
                          {"originalLanguage", "en"},
                          {"title", "Guide"},
                          {"content", ParagraphsDoc({"Open the panel", "Press save"})}},
                         admin());
    ASSERT_EQ(e.status, 201) << e.body;
    id_ = Str(e.Json(), "id");
    original_ = Str(e.Json(), "content");  // with the block ids the server gave
    seen_ = standin_->Requests().size();
  }
  HttpClient& c() { return *client_; }
  const std::string& admin() { return t_.tokens.at("admin"); }
  size_t NewRequests() {
    const size_t all = standin_->Requests().size();
    const size_t n = all - seen_;
    seen_ = all;
    return n;
  }
  static json::object RunJobs(HttpClient& client) {
    auto r = client.Post("/dev/jobs/run", json::object{});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().at("translations").as_object();
  }
  int Translation(HttpClient& client, const std::string& lang, std::string* content = nullptr) {
    auto r = client.Get("/api/entries/" + id_ + "/translations/" + lang, admin());
    if (r.status == 200 && content) *content = Str(r.Json(), "content");
    return r.status;
  }
  void Publish(HttpClient& client) {
    auto p = client.Post("/api/entries/" + id_ + "/publish", json::object{}, admin());
    ASSERT_EQ(p.status, 200) << p.body;
  }

  static std::unique_ptr<MtStandIn> standin_;
  static std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpClient> client_;
  TestTenant t_;
  std::string id_;
  std::string original_;
  size_t seen_ = 0;
};
std::unique_ptr<MtStandIn> MtTriggers::standin_;
std::unique_ptr<ServerProcess> MtTriggers::server_;

TEST_F(MtTriggers, AlwaysTranslateOnPublishThenOnlyStaleBlocksAndNeverDoesNothing) {
  // A draft queues nothing.
  RunJobs(c());
  EXPECT_EQ(Translation(c(), "es"), 404);
  Publish(c());
  EXPECT_EQ(Translation(c(), "es"), 404);  // not in the request: in the next pass
  auto pass = RunJobs(c());
  EXPECT_GE(pass.at("translated").as_int64(), 1);
  std::string es;
  ASSERT_EQ(Translation(c(), "es", &es), 200);
  EXPECT_EQ(Texts(es), (std::vector<std::string>{"OPEN THE PANEL", "PRESS SAVE"}));
  EXPECT_EQ(NewRequests(), 3u);  // title and two blocks
  // Never and OnDemand: nothing translated by the triggers.
  EXPECT_EQ(Translation(c(), "de"), 404);
  EXPECT_EQ(Translation(c(), "fr"), 404);
  // Nothing more to do.
  EXPECT_EQ(RunJobs(c()).at("claimed").as_int64(), 0);
  // A change to the original: only the stale block is sent.
  json::value doc = json::parse(original_);
  doc.at("content").at(0).at("content").at(0).as_object()["text"] = "Close the panel";
  auto u = c().Put("/api/entries/" + id_, {{"title", "Guide"}, {"content", json::serialize(doc)}}, admin());
  ASSERT_EQ(u.status, 200) << u.body;
  NewRequests();
  RunJobs(c());
  ASSERT_EQ(Translation(c(), "es", &es), 200);
  EXPECT_EQ(Texts(es), (std::vector<std::string>{"CLOSE THE PANEL", "PRESS SAVE"}));
  EXPECT_EQ(NewRequests(), 1u);
  auto status = c().Get("/api/entries/" + id_ + "/translations/es/status", admin());
  EXPECT_EQ(status.Json().at("staleBlockCount").as_int64(), 0);
}

TEST_F(MtTriggers, OnDemandTheFirstReadQueuesAndALaterReadHasTheTranslation) {
  Publish(c());
  RunJobs(c());  // the AlwaysTranslate language
  NewRequests();
  // Never: a read in it queues nothing.
  auto de = c().Get("/api/entries/" + id_ + "?language=de", admin());
  ASSERT_EQ(de.status, 200) << de.body;
  EXPECT_FALSE(de.Json().at("translationPending").as_bool());
  EXPECT_EQ(RunJobs(c()).at("claimed").as_int64(), 0);
  // OnDemand: the first read answers the original at once, flagged.
  auto first = c().Get("/api/entries/" + id_ + "?language=fr", admin());
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_TRUE(first.Json().at("translationPending").as_bool());
  EXPECT_FALSE(first.Json().at("isTranslation").as_bool());
  EXPECT_EQ(Texts(Str(first.Json(), "content")), (std::vector<std::string>{"Open the panel", "Press save"}));
  // A second read before the pass queues nothing more.
  EXPECT_TRUE(c().Get("/api/entries/" + id_ + "?language=fr", admin()).Json().at("translationPending").as_bool());
  EXPECT_EQ(NewRequests(), 0u);
  EXPECT_EQ(RunJobs(c()).at("translated").as_int64(), 1);
  EXPECT_EQ(NewRequests(), 3u);
  auto later = c().Get("/api/entries/" + id_ + "?language=fr", admin());
  ASSERT_EQ(later.status, 200) << later.body;
  EXPECT_FALSE(later.Json().at("translationPending").as_bool());
  EXPECT_TRUE(later.Json().at("isTranslation").as_bool());
  EXPECT_EQ(Texts(Str(later.Json(), "content")), (std::vector<std::string>{"OPEN THE PANEL", "PRESS SAVE"}));
  EXPECT_EQ(RunJobs(c()).at("claimed").as_int64(), 0);
  // Stale after an edit of the original: the next read queues again, and
  // only the stale block is sent.
  json::value doc = json::parse(original_);
  doc.at("content").at(1).at("content").at(0).as_object()["text"] = "Press cancel";
  ASSERT_EQ(c().Put("/api/entries/" + id_, {{"title", "Guide"}, {"content", json::serialize(doc)}}, admin()).status,
            200);
  RunJobs(c());  // es (AlwaysTranslate)
  NewRequests();
  EXPECT_TRUE(c().Get("/api/entries/" + id_ + "?language=fr", admin()).Json().at("translationPending").as_bool());
  EXPECT_EQ(RunJobs(c()).at("translated").as_int64(), 1);
  EXPECT_EQ(NewRequests(), 1u);
  auto fresh = c().Get("/api/entries/" + id_ + "?language=fr", admin());
  EXPECT_FALSE(fresh.Json().at("translationPending").as_bool());
  EXPECT_EQ(Texts(Str(fresh.Json(), "content")), (std::vector<std::string>{"OPEN THE PANEL", "PRESS CANCEL"}));
}

TEST_F(MtTriggers, TwoPassesAtOnceTranslateAJobOnce) {
  Publish(c());
  HttpClient other(server_->base_url());
  auto a = std::async(std::launch::async, [&] { return RunJobs(c()); });
  auto b = std::async(std::launch::async, [&] { return RunJobs(other); });
  const auto ra = a.get();
  const auto rb = b.get();
  EXPECT_EQ(ra.at("translated").as_int64() + rb.at("translated").as_int64(), 1);
  std::string es;
  ASSERT_EQ(Translation(c(), "es", &es), 200);
  EXPECT_EQ(NewRequests(), 3u);
}

TEST_F(MtTriggers, TwoServersOnOneDatabaseTranslateAJobOnce) {
  Publish(c());
  ServerOptions options = SharedServerOptions();
  options.extra_args = MtArgs(standin_->url(), "good-key");
  options.extra_args.push_back("--database");
  options.extra_args.push_back(server_->database_url());
  ServerProcess second(options);
  HttpClient other(second.base_url());
  auto a = std::async(std::launch::async, [&] { return RunJobs(c()); });
  auto b = std::async(std::launch::async, [&] { return RunJobs(other); });
  EXPECT_EQ(a.get().at("translated").as_int64() + b.get().at("translated").as_int64(), 1);
  EXPECT_EQ(NewRequests(), 3u);
}

// A provider that refuses every request: the job is retried with back-off
// (30 s, doubling) and given up after 6 attempts.
TEST_F(MtTriggers, AFailingProviderIsRetriedWithBackOffAndGivenUp) {
  ServerOptions options = SharedServerOptions();
  options.extra_args = MtArgs(standin_->url(), "bad");
  ServerProcess failing(options);
  HttpClient client(failing.base_url());
  ASSERT_NO_FATAL_FAILURE(Setup(client));
  ASSERT_EQ(client.Put("/dev/clock", {{"now", "2031-03-01T00:00:00Z"}}).status, 200);
  Publish(client);
  TimeMs now = *ParseTimestamp("2031-03-01T00:00:00Z");
  int64_t delay = 30'000;
  for (int attempt = 1; attempt <= 6; ++attempt) {
    auto pass = RunJobs(client);
    EXPECT_EQ(pass.at("claimed").as_int64(), 1) << attempt;
    EXPECT_EQ(pass.at(attempt < 6 ? "failed" : "gaveUp").as_int64(), 1) << attempt;
    // Not due again before its back-off.
    EXPECT_EQ(RunJobs(client).at("claimed").as_int64(), 0) << attempt;
    now += delay;
    delay *= 2;
    ASSERT_EQ(client.Put("/dev/clock", {{"now", FormatTimestamp(now)}}).status, 200);
  }
  EXPECT_EQ(RunJobs(client).at("claimed").as_int64(), 0);
  EXPECT_EQ(Translation(client, "es"), 404);
}

}  // namespace
}  // namespace credence::test
