// Knowledge base over real HTTP: hubs, entries and blocks, translations with
// block-level staleness, search, access and tenant isolation. Runs on
// SQLite and PostgreSQL.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <set>

#include "core/clock.h"
#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

int64_t Int(const json::value& v, const char* key) { return v.at(key).as_int64(); }

class KnowledgeBase : public ApiTest {
 protected:
  void SetUp() override {
    ApiTest::SetUp();
    if (IsSkipped()) return;
    t = CreateTenant(api(), "kb");
  }
  const std::string& admin() { return t.tokens.at("admin"); }
  TestTenant t;
};

// Hubs.

TEST_F(KnowledgeBase, HubLifecycle) {
  // Tags must be the tenant's (docs/configuration.md).
  ExpectProblem(api().Post("/api/hubs",
                           {{"key", "handbook"},
                            {"name", "Handbook"},
                            {"defaultExpiryDays", 30},
                            {"tagIds", {"00000000-0000-4000-8000-000000000001"}}},
                           admin()),
                400, "validation_failed");
  const std::string tag = Str(api().Post("/api/tags", {{"name", "handbooks"}}, admin()).Json(), "id");
  auto created = api().Post(
      "/api/hubs", {{"key", "handbook"}, {"name", "Handbook"}, {"defaultExpiryDays", 30}, {"tagIds", {tag.c_str()}}},
      admin());
  ASSERT_EQ(created.status, 201) << created.body;
  auto hub = created.Json();
  EXPECT_EQ(Str(hub, "key"), "handbook");
  EXPECT_EQ(Int(hub, "defaultExpiryDays"), 30);
  EXPECT_EQ(Str(hub, "ownerId"), t.user_ids["admin"]);
  EXPECT_EQ(hub.at("tagIds").as_array().size(), 1u);
  ExpectProblem(api().Post("/api/hubs", {{"key", "handbook"}, {"name", "Again"}, {"defaultExpiryDays", 5}}, admin()),
                409, "hub_key_taken");

  auto got = api().Get("/api/hubs/handbook", admin());
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(Str(got.Json(), "id"), Str(hub, "id"));
  auto perms = api().Get("/api/hubs/handbook/permissions", admin()).Json();
  EXPECT_EQ(Str(perms, "role"), "Admin");
  EXPECT_TRUE(perms.at("isGlobalAdmin").as_bool());

  auto updated = api().Put("/api/hubs/handbook", {{"name", "Staff handbook"}, {"defaultExpiryDays", 60},
                                                  {"defaultOrgRole", "Viewer"}},
                           admin());
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(Str(updated.Json(), "name"), "Staff handbook");
  EXPECT_EQ(Str(updated.Json(), "defaultOrgRole"), "Viewer");

  auto moved = api().Post("/api/hubs/handbook/transfer-ownership", {{"newOwnerId", t.user_ids["editor"]}}, admin());
  ASSERT_EQ(moved.status, 200) << moved.body;
  EXPECT_EQ(Str(moved.Json(), "ownerId"), t.user_ids["editor"]);
  ExpectProblem(api().Post("/api/hubs/handbook/transfer-ownership",
                           {{"newOwnerId", "00000000-0000-4000-8000-000000000009"}}, admin()),
                400, "validation_failed");

  MakeEntry(api(), admin(), "handbook", "welcome", {"Hello"});
  EXPECT_EQ(api().Delete("/api/hubs/handbook", admin()).status, 204);
  ExpectProblem(api().Get("/api/hubs/handbook", admin()), 404, "not_found");
  EXPECT_EQ(api().Get("/api/entries/search?q=hello", admin()).Json().as_array().size(), 0u);
}

TEST_F(KnowledgeBase, HubAccessFollowsRoles) {
  MakeHub(api(), admin(), "private");
  MakeHub(api(), admin(), "open", "Viewer");
  // Members see hubs with a default org role; nobody else's private hub.
  for (const char* persona : {"editor", "viewer"}) {
    ExpectProblem(api().Get("/api/hubs/private", t.token(persona)), 404, "not_found");
    EXPECT_EQ(api().Get("/api/hubs/open", t.token(persona)).status, 200);
    auto list = api().Get("/api/hubs", t.token(persona)).Json();
    ASSERT_EQ(list.as_array().size(), 1u);
    EXPECT_EQ(Str(list.as_array()[0], "key"), "open");
    EXPECT_EQ(Str(api().Get("/api/hubs/open/permissions", t.token(persona)).Json(), "role"), "Viewer");
  }
  // Guests get only what they are given explicitly.
  ExpectProblem(api().Get("/api/hubs/open", t.token("guest")), 404, "not_found");
  EXPECT_EQ(api().Get("/api/hubs", t.token("guest")).Json().as_array().size(), 0u);
  EXPECT_EQ(api().Get("/api/hubs", admin()).Json().as_array().size(), 2u);
  // Creating hubs is for global admins; updating for hub admins; deleting
  // for the owner or a global admin.
  ExpectProblem(api().Post("/api/hubs", {{"key", "mine"}, {"name", "M"}, {"defaultExpiryDays", 5}}, t.token("editor")),
                403, "forbidden");
  ExpectProblem(api().Put("/api/hubs/open", {{"name", "X"}, {"defaultExpiryDays", 5}}, t.token("viewer")), 403,
                "forbidden");
  ExpectProblem(api().Put("/api/hubs/private", {{"name", "X"}, {"defaultExpiryDays", 5}}, t.token("viewer")), 404,
                "not_found");
  ExpectProblem(api().Delete("/api/hubs/open", t.token("viewer")), 403, "forbidden");
  ExpectProblem(api().Delete("/api/hubs/private", t.token("viewer")), 404, "not_found");
  ExpectProblem(api().Post("/api/hubs/open/transfer-ownership", {{"newOwnerId", t.user_ids["viewer"]}},
                           t.token("viewer")),
                403, "forbidden");
}

TEST_F(KnowledgeBase, HubBadInput) {
  ExpectProblem(api().Post("/api/hubs", json::object{}, admin()), 400, "validation_failed");
  ExpectProblem(api().Post("/api/hubs", {{"key", "Bad Key"}, {"name", "N"}, {"defaultExpiryDays", 5}}, admin()), 400,
                "validation_failed");
  ExpectProblem(api().Post("/api/hubs", {{"key", "k"}, {"name", "N"}, {"defaultExpiryDays", "90"}}, admin()), 400,
                "validation_failed");
  ExpectProblem(api().Post("/api/hubs", {{"key", "k"}, {"name", "N"}, {"defaultExpiryDays", 0}}, admin()), 400,
                "validation_failed");
  ExpectProblem(api().Post("/api/hubs", {{"key", "k"}, {"name", "N"}, {"defaultExpiryDays", 5},
                                         {"tagIds", {"not-a-uuid"}}, {"defaultOrgRole", "Owner"}},
                           admin()),
                400, "validation_failed");
  ExpectProblem(api().Send("POST", "/api/hubs", "{\"key\":", admin()), 400, "malformed_json");
  MakeHub(api(), admin(), "h");
  ExpectProblem(api().Put("/api/hubs/h", {{"name", ""}, {"defaultExpiryDays", 5}}, admin()), 400, "validation_failed");
  ExpectProblem(api().Post("/api/hubs/h/transfer-ownership", {{"newOwnerId", 5}}, admin()), 400, "validation_failed");
}

// Entries and blocks.

TEST_F(KnowledgeBase, EntryCreationAssignsBlockIdsAndKeepsGivenOnes) {
  MakeHub(api(), admin(), "docs");
  const std::string kept = "11111111-1111-4111-8111-111111111111";
  // Second and third share an id (a paste): the third gets a fresh one.
  const std::string content = Doc({"one", "two", "three", "four"}, {"", kept, kept});
  auto r = api().Post("/api/entries", {{"hubKey", "docs"}, {"key", "ids"}, {"originalLanguage", "en"},
                                       {"title", "Ids"}, {"content", content}, {"expiryDays", 10}},
                      admin());
  ASSERT_EQ(r.status, 201) << r.body;
  auto e = r.Json();
  const auto ids = BlockIds(Str(e, "content"));
  ASSERT_EQ(ids.size(), 4u);
  EXPECT_EQ(ids[1], kept);
  EXPECT_NE(ids[2], kept);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 4u);
  EXPECT_EQ(Str(e, "status"), "Draft");
  EXPECT_EQ(Str(e, "ownerId"), t.user_ids["admin"]);
  EXPECT_EQ(Str(e, "hubKey"), "docs");
  EXPECT_EQ(Int(e, "version"), 1);
  // expiryDays overrides the hub default.
  const auto created = *ParseTimestamp(Str(e, "createdAt"));
  const auto expiry = *ParseTimestamp(Str(e, "expiryDate"));
  EXPECT_EQ(expiry - created, 10LL * 24 * 3600 * 1000);
  auto fetched = api().Get("/api/entries/" + Str(e, "id"), admin());
  ASSERT_EQ(fetched.status, 200);
  EXPECT_EQ(BlockIds(Str(fetched.Json(), "content")), ids);
  EXPECT_EQ(Str(fetched.Json(), "language"), "en");
  EXPECT_FALSE(fetched.Json().at("isTranslation").as_bool());
}

TEST_F(KnowledgeBase, EntryRulesAndBadInput) {
  MakeHub(api(), admin(), "docs");
  MakeEntry(api(), admin(), "docs", "taken", {"x"});
  auto make = [&](json::object body) { return api().Post("/api/entries", body, admin()); };
  const json::object valid{{"hubKey", "docs"}, {"key", "k1"}, {"originalLanguage", "en"}, {"title", "T"},
                           {"content", Doc({"a"})}};
  auto with = [&](const char* field, json::value v) {
    json::object b = valid;
    b[field] = std::move(v);
    return b;
  };
  ExpectProblem(make(with("key", "taken")), 409, "entry_key_taken");
  ExpectProblem(make(with("content", "not json")), 400, "validation_failed");
  ExpectProblem(make(with("content", "{\"type\":\"paragraph\"}")), 400, "validation_failed");
  ExpectProblem(make(with("content", "{\"type\":\"doc\",\"content\":[1,2]}")), 400, "validation_failed");
  ExpectProblem(make(with("content", json::object{{"type", "doc"}})), 400, "validation_failed");
  // A number beyond a double's range would be stored as "Infinity", which no
  // parser reads back (found by fuzz/prosemirror_document).
  ExpectProblem(make(with("content", "{\"type\":\"doc\",\"content\":[{\"type\":\"table\",\"attrs\":{\"colspan\":1e3080}}]}")),
                400, "validation_failed");
  ExpectProblem(make(with("originalLanguage", "xx")), 400, "validation_failed");
  ExpectProblem(make(with("hubKey", "nope")), 400, "validation_failed");
  ExpectProblem(make(with("expiryDays", -1)), 400, "validation_failed");
  ExpectProblem(make(with("title", 7)), 400, "validation_failed");
  ExpectProblem(make(json::object{}), 400, "validation_failed");
  auto bad_doc = make(with("content", "{\"type\":\"doc\",\"content\":{}}"));
  ExpectProblem(bad_doc, 400, "validation_failed");
  EXPECT_EQ(Str(bad_doc.Json().at("errors").as_array()[0], "field"), "content");
  ExpectProblem(api().Get("/api/entries/not-a-uuid", admin()), 400, "invalid_path_parameter");
  ExpectProblem(api().Get("/api/entries/00000000-0000-4000-8000-000000000000", admin()), 404, "not_found");
  ExpectProblem(api().Get("/api/entries/00000000-0000-4000-8000-000000000000?language=x!", admin()), 400,
                "validation_failed");
}

TEST_F(KnowledgeBase, EntryOperations) {
  MakeHub(api(), admin(), "docs", "Editor");
  auto e = MakeEntry(api(), t.token("editor"), "docs", "guide", {"Step one", "Step two"});
  const std::string id = Str(e, "id");
  auto list = api().Get("/api/entries/hubs/docs", t.token("viewer"));
  ASSERT_EQ(list.status, 200);
  ASSERT_EQ(list.Json().as_array().size(), 1u);
  EXPECT_FALSE(list.Json().as_array()[0].as_object().contains("content"));

  auto published = api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  ASSERT_EQ(published.status, 200);
  EXPECT_EQ(Str(published.Json(), "status"), "Published");
  EXPECT_FALSE(published.Json().at("publishedAt").is_null());

  ExpectProblem(api().Get("/api/entries/hubs/docs/root-entry", admin()), 404, "not_found");
  EXPECT_EQ(api().Put("/api/entries/" + id + "/set-root", json::object{}, t.token("editor")).status, 200);
  auto root = api().Get("/api/entries/hubs/docs/root-entry", t.token("viewer"));
  ASSERT_EQ(root.status, 200);
  EXPECT_EQ(Str(root.Json(), "id"), id);
  // A second root replaces the first.
  auto other = MakeEntry(api(), admin(), "docs", "other", {"Other"});
  EXPECT_EQ(api().Put("/api/entries/" + Str(other, "id") + "/set-root", json::object{}, admin()).status, 200);
  EXPECT_EQ(Str(api().Get("/api/entries/hubs/docs/root-entry", admin()).Json(), "id"), Str(other, "id"));
  ExpectProblem(api().Delete("/api/entries/" + Str(other, "id"), admin()), 400, "entry_is_hub_root");

  // Only the owner deletes.
  ExpectProblem(api().Delete("/api/entries/" + id, admin()), 403, "forbidden");
  auto patched = api().Patch("/api/entries/" + id + "/original-language", {{"languageCode", "de"}}, t.token("editor"));
  ASSERT_EQ(patched.status, 200) << patched.body;
  EXPECT_EQ(Str(patched.Json(), "originalLanguage"), "de");
  ExpectProblem(api().Patch("/api/entries/" + id + "/original-language", {{"languageCode", "zz"}}, t.token("editor")),
                400, "validation_failed");
  auto moved = api().Post("/api/entries/" + id + "/transfer-ownership", {{"newOwnerId", t.user_ids["viewer"]}},
                          t.token("editor"));
  ASSERT_EQ(moved.status, 200);
  EXPECT_EQ(Str(moved.Json(), "ownerId"), t.user_ids["viewer"]);
  // The viewer now owns it (and edits it as its owner) and may delete it.
  EXPECT_EQ(api().Delete("/api/entries/" + id, t.token("viewer")).status, 204);
  ExpectProblem(api().Get("/api/entries/" + id, admin()), 404, "not_found");
  EXPECT_EQ(api().Get("/api/entries/expired", admin()).Json().as_array().size(), 0u);
}

TEST_F(KnowledgeBase, ViewersCannotWriteAndStrangersCannotSee) {
  MakeHub(api(), admin(), "ro", "Viewer");
  MakeHub(api(), admin(), "hidden");
  auto e = MakeEntry(api(), admin(), "ro", "page", {"Text"});
  auto hidden = MakeEntry(api(), admin(), "hidden", "secret", {"Secret text"});
  const std::string id = Str(e, "id");
  EXPECT_EQ(api().Get("/api/entries/" + id, t.token("viewer")).status, 200);
  ExpectProblem(api().Put("/api/entries/" + id, {{"title", "X"}, {"content", Doc({"y"})}}, t.token("viewer")), 403,
                "forbidden");
  ExpectProblem(api().Post("/api/entries", {{"hubKey", "ro"}, {"key", "new"}, {"originalLanguage", "en"},
                                            {"title", "T"}, {"content", Doc({"a"})}},
                           t.token("viewer")),
                403, "forbidden");
  ExpectProblem(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("viewer")), 403, "forbidden");
  ExpectProblem(api().Get("/api/entries/" + Str(hidden, "id"), t.token("viewer")), 404, "not_found");
  ExpectProblem(api().Get("/api/entries/" + id, t.token("guest")), 404, "not_found");
  ExpectProblem(api().Get("/api/entries/hubs/hidden", t.token("viewer")), 404, "not_found");
  ExpectProblem(api().Get("/api/entries/" + Str(hidden, "id") + "/translations", t.token("viewer")), 404, "not_found");
}

// Translations and staleness (the scenarios).

class Staleness : public KnowledgeBase {
 protected:
  void SetUp() override {
    KnowledgeBase::SetUp();
    if (IsSkipped()) return;
    MakeHub(api(), admin(), "docs");
    std::vector<std::string> texts;
    for (int i = 0; i < 50; ++i) texts.push_back("Paragraph " + std::to_string(i));
    auto e = MakeEntry(api(), admin(), "docs", "long", texts);
    id = Str(e, "id");
    ids = BlockIds(Str(e, "content"));
    for (const char* lang : {"es", "de"}) {
      std::vector<std::string> translated;
      for (int i = 0; i < 50; ++i) translated.push_back(std::string(lang) + " " + std::to_string(i));
      auto r = api().Post("/api/entries/" + id + "/translations/" + lang,
                          {{"title", std::string("Title ") + lang}, {"content", Doc(translated, ids)}}, admin());
      ASSERT_EQ(r.status, 201) << r.body;
      EXPECT_EQ(Str(r.Json(), "status"), "UpToDate");
    }
  }
  json::value Status(const std::string& lang) {
    return api().Get("/api/entries/" + id + "/translations/" + lang + "/status", admin()).Json();
  }
  std::vector<std::string> Texts() {
    std::vector<std::string> texts;
    for (int i = 0; i < 50; ++i) texts.push_back("Paragraph " + std::to_string(i));
    return texts;
  }
  std::string id;
  std::vector<std::string> ids;
};

TEST_F(Staleness, EditingOneBlockOfFiftyStalesExactlyThatBlockInEachTranslation) {
  auto texts = Texts();
  texts[17] = "Paragraph 17, revised";
  auto r = api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, ids)}}, admin());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Int(r.Json(), "version"), 2);
  for (const char* lang : {"es", "de"}) {
    auto status = Status(lang);
    EXPECT_EQ(Str(status, "status"), "Stale") << lang;
    EXPECT_EQ(Int(status, "staleBlockCount"), 1) << lang;
    EXPECT_EQ(Int(status, "totalBlockCount"), 50) << lang;
    auto stale = api().Get("/api/entries/" + id + "/translations/" + lang + "/stale-blocks", admin()).Json();
    ASSERT_EQ(stale.as_array().size(), 1u);
    const auto& block = stale.as_array()[0];
    EXPECT_EQ(Str(block, "blockId"), ids[17]);
    EXPECT_EQ(Str(block, "originalText"), "Paragraph 17, revised");
    EXPECT_NE(Str(block, "translatedFromHash"), Str(block, "currentHash"));
    EXPECT_EQ(Str(block, "currentHash").size(), 64u);
  }
  auto list = api().Get("/api/entries/" + id + "/translations", admin()).Json();
  ASSERT_EQ(list.as_array().size(), 2u);
  for (const auto& item : list.as_array()) EXPECT_EQ(Int(item, "staleBlockCount"), 1);

  // mark-uptodate resets the translation's stale blocks, and only its own.
  auto marked = api().Put("/api/entries/" + id + "/translations/es/mark-uptodate", json::object{}, admin());
  ASSERT_EQ(marked.status, 200);
  EXPECT_EQ(Str(marked.Json(), "status"), "UpToDate");
  EXPECT_EQ(Int(Status("es"), "staleBlockCount"), 0);
  EXPECT_EQ(Int(Status("de"), "staleBlockCount"), 1);
}

TEST_F(Staleness, AStaleBlockShowsTheTextItWasTranslatedFrom) {
  auto texts = Texts();
  texts[3] = "Paragraph 3, revised once";
  ASSERT_EQ(api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, ids)}}, admin()).status,
            200);
  texts[3] = "Paragraph 3, revised twice";
  ASSERT_EQ(api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, ids)}}, admin()).status,
            200);
  auto stale = api().Get("/api/entries/" + id + "/translations/es/stale-blocks", admin()).Json();
  ASSERT_EQ(stale.as_array().size(), 1u);
  // Then: what the translator had (not the intermediate edit); now: the latest.
  EXPECT_EQ(Str(stale.as_array()[0], "originalTextThen"), "Paragraph 3");
  EXPECT_EQ(Str(stale.as_array()[0], "originalText"), "Paragraph 3, revised twice");

  // Re-translated: nothing stale in es; de still compares with what it had.
  std::vector<std::string> es;
  for (int i = 0; i < 50; ++i) es.push_back("es " + std::to_string(i));
  es[3] = "es 3, revisado dos veces";
  ASSERT_EQ(api().Put("/api/entries/" + id + "?language=es", {{"title", "Titulo"}, {"content", Doc(es, ids)}}, admin())
                .status,
            200);
  EXPECT_TRUE(api().Get("/api/entries/" + id + "/translations/es/stale-blocks", admin()).Json().as_array().empty());
  auto de = api().Get("/api/entries/" + id + "/translations/de/stale-blocks", admin()).Json();
  ASSERT_EQ(de.as_array().size(), 1u);
  EXPECT_EQ(Str(de.as_array()[0], "originalTextThen"), "Paragraph 3");

  // es, translated from the twice-revised text, is stale again after a third
  // edit and compares with that.
  texts[3] = "Paragraph 3, revised thrice";
  ASSERT_EQ(api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, ids)}}, admin()).status,
            200);
  auto again = api().Get("/api/entries/" + id + "/translations/es/stale-blocks", admin()).Json();
  ASSERT_EQ(again.as_array().size(), 1u);
  EXPECT_EQ(Str(again.as_array()[0], "originalTextThen"), "Paragraph 3, revised twice");
}

TEST_F(Staleness, ATranslatorMarksOneBlockUpToDate) {
  auto texts = Texts();
  texts[8] = "Paragraph 8, typo fixed";
  texts[9] = "Paragraph 9, revised";
  ASSERT_EQ(api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, ids)}}, admin()).status,
            200);
  EXPECT_EQ(Int(Status("es"), "staleBlockCount"), 2);
  const std::string path = "/api/entries/" + id + "/translations/es/mark-uptodate";
  auto marked = api().Put(path, {{"blockIds", json::array{ids[8]}}}, admin());
  ASSERT_EQ(marked.status, 200) << marked.body;
  EXPECT_EQ(Int(marked.Json(), "staleBlockCount"), 1);
  auto stale = api().Get("/api/entries/" + id + "/translations/es/stale-blocks", admin()).Json();
  ASSERT_EQ(stale.as_array().size(), 1u);
  EXPECT_EQ(Str(stale.as_array()[0], "blockId"), ids[9]);
  EXPECT_EQ(Int(Status("de"), "staleBlockCount"), 2);  // only es, only that block

  ExpectValidation(api().Put(path, {{"blockIds", json::array{"00000000-0000-7000-8000-000000000000"}}}, admin()),
                   "blockIds[0]");
  ExpectValidation(api().Put(path, {{"blockIds", json::array{}}}, admin()), "blockIds");
  // An explicit null is not "every block" (that is leaving blockIds out): it
  // was read as an array and answered 500.
  ExpectValidation(api().Put(path, {{"blockIds", nullptr}}, admin()), "blockIds");
  EXPECT_EQ(api().Send("PUT", path, "{not json", admin(), {{"Content-Type", "application/json"}}).status, 400);
  EXPECT_EQ(Int(Status("es"), "staleBlockCount"), 1);  // nothing changed by the refused ones
}

TEST_F(Staleness, ReorderingBlocksStalesNothing) {
  auto texts = Texts();
  auto order = ids;
  std::reverse(texts.begin(), texts.end());
  std::reverse(order.begin(), order.end());
  ASSERT_EQ(api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, order)}}, admin()).status,
            200);
  for (const char* lang : {"es", "de"}) {
    EXPECT_EQ(Int(Status(lang), "staleBlockCount"), 0);
    EXPECT_EQ(Str(Status(lang), "status"), "UpToDate");
  }
  // Readers see the translation in the new order.
  auto es = api().Get("/api/entries/" + id + "?language=es", admin()).Json();
  EXPECT_EQ(BlockIds(Str(es, "content")), order);
  EXPECT_EQ(BlockTexts(Str(es, "content")).front(), "es 49");
}

TEST_F(Staleness, DeletingATranslatedBlockShowsThePlaceholderAndKeepsAlignment) {
  auto texts = Texts();
  auto kept_ids = ids;
  texts.erase(texts.begin() + 3);
  kept_ids.erase(kept_ids.begin() + 3);
  auto r = api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, kept_ids)}}, admin());
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(BlockIds(Str(r.Json(), "content")).size(), 49u);  // the original no longer has it

  auto es = api().Get("/api/entries/" + id + "?language=es", admin());
  ASSERT_EQ(es.status, 200);
  const auto body = es.Json();
  EXPECT_TRUE(body.at("isTranslation").as_bool());
  EXPECT_EQ(Str(body, "title"), "Title es");
  const auto es_ids = BlockIds(Str(body, "content"));
  const auto es_texts = BlockTexts(Str(body, "content"));
  ASSERT_EQ(es_ids.size(), 50u);
  EXPECT_EQ(es_ids, ids);  // aligned with the blocks as they were
  EXPECT_EQ(es_texts[3], "[Content removed]");
  EXPECT_EQ(es_texts[4], "es 4");
  EXPECT_EQ(Int(Status("es"), "staleBlockCount"), 0);
  EXPECT_EQ(Int(Status("es"), "totalBlockCount"), 49);

  // A removed block without translations disappears for good: restoring its
  // id later is just a new block.
  auto plain = MakeEntry(api(), admin(), "docs", "plain", {"a", "b"});
  auto plain_ids = BlockIds(Str(plain, "content"));
  ASSERT_EQ(api().Put("/api/entries/" + Str(plain, "id"), {{"title", "P"}, {"content", Doc({"a"}, {plain_ids[0]})}},
                      admin()).status,
            200);
}

TEST_F(Staleness, ReaderSeesOriginalBlocksWhereTheTranslationHasNone) {
  auto texts = Texts();
  texts.push_back("A brand new paragraph");
  auto r = api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, ids)}}, admin());
  ASSERT_EQ(r.status, 200);
  auto status = Status("de");
  EXPECT_EQ(Str(status, "status"), "Draft");
  EXPECT_EQ(Int(status, "missingBlockCount"), 1);
  auto de = api().Get("/api/entries/" + id + "?language=de", admin()).Json();
  EXPECT_EQ(BlockTexts(Str(de, "content")).back(), "A brand new paragraph");
  // No translation in French: the original is served, and says so.
  auto fr = api().Get("/api/entries/" + id + "?language=fr", admin()).Json();
  EXPECT_EQ(Str(fr, "language"), "en");
  EXPECT_FALSE(fr.at("isTranslation").as_bool());
}

TEST_F(Staleness, UpdatingATranslationRefreshesOnlyTheBlocksThatChanged) {
  auto texts = Texts();
  texts[5] = "Paragraph 5, revised";
  texts[6] = "Paragraph 6, revised";
  ASSERT_EQ(api().Put("/api/entries/" + id, {{"title", "Entry long"}, {"content", Doc(texts, ids)}}, admin()).status,
            200);
  EXPECT_EQ(Int(Status("es"), "staleBlockCount"), 2);
  // The translator re-translates block 5 only.
  std::vector<std::string> es;
  for (int i = 0; i < 50; ++i) es.push_back("es " + std::to_string(i));
  es[5] = "es 5, revisado";
  auto r = api().Put("/api/entries/" + id + "?language=es", {{"title", "Titulo"}, {"content", Doc(es, ids)}}, admin());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Str(r.Json(), "title"), "Titulo");
  auto stale = api().Get("/api/entries/" + id + "/translations/es/stale-blocks", admin()).Json();
  ASSERT_EQ(stale.as_array().size(), 1u);
  EXPECT_EQ(Str(stale.as_array()[0], "blockId"), ids[6]);
  ExpectProblem(api().Put("/api/entries/" + id + "?language=fr", {{"title", "T"}, {"content", Doc({"x"}, {ids[0]})}},
                          admin()),
                404, "not_found");
}

TEST_F(Staleness, TranslationRulesAndBadInput) {
  const std::string base = "/api/entries/" + id + "/translations/";
  ExpectProblem(api().Post(base + "es", {{"title", "T"}, {"content", Doc({"x"}, {ids[0]})}}, admin()), 409,
                "translation_exists");
  ExpectProblem(api().Post(base + "en", {{"title", "T"}, {"content", Doc({"x"}, {ids[0]})}}, admin()), 400,
                "validation_failed");
  ExpectProblem(api().Post(base + "fr", {{"title", "T"}, {"content", Doc({"x"}, {"22222222-2222-4222-8222-222222222222"})}},
                           admin()),
                400, "validation_failed");
  ExpectProblem(api().Post(base + "fr", {{"title", "T"}, {"content", Doc({"x"})}}, admin()), 400, "validation_failed");
  ExpectProblem(api().Post(base + "fr", {{"title", "T"}, {"content", Doc({"x", "y"}, {ids[0], ids[0]})}}, admin()), 400,
                "validation_failed");
  ExpectProblem(api().Post(base + "fr", {{"title", "T"}, {"content", Doc({"x"}, {ids[0]})}, {"useAutoTranslation", true}},
                           admin()),
                400, "auto_translation_unavailable");
  ExpectProblem(api().Post(base + "xx", {{"title", "T"}, {"content", Doc({"x"}, {ids[0]})}}, admin()), 400,
                "validation_failed");
  ExpectProblem(api().Post(base + "fr", {{"title", 1}, {"content", Doc({"x"}, {ids[0]})}}, admin()), 400,
                "validation_failed");
  ExpectProblem(api().Post(base + "fr", json::object{}, admin()), 400, "validation_failed");
  ExpectProblem(api().Get(base + "fr", admin()), 404, "not_found");
  ExpectProblem(api().Get(base + "fr/status", admin()), 404, "not_found");
  ExpectProblem(api().Put(base + "fr/mark-uptodate", json::object{}, admin()), 404, "not_found");
  ExpectProblem(api().Get(base + "fr/stale-blocks", admin()), 404, "not_found");
  ExpectProblem(api().Patch("/api/entries/" + id + "/original-language", {{"languageCode", "es"}}, admin()), 409,
                "translation_exists");
  // A partial translation is a Draft.
  auto partial = api().Post(base + "fr", {{"title", "Partiel"}, {"content", Doc({"fr 0"}, {ids[0]})}}, admin());
  ASSERT_EQ(partial.status, 201);
  EXPECT_EQ(Str(partial.Json(), "status"), "Draft");
  EXPECT_EQ(Int(partial.Json(), "missingBlockCount"), 49);
  auto full = api().Get(base + "fr", admin()).Json();
  EXPECT_EQ(BlockTexts(Str(full, "content")), std::vector<std::string>{"fr 0"});
  EXPECT_EQ(api().Delete(base + "fr", admin()).status, 204);
  ExpectProblem(api().Get(base + "fr", admin()), 404, "not_found");
  ExpectProblem(api().Delete(base + "fr", admin()), 404, "not_found");
}

// Search.

TEST_F(KnowledgeBase, SearchFindsTitlesAndBlockTextOnlyWhereTheCallerMayLook) {
  MakeHub(api(), admin(), "public", "Viewer");
  MakeHub(api(), admin(), "private");
  auto in_title = api().Post("/api/entries", {{"hubKey", "public"}, {"key", "onboarding"}, {"originalLanguage", "en"},
                                              {"title", "Onboarding checklist"}, {"content", Doc({"Welcome aboard"})}},
                             admin());
  ASSERT_EQ(in_title.status, 201);
  MakeEntry(api(), admin(), "public", "benefits", {"Read the onboarding notes before your first day"});
  MakeEntry(api(), admin(), "private", "salaries", {"Onboarding bonus for executives"});

  auto all = api().Get("/api/entries/search?q=onboarding", admin()).Json().as_array();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(Str(all[0], "key"), "onboarding");  // a title match ranks first
  // Whole words by default; a trailing * asks for a prefix.
  EXPECT_EQ(api().Get("/api/entries/search?q=onboard", admin()).Json().as_array().size(), 0u);
  EXPECT_EQ(api().Get("/api/entries/search?q=onboard*", admin()).Json().as_array().size(), 3u);
  EXPECT_EQ(api().Get("/api/entries/search?q=ONBOARDING", admin()).Json().as_array().size(), 3u);
  auto viewer = api().Get("/api/entries/search?q=onboarding", t.token("viewer")).Json().as_array();
  EXPECT_EQ(viewer.size(), 2u);
  for (const auto& r : viewer) EXPECT_NE(Str(r, "key"), "salaries");
  EXPECT_EQ(api().Get("/api/entries/search?q=onboarding", t.token("guest")).Json().as_array().size(), 0u);
  EXPECT_EQ(api().Get("/api/entries/search?q=onboarding&hubKey=private", admin()).Json().as_array().size(), 1u);
  EXPECT_EQ(api().Get("/api/entries/search?q=onboarding&take=1", admin()).Json().as_array().size(), 1u);
  EXPECT_EQ(api().Get("/api/entries/search?q=welcome%20aboard", admin()).Json().as_array().size(), 1u);
  // Query syntax never reaches the engine.
  EXPECT_EQ(api().Get("/api/entries/search?q=%22onboarding%22%20OR%20*%20NEAR(", admin()).status, 200);
  ExpectProblem(api().Get("/api/entries/search?q=o", admin()), 400, "validation_failed");
  ExpectProblem(api().Get("/api/entries/search", admin()), 400, "validation_failed");
  ExpectProblem(api().Get("/api/entries/search?q=%21%21%21", admin()), 400, "validation_failed");
  ExpectProblem(api().Get("/api/entries/search?q=onboarding&take=0", admin()), 400, "validation_failed");
  ExpectProblem(api().Get("/api/entries/search?q=onboarding&take=101", admin()), 400, "validation_failed");
  ExpectProblem(api().Get("/api/entries/search?q=onboarding&take=abc", admin()), 400, "validation_failed");
}

// An entry's owner may open it even in a hub they cannot see; search knows
// the owner as it changes.
TEST_F(KnowledgeBase, SearchFollowsOwnershipTransfers) {
  MakeHub(api(), admin(), "closed");
  auto e = MakeEntry(api(), admin(), "closed", "handover", {"Quarterly handover notes"});
  EXPECT_EQ(api().Get("/api/entries/search?q=handover", t.token("viewer")).Json().as_array().size(), 0u);
  ASSERT_EQ(api().Post("/api/entries/" + Str(e, "id") + "/transfer-ownership", {{"newOwnerId", t.user_ids["viewer"]}},
                       admin()).status,
            200);
  auto found = api().Get("/api/entries/search?q=handover", t.token("viewer")).Json().as_array();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Str(found[0], "id"), Str(e, "id"));
  EXPECT_EQ(api().Get("/api/entries/" + Str(e, "id"), t.token("viewer")).status, 200);
  ExpectProblem(api().Get("/api/hubs/closed", t.token("viewer")), 404, "not_found");
}

TEST_F(KnowledgeBase, EditsReachTheSearchIndex) {
  MakeHub(api(), admin(), "docs");
  auto e = MakeEntry(api(), admin(), "docs", "page", {"Alpha content"});
  EXPECT_EQ(api().Get("/api/entries/search?q=alpha", admin()).Json().as_array().size(), 1u);
  ASSERT_EQ(api().Put("/api/entries/" + Str(e, "id"), {{"title", "Page"}, {"content", Doc({"Omega content"})}},
                      admin()).status,
            200);
  EXPECT_EQ(api().Get("/api/entries/search?q=alpha", admin()).Json().as_array().size(), 0u);
  EXPECT_EQ(api().Get("/api/entries/search?q=omega", admin()).Json().as_array().size(), 1u);
  ASSERT_EQ(api().Delete("/api/entries/" + Str(e, "id"), admin()).status, 204);
  EXPECT_EQ(api().Get("/api/entries/search?q=omega", admin()).Json().as_array().size(), 0u);
}

// Tenant isolation: another tenant's hubs, entries and translations are 404
// on every route, and never in its search results.
TEST_F(KnowledgeBase, TenantsAreIsolated) {
  MakeHub(api(), admin(), "shared-key", "Editor");
  auto e = MakeEntry(api(), admin(), "shared-key", "page", {"Isolation marker text"});
  const std::string id = Str(e, "id");
  const auto ids = BlockIds(Str(e, "content"));
  ASSERT_EQ(api().Post("/api/entries/" + id + "/translations/es", {{"title", "T"}, {"content", Doc({"x"}, ids)}},
                       admin()).status,
            201);
  auto other = CreateTenant(api(), "kb-other");
  const std::string o = other.token("admin");
  // The same hub key is free in the other tenant.
  MakeHub(api(), o, "shared-key");
  EXPECT_EQ(api().Get("/api/entries/hubs/shared-key", o).Json().as_array().size(), 0u);
  for (const auto& path : {"/api/entries/" + id, "/api/entries/" + id + "?language=es",
                           "/api/entries/" + id + "/translations", "/api/entries/" + id + "/translations/es",
                           "/api/entries/" + id + "/translations/es/status",
                           "/api/entries/" + id + "/translations/es/stale-blocks"})
    ExpectProblem(api().Get(path, o), 404, "not_found");
  ExpectProblem(api().Put("/api/entries/" + id, {{"title", "X"}, {"content", Doc({"y"})}}, o), 404, "not_found");
  ExpectProblem(api().Delete("/api/entries/" + id, o), 404, "not_found");
  ExpectProblem(api().Post("/api/entries/" + id + "/publish", json::object{}, o), 404, "not_found");
  ExpectProblem(api().Put("/api/entries/" + id + "/set-root", json::object{}, o), 404, "not_found");
  ExpectProblem(api().Post("/api/entries/" + id + "/transfer-ownership", {{"newOwnerId", other.user_ids["admin"]}}, o),
                404, "not_found");
  ExpectProblem(api().Patch("/api/entries/" + id + "/original-language", {{"languageCode", "de"}}, o), 404, "not_found");
  ExpectProblem(api().Post("/api/entries/" + id + "/translations/de", {{"title", "T"}, {"content", Doc({"x"}, ids)}}, o),
                404, "not_found");
  ExpectProblem(api().Put("/api/entries/" + id + "/translations/es/mark-uptodate", json::object{}, o), 404, "not_found");
  ExpectProblem(api().Delete("/api/entries/" + id + "/translations/es", o), 404, "not_found");
  EXPECT_EQ(api().Get("/api/entries/search?q=isolation", o).Json().as_array().size(), 0u);
  // Ownership cannot be handed to another tenant's user.
  ExpectProblem(api().Post("/api/entries/" + id + "/transfer-ownership", {{"newOwnerId", other.user_ids["admin"]}},
                           admin()),
                400, "validation_failed");
  ExpectProblem(api().Post("/api/hubs/shared-key/transfer-ownership", {{"newOwnerId", other.user_ids["admin"]}},
                           admin()),
                400, "validation_failed");
  // Deleting the other tenant's same-key hub leaves ours alone.
  EXPECT_EQ(api().Delete("/api/hubs/shared-key", o).status, 204);
  EXPECT_EQ(api().Get("/api/entries/" + id, admin()).status, 200);
}

}  // namespace
}  // namespace credence::test
