// The expiry lifecycle over real HTTP with the server's clock set by the
// test: the status a reader sees at each boundary of the state table, the
// scheduler materializing each transition once (owner notifications),
// rechecks after template changes, expiry dashboards, and notifications
// (list, acknowledge), with access, isolation and bad input. Runs on SQLite
// and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kStart[] = "2031-03-01T00:00:00Z";

std::string At(double days) {
  return FormatTimestamp(*ParseTimestamp(kStart) + static_cast<TimeMs>(days * static_cast<double>(kMsPerDay)));
}

class Expiry : public ClockedApiTest {
 protected:
  // A tenant at kStart with hub `docs` whose default template has the given
  // windows, and one published entry owned by the editor expiring after
  // `expiry_days`.
  struct World {
    TestTenant t;
    std::string template_id;
    std::string entry_id;
  };

  World Make(const std::string& prefix, int expiry_days = 30, int warning = 10, int grace = 5) {
    SetServerTime(api(), kStart);
    World w{CreateTenant(api(), prefix), "", ""};
    auto tpl =
        api().Post("/api/expiry-templates",
                   {{"name", "Standard"}, {"expiryDays", expiry_days}, {"warningDays", warning}, {"graceDays", grace}},
                   w.t.token("admin"));
    EXPECT_EQ(tpl.status, 201) << tpl.body;
    w.template_id = Str(tpl.Json(), "id");
    auto hub = api().Post("/api/hubs",
                          {{"key", "docs"},
                           {"name", "Docs"},
                           {"defaultExpiryDays", expiry_days},
                           {"defaultOrgRole", "Editor"},
                           {"defaultExpiryTemplateId", w.template_id}},
                          w.t.token("admin"));
    EXPECT_EQ(hub.status, 201) << hub.body;
    w.entry_id = NewEntry(w.t, "guide", expiry_days);
    return w;
  }

  std::string NewEntry(const TestTenant& t, const std::string& key, int expiry_days, bool publish = true) {
    auto e = api().Post("/api/entries",
                        {{"hubKey", "docs"},
                         {"key", key},
                         {"originalLanguage", "en"},
                         {"title", "Guide " + key},
                         {"content", Doc({"Text"})},
                         {"expiryDays", expiry_days}},
                        t.token("editor"));
    EXPECT_EQ(e.status, 201) << e.body;
    const std::string id = Str(e.Json(), "id");
    if (publish) {
      EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
    }
    return id;
  }

  std::string StatusOf(const TestTenant& t, const std::string& entry_id) {
    auto r = api().Get("/api/entries/" + entry_id, t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    return Str(r.Json(), "status");
  }

  json::array Warnings(const TestTenant& t, const std::string& persona = "editor") {
    auto r = api().Get("/api/notifications/expiry-warnings", t.token(persona));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().as_array();
  }

  std::vector<std::string> Kinds(const json::array& warnings) {
    std::vector<std::string> out;
    for (const auto& w : warnings) out.push_back(Str(w, "kind"));
    return out;
  }
};

// Each row of docs/lifecycle.md's table, read through the entry itself, its
// expiry-status and the hub dashboard; boundaries belong to the later state.
TEST_F(Expiry, StatusAReaderSeesFollowsTheClock) {
  auto w = Make("exp-table");
  struct Row {
    double day;
    const char* status;
    bool warning_period;
    int64_t days_left;
  };
  const std::vector<Row> rows = {
      {0, "Published", false, 30},     {19.5, "Published", false, 10}, {20, "ExpiringSoon", true, 10},
      {29.5, "ExpiringSoon", true, 0}, {30, "Warning", false, 0},      {34.9, "Warning", false, -5},
      {35, "Expired", false, -5},      {400, "Expired", false, -370},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE("day " + std::to_string(row.day));
    SetServerTime(api(), At(row.day));
    EXPECT_EQ(StatusOf(w.t, w.entry_id), row.status);
    auto st = api().Get("/api/entries/" + w.entry_id + "/expiry-status", w.t.token("viewer"));
    ASSERT_EQ(st.status, 200) << st.body;
    EXPECT_EQ(Str(st.Json(), "status"), row.status);
    EXPECT_EQ(st.Json().at("isInWarningPeriod").as_bool(), row.warning_period);
    EXPECT_EQ(st.Json().at("daysUntilExpiry").as_int64(), row.days_left);
    auto hub = api().Get("/api/expiry-dashboard/hubs/docs/entries", w.t.token("viewer"));
    ASSERT_EQ(hub.status, 200) << hub.body;
    ASSERT_EQ(hub.Json().as_array().size(), 1u);
    EXPECT_EQ(Str(hub.Json().as_array()[0], "status"), row.status);
    auto list = api().Get("/api/entries/hubs/docs", w.t.token("viewer"));
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_EQ(Str(list.Json().as_array()[0], "status"), row.status);
  }
}

TEST_F(Expiry, DraftsNeverExpireAndAreNeverNotified) {
  auto w = Make("exp-draft");
  const std::string draft = NewEntry(w.t, "draft", 30, /*publish=*/false);
  SetServerTime(api(), At(365));
  EXPECT_EQ(StatusOf(w.t, draft), "Draft");
  RunJobs(api());
  for (const auto& n : Warnings(w.t)) EXPECT_NE(Str(n, "entryId"), draft);
}

TEST_F(Expiry, ARoundTrippedDerivedStatusKeepsTheEntryPublished) {
  auto w = Make("exp-roundtrip");
  SetServerTime(api(), At(25));
  auto got = api().Get("/api/entries/" + w.entry_id, w.t.token("editor"));
  ASSERT_EQ(Str(got.Json(), "status"), "ExpiringSoon");
  json::object body = got.Json().as_object();
  body["title"] = "Renamed";
  auto put = api().Put("/api/entries/" + w.entry_id, body, w.t.token("editor"));
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(Str(put.Json(), "status"), "ExpiringSoon");
  SetServerTime(api(), At(0));
  EXPECT_EQ(StatusOf(w.t, w.entry_id), "Published");
  body["status"] = "Draft";
  ASSERT_EQ(api().Put("/api/entries/" + w.entry_id, body, w.t.token("editor")).status, 200);
  SetServerTime(api(), At(100));
  EXPECT_EQ(StatusOf(w.t, w.entry_id), "Draft");
}

TEST_F(Expiry, SchedulerNotifiesTheOwnerOncePerTransition) {
  auto w = Make("exp-sched");
  RunJobs(api());
  EXPECT_TRUE(Warnings(w.t).empty());

  SetServerTime(api(), At(21));
  RunJobs(api());
  RunJobs(api());  // a second pass finds nothing new
  auto warnings = Warnings(w.t);
  ASSERT_EQ(Kinds(warnings), std::vector<std::string>{"ExpiringSoon"});
  EXPECT_EQ(Str(warnings[0], "entryId"), w.entry_id);
  EXPECT_EQ(Str(warnings[0], "entryTitle"), "Guide guide");
  EXPECT_EQ(Str(warnings[0], "hubKey"), "docs");
  EXPECT_EQ(Str(warnings[0], "expiryDate"), At(30));
  EXPECT_FALSE(warnings[0].at("isAcknowledged").as_bool());
  // Only the owner is notified.
  EXPECT_TRUE(Warnings(w.t, "admin").empty());
  EXPECT_TRUE(Warnings(w.t, "viewer").empty());

  SetServerTime(api(), At(31));
  RunJobs(api());
  SetServerTime(api(), At(36));
  RunJobs(api());
  RunJobs(api());
  EXPECT_EQ(Kinds(Warnings(w.t)), (std::vector<std::string>{"Expired", "Warning", "ExpiringSoon"}));
}

// A pass that falls behind (the server was down across two boundaries)
// materializes the status it finds, once.
TEST_F(Expiry, ALatePassMaterializesOnlyTheCurrentStatus) {
  auto w = Make("exp-late");
  SetServerTime(api(), At(50));
  RunJobs(api());
  EXPECT_EQ(Kinds(Warnings(w.t)), std::vector<std::string>{"Expired"});
}

// Concurrent passes (the jobs' thread and POST /dev/jobs/run, or several
// nodes) still notify once, and never fail each other: on PostgreSQL two
// passes that took the entries in different orders once deadlocked.
TEST_F(Expiry, ConcurrentPassesNotifyOnce) {
  auto w = Make("exp-concurrent");
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(NewEntry(w.t, "c" + std::to_string(i), 30));
  size_t expected = 0;
  for (const double day : {22.0, 31.0, 36.0}) {  // ExpiringSoon, Warning, Expired for each of the six
    SetServerTime(api(), At(day));
    auto answers = Concurrently(4, [](HttpClient& c) { return c.Post("/dev/jobs/run", json::object{}); });
    for (const auto& a : answers) EXPECT_EQ(a.status, 200) << a.body;
    RunJobs(api());  // whatever a pass that lost the lease left
    expected += 6;
    auto warnings = Warnings(w.t);
    EXPECT_EQ(warnings.size(), expected) << "day " << day;
    std::set<std::pair<std::string, std::string>> once;
    for (const auto& n : warnings) once.insert({Str(n, "entryId"), Str(n, "kind")});
    EXPECT_EQ(once.size(), expected) << "day " << day;
  }
}

// Changing a template's windows, or which template applies, makes the
// scheduler look at the entries again.
TEST_F(Expiry, TemplateChangesAreRechecked) {
  auto w = Make("exp-recheck");
  SetServerTime(api(), At(5));
  RunJobs(api());
  EXPECT_TRUE(Warnings(w.t).empty());
  // A warning window of 28 days starts on day 2: the entry is in it now.
  auto edit =
      api().Put("/api/expiry-templates/" + w.template_id,
                {{"name", "Standard"}, {"expiryDays", 30}, {"warningDays", 28}, {"graceDays", 5}}, w.t.token("admin"));
  ASSERT_EQ(edit.status, 200) << edit.body;
  EXPECT_EQ(StatusOf(w.t, w.entry_id), "ExpiringSoon");
  RunJobs(api());
  EXPECT_EQ(Kinds(Warnings(w.t)), std::vector<std::string>{"ExpiringSoon"});

  // The entry's own template (grace 0, no warning) applies after change-template.
  auto strict =
      api().Post("/api/expiry-templates",
                 {{"name", "Strict"}, {"expiryDays", 30}, {"warningDays", 0}, {"graceDays", 0}}, w.t.token("admin"));
  ASSERT_EQ(strict.status, 201);
  ASSERT_EQ(api()
                .Post("/api/entries/" + w.entry_id + "/change-template", {{"templateId", Str(strict.Json(), "id")}},
                      w.t.token("editor"))
                .status,
            200);
  EXPECT_EQ(StatusOf(w.t, w.entry_id), "Published");
  SetServerTime(api(), At(30));
  EXPECT_EQ(StatusOf(w.t, w.entry_id), "Expired");
  RunJobs(api());
  EXPECT_EQ(Kinds(Warnings(w.t)), (std::vector<std::string>{"Expired", "ExpiringSoon"}));
}

TEST_F(Expiry, HubDefaultTemplateMustExistInTheTenant) {
  auto w = Make("exp-hubtpl");
  auto other = CreateTenant(api(), "exp-hubtpl-other");
  auto foreign = api().Post("/api/expiry-templates", {{"name", "Foreign"}, {"expiryDays", 30}}, other.token("admin"));
  ASSERT_EQ(foreign.status, 201);
  for (const std::string& id : {std::string(kUnknownId), Str(foreign.Json(), "id")}) {
    ExpectValidation(
        api().Post("/api/hubs",
                   {{"key", "h2"}, {"name", "H2"}, {"defaultExpiryDays", 30}, {"defaultExpiryTemplateId", id}},
                   w.t.token("admin")),
        "defaultExpiryTemplateId");
    ExpectValidation(
        api().Put("/api/hubs/docs", {{"name", "Docs"}, {"defaultExpiryDays", 30}, {"defaultExpiryTemplateId", id}},
                  w.t.token("admin")),
        "defaultExpiryTemplateId");
  }
}

TEST_F(Expiry, AcknowledgeRemovesAWarningForItsOwnerOnly) {
  auto w = Make("exp-ack");
  SetServerTime(api(), At(21));
  RunJobs(api());
  auto warnings = Warnings(w.t);
  ASSERT_EQ(warnings.size(), 1u);
  const std::string id = Str(warnings[0], "id");

  ExpectProblem(api().Post("/api/notifications/" + id + "/acknowledge", json::object{}, w.t.token("admin")), 404,
                "not_found");
  auto other = CreateTenant(api(), "exp-ack-other");
  ExpectProblem(api().Post("/api/notifications/" + id + "/acknowledge", json::object{}, other.token("admin")), 404,
                "not_found");
  ExpectProblem(
      api().Post("/api/notifications/" + std::string(kUnknownId) + "/acknowledge", json::object{}, w.t.token("editor")),
      404, "not_found");
  ExpectProblem(api().Post("/api/notifications/not-a-uuid/acknowledge", json::object{}, w.t.token("editor")), 400,
                "invalid_path_parameter");
  ExpectProblem(api().Post("/api/notifications/" + id + "/acknowledge", json::object{}), 401, "missing_credentials");
  EXPECT_EQ(Warnings(w.t).size(), 1u);

  auto ack = api().Post("/api/notifications/" + id + "/acknowledge", json::object{}, w.t.token("editor"));
  ASSERT_EQ(ack.status, 200) << ack.body;
  EXPECT_TRUE(ack.Json().at("isAcknowledged").as_bool());
  const std::string first = Str(ack.Json(), "acknowledgedAt");
  SetServerTime(api(), At(22));
  auto again = api().Post("/api/notifications/" + id + "/acknowledge", json::object{}, w.t.token("editor"));
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(Str(again.Json(), "acknowledgedAt"), first);
  EXPECT_TRUE(Warnings(w.t).empty());
  EXPECT_TRUE(Warnings(other, "admin").empty());
}

TEST_F(Expiry, AcknowledgeAllClearsTheCallersWarningsOnly) {
  auto w = Make("exp-ack-all");
  auto other = Make("exp-ack-all-other");
  SetServerTime(api(), At(31));
  RunJobs(api());
  SetServerTime(api(), At(36));
  RunJobs(api());
  ASSERT_EQ(Warnings(w.t).size(), 2u);
  const size_t theirs = Warnings(other.t).size();
  ASSERT_GT(theirs, 0u);

  auto none = api().Post("/api/notifications/acknowledge-all", json::object{}, w.t.token("admin"));
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_EQ(none.Json().at("acknowledged").as_int64(), 0);  // the admin has none
  auto all = api().Post("/api/notifications/acknowledge-all", json::object{}, w.t.token("editor"));
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_EQ(all.Json().at("acknowledged").as_int64(), 2);
  EXPECT_TRUE(Warnings(w.t).empty());
  EXPECT_EQ(Warnings(other.t).size(), theirs);  // another tenant's stay
  EXPECT_EQ(api()
                .Post("/api/notifications/acknowledge-all", json::object{}, w.t.token("editor"))
                .Json()
                .at("acknowledged")
                .as_int64(),
            0);
  ExpectProblem(api().Post("/api/notifications/acknowledge-all", json::object{}), 401, "missing_credentials");
}

TEST_F(Expiry, MyDashboardCountsTheEntriesIOwn) {
  auto w = Make("exp-me");
  NewEntry(w.t, "short", 5);
  NewEntry(w.t, "long", 300);
  NewEntry(w.t, "draft", 5, /*publish=*/false);
  SetServerTime(api(), At(6));  // short: Warning (grace 5); guide: Published; long: Published
  auto me = api().Get("/api/expiry-dashboard/me", w.t.token("editor"));
  ASSERT_EQ(me.status, 200) << me.body;
  const json::value body = me.Json();
  const auto& c = body.at("counts");
  EXPECT_EQ(c.at("total").as_int64(), 4);
  EXPECT_EQ(c.at("draft").as_int64(), 1);
  EXPECT_EQ(c.at("published").as_int64(), 2);
  EXPECT_EQ(c.at("warning").as_int64(), 1);
  EXPECT_EQ(c.at("expired").as_int64(), 0);
  const auto& upcoming = body.at("upcoming").as_array();
  ASSERT_EQ(upcoming.size(), 3u);
  EXPECT_EQ(Str(upcoming[0], "key"), "short");
  EXPECT_EQ(Str(upcoming[1], "key"), "guide");
  EXPECT_EQ(Str(upcoming[2], "key"), "long");

  auto admin = api().Get("/api/expiry-dashboard/me", w.t.token("admin"));
  ASSERT_EQ(admin.status, 200);
  EXPECT_EQ(admin.Json().at("counts").at("total").as_int64(), 0);
  ExpectProblem(api().Get("/api/expiry-dashboard/me"), 401, "missing_credentials");
}

TEST_F(Expiry, SummaryCountsPerHubWhatTheCallerMayView) {
  auto w = Make("exp-summary");
  NewEntry(w.t, "two", 100);
  // A hub the guest cannot see (no default role, no membership).
  ASSERT_EQ(
      api()
          .Post("/api/hubs", {{"key", "secret"}, {"name", "Secret"}, {"defaultExpiryDays", 30}}, w.t.token("admin"))
          .status,
      201);
  ASSERT_EQ(
      api()
          .Post(
              "/api/entries",
              {{"hubKey", "secret"}, {"key", "s"}, {"originalLanguage", "en"}, {"title", "S"}, {"content", Doc({"x"})}},
              w.t.token("admin"))
          .status,
      201);
  SetServerTime(api(), At(25));
  auto admin = api().Get("/api/expiry-dashboard/summary", w.t.token("admin"));
  ASSERT_EQ(admin.status, 200) << admin.body;
  const json::value summary = admin.Json();
  EXPECT_EQ(summary.at("totals").at("total").as_int64(), 3);
  const auto& hubs = summary.at("hubs").as_array();
  ASSERT_EQ(hubs.size(), 2u);
  EXPECT_EQ(Str(hubs[0], "hubKey"), "docs");
  EXPECT_EQ(hubs[0].at("counts").at("expiringSoon").as_int64(), 1);
  EXPECT_EQ(hubs[0].at("counts").at("published").as_int64(), 1);
  EXPECT_EQ(Str(hubs[1], "hubKey"), "secret");
  EXPECT_EQ(hubs[1].at("counts").at("draft").as_int64(), 1);

  auto guest = api().Get("/api/expiry-dashboard/summary", w.t.token("guest"));
  ASSERT_EQ(guest.status, 200) << guest.body;
  EXPECT_EQ(guest.Json().at("totals").at("total").as_int64(), 0);
  EXPECT_TRUE(guest.Json().at("hubs").as_array().empty());

  auto other = CreateTenant(api(), "exp-summary-other");
  auto theirs = api().Get("/api/expiry-dashboard/summary", other.token("admin"));
  ASSERT_EQ(theirs.status, 200);
  EXPECT_TRUE(theirs.Json().at("hubs").as_array().empty());
}

TEST_F(Expiry, HubEntriesDashboardNeedsAccessToTheHub) {
  auto w = Make("exp-hubdash");
  NewEntry(w.t, "soon", 3);
  auto r = api().Get("/api/expiry-dashboard/hubs/docs/entries", w.t.token("viewer"));
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value rows = r.Json();
  ASSERT_EQ(rows.as_array().size(), 2u);
  EXPECT_EQ(Str(rows.as_array()[0], "key"), "soon");  // soonest expiry first
  EXPECT_EQ(Str(rows.as_array()[0], "status"), "ExpiringSoon");
  ExpectProblem(api().Get("/api/expiry-dashboard/hubs/docs/entries", w.t.token("guest")), 404, "not_found");
  ExpectProblem(api().Get("/api/expiry-dashboard/hubs/nope/entries", w.t.token("admin")), 404, "not_found");
  auto other = CreateTenant(api(), "exp-hubdash-other");
  ExpectProblem(api().Get("/api/expiry-dashboard/hubs/docs/entries", other.token("admin")), 404, "not_found");
}

// A materialized transition survives a crash: after kill -9 and a restart,
// a pass that looks at the entry again (a recheck) notifies nobody twice.
TEST_F(Expiry, TransitionsFireOnceAcrossACrash) {
  ServerProcess server(SharedServerOptions());
  HttpClient client(server.base_url());
  SetServerTime(client, kStart);
  auto t = CreateTenant(client, "exp-crash");
  auto tpl =
      client.Post("/api/expiry-templates", {{"name", "T"}, {"expiryDays", 30}, {"warningDays", 10}}, t.token("admin"));
  ASSERT_EQ(tpl.status, 201) << tpl.body;
  ASSERT_EQ(client
                .Post("/api/hubs",
                      {{"key", "docs"},
                       {"name", "Docs"},
                       {"defaultExpiryDays", 30},
                       {"defaultExpiryTemplateId", Str(tpl.Json(), "id")}},
                      t.token("admin"))
                .status,
            201);
  auto e = client.Post("/api/entries",
                       {{"hubKey", "docs"},
                        {"key", "k"},
                        {"originalLanguage", "en"},
                        {"title", "K"},
                        {"content", Doc({"x"})},
                        {"expiryDays", 30}},
                       t.token("admin"));
  ASSERT_EQ(e.status, 201);
  const std::string id = Str(e.Json(), "id");
  ASSERT_EQ(client.Post("/api/entries/" + id + "/publish", json::object{}, t.token("admin")).status, 200);
  SetServerTime(client, At(25));
  RunJobs(client);
  auto before = client.Get("/api/notifications/expiry-warnings", t.token("admin"));
  ASSERT_EQ(before.Json().as_array().size(), 1u) << before.body;

  server.Kill();
  server.Restart();
  HttpClient again(server.base_url());
  SetServerTime(again, At(26));
  ASSERT_EQ(
      again.Post("/api/entries/" + id + "/change-template", {{"templateId", Str(tpl.Json(), "id")}}, t.token("admin"))
          .status,
      200);  // schedules a recheck; the template's windows are the same
  auto run = RunJobs(again);
  EXPECT_GE(run.at("scheduler").at("checked").as_int64(), 1);
  EXPECT_EQ(run.at("scheduler").at("notifications").as_int64(), 0);
  auto after = again.Get("/api/notifications/expiry-warnings", t.token("admin"));
  ASSERT_EQ(after.status, 200);
  EXPECT_EQ(after.Json().as_array().size(), 1u) << after.body;
}

TEST_F(Expiry, TheTestClockIsDevelopmentOnlyAndValidated) {
  ExpectValidation(api().Put("/dev/clock", {{"now", "yesterday"}}), "now");
  ExpectValidation(api().Put("/dev/clock", json::object{}), "now");
  ServerProcess prod(ServerOptions{.dev = false});
  HttpClient client(prod.base_url());
  EXPECT_EQ(client.Put("/dev/clock", {{"now", kStart}}).status, 404);
  EXPECT_EQ(client.Post("/dev/jobs/run", json::object{}).status, 404);
}

}  // namespace
}  // namespace credence::test
