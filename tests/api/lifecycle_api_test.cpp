// Expiry templates and review checklists over real HTTP: CRUD, the default
// template, usage statistics and "in use" conflicts, who may do what,
// isolation between tenants, bad input, and the /review-checklists alias.
// Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

json::object TemplateBody(const std::string& name, int64_t expiry = 90, int64_t warning = 14) {
  return {{"name", name}, {"expiryDays", expiry}, {"warningDays", warning}};
}

json::object ChecklistBody(const std::string& name, const std::vector<std::string>& texts = {"Check links"}) {
  json::array items;
  for (const auto& t : texts) items.push_back(json::object{{"text", t}});
  return {{"name", name}, {"items", std::move(items)}};
}

class Lifecycle : public ApiTest {
 protected:
  std::string MakeTemplate(const TestTenant& t, const std::string& name, json::object body = {}) {
    if (body.empty()) body = TemplateBody(name);
    auto r = api().Post("/api/expiry-templates", body, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }
  std::string MakeChecklist(const TestTenant& t, const std::string& name) {
    auto r = api().Post("/api/review-checklists", ChecklistBody(name), t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }
  json::value Usage(const TestTenant& t, const std::string& id) {
    auto r = api().Get("/api/expiry-templates/" + id + "/usage-stats", t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json();
  }
};

TEST_F(Lifecycle, TemplateCrudRoundTrips) {
  auto t = CreateTenant(api(), "life-crud");
  const std::string checklist = MakeChecklist(t, "Quarterly");
  json::object body{{"name", "  Policy A  "},
                    {"description", "Yearly review"},
                    {"expiryDays", 365},
                    {"warningDays", 30},
                    {"graceDays", 7},
                    {"reviewRequired", true},
                    {"reviewType", "Attestation"},
                    {"checklistId", checklist},
                    {"autoRenewOnAttestation", true}};
  auto created = api().Post("/api/expiry-templates", body, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  auto c = created.Json();
  const std::string id = Str(c, "id");
  EXPECT_EQ(id.size(), 36u);
  EXPECT_EQ(Str(c, "name"), "Policy A");
  EXPECT_EQ(Str(c, "description"), "Yearly review");
  EXPECT_EQ(c.at("expiryDays").as_int64(), 365);
  EXPECT_EQ(c.at("warningDays").as_int64(), 30);
  EXPECT_EQ(c.at("graceDays").as_int64(), 7);
  EXPECT_TRUE(c.at("reviewRequired").as_bool());
  EXPECT_EQ(Str(c, "reviewType"), "Attestation");
  EXPECT_EQ(Str(c, "checklistId"), checklist);
  EXPECT_TRUE(c.at("autoRenewOnAttestation").as_bool());
  EXPECT_TRUE(c.at("isActive").as_bool());
  EXPECT_FALSE(c.at("isDefault").as_bool());
  EXPECT_EQ(Str(c, "createdAt").back(), 'Z');
  EXPECT_EQ(Str(c, "updatedAt"), Str(c, "createdAt"));

  auto got = api().Get("/api/expiry-templates/" + id, t.token("guest"));
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(json::serialize(got.Json()), json::serialize(c));

  // Defaults for left-out fields.
  auto minimal = api().Post("/api/expiry-templates", {{"name", "minimal"}, {"expiryDays", 30}}, t.token("admin"));
  ASSERT_EQ(minimal.status, 201) << minimal.body;
  auto m = minimal.Json();
  EXPECT_EQ(m.at("warningDays").as_int64(), 0);
  EXPECT_EQ(m.at("graceDays").as_int64(), 0);
  EXPECT_FALSE(m.at("reviewRequired").as_bool());
  EXPECT_TRUE(m.at("reviewType").is_null());
  EXPECT_TRUE(m.at("checklistId").is_null());
  EXPECT_TRUE(m.at("description").is_null());
  EXPECT_TRUE(m.at("isActive").as_bool());

  auto updated = api().Put("/api/expiry-templates/" + id,
                           {{"name", "Policy B"}, {"expiryDays", 180}, {"warningDays", 10}, {"isActive", false}},
                           t.token("admin"));
  ASSERT_EQ(updated.status, 200) << updated.body;
  auto u = updated.Json();
  EXPECT_EQ(Str(u, "id"), id);
  EXPECT_EQ(Str(u, "name"), "Policy B");
  EXPECT_EQ(u.at("expiryDays").as_int64(), 180);
  EXPECT_EQ(u.at("warningDays").as_int64(), 10);
  EXPECT_FALSE(u.at("reviewRequired").as_bool());
  EXPECT_TRUE(u.at("checklistId").is_null());
  EXPECT_FALSE(u.at("isActive").as_bool());
  EXPECT_EQ(Str(u, "createdAt"), Str(c, "createdAt"));
  // Renaming to its own name in another case is fine; to another's is not.
  EXPECT_EQ(api().Put("/api/expiry-templates/" + id, TemplateBody("POLICY b"), t.token("admin")).status, 200);
  ExpectProblem(api().Put("/api/expiry-templates/" + id, TemplateBody("MINIMAL"), t.token("admin")), 409,
                "template_name_taken");
  ExpectProblem(api().Post("/api/expiry-templates", TemplateBody(" Minimal "), t.token("admin")), 409,
                "template_name_taken");

  // activeOnly filter; list by name ignoring case.
  EXPECT_EQ(api()
                .Put("/api/expiry-templates/" + id, {{"name", "Policy B"}, {"expiryDays", 5}, {"isActive", false}},
                     t.token("admin"))
                .status,
            200);
  auto all = api().Get("/api/expiry-templates", t.token("viewer"));
  ASSERT_EQ(all.status, 200) << all.body;
  ASSERT_EQ(all.Json().as_array().size(), 2u);
  EXPECT_EQ(Str(all.Json().as_array()[0], "name"), "minimal");
  EXPECT_EQ(Str(all.Json().as_array()[1], "name"), "Policy B");
  auto active = api().Get("/api/expiry-templates?activeOnly=true", t.token("viewer"));
  ASSERT_EQ(active.status, 200) << active.body;
  ASSERT_EQ(active.Json().as_array().size(), 1u);
  EXPECT_EQ(Str(active.Json().as_array()[0], "name"), "minimal");
  EXPECT_EQ(api().Get("/api/expiry-templates?activeOnly=false", t.token("viewer")).Json().as_array().size(), 2u);
  ExpectValidation(api().Get("/api/expiry-templates?activeOnly=maybe", t.token("viewer")), "activeOnly");

  ASSERT_EQ(api().Delete("/api/expiry-templates/" + id, t.token("admin")).status, 204);
  ExpectProblem(api().Get("/api/expiry-templates/" + id, t.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/api/expiry-templates/" + id, t.token("admin")), 404, "not_found");
}

TEST_F(Lifecycle, SetDefaultMovesTheDefault) {
  auto t = CreateTenant(api(), "life-default");
  ExpectProblem(api().Get("/api/expiry-templates/default", t.token("viewer")), 404, "not_found");
  const std::string a = MakeTemplate(t, "A");
  const std::string b = MakeTemplate(t, "B");
  ExpectProblem(api().Get("/api/expiry-templates/default", t.token("viewer")), 404, "not_found");

  auto set_a = api().Post("/api/expiry-templates/" + a + "/set-default", json::object{}, t.token("admin"));
  ASSERT_EQ(set_a.status, 200) << set_a.body;
  EXPECT_TRUE(set_a.Json().at("isDefault").as_bool());
  auto def = api().Get("/api/expiry-templates/default", t.token("guest"));
  ASSERT_EQ(def.status, 200) << def.body;
  EXPECT_EQ(Str(def.Json(), "id"), a);

  auto set_b = api().Post("/api/expiry-templates/" + b + "/set-default", json::object{}, t.token("admin"));
  ASSERT_EQ(set_b.status, 200) << set_b.body;
  EXPECT_EQ(Str(api().Get("/api/expiry-templates/default", t.token("viewer")).Json(), "id"), b);
  EXPECT_FALSE(api().Get("/api/expiry-templates/" + a, t.token("viewer")).Json().at("isDefault").as_bool());
  EXPECT_TRUE(api().Get("/api/expiry-templates/" + b, t.token("viewer")).Json().at("isDefault").as_bool());
  // Setting it again is harmless.
  EXPECT_EQ(api().Post("/api/expiry-templates/" + b + "/set-default", json::object{}, t.token("admin")).status, 200);
  int defaults = 0;
  const auto listed = api().Get("/api/expiry-templates", t.token("viewer")).Json();
  for (const auto& item : listed.as_array()) defaults += item.at("isDefault").as_bool() ? 1 : 0;
  EXPECT_EQ(defaults, 1);

  // Deleting the (unused) default leaves no default.
  ASSERT_EQ(api().Delete("/api/expiry-templates/" + b, t.token("admin")).status, 204);
  ExpectProblem(api().Get("/api/expiry-templates/default", t.token("viewer")), 404, "not_found");
}

TEST_F(Lifecycle, UsageStatsAndTemplateInUse) {
  auto t = CreateTenant(api(), "life-usage");
  const std::string tpl = MakeTemplate(t, "Hub policy");
  auto zero = Usage(t, tpl);
  EXPECT_EQ(Str(zero, "templateId"), tpl);
  EXPECT_EQ(zero.at("entryCount").as_int64(), 0);
  EXPECT_EQ(zero.at("hubCount").as_int64(), 0);
  EXPECT_EQ(zero.at("entriesViaHubDefault").as_int64(), 0);

  MakeHub(api(), t.token("admin"), "life-hub");
  MakeHub(api(), t.token("admin"), "other-hub");
  MakeEntry(api(), t.token("admin"), "life-hub", "one", {"First"});
  MakeEntry(api(), t.token("admin"), "life-hub", "two", {"Second"});
  MakeEntry(api(), t.token("admin"), "other-hub", "three", {"Third"});
  auto put =
      api().Put("/api/hubs/life-hub",
                {{"name", "Life hub"}, {"defaultExpiryDays", 90}, {"defaultExpiryTemplateId", tpl}}, t.token("admin"));
  ASSERT_EQ(put.status, 200) << put.body;
  auto used = Usage(t, tpl);
  EXPECT_EQ(used.at("entryCount").as_int64(), 0);
  EXPECT_EQ(used.at("hubCount").as_int64(), 1);
  EXPECT_EQ(used.at("entriesViaHubDefault").as_int64(), 2);

  ExpectProblem(api().Delete("/api/expiry-templates/" + tpl, t.token("admin")), 409, "template_in_use");
  EXPECT_EQ(api().Get("/api/expiry-templates/" + tpl, t.token("viewer")).status, 200);

  // Once no hub uses it, it can go.
  ASSERT_EQ(api().Put("/api/hubs/life-hub", {{"name", "Life hub"}, {"defaultExpiryDays", 90}}, t.token("admin")).status,
            200);
  EXPECT_EQ(Usage(t, tpl).at("hubCount").as_int64(), 0);
  EXPECT_EQ(api().Delete("/api/expiry-templates/" + tpl, t.token("admin")).status, 204);
}

TEST_F(Lifecycle, ChecklistCrudKeepsItemIds) {
  auto t = CreateTenant(api(), "life-check");
  const auto hub = MakeHub(api(), t.token("admin"), "check-hub");
  const std::string hub_id = Str(hub, "id");
  json::object body{{"name", "Hub review"},
                    {"hubId", hub_id},
                    {"items", json::array{json::object{{"text", "Links work"}},
                                          json::object{{"text", "Owner agrees"}, {"required", false}}}}};
  auto created = api().Post("/api/review-checklists", body, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  auto c = created.Json();
  const std::string id = Str(c, "id");
  EXPECT_EQ(Str(c, "name"), "Hub review");
  EXPECT_EQ(Str(c, "hubId"), hub_id);
  const auto& items = c.at("items").as_array();
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(Str(items[0], "id").size(), 36u);
  EXPECT_EQ(Str(items[0], "text"), "Links work");
  EXPECT_TRUE(items[0].at("required").as_bool());
  EXPECT_EQ(Str(items[1], "text"), "Owner agrees");
  EXPECT_FALSE(items[1].at("required").as_bool());
  EXPECT_NE(Str(items[0], "id"), Str(items[1], "id"));
  EXPECT_EQ(Str(c, "createdAt").back(), 'Z');
  const std::string kept = Str(items[1], "id");

  // The platform path serves the same checklists.
  auto wide = api().Post("/review-checklists", ChecklistBody("Tenant-wide"), t.token("admin"));
  ASSERT_EQ(wide.status, 201) << wide.body;
  EXPECT_TRUE(wide.Json().at("hubId").is_null());
  const auto other_hub = MakeHub(api(), t.token("admin"), "other-check-hub");
  auto other = api().Post(
      "/api/review-checklists",
      {{"name", "Other hub"}, {"hubId", Str(other_hub, "id")}, {"items", json::array{json::object{{"text", "x"}}}}},
      t.token("admin"));
  ASSERT_EQ(other.status, 201) << other.body;

  for (const char* path : {"/api/review-checklists", "/review-checklists"}) {
    auto all = api().Get(path, t.token("guest"));
    ASSERT_EQ(all.status, 200) << all.body;
    ASSERT_EQ(all.Json().as_array().size(), 3u) << path;
    EXPECT_EQ(Str(all.Json().as_array()[0], "id"), id);
    auto filtered = api().Get(std::string(path) + "?hubId=" + hub_id, t.token("viewer"));
    ASSERT_EQ(filtered.status, 200) << filtered.body;
    const auto filtered_json = filtered.Json();
    const auto& f = filtered_json.as_array();
    ASSERT_EQ(f.size(), 2u) << path;
    EXPECT_EQ(Str(f[0], "name"), "Hub review");
    EXPECT_EQ(Str(f[1], "name"), "Tenant-wide");
  }
  ExpectValidation(api().Get("/api/review-checklists?hubId=nope", t.token("viewer")), "hubId");

  json::object update{{"name", "Renamed"},
                      {"items", json::array{json::object{{"id", kept}, {"text", "Owner agrees!"}, {"required", true}},
                                            json::object{{"text", "New item"}}}}};
  auto updated = api().Put("/review-checklists/" + id, update, t.token("admin"));
  ASSERT_EQ(updated.status, 200) << updated.body;
  auto u = updated.Json();
  EXPECT_EQ(Str(u, "name"), "Renamed");
  EXPECT_TRUE(u.at("hubId").is_null());
  ASSERT_EQ(u.at("items").as_array().size(), 2u);
  EXPECT_EQ(Str(u.at("items").as_array()[0], "id"), kept);
  EXPECT_EQ(Str(u.at("items").as_array()[0], "text"), "Owner agrees!");
  EXPECT_TRUE(u.at("items").as_array()[0].at("required").as_bool());
  EXPECT_NE(Str(u.at("items").as_array()[1], "id"), kept);
  EXPECT_EQ(Str(u, "createdAt"), Str(c, "createdAt"));
  // An id that is not one of the checklist's items is refused.
  json::object bad_id{{"name", "x"}, {"items", json::array{json::object{{"id", kUnknownId}, {"text", "t"}}}}};
  ExpectValidation(api().Put("/api/review-checklists/" + id, bad_id, t.token("admin")), "items[0].id");

  // In use by a template: 409 until the template lets go.
  auto tpl_body = TemplateBody("Uses checklist");
  tpl_body["checklistId"] = id;
  const std::string tpl = MakeTemplate(t, "Uses checklist", tpl_body);
  ExpectProblem(api().Delete("/api/review-checklists/" + id, t.token("admin")), 409, "checklist_in_use");
  ASSERT_EQ(api().Delete("/api/expiry-templates/" + tpl, t.token("admin")).status, 204);
  EXPECT_EQ(api().Delete("/review-checklists/" + id, t.token("admin")).status, 204);
  ExpectProblem(api().Delete("/api/review-checklists/" + id, t.token("admin")), 404, "not_found");
  EXPECT_EQ(api().Get("/api/review-checklists", t.token("viewer")).Json().as_array().size(), 2u);
}

TEST_F(Lifecycle, OnlyGlobalAdminsMayChangeThem) {
  auto t = CreateTenant(api(), "life-403");
  const std::string tpl = MakeTemplate(t, "Admin only");
  const std::string checklist = MakeChecklist(t, "Admin only");
  for (const char* persona : {"editor", "viewer", "guest"}) {
    const std::string token = t.token(persona);
    ExpectProblem(api().Post("/api/expiry-templates", TemplateBody("Nope"), token), 403, "forbidden");
    ExpectProblem(api().Put("/api/expiry-templates/" + tpl, TemplateBody("Nope"), token), 403, "forbidden");
    ExpectProblem(api().Delete("/api/expiry-templates/" + tpl, token), 403, "forbidden");
    ExpectProblem(api().Post("/api/expiry-templates/" + tpl + "/set-default", json::object{}, token), 403, "forbidden");
    for (const std::string base : {"/api/review-checklists", "/review-checklists"}) {
      ExpectProblem(api().Post(base, ChecklistBody("Nope"), token), 403, "forbidden");
      ExpectProblem(api().Put(base + "/" + checklist, ChecklistBody("Nope"), token), 403, "forbidden");
      ExpectProblem(api().Delete(base + "/" + checklist, token), 403, "forbidden");
    }
    // Reading is for everyone.
    EXPECT_EQ(api().Get("/api/expiry-templates/" + tpl, token).status, 200);
    EXPECT_EQ(api().Get("/api/review-checklists", token).status, 200);
  }
  ExpectProblem(api().Get("/api/expiry-templates"), 401, "missing_credentials");
  EXPECT_EQ(api().Get("/api/expiry-templates/" + tpl, t.token("viewer")).Json().at("name").as_string(), "Admin only");
}

TEST_F(Lifecycle, AnotherTenantsTemplatesAndChecklistsAreNotFound) {
  auto a = CreateTenant(api(), "life-iso-a");
  auto b = CreateTenant(api(), "life-iso-b");
  const std::string tpl = MakeTemplate(a, "Mine");
  const std::string checklist = MakeChecklist(a, "Mine");
  const std::string admin = b.token("admin");
  for (const std::string& id : {tpl, std::string(kUnknownId)}) {
    ExpectProblem(api().Get("/api/expiry-templates/" + id, admin), 404, "not_found");
    ExpectProblem(api().Get("/api/expiry-templates/" + id + "/usage-stats", admin), 404, "not_found");
    ExpectProblem(api().Put("/api/expiry-templates/" + id, TemplateBody("Theirs"), admin), 404, "not_found");
    ExpectProblem(api().Delete("/api/expiry-templates/" + id, admin), 404, "not_found");
    ExpectProblem(api().Post("/api/expiry-templates/" + id + "/set-default", json::object{}, admin), 404, "not_found");
  }
  for (const std::string base : {"/api/review-checklists", "/review-checklists"}) {
    for (const std::string& id : {checklist, std::string(kUnknownId)}) {
      ExpectProblem(api().Put(base + "/" + id, ChecklistBody("Theirs"), admin), 404, "not_found");
      ExpectProblem(api().Delete(base + "/" + id, admin), 404, "not_found");
    }
  }
  EXPECT_TRUE(api().Get("/api/expiry-templates", admin).Json().as_array().empty());
  EXPECT_TRUE(api().Get("/api/review-checklists", admin).Json().as_array().empty());
  ExpectProblem(api().Get("/api/expiry-templates/default", admin), 404, "not_found");
  // Another tenant's checklist cannot be referenced; nor its hub.
  auto body = TemplateBody("Borrow");
  body["checklistId"] = checklist;
  ExpectValidation(api().Post("/api/expiry-templates", body, admin), "checklistId");
  const auto hub = MakeHub(api(), a.token("admin"), "iso-hub");
  auto cl = ChecklistBody("Borrow");
  cl["hubId"] = Str(hub, "id");
  ExpectValidation(api().Post("/api/review-checklists", cl, admin), "hubId");
  // The name may be reused in another tenant.
  EXPECT_EQ(api().Post("/api/expiry-templates", TemplateBody("Mine"), admin).status, 201);
  EXPECT_EQ(api().Get("/api/expiry-templates/" + tpl, a.token("viewer")).status, 200);
}

TEST_F(Lifecycle, BadInputIsRefused) {
  auto t = CreateTenant(api(), "life-400");
  const std::string admin = t.token("admin");
  const std::string tpl = MakeTemplate(t, "Existing");
  const std::string checklist = MakeChecklist(t, "Existing");

  struct Case {
    json::object body;
    std::string field;
  };
  const std::vector<Case> template_cases = {
      {{{"expiryDays", 30}}, "name"},
      {{{"name", "x"}}, "expiryDays"},
      {{{"name", ""}, {"expiryDays", 30}}, "name"},
      {{{"name", "   "}, {"expiryDays", 30}}, "name"},
      {{{"name", std::string(201, 'n')}, {"expiryDays", 30}}, "name"},
      {{{"name", 7}, {"expiryDays", 30}}, "name"},
      {{{"name", "x"}, {"expiryDays", "30"}}, "expiryDays"},
      {{{"name", "x"}, {"expiryDays", 0}}, "expiryDays"},
      {{{"name", "x"}, {"expiryDays", 3651}}, "expiryDays"},
      {{{"name", "x"}, {"expiryDays", 30}, {"warningDays", 30}}, "warningDays"},
      {{{"name", "x"}, {"expiryDays", 30}, {"warningDays", 31}}, "warningDays"},
      {{{"name", "x"}, {"expiryDays", 30}, {"warningDays", -1}}, "warningDays"},
      {{{"name", "x"}, {"expiryDays", 30}, {"graceDays", 366}}, "graceDays"},
      {{{"name", "x"}, {"expiryDays", 30}, {"reviewRequired", true}}, "reviewType"},
      {{{"name", "x"}, {"expiryDays", 30}, {"reviewRequired", "yes"}}, "reviewRequired"},
      {{{"name", "x"}, {"expiryDays", 30}, {"reviewType", "Glance"}}, "reviewType"},
      {{{"name", "x"}, {"expiryDays", 30}, {"checklistId", kUnknownId}}, "checklistId"},
      {{{"name", "x"}, {"expiryDays", 30}, {"checklistId", "nope"}}, "checklistId"},
      {{{"name", "x"}, {"expiryDays", 30}, {"isActive", 1}}, "isActive"},
  };
  for (const auto& c : template_cases) {
    SCOPED_TRACE(json::serialize(c.body));
    ExpectValidation(api().Post("/api/expiry-templates", c.body, admin), c.field);
    ExpectValidation(api().Put("/api/expiry-templates/" + tpl, c.body, admin), c.field);
  }
  ExpectProblem(api().Send("POST", "/api/expiry-templates", "{\"name\": ", admin), 400, "malformed_json");
  ExpectProblem(api().Send("PUT", "/api/expiry-templates/" + tpl, "[", admin), 400, "malformed_json");

  const auto other = CreateTenant(api(), "life-400-other");
  const auto foreign_hub = MakeHub(api(), other.token("admin"), "foreign");
  const std::vector<Case> checklist_cases = {
      {{{"items", json::array{json::object{{"text", "a"}}}}}, "name"},
      {{{"name", "x"}}, "items"},
      {{{"name", "x"}, {"items", json::array{}}}, "items"},
      {{{"name", "x"}, {"items", "a"}}, "items"},
      {{{"name", ""}, {"items", json::array{json::object{{"text", "a"}}}}}, "name"},
      {{{"name", "x"}, {"items", json::array{json::object{{"required", true}}}}}, "items[0].text"},
      {{{"name", "x"}, {"items", json::array{json::object{{"text", ""}}}}}, "items[0].text"},
      {{{"name", "x"}, {"items", json::array{json::object{{"text", std::string(501, 't')}}}}}, "items[0].text"},
      {{{"name", "x"}, {"items", json::array{json::object{{"text", "a"}, {"required", "no"}}}}}, "items[0].required"},
      {{{"name", "x"}, {"hubId", "nope"}, {"items", json::array{json::object{{"text", "a"}}}}}, "hubId"},
      {{{"name", "x"}, {"hubId", kUnknownId}, {"items", json::array{json::object{{"text", "a"}}}}}, "hubId"},
      {{{"name", "x"}, {"hubId", Str(foreign_hub, "id")}, {"items", json::array{json::object{{"text", "a"}}}}},
       "hubId"},
  };
  json::array many;
  for (int i = 0; i < 101; ++i) many.push_back(json::object{{"text", "item"}});
  for (auto c : checklist_cases) {
    SCOPED_TRACE(json::serialize(c.body));
    ExpectValidation(api().Post("/api/review-checklists", c.body, admin), c.field);
    ExpectValidation(api().Put("/review-checklists/" + checklist, c.body, admin), c.field);
  }
  ExpectValidation(api().Post("/api/review-checklists", {{"name", "x"}, {"items", many}}, admin), "items");
  ExpectProblem(api().Send("POST", "/api/review-checklists", "{nope", admin), 400, "malformed_json");
  ExpectProblem(api().Send("PUT", "/review-checklists/" + checklist, "", admin), 400, "malformed_json");

  // Path parameters must be UUIDs.
  for (const std::string path : {"/api/expiry-templates/nope", "/api/expiry-templates/nope/usage-stats"}) {
    ExpectProblem(api().Get(path, admin), 400, "invalid_path_parameter");
  }
  ExpectProblem(api().Put("/api/expiry-templates/nope", TemplateBody("x"), admin), 400, "invalid_path_parameter");
  ExpectProblem(api().Delete("/api/expiry-templates/nope", admin), 400, "invalid_path_parameter");
  ExpectProblem(api().Post("/api/expiry-templates/nope/set-default", json::object{}, admin), 400,
                "invalid_path_parameter");
  for (const std::string base : {"/api/review-checklists", "/review-checklists"}) {
    ExpectProblem(api().Put(base + "/nope", ChecklistBody("x"), admin), 400, "invalid_path_parameter");
    ExpectProblem(api().Delete(base + "/nope", admin), 400, "invalid_path_parameter");
  }
  // Nothing changed.
  EXPECT_EQ(api().Get("/api/expiry-templates", admin).Json().as_array().size(), 1u);
  EXPECT_EQ(Str(api().Get("/api/expiry-templates/" + tpl, admin).Json(), "name"), "Existing");
}

// ---- Expiry of entries: expiry-status, expiry-config, effective-template,
// change-template.

json::value MakeEntryWithExpiry(HttpClient& api, const std::string& token, const std::string& hub_key,
                                const std::string& key, int64_t expiry_days) {
  auto r = api.Post("/api/entries",
                    {{"hubKey", hub_key},
                     {"key", key},
                     {"originalLanguage", "en"},
                     {"title", "Entry " + key},
                     {"content", Doc({"Text"})},
                     {"expiryDays", expiry_days}},
                    token);
  EXPECT_EQ(r.status, 201) << r.body;
  return r.Json();
}

TEST_F(Lifecycle, ExpiryStatusFollowsPublishingAndTheTemplateWindows) {
  auto t = CreateTenant(api(), "life-exp-status");
  const std::string admin = t.token("admin");
  MakeHub(api(), admin, "exp-hub");
  const std::string id = Str(MakeEntryWithExpiry(api(), admin, "exp-hub", "fresh", 30), "id");

  auto draft = api().Get("/api/entries/" + id + "/expiry-status", admin);
  ASSERT_EQ(draft.status, 200) << draft.body;
  auto d = draft.Json();
  EXPECT_EQ(Str(d, "status"), "Draft");
  const int64_t days = d.at("daysUntilExpiry").as_int64();
  EXPECT_TRUE(days == 29 || days == 30) << days;
  EXPECT_FALSE(d.at("isPaused").as_bool());
  EXPECT_FALSE(d.at("isInWarningPeriod").as_bool());
  EXPECT_EQ(Str(d, "expiryDate").back(), 'Z');

  ASSERT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, admin).status, 200);
  auto published = api().Get("/api/entries/" + id + "/expiry-status", admin).Json();
  EXPECT_EQ(Str(published, "status"), "Published");
  EXPECT_FALSE(published.at("isInWarningPeriod").as_bool());

  // Expiring in 3 days under a template warning 7 days ahead.
  const std::string tpl = MakeTemplate(t, "Week warning", TemplateBody("Week warning", 30, 7));
  const std::string soon = Str(MakeEntryWithExpiry(api(), admin, "exp-hub", "soon", 3), "id");
  ASSERT_EQ(api().Post("/api/entries/" + soon + "/change-template", {{"templateId", tpl}}, admin).status, 200);
  EXPECT_EQ(Str(api().Get("/api/entries/" + soon + "/expiry-status", admin).Json(), "status"), "Draft");
  ASSERT_EQ(api().Post("/api/entries/" + soon + "/publish", json::object{}, admin).status, 200);
  auto s = api().Get("/api/entries/" + soon + "/expiry-status", admin);
  ASSERT_EQ(s.status, 200) << s.body;
  EXPECT_EQ(Str(s.Json(), "status"), "ExpiringSoon");
  EXPECT_TRUE(s.Json().at("isInWarningPeriod").as_bool());
  EXPECT_FALSE(s.Json().at("isPaused").as_bool());
}

TEST_F(Lifecycle, EffectiveTemplateResolvesEntryThenHubThenTenant) {
  auto t = CreateTenant(api(), "life-exp-resolve");
  const std::string admin = t.token("admin");
  MakeHub(api(), admin, "res-hub");
  ASSERT_EQ(api().Put("/api/hubs/res-hub", {{"name", "Res hub"}, {"defaultExpiryDays", 45}}, admin).status, 200);
  const std::string id = Str(MakeEntry(api(), admin, "res-hub", "one", {"One"}), "id");
  const std::string effective = "/api/entries/" + id + "/effective-template";
  const std::string config = "/api/entries/" + id + "/expiry-config";

  // No template at all.
  auto none = api().Get(effective, admin);
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_EQ(Str(none.Json(), "source"), "none");
  EXPECT_TRUE(none.Json().at("template").is_null());
  auto none_config = api().Get(config, admin).Json();
  EXPECT_EQ(Str(none_config, "source"), "none");
  EXPECT_TRUE(none_config.at("template").is_null());
  EXPECT_EQ(none_config.at("warningDays").as_int64(), 0);
  EXPECT_EQ(none_config.at("graceDays").as_int64(), 0);
  EXPECT_EQ(none_config.at("expiryDays").as_int64(), 45);

  // The tenant's default.
  const std::string tenant_tpl = MakeTemplate(
      t, "Tenant policy", {{"name", "Tenant policy"}, {"expiryDays", 120}, {"warningDays", 10}, {"graceDays", 5}});
  ASSERT_EQ(api().Post("/api/expiry-templates/" + tenant_tpl + "/set-default", json::object{}, admin).status, 200);
  auto tenant = api().Get(effective, admin).Json();
  EXPECT_EQ(Str(tenant, "source"), "tenant");
  EXPECT_EQ(Str(tenant.at("template"), "id"), tenant_tpl);
  auto tenant_config = api().Get(config, admin).Json();
  EXPECT_EQ(Str(tenant_config, "source"), "tenant");
  EXPECT_EQ(tenant_config.at("warningDays").as_int64(), 10);
  EXPECT_EQ(tenant_config.at("graceDays").as_int64(), 5);
  EXPECT_EQ(tenant_config.at("expiryDays").as_int64(), 120);

  // The hub's default wins over the tenant's.
  const std::string hub_tpl = MakeTemplate(t, "Hub policy", TemplateBody("Hub policy", 60, 3));
  ASSERT_EQ(api()
                .Put("/api/hubs/res-hub",
                     {{"name", "Res hub"}, {"defaultExpiryDays", 45}, {"defaultExpiryTemplateId", hub_tpl}}, admin)
                .status,
            200);
  auto hub = api().Get(effective, admin).Json();
  EXPECT_EQ(Str(hub, "source"), "hub");
  EXPECT_EQ(Str(hub.at("template"), "id"), hub_tpl);
  EXPECT_EQ(api().Get(config, admin).Json().at("expiryDays").as_int64(), 60);

  // The entry's own template wins over both.
  const std::string own_tpl = MakeTemplate(t, "Own policy", TemplateBody("Own policy", 200, 20));
  auto changed = api().Post("/api/entries/" + id + "/change-template",
                            {{"templateId", own_tpl}, {"reason", "Stricter policy"}}, admin);
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(Str(changed.Json(), "source"), "entry");
  EXPECT_EQ(Str(changed.Json().at("template"), "id"), own_tpl);
  EXPECT_EQ(Str(changed.Json().at("template"), "name"), "Own policy");
  auto entry = api().Get(effective, admin).Json();
  EXPECT_EQ(Str(entry, "source"), "entry");
  EXPECT_EQ(Str(entry.at("template"), "id"), own_tpl);
  auto entry_config = api().Get(config, admin).Json();
  EXPECT_EQ(Str(entry_config, "source"), "entry");
  EXPECT_EQ(entry_config.at("warningDays").as_int64(), 20);
  EXPECT_EQ(entry_config.at("expiryDays").as_int64(), 200);
  EXPECT_EQ(Usage(t, own_tpl).at("entryCount").as_int64(), 1);

  // A second change (without a reason) is recorded too.
  auto again = api().Post("/api/entries/" + id + "/change-template", {{"templateId", hub_tpl}}, admin);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Str(again.Json(), "source"), "entry");
  EXPECT_EQ(Str(api().Get(effective, admin).Json().at("template"), "id"), hub_tpl);

  // An inactive template still applies.
  auto inactive = TemplateBody("Hub policy", 60, 3);
  inactive["isActive"] = false;
  ASSERT_EQ(api().Put("/api/expiry-templates/" + hub_tpl, inactive, admin).status, 200);
  auto still = api().Get(effective, admin).Json();
  EXPECT_EQ(Str(still, "source"), "entry");
  EXPECT_FALSE(still.at("template").at("isActive").as_bool());
}

TEST_F(Lifecycle, ChangeTemplateNeedsEditorAndATemplateOfTheTenant) {
  auto t = CreateTenant(api(), "life-exp-403");
  auto other = CreateTenant(api(), "life-exp-403-other");
  const std::string admin = t.token("admin");
  MakeHub(api(), admin, "view-hub", "Viewer");
  const std::string id = Str(MakeEntry(api(), admin, "view-hub", "one", {"One"}), "id");
  const std::string tpl = MakeTemplate(t, "Policy");
  const std::string foreign_tpl = MakeTemplate(other, "Foreign policy");

  // Members are Viewers: they may read the expiry but not change the template.
  for (const std::string route : {"expiry-status", "expiry-config", "effective-template"})
    EXPECT_EQ(api().Get("/api/entries/" + id + "/" + route, t.token("viewer")).status, 200) << route;
  ExpectProblem(api().Post("/api/entries/" + id + "/change-template", {{"templateId", tpl}}, t.token("viewer")), 403,
                "forbidden");
  EXPECT_EQ(Str(api().Get("/api/entries/" + id + "/effective-template", admin).Json(), "source"), "none");

  // Another tenant's template is not a template of this tenant.
  ExpectValidation(api().Post("/api/entries/" + id + "/change-template", {{"templateId", foreign_tpl}}, admin),
                   "templateId");
  ExpectValidation(api().Post("/api/entries/" + id + "/change-template", {{"templateId", kUnknownId}}, admin),
                   "templateId");
  EXPECT_EQ(Str(api().Get("/api/entries/" + id + "/effective-template", admin).Json(), "source"), "none");

  // Another tenant's entry is not found, on every route.
  const std::string other_admin = other.token("admin");
  for (const std::string route : {"expiry-status", "expiry-config", "effective-template"})
    EXPECT_EQ(api().Get("/api/entries/" + id + "/" + route, other_admin).status, 404) << route;
  EXPECT_EQ(api().Post("/api/entries/" + id + "/change-template", {{"templateId", foreign_tpl}}, other_admin).status,
            404);
  for (const std::string route : {"expiry-status", "expiry-config", "effective-template"})
    EXPECT_EQ(api().Get("/api/entries/" + std::string(kUnknownId) + "/" + route, admin).status, 404) << route;
}

TEST_F(Lifecycle, ChangeTemplateRefusesBadInput) {
  auto t = CreateTenant(api(), "life-exp-400");
  const std::string admin = t.token("admin");
  MakeHub(api(), admin, "bad-hub");
  const std::string id = Str(MakeEntry(api(), admin, "bad-hub", "one", {"One"}), "id");
  const std::string tpl = MakeTemplate(t, "Policy");
  const std::string path = "/api/entries/" + id + "/change-template";

  ExpectValidation(api().Post(path, json::object{}, admin), "templateId");
  ExpectValidation(api().Post(path, {{"reason", "why"}}, admin), "templateId");
  ExpectValidation(api().Post(path, {{"templateId", "nope"}}, admin), "templateId");
  ExpectValidation(api().Post(path, {{"templateId", 42}}, admin), "templateId");
  ExpectValidation(api().Post(path, {{"templateId", tpl}, {"reason", std::string(1001, 'r')}}, admin), "reason");
  ExpectValidation(api().Post(path, {{"templateId", tpl}, {"reason", 7}}, admin), "reason");
  ExpectProblem(api().Send("POST", path, "{nope", admin), 400, "malformed_json");
  EXPECT_EQ(Str(api().Get("/api/entries/" + id + "/effective-template", admin).Json(), "source"), "none");
  // A reason of exactly 1000 characters is fine.
  EXPECT_EQ(api().Post(path, {{"templateId", tpl}, {"reason", std::string(1000, 'r')}}, admin).status, 200);

  for (const std::string route : {"expiry-status", "expiry-config", "effective-template"})
    ExpectProblem(api().Get("/api/entries/nope/" + route, admin), 400, "invalid_path_parameter");
  ExpectProblem(api().Post("/api/entries/nope/change-template", {{"templateId", tpl}}, admin), 400,
                "invalid_path_parameter");
}

}  // namespace
}  // namespace credence::test
