// Machine translation over real HTTP (docs/machine-translation.md): a
// server configured with the LibreTranslate and DeepL adapters pointed at a
// local stand-in that speaks their documented APIs (support/mt_standin.py,
// which records every request), and one pointed at a real Apertium APY.
#include <boost/json.hpp>

#include <algorithm>
#include <memory>

#include "support/api_fixture.h"
#include "support/kb_fixture.h"
#include "support/sinks.h"

namespace credence::test {
namespace {
namespace json = boost::json;

// A heading, a paragraph with bold and linked text, a code block, a
// paragraph starting "Warning:" (protected by a heuristic in some tests).
std::string RichDoc() {
  json::array content{
      json::object{{"type", "heading"},
                   {"attrs", {{"level", 2}}},
                   {"content", json::array{json::object{{"type", "text"}, {"text", "Open the panel"}}}}},
      json::object{
          {"type", "paragraph"},
          {"content",
           json::array{
               json::object{{"type", "text"}, {"text", "Press "}},
               json::object{{"type", "text"}, {"text", "Save"}, {"marks", json::array{json::object{{"type", "bold"}}}}},
               json::object{{"type", "text"}, {"text", " and read "}},
               json::object{{"type", "text"},
                            {"text", "the guide"},
                            {"marks", json::array{json::object{{"type", "link"},
                                                               {"attrs", {{"href", "https://example.com/g"}}}}}}},
               json::object{{"type", "text"}, {"text", "."}}}}},
      json::object{{"type", "codeBlock"},
                   {"attrs", {{"language", "bash"}}},
                   {"content", json::array{json::object{{"type", "text"}, {"text", "make install"}}}}},
      json::object{{"type", "paragraph"},
                   {"content", json::array{json::object{{"type", "text"}, {"text", "Warning: do not unplug"}}}}}};
  return json::serialize(json::object{{"type", "doc"}, {"content", content}});
}

json::array Nodes(const std::string& content) { return json::parse(content).at("content").as_array(); }

// The texts a request to the stand-in asked to translate.
std::vector<std::string> AskedTexts(const ReceivedPost& r) {
  std::vector<std::string> out;
  const auto body = r.Json().as_object();
  const json::value& list = r.path == "/translate" ? body.at("q") : body.at("text");
  if (list.is_string()) return {std::string(list.as_string())};
  for (const auto& t : list.as_array()) out.emplace_back(t.as_string());
  return out;
}

class MachineTranslation : public ApiTest {
 protected:
  static void SetUpTestSuite() {
    standin_ = std::make_unique<MtStandIn>();
    ServerOptions options = SharedServerOptions();
    options.extra_args = {"--mt-libretranslate-url", standin_->url(),  "--mt-libretranslate-key", "good-key",
                          "--mt-deepl-url",          standin_->url(),  "--mt-deepl-key",          "deepl-key",
                          "--mt-default-provider",   "libretranslate", "--mt-timeout-ms",         "1000"};
    server_ = std::make_unique<ServerProcess>(options);
  }
  static void TearDownTestSuite() {
    server_.reset();
    standin_.reset();
  }
  void SetUp() override {
    ApiTest::SetUp();
    if (IsSkipped()) return;
    client_ = std::make_unique<HttpClient>(server_->base_url());
    t_ = CreateTenant(*client_, "mt");
    MakeHub(*client_, admin(), "docs");
    auto e = client_->Post("/api/entries",
                           {{"hubKey", "docs"},
                            {"key", "rich"},
                            {"originalLanguage", "en"},
                            {"title", "Panel guide"},
                            {"content", RichDoc()}},
                           admin());
    ASSERT_EQ(e.status, 201) << e.body;
    id_ = Str(e.Json(), "id");
    original_ = Str(e.Json(), "content");
    seen_ = standin_->Requests().size();
  }
  HttpClient& c() { return *client_; }
  const std::string& admin() { return t_.tokens.at("admin"); }
  Response Auto(const std::string& lang, const std::string& provider = "") {
    json::object body{{"useAutoTranslation", true}};
    if (!provider.empty()) body["provider"] = provider;
    return c().Post("/api/entries/" + id_ + "/translations/" + lang, body, admin());
  }
  // Requests the stand-in received since the last call.
  std::vector<ReceivedPost> NewRequests() {
    auto all = standin_->Requests();
    std::vector<ReceivedPost> out(all.begin() + static_cast<std::ptrdiff_t>(seen_), all.end());
    seen_ = all.size();
    return out;
  }

  static std::unique_ptr<MtStandIn> standin_;
  static std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpClient> client_;
  TestTenant t_;
  std::string id_;
  std::string original_;
  size_t seen_ = 0;
};
std::unique_ptr<MtStandIn> MachineTranslation::standin_;
std::unique_ptr<ServerProcess> MachineTranslation::server_;

TEST_F(MachineTranslation, KeepsStructureAndMarksCopiesCodeAndMarksBlocksMachineTranslated) {
  auto r = Auto("es");
  ASSERT_EQ(r.status, 201) << r.body;
  auto body = r.Json();
  EXPECT_EQ(Str(body, "title"), "PANEL GUIDE");
  EXPECT_EQ(Str(body, "status"), "UpToDate");
  EXPECT_EQ(body.at("machineTranslatedBlockCount").as_int64(), 4);
  auto original = Nodes(original_);
  auto translated = Nodes(Str(body, "content"));
  ASSERT_EQ(translated.size(), 4u);
  // Heading: type and attrs kept, text translated.
  EXPECT_EQ(translated[0].at("attrs"), original[0].at("attrs"));
  EXPECT_EQ(translated[0].at("content").at(0).at("text"), "OPEN THE PANEL");
  // Paragraph: every text node in place with its marks, spaces between them kept.
  const auto& p = translated[1].at("content").as_array();
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].at("text"), "PRESS ");
  EXPECT_EQ(p[1].at("text"), "SAVE");
  EXPECT_EQ(p[1].at("marks"), original[1].at("content").at(1).at("marks"));
  EXPECT_EQ(p[2].at("text"), " AND READ ");
  EXPECT_EQ(p[3].at("marks"), original[1].at("content").at(3).at("marks"));
  EXPECT_EQ(p[3].at("text"), "THE GUIDE");
  // The code block is copied as it is.
  EXPECT_EQ(translated[2], original[2]);
  // One request per translated block (its text nodes batched) and the title;
  // the code block is never sent.
  auto requests = NewRequests();
  ASSERT_EQ(requests.size(), 4u);
  for (const auto& q : requests) {
    EXPECT_EQ(q.path, "/translate");
    EXPECT_EQ(Str(q.Json(), "api_key"), "good-key");
    EXPECT_EQ(Str(q.Json(), "source"), "en");
    EXPECT_EQ(Str(q.Json(), "target"), "es");
    for (const auto& text : AskedTexts(q)) EXPECT_EQ(text.find("make install"), std::string::npos);
  }
  EXPECT_EQ(AskedTexts(requests[1]).size(), 5u);  // the paragraph's five text nodes in one batch
}

TEST_F(MachineTranslation, OnlyMissingOrStaleBlocksAreSentAndAPersonsEditClearsTheFlag) {
  ASSERT_EQ(Auto("es").status, 201);
  NewRequests();
  // Nothing stale: nothing sent.
  auto again = Auto("es");
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_TRUE(NewRequests().empty());
  // Edit the heading of the original: only it is sent.
  json::value doc = json::parse(original_);
  doc.at("content").at(0).at("content").at(0).as_object()["text"] = "Close the panel";
  ASSERT_EQ(
      c().Put("/api/entries/" + id_, {{"title", "Panel guide"}, {"content", json::serialize(doc)}}, admin()).status,
      200);
  auto status = c().Get("/api/entries/" + id_ + "/translations/es/status", admin()).Json();
  EXPECT_EQ(status.at("staleBlockCount").as_int64(), 1);
  auto r = Auto("es");
  ASSERT_EQ(r.status, 201) << r.body;
  auto requests = NewRequests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(AskedTexts(requests[0]), std::vector<std::string>{"Close the panel"});
  EXPECT_EQ(Nodes(Str(r.Json(), "content"))[0].at("content").at(0).at("text"), "CLOSE THE PANEL");
  EXPECT_EQ(Str(r.Json(), "status"), "UpToDate");
  EXPECT_EQ(r.Json().at("machineTranslatedBlockCount").as_int64(), 4);
  // Confirming (mark up to date) clears the flag.
  auto marked = c().Put("/api/entries/" + id_ + "/translations/es/mark-uptodate", json::object{}, admin());
  ASSERT_EQ(marked.status, 200) << marked.body;
  EXPECT_EQ(marked.Json().at("machineTranslatedBlockCount").as_int64(), 0);
  // In another language, a person's edit of a block clears that block's
  // mark; the blocks they left as they were stay marked.
  auto de = Auto("de");
  ASSERT_EQ(de.status, 201);
  EXPECT_EQ(de.Json().at("machineTranslatedBlockCount").as_int64(), 4);
  json::value de_doc = json::parse(Str(de.Json(), "content"));
  de_doc.at("content").at(0).at("content").at(0).as_object()["text"] = "Das Feld schliessen";
  auto edited = c().Put("/api/entries/" + id_ + "?language=de",
                        {{"title", "Anleitung"}, {"content", json::serialize(de_doc)}}, admin());
  ASSERT_EQ(edited.status, 200) << edited.body;
  auto de_status = c().Get("/api/entries/" + id_ + "/translations/de/status", admin()).Json();
  EXPECT_EQ(de_status.at("machineTranslatedBlockCount").as_int64(), 3);
  EXPECT_EQ(de_status.at("staleBlockCount").as_int64(), 0);
  // The reader's view counts them as well.
  auto view = c().Get("/api/entries/" + id_ + "?language=es", admin());
  ASSERT_EQ(view.status, 200);
  EXPECT_EQ(view.Json().at("translation").at("machineTranslatedBlockCount").as_int64(), 0);
}

TEST_F(MachineTranslation, ProtectedBlocksAreCopiedAndGlossaryTermsKeptByPlaceholders) {
  auto h = c().Post("/block-type-heuristics",
                    {{"name", "Warning"},
                     {"blockClass", "warning"},
                     {"nodeTypes", json::array{"paragraph"}},
                     {"textPattern", {{"match", "Prefix"}, {"text", "warning:"}}},
                     {"translation", "Protect"}},
                    admin());
  ASSERT_EQ(h.status, 201) << h.body;
  auto g = c().Post("/admin/glossaries",
                    {{"name", "UI"},
                     {"sourceLanguage", "en"},
                     {"targetLanguage", "es"},
                     {"terms", json::array{json::object{{"source", "panel"}, {"target", "tablero"}}}}},
                    admin());
  ASSERT_EQ(g.status, 201) << g.body;
  auto r = Auto("es");
  ASSERT_EQ(r.status, 201) << r.body;
  auto nodes = Nodes(Str(r.Json(), "content"));
  EXPECT_EQ(nodes[3], Nodes(original_)[3]);  // protected: copied
  EXPECT_EQ(nodes[0].at("content").at(0).at("text"), "OPEN THE tablero");
  auto requests = NewRequests();
  ASSERT_EQ(requests.size(), 3u);  // heading, paragraph, title
  EXPECT_EQ(AskedTexts(requests[0]), std::vector<std::string>{"Open the ZXQ1"});
  // LibreTranslate stores no glossaries.
  ExpectProblem(
      c().Post("/admin/glossaries/" + Str(g.Json(), "id") + "/sync?provider=libretranslate", json::object{}, admin()),
      409, "glossary_sync_unsupported");
}

TEST_F(MachineTranslation, DeepLBatchesWithItsKeyAndUsesASyncedGlossary) {
  auto g = c().Post("/admin/glossaries",
                    {{"name", "UI"},
                     {"sourceLanguage", "en"},
                     {"targetLanguage", "es"},
                     {"terms", json::array{json::object{{"source", "panel"}, {"target", "tablero"}}}}},
                    admin());
  ASSERT_EQ(g.status, 201) << g.body;
  auto synced = c().Post("/admin/glossaries/" + Str(g.Json(), "id") + "/sync", json::object{}, admin());
  ASSERT_EQ(synced.status, 200) << synced.body;
  EXPECT_EQ(Str(synced.Json(), "provider"), "deepl");
  const std::string glossary_id = Str(synced.Json(), "providerGlossaryId");
  auto push = NewRequests();
  ASSERT_EQ(push.size(), 1u);
  EXPECT_EQ(push[0].path, "/v2/glossaries");
  EXPECT_EQ(Str(push[0].Json(), "entries"), "panel\ttablero\n");
  EXPECT_EQ(Str(push[0].Json(), "entries_format"), "tsv");
  EXPECT_EQ(Str(push[0].Json(), "source_lang"), "EN");
  EXPECT_EQ(Str(push[0].Json(), "target_lang"), "ES");

  auto r = Auto("es", "deepl");
  ASSERT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(Nodes(Str(r.Json(), "content"))[0].at("content").at(0).at("text"), "OPEN THE tablero");
  auto requests = NewRequests();
  ASSERT_EQ(requests.size(), 4u);
  for (const auto& q : requests) {
    EXPECT_EQ(q.path, "/v2/translate");
    EXPECT_EQ(q.Header("authorization"), "DeepL-Auth-Key deepl-key");
    EXPECT_EQ(Str(q.Json(), "source_lang"), "EN");
    EXPECT_EQ(Str(q.Json(), "target_lang"), "ES");
    EXPECT_EQ(Str(q.Json(), "glossary_id"), glossary_id);
  }
  EXPECT_EQ(AskedTexts(requests[0]), std::vector<std::string>{"Open the panel"});  // DeepL applies it itself
  // An editor may not push glossaries.
  EXPECT_EQ(c().Post("/admin/glossaries/" + Str(g.Json(), "id") + "/sync", json::object{}, t_.token("editor")).status,
            403);
}

// The trust plane warns about unreviewed machine translation on
// customer-facing (and unknown) channels, until a person confirms it.
TEST_F(MachineTranslation, TrustWarnsOnUnreviewedMachineTranslationForCustomerFacingChannels) {
  ASSERT_EQ(c().Post("/api/entries/" + id_ + "/publish", json::object{}, admin()).status, 200);
  auto review =
      c().Post("/api/entries/" + id_ + "/review", {{"reviewType", "FullReview"}, {"timeSpentSeconds", 60}}, admin());
  ASSERT_EQ(review.status, 200) << review.body;
  ASSERT_EQ(Auto("es").status, 201);
  auto codes = [&](const std::string& channel) {
    auto r =
        c().Post("/api/trust/evaluate",
                 {{"sources", json::array{"entry:" + id_}}, {"context", {{"channel", channel}, {"language", "es"}}}},
                 t_.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    const json::value result = r.Json();
    std::vector<std::string> out;
    for (const auto& reason : result.at("results").at(0).at("reasons").as_array()) out.push_back(Str(reason, "code"));
    return out;
  };
  EXPECT_EQ(codes("internal"), std::vector<std::string>{});
  auto outside = codes("pigeon");  // unknown: treated as customer-facing
  EXPECT_NE(std::find(outside.begin(), outside.end(), "machine_translation_unreviewed"), outside.end());
  ASSERT_EQ(c().Put("/api/entries/" + id_ + "/translations/es/mark-uptodate", json::object{}, admin()).status, 200);
  outside = codes("pigeon");
  EXPECT_EQ(std::find(outside.begin(), outside.end(), "machine_translation_unreviewed"), outside.end());
}

// Without `provider`, the provider the tenant's language configuration names
// (when configured on the server) wins over the server's default.
TEST_F(MachineTranslation, TheLanguagesConfiguredProviderIsTheDefault) {
  auto lang =
      c().Post("/admin/languages", {{"code", "fr"}, {"displayName", "Francais"}, {"provider", "deepl"}}, admin());
  ASSERT_TRUE(lang.status == 201 || lang.status == 409) << lang.body;
  if (lang.status == 409) ASSERT_EQ(c().Put("/admin/languages/fr", {{"provider", "deepl"}}, admin()).status, 200);
  ASSERT_EQ(Auto("fr").status, 201);
  auto requests = NewRequests();
  ASSERT_FALSE(requests.empty());
  for (const auto& q : requests) EXPECT_EQ(q.path, "/v2/translate");
  ASSERT_EQ(Auto("it").status, 201);  // no provider configured for it: the server's default
  for (const auto& q : NewRequests()) EXPECT_EQ(q.path, "/translate");
}

TEST_F(MachineTranslation, TheServerSaysWhetherAndWithWhichProvidersItTranslates) {
  auto r = c().Get("/api/machine-translation", t_.token("viewer"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(r.Json().at("available").as_bool());
  EXPECT_EQ(json::serialize(r.Json().at("providers")), R"(["libretranslate","deepl"])");  // the default first
  EXPECT_EQ(c().Get("/api/machine-translation", "").status, 401);
  // The shared server has no provider.
  HttpClient plain(SharedServer().base_url());
  auto other = CreateTenant(plain, "nomt");
  auto none = plain.Get("/api/machine-translation", other.token("editor"));
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_FALSE(none.Json().at("available").as_bool());
  EXPECT_TRUE(none.Json().at("providers").as_array().empty());
}

TEST_F(MachineTranslation, BadRequestsAndProviderTimeouts) {
  const std::string base = "/api/entries/" + id_ + "/translations/";
  ExpectProblem(Auto("es", "nope"), 400, "unknown_provider");
  ExpectProblem(Auto("en"), 400, "validation_failed");  // the original's language
  ExpectProblem(Auto("xx"), 400, "validation_failed");
  ExpectValidation(c().Post(base + "es", json::object{{"title", "T"}}, admin()), "content");
  EXPECT_EQ(c().Post(base + "es", json::object{{"useAutoTranslation", true}}, t_.token("viewer")).status, 404);
  // A text the stand-in answers after 3 s against a 1 s timeout.
  json::value doc = json::parse(original_);
  doc.at("content").at(0).at("content").at(0).as_object()["text"] = "SLOW heading";
  ASSERT_EQ(
      c().Put("/api/entries/" + id_, {{"title", "Panel guide"}, {"content", json::serialize(doc)}}, admin()).status,
      200);
  ExpectProblem(Auto("es"), 502, "mt_timeout");
  ExpectProblem(Auto("es", "deepl"), 502, "mt_timeout");
  // Nothing was saved.
  EXPECT_EQ(c().Get(base + "es", admin()).status, 404);
}

// Fixture for tests that start their own servers (skipped with the backend).
class MtServers : public ApiTest {};

// Keys the providers refuse, and quotas: clear 502s.
TEST_F(MtServers, AuthFailuresAndQuotasAreClearErrors) {
  MtStandIn standin;
  for (const auto& [key, lt_code, deepl_code] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"bad", "mt_auth_failed", "mt_auth_failed"}, {"quota", "mt_quota_exceeded", "mt_quota_exceeded"}}) {
    ServerOptions options = SharedServerOptions();
    options.extra_args = {"--mt-libretranslate-url", standin.url(), "--mt-libretranslate-key", key,
                          "--mt-deepl-url",          standin.url(), "--mt-deepl-key",          key};
    ServerProcess server(options);
    HttpClient client(server.base_url());
    auto t = CreateTenant(client, "mt-err");
    MakeHub(client, t.token("admin"), "docs");
    auto e = MakeEntry(client, t.token("admin"), "docs", "e", {"Hello"});
    const std::string path = "/api/entries/" + Str(e, "id") + "/translations/es";
    ExpectProblem(client.Post(path, {{"useAutoTranslation", true}, {"provider", "libretranslate"}}, t.token("admin")),
                  502, lt_code);
    ExpectProblem(client.Post(path, {{"useAutoTranslation", true}, {"provider", "deepl"}}, t.token("admin")), 502,
                  deepl_code);
  }
  auto statuses = standin.Requests();
  ASSERT_EQ(statuses.size(), 4u);
  EXPECT_EQ(statuses[0].status, 403);
  EXPECT_EQ(statuses[3].status, 456);
}

// A real Apertium APY server with the eng-spa pair, on loopback.
TEST_F(MtServers, ApertiumTranslatesEnglishToSpanishKeepingStructure) {
  ApertiumServer apy;
  if (apy.port() == 0) GTEST_SKIP() << "Apertium not available: " << apy.missing();
  ServerOptions options = SharedServerOptions();
  options.extra_args = {"--mt-apertium-url", apy.url()};
  ServerProcess server(options);
  HttpClient client(server.base_url());
  auto t = CreateTenant(client, "mt-apy");
  MakeHub(client, t.token("admin"), "docs");
  auto e = client.Post("/api/entries",
                       {{"hubKey", "docs"},
                        {"key", "rich"},
                        {"originalLanguage", "en"},
                        {"title", "Hello world"},
                        {"content", RichDoc()}},
                       t.token("admin"));
  ASSERT_EQ(e.status, 201) << e.body;
  const std::string original = Str(e.Json(), "content");
  auto r = client.Post("/api/entries/" + Str(e.Json(), "id") + "/translations/es", {{"useAutoTranslation", true}},
                       t.token("admin"));
  ASSERT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(Str(r.Json(), "title"), "Hola Mundo");
  auto nodes = Nodes(Str(r.Json(), "content"));
  auto before = Nodes(original);
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_NE(nodes[0].at("content").at(0).at("text"), before[0].at("content").at(0).at("text"));
  EXPECT_EQ(nodes[0].at("attrs"), before[0].at("attrs"));
  EXPECT_EQ(nodes[1].at("content").as_array().size(), 5u);
  EXPECT_EQ(nodes[1].at("content").at(1).at("marks"), before[1].at("content").at(1).at("marks"));
  EXPECT_EQ(nodes[1].at("content").at(3).at("marks"), before[1].at("content").at(3).at("marks"));
  EXPECT_EQ(nodes[2], before[2]);  // code copied
  EXPECT_EQ(r.Json().at("machineTranslatedBlockCount").as_int64(), 4);
}

}  // namespace
}  // namespace credence::test
