// Reading analytics over real HTTP (docs/analytics.md): counts against a
// known sequence of reads by several users, edits and time reports; the
// read buffer written within a second; the inactive list with the test
// clock; bounds and defaults; retention pruning that keeps the summary;
// isolation. Runs on SQLite and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class Analytics : public ClockedApiTest {
 protected:
  void SetUp() override {
    ClockedApiTest::SetUp();
    if (IsSkipped()) return;
    SetServerTime(api(), "2030-01-01T00:00:00Z");
  }

  // A tenant with hub "kb" (members may edit; guests see nothing).
  TestTenant Tenant(const std::string& prefix) {
    TestTenant t = CreateTenant(api(), prefix);
    MakeHub(api(), t.token("admin"), "kb", "Editor");
    return t;
  }

  void Read(const TestTenant& t, const std::string& persona, const std::string& entry, int times = 1) {
    for (int i = 0; i < times; ++i) {
      auto r = api().Get("/api/entries/" + entry, t.token(persona));
      ASSERT_EQ(r.status, 200) << r.body;
    }
  }

  json::object Run() {
    auto r = api().Post("/dev/analytics/run", json::object{});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().as_object();
  }

  json::object Summary(const TestTenant& t, const std::string& entry, const std::string& persona = "viewer") {
    auto r = api().Get("/api/analytics/entries/" + entry + "/summary", t.token(persona));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().as_object();
  }

  json::object Events(const TestTenant& t, const std::string& entry, const std::string& query = "") {
    auto r = api().Get("/api/analytics/entries/" + entry + "/events" + query, t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().as_object();
  }

  Response TimeSpent(const TestTenant& t, const std::string& persona, const std::string& entry, json::value body) {
    return api().Post("/api/analytics/entries/" + entry + "/time-spent", body, t.token(persona));
  }

  void Edit(const TestTenant& t, const std::string& persona, const json::value& entry, const std::string& text) {
    auto r =
        api().Put("/api/entries/" + Str(entry, "id"),
                  {{"title", "Deploy"}, {"content", Doc({text}, BlockIds(Str(entry, "content")))}}, t.token(persona));
    ASSERT_EQ(r.status, 200) << r.body;
  }
};

TEST_F(Analytics, CountsReadsEditsAndTimeSpent) {
  auto t = Tenant("an-count");
  auto entry = MakeEntry(api(), t.token("editor"), "kb", "deploy", {"How we deploy."});
  const std::string id = Str(entry, "id");

  Read(t, "admin", id, 2);
  Read(t, "editor", id, 1);
  Read(t, "viewer", id, 3);
  Edit(t, "editor", entry, "How we deploy, v2.");
  Edit(t, "admin", entry, "How we deploy, v3.");
  Edit(t, "editor", entry, "How we deploy, v4.");
  Edit(t, "editor", entry, "How we deploy, v4.");  // no change: not an edit
  // A translation, created by the viewer persona (members may edit in "kb"),
  // is a third editor's change in "es"; then one read of it.
  auto tr =
      api().Post("/api/entries/" + id + "/translations/es",
                 {{"title", "Despliegue"}, {"content", Doc({"Cómo desplegamos."}, BlockIds(Str(entry, "content")))}},
                 t.token("viewer"));
  ASSERT_EQ(tr.status / 100, 2) << tr.body;
  ASSERT_EQ(api().Get("/api/entries/" + id + "?language=es", t.token("admin")).status, 200);
  ASSERT_EQ(TimeSpent(t, "viewer", id, {{"seconds", 30}}).status, 201);
  auto ts = TimeSpent(t, "editor", id, {{"seconds", 60}, {"language", "en"}});
  ASSERT_EQ(ts.status, 201) << ts.body;
  EXPECT_EQ(Str(ts.Json(), "eventType"), "TimeSpent");
  EXPECT_EQ(ts.Json().at("seconds").as_int64(), 60);
  EXPECT_EQ(Str(ts.Json(), "language"), "en");
  // Writes what is still buffered; the writer thread may have written some
  // of the reads already (it flushes every second), so the count is the
  // summary's to check, not this pass's.
  Run();

  auto s = Summary(t, id);
  EXPECT_EQ(Str(s, "entryId"), id);
  EXPECT_EQ(s.at("totalReads").as_int64(), 7);
  EXPECT_EQ(s.at("uniqueEditors").as_int64(), 3);
  EXPECT_EQ(s.at("totalEdits").as_int64(), 4);
  EXPECT_EQ(s.at("timeSpentReports").as_int64(), 2);
  EXPECT_EQ(s.at("totalTimeSpentSeconds").as_int64(), 90);
  EXPECT_EQ(s.at("averageTimeSpentSeconds").as_int64(), 45);
  EXPECT_EQ(Str(s, "lastReadAt"), ServerTime(api()));

  auto all = Events(t, id);
  EXPECT_EQ(all.at("total").as_int64(), 13);
  EXPECT_EQ(all.at("skip").as_int64(), 0);
  EXPECT_EQ(all.at("take").as_int64(), 50);
  EXPECT_EQ(all.at("events").as_array().size(), 13u);
  auto reads = Events(t, id, "?eventType=DocumentRead");
  EXPECT_EQ(reads.at("total").as_int64(), 7);
  int by_viewer = 0, in_spanish = 0;
  for (const auto& e : reads.at("events").as_array()) {
    EXPECT_EQ(Str(e, "eventType"), "DocumentRead");
    if (Str(e, "language") == "es") ++in_spanish;
    if (Str(e, "userId") == t.user_ids.at("viewer")) ++by_viewer;
  }
  EXPECT_EQ(by_viewer, 3);
  EXPECT_EQ(in_spanish, 1);
  auto edits = Events(t, id, "?eventType=DocumentEdited");
  EXPECT_EQ(edits.at("total").as_int64(), 4);
  int original_edits = 0;
  for (const auto& e : edits.at("events").as_array())
    if (e.at("language").is_null()) ++original_edits;
  EXPECT_EQ(original_edits, 3);
  EXPECT_EQ(Events(t, id, "?eventType=TimeSpent").at("total").as_int64(), 2);
  auto page = Events(t, id, "?skip=12&take=5");
  EXPECT_EQ(page.at("events").as_array().size(), 1u);
  EXPECT_EQ(Events(t, id, "?take=5").at("events").as_array().size(), 5u);
  EXPECT_EQ(Events(t, id, "?take=200").at("events").as_array().size(), 13u);

  // Another entry's counts are its own.
  auto other = MakeEntry(api(), t.token("editor"), "kb", "other", {"Other."});
  auto so = Summary(t, Str(other, "id"));
  EXPECT_EQ(so.at("totalReads").as_int64(), 0);
  EXPECT_EQ(so.at("uniqueEditors").as_int64(), 0);
  EXPECT_EQ(so.at("averageTimeSpentSeconds").as_int64(), 0);
  EXPECT_TRUE(so.at("lastReadAt").is_null());

  // The summary's figures are integers (knowledge-base.md): an average of
  // 17.5 s is 18, rounded half up; 50 s over three reports is 17.
  const std::string other_id = Str(other, "id");
  ASSERT_EQ(TimeSpent(t, "viewer", other_id, {{"seconds", 15}}).status, 201);
  ASSERT_EQ(TimeSpent(t, "editor", other_id, {{"seconds", 20}}).status, 201);
  Run();
  auto half = Summary(t, other_id);
  ASSERT_TRUE(half.at("averageTimeSpentSeconds").is_int64()) << json::serialize(half);
  EXPECT_EQ(half.at("averageTimeSpentSeconds").as_int64(), 18);
  ASSERT_EQ(TimeSpent(t, "viewer", other_id, {{"seconds", 15}}).status, 201);
  Run();
  EXPECT_EQ(Summary(t, other_id).at("averageTimeSpentSeconds").as_int64(), 17);
}

TEST_F(Analytics, ReadsAreWrittenWithinASecondWithoutAHook) {
  auto t = Tenant("an-flush");
  const std::string id = Str(MakeEntry(api(), t.token("editor"), "kb", "deploy", {"Text."}), "id");
  Read(t, "viewer", id, 2);
  // The writer flushes every second; allow for a loaded machine.
  int64_t reads = 0;
  for (int i = 0; i < 40 && reads < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    reads = Summary(t, id).at("totalReads").as_int64();
  }
  EXPECT_EQ(reads, 2);
}

TEST_F(Analytics, InactiveEntriesFollowTheClock) {
  auto t = Tenant("an-inactive");
  const std::string a = Str(MakeEntry(api(), t.token("editor"), "kb", "a", {"A."}), "id");
  const std::string b = Str(MakeEntry(api(), t.token("editor"), "kb", "b", {"B."}), "id");
  AdvanceServerDays(api(), 50);
  Read(t, "viewer", a);
  Run();
  AdvanceServerDays(api(), 60);  // day 110: a read 60 days ago, b never
  const std::string fresh = Str(MakeEntry(api(), t.token("editor"), "kb", "fresh", {"New."}), "id");

  auto ids = [&](const std::string& query, const std::string& persona = "viewer") {
    auto r = api().Get("/api/analytics/inactive" + query, t.token(persona));
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::string> out;
    const json::value body = r.Json();
    for (const auto& e : body.at("entries").as_array()) out.push_back(Str(e, "id"));
    return out;
  };
  EXPECT_EQ(ids("?days=90"), std::vector<std::string>{b});
  EXPECT_EQ(ids(""), std::vector<std::string>{b});  // default 90
  EXPECT_EQ(api().Get("/api/analytics/inactive", t.token("viewer")).Json().at("days").as_int64(), 90);
  EXPECT_EQ(ids("?days=30"), (std::vector<std::string>{b, a}));     // never read first
  EXPECT_EQ(ids("?days=3650"), std::vector<std::string>{});         // none is that old
  EXPECT_EQ(ids("?days=90", "guest"), std::vector<std::string>{});  // sees no entry
  auto full = api().Get("/api/analytics/inactive?days=30", t.token("viewer")).Json();
  ASSERT_EQ(full.at("entries").as_array().size(), 2u) << json::serialize(full);
  const auto& last = full.at("entries").as_array()[1];
  EXPECT_EQ(Str(last, "hubKey"), "kb");
  EXPECT_EQ(Str(last, "key"), "a");
  EXPECT_FALSE(last.at("lastReadAt").is_null());
  EXPECT_TRUE(full.at("entries").as_array()[0].at("lastReadAt").is_null());
  (void)fresh;

  // Another tenant sees none of them.
  auto other = Tenant("an-inactive-other");
  auto r = api().Get("/api/analytics/inactive?days=1", other.token("admin"));
  ASSERT_EQ(r.status, 200);
  EXPECT_TRUE(r.Json().at("entries").as_array().empty());
}

TEST_F(Analytics, TheMostReadEntriesOfAWindowThatTheCallerCanSee) {
  auto t = Tenant("an-top");
  const std::string a = Str(MakeEntry(api(), t.token("editor"), "kb", "a", {"A."}), "id");
  const std::string b = Str(MakeEntry(api(), t.token("editor"), "kb", "b", {"B."}), "id");
  Str(MakeEntry(api(), t.token("editor"), "kb", "unread", {"C."}), "id");
  Read(t, "viewer", a, 2);
  Run();
  AdvanceServerDays(api(), 10);
  Read(t, "viewer", b, 3);
  Read(t, "editor", a, 1);
  Run();

  auto top = [&](const std::string& query, const std::string& persona = "viewer") {
    auto r = api().Get("/api/analytics/top" + query, t.token(persona));
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::pair<std::string, int64_t>> out;
    const json::value body = r.Json();
    for (const auto& e : body.at("entries").as_array()) out.emplace_back(Str(e, "id"), e.at("reads").as_int64());
    return out;
  };
  using Ranking = std::vector<std::pair<std::string, int64_t>>;
  EXPECT_EQ(top(""), (Ranking{{a, 3}, {b, 3}}));          // 30 days; a tie goes by title
  EXPECT_EQ(top("?days=1"), (Ranking{{b, 3}, {a, 1}}));   // today only
  EXPECT_EQ(top("?days=1&limit=1"), (Ranking{{b, 3}}));
  EXPECT_TRUE(top("", "guest").empty());                  // sees no entry of the hub
  ExpectValidation(api().Get("/api/analytics/top?limit=0", t.token("viewer")), "limit");
  ExpectValidation(api().Get("/api/analytics/top?days=0", t.token("viewer")), "days");
  auto other = Tenant("an-top-other");
  auto r = api().Get("/api/analytics/top", other.token("admin"));
  ASSERT_EQ(r.status, 200);
  EXPECT_TRUE(r.Json().at("entries").as_array().empty());
}

TEST_F(Analytics, RetentionPrunesRawEventsAndKeepsTheSummary) {
  auto t = Tenant("an-retention");
  const std::string id = Str(MakeEntry(api(), t.token("editor"), "kb", "deploy", {"Text."}), "id");

  auto settings = api().Get("/api/analytics/settings", t.token("admin"));
  ASSERT_EQ(settings.status, 200) << settings.body;
  EXPECT_EQ(settings.Json().at("rawEventRetentionDays").as_int64(), 365);
  EXPECT_EQ(api().Get("/api/analytics/settings", t.token("editor")).status, 403);
  EXPECT_EQ(api().Put("/api/analytics/settings", {{"rawEventRetentionDays", 30}}, t.token("editor")).status, 403);
  ExpectValidation(api().Put("/api/analytics/settings", {{"rawEventRetentionDays", 0}}, t.token("admin")),
                   "rawEventRetentionDays");
  ExpectValidation(api().Put("/api/analytics/settings", {{"rawEventRetentionDays", 3651}}, t.token("admin")),
                   "rawEventRetentionDays");
  auto set = api().Put("/api/analytics/settings", {{"rawEventRetentionDays", 30}}, t.token("admin"));
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(set.Json().at("rawEventRetentionDays").as_int64(), 30);
  EXPECT_EQ(Str(set.Json(), "updatedBy"), t.user_ids.at("admin"));
  auto audit = api().Get("/admin/audit?action=analytics.settings_updated", t.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  EXPECT_NE(audit.body.find("analytics.settings_updated"), std::string::npos);

  Read(t, "viewer", id, 3);
  ASSERT_EQ(TimeSpent(t, "viewer", id, {{"seconds", 20}}).status, 201);
  Run();
  AdvanceServerDays(api(), 31);
  Read(t, "editor", id);
  const auto run = Run();
  EXPECT_GE(run.at("eventsPruned").as_int64(), 4);

  auto events = Events(t, id);
  EXPECT_EQ(events.at("total").as_int64(), 1);  // only the recent read
  auto s = Summary(t, id);
  EXPECT_EQ(s.at("totalReads").as_int64(), 4);
  EXPECT_EQ(s.at("totalTimeSpentSeconds").as_int64(), 20);
  EXPECT_EQ(s.at("timeSpentReports").as_int64(), 1);
  EXPECT_EQ(Str(s, "lastReadAt"), ServerTime(api()));
}

TEST_F(Analytics, BoundsAndBadInput) {
  auto t = Tenant("an-bounds");
  const std::string id = Str(MakeEntry(api(), t.token("editor"), "kb", "deploy", {"Text."}), "id");
  const std::string base = "/api/analytics/entries/" + id + "/events";
  for (const char* q : {"?take=0", "?take=201", "?take=abc", "?take=-1"})
    ExpectValidation(api().Get(base + q, t.token("viewer")), "take");
  for (const char* q : {"?skip=-1", "?skip=x"}) ExpectValidation(api().Get(base + q, t.token("viewer")), "skip");
  ExpectValidation(api().Get(base + "?eventType=Bogus", t.token("viewer")), "eventType");
  for (const char* q : {"?days=0", "?days=3651", "?days=ninety"})
    ExpectValidation(api().Get(std::string("/api/analytics/inactive") + q, t.token("viewer")), "days");
  EXPECT_EQ(api().Get("/api/analytics/inactive?days=1", t.token("viewer")).status, 200);
  EXPECT_EQ(api().Get("/api/analytics/inactive?days=3650", t.token("viewer")).status, 200);

  EXPECT_EQ(TimeSpent(t, "viewer", id, {{"seconds", 4}}).status, 400);
  EXPECT_EQ(TimeSpent(t, "viewer", id, {{"seconds", 86401}}).status, 400);
  EXPECT_EQ(TimeSpent(t, "viewer", id, json::object{}).status, 400);
  EXPECT_EQ(TimeSpent(t, "viewer", id, {{"seconds", "ten"}}).status, 400);
  ExpectValidation(TimeSpent(t, "viewer", id, {{"seconds", 10}, {"language", "xx-nope"}}), "language");
  EXPECT_EQ(TimeSpent(t, "viewer", id, {{"seconds", 5}}).status, 201);
  EXPECT_EQ(TimeSpent(t, "viewer", id, {{"seconds", 86400}}).status, 201);
  EXPECT_EQ(api().Get("/api/analytics/entries/not-a-uuid/summary", t.token("viewer")).status / 100, 4);
  EXPECT_EQ(api().Get("/api/analytics/entries/" + id + "/summary").status, 401);
}

TEST_F(Analytics, IsolationAndAccess) {
  auto t = Tenant("an-iso");
  auto other = Tenant("an-iso-other");
  const std::string id = Str(MakeEntry(api(), t.token("editor"), "kb", "deploy", {"Text."}), "id");
  const std::string missing = "/api/analytics/entries/00000000-0000-4000-8000-000000000000/summary";
  for (const auto& [tenant, persona] :
       std::vector<std::pair<const TestTenant*, std::string>>{{&other, "admin"}, {&t, "guest"}}) {
    const std::string& token = tenant->token(persona);
    ExpectProblem(api().Get("/api/analytics/entries/" + id + "/summary", token), 404, "not_found");
    ExpectProblem(api().Get("/api/analytics/entries/" + id + "/events", token), 404, "not_found");
    ExpectProblem(api().Post("/api/analytics/entries/" + id + "/time-spent", {{"seconds", 10}}, token), 404,
                  "not_found");
  }
  ExpectProblem(api().Get(missing, t.token("admin")), 404, "not_found");
  // The other tenant's reads of its own entries do not count here.
  Read(t, "viewer", id);
  Run();
  EXPECT_EQ(Summary(t, id).at("totalReads").as_int64(), 1);
  EXPECT_EQ(api().Get("/api/analytics/settings", other.token("admin")).Json().at("rawEventRetentionDays").as_int64(),
            365);
}

}  // namespace
}  // namespace credence::test
