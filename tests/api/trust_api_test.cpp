// The trust endpoints over real HTTP: evaluate and filter-sources over the
// three source forms and unresolved ids, the ledger record of every call
// (as at decision time, chained, verifiable, tamper-evident, durable across
// kill -9), source metadata, usage, access and isolation, bad input. Runs
// on SQLite and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "storage/database.h"
#include "storage/session.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"
#include "support/store_sql.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class Trust : public ClockedApiTest {
 protected:
  struct World {
    TestTenant t;
    std::string published;  // reviewed, fresh
    std::string draft;
  };

  World Make(const std::string& prefix) {
    World w{CreateTenant(api(), prefix), "", ""};
    w.published = MakeReviewedEntry(api(), w.t, "kb", "refunds", {"Refunds take 5 days."});
    w.draft = Str(MakeEntry(api(), w.t.token("editor"), "kb", "draft", {"Work in progress."}), "id");
    return w;
  }

  Response Evaluate(const TestTenant& t, const std::vector<std::string>& sources, json::object context = {},
                    const std::string& path = "/api/trust/evaluate") {
    json::array list;
    for (const auto& s : sources) list.emplace_back(s);
    return api().Post(path, {{"sources", std::move(list)}, {"context", std::move(context)}}, t.token("viewer"));
  }
};

TEST_F(Trust, EvaluateDecidesEachSourceInOrderAndRecordsTheDecision) {
  auto w = Make("trust-eval");
  const std::vector<std::string> sources = {"entry:" + w.published, "entry:" + w.draft, "wiki:unknown:page",
                                            "entry:" + std::string(kUnknownId), "not a source id"};
  auto r = Evaluate(w.t, sources,
                    {{"actorType", "ai_agent"},
                     {"actorLabel", "helpdesk-bot"},
                     {"action", "answer_employee"},
                     {"channel", "internal"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value body = r.Json();
  EXPECT_EQ(Str(body, "overallDecision"), "block");
  const auto& results = body.at("results").as_array();
  ASSERT_EQ(results.size(), sources.size());
  for (size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(Str(results[i], "sourceId"), sources[i]);

  EXPECT_EQ(Str(results[0], "decision"), "allow") << json::serialize(results[0]);
  EXPECT_TRUE(Codes(results[0]).empty());
  EXPECT_EQ(Str(results[0], "entryId"), w.published);
  EXPECT_EQ(Str(results[0], "origin"), "Native");
  EXPECT_EQ(Str(results[0], "classification"), "Published");
  EXPECT_EQ(Str(results[0], "policySource"), "tenant-default");
  EXPECT_GE(results[0].at("freshnessScore").as_int64(), 90);

  EXPECT_EQ(Str(results[1], "decision"), "block");
  EXPECT_EQ(Codes(results[1])[0], "not_published");
  for (size_t i = 2; i < sources.size(); ++i) {
    EXPECT_EQ(Str(results[i], "decision"), "block");
    EXPECT_FALSE(results[i].at("resolved").as_bool());
    EXPECT_EQ(Codes(results[i]), std::vector<std::string>{"source_unresolved"});
  }

  auto record = api().Get("/api/trust/decisions/" + Str(body, "decisionId"), w.t.token("viewer"));
  ASSERT_EQ(record.status, 200) << record.body;
  const json::value rec = record.Json();
  EXPECT_EQ(Str(rec, "overallDecision"), "block");
  EXPECT_EQ(Str(rec, "endpoint"), "Evaluate");
  EXPECT_EQ(Str(rec, "actorKind"), "user");
  EXPECT_EQ(Str(rec, "actorLabel"), "helpdesk-bot");
  EXPECT_EQ(Str(rec, "channel"), "internal");
  EXPECT_EQ(rec.at("counts").at("total").as_int64(), 5);
  EXPECT_EQ(rec.at("counts").at("allowed").as_int64(), 1);
  EXPECT_EQ(rec.at("counts").at("blocked").as_int64(), 4);
  ASSERT_EQ(rec.at("sources").as_array().size(), 5u);
  EXPECT_EQ(Str(rec.at("sources").as_array()[0], "decision"), "allow");
  EXPECT_EQ(Str(rec.at("sources").as_array()[0].at("state"), "status"), "Published");
}

TEST_F(Trust, APreviewDecidesLikeEvaluateAndRecordsNothing) {
  auto w = Make("trust-preview");
  const std::vector<std::string> sources = {"entry:" + w.published, "entry:" + w.draft};
  const json::object context{{"channel", "public_support_chat"}};
  auto preview = Evaluate(w.t, sources, context, "/api/trust/preview");
  ASSERT_EQ(preview.status, 200) << preview.body;
  EXPECT_FALSE(preview.Json().as_object().contains("decisionId"));
  auto evaluated = Evaluate(w.t, sources, context);
  ASSERT_EQ(evaluated.status, 200) << evaluated.body;
  EXPECT_EQ(Str(preview.Json(), "overallDecision"), Str(evaluated.Json(), "overallDecision"));
  const json::value preview_body = preview.Json();
  const json::value evaluated_body = evaluated.Json();
  const auto& a = preview_body.at("results").as_array();
  const auto& b = evaluated_body.at("results").as_array();
  ASSERT_EQ(a.size(), 2u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(Str(a[i], "decision"), Str(b[i], "decision"));
    EXPECT_EQ(Codes(a[i]), Codes(b[i]));
  }
  // Only the evaluate is in the ledger.
  auto verify = api().Get("/trust-admin/ledger/verify", w.t.token("admin"));
  ASSERT_EQ(verify.status, 200) << verify.body;
  EXPECT_EQ(verify.Json().at("checked").as_int64(), 1);
  // People only: a machine key with trust:evaluate is refused.
  auto key =
      api().Post("/api/apikeys", {{"name", "bot"}, {"scopes", json::array{"trust:evaluate"}}}, w.t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  auto machine = api().Post("/api/trust/preview", {{"sources", json::array{"entry:" + w.published}}},
                            Str(key.Json(), "clientSecret"));
  EXPECT_EQ(machine.status, 403) << machine.body;
  ExpectProblem(Evaluate(w.t, {}, {}, "/api/trust/preview"), 400, "no_sources");
  // Another tenant's people see nothing of this tenant's entry.
  auto other = CreateTenant(api(), "trust-preview-other");
  auto theirs = Evaluate(other, {"entry:" + w.published}, {}, "/api/trust/preview");
  ASSERT_EQ(theirs.status, 200) << theirs.body;
  const json::value their_body = theirs.Json();
  const auto& result = their_body.at("results").as_array().at(0);
  EXPECT_EQ(Str(result, "decision"), "block");
  EXPECT_FALSE(result.at("resolved").as_bool());
}

TEST_F(Trust, TheLedgerListsDecisionsNewestFirstWithFiltersAndPages) {
  auto w = Make("trust-list");
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    auto r =
        Evaluate(w.t, {i % 2 == 0 ? "entry:" + w.published : "entry:" + w.draft},
                 {{"channel", i < 3 ? "internal" : "public_support_chat"}, {"actorLabel", "bot-" + std::to_string(i)}});
    ASSERT_EQ(r.status, 200) << r.body;
    ids.push_back(Str(r.Json(), "decisionId"));
  }
  const std::string admin = w.t.token("admin");
  auto all = api().Get("/trust-admin/ledger/decisions", admin);
  ASSERT_EQ(all.status, 200) << all.body;
  const json::value body = all.Json();
  const auto& list = body.at("decisions").as_array();
  ASSERT_EQ(list.size(), 5u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(Str(list[i], "decisionId"), ids[4 - i]);  // newest first
  EXPECT_EQ(Str(list[0], "actorLabel"), "bot-4");
  EXPECT_EQ(Str(list[0], "overallDecision"), "allow");
  EXPECT_EQ(list[0].at("counts").at("total").as_int64(), 1);
  EXPECT_TRUE(body.at("nextCursor").is_null());

  auto blocked = api().Get("/trust-admin/ledger/decisions?decision=block", admin);
  ASSERT_EQ(blocked.status, 200) << blocked.body;
  EXPECT_EQ(blocked.Json().at("decisions").as_array().size(), 2u);  // the draft, twice
  auto customer = api().Get("/trust-admin/ledger/decisions?channel=public_support_chat", admin);
  EXPECT_EQ(customer.Json().at("decisions").as_array().size(), 2u);

  // Pages of two follow the cursor to the end.
  std::vector<std::string> paged;
  std::string cursor;
  for (int page = 0; page < 5; ++page) {
    auto r = api().Get("/trust-admin/ledger/decisions?limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor), admin);
    ASSERT_EQ(r.status, 200) << r.body;
    const json::value p = r.Json();
    for (const auto& d : p.at("decisions").as_array()) paged.push_back(Str(d, "decisionId"));
    if (p.at("nextCursor").is_null()) break;
    cursor = std::to_string(p.at("nextCursor").as_int64());
  }
  EXPECT_EQ(paged, std::vector<std::string>(ids.rbegin(), ids.rend()));

  // Tomorrow has none; a day window holds them all.
  auto future = api().Get("/trust-admin/ledger/decisions?from=2999-01-01", admin);
  EXPECT_TRUE(future.Json().at("decisions").as_array().empty());

  ExpectProblem(api().Get("/trust-admin/ledger/decisions", w.t.token("viewer")), 403, "forbidden");
  ExpectValidation(api().Get("/trust-admin/ledger/decisions?decision=maybe", admin), "decision");
  ExpectValidation(api().Get("/trust-admin/ledger/decisions?from=yesterday", admin), "from");
  ExpectValidation(api().Get("/trust-admin/ledger/decisions?limit=0", admin), "limit");
  // Another tenant sees none of them.
  auto other = CreateTenant(api(), "trust-list-other");
  auto theirs = api().Get("/trust-admin/ledger/decisions", other.token("admin"));
  ASSERT_EQ(theirs.status, 200);
  EXPECT_TRUE(theirs.Json().at("decisions").as_array().empty());
}

TEST_F(Trust, TheRecordKeepsTheStateAsItWasAtDecisionTime) {
  auto w = Make("trust-asof");
  auto first = Evaluate(w.t, {"entry:" + w.published}, {{"channel", "internal"}});
  ASSERT_EQ(first.status, 200);
  const std::string id = Str(first.Json(), "decisionId");
  // Edit the entry, a while after its review: the source changed after it.
  AdvanceServerDays(api(), 1);
  auto entry = api().Get("/api/entries/" + w.published, w.t.token("editor")).Json().as_object();
  entry["content"] = Doc({"Refunds take 10 days."});
  ASSERT_EQ(api().Put("/api/entries/" + w.published, entry, w.t.token("editor")).status, 200);
  auto second = Evaluate(w.t, {"entry:" + w.published}, {{"channel", "internal"}});
  ASSERT_EQ(second.status, 200);
  const json::value now = second.Json().at("results").as_array()[0];
  EXPECT_EQ(Str(now, "decision"), "warn");
  EXPECT_EQ(Codes(now), std::vector<std::string>{"source_changed_after_review"});
  EXPECT_TRUE(now.at("requirements").at("citationRequired").as_bool());

  auto then = api().Get("/api/trust/decisions/" + id, w.t.token("viewer"));
  ASSERT_EQ(then.status, 200);
  const json::value src = then.Json().at("sources").as_array()[0];
  EXPECT_EQ(Str(src, "decision"), "allow");
  EXPECT_EQ(src.at("state").at("version").as_int64(), 1);
}

// Evaluations are served from a per-tenant cache of resolved sources; any
// write that changes a source's facts is seen by the very next evaluation.
TEST_F(Trust, TheNextEvaluationSeesEveryKindOfChange) {
  auto w = Make("trust-fresh");
  auto decide = [&] {
    auto r = Evaluate(w.t, {"entry:" + w.published}, {{"channel", "internal"}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().at("results").as_array()[0];
  };
  EXPECT_TRUE(Codes(decide()).empty());

  // A template whose warning window opens a day after the entry was made
  // (its expiry date is a year out, from the hub).
  AdvanceServerDays(api(), 2);
  auto tpl = api().Post("/api/expiry-templates", {{"name", "Long warning"}, {"expiryDays", 365}, {"warningDays", 364}},
                        w.t.token("admin"));
  ASSERT_EQ(tpl.status, 201) << tpl.body;
  ASSERT_EQ(api()
                .Post("/api/entries/" + w.published + "/change-template", {{"templateId", Str(tpl.Json(), "id")}},
                      w.t.token("editor"))
                .status,
            200);
  EXPECT_EQ(Codes(decide()), std::vector<std::string>{"expiring_soon"});

  // The owner (the editor) leaves the tenant.
  ASSERT_EQ(api().Delete("/api/users/" + w.t.user_ids.at("editor"), w.t.token("admin")).status, 204);
  EXPECT_EQ(Codes(decide()), (std::vector<std::string>{"expiring_soon", "owner_inactive"}));

  // Back to draft.
  auto entry = api().Get("/api/entries/" + w.published, w.t.token("admin")).Json().as_object();
  entry["status"] = "Draft";
  ASSERT_EQ(api().Put("/api/entries/" + w.published, entry, w.t.token("admin")).status, 200);
  EXPECT_EQ(Codes(decide())[0], "not_published");
}

// With nothing written, time alone moves a cached source from allowed to
// expiring soon to expired: statuses, days and scores are derived for each
// request, and the reused text of an earlier answer is never served for a
// different outcome.
TEST_F(Trust, TimeAloneChangesTheDecisionsOfCachedSources) {
  auto w = Make("trust-time");
  auto decide = [&] {
    auto r = Evaluate(w.t, {"entry:" + w.published}, {{"channel", "internal"}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().at("results").as_array()[0];
  };
  const auto now = decide();
  EXPECT_TRUE(Codes(now).empty());
  EXPECT_TRUE(Codes(decide()).empty());  // served from the caches
  AdvanceServerDays(api(), 360);         // five days before the hub's 365-day expiry
  const auto soon = decide();
  EXPECT_EQ(Codes(soon)[0], "expiring_soon");
  EXPECT_EQ(soon.at("reasons").as_array()[0].at("data").at("daysUntilExpiry").as_int64(), 4);
  AdvanceServerDays(api(), 1);
  EXPECT_EQ(decide().at("reasons").as_array()[0].at("data").at("daysUntilExpiry").as_int64(), 3);
  AdvanceServerDays(api(), 10);
  const auto expired = decide();
  EXPECT_EQ(Str(expired, "decision"), "block");
  EXPECT_EQ(Codes(expired)[0], "expired");
  EXPECT_EQ(Str(expired, "classification"), "Expired");
}

// A source decided before in the same context with the same time facts
// reuses that decision without running the rules (SourceMemo). Contexts
// taking turns, more of them than a memo keeps, each get their own answer,
// and a review ageing day by day is seen every day.
TEST_F(Trust, ContextsTakingTurnsAndAgeingReviewsGetTheirOwnDecisions) {
  auto w = Make("trust-turns");
  auto decide = [&](const std::string& channel) {
    auto r = Evaluate(w.t, {"entry:" + w.published}, {{"channel", channel}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().at("results").as_array()[0];
  };
  const int64_t fresh_score = decide("internal").at("freshnessScore").as_int64();
  for (int round = 0; round < 3; ++round) {
    EXPECT_TRUE(Codes(decide("internal")).empty());
    for (int i = 0; i < 6; ++i) {
      const std::string channel = "pigeon_" + std::to_string(i);
      const auto result = decide(channel);
      ASSERT_EQ(Codes(result), std::vector<std::string>{"unknown_channel"});
      EXPECT_EQ(Str(result.at("reasons").as_array()[0].at("data"), "channel"), channel);
    }
  }
  AdvanceServerDays(api(), 181);  // the tenant default allows reviews up to 180 days old
  auto aged = decide("internal");
  ASSERT_EQ(Codes(aged), std::vector<std::string>{"review_too_old"});
  EXPECT_EQ(aged.at("reasons").as_array()[0].at("data").at("ageDays").as_int64(), 181);
  EXPECT_EQ(decide("internal").at("reasons").as_array()[0].at("data").at("ageDays").as_int64(), 181);
  AdvanceServerDays(api(), 1);
  aged = decide("internal");
  EXPECT_EQ(aged.at("reasons").as_array()[0].at("data").at("ageDays").as_int64(), 182);
  EXPECT_LT(aged.at("freshnessScore").as_int64(), fresh_score);
}

TEST_F(Trust, FilterSourcesPartitionsKeepingOrder) {
  auto w = Make("trust-filter");
  auto r = Evaluate(w.t, {"entry:" + w.draft, "entry:" + w.published, "x:y"}, {{"channel", "internal"}},
                    "/api/trust/filter-sources");
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value b = r.Json();
  ASSERT_EQ(b.at("allowed").as_array().size(), 1u);
  EXPECT_EQ(Str(b.at("allowed").as_array()[0], "entryId"), w.published);
  EXPECT_TRUE(b.at("warned").as_array().empty());
  ASSERT_EQ(b.at("blocked").as_array().size(), 2u);
  EXPECT_EQ(Str(b.at("blocked").as_array()[0], "sourceId"), "entry:" + w.draft);
  EXPECT_EQ(Str(b.at("blocked").as_array()[1], "sourceId"), "x:y");
  auto rec = api().Get("/api/trust/decisions/" + Str(b, "decisionId"), w.t.token("admin"));
  ASSERT_EQ(rec.status, 200);
  EXPECT_EQ(Str(rec.Json(), "endpoint"), "FilterSources");
}

TEST_F(Trust, UnknownChannelsAreTreatedAsCustomerFacing) {
  auto w = Make("trust-channel");
  auto r = Evaluate(w.t, {"entry:" + w.published}, {{"channel", "carrier_pigeon"}});
  ASSERT_EQ(r.status, 200);
  const json::value result = r.Json().at("results").as_array()[0];
  EXPECT_EQ(Str(result, "decision"), "allow");
  EXPECT_EQ(Codes(result), std::vector<std::string>{"unknown_channel"});
}

TEST_F(Trust, BadInputIsA400) {
  auto w = Make("trust-bad");
  const std::string token = w.t.token("viewer");
  ExpectValidation(api().Post("/api/trust/evaluate", json::object{}, token), "sources");
  ExpectValidation(api().Post("/api/trust/evaluate", {{"sources", "entry:x"}}, token), "sources");
  ExpectValidation(api().Post("/api/trust/evaluate", {{"sources", json::array{1}}}, token), "sources[0]");
  ExpectValidation(api().Post("/api/trust/evaluate", {{"sources", json::array{std::string(2049, 'a')}}}, token),
                   "sources[0]");
  ExpectValidation(api().Post("/api/trust/evaluate", {{"sources", json::array{"a:b"}}, {"context", "internal"}}, token),
                   "context");
  ExpectValidation(api().Post("/api/trust/evaluate",
                              {{"sources", json::array{"a:b"}}, {"context", {{"externalModel", "yes"}}}}, token),
                   "context.externalModel");
  ExpectValidation(
      api().Post("/api/trust/evaluate", {{"sources", json::array{"a:b"}}, {"context", {{"language", "xx"}}}}, token),
      "context.language");
  ExpectProblem(api().Get("/api/trust/decisions/not-a-uuid", token), 400, "invalid_path_parameter");
  ExpectValidation(api().Get("/api/trust/sources", token), "sourceId");
  ExpectValidation(api().Post("/api/trust/usage", {{"sources", json::array{}}, {"outcome", "sent"}}, token), "outcome");
  ExpectValidation(
      api().Post("/api/trust/usage",
                 {{"sources", json::array{}}, {"outcome", "answer_sent"}, {"decisionId", kUnknownId}}, token),
      "decisionId");
  ExpectProblem(api().Post("/api/trust/evaluate", {{"sources", json::array{"a:b"}}}), 401, "missing_credentials");
}

// decisions.md 3 of the spec: the two counts have their own codes, on both
// endpoints, with the field still named; nothing reaches the ledger.
TEST_F(Trust, SourceCountsHaveTheirOwnCodes) {
  auto w = Make("trust-count");
  const std::string token = w.t.token("viewer");
  json::array many;
  for (int i = 0; i < 101; ++i) many.emplace_back("entry:" + std::to_string(i));
  json::array hundred;
  for (int i = 0; i < 100; ++i) hundred.emplace_back("wiki:page-" + std::to_string(i));
  for (const std::string path : {"/api/trust/evaluate", "/api/trust/filter-sources"}) {
    SCOPED_TRACE(path);
    auto empty = api().Post(path, {{"sources", json::array{}}}, token);
    ExpectProblem(empty, 400, "no_sources");
    EXPECT_EQ(ErrorFields(empty), std::set<std::string>{"sources"}) << empty.body;
    EXPECT_EQ(Str(empty.Json(), "type"), "urn:credence:problem:no_sources");
    auto too_many = api().Post(path, {{"sources", many}, {"context", {{"channel", "internal"}}}}, token);
    ExpectProblem(too_many, 400, "too_many_sources");
    EXPECT_EQ(ErrorFields(too_many), std::set<std::string>{"sources"}) << too_many.body;
    // Another violation beside the count: the count's code, both fields named.
    auto both = api().Post(path, {{"sources", many}, {"context", {{"externalModel", "yes"}}}}, token);
    ExpectProblem(both, 400, "too_many_sources");
    EXPECT_EQ(ErrorFields(both), (std::set<std::string>{"sources", "context.externalModel"})) << both.body;
    // Exactly 100 is fine.
    EXPECT_EQ(api().Post(path, {{"sources", hundred}}, token).status, 200);
  }
  // Usage reports take no more sources than a decision (an empty list is fine there).
  ExpectProblem(api().Post("/api/trust/usage", {{"sources", many}, {"outcome", "answer_sent"}}, token), 400,
                "too_many_sources");
  // Still plain validation failures: a missing array, a wrong type.
  ExpectValidation(api().Post("/api/trust/filter-sources", json::object{}, token), "sources");
  ExpectValidation(api().Post("/api/trust/filter-sources", {{"sources", "entry:x"}}, token), "sources");
}

TEST_F(Trust, DecisionsAndUsageAreTenantScoped) {
  auto w = Make("trust-iso");
  auto other = CreateTenant(api(), "trust-iso-other");
  auto r = Evaluate(w.t, {"entry:" + w.published});
  ASSERT_EQ(r.status, 200);
  const std::string id = Str(r.Json(), "decisionId");
  ExpectProblem(api().Get("/api/trust/decisions/" + id, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Get("/api/trust/decisions/" + std::string(kUnknownId), w.t.token("admin")), 404, "not_found");
  // Another tenant's entry does not resolve.
  auto theirs =
      api().Post("/api/trust/evaluate", {{"sources", json::array{"entry:" + w.published}}}, other.token("viewer"));
  ASSERT_EQ(theirs.status, 200);
  EXPECT_FALSE(theirs.Json().at("results").as_array()[0].at("resolved").as_bool());
  ExpectValidation(
      api().Post("/api/trust/usage",
                 {{"sources", json::array{"entry:" + w.published}}, {"outcome", "answer_sent"}, {"decisionId", id}},
                 other.token("viewer")),
      "decisionId");
  auto usage = api().Post("/api/trust/usage",
                          {{"sources", json::array{"entry:" + w.published}},
                           {"outcome", "answer_sent"},
                           {"decisionId", id},
                           {"actorLabel", "bot"}},
                          w.t.token("viewer"));
  ASSERT_EQ(usage.status, 202) << usage.body;
  EXPECT_EQ(Str(usage.Json(), "usageId").size(), 36u);
}

TEST_F(Trust, SourceMetadataForEveryForm) {
  auto w = Make("trust-meta");
  auto m = api().Get("/api/trust/sources/entry:" + w.published, w.t.token("viewer"));
  ASSERT_EQ(m.status, 200) << m.body;
  const json::value v = m.Json();
  EXPECT_TRUE(v.at("resolved").as_bool());
  EXPECT_EQ(Str(v, "title"), "Entry refunds");
  EXPECT_EQ(Str(v, "status"), "Published");
  EXPECT_EQ(Str(v.at("policy"), "source"), "tenant-default");
  EXPECT_TRUE(v.at("policy").at("aiRetrievable").as_bool());
  EXPECT_EQ(Str(v.at("policy"), "maxSensitivityForAi"), "Internal");
  auto unknown = api().Get("/api/trust/sources?sourceId=https%3A%2F%2Fexample.com%2Fa%2Fb", w.t.token("viewer"));
  ASSERT_EQ(unknown.status, 200) << unknown.body;
  EXPECT_FALSE(unknown.Json().at("resolved").as_bool());
  EXPECT_EQ(Str(unknown.Json(), "sourceId"), "https://example.com/a/b");
}

TEST_F(Trust, TheLedgerChainVerifiesAndNamesTheFirstAlteredRecord) {
  ServerProcess server(SharedServerOptions());
  HttpClient client(server.base_url());
  auto t = CreateTenant(client, "trust-chain");
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    auto r =
        client.Post("/api/trust/evaluate", {{"sources", json::array{"x:" + std::to_string(i)}}}, t.token("viewer"));
    ASSERT_EQ(r.status, 200);
    ids.push_back(Str(r.Json(), "decisionId"));
  }
  auto ok = client.Get("/trust-admin/ledger/verify", t.token("admin"));
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_TRUE(ok.Json().at("ok").as_bool());
  EXPECT_EQ(ok.Json().at("checked").as_int64(), 5);
  ExpectProblem(client.Get("/trust-admin/ledger/verify", t.token("viewer")), 403, "forbidden");

  // Alter the third record behind the service's back.
  server.Terminate();
  {
    const std::string sql =
        "UPDATE trust_decisions SET overall = 'allow', header = replace(header, '\"block\"',"
        " '\"allow\"') WHERE id = '" +
        ids[2] + "'";
    RunSqlBehindTheServer(server.database_url(), sql);
  }
  server.Restart();
  HttpClient again(server.base_url());
  auto bad = again.Get("/trust-admin/ledger/verify", t.token("admin"));
  ASSERT_EQ(bad.status, 200) << bad.body;
  EXPECT_FALSE(bad.Json().at("ok").as_bool());
  EXPECT_EQ(Str(bad.Json().at("firstInvalid"), "decisionId"), ids[2]);
  auto tail = again.Get("/trust-admin/ledger/verify?fromSequence=4", t.token("admin"));
  ASSERT_EQ(tail.status, 200);
  EXPECT_TRUE(tail.Json().at("ok").as_bool());
}

// The auditor's attack over HTTP: decisions by a machine key, their head
// signed (the background job, on demand in development mode), the signed
// heads and the public keys fetched as an outside party would; then, with
// the server stopped, one byte of a record's key_id changed, its
// evaluated_at moved back a day, and the tail cut off behind the signed
// head. The verify endpoint names the altered record and the head.
TEST_F(Trust, SignedHeadsAndEveryColumnCatchWhatAnAuditorAltered) {
  ServerProcess server(SharedServerOptions());
  HttpClient client(server.base_url());
  auto t = CreateTenant(client, "trust-heads");
  auto other = CreateTenant(client, "trust-heads-other");
  auto key = client.Post("/apikeys", {{"name", "bot"}, {"scopes", json::array{"trust:evaluate"}}}, t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  const std::string secret = Str(key.Json(), "clientSecret");
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    auto r = client.Post("/api/trust/evaluate",
                         {{"sources", json::array{"x:" + std::to_string(i)}},
                          {"context", {{"actorLabel", "bot-" + std::to_string(i)}, {"channel", "internal"}}}},
                         secret);
    ASSERT_EQ(r.status, 200) << r.body;
    ids.push_back(Str(r.Json(), "decisionId"));
  }
  auto run = client.Post("/dev/jobs/run", json::object{});
  ASSERT_EQ(run.status, 200) << run.body;
  EXPECT_GE(run.Json().at("chainHeads").at("signed").as_int64(), 1);

  // Anyone may read the keys; tenant admins the heads of their tenant.
  auto keys = client.Get("/.well-known/credence-chain-keys");
  ASSERT_EQ(keys.status, 200) << keys.body;
  const std::string key_id = Str(keys.Json(), "currentKeyId");
  ASSERT_EQ(keys.Json().at("keys").as_array().size(), 1u);
  EXPECT_EQ(Str(keys.Json().at("keys").at(0), "algorithm"), "Ed25519");
  auto heads = client.Get("/trust-admin/ledger/heads", t.token("admin"));
  ASSERT_EQ(heads.status, 200) << heads.body;
  ASSERT_EQ(heads.Json().at("items").as_array().size(), 1u);
  const json::value head = heads.Json().at("items").at(0);
  EXPECT_EQ(head.at("sequence").as_int64(), 5);
  EXPECT_EQ(Str(head, "keyId"), key_id);
  EXPECT_EQ(Str(head, "chain"), "ledger");
  ExpectProblem(client.Get("/trust-admin/ledger/heads", t.token("viewer")), 403, "forbidden");
  ExpectProblem(client.Get("/trust-admin/ledger/heads?limit=0", t.token("admin")), 400, "validation_failed");
  ExpectProblem(client.Get("/trust-admin/ledger/heads", secret), 403, "machine_credentials_not_allowed");
  // Isolation: another tenant's admin sees no head of this tenant.
  auto others = client.Get("/trust-admin/ledger/heads", other.token("admin"));
  ASSERT_EQ(others.status, 200);
  EXPECT_TRUE(others.Json().at("items").as_array().empty());

  const std::string outside = "headSequence=5&headHash=" + Str(head, "hash") +
                              "&headSignedAt=" + Str(head, "signedAt") + "&headKeyId=" + key_id +
                              "&headSignature=" + Str(head, "signature");
  auto ok = client.Get("/trust-admin/ledger/verify?" + outside, t.token("admin"));
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_TRUE(ok.Json().at("ok").as_bool()) << ok.body;
  EXPECT_EQ(ok.Json().at("heads").at("checked").as_int64(), 2);
  EXPECT_EQ(ok.Json().at("heads").at("newestSequence").as_int64(), 5);
  // An outside head that this chain never had, and malformed ones.
  auto wrong =
      client.Get("/trust-admin/ledger/verify?headSequence=3&headHash=" + std::string(64, 'a'), t.token("admin"));
  ASSERT_EQ(wrong.status, 200);
  EXPECT_FALSE(wrong.Json().at("ok").as_bool());
  EXPECT_TRUE(wrong.Json().at("heads").at("firstInvalid").at("outside").as_bool());
  ExpectProblem(client.Get("/trust-admin/ledger/verify?headSequence=3", t.token("admin")), 400, "validation_failed");
  ExpectProblem(
      client.Get("/trust-admin/ledger/verify?headSequence=3&headHash=" + std::string(64, 'a') + "&headSignature=abc",
                 t.token("admin")),
      400, "validation_failed");

  // One byte of record 2's key_id, record 3's time back a day, the tail
  // (record 5) cut off.
  server.Terminate();
  RunSqlBehindTheServer(server.database_url(),
                        "UPDATE trust_decisions SET key_id = key_id || 'x' WHERE id = '" + ids[1] + "'");
  server.Restart();
  HttpClient again(server.base_url());
  auto bad = again.Get("/trust-admin/ledger/verify", t.token("admin"));
  ASSERT_EQ(bad.status, 200) << bad.body;
  EXPECT_FALSE(bad.Json().at("ok").as_bool());
  EXPECT_EQ(Str(bad.Json().at("firstInvalid"), "decisionId"), ids[1]);
  EXPECT_NE(Str(bad.Json().at("firstInvalid"), "problem").find("key_id"), std::string::npos) << bad.body;

  server.Terminate();
  RunSqlBehindTheServer(
      server.database_url(),
      "UPDATE trust_decisions SET key_id = substr(key_id, 1, length(key_id) - 1) WHERE id = '" + ids[1] + "'");
  RunSqlBehindTheServer(
      server.database_url(),
      "UPDATE trust_decisions SET evaluated_at = evaluated_at - 86400000 WHERE id = '" + ids[2] + "'");
  RunSqlBehindTheServer(server.database_url(), "DELETE FROM trust_decisions WHERE id = '" + ids[4] + "'");
  server.Restart();
  HttpClient third(server.base_url());
  auto cut = third.Get("/trust-admin/ledger/verify?" + outside, t.token("admin"));
  ASSERT_EQ(cut.status, 200) << cut.body;
  EXPECT_FALSE(cut.Json().at("ok").as_bool());
  EXPECT_EQ(Str(cut.Json().at("firstInvalid"), "decisionId"), ids[2]) << cut.body;
  EXPECT_NE(Str(cut.Json().at("firstInvalid"), "problem").find("evaluated_at"), std::string::npos) << cut.body;
  EXPECT_EQ(cut.Json().at("heads").at("firstInvalid").at("sequence").as_int64(), 5) << cut.body;
  EXPECT_NE(Str(cut.Json().at("heads").at("firstInvalid"), "problem").find("tail"), std::string::npos) << cut.body;
  // The key survived the restart (its file is in the data directory).
  EXPECT_EQ(Str(third.Get("/.well-known/credence-chain-keys").Json(), "currentKeyId"), key_id);
}

// Every decision answered 200 survives a crash of the server in the middle
// of a load of evaluations, and the chain still verifies.
TEST_F(Trust, AnsweredDecisionsSurviveKill9DuringLoad) {
  ServerProcess server(SharedServerOptions());
  HttpClient setup(server.base_url());
  auto t = CreateTenant(setup, "trust-crash");
  std::mutex mu;
  std::vector<std::string> answered;
  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c)
    clients.emplace_back([&, c] {
      HttpClient client(server.base_url());
      for (int i = 0; !stop; ++i) {
        auto r = client.Post("/api/trust/evaluate",
                             {{"sources", json::array{"x:" + std::to_string(c) + "-" + std::to_string(i)}}},
                             t.token("viewer"));
        if (r.status != 200) continue;  // the server went away mid-request
        std::lock_guard lock(mu);
        answered.push_back(Str(r.Json(), "decisionId"));
      }
    });
  // Kill once a good number of decisions were answered.
  for (int spins = 0; spins < 2000; ++spins) {
    {
      std::lock_guard lock(mu);
      if (answered.size() >= 200) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  server.Kill();
  stop = true;
  for (auto& c : clients) c.join();
  ASSERT_GE(answered.size(), 50u);
  server.Restart();
  HttpClient again(server.base_url());
  for (const auto& id : answered)
    EXPECT_EQ(again.Get("/api/trust/decisions/" + id, t.token("viewer")).status, 200) << id;
  auto v = again.Get("/trust-admin/ledger/verify", t.token("admin"));
  EXPECT_TRUE(v.Json().at("ok").as_bool()) << v.body;
  EXPECT_GE(v.Json().at("checked").as_int64(), static_cast<int64_t>(answered.size()));
}

// Machine credentials: the key's scopes decide which trust endpoints it
// reaches (RFC 6750 answers), and the ledger names the key.
TEST_F(Trust, MachineKeysAreHeldToTheirScopes) {
  auto w = Make("trust-keys");
  auto create = [&](json::array scopes) {
    auto r = api().Post("/apikeys", {{"name", "bot"}, {"scopes", std::move(scopes)}}, w.t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return std::make_pair(Str(r.Json(), "id"), Str(r.Json(), "clientSecret"));
  };
  const auto [evaluate_id, evaluate_key] = create({"trust:evaluate"});
  const auto [read_id, read_key] = create({"trust:read", "trust:usage"});
  const json::object body{{"sources", json::array{"entry:" + w.published}},
                          {"context", {{"actorLabel", "support-bot"}, {"channel", "internal"}}}};

  auto ok = api().Post("/api/trust/evaluate", body, evaluate_key);
  ASSERT_EQ(ok.status, 200) << ok.body;
  const std::string decision = Str(ok.Json(), "decisionId");
  auto by_header = api().Send("POST", "/api/trust/filter-sources", json::serialize(body), "",
                              {{"X-Api-Key", evaluate_key}, {"Content-Type", "application/json"}});
  EXPECT_EQ(by_header.status, 200) << by_header.body;

  auto refused = api().Post("/api/trust/evaluate", body, read_key);
  ExpectProblem(refused, 403, "insufficient_scope");
  EXPECT_NE(refused.Header("www-authenticate").find("insufficient_scope"), std::string::npos);
  ExpectProblem(api().Get("/api/trust/decisions/" + decision, evaluate_key), 403, "insufficient_scope");
  ExpectProblem(api().Post("/api/trust/usage", {{"sources", json::array{}}, {"outcome", "answer_sent"}}, evaluate_key),
                403, "insufficient_scope");

  auto record = api().Get("/api/trust/decisions/" + decision, read_key);
  ASSERT_EQ(record.status, 200) << record.body;
  EXPECT_EQ(Str(record.Json(), "actorKind"), "machine");
  EXPECT_EQ(Str(record.Json(), "keyId"), evaluate_id);
  EXPECT_EQ(Str(record.Json(), "actorLabel"), "support-bot");
  EXPECT_TRUE(record.Json().at("userId").is_null());
  auto usage = api().Post(
      "/api/trust/usage",
      {{"sources", json::array{"entry:" + w.published}}, {"outcome", "answer_sent"}, {"decisionId", decision}},
      read_key);
  EXPECT_EQ(usage.status, 202) << usage.body;
  // Machine keys never reach the administration of the ledger.
  ExpectProblem(api().Get("/trust-admin/ledger/verify", read_key), 403, "machine_credentials_not_allowed");
  // A revoked key stops at once.
  ASSERT_EQ(api().Delete("/apikeys/" + evaluate_id, w.t.token("admin")).status, 204);
  EXPECT_EQ(api().Post("/api/trust/evaluate", body, evaluate_key).status, 401);
}

}  // namespace
}  // namespace credence::test
