// Entry templates over real HTTP (docs/templates.md): create and read with
// defaults, the list's search, category, filter and pages (X-Total-Count),
// the official flag (global admins only), owner-or-admin update and delete,
// ratings, preview and apply (fresh block ids, usage count), categories,
// export and import between two tenants, isolation, bad input, audit
// entries. Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <set>
#include <string>
#include <vector>

#include "support/api_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

json::object Paragraph(const std::string& text, const std::string& block_id = "") {
  json::object node{{"type", "paragraph"}, {"content", json::array{json::object{{"type", "text"}, {"text", text}}}}};
  if (!block_id.empty()) node["attrs"] = json::object{{"blockId", block_id}};
  return node;
}

json::object Heading(const std::string& text) {
  return {{"type", "heading"},
          {"attrs", json::object{{"level", 2}}},
          {"content", json::array{json::object{{"type", "text"}, {"text", text}}}}};
}

json::object Body(const std::string& name, const std::string& category = "") {
  json::object b{{"name", name},
                 {"description", "A template for " + name},
                 {"blocks", json::array{Heading("Summary"), Paragraph("Write the summary here.")}}};
  if (!category.empty()) b["category"] = category;
  return b;
}

std::vector<std::string> TemplateBlockIds(const json::value& blocks) {
  std::vector<std::string> out;
  for (const auto& b : blocks.as_array()) out.push_back(std::string(b.at("attrs").at("blockId").as_string()));
  return out;
}

std::vector<std::string> Names(const json::value& list) {
  std::vector<std::string> out;
  for (const auto& t : list.as_array()) out.push_back(Str(t, "name"));
  return out;
}

// A node without its attrs.blockId, serialized, for comparing content.
std::string WithoutId(const json::value& node) {
  json::value copy = node;
  auto& attrs = copy.as_object()["attrs"];
  if (attrs.is_object()) {
    attrs.as_object().erase("blockId");
    if (attrs.as_object().empty()) copy.as_object().erase("attrs");
  } else {
    copy.as_object().erase("attrs");
  }
  return json::serialize(copy);
}

class Templates : public ApiTest {
 protected:
  json::value Create(const TestTenant& t, const std::string& persona, const json::object& body) {
    auto r = api().Post("/api/templates", body, t.token(persona));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? r.Json() : json::value(json::object{{"id", kUnknownId}});
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

  void ExpectAudit(const TestTenant& t, const std::string& action, const std::string& id, const std::string& persona) {
    SCOPED_TRACE(action);
    auto e = LatestAudit(t, action);
    if (e.empty()) return;
    EXPECT_EQ(Str(e.at("target"), "type"), "template");
    EXPECT_EQ(Str(e.at("target"), "id"), id);
    EXPECT_EQ(Str(e.at("actor"), "id"), t.user_ids.at(persona));
  }
};

TEST_F(Templates, CreateAndReadWithDefaults) {
  auto t = CreateTenant(api(), "tpl");
  json::object body = Body("Incident report", "Operations");
  body["blocks"].as_array().push_back(Paragraph("Second", "not-a-uuid"));
  auto created = Create(t, "editor", body);
  const std::string id = Str(created, "id");
  EXPECT_EQ(Str(created, "name"), "Incident report");
  EXPECT_EQ(Str(created, "category"), "Operations");
  EXPECT_EQ(Str(created, "language"), "en");  // the default
  EXPECT_FALSE(created.at("isOfficial").as_bool());
  EXPECT_EQ(Str(created, "ownerId"), t.user_ids.at("editor"));
  EXPECT_EQ(created.at("usageCount").as_int64(), 0);
  EXPECT_EQ(created.at("ratingCount").as_int64(), 0);
  EXPECT_EQ(created.at("averageRating").to_number<double>(), 0.0);
  EXPECT_EQ(created.at("blockCount").as_int64(), 3);
  auto ids = TemplateBlockIds(created.at("blocks"));
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 3u) << "every block gets its own id";
  for (const auto& b : ids) EXPECT_NE(b, "not-a-uuid");
  ExpectAudit(t, "template.created", id, "editor");

  auto got = api().Get("/api/templates/" + id, t.token("guest"));
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(TemplateBlockIds(got.Json().at("blocks")), ids);
  EXPECT_EQ(Str(got.Json(), "description"), "A template for Incident report");

  auto es = Body("Plantilla");
  es["language"] = "es";
  es["category"] = "  ";  // blank: none
  auto c2 = Create(t, "viewer", es);
  EXPECT_EQ(Str(c2, "language"), "es");
  EXPECT_TRUE(c2.at("category").is_null());

  auto missing = api().Get(std::string("/api/templates/") + kUnknownId, t.token("editor"));
  ExpectProblem(missing, 404, "not_found");
  auto malformed = api().Get("/api/templates/not-a-uuid", t.token("editor"));
  EXPECT_EQ(malformed.status, 400) << malformed.body;
  EXPECT_EQ(api().Get("/api/templates").status, 401);
}

TEST_F(Templates, BadInputIsA400NamingTheField) {
  auto t = CreateTenant(api(), "tpl");
  const auto editor = t.token("editor");
  auto body = Body("x");
  body["blocks"] = json::array{};
  ExpectValidation(api().Post("/api/templates", body, editor), "blocks");
  body = Body("x");
  body["blocks"] = json::array{json::object{{"text", "no type"}}};
  ExpectValidation(api().Post("/api/templates", body, editor), "blocks");
  body = Body("x");
  body["name"] = "   ";
  ExpectValidation(api().Post("/api/templates", body, editor), "name");
  body = Body("x");
  body["name"] = std::string(201, 'n');
  ExpectValidation(api().Post("/api/templates", body, editor), "name");
  body = Body("x");
  body["language"] = "e n!";
  ExpectValidation(api().Post("/api/templates", body, editor), "language");
  body = Body("x");
  body.erase("blocks");
  ExpectValidation(api().Post("/api/templates", body, editor), "blocks");
  auto malformed = api().Send("POST", "/api/templates", "{not json", editor);
  EXPECT_EQ(malformed.status, 400) << malformed.body;
  ExpectValidation(api().Get("/api/templates?search=" + std::string(201, 's'), editor), "search");
  // Machine credentials are not users.
  auto key = api().Post("/apikeys", {{"name", "machine"}, {"scopes", json::array{"trust:read"}}}, t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  auto machine = api().Send("GET", "/api/templates", "", "", {{"X-Api-Key", Str(key.Json(), "clientSecret")}});
  EXPECT_EQ(machine.status, 403) << machine.body;
  auto none = api().Get("/api/templates", editor);
  ASSERT_EQ(none.status, 200);
  EXPECT_EQ(none.Header("x-total-count"), "0");
}

TEST_F(Templates, ListPagesSearchesAndFilters) {
  auto t = CreateTenant(api(), "tpl");
  const auto admin = t.token("admin");
  const auto editor = t.token("editor");
  auto official = Body("Onboarding checklist", "HR");
  official["isOfficial"] = true;
  Create(t, "admin", official);
  official = Body("Offboarding checklist", "HR");
  official["isOfficial"] = true;
  Create(t, "admin", official);
  Create(t, "editor", Body("Meeting notes", "Team"));
  Create(t, "editor", Body("Release notes", "Engineering"));
  Create(t, "viewer", Body("100% done_list", "Team"));

  auto all = api().Get("/api/templates", t.token("guest"));
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_EQ(all.Header("x-total-count"), "5");
  EXPECT_EQ(Names(all.Json()), (std::vector<std::string>{"100% done_list", "Meeting notes", "Offboarding checklist",
                                                         "Onboarding checklist", "Release notes"}));
  EXPECT_FALSE(all.Json().as_array()[0].as_object().contains("blocks")) << "the list has no blocks";

  auto p2 = api().Get("/api/templates?page=2&pageSize=2", editor);
  ASSERT_EQ(p2.status, 200) << p2.body;
  EXPECT_EQ(p2.Header("x-total-count"), "5");
  EXPECT_EQ(Names(p2.Json()), (std::vector<std::string>{"Offboarding checklist", "Onboarding checklist"}));
  auto p3 = api().Get("/api/templates?page=3&pageSize=2", editor);
  EXPECT_EQ(Names(p3.Json()), (std::vector<std::string>{"Release notes"}));
  auto beyond = api().Get("/api/templates?page=9&pageSize=2", editor);
  ASSERT_EQ(beyond.status, 200);
  EXPECT_TRUE(beyond.Json().as_array().empty());
  EXPECT_EQ(beyond.Header("x-total-count"), "5");
  EXPECT_EQ(api().Get("/api/templates?pageSize=100", editor).status, 200);

  auto search = api().Get("/api/templates?search=CHECKLIST", editor);
  EXPECT_EQ(Names(search.Json()), (std::vector<std::string>{"Offboarding checklist", "Onboarding checklist"}));
  EXPECT_EQ(search.Header("x-total-count"), "2");
  // LIKE wildcards in the search are plain characters.
  EXPECT_EQ(Names(api().Get("/api/templates?search=" + PercentEncode("%"), editor).Json()),
            (std::vector<std::string>{"100% done_list"}));
  EXPECT_EQ(Names(api().Get("/api/templates?search=e_l", editor).Json()), (std::vector<std::string>{"100% done_list"}));
  EXPECT_EQ(Names(api().Get("/api/templates?category=Team", editor).Json()),
            (std::vector<std::string>{"100% done_list", "Meeting notes"}));
  EXPECT_EQ(Names(api().Get("/api/templates?filter=mine", editor).Json()),
            (std::vector<std::string>{"Meeting notes", "Release notes"}));
  EXPECT_EQ(Names(api().Get("/api/templates?filter=official", editor).Json()),
            (std::vector<std::string>{"Offboarding checklist", "Onboarding checklist"}));
  auto community = api().Get("/api/templates?filter=community&category=Team&search=notes", editor);
  EXPECT_EQ(Names(community.Json()), (std::vector<std::string>{"Meeting notes"}));
  EXPECT_EQ(community.Header("x-total-count"), "1");
  EXPECT_EQ(api().Get("/api/templates?filter=all", admin).Header("x-total-count"), "5");

  ExpectValidation(api().Get("/api/templates?pageSize=0", editor), "pageSize");
  ExpectValidation(api().Get("/api/templates?pageSize=101", editor), "pageSize");
  ExpectValidation(api().Get("/api/templates?pageSize=ten", editor), "pageSize");
  ExpectValidation(api().Get("/api/templates?page=0", editor), "page");
  ExpectValidation(api().Get("/api/templates?page=-1", editor), "page");
  ExpectValidation(api().Get("/api/templates?filter=popular", editor), "filter");

  auto categories = api().Get("/api/templates/categories", t.token("viewer"));
  ASSERT_EQ(categories.status, 200) << categories.body;
  EXPECT_EQ(categories.Json(), json::parse(R"(["Engineering","HR","Team"])"));
}

TEST_F(Templates, OnlyGlobalAdminsSetTheOfficialFlag) {
  auto t = CreateTenant(api(), "tpl");
  auto body = Body("Policy");
  body["isOfficial"] = true;
  ExpectProblem(api().Post("/api/templates", body, t.token("editor")), 403, "forbidden");
  body["isOfficial"] = false;
  auto created = Create(t, "editor", body);
  const std::string path = "/api/templates/" + Str(created, "id");

  body["isOfficial"] = true;
  ExpectProblem(api().Put(path, body, t.token("editor")), 403, "forbidden");
  auto made = api().Put(path, body, t.token("admin"));
  ASSERT_EQ(made.status, 200) << made.body;
  EXPECT_TRUE(made.Json().at("isOfficial").as_bool());
  EXPECT_EQ(Str(made.Json(), "ownerId"), t.user_ids.at("editor")) << "the owner stays";
  ExpectAudit(t, "template.official_changed", Str(created, "id"), "admin");

  // The owner may still edit; leaving isOfficial out keeps it, but may not
  // take it away.
  body.erase("isOfficial");
  body["name"] = "Policy v2";
  auto edited = api().Put(path, body, t.token("editor"));
  ASSERT_EQ(edited.status, 200) << edited.body;
  EXPECT_TRUE(edited.Json().at("isOfficial").as_bool());
  body["isOfficial"] = false;
  ExpectProblem(api().Put(path, body, t.token("editor")), 403, "forbidden");
  auto unmade = api().Put(path, body, t.token("admin"));
  ASSERT_EQ(unmade.status, 200) << unmade.body;
  EXPECT_FALSE(unmade.Json().at("isOfficial").as_bool());
}

TEST_F(Templates, OwnerOrAdminUpdatesAndDeletes) {
  auto t = CreateTenant(api(), "tpl");
  auto created = Create(t, "editor", Body("Runbook"));
  const std::string id = Str(created, "id");
  const std::string path = "/api/templates/" + id;
  auto body = Body("Runbook v2", "Ops");
  body["blocks"] = json::array{Paragraph("Only one block now")};

  ExpectProblem(api().Put(path, body, t.token("viewer")), 403, "forbidden");
  ExpectProblem(api().Delete(path, t.token("viewer")), 403, "forbidden");
  ExpectProblem(api().Put(std::string("/api/templates/") + kUnknownId, body, t.token("editor")), 404, "not_found");

  auto updated = api().Put(path, body, t.token("editor"));
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(Str(updated.Json(), "name"), "Runbook v2");
  EXPECT_EQ(Str(updated.Json(), "category"), "Ops");
  EXPECT_EQ(updated.Json().at("blockCount").as_int64(), 1);
  ExpectAudit(t, "template.updated", id, "editor");

  body["name"] = "Runbook v3";
  auto by_admin = api().Put(path, body, t.token("admin"));
  ASSERT_EQ(by_admin.status, 200) << by_admin.body;
  ExpectAudit(t, "template.updated", id, "admin");

  auto other = Create(t, "editor", Body("Mine to delete"));
  EXPECT_EQ(api().Delete("/api/templates/" + Str(other, "id"), t.token("editor")).status, 204);
  ExpectAudit(t, "template.deleted", Str(other, "id"), "editor");
  auto rated = api().Post(path + "/rate", {{"stars", 4}}, t.token("viewer"));
  ASSERT_EQ(rated.status, 200) << rated.body;
  EXPECT_EQ(api().Post(path + "/apply", json::object{}, t.token("viewer")).status, 200);
  auto gone = api().Delete(path, t.token("admin"));
  EXPECT_EQ(gone.status, 204) << gone.body;
  ExpectAudit(t, "template.deleted", id, "admin");
  ExpectProblem(api().Get(path, t.token("editor")), 404, "not_found");
  ExpectProblem(api().Delete(path, t.token("admin")), 404, "not_found");
}

TEST_F(Templates, RatingsAreOnePerUserAndChangeable) {
  auto t = CreateTenant(api(), "tpl");
  const std::string path = "/api/templates/" + Str(Create(t, "editor", Body("Rated")), "id");
  const auto viewer = t.token("viewer");
  ExpectValidation(api().Post(path + "/rate", {{"stars", 0}}, viewer), "stars");
  ExpectValidation(api().Post(path + "/rate", {{"stars", 6}}, viewer), "stars");
  ExpectValidation(api().Post(path + "/rate", {{"stars", "5"}}, viewer), "stars");
  ExpectValidation(api().Post(path + "/rate", {{"stars", 2.5}}, viewer), "stars");
  ExpectValidation(api().Post(path + "/rate", json::object{}, viewer), "stars");
  ExpectProblem(api().Post(std::string("/api/templates/") + kUnknownId + "/rate", {{"stars", 3}}, viewer), 404,
                "not_found");

  auto first = api().Post(path + "/rate", {{"stars", 4}}, viewer);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.Json().at("ratingCount").as_int64(), 1);
  EXPECT_DOUBLE_EQ(first.Json().at("averageRating").to_number<double>(), 4.0);
  auto second = api().Post(path + "/rate", {{"stars", 1}}, t.token("guest"));
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(second.Json().at("ratingCount").as_int64(), 2);
  EXPECT_DOUBLE_EQ(second.Json().at("averageRating").to_number<double>(), 2.5);
  auto changed = api().Post(path + "/rate", {{"stars", 5}}, viewer);  // the viewer changes theirs
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(changed.Json().at("ratingCount").as_int64(), 2);
  EXPECT_DOUBLE_EQ(changed.Json().at("averageRating").to_number<double>(), 3.0);
  auto third = api().Post(path + "/rate", {{"stars", 5}}, t.token("admin"));
  EXPECT_DOUBLE_EQ(third.Json().at("averageRating").to_number<double>(), 3.67);  // 11 / 3, two decimals
  const json::value list = api().Get("/api/templates", viewer).Json();
  const auto& listed = list.as_array().front();
  EXPECT_EQ(listed.at("ratingCount").as_int64(), 3);
}

TEST_F(Templates, ConcurrentRatingsAndAppliesAllCount) {
  auto t = CreateTenant(api(), "tpl");
  const std::string path = "/api/templates/" + Str(Create(t, "editor", Body("Busy")), "id");
  const std::vector<std::string> personas = {"admin", "editor", "viewer", "guest"};
  std::atomic<int> next{0};
  auto answers = Concurrently(4, [&](HttpClient& client) {
    const int i = next++;
    return client.Post(path + "/rate", {{"stars", i + 1}}, t.token(personas[static_cast<size_t>(i)]));
  });
  for (const auto& r : answers) EXPECT_EQ(r.status, 200) << r.body;
  auto applies = Concurrently(
      6, [&](HttpClient& client) { return client.Post(path + "/apply", json::object{}, t.token("viewer")); });
  std::set<std::string> ids;
  for (const auto& r : applies) {
    ASSERT_EQ(r.status, 200) << r.body;
    for (const auto& id : TemplateBlockIds(r.Json().at("blocks"))) EXPECT_TRUE(ids.insert(id).second) << id;
  }
  auto got = api().Get(path, t.token("viewer")).Json();
  EXPECT_EQ(got.at("usageCount").as_int64(), 6);
  EXPECT_EQ(got.at("ratingCount").as_int64(), 4);
  EXPECT_DOUBLE_EQ(got.at("averageRating").to_number<double>(), 2.5);  // (1 + 2 + 3 + 4) / 4
}

TEST_F(Templates, PreviewAssemblesAndApplyGivesFreshIdsAndCounts) {
  auto t = CreateTenant(api(), "tpl");
  auto created = Create(t, "editor", Body("Applied"));
  const std::string path = "/api/templates/" + Str(created, "id");
  const auto own_ids = TemplateBlockIds(created.at("blocks"));

  auto preview = api().Get(path + "/preview", t.token("guest"));
  ASSERT_EQ(preview.status, 200) << preview.body;
  auto p = preview.Json();
  EXPECT_EQ(Str(p, "templateId"), Str(created, "id"));
  EXPECT_EQ(Str(p, "language"), "en");
  auto doc = json::parse(Str(p, "content"));
  EXPECT_EQ(Str(doc, "type"), "doc");
  EXPECT_EQ(TemplateBlockIds(doc.at("content")), own_ids);
  EXPECT_EQ(TemplateBlockIds(p.at("blocks")), own_ids);

  std::set<std::string> seen(own_ids.begin(), own_ids.end());
  for (int i = 0; i < 2; ++i) {
    auto applied = api().Post(path + "/apply", json::object{}, t.token("viewer"));
    ASSERT_EQ(applied.status, 200) << applied.body;
    auto a = applied.Json();
    auto ids = TemplateBlockIds(a.at("blocks"));
    ASSERT_EQ(ids.size(), own_ids.size());
    for (const auto& id : ids) EXPECT_TRUE(seen.insert(id).second) << "block id " << id << " is not fresh";
    auto applied_doc = json::parse(Str(a, "content"));
    EXPECT_EQ(TemplateBlockIds(applied_doc.at("content")), ids);
    // Same blocks otherwise.
    for (size_t b = 0; b < ids.size(); ++b)
      EXPECT_EQ(WithoutId(a.at("blocks").as_array()[b]), WithoutId(created.at("blocks").as_array()[b]));
  }
  auto after = api().Get(path, t.token("editor"));
  EXPECT_EQ(after.Json().at("usageCount").as_int64(), 2) << "each apply counts; preview does not";
  EXPECT_EQ(TemplateBlockIds(after.Json().at("blocks")), own_ids) << "applying leaves the template's own ids";
  ExpectProblem(api().Post(std::string("/api/templates/") + kUnknownId + "/apply", json::object{}, t.token("viewer")),
                404, "not_found");
  ExpectProblem(api().Get(std::string("/api/templates/") + kUnknownId + "/preview", t.token("viewer")), 404,
                "not_found");
}

TEST_F(Templates, ExportAndImportMoveATemplateBetweenTenants) {
  auto a = CreateTenant(api(), "tpla");
  auto b = CreateTenant(api(), "tplb");
  auto body = Body("Portable", "Shared");
  body["language"] = "de";
  body["isOfficial"] = true;
  auto created = Create(a, "admin", body);
  const std::string id = Str(created, "id");
  api().Post("/api/templates/" + id + "/rate", {{"stars", 5}}, a.token("viewer"));
  api().Post("/api/templates/" + id + "/apply", json::object{}, a.token("viewer"));

  ExpectProblem(api().Get("/api/templates/" + id + "/export", a.token("editor")), 403, "forbidden");
  auto exported = api().Get("/api/templates/" + id + "/export", a.token("admin"));
  ASSERT_EQ(exported.status, 200) << exported.body;
  auto doc = exported.Json();
  EXPECT_EQ(Str(doc, "format"), "credence.entry-template");
  EXPECT_EQ(doc.at("version").as_int64(), 1);
  EXPECT_EQ(Str(doc.at("template"), "name"), "Portable");

  ExpectProblem(api().Post("/api/templates/import", doc, b.token("editor")), 403, "forbidden");
  auto imported = api().Post("/api/templates/import", doc, b.token("admin"));
  ASSERT_EQ(imported.status, 201) << imported.body;
  auto i = imported.Json();
  const std::string new_id = Str(i, "id");
  EXPECT_NE(new_id, id) << "ids are remapped";
  EXPECT_EQ(Str(i, "name"), "Portable");
  EXPECT_EQ(Str(i, "category"), "Shared");
  EXPECT_EQ(Str(i, "language"), "de");
  EXPECT_TRUE(i.at("isOfficial").as_bool());
  EXPECT_EQ(Str(i, "ownerId"), b.user_ids.at("admin"));
  EXPECT_EQ(i.at("usageCount").as_int64(), 0);
  EXPECT_EQ(i.at("ratingCount").as_int64(), 0);
  const auto old_ids = TemplateBlockIds(created.at("blocks"));
  const auto new_ids = TemplateBlockIds(i.at("blocks"));
  ASSERT_EQ(new_ids.size(), old_ids.size());
  for (size_t k = 0; k < new_ids.size(); ++k) {
    EXPECT_NE(new_ids[k], old_ids[k]) << "block ids are remapped";
    EXPECT_EQ(WithoutId(i.at("blocks").as_array()[k]), WithoutId(created.at("blocks").as_array()[k]));
  }
  ExpectAudit(b, "template.imported", new_id, "admin");
  EXPECT_EQ(api().Get("/api/templates/" + new_id, b.token("viewer")).status, 200);
  EXPECT_EQ(api().Get("/api/templates", b.token("viewer")).Header("x-total-count"), "1");
  // Round trip: exporting the import gives the same template back.
  auto again = api().Get("/api/templates/" + new_id + "/export", b.token("admin")).Json();
  EXPECT_EQ(again.at("template").at("name"), doc.at("template").at("name"));
  EXPECT_EQ(again.at("template").at("blocks").as_array().size(), doc.at("template").at("blocks").as_array().size());

  auto future = doc;
  future.as_object()["version"] = 2;
  auto refused = api().Post("/api/templates/import", future, b.token("admin"));
  ExpectProblem(refused, 400, "unsupported_template_version");
  EXPECT_NE(refused.body.find("version 1"), std::string::npos) << refused.body;
  auto wrong_format = doc;
  wrong_format.as_object()["format"] = "something-else";
  ExpectValidation(api().Post("/api/templates/import", wrong_format, b.token("admin")), "format");
  auto no_blocks = doc;
  no_blocks.as_object()["template"].as_object()["blocks"] = json::array{};
  ExpectValidation(api().Post("/api/templates/import", no_blocks, b.token("admin")), "blocks");
  EXPECT_EQ(api().Get("/api/templates", b.token("viewer")).Header("x-total-count"), "1") << "nothing else imported";
}

TEST_F(Templates, AnotherTenantsTemplateIsNotFound) {
  auto a = CreateTenant(api(), "tpla");
  auto b = CreateTenant(api(), "tplb");
  auto created = Create(a, "editor", Body("Private", "Secret category"));
  const std::string path = "/api/templates/" + Str(created, "id");
  const auto admin = b.token("admin");
  ExpectProblem(api().Get(path, admin), 404, "not_found");
  ExpectProblem(api().Get(path + "/preview", admin), 404, "not_found");
  ExpectProblem(api().Post(path + "/apply", json::object{}, admin), 404, "not_found");
  ExpectProblem(api().Post(path + "/rate", {{"stars", 1}}, admin), 404, "not_found");
  ExpectProblem(api().Put(path, Body("Taken"), admin), 404, "not_found");
  ExpectProblem(api().Delete(path, admin), 404, "not_found");
  ExpectProblem(api().Get(path + "/export", admin), 404, "not_found");
  auto list = api().Get("/api/templates", admin);
  EXPECT_EQ(list.Header("x-total-count"), "0");
  EXPECT_EQ(api().Get("/api/templates/categories", admin).Json(), json::array{});
  auto still = api().Get(path, a.token("viewer"));
  ASSERT_EQ(still.status, 200);
  EXPECT_EQ(still.Json().at("usageCount").as_int64(), 0);
  EXPECT_EQ(still.Json().at("ratingCount").as_int64(), 0);
}

}  // namespace
}  // namespace credence::test
