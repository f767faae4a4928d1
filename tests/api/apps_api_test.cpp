// The AI application registry over real HTTP (docs/apps.md): registering,
// listing, changing and archiving apps; app-bound keys through their whole
// lifecycle (mint with a mandatory, bounded expiry; disable and enable;
// regenerate in place; expiry on the test clock; revocation by archiving),
// used directly and through /connect/token; attribution of decisions to
// the app and the key; per-app stats over a window; tenant admins only;
// tenant isolation on every route; bad input. Runs on SQLite and on
// PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/clock.h"
#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kAppsForm[] = "application/x-www-form-urlencoded";

struct AppsKey {
  std::string id;
  std::string client_id;
  std::string secret;
};

std::string AppsBase64UrlDecode(const std::string& in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    const char* at = std::strchr(kAlphabet, c);
    if (at == nullptr || c == '\0') throw std::runtime_error("not base64url: " + in);
    buffer = (buffer << 6) | static_cast<uint32_t>(at - kAlphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

// The claims of a JWT, decoded without verifying it.
json::object Claims(const std::string& token) {
  const auto a = token.find('.'), b = token.rfind('.');
  return json::parse(AppsBase64UrlDecode(token.substr(a + 1, b - a - 1))).as_object();
}

// The events of a key's history, in order.
std::vector<std::string> Events(const json::value& key) {
  std::vector<std::string> out;
  for (const auto& e : key.at("history").as_array()) out.push_back(Str(e, "event"));
  return out;
}

class Apps : public ClockedApiTest {
 protected:
  // A timestamp `days` after the server's current time.
  std::string Ahead(double days) {
    const auto now = ParseTimestamp(ServerTime(api()));
    if (!now) throw std::runtime_error("unreadable server time");
    return FormatTimestamp(*now + static_cast<TimeMs>(days * static_cast<double>(kMsPerDay)));
  }

  json::value Register(const TestTenant& t, const std::string& name, const std::string& channel = "internal",
                       const std::string& risk = "medium", json::object extra = {}) {
    json::object body{{"name", name}, {"channel", channel}, {"risk", risk}};
    for (auto& [k, v] : extra) body[k] = v;
    auto r = api().Post("/trust-admin/apps", body, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? r.Json() : json::value();
  }
  std::string RegisterId(const TestTenant& t, const std::string& name) {
    const auto app = Register(t, name);
    return app.is_object() ? Str(app, "id") : "";
  }

  Response MintResponse(const TestTenant& t, const std::string& app_id, json::object body) {
    return api().Post("/trust-admin/apps/" + app_id + "/keys", body, t.token("admin"));
  }
  AppsKey Mint(const TestTenant& t, const std::string& app_id, const std::string& name = "prod", double days = 30,
               json::value scopes = nullptr) {
    json::object body{{"name", name}, {"expiresAt", Ahead(days)}};
    if (!scopes.is_null()) body["scopes"] = scopes;
    auto r = MintResponse(t, app_id, body);
    EXPECT_EQ(r.status, 201) << r.body;
    if (r.status != 201) return {};
    return {Str(r.Json(), "id"), Str(r.Json(), "clientId"), Str(r.Json(), "clientSecret")};
  }

  std::string KeyPath(const std::string& app_id, const std::string& key_id, const std::string& action) {
    return "/trust-admin/apps/" + app_id + "/keys/" + key_id + "/" + action;
  }
  Response KeyAction(const TestTenant& t, const std::string& app_id, const std::string& key_id,
                     const std::string& action) {
    return api().Post(KeyPath(app_id, key_id, action), json::object{}, t.token("admin"));
  }

  // The app's key listing: key id -> key.
  json::object KeysById(const TestTenant& t, const std::string& app_id) {
    auto r = api().Get("/trust-admin/apps/" + app_id + "/keys", t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    json::object out;
    if (r.status != 200) return out;
    const json::value body = r.Json();
    for (const auto& k : body.at("items").as_array()) out[Str(k, "id")] = k;
    return out;
  }

  Response TokenResponse(const AppsKey& key) {
    return api().Send("POST", "/connect/token",
                      "grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret, "",
                      {{"Content-Type", kAppsForm}});
  }
  std::string TokenFor(const AppsKey& key) {
    auto r = TokenResponse(key);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? Str(r.Json(), "access_token") : "";
  }

  Response WhoAmI(const std::string& bearer) { return api().Get("/api/trust/whoami", bearer); }
  Response WhoAmIByHeader(const std::string& key) {
    return api().Send("GET", "/api/trust/whoami", "", "", {{"X-Api-Key", key}});
  }

  // evaluate (or filter-sources) on the internal channel, as `bearer`.
  Response Evaluate(const std::string& bearer, const std::vector<std::string>& sources,
                    const std::string& path = "/api/trust/evaluate") {
    json::array list;
    for (const auto& s : sources) list.emplace_back(s);
    return api().Post(path, {{"sources", std::move(list)}, {"context", {{"channel", "internal"}}}}, bearer);
  }
  std::string DecisionOf(const std::string& bearer, const std::vector<std::string>& sources,
                         const std::string& path = "/api/trust/evaluate") {
    auto r = Evaluate(bearer, sources, path);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? Str(r.Json(), "decisionId") : "";
  }
};

// An RFC 6749 error of the token endpoint.
void AppsExpectOAuthError(const Response& r, int status, const std::string& error) {
  EXPECT_EQ(r.status, status) << r.body;
  if (r.status == status) {
    EXPECT_EQ(Str(r.Json(), "error"), error) << r.body;
  }
}

// A 401 for an app key that exists but does not work.
void ExpectKeyRefused(const Response& r, const std::string& code) {
  ExpectProblem(r, 401, code);
  EXPECT_EQ(r.Header("www-authenticate"), "Bearer realm=\"credence\", error=\"invalid_token\"") << r.body;
}

// --- apps ---

TEST_F(Apps, RegisterAnswersTheAppAndListShowsIt) {
  auto t = CreateTenant(api(), "app");
  auto r = api().Post("/trust-admin/apps",
                      {{"name", "  Support bot  "},
                       {"channel", "public_support_chat"},
                       {"risk", "high"},
                       {"defaultPolicy", {{"citationRequired", true}, {"maxSensitivityForAi", "Public"}}},
                       {"ownerUserId", t.user_ids.at("editor")},
                       {"description", "Answers customers in the help widget."}},
                      t.token("admin"));
  ASSERT_EQ(r.status, 201) << r.body;
  const json::value app = r.Json();
  const std::string id = Str(app, "id");
  EXPECT_EQ(Str(app, "name"), "Support bot");
  EXPECT_EQ(Str(app, "channel"), "public_support_chat");
  EXPECT_TRUE(app.at("customerFacing").as_bool());
  EXPECT_EQ(Str(app, "risk"), "high");
  EXPECT_EQ(app.at("defaultPolicy"), json::parse(R"({"citationRequired":true,"maxSensitivityForAi":"Public"})"));
  EXPECT_EQ(Str(app, "ownerUserId"), t.user_ids.at("editor"));
  EXPECT_EQ(Str(app, "createdBy"), t.user_ids.at("admin"));
  EXPECT_EQ(Str(app, "description"), "Answers customers in the help widget.");
  EXPECT_EQ(Str(app, "status"), "active");
  EXPECT_EQ(Str(app, "createdAt"), Str(app, "updatedAt"));
  EXPECT_TRUE(app.at("archivedAt").is_null());
  EXPECT_TRUE(app.at("archivedBy").is_null());

  // Defaults: no policy, the caller as owner, no description.
  const auto minimal = Register(t, "CI gate", "ci", "low");
  EXPECT_EQ(minimal.at("defaultPolicy"), json::object{});
  EXPECT_EQ(Str(minimal, "ownerUserId"), t.user_ids.at("admin"));
  EXPECT_EQ(Str(minimal, "description"), "");
  EXPECT_FALSE(minimal.at("customerFacing").as_bool());
  // A channel outside the vocabulary is customer-facing, as evaluation treats it.
  const auto unknown = Register(t, "Partner agent", "partner_portal", "critical");
  EXPECT_TRUE(unknown.at("customerFacing").as_bool());

  auto got = api().Get("/trust-admin/apps/" + id, t.token("admin"));
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(got.Json(), app);
  auto upper = id;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(api().Get("/trust-admin/apps/" + upper, t.token("admin")).status, 200);

  auto list = api().Get("/trust-admin/apps", t.token("admin"));
  ASSERT_EQ(list.status, 200) << list.body;
  std::vector<std::string> names;
  const json::value listed = list.Json();
  for (const auto& a : listed.at("items").as_array()) names.push_back(Str(a, "name"));
  EXPECT_EQ(names, (std::vector<std::string>{"CI gate", "Partner agent", "Support bot"}));
}

TEST_F(Apps, CustomerFacingFollowsTheTenantsContextVocabulary) {
  auto t = CreateTenant(api(), "app");
  const std::string id = RegisterId(t, "Partner agent");
  auto patched = api().Patch("/trust-admin/apps/" + id, {{"channel", "partner_portal"}}, t.token("admin"));
  ASSERT_EQ(patched.status, 200) << patched.body;
  EXPECT_TRUE(patched.Json().at("customerFacing").as_bool());
  auto context =
      api().Put("/trust-admin/context", {{"internalChannels", {"internal", "partner_portal"}}}, t.token("admin"));
  ASSERT_EQ(context.status, 200) << context.body;
  EXPECT_FALSE(api().Get("/trust-admin/apps/" + id, t.token("admin")).Json().at("customerFacing").as_bool());
}

TEST_F(Apps, RegisterValidatesEveryField) {
  auto t = CreateTenant(api(), "app");
  auto other = CreateTenant(api(), "app-other");
  const auto post = [&](const json::value& body) { return api().Post("/trust-admin/apps", body, t.token("admin")); };
  const json::object ok{{"name", "Bot"}, {"channel", "internal"}, {"risk", "low"}};
  const auto with = [&](const char* key, json::value v) {
    json::object body = ok;
    body[key] = std::move(v);
    return body;
  };

  auto empty = post(json::object{});
  ExpectProblem(empty, 400, "validation_failed");
  EXPECT_EQ(ErrorFields(empty), (std::set<std::string>{"name", "channel", "risk"}));
  ExpectValidation(post(with("name", 5)), "name");
  ExpectValidation(post(with("name", "   ")), "name");
  ExpectValidation(post(with("name", json::string(std::string(201, 'n')))), "name");
  ExpectValidation(post(with("channel", "")), "channel");
  ExpectValidation(post(with("channel", json::string(std::string(201, 'c')))), "channel");
  ExpectValidation(post(with("channel", json::array{"internal"})), "channel");
  ExpectValidation(post(with("risk", "severe")), "risk");
  ExpectValidation(post(with("risk", "High")), "risk");
  ExpectValidation(post(with("risk", 3)), "risk");
  ExpectValidation(post(with("defaultPolicy", "strict")), "defaultPolicy");
  ExpectValidation(post(with("defaultPolicy", {{"internalonly", true}})), "defaultPolicy.internalonly");
  ExpectValidation(post(with("defaultPolicy", {{"internalOnly", "yes"}})), "defaultPolicy.internalOnly");
  ExpectValidation(post(with("defaultPolicy", {{"maxReviewAgeDays", 5000}})), "defaultPolicy.maxReviewAgeDays");
  ExpectValidation(post(with("ownerUserId", "someone")), "ownerUserId");
  ExpectValidation(post(with("ownerUserId", kUnknownId)), "ownerUserId");
  ExpectValidation(post(with("ownerUserId", json::string(other.user_ids.at("admin")))), "ownerUserId");
  ExpectValidation(post(with("description", json::string(std::string(2001, 'd')))), "description");
  ExpectValidation(post(with("description", false)), "description");
  ExpectProblem(
      api().Send("POST", "/trust-admin/apps", "{\"name\":", t.token("admin"), {{"Content-Type", "application/json"}}),
      400, "malformed_json");

  // Nulls are absent: the defaults apply.
  auto nulls = post(json::object{{"name", "Bot"},
                                 {"channel", "internal"},
                                 {"risk", "low"},
                                 {"defaultPolicy", nullptr},
                                 {"ownerUserId", nullptr},
                                 {"description", nullptr}});
  ASSERT_EQ(nulls.status, 201) << nulls.body;
  EXPECT_EQ(nulls.Json().at("defaultPolicy"), json::object{});
  EXPECT_EQ(Str(nulls.Json(), "ownerUserId"), t.user_ids.at("admin"));
  // Nothing invalid was stored.
  EXPECT_EQ(api().Get("/trust-admin/apps", t.token("admin")).Json().at("items").as_array().size(), 1u);
}

TEST_F(Apps, NamesAreUniqueAmongActiveApps) {
  auto t = CreateTenant(api(), "app");
  const std::string first = RegisterId(t, "Helpdesk");
  ExpectProblem(
      api().Post("/trust-admin/apps", {{"name", " Helpdesk "}, {"channel", "ci"}, {"risk", "low"}}, t.token("admin")),
      409, "app_name_taken");
  const std::string second = RegisterId(t, "Helpdesk v2");
  ExpectProblem(api().Patch("/trust-admin/apps/" + second, {{"name", "Helpdesk"}}, t.token("admin")), 409,
                "app_name_taken");
  // Keeping its own name is not a clash.
  EXPECT_EQ(api().Patch("/trust-admin/apps/" + first, {{"name", "Helpdesk"}}, t.token("admin")).status, 200);
  // Another tenant may use the name.
  auto other = CreateTenant(api(), "app-other");
  Register(other, "Helpdesk");
  // An archived app frees its name; the archived one keeps it.
  ASSERT_EQ(api().Post("/trust-admin/apps/" + first + "/archive", json::object{}, t.token("admin")).status, 200);
  const auto again = Register(t, "Helpdesk");
  ASSERT_TRUE(again.is_object());
  EXPECT_NE(Str(again, "id"), first);
  EXPECT_EQ(Str(api().Get("/trust-admin/apps/" + first, t.token("admin")).Json(), "name"), "Helpdesk");
}

TEST_F(Apps, UpdateReplacesOnlyTheFieldsSent) {
  auto t = CreateTenant(api(), "app");
  const auto app = Register(t, "Bot", "internal", "low",
                            {{"defaultPolicy", {{"citationRequired", true}}}, {"description", "first"}});
  const std::string id = Str(app, "id");
  SetServerTime(api(), "2031-01-05T10:00:00Z");
  auto r = api().Patch("/trust-admin/apps/" + id,
                       {{"risk", "critical"}, {"defaultPolicy", {{"internalOnly", true}}}, {"name", nullptr}},
                       t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  auto body = r.Json();
  EXPECT_EQ(Str(body, "name"), "Bot");
  EXPECT_EQ(Str(body, "risk"), "critical");
  EXPECT_EQ(body.at("defaultPolicy"), json::parse(R"({"internalOnly":true})"));  // replaced, not merged
  EXPECT_EQ(Str(body, "description"), "first");
  EXPECT_EQ(Str(body, "channel"), "internal");
  EXPECT_EQ(Str(body, "updatedAt"), "2031-01-05T10:00:00.000Z");
  EXPECT_EQ(Str(body, "createdAt"), Str(app, "createdAt"));

  r = api().Patch("/trust-admin/apps/" + id,
                  {{"ownerUserId", t.user_ids.at("viewer")},
                   {"description", ""},
                   {"defaultPolicy", json::object{}},
                   {"channel", " customer_email "}},
                  t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  body = r.Json();
  EXPECT_EQ(Str(body, "ownerUserId"), t.user_ids.at("viewer"));
  EXPECT_EQ(Str(body, "description"), "");
  EXPECT_EQ(body.at("defaultPolicy"), json::object{});
  EXPECT_EQ(Str(body, "channel"), "customer_email");
  EXPECT_TRUE(body.at("customerFacing").as_bool());
  EXPECT_EQ(api().Get("/trust-admin/apps/" + id, t.token("admin")).Json(), body);

  const std::string path = "/trust-admin/apps/" + id;
  ExpectValidation(api().Patch(path, {{"risk", "extreme"}}, t.token("admin")), "risk");
  ExpectValidation(api().Patch(path, {{"name", ""}}, t.token("admin")), "name");
  ExpectValidation(api().Patch(path, {{"ownerUserId", kUnknownId}}, t.token("admin")), "ownerUserId");
  ExpectValidation(api().Patch(path, {{"defaultPolicy", {{"aiRetrievable", 1}}}}, t.token("admin")),
                   "defaultPolicy.aiRetrievable");
  ExpectValidation(api().Patch(path, {{"channel", 7}}, t.token("admin")), "channel");
  ExpectProblem(api().Patch("/trust-admin/apps/" + std::string(kUnknownId), {{"risk", "low"}}, t.token("admin")), 404,
                "not_found");
  // Nothing of the refused changes was stored.
  EXPECT_EQ(api().Get(path, t.token("admin")).Json(), body);
}

TEST_F(Apps, RemovedMemberCannotBecomeOwner) {
  auto t = CreateTenant(api(), "app");
  ASSERT_EQ(api().Delete("/users/" + t.user_ids.at("guest"), t.token("admin")).status, 204);
  ExpectValidation(
      api().Post("/trust-admin/apps",
                 {{"name", "Bot"}, {"channel", "ci"}, {"risk", "low"}, {"ownerUserId", t.user_ids.at("guest")}},
                 t.token("admin")),
      "ownerUserId");
}

TEST_F(Apps, ArchiveRevokesEveryKeyAndKeepsTheHistory) {
  auto t = CreateTenant(api(), "app");
  SetServerTime(api(), "2031-02-01T00:00:00Z");
  const std::string id = RegisterId(t, "Retired bot");
  const AppsKey live = Mint(t, id, "live");
  const AppsKey disabled = Mint(t, id, "disabled");
  ASSERT_EQ(KeyAction(t, id, disabled.id, "disable").status, 200);
  const std::string token = TokenFor(live);
  const std::string decision = DecisionOf(live.secret, {"wiki:unknown"});

  SetServerTime(api(), "2031-02-01T00:10:00Z");
  auto archived = api().Post("/trust-admin/apps/" + id + "/archive", json::object{}, t.token("admin"));
  ASSERT_EQ(archived.status, 200) << archived.body;
  EXPECT_EQ(Str(archived.Json(), "status"), "archived");
  EXPECT_EQ(Str(archived.Json(), "archivedAt"), "2031-02-01T00:10:00.000Z");
  EXPECT_EQ(Str(archived.Json(), "archivedBy"), t.user_ids.at("admin"));

  // The keys stop working at once, both as keys and at the token endpoint.
  for (const AppsKey& k : {live, disabled}) {
    ExpectProblem(WhoAmI(k.secret), 401, "invalid_token");
    AppsExpectOAuthError(TokenResponse(k), 401, "invalid_client");
  }
  // A token issued before stays valid until its exp, as for revoked tenant keys.
  EXPECT_EQ(WhoAmI(token).status, 200);
  SetServerTime(api(), "2031-02-01T01:00:00Z");
  ExpectProblem(WhoAmI(token), 401, "invalid_token");

  // History stays: the app, its keys (revoked, with the event) and its decisions.
  auto keys = KeysById(t, id);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(Str(keys.at(live.id), "status"), "revoked");
  EXPECT_EQ(Events(keys.at(live.id)), (std::vector<std::string>{"created", "revoked"}));
  EXPECT_EQ(Str(keys.at(disabled.id), "status"), "revoked");
  EXPECT_EQ(Events(keys.at(disabled.id)), (std::vector<std::string>{"created", "disabled", "revoked"}));
  const auto& revoked_event = keys.at(live.id).at("history").as_array().back();
  EXPECT_EQ(Str(revoked_event, "at"), "2031-02-01T00:10:00.000Z");
  EXPECT_EQ(Str(revoked_event, "byUserId"), t.user_ids.at("admin"));
  auto record = api().Get("/api/trust/decisions/" + decision, t.token("admin"));
  ASSERT_EQ(record.status, 200) << record.body;
  EXPECT_EQ(Str(record.Json(), "appId"), id);
  auto stats = api().Get("/trust-admin/apps/" + id + "/stats?from=2031-02-01&to=2031-02-01", t.token("admin"));
  ASSERT_EQ(stats.status, 200) << stats.body;
  EXPECT_EQ(stats.Json().at("decisions").at("total").as_int64(), 1);

  // Listed only when asked for.
  EXPECT_TRUE(api().Get("/trust-admin/apps", t.token("admin")).Json().at("items").as_array().empty());
  EXPECT_TRUE(
      api().Get("/trust-admin/apps?includeArchived=false", t.token("admin")).Json().at("items").as_array().empty());
  const std::string active = RegisterId(t, "Active bot");
  auto all = api().Get("/trust-admin/apps?includeArchived=true", t.token("admin"));
  ASSERT_EQ(all.status, 200) << all.body;
  const json::value all_body = all.Json();
  const auto& items = all_body.at("items").as_array();
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(Str(items[0], "id"), active);  // active ones first
  EXPECT_EQ(Str(items[1], "id"), id);
  ExpectValidation(api().Get("/trust-admin/apps?includeArchived=yes", t.token("admin")), "includeArchived");

  // An archived app and its keys cannot be changed.
  ExpectProblem(api().Post("/trust-admin/apps/" + id + "/archive", json::object{}, t.token("admin")), 409,
                "app_archived");
  ExpectProblem(api().Patch("/trust-admin/apps/" + id, {{"risk", "low"}}, t.token("admin")), 409, "app_archived");
  ExpectProblem(MintResponse(t, id, {{"name", "again"}, {"expiresAt", Ahead(5)}}), 409, "app_archived");
  for (const char* action : {"disable", "enable", "regenerate"})
    ExpectProblem(KeyAction(t, id, live.id, action), 409, "app_archived");
  EXPECT_EQ(Events(KeysById(t, id).at(live.id)), (std::vector<std::string>{"created", "revoked"}));
}

// --- keys: minting ---

TEST_F(Apps, MintAnswersTheSecretOnceWithABoundedExpiry) {
  auto t = CreateTenant(api(), "key");
  SetServerTime(api(), "2031-03-01T12:00:00Z");
  const std::string id = RegisterId(t, "Bot");
  auto r = MintResponse(t, id, {{"name", "  prod  "}, {"expiresAt", "2031-06-01T12:00:00+02:00"}});
  ASSERT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(r.Header("cache-control"), "no-store");
  const auto key = r.Json();
  EXPECT_EQ(Str(key, "appId"), id);
  EXPECT_EQ(Str(key, "name"), "prod");
  EXPECT_EQ(Str(key, "clientId").substr(0, 7), "crd_ci_");
  EXPECT_EQ(Str(key, "clientSecret").substr(0, 7), "crd_sk_");
  EXPECT_EQ(Str(key, "secretPrefix"), Str(key, "clientSecret").substr(0, 15));
  EXPECT_EQ(Strings(key.at("scopes")), (std::vector<std::string>{"trust:evaluate", "trust:read", "trust:usage"}));
  EXPECT_EQ(Str(key, "expiresAt"), "2031-06-01T10:00:00.000Z");
  EXPECT_EQ(Str(key, "status"), "enabled");
  EXPECT_EQ(Str(key, "createdBy"), t.user_ids.at("admin"));
  EXPECT_EQ(Str(key, "createdAt"), "2031-03-01T12:00:00.000Z");
  ASSERT_EQ(key.at("history").as_array().size(), 1u);
  EXPECT_EQ(key.at("history").as_array()[0],
            json::parse(R"({"event":"created","at":"2031-03-01T12:00:00.000Z","byUserId":")" + t.user_ids.at("admin") +
                        "\"}"));

  // Listed without the secret.
  auto keys = KeysById(t, id);
  ASSERT_EQ(keys.size(), 1u);
  json::object listed = keys.at(Str(key, "id")).as_object();
  EXPECT_FALSE(listed.contains("clientSecret"));
  json::object expected = key.as_object();
  expected.erase("clientSecret");
  EXPECT_EQ(listed, expected);

  // Scopes: a subset, answered in canonical order.
  auto narrow =
      MintResponse(t, id, {{"name", "reader"}, {"expiresAt", Ahead(1)}, {"scopes", {"trust:read", "trust:evaluate"}}});
  ASSERT_EQ(narrow.status, 201) << narrow.body;
  EXPECT_EQ(Strings(narrow.Json().at("scopes")), (std::vector<std::string>{"trust:evaluate", "trust:read"}));
  // Exactly the maximum lifetime (365 days by default) is allowed.
  EXPECT_EQ(MintResponse(t, id, {{"name", "year"}, {"expiresAt", "2032-02-29T12:00:00Z"}}).status, 201);
}

TEST_F(Apps, MintRequiresAnExpiryWithinTheMaximumLifetime) {
  auto t = CreateTenant(api(), "key");
  SetServerTime(api(), "2031-03-01T12:00:00Z");
  const std::string id = RegisterId(t, "Bot");
  const auto mint = [&](json::object body) { return MintResponse(t, id, std::move(body)); };

  auto missing = mint({{"name", "prod"}});
  ExpectValidation(missing, "expiresAt");
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", nullptr}}), "expiresAt");
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", "2031-03-01T12:00:00Z"}}), "expiresAt");      // now
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", "2031-02-01T00:00:00Z"}}), "expiresAt");      // past
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", "2032-02-29T12:00:00.001Z"}}), "expiresAt");  // > 365 days
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", "next year"}}), "expiresAt");
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", 1900000000}}), "expiresAt");
  // The service's checks are answered together.
  auto several =
      mint({{"name", "  "}, {"expiresAt", "2040-01-01T00:00:00Z"}, {"scopes", {"trust:read", "trust:read"}}});
  ExpectProblem(several, 400, "validation_failed");
  EXPECT_EQ(ErrorFields(several), (std::set<std::string>{"name", "expiresAt", "scopes"}));
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", Ahead(1)}, {"scopes", {"trust:admin"}}}), "scopes[0]");
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", Ahead(1)}, {"scopes", json::array{}}}), "scopes");
  ExpectValidation(mint({{"name", "prod"}, {"expiresAt", Ahead(1)}, {"scopes", {"trust:read", "trust:read"}}}),
                   "scopes");
  ExpectValidation(mint({{"name", std::string(201, 'k')}, {"expiresAt", Ahead(1)}}), "name");
  ExpectProblem(MintResponse(t, kUnknownId, {{"name", "prod"}, {"expiresAt", Ahead(1)}}), 404, "not_found");
  EXPECT_TRUE(KeysById(t, id).empty());
}

TEST_F(Apps, MaximumLifetimeIsAServerFlag) {
  auto t = CreateTenant(api(), "key");
  const std::string id = RegisterId(t, "Bot");
  ServerProcess second(
      ServerOptions{.dev = true,
                    .extra_args = {"--database", SharedServer().database_url(), "--app-key-max-days", "30",
                                   // A second node of the same deployment shares the chain-signing key
                                   // (docs/trust.md); with a key of its own it would retire the first's.
                                   "--chain-signing-key", SharedServer().data_dir() + "/chain-signing-key.pem"}});
  HttpClient other(second.base_url());
  // That server runs on the system clock.
  const std::optional<TimeMs> now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  auto too_long = other.Post("/trust-admin/apps/" + id + "/keys",
                             {{"name", "k"}, {"expiresAt", FormatTimestamp(*now + 31 * kMsPerDay)}}, t.token("admin"));
  ExpectValidation(too_long, "expiresAt");
  EXPECT_NE(too_long.body.find("30 days"), std::string::npos) << too_long.body;
  EXPECT_EQ(other
                .Post("/trust-admin/apps/" + id + "/keys",
                      {{"name", "k"}, {"expiresAt", FormatTimestamp(*now + 29 * kMsPerDay)}}, t.token("admin"))
                .status,
            201);
  // The shared server keeps its default of 365 days.
  EXPECT_EQ(MintResponse(t, id, {{"name", "k"}, {"expiresAt", Ahead(300)}}).status, 201);
}

// --- keys: authentication ---

TEST_F(Apps, KeysAuthenticateDirectlyAndThroughTheTokenEndpoint) {
  auto t = CreateTenant(api(), "key");
  SetServerTime(api(), "2031-04-01T08:00:00Z");
  const std::string id = RegisterId(t, "Bot");
  const AppsKey key = Mint(t, id, "prod", 0.5);  // expires at 20:00

  for (const auto& who : {WhoAmI(key.secret), WhoAmIByHeader(key.secret)}) {
    ASSERT_EQ(who.status, 200) << who.body;
    const auto body = who.Json();
    EXPECT_EQ(Str(body, "kind"), "machine");
    EXPECT_EQ(Str(body, "keyId"), key.id);
    EXPECT_EQ(Str(body, "appId"), id);
    EXPECT_EQ(Str(body, "clientId"), key.client_id);
    EXPECT_EQ(Str(body, "expiresAt"), "2031-04-01T20:00:00.000Z");
  }

  auto issued = TokenResponse(key);
  ASSERT_EQ(issued.status, 200) << issued.body;
  EXPECT_EQ(issued.Json().at("expires_in").as_int64(), 3600);
  const std::string token = Str(issued.Json(), "access_token");
  EXPECT_EQ(Str(Claims(token), "app"), id);
  EXPECT_EQ(Str(Claims(token), "sub"), key.id);
  auto who = WhoAmI(token);
  ASSERT_EQ(who.status, 200) << who.body;
  EXPECT_EQ(Str(who.Json(), "appId"), id);
  EXPECT_EQ(Str(who.Json(), "keyId"), key.id);

  // A token never outlives the key.
  SetServerTime(api(), "2031-04-01T19:30:00Z");
  auto late = TokenResponse(key);
  ASSERT_EQ(late.status, 200) << late.body;
  EXPECT_EQ(late.Json().at("expires_in").as_int64(), 1800);
  EXPECT_EQ(Claims(Str(late.Json(), "access_token")).at("exp").as_int64(),
            *ParseTimestamp("2031-04-01T20:00:00Z") / 1000);

  // Tenant keys' tokens carry no app.
  auto tenant_key = api().Post("/apikeys", {{"name", "tenant"}, {"scopes", {"trust:read"}}}, t.token("admin"));
  ASSERT_EQ(tenant_key.status, 201);
  const AppsKey plain{Str(tenant_key.Json(), "id"), Str(tenant_key.Json(), "clientId"),
                      Str(tenant_key.Json(), "clientSecret")};
  EXPECT_FALSE(Claims(TokenFor(plain)).contains("app"));
  EXPECT_TRUE(WhoAmI(plain.secret).Json().at("appId").is_null());
  EXPECT_TRUE(WhoAmI(t.token("admin")).Json().at("appId").is_null());
}

TEST_F(Apps, DisableRefusesTheKeyAtOnceAndEnableRestoresIt) {
  auto t = CreateTenant(api(), "key");
  SetServerTime(api(), "2031-04-02T08:00:00Z");
  const std::string id = RegisterId(t, "Bot");
  const AppsKey key = Mint(t, id);
  const std::string token = TokenFor(key);

  SetServerTime(api(), "2031-04-02T08:05:00Z");
  auto disabled = KeyAction(t, id, key.id, "disable");
  ASSERT_EQ(disabled.status, 200) << disabled.body;
  EXPECT_EQ(Str(disabled.Json(), "status"), "disabled");
  EXPECT_FALSE(disabled.Json().as_object().contains("clientSecret"));
  EXPECT_EQ(Events(disabled.Json()), (std::vector<std::string>{"created", "disabled"}));
  EXPECT_EQ(Str(disabled.Json().at("history").as_array()[1], "at"), "2031-04-02T08:05:00.000Z");

  auto refused = WhoAmI(key.secret);
  ExpectKeyRefused(refused, "key_disabled");
  ExpectKeyRefused(WhoAmIByHeader(key.secret), "key_disabled");
  ExpectKeyRefused(Evaluate(key.secret, {"wiki:page"}), "key_disabled");
  AppsExpectOAuthError(TokenResponse(key), 401, "invalid_client");
  // A token issued before stays valid until its exp (the spec's rule for tenant keys).
  EXPECT_EQ(WhoAmI(token).status, 200);

  // Disabling again changes nothing.
  auto again = KeyAction(t, id, key.id, "disable");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Events(again.Json()), (std::vector<std::string>{"created", "disabled"}));

  auto enabled = KeyAction(t, id, key.id, "enable");
  ASSERT_EQ(enabled.status, 200) << enabled.body;
  EXPECT_EQ(Str(enabled.Json(), "status"), "enabled");
  EXPECT_EQ(Events(enabled.Json()), (std::vector<std::string>{"created", "disabled", "enabled"}));
  EXPECT_EQ(WhoAmI(key.secret).status, 200);
  EXPECT_EQ(WhoAmIByHeader(key.secret).status, 200);
  EXPECT_EQ(TokenResponse(key).status, 200);
  // Enabling again changes nothing.
  auto twice = KeyAction(t, id, key.id, "enable");
  ASSERT_EQ(twice.status, 200);
  EXPECT_EQ(Events(twice.Json()), (std::vector<std::string>{"created", "disabled", "enabled"}));
  EXPECT_EQ(Events(KeysById(t, id).at(key.id)), (std::vector<std::string>{"created", "disabled", "enabled"}));

  ExpectProblem(KeyAction(t, id, kUnknownId, "disable"), 404, "not_found");
  ExpectProblem(KeyAction(t, kUnknownId, key.id, "enable"), 404, "not_found");
}

TEST_F(Apps, RegenerateReplacesTheSecretInPlace) {
  auto t = CreateTenant(api(), "key");
  SetServerTime(api(), "2031-04-03T08:00:00Z");
  const std::string id = RegisterId(t, "Bot");
  const AppsKey old = Mint(t, id, "prod", 30, json::array{"trust:evaluate", "trust:read"});
  const std::string decision = DecisionOf(old.secret, {"wiki:page"});

  SetServerTime(api(), "2031-04-03T09:00:00Z");
  auto r = KeyAction(t, id, old.id, "regenerate");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("cache-control"), "no-store");
  const auto body = r.Json();
  const AppsKey renewed{Str(body, "id"), Str(body, "clientId"), Str(body, "clientSecret")};
  EXPECT_EQ(renewed.id, old.id);
  EXPECT_EQ(renewed.client_id, old.client_id);
  EXPECT_NE(renewed.secret, old.secret);
  EXPECT_EQ(Str(body, "secretPrefix"), renewed.secret.substr(0, 15));
  EXPECT_EQ(Strings(body.at("scopes")), (std::vector<std::string>{"trust:evaluate", "trust:read"}));
  EXPECT_EQ(Str(body, "status"), "enabled");
  EXPECT_EQ(Events(body), (std::vector<std::string>{"created", "regenerated"}));
  EXPECT_EQ(Str(body.at("history").as_array()[1], "at"), "2031-04-03T09:00:00.000Z");

  // The old secret stops at once; the new one works, as the same key.
  ExpectProblem(WhoAmI(old.secret), 401, "invalid_token");
  AppsExpectOAuthError(TokenResponse(old), 401, "invalid_client");
  auto who = WhoAmI(renewed.secret);
  ASSERT_EQ(who.status, 200) << who.body;
  EXPECT_EQ(Str(who.Json(), "keyId"), old.id);
  EXPECT_EQ(TokenResponse(renewed).status, 200);
  // Decisions made with the old secret still name the key.
  EXPECT_EQ(Str(api().Get("/api/trust/decisions/" + decision, renewed.secret).Json(), "keyId"), old.id);

  // A disabled key may be regenerated (e.g. after a leak) and stays disabled.
  ASSERT_EQ(KeyAction(t, id, old.id, "disable").status, 200);
  auto while_disabled = KeyAction(t, id, old.id, "regenerate");
  ASSERT_EQ(while_disabled.status, 200) << while_disabled.body;
  EXPECT_EQ(Str(while_disabled.Json(), "status"), "disabled");
  const std::string third = Str(while_disabled.Json(), "clientSecret");
  ExpectKeyRefused(WhoAmI(third), "key_disabled");
  ExpectProblem(WhoAmI(renewed.secret), 401, "invalid_token");
  ASSERT_EQ(KeyAction(t, id, old.id, "enable").status, 200);
  EXPECT_EQ(WhoAmI(third).status, 200);
  EXPECT_EQ(Events(KeysById(t, id).at(old.id)),
            (std::vector<std::string>{"created", "regenerated", "disabled", "regenerated", "enabled"}));
  EXPECT_EQ(KeysById(t, id).size(), 1u);
}

TEST_F(Apps, ExpiredKeyIsRefusedWithItsOwnCode) {
  auto t = CreateTenant(api(), "key");
  SetServerTime(api(), "2031-05-01T12:00:00Z");
  const std::string id = RegisterId(t, "Bot");
  const AppsKey key = Mint(t, id, "short", 1);
  SetServerTime(api(), "2031-05-02T11:59:59.999Z");
  EXPECT_EQ(WhoAmI(key.secret).status, 200);
  const std::string token = TokenFor(key);
  EXPECT_EQ(Str(KeysById(t, id).at(key.id), "status"), "enabled");

  SetServerTime(api(), "2031-05-02T12:00:00Z");
  auto expired = WhoAmI(key.secret);
  ExpectKeyRefused(expired, "key_expired");
  ExpectKeyRefused(WhoAmIByHeader(key.secret), "key_expired");
  ExpectProblem(WhoAmI(token), 401, "invalid_token");  // its token ended with the key
  AppsExpectOAuthError(TokenResponse(key), 401, "invalid_client");
  EXPECT_EQ(Str(KeysById(t, id).at(key.id), "status"), "expired");
  ExpectProblem(KeyAction(t, id, key.id, "regenerate"), 409, "key_expired");
  // Disabling an expired key is recorded; it stays expired (the stronger state).
  auto disabled = KeyAction(t, id, key.id, "disable");
  ASSERT_EQ(disabled.status, 200) << disabled.body;
  EXPECT_EQ(Str(disabled.Json(), "status"), "expired");
  ExpectKeyRefused(WhoAmI(key.secret), "key_expired");
}

// --- attribution and stats ---

TEST_F(Apps, DecisionsAreAttributedToTheAppAndTheKey) {
  auto t = CreateTenant(api(), "attr");
  const std::string id = RegisterId(t, "Bot");
  const AppsKey key = Mint(t, id);
  const std::string token = TokenFor(key);

  for (const auto& [bearer, path] : std::vector<std::pair<std::string, std::string>>{
           {key.secret, "/api/trust/evaluate"}, {token, "/api/trust/evaluate"}, {token, "/api/trust/filter-sources"}}) {
    const std::string decision = DecisionOf(bearer, {"wiki:page"}, path);
    auto record = api().Get("/api/trust/decisions/" + decision, t.token("admin"));
    ASSERT_EQ(record.status, 200) << record.body;
    EXPECT_EQ(Str(record.Json(), "appId"), id) << path;
    EXPECT_EQ(Str(record.Json(), "keyId"), key.id) << path;
    EXPECT_EQ(Str(record.Json(), "actorKind"), "machine");
  }
  // X-Api-Key as well.
  auto by_header = api().Send("POST", "/api/trust/evaluate",
                              json::serialize(json::object{{"sources", {"wiki:page"}}, {"context", json::object{}}}),
                              "", {{"X-Api-Key", key.secret}, {"Content-Type", "application/json"}});
  ASSERT_EQ(by_header.status, 200) << by_header.body;
  auto record = api().Get("/api/trust/decisions/" + Str(by_header.Json(), "decisionId"), key.secret);
  ASSERT_EQ(record.status, 200) << record.body;
  EXPECT_EQ(Str(record.Json(), "appId"), id);

  // Tenant keys and users make decisions without an app.
  auto tenant_key = api().Post("/apikeys", {{"name", "tenant"}, {"scopes", {"trust:evaluate"}}}, t.token("admin"));
  ASSERT_EQ(tenant_key.status, 201);
  const std::string by_tenant_key = DecisionOf(Str(tenant_key.Json(), "clientSecret"), {"wiki:page"});
  auto plain = api().Get("/api/trust/decisions/" + by_tenant_key, t.token("admin")).Json();
  EXPECT_TRUE(plain.at("appId").is_null());
  EXPECT_EQ(Str(plain, "keyId"), Str(tenant_key.Json(), "id"));
  auto by_user = api().Get("/api/trust/decisions/" + DecisionOf(t.token("viewer"), {"wiki:page"}), t.token("admin"));
  EXPECT_TRUE(by_user.Json().at("appId").is_null());
  EXPECT_TRUE(by_user.Json().at("keyId").is_null());
}

TEST_F(Apps, StatsCountDecisionsByOutcomeAndKeyWithinTheWindow) {
  auto t = CreateTenant(api(), "stats");
  SetServerTime(api(), "2031-06-10T09:00:00Z");
  ASSERT_EQ(
      api()
          .Post("/api/hubs", {{"key", "kb"}, {"name", "KB"}, {"defaultExpiryDays", 365}, {"defaultOrgRole", "Editor"}},
                t.token("admin"))
          .status,
      201);
  // allow: published and reviewed; warn: published, never reviewed; block
  // and escalated: reviewed but carrying secrets; block: unresolved.
  auto entry = [&](const std::string& key, bool review) {
    const std::string entry_id = Str(MakeEntry(api(), t.token("editor"), "kb", key, {"Text of " + key}), "id");
    EXPECT_EQ(api().Post("/api/entries/" + entry_id + "/publish", json::object{}, t.token("editor")).status, 200);
    if (review) {
      EXPECT_EQ(api()
                    .Post("/api/entries/" + entry_id + "/review",
                          {{"reviewType", "FullReview"}, {"timeSpentSeconds", 60}}, t.token("editor"))
                    .status,
                200);
    }
    return "entry:" + entry_id;
  };
  const std::string allow = entry("allowed", true), warn = entry("unreviewed", false), secret = entry("secret", true),
                    unresolved = "wiki:nowhere";
  auto fact =
      api().Put("/trust-admin/sensitivity?sourceId=" + secret.substr(0, 5) + "%3A" + secret.substr(6),
                {{"classification", "Internal"}, {"hasSecrets", true}, {"hasPersonalData", false}}, t.token("admin"));
  ASSERT_EQ(fact.status, 200) << fact.body;

  const std::string app = RegisterId(t, "Support bot");
  const std::string other_app = RegisterId(t, "Other bot");
  // Keys are listed oldest first: mint them at distinct times.
  SetServerTime(api(), "2031-06-10T09:01:00Z");
  const AppsKey first = Mint(t, app, "first");
  SetServerTime(api(), "2031-06-10T09:02:00Z");
  const AppsKey second = Mint(t, app, "second");
  SetServerTime(api(), "2031-06-10T09:03:00Z");
  const AppsKey idle = Mint(t, app, "idle");
  const AppsKey elsewhere = Mint(t, other_app, "elsewhere");

  // Day 1 (2031-06-10): four decisions of the app.
  auto overall = [&](const std::string& bearer, const std::vector<std::string>& sources,
                     const std::string& path = "/api/trust/evaluate") {
    auto r = Evaluate(bearer, sources, path);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 && r.Json().as_object().contains("overallDecision") ? Str(r.Json(), "overallDecision")
                                                                               : std::string("(partitioned)");
  };
  EXPECT_EQ(overall(first.secret, {allow}), "allow");
  EXPECT_EQ(overall(first.secret, {allow, warn}), "warn");
  SetServerTime(api(), "2031-06-10T10:00:00Z");
  EXPECT_EQ(overall(first.secret, {secret}), "block");
  SetServerTime(api(), "2031-06-10T11:00:00Z");
  // block, through an access token of the second key
  overall(TokenFor(second), {allow, unresolved}, "/api/trust/filter-sources");
  // Not the app's: another app's key, a user.
  EXPECT_EQ(overall(elsewhere.secret, {allow}), "allow");
  EXPECT_EQ(overall(t.token("viewer"), {warn}), "warn");
  // Day 3 (2031-06-12): one more.
  SetServerTime(api(), "2031-06-12T08:00:00Z");
  EXPECT_EQ(overall(first.secret, {warn}), "warn");

  const auto stats = [&](const std::string& app_id, const std::string& query) {
    auto r = api().Get("/trust-admin/apps/" + app_id + "/stats" + query, t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json() : json::value();
  };

  const auto day1 = stats(app, "?from=2031-06-10&to=2031-06-10");
  ASSERT_TRUE(day1.is_object());
  EXPECT_EQ(Str(day1, "appId"), app);
  EXPECT_EQ(Str(day1, "from"), "2031-06-10");
  EXPECT_EQ(Str(day1, "to"), "2031-06-10");
  EXPECT_EQ(day1.at("decisions"), json::parse(R"({"total":4,"allow":1,"warn":1,"block":2})"));
  EXPECT_EQ(day1.at("sourceDecisions"), json::parse(R"({"total":6,"allowed":3,"warned":1,"blocked":2,"escalated":1})"));
  const auto& keys = day1.at("keys").as_array();
  ASSERT_EQ(keys.size(), 3u);  // every key of the app, oldest first; none of the other app's
  EXPECT_EQ(keys[0], json::parse(R"({"keyId":")" + first.id +
                                 R"(","name":"first","requests":3,"lastRequestAt":"2031-06-10T10:00:00.000Z"})"));
  EXPECT_EQ(keys[1], json::parse(R"({"keyId":")" + second.id +
                                 R"(","name":"second","requests":1,"lastRequestAt":"2031-06-10T11:00:00.000Z"})"));
  EXPECT_EQ(keys[2], json::parse(R"({"keyId":")" + idle.id + R"(","name":"idle","requests":0,"lastRequestAt":null})"));

  // Both ends are inclusive.
  const auto both = stats(app, "?from=2031-06-10&to=2031-06-12");
  EXPECT_EQ(both.at("decisions"), json::parse(R"({"total":5,"allow":1,"warn":2,"block":2})"));
  EXPECT_EQ(both.at("keys").as_array()[0].at("requests").as_int64(), 4);
  EXPECT_EQ(Str(both.at("keys").as_array()[0], "lastRequestAt"), "2031-06-12T08:00:00.000Z");
  // A window without decisions: zeros, every key still listed.
  const auto quiet = stats(app, "?from=2031-06-11&to=2031-06-11");
  EXPECT_EQ(quiet.at("decisions"), json::parse(R"({"total":0,"allow":0,"warn":0,"block":0})"));
  EXPECT_EQ(quiet.at("sourceDecisions"),
            json::parse(R"({"total":0,"allowed":0,"warned":0,"blocked":0,"escalated":0})"));
  ASSERT_EQ(quiet.at("keys").as_array().size(), 3u);
  for (const auto& k : quiet.at("keys").as_array()) {
    EXPECT_EQ(k.at("requests").as_int64(), 0);
    EXPECT_TRUE(k.at("lastRequestAt").is_null());
  }
  EXPECT_EQ(stats(app, "?from=2031-06-13&to=2031-06-30").at("decisions").at("total").as_int64(), 0);
  EXPECT_EQ(stats(app, "?from=2031-05-01&to=2031-06-09").at("decisions").at("total").as_int64(), 0);
  // Default: the 30 days up to today (the server's clock).
  const auto recent = stats(app, "");
  EXPECT_EQ(Str(recent, "to"), "2031-06-12");
  EXPECT_EQ(Str(recent, "from"), "2031-05-14");
  EXPECT_EQ(recent.at("decisions").at("total").as_int64(), 5);
  // The other app counts its own only.
  const auto other = stats(other_app, "?from=2031-06-10&to=2031-06-12");
  EXPECT_EQ(other.at("decisions"), json::parse(R"({"total":1,"allow":1,"warn":0,"block":0})"));
  ASSERT_EQ(other.at("keys").as_array().size(), 1u);
  EXPECT_EQ(Str(other.at("keys").as_array()[0], "keyId"), elsewhere.id);
  EXPECT_EQ(other.at("keys").as_array()[0].at("requests").as_int64(), 1);
}

TEST_F(Apps, StatsValidateTheWindow) {
  auto t = CreateTenant(api(), "stats");
  const std::string id = RegisterId(t, "Bot");
  const std::string path = "/trust-admin/apps/" + id + "/stats";
  ExpectValidation(api().Get(path + "?from=yesterday", t.token("admin")), "from");
  ExpectValidation(api().Get(path + "?from=2031-02-30", t.token("admin")), "from");
  ExpectValidation(api().Get(path + "?to=2031-13-01", t.token("admin")), "to");
  ExpectValidation(api().Get(path + "?from=2031-06-10&to=2031-06-09", t.token("admin")), "to");
  ExpectProblem(api().Get("/trust-admin/apps/" + std::string(kUnknownId) + "/stats", t.token("admin")), 404,
                "not_found");
}

// A key minted while its app is archived is refused or revoked with the
// others, never left working (the app's row is held while keys change).
TEST_F(Apps, KeysMintedWhileTheAppIsArchivedDoNotSurviveIt) {
  auto t = CreateTenant(api(), "race");
  const std::string id = RegisterId(t, "Bot");
  const std::string expires = Ahead(10);
  std::atomic<int> calls{0};
  const auto answers = Concurrently(8, [&](HttpClient& client) {
    if (calls.fetch_add(1) == 3)
      return client.Post("/trust-admin/apps/" + id + "/archive", json::object{}, t.token("admin"));
    return client.Post("/trust-admin/apps/" + id + "/keys", {{"name", "k"}, {"expiresAt", expires}}, t.token("admin"));
  });
  int archived = 0;
  std::vector<std::string> minted;
  for (const auto& r : answers) {
    if (r.status == 200) {
      ++archived;
    } else if (r.status == 201) {
      minted.push_back(Str(r.Json(), "clientSecret"));
    } else {
      ExpectProblem(r, 409, "app_archived");
    }
  }
  EXPECT_EQ(archived, 1);
  const auto keys = KeysById(t, id);
  EXPECT_EQ(keys.size(), minted.size());
  for (const auto& [key_id, key] : keys) EXPECT_EQ(Str(key, "status"), "revoked") << key_id;
  for (const auto& secret : minted) ExpectProblem(WhoAmI(secret), 401, "invalid_token");
}

// --- separation, access, isolation ---

TEST_F(Apps, TenantKeysAndAppKeysStayApart) {
  auto t = CreateTenant(api(), "apart");
  const std::string id = RegisterId(t, "Bot");
  const std::string other_id = RegisterId(t, "Other");
  const AppsKey app_key = Mint(t, id);
  auto tenant_key = api().Post("/apikeys", {{"name", "tenant"}, {"scopes", {"trust:read"}}}, t.token("admin"));
  ASSERT_EQ(tenant_key.status, 201);
  const std::string tenant_key_id = Str(tenant_key.Json(), "id");

  // /apikeys neither lists nor revokes app keys.
  for (const char* path : {"/apikeys", "/api/apikeys"}) {
    auto list = api().Get(path, t.token("admin"));
    ASSERT_EQ(list.status, 200);
    ASSERT_EQ(list.Json().as_array().size(), 1u) << list.body;
    EXPECT_EQ(Str(list.Json().as_array()[0], "id"), tenant_key_id);
  }
  ExpectProblem(api().Delete("/apikeys/" + app_key.id, t.token("admin")), 404, "not_found");
  EXPECT_EQ(WhoAmI(app_key.secret).status, 200);

  // App-key routes do not reach tenant keys, nor another app's keys.
  for (const char* action : {"disable", "enable", "regenerate"}) {
    ExpectProblem(KeyAction(t, id, tenant_key_id, action), 404, "not_found");
    ExpectProblem(KeyAction(t, other_id, app_key.id, action), 404, "not_found");
  }
  EXPECT_TRUE(KeysById(t, other_id).empty());
  EXPECT_EQ(WhoAmI(Str(tenant_key.Json(), "clientSecret")).status, 200);
  EXPECT_EQ(WhoAmI(app_key.secret).status, 200);
}

// Every route of the registry, with the ids of `app` and `key`.
std::vector<std::pair<std::string, std::string>> Routes(const std::string& app, const std::string& key) {
  const std::string a = "/trust-admin/apps/" + app;
  return {{"GET", "/trust-admin/apps"},
          {"POST", "/trust-admin/apps"},
          {"GET", a},
          {"PATCH", a},
          {"POST", a + "/archive"},
          {"POST", a + "/keys"},
          {"GET", a + "/keys"},
          {"POST", a + "/keys/" + key + "/disable"},
          {"POST", a + "/keys/" + key + "/enable"},
          {"POST", a + "/keys/" + key + "/regenerate"},
          {"GET", a + "/stats"}};
}

TEST_F(Apps, OnlyTenantAdminsOnASignedInSessionMayCall) {
  auto t = CreateTenant(api(), "access");
  const std::string id = RegisterId(t, "Bot");
  const AppsKey key = Mint(t, id);
  auto tenant_key = api().Post("/apikeys", {{"name", "tenant"}, {"scopes", {"trust:read"}}}, t.token("admin"));
  ASSERT_EQ(tenant_key.status, 201);
  const std::string machine_token = TokenFor(key);
  const std::string body = R"({"name":"x","channel":"ci","risk":"low","expiresAt":"2099-01-01T00:00:00Z"})";

  for (const auto& [method, path] : Routes(id, key.id)) {
    SCOPED_TRACE(method + " " + path);
    ExpectProblem(api().Send(method, path, body, "", {{"Content-Type", "application/json"}}), 401,
                  "missing_credentials");
    ExpectProblem(api().Send(method, path, body, "not-a-token", {{"Content-Type", "application/json"}}), 401,
                  "invalid_token");
    for (const char* persona : {"editor", "viewer", "guest"})
      ExpectProblem(api().Send(method, path, body, t.token(persona), {{"Content-Type", "application/json"}}), 403,
                    "forbidden");
    for (const std::string& machine : {key.secret, machine_token, Str(tenant_key.Json(), "clientSecret")})
      ExpectProblem(api().Send(method, path, body, machine, {{"Content-Type", "application/json"}}), 403,
                    "machine_credentials_not_allowed");
    ExpectProblem(api().Send(method, path, body, "", {{"Content-Type", "application/json"}, {"X-Api-Key", key.secret}}),
                  403, "machine_credentials_not_allowed");
  }
  // None of it changed anything.
  const auto keys = KeysById(t, id);
  EXPECT_EQ(Events(keys.at(key.id)), std::vector<std::string>{"created"});
  EXPECT_EQ(api().Get("/trust-admin/apps", t.token("admin")).Json().at("items").as_array().size(), 1u);
}

TEST_F(Apps, AnotherTenantsAppsAndKeysAreNotFound) {
  auto t = CreateTenant(api(), "iso");
  auto other = CreateTenant(api(), "iso-other");
  const std::string id = RegisterId(t, "Bot");
  const AppsKey key = Mint(t, id);
  const std::string other_app = RegisterId(other, "Their bot");
  const std::string body = R"({"name":"x","risk":"low","expiresAt":"2099-01-01T00:00:00Z"})";

  for (const auto& [method, path] : Routes(id, key.id)) {
    if (path == "/trust-admin/apps") continue;
    SCOPED_TRACE(method + " " + path);
    ExpectProblem(api().Send(method, path, body, other.token("admin"), {{"Content-Type", "application/json"}}), 404,
                  "not_found");
  }
  // Their own app with our key id.
  for (const char* action : {"disable", "enable", "regenerate"})
    ExpectProblem(KeyAction(other, other_app, key.id, action), 404, "not_found");
  // Their list shows theirs only.
  const auto theirs = api().Get("/trust-admin/apps?includeArchived=true", other.token("admin")).Json();
  ASSERT_EQ(theirs.at("items").as_array().size(), 1u);
  EXPECT_EQ(Str(theirs.at("items").as_array()[0], "id"), other_app);
  // Our key is untouched and works; its decisions are not theirs to read.
  EXPECT_EQ(Events(KeysById(t, id).at(key.id)), std::vector<std::string>{"created"});
  const std::string decision = DecisionOf(key.secret, {"wiki:page"});
  ExpectProblem(api().Get("/api/trust/decisions/" + decision, other.token("admin")), 404, "not_found");
  EXPECT_EQ(Str(api().Get("/trust-admin/apps/" + id, t.token("admin")).Json(), "status"), "active");
}

TEST_F(Apps, MalformedIdsAreRefused) {
  auto t = CreateTenant(api(), "ids");
  const std::string id = RegisterId(t, "Bot");
  for (const auto& [method, path] : Routes("not-a-uuid", kUnknownId)) {
    if (path == "/trust-admin/apps") continue;
    SCOPED_TRACE(method + " " + path);
    ExpectProblem(api().Send(method, path, "{}", t.token("admin"), {{"Content-Type", "application/json"}}), 400,
                  "invalid_path_parameter");
  }
  for (const char* action : {"disable", "enable", "regenerate"})
    ExpectProblem(KeyAction(t, id, "12345", action), 400, "invalid_path_parameter");
  ExpectProblem(api().Get("/trust-admin/apps/" + std::string(kUnknownId), t.token("admin")), 404, "not_found");
  ExpectProblem(api().Get("/trust-admin/apps/" + std::string(kUnknownId) + "/keys", t.token("admin")), 404,
                "not_found");
  ExpectProblem(
      api().Post("/trust-admin/apps/" + std::string(kUnknownId) + "/archive", json::object{}, t.token("admin")), 404,
      "not_found");
}

}  // namespace
}  // namespace credence::test
