// Tenant configuration over real HTTP (docs/configuration.md): languages,
// categories and tags (and entries' classification), block-type heuristics,
// style rules. Both path forms of every route (decisions.md 9), validation,
// 409s, who may do what (Owner changes, any member reads, machine keys are
// refused), isolation between tenants, audit entries. Runs on SQLite and on
// PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

std::vector<std::string> Field(const json::value& array, const char* key) {
  std::vector<std::string> out;
  for (const auto& v : array.as_array()) out.push_back(Str(v, key));
  return out;
}

class Config : public ApiTest {
 protected:
  // The newest audit entry with `action` in the tenant; fails when none.
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

  void ExpectAudit(const TestTenant& t, const std::string& action, const std::string& target_type,
                   const std::string& target_id) {
    SCOPED_TRACE(action);
    auto e = LatestAudit(t, action);
    if (e.empty()) return;
    EXPECT_EQ(Str(e.at("target"), "type"), target_type);
    EXPECT_EQ(Str(e.at("target"), "id"), target_id);
    EXPECT_EQ(Str(e.at("actor"), "id"), t.user_ids.at("admin"));
  }

  void ExpectAuditAction(const TestTenant& t, const std::string& action, const std::string& target_type,
                         const std::string& target_id, const std::string& persona) {
    SCOPED_TRACE(action);
    auto e = LatestAudit(t, action);
    if (e.empty()) return;
    EXPECT_EQ(Str(e.at("target"), "type"), target_type);
    EXPECT_EQ(Str(e.at("target"), "id"), target_id);
    EXPECT_EQ(Str(e.at("actor"), "id"), t.user_ids.at(persona));
  }

  // A tenant API key's secret (machine credential).
  std::string MachineKey(const TestTenant& t) {
    auto r = api().Post("/apikeys", {{"name", "machine"}, {"scopes", json::array{"trust:read"}}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "clientSecret");
  }
};

// ---------------------------------------------------------------- languages

TEST_F(Config, LanguagesStartFromTheTenantsEnabledLanguagesOnBothPaths) {
  auto t = CreateTenant(api(), "lang");
  for (const char* base : {"/admin/languages", "/api/admin/languages"}) {
    SCOPED_TRACE(base);
    auto r = api().Get(base, t.token("viewer"));
    ASSERT_EQ(r.status, 200) << r.body;
    auto list = r.Json();
    ASSERT_FALSE(list.as_array().empty());
    int defaults = 0;
    for (const auto& l : list.as_array()) {
      EXPECT_TRUE(l.at("isEnabled").as_bool());
      EXPECT_EQ(Str(l, "trigger"), "OnDemand");
      EXPECT_TRUE(l.at("provider").is_null());
      defaults += l.at("isDefault").as_bool() ? 1 : 0;
    }
    EXPECT_EQ(defaults, 1);
    auto d = api().Get(std::string(base) + "/default", t.token("guest"));
    ASSERT_EQ(d.status, 200) << d.body;
    EXPECT_TRUE(d.Json().at("isDefault").as_bool());
    auto e = api().Get(std::string(base) + "/enabled", t.token("editor"));
    ASSERT_EQ(e.status, 200) << e.body;
    EXPECT_EQ(e.Json().as_array().size(), list.as_array().size());
  }
}

TEST_F(Config, AddUpdateSetDefaultAndDeleteALanguage) {
  auto t = CreateTenant(api(), "lang");
  const auto admin = t.token("admin");
  const auto before = Field(api().Get("/api/admin/languages", admin).Json(), "code");
  ASSERT_TRUE(std::find(before.begin(), before.end(), "fr") == before.end()) << "tenant already has fr";

  auto added = api().Post("/admin/languages",
                          {{"code", "FR"},
                           {"displayName", "Français"},
                           {"trigger", "AlwaysTranslate"},
                           {"provider", "deepl"},
                           {"sortOrder", 50}},
                          admin);
  ASSERT_EQ(added.status, 201) << added.body;
  auto l = added.Json();
  EXPECT_EQ(Str(l, "code"), "fr");  // canonical spelling of the known list
  EXPECT_EQ(Str(l, "displayName"), "Français");
  EXPECT_EQ(Str(l, "trigger"), "AlwaysTranslate");
  EXPECT_EQ(Str(l, "provider"), "deepl");
  EXPECT_EQ(l.at("sortOrder").as_int64(), 50);
  EXPECT_TRUE(l.at("isEnabled").as_bool());
  EXPECT_FALSE(l.at("isDefault").as_bool());
  ExpectAudit(t, "language.added", "language", "fr");

  // The tenant's own record follows: one truth.
  auto me = api().Get("/api/admin/languages/enabled", admin);
  auto enabled = Field(me.Json(), "code");
  EXPECT_TRUE(std::find(enabled.begin(), enabled.end(), "fr") != enabled.end());

  ExpectProblem(api().Post("/api/admin/languages", {{"code", "fr"}, {"displayName", "again"}}, admin), 409,
                "language_exists");

  auto updated =
      api().Put("/api/admin/languages/fr", {{"trigger", "Never"}, {"provider", nullptr}, {"isEnabled", false}}, admin);
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(Str(updated.Json(), "trigger"), "Never");
  EXPECT_TRUE(updated.Json().at("provider").is_null());
  EXPECT_FALSE(updated.Json().at("isEnabled").as_bool());
  EXPECT_EQ(Str(updated.Json(), "displayName"), "Français");  // absent fields keep their value
  ExpectAudit(t, "language.updated", "language", "fr");
  enabled = Field(api().Get("/admin/languages/enabled", admin).Json(), "code");
  EXPECT_TRUE(std::find(enabled.begin(), enabled.end(), "fr") == enabled.end());
  // Still listed, disabled.
  auto all = Field(api().Get("/admin/languages", admin).Json(), "code");
  EXPECT_TRUE(std::find(all.begin(), all.end(), "fr") != all.end());

  // Set-default enables it and leaves exactly one default.
  const std::string old_default = Str(api().Get("/admin/languages/default", admin).Json(), "code");
  auto set = api().Put("/admin/languages/fr/set-default", json::object{}, admin);
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_TRUE(set.Json().at("isDefault").as_bool());
  EXPECT_TRUE(set.Json().at("isEnabled").as_bool());
  ExpectAudit(t, "language.default_set", "language", "fr");
  int defaults = 0;
  const json::value languages = api().Get("/api/admin/languages", admin).Json();
  for (const auto& x : languages.as_array()) defaults += x.at("isDefault").as_bool() ? 1 : 0;
  EXPECT_EQ(defaults, 1);
  EXPECT_EQ(Str(api().Get("/api/admin/languages/default", t.token("viewer")).Json(), "code"), "fr");

  // The default can be neither deleted nor disabled.
  ExpectProblem(api().Delete("/admin/languages/fr", admin), 409, "default_language");
  ExpectProblem(api().Put("/admin/languages/fr", {{"isEnabled", false}}, admin), 409, "default_language");

  // Another language can be deleted; then it is gone.
  ASSERT_EQ(api().Put("/api/admin/languages/" + old_default + "/set-default", json::object{}, admin).status, 200);
  auto del = api().Delete("/api/admin/languages/fr", admin);
  EXPECT_EQ(del.status, 204) << del.body;
  ExpectAudit(t, "language.removed", "language", "fr");
  all = Field(api().Get("/admin/languages", admin).Json(), "code");
  EXPECT_TRUE(std::find(all.begin(), all.end(), "fr") == all.end());
  ExpectProblem(api().Delete("/api/admin/languages/fr", admin), 404, "not_found");
  ExpectProblem(api().Put("/api/admin/languages/fr/set-default", json::object{}, admin), 404, "not_found");
}

TEST_F(Config, LanguageValidation) {
  auto t = CreateTenant(api(), "lang");
  const auto admin = t.token("admin");
  ExpectValidation(api().Post("/api/admin/languages", {{"code", "xx-nope"}, {"displayName", "X"}}, admin), "code");
  ExpectValidation(api().Post("/api/admin/languages", {{"code", "de"}}, admin), "displayName");
  ExpectValidation(
      api().Post("/admin/languages", {{"code", "de"}, {"displayName", "D"}, {"trigger", "Sometimes"}}, admin),
      "trigger");
  ExpectValidation(api().Post("/admin/languages", {{"code", "de"}, {"displayName", "   "}}, admin), "displayName");
  ExpectValidation(api().Put("/admin/languages/en", {{"sortOrder", "first"}}, admin), "sortOrder");
  auto malformed = api().Send("POST", "/api/admin/languages", "{\"code\":", admin);
  EXPECT_EQ(malformed.status, 400);
}

TEST_F(Config, LanguagesAccessAndIsolation) {
  auto t = CreateTenant(api(), "lang");
  auto other = CreateTenant(api(), "lang-other");
  // Members and guests read, never change.
  for (const char* persona : {"editor", "viewer", "guest"}) {
    SCOPED_TRACE(persona);
    EXPECT_EQ(api().Get("/admin/languages", t.token(persona)).status, 200);
    EXPECT_EQ(api().Post("/admin/languages", {{"code", "it"}, {"displayName", "Italiano"}}, t.token(persona)).status,
              403);
    EXPECT_EQ(api().Delete("/api/admin/languages/en", t.token(persona)).status, 403);
  }
  EXPECT_EQ(api().Get("/admin/languages").status, 401);
  // A machine key is not a member.
  const std::string key = MachineKey(t);
  EXPECT_EQ(api().Send("GET", "/admin/languages", "", "", {{"X-Api-Key", key}}).status, 403);
  // One tenant's change does not reach another.
  ASSERT_EQ(api().Post("/admin/languages", {{"code", "it"}, {"displayName", "Italiano"}}, t.token("admin")).status,
            201);
  auto codes = Field(api().Get("/admin/languages", other.token("admin")).Json(), "code");
  EXPECT_TRUE(std::find(codes.begin(), codes.end(), "it") == codes.end());
  ExpectProblem(api().Put("/admin/languages/it", {{"sortOrder", 1}}, other.token("admin")), 404, "not_found");
}

// ---------------------------------------------------------------- categories and tags

TEST_F(Config, CategoriesAndTagsCrudOnBothPaths) {
  auto t = CreateTenant(api(), "tax");
  const auto admin = t.token("admin");
  for (const auto& [path, alias, noun] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"/categories", "/api/categories", "category"}, {"/tags", "/api/tags", "tag"}}) {
    SCOPED_TRACE(path);
    auto created = api().Post(path, {{"name", "  Security  "}, {"description", "How we stay safe"}}, admin);
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string id = Str(created.Json(), "id");
    EXPECT_EQ(Str(created.Json(), "name"), "Security");
    EXPECT_EQ(created.Json().at("usageCount").as_int64(), 0);
    ExpectAudit(t, noun + ".created", noun, id);
    ExpectProblem(api().Post(alias, {{"name", "SECURITY"}}, admin), 409, noun + "_name_taken");
    ExpectValidation(api().Post(alias, {{"name", ""}}, admin), "name");
    ExpectValidation(api().Post(alias, {{"name", std::string(101, 'x')}}, admin), "name");

    auto second = api().Post(alias, {{"name", "Onboarding"}}, admin);
    ASSERT_EQ(second.status, 201) << second.body;
    EXPECT_TRUE(second.Json().at("description").is_null());

    auto listed = api().Get(alias, t.token("guest"));
    ASSERT_EQ(listed.status, 200) << listed.body;
    EXPECT_EQ(Field(listed.Json(), "name"), (std::vector<std::string>{"Onboarding", "Security"}));
    EXPECT_EQ(Str(api().Get(path + "/" + id, t.token("viewer")).Json(), "name"), "Security");

    auto renamed = api().Put(alias + "/" + id, {{"name", "Safety"}}, admin);
    ASSERT_EQ(renamed.status, 200) << renamed.body;
    EXPECT_EQ(Str(renamed.Json(), "name"), "Safety");
    EXPECT_TRUE(renamed.Json().at("description").is_null());
    ExpectAudit(t, noun + ".updated", noun, id);
    ExpectProblem(api().Put(path + "/" + id, {{"name", "onboarding"}}, admin), 409, noun + "_name_taken");

    EXPECT_EQ(api().Delete(path + "/" + id, admin).status, 204);
    ExpectAudit(t, noun + ".deleted", noun, id);
    ExpectProblem(api().Get(alias + "/" + id, admin), 404, "not_found");
    ExpectProblem(api().Delete(alias + "/" + std::string(kUnknownId), admin), 404, "not_found");
  }
}

TEST_F(Config, TagsSearchByPrefixIgnoringCase) {
  auto t = CreateTenant(api(), "tags");
  const auto admin = t.token("admin");
  for (const char* name : {"Kubernetes", "kafka", "Kotlin", "Java", "100% done", "k_under"})
    ASSERT_EQ(api().Post("/tags", {{"name", name}}, admin).status, 201);
  auto r = api().Get("/tags/search?q=K", t.token("viewer"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Field(r.Json(), "name"), (std::vector<std::string>{"k_under", "kafka", "Kotlin", "Kubernetes"}));
  EXPECT_EQ(Field(api().Get("/api/tags/search?q=ka", t.token("guest")).Json(), "name"),
            (std::vector<std::string>{"kafka"}));
  // LIKE wildcards are plain characters.
  EXPECT_EQ(Field(api().Get("/tags/search?q=" + PercentEncode("100%"), admin).Json(), "name"),
            (std::vector<std::string>{"100% done"}));
  EXPECT_TRUE(api().Get("/tags/search?q=" + PercentEncode("k%"), admin).Json().as_array().empty());
  EXPECT_TRUE(api().Get("/tags/search?q=_", admin).Json().as_array().empty());
  EXPECT_EQ(api().Get("/tags/search?q=k&limit=2", admin).Json().as_array().size(), 2u);
  EXPECT_EQ(api().Get("/tags/search", admin).Json().as_array().size(), 6u);
  ExpectValidation(api().Get("/tags/search?q=k&limit=0", admin), "limit");
  ExpectValidation(api().Get("/tags/search?q=k&limit=x", admin), "limit");
  // Another tenant's tags are not found.
  auto other = CreateTenant(api(), "tags-other");
  EXPECT_TRUE(api().Get("/tags/search?q=k", other.token("admin")).Json().as_array().empty());
}

TEST_F(Config, CategoryOrTagInUseIs409UnlessDetached) {
  auto t = CreateTenant(api(), "inuse");
  const auto admin = t.token("admin");
  const std::string category = Str(api().Post("/categories", {{"name", "Guides"}}, admin).Json(), "id");
  const std::string tag = Str(api().Post("/tags", {{"name", "howto"}}, admin).Json(), "id");
  const std::string unused = Str(api().Post("/tags", {{"name", "unused"}}, admin).Json(), "id");
  // A hub names them at creation; an entry through its classification.
  auto hub = api().Post("/api/hubs",
                        {{"key", "guides"},
                         {"name", "Guides"},
                         {"defaultExpiryDays", 365},
                         {"defaultOrgRole", "Editor"},
                         {"categoryId", category},
                         {"tagIds", json::array{json::value(tag)}}},
                        admin);
  ASSERT_EQ(hub.status, 201) << hub.body;
  auto entry = MakeEntry(api(), admin, "guides", "first", {"Hello"});
  const std::string entry_id = Str(entry, "id");
  const std::string classification = "/api/entries/" + entry_id + "/classification";
  auto classified =
      api().Put(classification, {{"categoryId", category}, {"tagIds", json::array{json::value(tag), json::value(tag)}}},
                t.token("editor"));
  ASSERT_EQ(classified.status, 200) << classified.body;
  EXPECT_EQ(Str(classified.Json(), "categoryId"), category);
  EXPECT_EQ(classified.Json().at("tagIds").as_array().size(), 1u);  // deduplicated
  ExpectAuditAction(t, "entry.classified", "entry", entry_id, "editor");
  auto read = api().Get(classification, t.token("viewer"));
  ASSERT_EQ(read.status, 200) << read.body;
  EXPECT_EQ(read.Json().at("tagIds").as_array().front().as_string(), tag);

  EXPECT_EQ(api().Get("/api/tags/" + tag, admin).Json().at("usageCount").as_int64(), 2);
  EXPECT_EQ(api().Get("/categories/" + category, admin).Json().at("usageCount").as_int64(), 2);

  auto in_use = api().Delete("/tags/" + tag, admin);
  ExpectProblem(in_use, 409, "tag_in_use");
  EXPECT_EQ(in_use.Json().at("usageCount").as_int64(), 2);
  ExpectProblem(api().Delete("/api/categories/" + category, admin), 409, "category_in_use");
  ExpectValidation(api().Delete("/tags/" + tag + "?detach=maybe", admin), "detach");
  EXPECT_EQ(api().Delete("/tags/" + unused, admin).status, 204);

  // Detached: gone from the hub and the entry, in one transaction.
  EXPECT_EQ(api().Delete("/tags/" + tag + "?detach=true", admin).status, 204);
  EXPECT_EQ(api().Delete("/api/categories/" + category + "?detach=true", admin).status, 204);
  auto hub_after = api().Get("/api/hubs/guides", admin);
  ASSERT_EQ(hub_after.status, 200) << hub_after.body;
  EXPECT_TRUE(hub_after.Json().at("tagIds").as_array().empty());
  EXPECT_TRUE(hub_after.Json().at("categoryId").is_null());
  auto entry_after = api().Get(classification, admin).Json();
  EXPECT_TRUE(entry_after.at("tagIds").as_array().empty());
  EXPECT_TRUE(entry_after.at("categoryId").is_null());
  auto detached = LatestAudit(t, "tag.deleted");
  EXPECT_EQ(detached.at("details").at("detached").as_int64(), 2);
}

TEST_F(Config, EntryClassificationValidationAccessAndIsolation) {
  auto t = CreateTenant(api(), "cls");
  auto other = CreateTenant(api(), "cls-other");
  const auto admin = t.token("admin");
  MakeHub(api(), admin, "docs", "Viewer");
  const std::string entry_id = Str(MakeEntry(api(), admin, "docs", "e", {"Text"}), "id");
  const std::string path = "/api/entries/" + entry_id + "/classification";
  const std::string other_tag = Str(api().Post("/tags", {{"name", "theirs"}}, other.token("admin")).Json(), "id");
  // Another tenant's tag is no tag of this tenant.
  ExpectValidation(api().Put(path, {{"tagIds", json::array{json::value(other_tag)}}}, admin), "tagIds[0]");
  ExpectValidation(api().Put(path, {{"categoryId", kUnknownId}}, admin), "categoryId");
  ExpectValidation(api().Put(path, {{"tagIds", json::array{"not-a-uuid"}}}, admin), "tagIds[0]");
  // Viewers read, cannot change; guests and other tenants do not see the entry.
  EXPECT_EQ(api().Get(path, t.token("viewer")).status, 200);
  EXPECT_EQ(api().Put(path, {{"tagIds", json::array{}}}, t.token("viewer")).status, 403);
  ExpectProblem(api().Get(path, t.token("guest")), 404, "not_found");
  ExpectProblem(api().Get(path, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Put(path, {{"tagIds", json::array{}}}, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Get("/api/entries/" + std::string(kUnknownId) + "/classification", admin), 404, "not_found");
}

TEST_F(Config, HubClassificationReadsAndSetsTheHubsOwnFields) {
  auto t = CreateTenant(api(), "hubcls");
  auto other = CreateTenant(api(), "hubcls-other");
  const auto admin = t.token("admin");
  MakeHub(api(), admin, "ops", "Editor");
  const std::string category = Str(api().Post("/categories", {{"name", "Ops"}}, admin).Json(), "id");
  const std::string tag = Str(api().Post("/tags", {{"name", "runbook"}}, admin).Json(), "id");
  const std::string path = "/api/hubs/ops/classification";
  auto empty = api().Get(path, t.token("viewer"));
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_TRUE(empty.Json().at("categoryId").is_null());
  auto set = api().Put(path, {{"categoryId", category}, {"tagIds", json::array{json::value(tag)}}}, admin);
  ASSERT_EQ(set.status, 200) << set.body;
  const std::string hub_id = Str(set.Json(), "hubId");
  ExpectAudit(t, "hub.classified", "hub", hub_id);
  // The hub's own JSON shows them (knowledge-base.md: categoryId, tagIds).
  auto hub = api().Get("/api/hubs/ops", admin).Json();
  EXPECT_EQ(Str(hub, "categoryId"), category);
  EXPECT_EQ(hub.at("tagIds").as_array().front().as_string(), tag);
  // Only tags changed: the category stays.
  auto tags_only = api().Put(path, {{"tagIds", json::array{}}}, admin);
  ASSERT_EQ(tags_only.status, 200) << tags_only.body;
  EXPECT_EQ(Str(tags_only.Json(), "categoryId"), category);
  EXPECT_TRUE(tags_only.Json().at("tagIds").as_array().empty());
  // Editors of the hub are not its admins; other tenants do not see it.
  EXPECT_EQ(api().Put(path, {{"categoryId", nullptr}}, t.token("editor")).status, 403);
  ExpectValidation(api().Put(path, {{"categoryId", kUnknownId}}, admin), "categoryId");
  ExpectProblem(api().Get(path, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Put(path, {{"categoryId", nullptr}}, other.token("admin")), 404, "not_found");
  EXPECT_EQ(api().Get("/categories/" + category, admin).Json().at("usageCount").as_int64(), 1);
}

TEST_F(Config, TaxonomyAccessAndIsolation) {
  auto t = CreateTenant(api(), "taxa");
  auto other = CreateTenant(api(), "taxa-other");
  const std::string id = Str(api().Post("/api/categories", {{"name", "Mine"}}, t.token("admin")).Json(), "id");
  for (const char* persona : {"editor", "viewer", "guest"}) {
    SCOPED_TRACE(persona);
    EXPECT_EQ(api().Get("/categories", t.token(persona)).status, 200);
    EXPECT_EQ(api().Post("/categories", {{"name", "X"}}, t.token(persona)).status, 403);
    EXPECT_EQ(api().Put("/api/categories/" + id, {{"name", "X"}}, t.token(persona)).status, 403);
    EXPECT_EQ(api().Delete("/tags/" + id, t.token(persona)).status, 403);
  }
  const std::string key = MachineKey(t);
  EXPECT_EQ(api().Send("GET", "/api/tags", "", "", {{"X-Api-Key", key}}).status, 403);
  ExpectProblem(api().Get("/categories/" + id, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Put("/categories/" + id, {{"name", "Stolen"}}, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/api/categories/" + id, other.token("admin")), 404, "not_found");
  EXPECT_TRUE(api().Get("/categories", other.token("admin")).Json().as_array().empty());
  // The same name is free in another tenant.
  EXPECT_EQ(api().Post("/categories", {{"name", "Mine"}}, other.token("admin")).status, 201);
}

// ---------------------------------------------------------------- block-type heuristics

TEST_F(Config, HeuristicsCrudOnBothPathsAndTestClassifiesASample) {
  auto t = CreateTenant(api(), "bh");
  const auto admin = t.token("admin");
  auto code = api().Post("/block-type-heuristics",
                         {{"name", "Code"},
                          {"blockClass", "code"},
                          {"nodeTypes", json::array{"codeBlock"}},
                          {"translation", "Skip"},
                          {"priority", 10}},
                         admin);
  ASSERT_EQ(code.status, 201) << code.body;
  const std::string code_id = Str(code.Json(), "id");
  EXPECT_TRUE(code.Json().at("textPattern").is_null());
  ExpectAudit(t, "blockheuristic.created", "blockheuristic", code_id);
  auto warning = api().Post("/api/blocktypeheuristics",
                            {{"name", "Warning"},
                             {"blockClass", "warning"},
                             {"nodeTypes", json::array{"paragraph", "blockquote"}},
                             {"textPattern", {{"match", "Prefix"}, {"text", "warning:"}}},
                             {"translation", "Protect"}},
                            admin);
  ASSERT_EQ(warning.status, 201) << warning.body;
  EXPECT_EQ(Str(warning.Json().at("textPattern"), "match"), "Prefix");
  EXPECT_FALSE(warning.Json().at("textPattern").at("caseSensitive").as_bool());
  EXPECT_EQ(warning.Json().at("priority").as_int64(), 100);
  auto table = api().Post("/block-type-heuristics",
                          {{"name", "Table"}, {"blockClass", "table"}, {"nodeTypes", json::array{"table"}}}, admin);
  ASSERT_EQ(table.status, 201) << table.body;

  auto listed = api().Get("/api/blocktypeheuristics", t.token("viewer"));
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(Field(listed.Json(), "name"), (std::vector<std::string>{"Code", "Table", "Warning"}));
  EXPECT_EQ(Str(api().Get("/block-type-heuristics/" + code_id, t.token("guest")).Json(), "blockClass"), "code");

  const std::string doc =
      R"({"type":"doc","content":[)"
      R"({"type":"paragraph","attrs":{"blockId":"b1"},"content":[{"type":"text","text":"Intro"}]},)"
      R"({"type":"codeBlock","attrs":{"blockId":"b2"},"content":[{"type":"text","text":"make all"}]},)"
      R"({"type":"paragraph","attrs":{"blockId":"b3"},"content":[{"type":"text","text":"  WARNING: hot"}]},)"
      R"({"type":"table","attrs":{"blockId":"b4"},"content":[]}]})";
  for (const char* path : {"/block-type-heuristics/test", "/api/blocktypeheuristics/test"}) {
    SCOPED_TRACE(path);
    auto r = api().Post(path, {{"content", doc}}, t.token("viewer"));
    ASSERT_EQ(r.status, 200) << r.body;
    const json::value body = r.Json();
    const auto& blocks = body.as_array();
    ASSERT_EQ(blocks.size(), 4u);
    EXPECT_TRUE(blocks[0].at("blockClass").is_null());
    EXPECT_EQ(Str(blocks[0], "translation"), "Translate");
    EXPECT_EQ(Str(blocks[1], "blockClass"), "code");
    EXPECT_EQ(Str(blocks[1], "heuristicId"), code_id);
    EXPECT_EQ(Str(blocks[1], "translation"), "Skip");
    EXPECT_EQ(Str(blocks[2], "blockClass"), "warning");
    EXPECT_EQ(Str(blocks[2], "translation"), "Protect");
    EXPECT_EQ(Str(blocks[3], "blockClass"), "table");
    EXPECT_EQ(Str(blocks[3], "nodeType"), "table");
  }

  // Disabled: no longer applied. Replaced wholesale by PUT.
  auto disabled = api().Put(
      "/api/blocktypeheuristics/" + code_id,
      {{"name", "Code"}, {"blockClass", "code"}, {"nodeTypes", json::array{"codeBlock"}}, {"isEnabled", false}}, admin);
  ASSERT_EQ(disabled.status, 200) << disabled.body;
  EXPECT_FALSE(disabled.Json().at("isEnabled").as_bool());
  ExpectAudit(t, "blockheuristic.updated", "blockheuristic", code_id);
  auto r = api().Post("/block-type-heuristics/test", {{"content", doc}}, admin);
  EXPECT_TRUE(r.Json().as_array()[1].at("blockClass").is_null());

  EXPECT_EQ(api().Delete("/block-type-heuristics/" + code_id, admin).status, 204);
  ExpectAudit(t, "blockheuristic.deleted", "blockheuristic", code_id);
  ExpectProblem(api().Get("/api/blocktypeheuristics/" + code_id, admin), 404, "not_found");
}

TEST_F(Config, HeuristicValidationAccessAndIsolation) {
  auto t = CreateTenant(api(), "bhv");
  auto other = CreateTenant(api(), "bhv-other");
  const auto admin = t.token("admin");
  ExpectValidation(api().Post("/block-type-heuristics",
                              {{"name", "X"}, {"blockClass", "Bad Class"}, {"nodeTypes", json::array{"p"}}}, admin),
                   "blockClass");
  ExpectValidation(api().Post("/block-type-heuristics", {{"name", "X"}, {"blockClass", "x"}}, admin), "nodeTypes");
  ExpectValidation(api().Post("/block-type-heuristics",
                              {{"name", "X"}, {"blockClass", "x"}, {"nodeTypes", json::array{"p q"}}}, admin),
                   "nodeTypes[0]");
  ExpectValidation(
      api().Post("/block-type-heuristics",
                 {{"name", "X"}, {"blockClass", "x"}, {"textPattern", {{"match", "Regex"}, {"text", "a+"}}}}, admin),
      "textPattern.match");
  ExpectValidation(api().Post("/block-type-heuristics/test", {{"content", "not a document"}}, admin), "content");
  auto created = api().Post("/block-type-heuristics",
                            {{"name", "Code"}, {"blockClass", "code"}, {"nodeTypes", json::array{"codeBlock"}}}, admin);
  ASSERT_EQ(created.status, 201);
  const std::string id = Str(created.Json(), "id");
  ExpectProblem(api().Post("/api/blocktypeheuristics",
                           {{"name", "code"}, {"blockClass", "code"}, {"nodeTypes", json::array{"codeBlock"}}}, admin),
                409, "heuristic_name_taken");
  EXPECT_EQ(api()
                .Post("/block-type-heuristics", {{"name", "Y"}, {"blockClass", "y"}, {"nodeTypes", json::array{"p"}}},
                      t.token("editor"))
                .status,
            403);
  EXPECT_EQ(api().Delete("/block-type-heuristics/" + id, t.token("viewer")).status, 403);
  ExpectProblem(api().Get("/block-type-heuristics/" + id, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/api/blocktypeheuristics/" + id, other.token("admin")), 404, "not_found");
  EXPECT_TRUE(api().Get("/block-type-heuristics", other.token("admin")).Json().as_array().empty());
}

// ---------------------------------------------------------------- style rules

TEST_F(Config, StyleRulesCrudAndCheckAText) {
  auto t = CreateTenant(api(), "style");
  const auto admin = t.token("admin");
  auto avoid = api().Post("/admin/style-rules",
                          {{"name", "No utilize"},
                           {"language", "en"},
                           {"type", "Avoid"},
                           {"term", "utilize"},
                           {"suggestion", "use"},
                           {"severity", "Error"}},
                          admin);
  ASSERT_EQ(avoid.status, 201) << avoid.body;
  const std::string avoid_id = Str(avoid.Json(), "id");
  ExpectAudit(t, "stylerule.created", "stylerule", avoid_id);
  auto prefer = api().Post("/api/admin/style-rules",
                           {{"name", "Sign in"},
                            {"language", "en"},
                            {"type", "Prefer"},
                            {"term", "sign in"},
                            {"alternatives", json::array{"log in", "login"}},
                            {"message", "We say sign in."}},
                           admin);
  ASSERT_EQ(prefer.status, 201) << prefer.body;
  auto german =
      api().Post("/admin/style-rules",
                 {{"name", "Kein utilize"}, {"language", "de"}, {"type", "Avoid"}, {"term", "utilize"}}, admin);
  ASSERT_EQ(german.status, 201) << german.body;

  EXPECT_EQ(api().Get("/admin/style-rules", t.token("viewer")).Json().as_array().size(), 3u);
  EXPECT_EQ(Field(api().Get("/api/admin/style-rules?language=en", t.token("guest")).Json(), "name"),
            (std::vector<std::string>{"No utilize", "Sign in"}));

  // "é" is one UTF-16 unit, "😀" two: offsets count UTF-16 units.
  const std::string text = "Please Utilize this 😀 and log in; utilized and blogin stay.";
  for (const char* path : {"/admin/style-rules/check", "/api/admin/style-rules/check"}) {
    SCOPED_TRACE(path);
    auto r = api().Post(path, {{"language", "en"}, {"text", text}}, t.token("viewer"));
    ASSERT_EQ(r.status, 200) << r.body;
    const json::value body = r.Json();
    const auto& m = body.as_array();
    ASSERT_EQ(m.size(), 2u) << r.body;
    EXPECT_EQ(Str(m[0], "ruleId"), avoid_id);
    EXPECT_EQ(m[0].at("offset").as_int64(), 7);
    EXPECT_EQ(m[0].at("length").as_int64(), 7);
    EXPECT_EQ(Str(m[0], "matchedText"), "Utilize");
    EXPECT_EQ(Str(m[0], "severity"), "Error");
    EXPECT_EQ(Str(m[0], "suggestion"), "use");
    EXPECT_TRUE(m[0].at("blockId").is_null());
    EXPECT_EQ(Str(m[1], "ruleName"), "Sign in");
    EXPECT_EQ(m[1].at("offset").as_int64(), 27);  // after the emoji's two units
    EXPECT_EQ(Str(m[1], "matchedText"), "log in");
    EXPECT_EQ(Str(m[1], "message"), "We say sign in.");
    EXPECT_EQ(Str(m[1], "suggestion"), "sign in");
  }

  auto updated = api().Put(
      "/admin/style-rules/" + avoid_id,
      {{"name", "No utilize"}, {"language", "en"}, {"type", "Avoid"}, {"term", "utilize"}, {"isEnabled", false}},
      admin);
  ASSERT_EQ(updated.status, 200) << updated.body;
  ExpectAudit(t, "stylerule.updated", "stylerule", avoid_id);
  auto r = api().Post("/admin/style-rules/check", {{"language", "en"}, {"text", "utilize"}}, admin);
  EXPECT_TRUE(r.Json().as_array().empty());
  EXPECT_EQ(api().Delete("/api/admin/style-rules/" + avoid_id, admin).status, 204);
  ExpectAudit(t, "stylerule.deleted", "stylerule", avoid_id);
  ExpectProblem(api().Get("/admin/style-rules/" + avoid_id, admin), 404, "not_found");
}

TEST_F(Config, StyleCheckOfAnEntryNamesBlocks) {
  auto t = CreateTenant(api(), "stylee");
  auto other = CreateTenant(api(), "stylee-other");
  const auto admin = t.token("admin");
  ASSERT_EQ(
      api()
          .Post("/admin/style-rules", {{"name", "R"}, {"language", "en"}, {"type", "Avoid"}, {"term", "foo"}}, admin)
          .status,
      201);
  MakeHub(api(), admin, "kb", "Viewer");
  auto entry = MakeEntry(api(), admin, "kb", "e", {"no match here", "a foo and FOO"});
  const std::string id = Str(entry, "id");
  const auto blocks = BlockIds(Str(entry, "content"));
  auto r = api().Post("/api/admin/style-rules/check", {{"entryId", id}}, t.token("viewer"));
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value body = r.Json();
  const auto& m = body.as_array();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(Str(m[0], "blockId"), blocks[1]);
  EXPECT_EQ(m[0].at("offset").as_int64(), 2);
  EXPECT_EQ(m[1].at("offset").as_int64(), 10);
  ExpectProblem(api().Post("/admin/style-rules/check", {{"entryId", id}, {"language", "de"}}, admin), 404, "not_found");
  ExpectProblem(api().Post("/admin/style-rules/check", {{"entryId", id}}, t.token("guest")), 404, "not_found");
  ExpectProblem(api().Post("/admin/style-rules/check", {{"entryId", id}}, other.token("admin")), 404, "not_found");
  ExpectValidation(api().Post("/admin/style-rules/check", {{"text", "x"}, {"entryId", id}}, admin), "text");
  ExpectValidation(api().Post("/admin/style-rules/check", {{"text", "x"}}, admin), "language");
  ExpectValidation(api().Post("/admin/style-rules/check", {{"text", "x"}, {"language", "klingon"}}, admin), "language");
}

TEST_F(Config, StyleRuleValidationAccessAndIsolation) {
  auto t = CreateTenant(api(), "stylev");
  auto other = CreateTenant(api(), "stylev-other");
  const auto admin = t.token("admin");
  const json::object base{{"name", "R"}, {"language", "en"}, {"type", "Avoid"}, {"term", "x"}};
  auto with = [&](const char* key, json::value v) {
    json::object o = base;
    o[key] = std::move(v);
    return o;
  };
  ExpectValidation(api().Post("/admin/style-rules", with("language", "xx-unknown"), admin), "language");
  ExpectValidation(api().Post("/admin/style-rules", with("term", "   "), admin), "term");
  ExpectValidation(api().Post("/admin/style-rules", with("type", "Regex"), admin), "type");
  ExpectValidation(api().Post("/admin/style-rules", with("severity", "Fatal"), admin), "severity");
  ExpectValidation(api().Post("/admin/style-rules", with("type", "Prefer"), admin), "alternatives");
  ExpectValidation(api().Post("/admin/style-rules", with("alternatives", json::array{"y"}), admin), "alternatives");
  auto created = api().Post("/admin/style-rules", base, admin);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  ExpectProblem(api().Post("/api/admin/style-rules", with("name", "r"), admin), 409, "style_rule_name_taken");
  EXPECT_EQ(api().Post("/admin/style-rules", with("name", "Other"), t.token("editor")).status, 403);
  EXPECT_EQ(api().Delete("/admin/style-rules/" + id, t.token("viewer")).status, 403);
  const std::string key = MachineKey(t);
  EXPECT_EQ(api().Send("GET", "/admin/style-rules", "", "", {{"X-Api-Key", key}}).status, 403);
  ExpectProblem(api().Get("/admin/style-rules/" + id, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Put("/admin/style-rules/" + id, base, other.token("admin")), 404, "not_found");
  EXPECT_TRUE(api().Get("/admin/style-rules", other.token("admin")).Json().as_array().empty());
  auto check = api().Post("/admin/style-rules/check", {{"language", "en"}, {"text", "x"}}, other.token("admin"));
  EXPECT_TRUE(check.Json().as_array().empty());
}

// ---------------------------------------------------------------- glossaries

TEST_F(Config, GlossaryCrudOnBothPathsAndSyncNeedsAProvider) {
  auto t = CreateTenant(api(), "gloss");
  const auto admin = t.token("admin");
  auto created = api().Post(
      "/admin/glossaries",
      {{"name", "Product"},
       {"sourceLanguage", "en"},
       {"targetLanguage", "DE"},
       {"terms",
        json::array{json::object{{"source", "sign in"}, {"target", "anmelden"}},
                    json::object{{"source", "API"}, {"target", "API"}, {"caseSensitive", true}, {"notes", "keep"}}}}},
      admin);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  EXPECT_EQ(Str(created.Json(), "targetLanguage"), "de");
  EXPECT_EQ(created.Json().at("termCount").as_int64(), 2);
  ExpectAudit(t, "glossary.created", "glossary", id);

  auto listed = api().Get("/api/admin/glossaries", t.token("viewer"));
  ASSERT_EQ(listed.status, 200) << listed.body;
  ASSERT_EQ(listed.Json().as_array().size(), 1u);
  EXPECT_FALSE(listed.Json().as_array()[0].as_object().contains("terms"));
  auto one = api().Get("/admin/glossaries/" + id, t.token("guest"));
  ASSERT_EQ(one.status, 200);
  EXPECT_EQ(one.Json().at("terms").as_array().size(), 2u);
  EXPECT_TRUE(one.Json().at("terms").as_array()[1].at("caseSensitive").as_bool());

  auto updated = api().Put("/api/admin/glossaries/" + id,
                           {{"name", "Product terms"}, {"sourceLanguage", "en"}, {"targetLanguage", "de"}}, admin);
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(updated.Json().at("termCount").as_int64(), 0);
  ExpectAudit(t, "glossary.updated", "glossary", id);

  for (const char* path : {"/admin/glossaries/", "/api/admin/glossaries/"})
    ExpectProblem(api().Post(path + id + "/sync", json::object{}, admin), 409, "no_translation_provider");
  ExpectProblem(api().Post("/admin/glossaries/" + std::string(kUnknownId) + "/sync", json::object{}, admin), 404,
                "not_found");
  EXPECT_EQ(api().Post("/admin/glossaries/" + id + "/sync", json::object{}, t.token("editor")).status, 403);

  EXPECT_EQ(api().Delete("/admin/glossaries/" + id, admin).status, 204);
  ExpectAudit(t, "glossary.deleted", "glossary", id);
  ExpectProblem(api().Get("/api/admin/glossaries/" + id, admin), 404, "not_found");
}

TEST_F(Config, GlossaryValidationAccessAndIsolation) {
  auto t = CreateTenant(api(), "glossv");
  auto other = CreateTenant(api(), "glossv-other");
  const auto admin = t.token("admin");
  ExpectValidation(
      api().Post("/admin/glossaries", {{"name", "G"}, {"sourceLanguage", "en"}, {"targetLanguage", "xx"}}, admin),
      "targetLanguage");
  ExpectValidation(
      api().Post("/admin/glossaries", {{"name", "G"}, {"sourceLanguage", "en"}, {"targetLanguage", "EN"}}, admin),
      "targetLanguage");
  ExpectValidation(api().Post("/admin/glossaries",
                              {{"name", "G"},
                               {"sourceLanguage", "en"},
                               {"targetLanguage", "de"},
                               {"terms", json::array{json::object{{"source", "  "}, {"target", "x"}}}}},
                              admin),
                   "terms[0].source");
  auto created =
      api().Post("/admin/glossaries", {{"name", "G"}, {"sourceLanguage", "en"}, {"targetLanguage", "de"}}, admin);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  ExpectProblem(
      api().Post("/api/admin/glossaries", {{"name", "g"}, {"sourceLanguage", "en"}, {"targetLanguage", "fr"}}, admin),
      409, "glossary_name_taken");
  EXPECT_EQ(api()
                .Post("/admin/glossaries", {{"name", "H"}, {"sourceLanguage", "en"}, {"targetLanguage", "fr"}},
                      t.token("editor"))
                .status,
            403);
  EXPECT_EQ(api()
                .Send("POST", "/admin/glossaries/" + id + "/import/csv", "source,target\r\na,b\r\n", t.token("viewer"),
                      {{"Content-Type", "text/csv"}})
                .status,
            403);
  ExpectProblem(api().Get("/admin/glossaries/" + id, other.token("admin")), 404, "not_found");
  ExpectProblem(api().Get("/admin/glossaries/" + id + "/export/csv", other.token("admin")), 404, "not_found");
  ExpectProblem(api().Send("POST", "/admin/glossaries/" + id + "/import/csv", "source,target\r\na,b\r\n",
                           other.token("admin"), {{"Content-Type", "text/csv"}}),
                404, "not_found");
  ExpectProblem(api().Post("/admin/glossaries/" + id + "/sync", json::object{}, other.token("admin")), 404,
                "not_found");
  EXPECT_TRUE(api().Get("/admin/glossaries", other.token("admin")).Json().as_array().empty());
}

TEST_F(Config, GlossaryCsvImportExportRoundTrip) {
  auto t = CreateTenant(api(), "gcsv");
  const auto admin = t.token("admin");
  const std::string id =
      Str(api()
              .Post("/admin/glossaries", {{"name", "G"}, {"sourceLanguage", "en"}, {"targetLanguage", "de"}}, admin)
              .Json(),
          "id");
  const std::string csv =
      "\xEF\xBB\xBFnotes,Source,target,caseSensitive\r\n"
      "\"with, comma\",sign in,anmelden,false\r\n"
      "\"a \"\"quoted\"\"\nline\",API,API,true\n"
      ",=SUM(1),'=formel,no\r\n"
      "\r\n";
  auto imported =
      api().Send("POST", "/api/admin/glossaries/" + id + "/import/csv", csv, admin, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(imported.status, 200) << imported.body;
  const json::value g = imported.Json();
  EXPECT_EQ(g.at("imported").as_int64(), 3);
  const auto& terms = g.at("terms").as_array();
  ASSERT_EQ(terms.size(), 3u);
  EXPECT_EQ(Str(terms[0], "notes"), "with, comma");
  EXPECT_EQ(Str(terms[1], "notes"), "a \"quoted\"\nline");
  EXPECT_TRUE(terms[1].at("caseSensitive").as_bool());
  EXPECT_EQ(Str(terms[2], "source"), "=SUM(1)");
  EXPECT_EQ(Str(terms[2], "target"), "=formel");  // the protective ' is removed
  EXPECT_TRUE(terms[2].at("notes").is_null());
  ExpectAudit(t, "glossary.imported", "glossary", id);

  // Merge replaces a term of the same source (ignoring case) and adds new ones.
  auto merged = api().Send("POST", "/admin/glossaries/" + id + "/import/csv", "source,target\nSIGN IN,einloggen\nx,y\n",
                           admin, {{"Content-Type", "text/csv"}});
  ASSERT_EQ(merged.status, 200) << merged.body;
  EXPECT_EQ(merged.Json().at("termCount").as_int64(), 4);

  auto exported = api().Get("/admin/glossaries/" + id + "/export/csv", t.token("viewer"));
  ASSERT_EQ(exported.status, 200) << exported.body;
  EXPECT_EQ(exported.Header("content-type").rfind("text/csv", 0), 0u);
  EXPECT_EQ(exported.body.rfind("source,target,caseSensitive,notes\r\n", 0), 0u);
  EXPECT_NE(exported.body.find("'=SUM(1),'=formel,false,\r\n"), std::string::npos) << exported.body;

  // Replace with the export: the same terms come back.
  auto replaced = api().Send("POST", "/admin/glossaries/" + id + "/import/csv?mode=replace", exported.body, admin,
                             {{"Content-Type", "text/csv"}});
  ASSERT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_EQ(replaced.Json().at("terms"), merged.Json().at("terms"));
  auto one = api().Send("POST", "/admin/glossaries/" + id + "/import/csv?mode=replace", "source,target\na,b\n", admin,
                        {{"Content-Type", "text/csv"}});
  EXPECT_EQ(one.Json().at("termCount").as_int64(), 1);
}

TEST_F(Config, MalformedCsvIs400NamingTheLine) {
  auto t = CreateTenant(api(), "gbad");
  const auto admin = t.token("admin");
  const std::string id =
      Str(api()
              .Post("/admin/glossaries", {{"name", "G"}, {"sourceLanguage", "en"}, {"targetLanguage", "de"}}, admin)
              .Json(),
          "id");
  const std::string path = "/admin/glossaries/" + id + "/import/csv";
  for (const auto& [csv, detail] : std::vector<std::pair<std::string, std::string>>{
           {"", "Line 1"},
           {"source,wrong\na,b\n", "unknown column"},
           {"target\nb\n", "source and target"},
           {"source,target\na,b,c\n", "Line 2"},
           {"source,target\na,\n", "Line 2"},
           {"source,target\n\"a,b\n", "not closed"},
           {"source,target\na\"b,c\n", "quote"},
           {"source,target,caseSensitive\na,b,maybe\n", "caseSensitive"},
           {"source,target\nx,y\n" + std::string(1, '"') + std::string(10, 'a') + "\"x,y\n", "Line 3"},
           {"source,target\n" + std::string(201, 'a') + ",b\n", "200"},
       }) {
    SCOPED_TRACE(csv.substr(0, 40));
    auto r = api().Send("POST", path, csv, admin, {{"Content-Type", "text/csv"}});
    ExpectProblem(r, 400, "invalid_csv");
    EXPECT_NE(Str(r.Json(), "detail").find(detail), std::string::npos) << r.body;
  }
  ExpectValidation(
      api().Send("POST", path + "?mode=sideways", "source,target\na,b\n", admin, {{"Content-Type", "text/csv"}}),
      "mode");
  // Nothing was imported.
  EXPECT_EQ(api().Get("/admin/glossaries/" + id, admin).Json().at("termCount").as_int64(), 0);
}

TEST_F(Config, GlossaryTbxImportExport) {
  auto t = CreateTenant(api(), "gtbx");
  const auto admin = t.token("admin");
  const std::string id =
      Str(api()
              .Post("/admin/glossaries", {{"name", "Terms & more"}, {"sourceLanguage", "en"}, {"targetLanguage", "de"}},
                    admin)
              .Json(),
          "id");
  // TBX v3 and TBX 2008 shapes, a prefix, entities, CDATA, a regional tag,
  // and an entry lacking German (skipped).
  const std::string tbx = R"(<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment -->
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><sourceDesc><p>Test</p></sourceDesc></fileDesc></tbxHeader>
  <text><body>
    <conceptEntry id="c1">
      <descrip type="definition">Signing &amp; logging in</descrip>
      <langSec xml:lang="en-US"><termSec><term>sign in</term></termSec></langSec>
      <langSec xml:lang="de"><termSec><term>anmelden</term></termSec></langSec>
    </conceptEntry>
    <termEntry id="c2">
      <langSet xml:lang="en"><tig><term><![CDATA[R&D]]></term></tig></langSet>
      <langSet xml:lang="DE"><tig><term>F&#x26;E &#252;</term></tig></langSet>
    </termEntry>
    <conceptEntry id="c3">
      <langSec xml:lang="en"><termSec><term>orphan</term></termSec></langSec>
      <langSec xml:lang="fr"><termSec><term>orphelin</term></termSec></langSec>
    </conceptEntry>
  </body></text>
</tbx>)";
  auto imported = api().Send("POST", "/api/admin/glossaries/" + id + "/import/tbx", tbx, admin,
                             {{"Content-Type", "application/x-tbx+xml"}});
  ASSERT_EQ(imported.status, 200) << imported.body;
  const json::value g = imported.Json();
  EXPECT_EQ(g.at("imported").as_int64(), 2);
  EXPECT_EQ(g.at("skipped").as_int64(), 1);
  const auto& terms = g.at("terms").as_array();
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_EQ(Str(terms[0], "source"), "sign in");
  EXPECT_EQ(Str(terms[0], "target"), "anmelden");
  EXPECT_EQ(Str(terms[0], "notes"), "Signing & logging in");
  EXPECT_EQ(Str(terms[1], "source"), "R&D");
  EXPECT_EQ(Str(terms[1], "target"), "F&E \xC3\xBC");

  auto exported = api().Get("/admin/glossaries/" + id + "/export/tbx", t.token("viewer"));
  ASSERT_EQ(exported.status, 200) << exported.body;
  EXPECT_EQ(exported.Header("content-type"), "application/x-tbx+xml");
  EXPECT_NE(exported.body.find("<p>Terms &amp; more</p>"), std::string::npos);
  EXPECT_NE(exported.body.find("<term>R&amp;D</term>"), std::string::npos);
  // The export imports back to the same terms.
  auto again = api().Send("POST", "/admin/glossaries/" + id + "/import/tbx?mode=replace", exported.body, admin,
                          {{"Content-Type", "application/x-tbx+xml"}});
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.Json().at("terms"), g.at("terms"));
  EXPECT_EQ(again.Json().at("skipped").as_int64(), 0);
}

TEST_F(Config, MalformedOrHostileTbxIs400) {
  auto t = CreateTenant(api(), "gxml");
  const auto admin = t.token("admin");
  const std::string id =
      Str(api()
              .Post("/admin/glossaries", {{"name", "G"}, {"sourceLanguage", "en"}, {"targetLanguage", "de"}}, admin)
              .Json(),
          "id");
  const std::string path = "/admin/glossaries/" + id + "/import/tbx";
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "<a>";
  for (int i = 0; i < 100; ++i) deep += "</a>";
  for (const auto& [xml, code] : std::vector<std::pair<std::string, std::string>>{
           {"", "invalid_xml"},
           {"not xml at all", "invalid_xml"},
           {"<tbx><text>", "invalid_xml"},
           {"<tbx></tbxx>", "invalid_xml"},
           {"<tbx a=1></tbx>", "invalid_xml"},
           {"<tbx>&bogus;</tbx>", "invalid_xml"},
           {"<tbx>&#0;</tbx>", "invalid_xml"},
           {"<tbx>a & b</tbx>", "invalid_xml"},
           {"<!DOCTYPE tbx [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><tbx>&xxe;</tbx>", "invalid_xml"},
           {"<!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;\">]><tbx>&lol2;</tbx>", "invalid_xml"},
           {"<tbx></tbx><tbx></tbx>", "invalid_xml"},
           {"<tbx" + deep + "</tbx>", "invalid_xml"},
           {"<tbx>" + deep + "</tbx>", "invalid_xml"},
           {"<html><body/></html>", "invalid_tbx"},
       }) {
    SCOPED_TRACE(xml.substr(0, 60));
    auto r = api().Send("POST", path, xml, admin, {{"Content-Type", "application/x-tbx+xml"}});
    ExpectProblem(r, 400, code);
  }
  EXPECT_EQ(api().Get("/admin/glossaries/" + id, admin).Json().at("termCount").as_int64(), 0);
}

}  // namespace
}  // namespace credence::test
