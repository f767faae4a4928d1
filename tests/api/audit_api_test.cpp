// The audit log over real HTTP (docs/audit.md): each wired administrative
// action writes its entry (actor, action, target, outcome, the request id
// sent as X-Request-Id, the user agent and the peer address) in the same
// transaction as the action; filters, prefix filter, cursor pagination,
// newest first, CSV export parsed back, verification; tenant isolation
// (another tenant's admin sees none of it, a Member gets 403 and that
// refusal is itself recorded, a machine key gets 403); a failed action
// writes no success entry. Runs on SQLite and on PostgreSQL
// (CREDENCE_TEST_BACKEND). Altered entries are found by the verifier in
// src/platform/audit_log_test.cpp, which alters the database directly.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/ids.h"
#include "support/api_fixture.h"
#include "support/kb_fixture.h"
#include "support/clock_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kAgent[] = "audit-test/1.0 (+https://example.com)";

class AuditApi : public ApiTest {
 protected:
  // Sends with a fresh X-Request-Id and our User-Agent; remembers the id.
  Response Call(const std::string& method, const std::string& path, const json::value& body,
                const std::string& token) {
    last_request_id_ = "audit-" + NewId();
    return api().Send(method, path, body.is_null() ? "" : json::serialize(body), token,
                      {{"X-Request-Id", last_request_id_}, {"User-Agent", kAgent}});
  }

  // The tenant's entries for `query` (e.g. "action=apikey.created").
  json::array Entries(const TestTenant& t, const std::string& query = "") {
    auto r = api().Get("/api/admin/audit" + (query.empty() ? "" : "?" + query), t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return {};
    const json::value body = r.Json();
    return body.at("entries").as_array();
  }

  // The newest entry with `action`; fails the test when there is none.
  json::object Latest(const TestTenant& t, const std::string& action) {
    auto entries = Entries(t, "action=" + action + "&limit=1");
    if (entries.empty()) {
      ADD_FAILURE() << "no entry " << action;
      return {};
    }
    return entries.front().as_object();
  }

  // The newest `action` entry was written by the last Call of `persona`.
  void ExpectEntry(const TestTenant& t, const std::string& action, const std::string& persona,
                   const std::string& target_type, const std::string& target_id = "",
                   const std::string& outcome = "success") {
    SCOPED_TRACE(action);
    const json::object e = Latest(t, action);
    if (e.empty()) return;
    EXPECT_EQ(Str(e.at("actor"), "type"), "user");
    EXPECT_EQ(Str(e.at("actor"), "id"), t.user_ids.at(persona));
    EXPECT_EQ(Str(e.at("actor"), "label"), persona + "@" + t.slug + ".example");
    EXPECT_EQ(Str(e, "action"), action);
    EXPECT_EQ(Str(e.at("target"), "type"), target_type);
    if (!target_id.empty()) EXPECT_EQ(Str(e.at("target"), "id"), target_id);
    EXPECT_EQ(Str(e, "outcome"), outcome);
    EXPECT_EQ(Str(e, "requestId"), last_request_id_);
    EXPECT_EQ(Str(e, "userAgent"), kAgent);
    EXPECT_EQ(Str(e, "clientAddress"), "127.0.0.1");
    EXPECT_TRUE(e.at("details").is_object());
  }

  std::string last_request_id_;
};

std::string Ahead(HttpClient& api, int days) {
  const auto now = ParseTimestamp(ServerTime(api));
  return FormatTimestamp(*now + days * kMsPerDay);
}

TEST_F(AuditApi, EveryWiredActionWritesItsEntry) {
  TestTenant t = CreateTenant(api(), "audit");
  const std::string admin = t.token("admin");

  // tenant.created: anonymous provisioning in development mode.
  {
    const json::object e = Latest(t, "tenant.created");
    EXPECT_EQ(Str(e.at("actor"), "type"), "system");
    EXPECT_EQ(Str(e.at("target"), "id"), t.id);
    EXPECT_EQ(Str(e.at("details"), "slug"), t.slug);
  }

  // API keys. The secret never reaches the log.
  auto key = Call("POST", "/api/apikeys", {{"name", "ci"}, {"scopes", {"trust:usage"}}}, admin);
  ASSERT_EQ(key.status, 201) << key.body;
  const std::string key_id = Str(key.Json(), "id");
  ExpectEntry(t, "apikey.created", "admin", "apikey", key_id);
  EXPECT_EQ(Str(Latest(t, "apikey.created").at("details"), "name"), "ci");
  auto everything = api().Get("/api/admin/audit/export?format=json", admin);
  EXPECT_EQ(everything.body.find(Str(key.Json(), "clientSecret")), std::string::npos);
  ASSERT_EQ(Call("DELETE", "/api/apikeys/" + key_id, nullptr, admin).status, 204);
  ExpectEntry(t, "apikey.revoked", "admin", "apikey", key_id);

  // Groups and their members.
  auto group = Call("POST", "/api/groups", {{"name", "Auditors"}}, admin);
  ASSERT_EQ(group.status, 201) << group.body;
  const std::string group_id = Str(group.Json(), "id");
  ExpectEntry(t, "group.created", "admin", "group", group_id);
  ASSERT_EQ(Call("POST", "/api/groups/" + group_id + "/members", {{"userId", t.user_ids["viewer"]}}, admin).status, 201);
  ExpectEntry(t, "group.member_added", "admin", "group", group_id);
  ASSERT_EQ(Call("DELETE", "/api/groups/" + group_id + "/members/" + t.user_ids["viewer"], nullptr, admin).status, 204);
  ExpectEntry(t, "group.member_removed", "admin", "group", group_id);

  // Invitations and removal.
  ASSERT_EQ(Call("POST", "/api/users/invite", {{"email", "new@example.com"}, {"role", "Member"}}, admin).status, 201);
  ExpectEntry(t, "invitation.sent", "admin", "invitation");
  ASSERT_EQ(Call("DELETE", "/api/users/" + t.user_ids["guest"], nullptr, admin).status, 204);
  ExpectEntry(t, "user.removed", "admin", "user", t.user_ids["guest"]);

  // Apps and app keys.
  auto app = Call("POST", "/trust-admin/apps", {{"name", "Helpdesk"}, {"channel", "internal"}, {"risk", "low"}}, admin);
  ASSERT_EQ(app.status, 201) << app.body;
  const std::string app_id = Str(app.Json(), "id");
  ExpectEntry(t, "app.registered", "admin", "app", app_id);
  ASSERT_EQ(Call("PATCH", "/trust-admin/apps/" + app_id, {{"risk", "high"}}, admin).status, 200);
  ExpectEntry(t, "app.updated", "admin", "app", app_id);
  EXPECT_EQ(json::serialize(Latest(t, "app.updated").at("details").at("fields")), R"(["risk"])");
  auto app_key = Call("POST", "/trust-admin/apps/" + app_id + "/keys",
                      {{"name", "prod"}, {"expiresAt", Ahead(api(), 30)}}, admin);
  ASSERT_EQ(app_key.status, 201) << app_key.body;
  const std::string app_key_id = Str(app_key.Json(), "id");
  ExpectEntry(t, "appkey.created", "admin", "appkey", app_key_id);
  for (const char* step : {"disable", "enable", "regenerate"}) {
    ASSERT_EQ(Call("POST", "/trust-admin/apps/" + app_id + "/keys/" + app_key_id + "/" + step, nullptr, admin).status,
              200);
    const std::string action = step == std::string("disable")  ? "appkey.disabled"
                               : step == std::string("enable") ? "appkey.enabled"
                                                               : "appkey.regenerated";
    ExpectEntry(t, action, "admin", "appkey", app_key_id);
  }
  ASSERT_EQ(Call("POST", "/trust-admin/apps/" + app_id + "/archive", nullptr, admin).status, 200);
  ExpectEntry(t, "app.archived", "admin", "app", app_id);
  ExpectEntry(t, "appkey.revoked", "admin", "appkey", app_key_id);

  // Trust administration.
  ASSERT_EQ(Call("PUT", "/trust-admin/policies/tenant", {{"citationRequired", true}}, admin).status, 200);
  ExpectEntry(t, "policy.set", "admin", "tenant", t.id);
  auto doc = Call("PUT", "/trust-admin/connected-documents",
                  {{"connectorKey", "wiki"}, {"externalId", "SPACE:1"}, {"title", "Refunds"},
                   {"contentUpdatedAt", "2029-12-01T00:00:00Z"}},
                  admin);
  ASSERT_EQ(doc.status, 201) << doc.body;
  ExpectEntry(t, "document.registered", "admin", "document", Str(doc.Json(), "id"));

  // Hub memberships.
  auto hub = api().Post("/api/hubs", {{"key", "audited"}, {"name", "Audited"}, {"defaultExpiryDays", 365}, {"defaultOrgRole", "Editor"}}, admin);
  ASSERT_EQ(hub.status, 201) << hub.body;
  const std::string hub_id = Str(hub.Json(), "id");
  auto member = Call("POST", "/api/hubs/" + hub_id + "/memberships/users",
                     {{"targetUserId", t.user_ids["editor"]}, {"role", "Editor"}}, admin);
  ASSERT_EQ(member.status, 201) << member.body;
  ExpectEntry(t, "hub.member_added", "admin", "hub", hub_id);
  EXPECT_EQ(Str(Latest(t, "hub.member_added").at("details"), "userId"), t.user_ids["editor"]);

  // Groups renamed and deleted, a member's role changed.
  ASSERT_EQ(Call("PUT", "/api/groups/" + group_id, {{"name", "Internal auditors"}}, admin).status, 200);
  ExpectEntry(t, "group.updated", "admin", "group", group_id);
  EXPECT_EQ(Str(Latest(t, "group.updated").at("details"), "previousName"), "Auditors");
  ASSERT_EQ(Call("DELETE", "/api/groups/" + group_id, nullptr, admin).status, 204);
  ExpectEntry(t, "group.deleted", "admin", "group", group_id);
  ASSERT_EQ(Call("PUT", "/api/users/" + t.user_ids["viewer"] + "/role", {{"role", "Guest"}}, admin).status, 200);
  ExpectEntry(t, "user.role_changed", "admin", "user", t.user_ids["viewer"]);
  EXPECT_EQ(Str(Latest(t, "user.role_changed").at("details"), "to"), "Guest");

  // An entry deleted, with what it was.
  auto entry = MakeEntry(api(), t.token("editor"), "audited", "gone", {"Soon deleted."});
  const std::string entry_id = Str(entry, "id");
  ASSERT_EQ(Call("DELETE", "/api/entries/" + entry_id, nullptr, t.token("editor")).status, 204);
  ExpectEntry(t, "entry.deleted", "editor", "entry", entry_id);
  EXPECT_EQ(Str(Latest(t, "entry.deleted").at("details"), "key"), "gone");
  EXPECT_EQ(Str(Latest(t, "entry.deleted").at("details"), "hubKey"), "audited");

  // The whole chain verifies.
  auto v = api().Get("/api/admin/audit/verify", admin);
  ASSERT_EQ(v.status, 200) << v.body;
  EXPECT_TRUE(v.Json().at("ok").as_bool()) << v.body;
  EXPECT_EQ(v.Json().at("checked").as_int64(), 23);  // every entry above, tenant.created included
  EXPECT_TRUE(v.Json().at("firstInvalid").is_null());
}

TEST_F(AuditApi, FailedActionWritesNoSuccessEntry) {
  TestTenant t = CreateTenant(api(), "audit-fail");
  ASSERT_EQ(api().Post("/api/groups", {{"name", "Once"}}, t.token("admin")).status, 201);
  // The duplicate's transaction is rolled back: one group.created only.
  ExpectProblem(Call("POST", "/api/groups", {{"name", "once"}}, t.token("admin")), 409, "group_name_taken");
  EXPECT_EQ(Entries(t, "action=group.created").size(), 1u);
  // A validation failure neither.
  ExpectValidation(Call("POST", "/api/apikeys", {{"name", ""}, {"scopes", {"trust:usage"}}}, t.token("admin")), "name");
  EXPECT_EQ(Entries(t, "action=apikey.").size(), 0u);
}

TEST_F(AuditApi, FiltersPrefixPaginationNewestFirstAndCsv) {
  TestTenant t = CreateTenant(api(), "audit-filter");
  const std::string admin = t.token("admin");
  std::vector<std::string> keys;
  for (int i = 0; i < 5; ++i) {
    auto r = api().Post("/api/apikeys", {{"name", "k" + std::to_string(i)}, {"scopes", {"trust:read"}}}, admin);
    ASSERT_EQ(r.status, 201);
    keys.push_back(Str(r.Json(), "id"));
  }
  ASSERT_EQ(api().Delete("/api/apikeys/" + keys[0], admin).status, 204);
  ASSERT_EQ(api().Post("/api/groups", {{"name", "G"}}, admin).status, 201);

  // Prefix: every apikey.* entry, newest first.
  auto all = Entries(t, "action=apikey.");
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(Str(all[0], "action"), "apikey.revoked");
  for (size_t i = 1; i < all.size(); ++i)
    EXPECT_GT(all[i - 1].at("sequence").as_int64(), all[i].at("sequence").as_int64());
  EXPECT_EQ(Entries(t, "action=apikey.created").size(), 5u);
  EXPECT_EQ(Entries(t, "action=group.").size(), 1u);
  // Target and actor.
  EXPECT_EQ(Entries(t, "targetType=apikey&targetId=" + keys[0]).size(), 2u);
  EXPECT_EQ(Entries(t, "actor=" + t.user_ids["admin"] + "&action=apikey.").size(), 6u);
  EXPECT_EQ(Entries(t, "actor=" + t.user_ids["editor"]).size(), 0u);
  // Time window: today's entries, none tomorrow.
  const std::string today = ServerTime(api()).substr(0, 10);
  EXPECT_EQ(Entries(t, "action=apikey.&from=" + today + "&to=" + today).size(), 6u);
  const std::string later = FormatTimestamp(*ParseTimestamp(ServerTime(api())) + 2 * kMsPerDay);
  EXPECT_EQ(Entries(t, "from=" + PercentEncode(later)).size(), 0u);

  // Pages of two, by cursor, cover the six entries once each.
  std::vector<int64_t> seqs;
  std::string cursor;
  for (int page = 0; page < 10; ++page) {
    auto r = api().Get("/api/admin/audit?action=apikey.&limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor), admin);
    ASSERT_EQ(r.status, 200) << r.body;
    const json::value body = r.Json();
    for (const auto& e : body.at("entries").as_array()) seqs.push_back(e.at("sequence").as_int64());
    const auto& next = body.at("nextCursor");
    if (next.is_null()) break;
    cursor = std::string(next.as_string());
    EXPECT_EQ(r.Header("x-next-cursor"), cursor);
  }
  ASSERT_EQ(seqs.size(), 6u);
  EXPECT_EQ(std::set<int64_t>(seqs.begin(), seqs.end()).size(), 6u);

  // Bad input: 400 with its own code, never a 500.
  ExpectValidation(api().Get("/api/admin/audit?action=APIKEY", admin), "action");
  ExpectValidation(api().Get("/api/admin/audit?limit=0", admin), "limit");
  ExpectValidation(api().Get("/api/admin/audit?limit=501", admin), "limit");
  ExpectValidation(api().Get("/api/admin/audit?from=yesterday", admin), "from");
  ExpectValidation(api().Get("/api/admin/audit?from=2030-02-01&to=2030-01-01", admin), "to");
  ExpectValidation(api().Get("/api/admin/audit?format=xml", admin), "format");
  ExpectProblem(api().Get("/api/admin/audit?cursor=bogus", admin), 400, "invalid_cursor");

  // CSV, parsed back: a header and one record per entry, newest first.
  auto csv = api().Get("/admin/audit/export?action=apikey.", admin);
  ASSERT_EQ(csv.status, 200) << csv.body;
  EXPECT_EQ(csv.Header("content-type"), "text/csv; charset=utf-8; header=present");
  EXPECT_NE(csv.Header("content-disposition").find("attachment"), std::string::npos);
  std::vector<std::string> lines;
  for (size_t at = 0; at < csv.body.size();) {
    const size_t end = csv.body.find("\r\n", at);
    ASSERT_NE(end, std::string::npos);
    lines.push_back(csv.body.substr(at, end - at));
    at = end + 2;
  }
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0],
            "id,sequence,at,actorType,actorId,actorLabel,action,targetType,targetId,outcome,requestId,clientAddress,"
            "userAgent,details,hash");
  EXPECT_EQ(lines[1].substr(0, 36), Str(all[0], "id"));
  EXPECT_NE(lines[1].find(",apikey.revoked,apikey," + keys[0] + ",success,"), std::string::npos) << lines[1];
  // The JSON form of the page answers the same entries.
  auto as_json = api().Get("/api/admin/audit/export?action=apikey.&format=json", admin);
  ASSERT_EQ(as_json.status, 200);
  EXPECT_EQ(as_json.Json().at("entries").as_array().size(), 6u);
  auto page_csv = api().Get("/admin/audit?action=apikey.&format=csv&limit=2", admin);
  ASSERT_EQ(page_csv.status, 200);
  EXPECT_FALSE(page_csv.Header("x-next-cursor").empty());
}

TEST_F(AuditApi, TenantAdminsOnlyAndIsolated) {
  TestTenant a = CreateTenant(api(), "audit-a");
  TestTenant b = CreateTenant(api(), "audit-b");
  auto key = api().Post("/api/apikeys", {{"name", "a-key"}, {"scopes", {"trust:read"}}}, a.token("admin"));
  ASSERT_EQ(key.status, 201);
  // B's admin sees none of A's entries, and A's key id filter finds nothing there.
  EXPECT_EQ(Entries(b, "action=apikey.").size(), 0u);
  EXPECT_EQ(Entries(b, "targetId=" + Str(key.Json(), "id")).size(), 0u);
  for (const char* path : {"/api/admin/audit", "/admin/audit", "/admin/audit/verify", "/api/admin/audit/export"}) {
    SCOPED_TRACE(path);
    ExpectProblem(api().Get(path, a.token("editor")), 403, "forbidden");
    ExpectProblem(api().Get(path, a.token("guest")), 403, "forbidden");
    ExpectProblem(api().Get(path, Str(key.Json(), "clientSecret")), 403, "machine_credentials_not_allowed");
    EXPECT_EQ(api().Get(path).status, 401);
  }
  // The Member's refusal on an admin route is itself recorded, as denied.
  auto denied = Call("GET", "/api/admin/audit", nullptr, a.token("editor"));
  ExpectProblem(denied, 403, "forbidden");
  ExpectEntry(a, "access.denied", "editor", "route", "GET /api/admin/audit", "denied");
  EXPECT_EQ(Str(Latest(a, "access.denied").at("details"), "code"), "forbidden");
  // So is a Member trying an admin action.
  ExpectProblem(Call("POST", "/api/apikeys", {{"name", "x"}, {"scopes", {"trust:read"}}}, a.token("editor")), 403,
                "forbidden");
  ExpectEntry(a, "access.denied", "editor", "route", "POST /api/apikeys", "denied");
  // ...and none of it reaches B.
  EXPECT_EQ(Entries(b, "action=access.").size(), 0u);
}

// The audit chain's heads are signed by the background job like the
// ledger's: an admin lists them, verify checks the chain against them and
// against a head an auditor kept, and each tenant sees only its own.
TEST_F(AuditApi, SignedHeadsOfTheAuditChain) {
  TestTenant a = CreateTenant(api(), "audit-heads-a");
  TestTenant b = CreateTenant(api(), "audit-heads-b");
  ASSERT_EQ(api().Post("/api/apikeys", {{"name", "k"}, {"scopes", {"trust:read"}}}, a.token("admin")).status, 201);
  const json::object jobs = RunJobs(api());
  auto heads = api().Get("/admin/audit/heads", a.token("admin"));
  ASSERT_EQ(heads.status, 200) << heads.body;
  const json::value listed = heads.Json();
  ASSERT_FALSE(listed.at("items").as_array().empty()) << heads.body << " after " << json::serialize(jobs);
  const json::value newest = listed.at("items").as_array().at(0);
  EXPECT_EQ(Str(newest, "chain"), "audit");
  EXPECT_EQ(Str(newest, "tenantId"), a.id);
  const json::value b_heads = api().Get("/api/admin/audit/heads", b.token("admin")).Json();
  for (const auto& h : b_heads.at("items").as_array()) EXPECT_EQ(Str(h, "tenantId"), b.id);

  auto verified = api().Get("/admin/audit/verify", a.token("admin"));
  ASSERT_EQ(verified.status, 200) << verified.body;
  EXPECT_EQ(verified.Json().at("ok"), true) << verified.body;
  EXPECT_GE(verified.Json().at("heads").at("checked").as_int64(), 1);
  // The head an auditor kept, given back: it verifies; with another hash it
  // does not, and the answer says it was the outside head.
  const std::string seq = std::to_string(newest.at("sequence").as_int64());
  auto kept = api().Get("/admin/audit/verify?headSequence=" + seq + "&headHash=" + Str(newest, "hash") +
                            "&headSignedAt=" + Str(newest, "signedAt") + "&headKeyId=" + Str(newest, "keyId") +
                            "&headSignature=" + Str(newest, "signature"),
                        a.token("admin"));
  EXPECT_EQ(kept.Json().at("ok"), true) << kept.body;
  auto other = api().Get("/admin/audit/verify?headSequence=" + seq + "&headHash=" + std::string(64, 'a'),
                         a.token("admin"));
  EXPECT_EQ(other.Json().at("ok"), false) << other.body;
  EXPECT_EQ(other.Json().at("heads").at("firstInvalid").at("outside"), true) << other.body;
  ExpectValidation(api().Get("/admin/audit/verify?headSequence=1&headHash=nothex", a.token("admin")), "headHash");
  ExpectValidation(api().Get("/admin/audit/heads?limit=0", a.token("admin")), "limit");
  ExpectProblem(api().Get("/admin/audit/heads", a.token("viewer")), 403, "forbidden");
}

}  // namespace
}  // namespace credence::test
