// Content scanning over real HTTP (docs/scanning.md, "Where scanning
// happens"): entry saves are scanned in flight, findings set the source's
// machine facts, evaluation weighs them, a human's fact and a human's
// dismissal win, removing the secret clears it, the tenant setting turns
// it off and on; then bad input, access and isolation. Runs on SQLite and
// PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/ids.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

// A GitHub classic token in its real format (checksum included); nobody's.
std::string GithubToken(const std::string& seed) {
  std::string random = Base62Fixed(Crc32(seed), 6) + Base62Fixed(Crc32(seed + "a"), 6) +
                       Base62Fixed(Crc32(seed + "b"), 6) + Base62Fixed(Crc32(seed + "c"), 6) +
                       Base62Fixed(Crc32(seed + "d"), 6);
  return "ghp_" + random + Base62Fixed(Crc32(random), 6);
}

bool Has(const std::vector<std::string>& codes, const std::string& code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

class Scanning : public ClockedApiTest {
 protected:
  struct World {
    TestTenant t;
    std::string entry;  // published, fully reviewed, in hub kb, clean text
    std::vector<std::string> block_ids;
  };

  void SetUp() override {
    ClockedApiTest::SetUp();
    if (IsSkipped()) return;
    SetServerTime(api(), "2030-01-01T00:00:00Z");
  }

  World Make(const std::string& prefix) {
    World w{CreateTenant(api(), prefix), "", {}};
    EXPECT_EQ(api()
                  .Post("/api/hubs",
                        {{"key", "kb"}, {"name", "KB"}, {"defaultExpiryDays", 365}, {"defaultOrgRole", "Editor"}},
                        w.t.token("admin"))
                  .status,
              201);
    auto e = MakeEntry(api(), w.t.token("editor"), "kb", "deploy", {"How we deploy.", "Ask the platform team."});
    w.entry = Str(e, "id");
    w.block_ids = BlockIds(Str(e, "content"));
    EXPECT_EQ(api().Post("/api/entries/" + w.entry + "/publish", json::object{}, w.t.token("editor")).status, 200);
    auto review = api().Post("/api/entries/" + w.entry + "/review",
                             {{"reviewType", "FullReview"}, {"timeSpentSeconds", 60}}, w.t.token("editor"));
    EXPECT_EQ(review.status, 200) << review.body;
    return w;
  }

  Response Save(const World& w, const std::vector<std::string>& texts) {
    auto r = api().Put("/api/entries/" + w.entry, {{"title", "Deploy"}, {"content", Doc(texts, w.block_ids)}},
                       w.t.token("editor"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r;
  }

  json::value Evaluate(const World& w, const std::string& channel, bool external_model = false) {
    auto r = api().Post("/api/trust/evaluate",
                        {{"sources", json::array{json::value("entry:" + w.entry)}},
                         {"context", {{"channel", channel}, {"externalModel", external_model}}}},
                        w.t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return json::object{{"decision", "?"}, {"reasons", json::array{}}};
    return r.Json().at("results").as_array()[0];
  }

  json::array Findings(const World& w, const std::string& query = "") {
    auto r = api().Get("/trust-admin/findings" + (query.empty() ? "" : "?" + query), w.t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return {};
    return r.Json().at("findings").as_array();
  }

  json::value Sensitivity(const World& w) {
    auto r = api().Get("/trust-admin/sensitivity?sourceId=entry:" + w.entry, w.t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json();
  }
};

TEST_F(Scanning, ASecretInAnEntryBlocksAndEscalatesUntilItIsRemoved) {
  auto w = Make("scan-secret");
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "allow");
  const std::string token = GithubToken("deploy");

  auto saved = Save(w, {"How we deploy.", "export GITHUB_TOKEN=" + token + " then run make deploy"});
  auto result = Evaluate(w, "internal");
  EXPECT_EQ(Str(result, "decision"), "block");
  EXPECT_TRUE(Has(Codes(result), "secrets_present"));
  EXPECT_TRUE(result.at("escalated").as_bool());

  // filter-sources, unchanged for callers, puts it in blocked.
  auto filtered =
      api().Post("/api/trust/filter-sources",
                 {{"sources", json::array{json::value("entry:" + w.entry)}}, {"context", {{"channel", "internal"}}}},
                 w.t.token("viewer"));
  ASSERT_EQ(filtered.status, 200) << filtered.body;
  EXPECT_EQ(filtered.Json().at("blocked").as_array().size(), 1U);

  auto findings = Findings(w);
  ASSERT_EQ(findings.size(), 1U);
  const json::value f = findings[0];
  EXPECT_EQ(Str(f, "sourceId"), "entry:" + w.entry);
  EXPECT_EQ(Str(f, "detector"), "github_token");
  EXPECT_EQ(Str(f, "kind"), "secret");
  EXPECT_EQ(Str(f, "subType"), "github_personal_access_token");
  EXPECT_EQ(Str(f, "blockId"), w.block_ids[1]);
  EXPECT_TRUE(f.at("language").is_null());
  EXPECT_EQ(f.at("count").as_int64(), 1);
  EXPECT_EQ(Str(f, "status"), "active");
  EXPECT_EQ(Str(f, "fingerprint").size(), 64U);

  auto facts = Sensitivity(w);
  EXPECT_EQ(Str(facts, "setBy"), "scanner");
  EXPECT_TRUE(facts.at("hasSecrets").as_bool());
  EXPECT_FALSE(facts.at("hasPersonalData").as_bool());
  EXPECT_EQ(facts.at("scanner").at("secretFindings").as_int64(), 1);
  EXPECT_EQ(json::serialize(facts.at("scanner").at("detectors")), R"(["github_token"])");

  // The matched text is never returned: not by the findings, the facts, the
  // decision's ledger record, or the audit log.
  json::object evaluate_body;
  evaluate_body["sources"] = json::array{json::value("entry:" + w.entry)};
  auto evaluated = api().Post("/api/trust/evaluate", evaluate_body, w.t.token("viewer"));
  ASSERT_EQ(evaluated.status, 200) << evaluated.body;
  const std::string decision_id = Str(evaluated.Json(), "decisionId");
  for (const std::string& path :
       {std::string("/trust-admin/findings"), "/trust-admin/sensitivity?sourceId=entry:" + w.entry,
        "/api/trust/decisions/" + decision_id, std::string("/admin/audit")})
    EXPECT_EQ(api().Get(path, w.t.token("admin")).body.find(token.substr(4)), std::string::npos) << path;

  // Taking the secret out clears it on the next save.
  Save(w, {"How we deploy.", "export GITHUB_TOKEN=$(vault read github) then run make deploy"});
  result = Evaluate(w, "internal");
  EXPECT_EQ(Str(result, "decision"), "allow") << json::serialize(result);
  findings = Findings(w);
  ASSERT_EQ(findings.size(), 1U);
  EXPECT_EQ(Str(findings[0], "status"), "resolved");
  EXPECT_FALSE(findings[0].at("resolvedAt").is_null());
  EXPECT_TRUE(Sensitivity(w).at("setBy").is_null());
  EXPECT_EQ(Findings(w, "status=active").size(), 0U);

  // The same secret again is the same finding, active again.
  Save(w, {"How we deploy.", token});
  findings = Findings(w);
  ASSERT_EQ(findings.size(), 1U);
  EXPECT_EQ(Str(findings[0], "status"), "active");
  EXPECT_EQ(Str(findings[0], "id"), Str(f, "id"));
}

TEST_F(Scanning, OneValueIsOneFindingAndFingerprintsAreKeyedPerTenant) {
  auto w = Make("scan-fp");
  const std::string token = GithubToken("shared");
  Save(w, {"first " + token, "again " + token + " and " + token});
  auto findings = Findings(w);
  ASSERT_EQ(findings.size(), 1U);
  EXPECT_EQ(findings[0].at("count").as_int64(), 3);
  EXPECT_EQ(Str(findings[0], "blockId"), w.block_ids[0]);

  // Another entry of the tenant with the same secret: the same fingerprint.
  auto other = MakeEntry(api(), w.t.token("editor"), "kb", "other", {"copy: " + token});
  auto both = Findings(w, "detector=github_token");
  ASSERT_EQ(both.size(), 2U);
  EXPECT_EQ(Str(both[0], "fingerprint"), Str(both[1], "fingerprint"));
  EXPECT_EQ(Findings(w, "sourceId=entry:" + Str(other, "id")).size(), 1U);

  // Another tenant's key: another fingerprint for the same value.
  auto v = Make("scan-fp2");
  Save(v, {token});
  auto theirs = Findings(v);
  ASSERT_EQ(theirs.size(), 1U);
  EXPECT_NE(Str(theirs[0], "fingerprint"), Str(both[0], "fingerprint"));
}

TEST_F(Scanning, PersonalDataBlocksCustomerFacingAndExternalModelsAndWarnsElsewhere) {
  auto w = Make("scan-pd");
  Save(w, {"How we deploy.", "Escalations go to ann.smith@globex-corp.io or IBAN DE89 3704 0044 0532 0130 00."});
  auto findings = Findings(w, "kind=personal_data");
  ASSERT_EQ(findings.size(), 2U);
  EXPECT_EQ(Findings(w, "kind=secret").size(), 0U);
  EXPECT_EQ(Findings(w, "detector=iban").size(), 1U);

  auto internal = Evaluate(w, "internal");
  EXPECT_EQ(Str(internal, "decision"), "warn");
  EXPECT_TRUE(Has(Codes(internal), "personal_data_present"));
  auto customer = Evaluate(w, "public_support_chat");
  EXPECT_EQ(Str(customer, "decision"), "block");
  EXPECT_TRUE(Has(Codes(customer), "personal_data_customer_facing"));
  auto external = Evaluate(w, "internal", /*external_model=*/true);
  EXPECT_EQ(Str(external, "decision"), "block");
  EXPECT_TRUE(Has(Codes(external), "personal_data_external_model"));

  // The policy may allow personal data internally.
  ASSERT_EQ(api().Put("/trust-admin/policies/tenant", {{"warnOnPersonalData", false}}, w.t.token("admin")).status, 200);
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "allow");
  EXPECT_EQ(Str(Evaluate(w, "public_support_chat"), "decision"), "block");
}

TEST_F(Scanning, AHumansFactIsNeverOverriddenByTheScanner) {
  auto w = Make("scan-human");
  Save(w, {"How we deploy.", GithubToken("human")});
  ASSERT_EQ(Str(Evaluate(w, "internal"), "decision"), "block");

  // A human says: no secrets here.
  auto put = api().Put("/trust-admin/sensitivity?sourceId=entry:" + w.entry,
                       {{"classification", "Internal"}, {"hasSecrets", false}, {"hasPersonalData", false}},
                       w.t.token("admin"));
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "allow");

  // Saving again (a new secret even) and rescanning keep the human's fact.
  Save(w, {"How we deploy.", GithubToken("human") + " " + GithubToken("second")});
  auto rescan = api().Post("/trust-admin/scanning/rescan", json::object{}, w.t.token("admin"));
  ASSERT_EQ(rescan.status, 200) << rescan.body;
  EXPECT_EQ(Str(Sensitivity(w), "setBy"), "human");
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "allow");
  EXPECT_EQ(Findings(w, "status=active").size(), 2U);  // still recorded

  // Without the human's fact, the scanner's applies again at the next scan.
  ASSERT_EQ(api().Delete("/trust-admin/sensitivity?sourceId=entry:" + w.entry, w.t.token("admin")).status, 204);
  ASSERT_EQ(api().Post("/trust-admin/scanning/rescan", json::object{}, w.t.token("admin")).status, 200);
  EXPECT_EQ(Str(Sensitivity(w), "setBy"), "scanner");
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "block");
}

TEST_F(Scanning, ADismissedFalsePositiveSticksUntilTheContentChanges) {
  auto w = Make("scan-dismiss");
  Save(w, {"How we deploy.", "Support: help.desk@initech-support.io"});
  auto findings = Findings(w);
  ASSERT_EQ(findings.size(), 1U);
  const std::string id = Str(findings[0], "id");
  ASSERT_EQ(Str(Evaluate(w, "public_support_chat"), "decision"), "block");

  auto dismissed =
      api().Post("/trust-admin/findings/" + id + "/dismiss", {{"reason", "a shared team mailbox"}}, w.t.token("admin"));
  ASSERT_EQ(dismissed.status, 200) << dismissed.body;
  EXPECT_EQ(Str(dismissed.Json(), "status"), "dismissed");
  EXPECT_EQ(Str(dismissed.Json(), "dismissReason"), "a shared team mailbox");
  EXPECT_EQ(Str(dismissed.Json(), "dismissedBy"), w.t.user_ids.at("admin"));
  EXPECT_FALSE(Has(Codes(Evaluate(w, "public_support_chat")), "personal_data_customer_facing"));
  EXPECT_TRUE(Sensitivity(w).at("setBy").is_null());

  // The same content saved again (and a rescan) keeps the dismissal.
  Save(w, {"How we deploy.", "Support: help.desk@initech-support.io"});
  ASSERT_EQ(api().Post("/trust-admin/scanning/rescan", json::object{}, w.t.token("admin")).status, 200);
  EXPECT_EQ(Str(api().Get("/trust-admin/findings/" + id, w.t.token("admin")).Json(), "status"), "dismissed");
  EXPECT_FALSE(Has(Codes(Evaluate(w, "public_support_chat")), "personal_data_customer_facing"));

  // Changed content: the finding counts again.
  Save(w, {"How we deploy, version two.", "Support: help.desk@initech-support.io"});
  auto again = api().Get("/trust-admin/findings/" + id, w.t.token("admin"));
  EXPECT_EQ(Str(again.Json(), "status"), "active");
  EXPECT_TRUE(again.Json().at("dismissedAt").is_null());
  EXPECT_TRUE(Has(Codes(Evaluate(w, "public_support_chat")), "personal_data_customer_facing"));

  // Dismiss and restore.
  ASSERT_EQ(api().Post("/trust-admin/findings/" + id + "/dismiss", json::object{}, w.t.token("admin")).status, 200);
  auto restored = api().Post("/trust-admin/findings/" + id + "/restore", json::object{}, w.t.token("admin"));
  ASSERT_EQ(restored.status, 200) << restored.body;
  EXPECT_EQ(Str(restored.Json(), "status"), "active");
  EXPECT_TRUE(Has(Codes(Evaluate(w, "public_support_chat")), "personal_data_customer_facing"));

  // A resolved finding has nothing to dismiss.
  Save(w, {"How we deploy.", "Support: the help desk."});
  ExpectProblem(api().Post("/trust-admin/findings/" + id + "/dismiss", json::object{}, w.t.token("admin")), 409,
                "finding_resolved");

  // Both human actions are in the audit log.
  auto audit = api().Get("/admin/audit?action=finding.", w.t.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  std::vector<std::string> actions;
  const json::value entries = audit.Json().at("entries");
  for (const auto& e : entries.as_array()) actions.push_back(Str(e, "action"));
  EXPECT_EQ(std::count(actions.begin(), actions.end(), "finding.dismissed"), 2);
  EXPECT_EQ(std::count(actions.begin(), actions.end(), "finding.restored"), 1);
}

TEST_F(Scanning, TranslationsAreScannedPerLanguage) {
  auto w = Make("scan-tr");
  const std::string token = GithubToken("translation");
  auto created =
      api().Post("/api/entries/" + w.entry + "/translations/es",
                 {{"title", "Despliegue"}, {"content", Doc({"Cómo desplegamos.", "token: " + token}, w.block_ids)}},
                 w.t.token("editor"));
  ASSERT_EQ(created.status, 201) << created.body;
  auto findings = Findings(w);
  ASSERT_EQ(findings.size(), 1U);
  EXPECT_EQ(Str(findings[0], "language"), "es");
  EXPECT_EQ(Str(findings[0], "blockId"), w.block_ids[1]);
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "block");

  // Updating the translation without it resolves the finding.
  auto updated =
      api().Put("/api/entries/" + w.entry + "?language=es",
                {{"title", "Despliegue"}, {"content", Doc({"Cómo desplegamos.", "Pide el token."}, w.block_ids)}},
                w.t.token("editor"));
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(Str(Findings(w)[0], "status"), "resolved");
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "allow");

  // Deleting a translation that carries one resolves it too.
  ASSERT_EQ(api()
                .Put("/api/entries/" + w.entry + "?language=es",
                     {{"title", "Despliegue"}, {"content", Doc({"x", token}, w.block_ids)}}, w.t.token("editor"))
                .status,
            200);
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "block");
  ASSERT_EQ(api().Delete("/api/entries/" + w.entry + "/translations/es", w.t.token("editor")).status, 204);
  EXPECT_EQ(Findings(w, "status=active").size(), 0U);
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "allow");

  // Deleting the entry takes its findings with it.
  auto doomed = MakeEntry(api(), w.t.token("editor"), "kb", "doomed", {token});
  const std::string doomed_id = Str(doomed, "id");
  EXPECT_EQ(Findings(w, "sourceId=entry:" + doomed_id).size(), 1U);
  ASSERT_EQ(api().Delete("/api/entries/" + doomed_id, w.t.token("editor")).status, 204);
  EXPECT_EQ(Findings(w, "sourceId=entry:" + doomed_id).size(), 0U);
}

TEST_F(Scanning, TheTenantSettingTurnsScanningOffAndARescanCatchesUp) {
  auto w = Make("scan-setting");
  auto settings = api().Get("/trust-admin/scanning", w.t.token("admin"));
  ASSERT_EQ(settings.status, 200) << settings.body;
  EXPECT_TRUE(settings.Json().at("autoScan").as_bool());

  auto off = api().Put("/trust-admin/scanning", {{"autoScan", false}}, w.t.token("admin"));
  ASSERT_EQ(off.status, 200) << off.body;
  EXPECT_FALSE(off.Json().at("autoScan").as_bool());
  EXPECT_EQ(Str(off.Json(), "updatedBy"), w.t.user_ids.at("admin"));
  Save(w, {"How we deploy.", GithubToken("off")});
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "allow");
  EXPECT_EQ(Findings(w).size(), 0U);
  auto nothing = api().Post("/trust-admin/scanning/rescan", json::object{}, w.t.token("admin"));
  EXPECT_EQ(nothing.Json().at("entriesScanned").as_int64(), 0);

  ASSERT_EQ(api().Put("/trust-admin/scanning", {{"autoScan", true}}, w.t.token("admin")).status, 200);
  auto rescan = api().Post("/trust-admin/scanning/rescan", json::object{}, w.t.token("admin"));
  ASSERT_EQ(rescan.status, 200) << rescan.body;
  EXPECT_EQ(rescan.Json().at("entriesScanned").as_int64(), 1);
  EXPECT_EQ(Str(Evaluate(w, "internal"), "decision"), "block");

  auto audit = api().Get("/admin/audit?action=scanning.settings_updated", w.t.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  EXPECT_EQ(audit.Json().at("entries").as_array().size(), 2U);
}

TEST_F(Scanning, TheClassificationSummaryCountsFindings) {
  auto w = Make("scan-report");
  Save(w, {"Keys: " + GithubToken("report-1") + " " + GithubToken("report-2"), "Mail ops@hooli-ops.io"});
  auto clean = MakeEntry(api(), w.t.token("editor"), "kb", "clean", {"Nothing to see."});
  auto mail = MakeEntry(api(), w.t.token("editor"), "kb", "mail", {"Write to pr@hooli-ops.io"});
  auto pd = Findings(w, "sourceId=entry:" + Str(mail, "id"));
  ASSERT_EQ(pd.size(), 1U);
  ASSERT_EQ(
      api().Post("/trust-admin/findings/" + Str(pd[0], "id") + "/dismiss", json::object{}, w.t.token("admin")).status,
      200);

  auto report = api().Get("/trust-admin/reports/classification-summary", w.t.token("admin"));
  ASSERT_EQ(report.status, 200) << report.body;
  const json::value body = report.Json();
  std::vector<std::string> names;
  for (const auto& c : body.at("columns").as_array()) names.push_back(Str(c, "name"));
  const auto& internal = body.at("rows").as_array()[1].as_array();
  auto cell = [&](const std::string& name) {
    auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return it == names.end() ? -1 : internal[it - names.begin()].as_int64();
  };
  EXPECT_EQ(cell("documents"), 3);
  EXPECT_EQ(cell("withSecrets"), 1);       // the facts evaluation uses
  EXPECT_EQ(cell("withPersonalData"), 1);  // the dismissed address no longer counts
  EXPECT_EQ(cell("setByScanner"), 1);
  EXPECT_EQ(cell("withSecretFindings"), 1);
  EXPECT_EQ(cell("withPersonalDataFindings"), 1);
  EXPECT_EQ(cell("secretFindings"), 2);
  EXPECT_EQ(cell("personalDataFindings"), 1);
  EXPECT_EQ(cell("dismissedFindings"), 1);
  (void)clean;
}

TEST_F(Scanning, BadInputIsAClearProblem) {
  auto w = Make("scan-bad");
  const std::string& admin = w.t.token("admin");
  for (const std::string& q :
       {"kind=bogus", "status=open", "limit=0", "limit=501", "limit=ten", "detector=nope", "connectorKey=Bad!",
        "after=not-a-uuid", "sourceId=https%3A%2F%2Fx.example%2Fa", "sourceId=nonsense"})
    ExpectProblem(api().Get("/trust-admin/findings?" + q, admin), 400, "validation_failed");
  ExpectProblem(api().Put("/trust-admin/scanning", {{"autoScan", "yes"}}, admin), 400, "validation_failed");
  ExpectProblem(api().Put("/trust-admin/scanning", json::object{}, admin), 400, "validation_failed");
  ExpectProblem(api().Get("/trust-admin/findings/not-a-uuid", admin), 400, "invalid_path_parameter");
  ExpectProblem(api().Get("/trust-admin/findings/00000000-0000-7000-8000-000000000000", admin), 404, "not_found");
  ExpectProblem(api().Post("/trust-admin/findings/00000000-0000-7000-8000-000000000000/dismiss", json::object{}, admin),
                404, "not_found");
  ExpectProblem(api().Post("/trust-admin/findings/00000000-0000-7000-8000-000000000000/dismiss",
                           {{"reason", std::string(1001, 'x')}}, admin),
                400, "validation_failed");
  // A page ends with a cursor that continues it.
  Save(w, {"a@globex-corp.io b@globex-corp.io", "c@globex-corp.io"});
  auto page = api().Get("/trust-admin/findings?limit=2", admin);
  ASSERT_EQ(page.status, 200) << page.body;
  ASSERT_EQ(page.Json().at("findings").as_array().size(), 2U);
  auto rest = api().Get("/trust-admin/findings?limit=2&after=" + Str(page.Json(), "nextCursor"), admin);
  ASSERT_EQ(rest.status, 200) << rest.body;
  EXPECT_EQ(rest.Json().at("findings").as_array().size(), 1U);
  EXPECT_TRUE(rest.Json().at("nextCursor").is_null());
}

TEST_F(Scanning, OnlyTenantAdminsOnASessionAndOnlyTheirOwnTenant) {
  auto w = Make("scan-iso");
  Save(w, {"How we deploy.", GithubToken("iso")});
  const std::string id = Str(Findings(w)[0], "id");
  for (const char* persona : {"editor", "viewer"}) {
    ExpectProblem(api().Get("/trust-admin/findings", w.t.token(persona)), 403, "forbidden");
    ExpectProblem(api().Get("/trust-admin/scanning", w.t.token(persona)), 403, "forbidden");
    ExpectProblem(api().Post("/trust-admin/findings/" + id + "/dismiss", json::object{}, w.t.token(persona)), 403,
                  "forbidden");
  }
  ExpectProblem(api().Get("/trust-admin/findings"), 401, "missing_credentials");

  auto other = Make("scan-iso2");
  const std::string& theirs = other.t.token("admin");
  EXPECT_EQ(Findings(other).size(), 0U);
  ExpectProblem(api().Get("/trust-admin/findings/" + id, theirs), 404, "not_found");
  ExpectProblem(api().Post("/trust-admin/findings/" + id + "/dismiss", json::object{}, theirs), 404, "not_found");
  ExpectProblem(api().Post("/trust-admin/findings/" + id + "/restore", json::object{}, theirs), 404, "not_found");
  auto by_source = api().Get("/trust-admin/findings?sourceId=entry:" + w.entry, theirs);
  ASSERT_EQ(by_source.status, 200);
  EXPECT_EQ(by_source.Json().at("findings").as_array().size(), 0U);
  // Their setting is theirs.
  ASSERT_EQ(api().Put("/trust-admin/scanning", {{"autoScan", false}}, theirs).status, 200);
  EXPECT_TRUE(api().Get("/trust-admin/scanning", w.t.token("admin")).Json().at("autoScan").as_bool());
  EXPECT_EQ(Str(Findings(w)[0], "status"), "active");
}

}  // namespace
}  // namespace credence::test
