// Plugins over real HTTP (docs/plugins.md): manifests, tenant installation
// (dependencies, enable, disable, uninstall), settings validated against
// the plugin's schema, audit, enabledPlugins at provisioning, the guard
// pipeline on publish, delete and hub delete (422 guard_denied, the entry
// unchanged), the throw and timeout rule (allow, counted in /metrics, shown
// in /plugins health), isolation between tenants. Runs on SQLite and on
// PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <string>

#include "core/clock.h"
#include "core/ids.h"
#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class Plugins : public ApiTest {
 protected:
  void Install(const TestTenant& t, const std::string& id) {
    auto r = api().Post("/api/tenant/plugins/" + id + "/install", json::object{}, t.token("admin"));
    ASSERT_EQ(r.status, 201) << r.body;
  }
  void Configure(const TestTenant& t, const std::string& id, const json::object& settings) {
    auto r = api().Put("/api/tenant/plugins/" + id + "/settings", settings, t.token("admin"));
    ASSERT_EQ(r.status, 200) << r.body;
  }
  // An entry of the editor's in a new hub `hub`; its id.
  std::string DraftEntry(const TestTenant& t, const std::string& hub, const std::vector<std::string>& texts) {
    MakeHub(api(), t.token("admin"), hub, "Editor");
    return Str(MakeEntry(api(), t.token("editor"), hub, "e1", texts), "id");
  }
  std::string StatusOf(const TestTenant& t, const std::string& id) {
    auto r = api().Get("/api/entries/" + id, t.token("editor"));
    EXPECT_EQ(r.status, 200) << r.body;
    return Str(r.Json(), "status");
  }
  json::object LatestAudit(const TestTenant& t, const std::string& action) {
    auto r = api().Get("/api/admin/audit?action=" + action + "&limit=1", t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    const json::value body = r.Json();
    const auto& entries = body.at("entries").as_array();
    if (entries.empty()) {
      ADD_FAILURE() << "no audit entry " << action;
      return {};
    }
    return entries.front().as_object();
  }
};

TEST_F(Plugins, ManifestsAreListedEverywhere) {
  auto t = CreateTenant(api(), "plg");
  auto known = api().Get("/api/tenant/known-plugins");
  ASSERT_EQ(known.status, 200) << known.body;
  bool found = false;
  const json::value manifests = known.Json();
  for (const auto& m : manifests.as_array()) {
    if (Str(m, "id") != "content-rules") continue;
    found = true;
    EXPECT_EQ(Str(m, "version"), "1.0.0");
    EXPECT_TRUE(m.at("hasSettings").as_bool());
    EXPECT_EQ(Str(m.at("uiContributions"), "entry.sidebar.status"), "ContentRulesStatus");
    EXPECT_EQ(Str(m.at("uiContributions"), "tenant.admin.settings"), "ContentRulesSettings");
    EXPECT_EQ(Str(m.at("guards").as_array().at(0), "action"), "Entry.Publish");
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(api().Get("/api/plugins", t.token("viewer")).status, 200);
  ExpectProblem(api().Get("/api/plugins"), 401, "missing_credentials");
  for (const char* path : {"/tenant/plugins/available", "/api/tenant/plugins/available"}) {
    auto r = api().Get(path, t.token("viewer"));
    ASSERT_EQ(r.status, 200) << r.body;
    const json::value available = r.Json();
    for (const auto& m : available.as_array()) EXPECT_FALSE(m.at("installed").as_bool());
  }
  auto ui = api().Get("/api/plugins/content-rules/ui-contributions", t.token("viewer"));
  ASSERT_EQ(ui.status, 200) << ui.body;
  ASSERT_EQ(ui.Json().as_array().size(), 3u);
  EXPECT_EQ(Str(ui.Json().as_array()[0], "slot"), "entry.sidebar.status");
  EXPECT_EQ(Str(ui.Json().as_array()[0], "componentName"), "ContentRulesStatus");
  EXPECT_EQ(Str(ui.Json().as_array()[0], "pluginId"), "content-rules");
  ExpectProblem(api().Get("/api/plugins/no-such/ui-contributions", t.token("viewer")), 404, "not_found");
}

// Issue 26: plugin names and descriptions, and problem titles, follow the
// interface language: the preferred language, else Accept-Language; English
// by default. type and code stay as they are.
TEST_F(Plugins, NamesDescriptionsAndProblemTitlesFollowTheInterfaceLanguage) {
  auto t = CreateTenant(api(), "plg-lang");
  const std::string viewer = t.token("viewer");
  auto content_rules = [&](const std::string& path, const std::string& token, const Headers& headers) {
    auto r = api().Send("GET", path, "", token, headers);
    EXPECT_EQ(r.status, 200) << r.body;
    json::object found;
    const json::value list = r.Json();
    for (const auto& m : list.as_array())
      if (Str(m, "id") == "content-rules") found = m.as_object();
    return std::make_pair(found, r.Header("content-language"));
  };
  for (const char* path : {"/api/plugins", "/api/tenant/known-plugins", "/api/tenant/plugins/available"}) {
    auto [en, en_language] = content_rules(path, viewer, {});
    EXPECT_EQ(Str(en, "name"), "Content rules") << path;
    EXPECT_EQ(en_language, "en") << path;
    auto [es, es_language] = content_rules(path, viewer, {{"Accept-Language", "es-ES,es;q=0.9,en;q=0.8"}});
    EXPECT_EQ(Str(es, "name"), "Reglas de contenido") << path;
    EXPECT_EQ(Str(es, "description").rfind("Comprueba una entrada", 0), 0u) << path;
    EXPECT_EQ(Str(es, "id"), "content-rules");
    EXPECT_EQ(Str(es, "category"), "quality");  // codes stay
    EXPECT_EQ(es_language, "es") << path;
    EXPECT_EQ(Str(content_rules(path, viewer, {{"Accept-Language", "de, es;q=0.5"}}).first, "name"),
              "Content rules");
  }

  // Problem titles: the dispatcher's own (no credential, no route), the
  // schema layer's (with its fixed detail) and a handler's.
  auto problem = [&](const std::string& method, const std::string& path, const std::string& body,
                     const std::string& token, const Headers& headers) {
    auto r = api().Send(method, path, body, token, headers);
    EXPECT_EQ(r.Header("content-language"), "es") << path;
    return r;
  };
  const Headers es = {{"Accept-Language", "es"}, {"Content-Type", "application/json"}};
  auto unauthenticated = problem("GET", "/api/plugins", "", "", es);
  ExpectProblem(unauthenticated, 401, "missing_credentials");
  EXPECT_EQ(Str(unauthenticated.Json(), "title"), "No autenticado");
  EXPECT_EQ(Str(unauthenticated.Json(), "type"), "urn:credence:problem:missing_credentials");
  EXPECT_EQ(Str(unauthenticated.Json(), "detail"), "Este punto de acceso necesita un token de portador (Bearer).");
  auto no_route = problem("GET", "/api/no-such-route", "", viewer, es);
  ExpectProblem(no_route, 404, "route_not_found");
  EXPECT_EQ(Str(no_route.Json(), "title"), "No encontrado");
  EXPECT_EQ(Str(no_route.Json(), "detail"), "No route matches /api/no-such-route.");  // composed: as written
  auto invalid = problem("PUT", "/api/tenant/plugins/content-rules/settings", "7", t.token("admin"), es);
  ExpectProblem(invalid, 400, "validation_failed");
  EXPECT_EQ(Str(invalid.Json(), "title"), "Solicitud incorrecta");
  EXPECT_EQ(Str(invalid.Json(), "detail"), "El cuerpo de la solicitud no superó la validación.");
  auto forbidden = problem("POST", "/api/tenant/plugins/content-rules/install", "{}", viewer, es);
  ExpectProblem(forbidden, 403, "forbidden");
  EXPECT_EQ(Str(forbidden.Json(), "title"), "Prohibido");
  auto english = api().Get("/api/plugins/no-such/ui-contributions", viewer);
  ExpectProblem(english, 404, "not_found");
  EXPECT_EQ(Str(english.Json(), "title"), "Not Found");
  EXPECT_EQ(english.Header("content-language"), "en");

  // The stored preference wins over the browser's header, for manifests and problems.
  ASSERT_EQ(api().Send("PUT", "/api/users/me/preferred-language", R"({"languageCode":"es"})", viewer,
                       {{"Content-Type", "application/json"}})
                .status,
            200);
  const Headers en = {{"Accept-Language", "en"}};
  EXPECT_EQ(Str(content_rules("/api/plugins", viewer, en).first, "name"), "Reglas de contenido");
  auto not_found = api().Send("GET", "/api/plugins/no-such/ui-contributions", "", viewer, en);
  ExpectProblem(not_found, 404, "not_found");
  EXPECT_EQ(Str(not_found.Json(), "title"), "No encontrado");
  EXPECT_EQ(not_found.Header("content-language"), "es");
  // Installed and enabled plugins (/plugins) are named in the admin's language.
  Install(t, "safe-delete");
  ASSERT_EQ(api().Send("PUT", "/api/users/me/preferred-language", R"({"languageCode":"es"})", t.token("admin"),
                       {{"Content-Type", "application/json"}})
                .status,
            200);
  auto installed = api().Send("GET", "/plugins", "", t.token("admin"), en);
  ASSERT_EQ(installed.status, 200) << installed.body;
  EXPECT_EQ(installed.Header("content-language"), "es");
  bool named = false;
  const json::value active = installed.Json();
  for (const auto& m : active.as_array()) named |= Str(m, "name") == "Borrado seguro";
  EXPECT_TRUE(named) << installed.body;
}

TEST_F(Plugins, InstallEnableDisableUninstallAudited) {
  auto t = CreateTenant(api(), "plg");
  ExpectProblem(api().Post("/api/tenant/plugins/content-rules/install", json::object{}, t.token("editor")), 403,
                "forbidden");
  ExpectProblem(api().Post("/api/tenant/plugins/no-such/install", json::object{}, t.token("admin")), 404, "not_found");
  auto r = api().Post("/tenant/plugins/content-rules/install", json::object{}, t.token("admin"));
  ASSERT_EQ(r.status, 201) << r.body;
  EXPECT_TRUE(r.Json().at("isEnabled").as_bool());
  EXPECT_EQ(Str(r.Json(), "settingsJson"), "{}");
  EXPECT_EQ(Str(LatestAudit(t, "plugin.installed").at("target"), "id"), "content-rules");
  ExpectProblem(api().Post("/api/tenant/plugins/content-rules/install", json::object{}, t.token("admin")), 409,
                "plugin_already_installed");

  auto active = api().Get("/plugins", t.token("viewer"));
  ASSERT_EQ(active.status, 200) << active.body;
  ASSERT_EQ(active.Json().as_array().size(), 1u);
  EXPECT_EQ(Str(active.Json().as_array()[0].at("health"), "status"), "ok");

  r = api().Post("/api/tenant/plugins/content-rules/disable", json::object{}, t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(r.Json().at("isEnabled").as_bool());
  EXPECT_TRUE(api().Get("/plugins", t.token("viewer")).Json().as_array().empty());
  auto listed = api().Get("/api/tenant/plugins", t.token("viewer"));
  ASSERT_EQ(listed.Json().as_array().size(), 1u);
  LatestAudit(t, "plugin.disabled");
  ExpectProblem(api().Get("/api/plugins/rules/tenant/global", t.token("viewer")), 404, "plugin_not_enabled");
  r = api().Post("/tenant/plugins/content-rules/enable", json::object{}, t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  LatestAudit(t, "plugin.enabled");

  ASSERT_EQ(api().Delete("/api/tenant/plugins/content-rules", t.token("admin")).status, 204);
  LatestAudit(t, "plugin.uninstalled");
  EXPECT_TRUE(api().Get("/tenant/plugins", t.token("viewer")).Json().as_array().empty());
  ExpectProblem(api().Delete("/api/tenant/plugins/content-rules", t.token("admin")), 404, "not_found");
  ExpectProblem(api().Post("/api/tenant/plugins/content-rules/enable", json::object{}, t.token("admin")), 404,
                "not_found");
}

TEST_F(Plugins, SettingsAreValidatedAgainstTheSchema) {
  auto t = CreateTenant(api(), "plg");
  ExpectProblem(api().Put("/api/tenant/plugins/content-rules/settings", json::object{}, t.token("admin")), 404,
                "not_found");
  Install(t, "content-rules");
  auto bad = api().Put("/api/tenant/plugins/content-rules/settings",
                       json::object{{"maxTitleLength", "long"}, {"forbiddenTerms", json::array{"", "ok"}}, {"x", 1}},
                       t.token("admin"));
  ExpectProblem(bad, 400, "validation_failed");
  EXPECT_EQ(ErrorFields(bad), (std::set<std::string>{"maxTitleLength", "forbiddenTerms[0]", "x"}));
  ExpectProblem(api().Put("/api/tenant/plugins/content-rules/settings", json::array{}, t.token("admin")), 400,
                "validation_failed");
  ExpectProblem(api().Put("/api/tenant/plugins/content-rules/settings", json::object{}, t.token("editor")), 403,
                "forbidden");
  auto ok =
      api().Put("/api/tenant/plugins/content-rules/settings", json::object{{"maxTitleLength", 80}}, t.token("admin"));
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.Json().at("settings").at("maxTitleLength").as_int64(), 80);
  EXPECT_EQ(LatestAudit(t, "plugin.settings_updated").at("details").at("fields"), (json::array{"maxTitleLength"}));

  // The tenant's global rules are content-rules' settings.
  auto rules = api().Get("/api/plugins/rules/tenant/global", t.token("viewer"));
  ASSERT_EQ(rules.status, 200) << rules.body;
  EXPECT_EQ(Str(rules.Json(), "rulesJson"), R"({"maxTitleLength":80})");
  ExpectProblem(api().Put("/api/plugins/rules/tenant/global", json::object{}, t.token("editor")), 403, "forbidden");
  ExpectValidation(api().Put("/api/plugins/rules/tenant/global", json::object{{"maxTextLength", -5}}, t.token("admin")),
                   "maxTextLength");
  auto put = api().Put("/api/plugins/rules/tenant/global", json::object{{"forbiddenTerms", json::array{"foo"}}},
                       t.token("admin"));
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(Str(put.Json(), "rulesJson"), R"({"forbiddenTerms":["foo"]})");

  // The shape GET answers, and the hub rules take: {isEnabled?, rulesJson}.
  // GET's answer, edited, goes back as it is.
  const std::string global = "/api/plugins/rules/tenant/global";
  json::object got = api().Get(global, t.token("viewer")).Json().as_object();
  got["rulesJson"] = R"({"forbiddenTerms":["foo","bar"],"maxTitleLength":90})";
  got["rules"] = json::parse(got.at("rulesJson").as_string());
  auto round_trip = api().Put(global, got, t.token("admin"));
  ASSERT_EQ(round_trip.status, 200) << round_trip.body;
  EXPECT_EQ(round_trip.Json().at("rules"), json::parse(R"({"forbiddenTerms":["foo","bar"],"maxTitleLength":90})"));
  auto hub_shape =
      api().Put(global, {{"isEnabled", true}, {"rulesJson", R"({"maxTextLength":500})"}}, t.token("admin"));
  ASSERT_EQ(hub_shape.status, 200) << hub_shape.body;
  EXPECT_EQ(Str(hub_shape.Json(), "rulesJson"), R"({"maxTextLength":500})");
  EXPECT_EQ(Str(api().Get(global, t.token("viewer")).Json(), "rulesJson"), R"({"maxTextLength":500})");
  auto without_flag = api().Put(global, {{"rulesJson", R"({"maxTitleLength":70})"}}, t.token("admin"));
  ASSERT_EQ(without_flag.status, 200) << without_flag.body;
  EXPECT_EQ(without_flag.Json().at("rules"), json::parse(R"({"maxTitleLength":70})"));
  // Refused, naming what is wrong; the stored rules stay.
  ExpectValidation(api().Put(global, {{"rulesJson", R"({"maxTextLength":-5})"}}, t.token("admin")),
                   "rulesJson.maxTextLength");
  ExpectValidation(api().Put(global, {{"isEnabled", true}, {"rulesJson", R"({"maxTitleLenght":5})"}}, t.token("admin")),
                   "rulesJson.maxTitleLenght");
  ExpectValidation(api().Put(global, {{"rulesJson", "[1]"}}, t.token("admin")), "rulesJson");
  ExpectValidation(api().Put(global, {{"rulesJson", "{not json"}}, t.token("admin")), "rulesJson");
  ExpectValidation(api().Put(global, {{"isEnabled", true}}, t.token("admin")), "rulesJson");
  ExpectValidation(api().Put(global, {{"isEnabled", false}, {"rulesJson", "{}"}}, t.token("admin")), "isEnabled");
  ExpectValidation(api().Put(global, {{"rulesJson", "{}"}, {"rules", {{"maxTitleLength", 5}}}}, t.token("admin")),
                   "rules");
  ExpectValidation(api().Put(global, {{"rulesJson", 5}}, t.token("admin")), "rulesJson");
  EXPECT_EQ(Str(api().Get(global, t.token("viewer")).Json(), "rulesJson"), R"({"maxTitleLength":70})");
}

TEST_F(Plugins, EnabledPluginsAtProvisioningAreInstalled) {
  const std::string slug = "plg-prov-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  ExpectValidation(api().Post("/api/tenant/create",
                              {{"name", "P"}, {"slug", slug}, {"enabledPlugins", json::array{"no-such-plugin"}}}),
                   "enabledPlugins[0]");
  auto created = api().Post("/api/tenant/create",
                            {{"name", "P"}, {"slug", slug}, {"enabledPlugins", json::array{"content-rules"}}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string tenant_id = Str(created.Json(), "id");
  auto login = api().Post("/auth/dev-login", {{"persona", "viewer"}, {"tenantId", tenant_id}});
  ASSERT_EQ(login.status, 200) << login.body;
  auto listed = api().Get("/api/tenant/plugins", Str(login.Json(), "token"));
  ASSERT_EQ(listed.status, 200) << listed.body;
  ASSERT_EQ(listed.Json().as_array().size(), 1u);
  EXPECT_EQ(Str(listed.Json().as_array()[0], "pluginId"), "content-rules");
}

TEST_F(Plugins, ContentRulesDenyPublishAndTheEntryStaysUnchanged) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Use the internal VPN."});
  Install(t, "content-rules");
  Configure(t, "content-rules", {{"forbiddenTerms", json::array{"vpn"}}});

  auto denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "forbidden_term");
  EXPECT_EQ(Str(denied.Json(), "pluginId"), "content-rules");
  EXPECT_FALSE(Str(denied.Json(), "message").empty());
  EXPECT_EQ(denied.Json().at("metadata").at("terms"), (json::array{"vpn"}));
  EXPECT_EQ(StatusOf(t, id), "Draft");
  EXPECT_TRUE(api().Get("/api/entries/" + id, t.token("editor")).Json().at("publishedAt").is_null());

  // A save that publishes is guarded the same way.
  auto entry = api().Get("/api/entries/" + id, t.token("editor")).Json();
  auto save = api().Put("/api/entries/" + id,
                        {{"title", Str(entry, "title")}, {"content", Str(entry, "content")}, {"status", "Published"}},
                        t.token("editor"));
  ExpectProblem(save, 422, "guard_denied");
  EXPECT_EQ(StatusOf(t, id), "Draft");

  // Disabled, the plugin no longer acts; enabled again with other rules, it allows.
  ASSERT_EQ(api().Post("/api/tenant/plugins/content-rules/disable", json::object{}, t.token("admin")).status, 200);
  auto published = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ASSERT_EQ(published.status, 200) << published.body;
  EXPECT_EQ(Str(published.Json(), "status"), "Published");
}

TEST_F(Plugins, HubRulesTightenTheTenantsRules) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Mentions the wiki."});
  ExpectProblem(api().Get("/api/hubs/docs/rules", t.token("viewer")), 404, "plugin_not_enabled");
  Install(t, "content-rules");
  auto empty = api().Get("/api/hubs/docs/rules", t.token("viewer"));
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_FALSE(empty.Json().at("isEnabled").as_bool());
  EXPECT_EQ(Str(empty.Json(), "rulesJson"), "{}");
  EXPECT_TRUE(empty.Json().at("updatedAt").is_null());
  ExpectProblem(api().Get("/api/hubs/nope/rules", t.token("viewer")), 404, "not_found");
  ExpectProblem(api().Put("/api/hubs/docs/rules", {{"isEnabled", true}, {"rulesJson", "{}"}}, t.token("viewer")), 403,
                "forbidden");
  ExpectValidation(api().Put("/api/hubs/docs/rules", {{"isEnabled", true}}, t.token("admin")), "rulesJson");
  ExpectValidation(api().Put("/api/hubs/docs/rules", {{"isEnabled", true}, {"rulesJson", "[1]"}}, t.token("admin")),
                   "rulesJson");
  ExpectValidation(api().Put("/api/hubs/docs/rules", {{"isEnabled", true}, {"rulesJson", R"({"maxTitleLength":"x"})"}},
                             t.token("admin")),
                   "rulesJson.maxTitleLength");

  Configure(t, "content-rules", {{"forbiddenTerms", json::array{"intranet"}}});
  EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
  // The hub adds a forbidden term; disabled, it does not count.
  auto put = api().Put("/api/hubs/docs/rules", {{"isEnabled", false}, {"rulesJson", R"({"forbiddenTerms":["wiki"]})"}},
                       t.token("admin"));
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
  put = api().Put("/api/hubs/docs/rules", {{"isEnabled", true}, {"rulesJson", R"({"forbiddenTerms":["wiki"]})"}},
                  t.token("admin"));
  ASSERT_EQ(put.status, 200) << put.body;
  auto denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(denied.Json().at("metadata").at("terms"), (json::array{"wiki"}));
  auto got = api().Get("/api/hubs/docs/rules", t.token("viewer"));
  EXPECT_TRUE(got.Json().at("isEnabled").as_bool());
  EXPECT_EQ(Str(got.Json(), "rulesJson"), R"({"forbiddenTerms":["wiki"]})");
}

TEST_F(Plugins, RequiredTranslationsAndSecretFindings) {
  auto t = CreateTenant(api(), "plg");
  MakeHub(api(), t.token("admin"), "docs", "Editor");
  auto e = MakeEntry(api(), t.token("editor"), "docs", "e1", {"Body"});
  const std::string id = Str(e, "id");
  Install(t, "content-rules");
  Configure(t, "content-rules", {{"requiredTranslations", json::array{"es"}}});
  auto denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "translation_not_up_to_date");
  EXPECT_EQ(Str(denied.Json().at("metadata").at("translations").as_array().at(0), "status"), "Missing");
  ASSERT_EQ(api()
                .Post("/api/entries/" + id + "/translations/es",
                      {{"title", "T"}, {"content", Doc({"Cuerpo"}, BlockIds(Str(e, "content")))}}, t.token("editor"))
                .status,
            201);
  ASSERT_EQ(
      api().Put("/api/entries/" + id + "/translations/es/mark-uptodate", json::object{}, t.token("editor")).status,
      200);
  EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);

  // An entry holding a live-looking GitHub token: its active secret finding blocks publishing.
  const std::string random = Base62Fixed(Crc32("plg1"), 6) + Base62Fixed(Crc32("plg2"), 6) +
                             Base62Fixed(Crc32("plg3"), 6) + Base62Fixed(Crc32("plg4"), 6) +
                             Base62Fixed(Crc32("plg5"), 6);
  const std::string token = "ghp_" + random + Base62Fixed(Crc32(random), 6);
  const std::string leaky =
      Str(MakeEntry(api(), t.token("editor"), "docs", "e2", {"Deploy with token: " + token}), "id");
  Configure(t, "content-rules", {{"noSecretFindings", true}});
  denied = api().Post("/api/entries/" + leaky + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "secret_findings");
  EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
}

TEST_F(Plugins, StyleRulesOfSeverityErrorBlockPublishing) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Please log in and utilize the portal."});
  ASSERT_EQ(api()
                .Post("/admin/style-rules",
                      {{"name", "Sign in"},
                       {"language", "en"},
                       {"type", "Prefer"},
                       {"term", "sign in"},
                       {"alternatives", json::array{"log in"}},
                       {"severity", "Error"}},
                      t.token("admin"))
                .status,
            201);
  ASSERT_EQ(api()
                .Post("/admin/style-rules",
                      {{"name", "No utilize"},
                       {"language", "en"},
                       {"type", "Avoid"},
                       {"term", "utilize"},
                       {"severity", "Warning"}},
                      t.token("admin"))
                .status,
            201);
  Install(t, "content-rules");
  EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
  Configure(t, "content-rules", {{"enforceStyleRules", true}});
  auto denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "style_rule_violation");
  const json::value metadata = denied.Json().at("metadata");
  EXPECT_EQ(metadata.at("matchCount").as_int64(), 1);  // the Warning rule does not block
  EXPECT_EQ(Str(metadata.at("matches").as_array().at(0), "ruleName"), "Sign in");
  EXPECT_EQ(Str(metadata.at("matches").as_array().at(0), "matchedText"), "log in");
}

TEST_F(Plugins, RequiredHeadingsAndLengths) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Body text"});
  Install(t, "content-rules");
  Configure(t, "content-rules", {{"requiredHeadings", json::array{"Summary"}}});
  auto denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "required_heading_missing");
  Configure(t, "content-rules", {{"maxTitleLength", 1}});
  denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "title_too_long");
  Configure(t, "content-rules", {{"maxTitleLength", 200}, {"maxTextLength", 1000}});
  EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
}

TEST_F(Plugins, GuardsOnDeleteAndHubDelete) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Body"});
  Install(t, "dev-faults");
  Configure(t, "dev-faults", {{"mode", "deny"}});
  auto denied = api().Delete("/api/entries/" + id, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "dev_fault_deny");
  EXPECT_EQ(api().Get("/api/entries/" + id, t.token("editor")).status, 200);
  ExpectProblem(api().Delete("/api/hubs/docs", t.token("admin")), 422, "guard_denied");
  EXPECT_EQ(api().Get("/api/hubs/docs", t.token("admin")).status, 200);
  Configure(t, "dev-faults", {{"mode", "allow"}});
  EXPECT_EQ(api().Delete("/api/entries/" + id, t.token("editor")).status, 204);
  EXPECT_EQ(api().Delete("/api/hubs/docs", t.token("admin")).status, 204);
}

TEST_F(Plugins, GuardsOnRenewAndMarkUpToDate) {
  auto t = CreateTenant(api(), "plg");
  MakeHub(api(), t.token("admin"), "docs", "Editor");
  auto e = MakeEntry(api(), t.token("editor"), "docs", "e1", {"Body"});
  const std::string id = Str(e, "id");
  ASSERT_EQ(api()
                .Post("/api/entries/" + id + "/translations/es",
                      {{"title", "T"}, {"content", Doc({"x"}, BlockIds(Str(e, "content")))}}, t.token("editor"))
                .status,
            201);
  Install(t, "dev-faults");
  Configure(t, "dev-faults", {{"mode", "deny"}});
  const std::string mark = "/api/entries/" + id + "/translations/es/mark-uptodate";
  const std::string renew = "/api/entries/" + id + "/renew";
  auto denied = api().Put(mark, json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_NE(Str(denied.Json(), "message").find("Translation.MarkUpToDate"), std::string::npos);
  denied = api().Post(renew, json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_NE(Str(denied.Json(), "message").find("Entry.Renew"), std::string::npos);
  auto bulk = api().Post("/api/notifications/bulk-renew", {{"entryIds", json::array{id}}}, t.token("editor"));
  ASSERT_EQ(bulk.status, 200) << bulk.body;
  EXPECT_EQ(Str(bulk.Json().at("results").as_array().at(0).at("error"), "code"), "guard_denied");
  Configure(t, "dev-faults", {{"mode", "allow"}});
  EXPECT_EQ(api().Put(mark, json::object{}, t.token("editor")).status, 200);
  EXPECT_EQ(api().Post(renew, json::object{}, t.token("editor")).status, 200);
}

TEST_F(Plugins, SafeDeleteNeedsAConfirmationForEntriesAIUsed) {
  auto t = CreateTenant(api(), "plg");
  MakeHub(api(), t.token("admin"), "docs", "Editor");
  const std::string used = Str(MakeEntry(api(), t.token("editor"), "docs", "used", {"Body"}), "id");
  const std::string unused = Str(MakeEntry(api(), t.token("editor"), "docs", "unused", {"Body"}), "id");
  Install(t, "safe-delete");
  Configure(t, "safe-delete", {{"days", 7}});
  auto usage = api().Post("/api/trust/usage", {{"sources", json::array{"entry:" + used}}, {"outcome", "answer_sent"}},
                          t.token("viewer"));
  ASSERT_EQ(usage.status, 202) << usage.body;

  auto denied = api().Delete("/api/entries/" + used, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "entry_used_by_ai");
  EXPECT_EQ(denied.Json().at("metadata").at("usageCount").as_int64(), 1);
  EXPECT_EQ(denied.Json().at("metadata").at("days").as_int64(), 7);
  ExpectProblem(api().Delete("/api/entries/" + used + "?confirm=true", t.token("editor")), 422, "guard_denied");
  ExpectValidation(api().Delete("/api/entries/" + used + "?confirm=maybe", t.token("editor")), "confirm");
  EXPECT_EQ(api().Get("/api/entries/" + used, t.token("editor")).status, 200);
  EXPECT_EQ(api().Delete("/api/entries/" + unused, t.token("editor")).status, 204);
  EXPECT_EQ(api().Delete("/api/entries/" + used + "?confirm=true&reason=retired", t.token("editor")).status, 204);
  EXPECT_EQ(api().Get("/api/entries/" + used, t.token("editor")).status, 404);

  // An entry a registered AI application evaluated (the ledger, through its
  // rollup) counts as used too, without any usage record.
  const std::string evaluated = Str(MakeEntry(api(), t.token("editor"), "docs", "evaluated", {"Body"}), "id");
  auto app = api().Post("/trust-admin/apps", {{"name", "Support bot"}, {"channel", "internal"}, {"risk", "high"}},
                        t.token("admin"));
  ASSERT_EQ(app.status, 201) << app.body;
  const std::string app_id = Str(app.Json(), "id");
  const auto expires = FormatTimestamp(*ParseTimestamp(ServerTime(api())) + 30 * kMsPerDay);
  auto key = api().Post("/trust-admin/apps/" + app_id + "/keys", {{"name", "prod"}, {"expiresAt", expires}},
                        t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  auto evaluation = api().Post("/api/trust/evaluate", {{"sources", json::array{"entry:" + evaluated}}},
                               Str(key.Json(), "clientSecret"));
  ASSERT_EQ(evaluation.status, 200) << evaluation.body;
  ASSERT_EQ(api().Post("/dev/jobs/run", json::object{}).status, 200);  // the reports' rollup folds the ledger
  auto by_app = api().Delete("/api/entries/" + evaluated, t.token("editor"));
  ExpectProblem(by_app, 422, "guard_denied");
  EXPECT_EQ(by_app.Json().at("metadata").at("usageCount").as_int64(), 0);
  EXPECT_EQ(by_app.Json().at("metadata").at("appEvaluations").as_int64(), 1);
  EXPECT_EQ(json::serialize(by_app.Json().at("metadata").at("appIds")), "[\"" + app_id + "\"]");
}

TEST_F(Plugins, AGuardThatThrowsOrOverrunsCountsAsAllowAndIsReported) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Body"});
  Install(t, "dev-faults");
  Configure(t, "dev-faults", {{"mode", "throw"}});
  auto published = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ASSERT_EQ(published.status, 200) << published.body;
  auto active = api().Get("/plugins", t.token("viewer"));
  ASSERT_EQ(active.status, 200);
  const json::value health = active.Json().as_array().at(0).at("health");
  EXPECT_EQ(Str(health, "status"), "degraded");
  EXPECT_EQ(health.at("guardFailures").as_int64(), 1);
  EXPECT_NE(Str(health, "lastError").find("throw"), std::string::npos);

  Configure(t, "dev-faults", {{"mode", "slow"}});
  ASSERT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
  auto after = api().Get("/plugins", t.token("viewer")).Json().as_array().at(0).at("health");
  EXPECT_EQ(after.at("guardFailures").as_int64(), 2);
  EXPECT_NE(Str(after, "lastError").find("timeout"), std::string::npos);

  auto metrics = api().Get("/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find(R"(credence_plugin_guard_evaluations_total{plugin="dev-faults",outcome="throw"})"),
            std::string::npos);
  EXPECT_NE(metrics.body.find(R"(credence_plugin_guard_evaluations_total{plugin="dev-faults",outcome="timeout"})"),
            std::string::npos);
}

TEST_F(Plugins, EventHandlersRunAfterCommitAndTheirFailureNeverUndoesTheAction) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Body"});
  Install(t, "dev-faults");
  Configure(t, "dev-faults", {{"mode", "throw"}});
  // The guard throws (allow), then the entry.published handler throws: the publish stands.
  auto published = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ASSERT_EQ(published.status, 200) << published.body;
  EXPECT_EQ(StatusOf(t, id), "Published");
  auto metrics = api().Get("/metrics");
  EXPECT_NE(metrics.body.find(
                R"(credence_plugin_event_handlers_total{plugin="dev-faults",event="entry.published",outcome="error"})"),
            std::string::npos);

  // approval-workflow's entry.deleted handler removes the entry's requests.
  ASSERT_EQ(api().Delete("/api/tenant/plugins/dev-faults", t.token("admin")).status, 204);
  Install(t, "approval-workflow");
  const std::string other = Str(MakeEntry(api(), t.token("editor"), "docs", "e2", {"Body"}), "id");
  ASSERT_EQ(api()
                .Post("/api/plugins/approval-workflow/entries/" + other + "/request", json::object{}, t.token("editor"))
                .status,
            201);
  ASSERT_EQ(api().Delete("/api/entries/" + other, t.token("editor")).status, 204);
  metrics = api().Get("/metrics");
  EXPECT_NE(
      metrics.body.find(
          R"(credence_plugin_event_handlers_total{plugin="approval-workflow",event="entry.deleted",outcome="ok"})"),
      std::string::npos);
}

TEST_F(Plugins, OneTenantsPluginsNeverActForAnother) {
  auto a = CreateTenant(api(), "plga");
  auto b = CreateTenant(api(), "plgb");
  Install(a, "dev-faults");
  Configure(a, "dev-faults", {{"mode", "deny"}});
  const std::string in_a = DraftEntry(a, "docs", {"Body"});
  const std::string in_b = DraftEntry(b, "docs", {"Body"});
  ExpectProblem(api().Post("/api/entries/" + in_a + "/publish", json::object{}, a.token("editor")), 422,
                "guard_denied");
  EXPECT_EQ(api().Post("/api/entries/" + in_b + "/publish", json::object{}, b.token("editor")).status, 200);
  EXPECT_TRUE(api().Get("/plugins", b.token("viewer")).Json().as_array().empty());
  ExpectProblem(api().Get("/api/plugins/rules/tenant/global", b.token("viewer")), 404, "plugin_not_enabled");
}

TEST_F(Plugins, ApprovalWorkflowGuardsPublish) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "docs", {"Body"});
  const std::string base = "/api/plugins/approval-workflow";
  ExpectProblem(api().Post(base + "/entries/" + id + "/request", json::object{}, t.token("editor")), 404,
                "plugin_not_enabled");
  Install(t, "approval-workflow");
  auto denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "approval_required");
  EXPECT_EQ(Str(denied.Json().at("metadata"), "approvalStatus"), "none");

  auto req = api().Post(base + "/entries/" + id + "/request", json::object{{"comment", "please"}}, t.token("editor"));
  ASSERT_EQ(req.status, 201) << req.body;
  const std::string approval = Str(req.Json(), "id");
  EXPECT_EQ(Str(req.Json(), "status"), "Pending");
  ExpectProblem(api().Post(base + "/entries/" + id + "/request", json::object{}, t.token("editor")), 409,
                "approval_pending");
  ExpectProblem(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")), 422, "guard_denied");
  // The author cannot approve their own entry; a rejection needs a comment.
  ExpectProblem(api().Post(base + "/approvals/" + approval + "/approve", json::object{}, t.token("editor")), 403,
                "approver_is_author");
  ExpectValidation(api().Post(base + "/approvals/" + approval + "/reject", json::object{}, t.token("admin")),
                   "comment");
  auto rejected =
      api().Post(base + "/approvals/" + approval + "/reject", json::object{{"comment", "add owner"}}, t.token("admin"));
  ASSERT_EQ(rejected.status, 200) << rejected.body;
  EXPECT_EQ(Str(rejected.Json(), "status"), "Rejected");
  EXPECT_EQ(Str(rejected.Json(), "decisionComment"), "add owner");
  denied = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json().at("metadata"), "approvalStatus"), "Rejected");
  ExpectProblem(api().Post(base + "/approvals/" + approval + "/approve", json::object{}, t.token("admin")), 409,
                "approval_decided");

  auto again = api().Post(base + "/entries/" + id + "/request", json::object{}, t.token("editor"));
  ASSERT_EQ(again.status, 201) << again.body;
  auto approved = api().Post(base + "/approvals/" + Str(again.Json(), "id") + "/approve",
                             json::object{{"comment", "ok"}}, t.token("admin"));
  ASSERT_EQ(approved.status, 200) << approved.body;
  auto list = api().Get(base + "/entries/" + id + "/approvals", t.token("viewer"));
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.Json().as_array().size(), 2u);
  EXPECT_EQ(Str(list.Json().as_array()[0], "status"), "Approved");
  auto published = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ASSERT_EQ(published.status, 200) << published.body;
  EXPECT_EQ(Str(LatestAudit(t, "plugin.approval_approved").at("target"), "id"), id);
}

TEST_F(Plugins, ApprovalWorkflowExemptHubs) {
  auto t = CreateTenant(api(), "plg");
  const std::string id = DraftEntry(t, "notes", {"Body"});
  Install(t, "approval-workflow");
  Configure(t, "approval-workflow", {{"exemptHubs", json::array{"notes"}}});
  EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
}

}  // namespace
}  // namespace credence::test
