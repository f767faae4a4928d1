// The access matrix: every route of the knowledge base's Hubs, Entries,
// Translations, memberships/permissions and Groups tables, called by every
// kind of caller, each cell asserting one status. Rows are (method, path,
// body); columns are callers:
//
//   admin   TenantRole Owner: a global admin (Admin on every hub and entry)
//   editor  Member; Editor of hub A through the group `writers`; a direct
//           Admin of hub B; owner of one entry in A
//   viewer  Member; Viewer of hub A; nothing on hub B except an entry-level
//           Viewer permission on one entry of B
//   guest   Guest; Viewer of hub A (direct membership)
//   other   the admin of ANOTHER tenant: tenant resources are always 404
//   anon    no token: 401
//
// (Machine credentials do not exist yet: no column.)
//
// The rule under test (shared/spec/decisions.md 3, docs/decisions.md
// "Hub memberships and entry permissions", docs/knowledge-base.md "Access"):
// a caller who cannot view the hub or entry gets 404, never 403; one who can
// view it but lacks the level gets 403; one who has it gets the success
// status. Bodies are valid, so a status reflects access only. Destructive or
// non-idempotent rows build a fresh resource for every cell (with the same
// memberships as the fixture's hubs), so cells do not interfere.
//
// Set CREDENCE_MATRIX_PRINT=1 to print each table as it ran.
#include <boost/json/serialize.hpp>

#include <array>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

enum Caller { kAdmin, kEditor, kViewer, kGuest, kOther, kAnon, kCallerCount };
constexpr std::array<const char*, kCallerCount> kCallerNames = {"admin", "editor", "viewer",
                                                                 "guest", "other-tenant", "no-token"};

using Expect = std::array<int, kCallerCount>;  // admin, editor, viewer, guest, other, anon

// What one cell sends.
struct Request {
  std::string path;
  std::optional<json::value> body;  // nullopt: no body
};

struct Row {
  std::string method;
  std::string label;                       // the path with named placeholders, for messages and the table
  std::function<Request(Caller)> make;     // called once per cell
  Expect expect;
  bool fresh = false;                      // builds its own resource per cell
  std::string bug;                         // non-empty: a cell contradicts the spec/docs (see // BUG:)
};

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// The problem code a status must carry (decisions.md, "Codes used by the foundation").
const char* CodeFor(int status) {
  switch (status) {
    case 401: return "missing_credentials";
    case 403: return "forbidden";
    case 404: return "not_found";
    case 400: return "validation_failed";
    default: return nullptr;
  }
}

// A setup request must succeed; throws (failing the test) with the answer otherwise.
json::value Must(const Response& r, int status, const std::string& what) {
  if (r.status != status)
    throw std::runtime_error("setup failed: " + what + ": expected " + std::to_string(status) + " got " +
                             std::to_string(r.status) + ": " + r.body);
  return r.body.empty() ? json::value() : r.Json();
}

struct HubRef {
  std::string id;
  std::string key;
  std::map<std::string, std::string> memberships;  // persona or group name -> membership id
};

struct EntryRef {
  std::string id;
  std::string title;
  std::string content;  // with the server-assigned block ids
  std::vector<std::string> blocks;
  std::map<std::string, std::string> permissions;  // persona -> permission id
};

class AccessMatrix : public ApiTest {
 protected:
  void SetUp() override {
    ApiTest::SetUp();
    if (IsSkipped()) return;
    t_ = CreateTenant(api(), "acl");
    other_ = CreateTenant(api(), "acl-other");
    tokens_ = {t_.token("admin"), t_.token("editor"), t_.token("viewer"), t_.token("guest"), other_.token("admin"), ""};

    writers_ = MakeGroup("writers");
    Must(api().Post("/api/groups/" + writers_ + "/members", {{"userId", uid("editor")}}, admin()), 201,
         "add editor to writers");
    readers_ = MakeGroup("readers");  // empty; granted by the group rows

    hub_a_ = BuildHubA("acl");
    hub_b_ = BuildHubB("acl-admin");
    e_admin_ = BuildEntry(hub_a_, "admin", "by-admin", /*viewer_permission=*/false, /*translation=*/true);
    e_editor_ = BuildEntry(hub_a_, "editor", "by-editor", false, true);
    e_b_ = BuildEntry(hub_b_, "admin", "shared-with-viewer", /*viewer_permission=*/true, true);
    // Root entries (their own, so that no other row's entry is a root).
    const EntryRef home_a = BuildEntry(hub_a_, "admin", "home", false, false);
    home_b_ = BuildEntry(hub_b_, "admin", "home", false, false);
    Must(api().Put("/api/entries/" + home_a.id + "/set-root", json::object{}, admin()), 200, "root of A");
    Must(api().Put("/api/entries/" + home_b_.id + "/set-root", json::object{}, admin()), 200, "root of B");
  }

  const std::string& admin() const { return t_.tokens.at("admin"); }
  const std::string& uid(const std::string& persona) const { return t_.user_ids.at(persona); }
  std::string Unique(const std::string& prefix) { return prefix + "-" + std::to_string(++counter_); }

  std::string MakeGroup(const std::string& name) {
    return Str(Must(api().Post("/api/groups", {{"name", name}}, admin()), 201, "group " + name), "id");
  }

  std::string AddHubUser(const HubRef& hub, const std::string& persona, const char* role) {
    return Str(Must(api().Post("/api/hubs/" + hub.id + "/memberships/users",
                               {{"targetUserId", uid(persona)}, {"role", role}}, admin()),
                    201, "hub membership of " + persona),
               "id");
  }

  // Hub A: `writers` (editor) Editor, viewer Viewer, guest Viewer.
  HubRef BuildHubA(const std::string& key) {
    HubRef hub{Str(MakeHub(api(), admin(), key), "id"), key, {}};
    hub.memberships["writers"] =
        Str(Must(api().Post("/api/hubs/" + hub.id + "/memberships/groups", {{"groupId", writers_}, {"role", "Editor"}},
                            admin()),
                 201, "writers on " + key),
            "id");
    hub.memberships["viewer"] = AddHubUser(hub, "viewer", "Viewer");
    hub.memberships["guest"] = AddHubUser(hub, "guest", "Viewer");
    return hub;
  }

  // Hub B: editor Admin; nobody else (the viewer only gets entry permissions).
  HubRef BuildHubB(const std::string& key) {
    HubRef hub{Str(MakeHub(api(), admin(), key), "id"), key, {}};
    hub.memberships["editor"] = AddHubUser(hub, "editor", "Admin");
    return hub;
  }

  EntryRef BuildEntry(const HubRef& hub, const std::string& owner, const std::string& key, bool viewer_permission,
                      bool translation) {
    const auto e = MakeEntry(api(), t_.token(owner), hub.key, key, {"Matrix first paragraph", "Matrix second"});
    EntryRef ref{Str(e, "id"), Str(e, "title"), Str(e, "content"), BlockIds(Str(e, "content")), {}};
    if (viewer_permission) ref.permissions["viewer"] = Grant(ref, "viewer", "Viewer");
    if (translation)
      Must(api().Post("/api/entries/" + ref.id + "/translations/es",
                      {{"title", "Entrada"}, {"content", Doc({"Primer párrafo"}, {ref.blocks[0]})}}, admin()),
           201, "translation of " + key);
    return ref;
  }

  std::string Grant(const EntryRef& entry, const std::string& persona, const char* role) {
    return Str(Must(api().Post("/api/entries/" + entry.id + "/permissions/users",
                               {{"targetUserId", uid(persona)}, {"role", role}}, admin()),
                    201, "entry permission of " + persona),
               "id");
  }

  // Fresh resources for destructive cells, shaped like the fixture's.
  HubRef FreshHubA() { return BuildHubA(Unique("fresh-a")); }
  HubRef FreshHubB() { return BuildHubB(Unique("fresh-b")); }
  EntryRef FreshEntryA(const std::string& owner = "admin", bool translation = false) {
    return BuildEntry(hub_a_, owner, Unique("fresh"), false, translation);
  }
  EntryRef FreshEntryB(bool translation = false) { return BuildEntry(hub_b_, "admin", Unique("fresh"), true, translation); }

  static Row Shared(std::string method, std::string label, std::string path, std::optional<json::value> body,
                    Expect expect) {
    return Row{std::move(method), std::move(label),
               [path = std::move(path), body = std::move(body)](Caller) { return Request{path, body}; }, expect};
  }
  static Row Fresh(std::string method, std::string label, std::function<Request(Caller)> make, Expect expect) {
    Row row{std::move(method), std::move(label), std::move(make), expect};
    row.fresh = true;
    return row;
  }

  void Run(const std::string& table, const std::vector<Row>& rows) {
    std::ostringstream printed;
    printed << "\n== " << table << " ==\n| method | path | admin | editor | viewer | guest | other | anon |\n";
    for (const Row& row : rows) {
      printed << "| " << row.method << " | " << row.label << (row.fresh ? " (fresh)" : "") << " |";
      for (int c = 0; c < kCallerCount; ++c) {
        const auto caller = static_cast<Caller>(c);
        Request req;
        try {
          req = row.make(caller);
        } catch (const std::exception& e) {
          ADD_FAILURE() << kCallerNames[c] << " " << row.method << " " << row.label << ": " << e.what();
          printed << " ERR |";
          continue;
        }
        const Response r =
            api().Send(row.method, req.path, req.body ? json::serialize(*req.body) : std::string(), tokens_[c]);
        const int want = row.expect[c];
        EXPECT_EQ(r.status, want) << kCallerNames[c] << " " << row.method << " " << req.path << ": expected " << want
                                  << " got " << r.status << ": " << r.body
                                  << (row.bug.empty() ? "" : "\n  (known BUG: " + row.bug + ")");
        if (r.status == want) {
          if (const char* code = CodeFor(want)) {
            std::string got;
            try {
              got = Str(r.Json(), "code");
            } catch (const std::exception&) {
            }
            EXPECT_EQ(got, code) << kCallerNames[c] << " " << row.method << " " << req.path << ": status " << want
                                 << " with code '" << got << "', expected '" << code << "': " << r.body;
          }
        }
        printed << " " << r.status << (r.status == want ? "" : "(!" + std::to_string(want) + ")") << " |";
      }
      printed << "\n";
    }
    if (std::getenv("CREDENCE_MATRIX_PRINT")) std::cout << printed.str() << std::flush;
  }

  TestTenant t_;
  TestTenant other_;
  std::array<std::string, kCallerCount> tokens_;
  std::string writers_, readers_;
  HubRef hub_a_, hub_b_;
  EntryRef e_admin_, e_editor_, e_b_, home_b_;
  int counter_ = 0;
};

// Column order in every Expect: admin, editor, viewer, guest, other, anon.

TEST_F(AccessMatrix, Hubs) {
  const std::string a = "/api/hubs/" + hub_a_.key, b = "/api/hubs/" + hub_b_.key;
  const json::object update{{"name", "Hub renamed"}, {"defaultExpiryDays", 90}};
  const json::object to_viewer{{"newOwnerId", uid("viewer")}};
  Run("Hubs",
      {
          // Authenticated: other tenants list their own hubs.
          Shared("GET", "/api/hubs", "/api/hubs", std::nullopt, {200, 200, 200, 200, 200, 401}),
          // Hub Viewer+.
          Shared("GET", "/api/hubs/{A}", a, std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/hubs/{B}", b, std::nullopt, {200, 200, 404, 404, 404, 401}),
          // Authenticated in the spec; a hub the caller cannot view is 404
          // (decisions.md 3: its existence is not revealed).
          Shared("GET", "/api/hubs/{A}/permissions", a + "/permissions", std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/hubs/{B}/permissions", b + "/permissions", std::nullopt, {200, 200, 404, 404, 404, 401}),
          // Global Admin (the other tenant's admin creates in its own tenant).
          Fresh("POST", "/api/hubs",
                [this](Caller) {
                  return Request{"/api/hubs", json::object{{"key", Unique("new-hub")},
                                                           {"name", "New hub"},
                                                           {"defaultExpiryDays", 30}}};
                },
                {201, 403, 403, 403, 201, 401}),
          // Hub Admin (same values: idempotent).
          Shared("PUT", "/api/hubs/{A}", a, update, {200, 403, 403, 403, 404, 401}),
          Shared("PUT", "/api/hubs/{B}", b, update, {200, 200, 404, 404, 404, 401}),
          // Owner Only (the owner or a global admin); a hub Admin who is not the owner: 403.
          Fresh("DELETE", "/api/hubs/{fresh A}",
                [this](Caller) { return Request{"/api/hubs/" + FreshHubA().key, std::nullopt}; },
                {204, 403, 403, 403, 404, 401}),
          Fresh("DELETE", "/api/hubs/{fresh B}",
                [this](Caller) { return Request{"/api/hubs/" + FreshHubB().key, std::nullopt}; },
                {204, 403, 404, 404, 404, 401}),
          Fresh("DELETE", "/api/hubs/{fresh B owned by editor}",
                [this](Caller) {
                  const HubRef hub = FreshHubB();
                  Must(api().Post("/api/hubs/" + hub.key + "/transfer-ownership", {{"newOwnerId", uid("editor")}},
                                  admin()),
                       200, "hand the hub to the editor");
                  return Request{"/api/hubs/" + hub.key, std::nullopt};
                },
                {204, 204, 404, 404, 404, 401}),
          // Hub Admin.
          Fresh("POST", "/api/hubs/{fresh A}/transfer-ownership",
                [this, to_viewer](Caller) {
                  return Request{"/api/hubs/" + FreshHubA().key + "/transfer-ownership", to_viewer};
                },
                {200, 403, 403, 403, 404, 401}),
          Fresh("POST", "/api/hubs/{fresh B}/transfer-ownership",
                [this, to_viewer](Caller) {
                  return Request{"/api/hubs/" + FreshHubB().key + "/transfer-ownership", to_viewer};
                },
                {200, 200, 404, 404, 404, 401}),
      });
}

TEST_F(AccessMatrix, Entries) {
  const std::string ea = "/api/entries/" + e_admin_.id, ee = "/api/entries/" + e_editor_.id,
                    eb = "/api/entries/" + e_b_.id;
  auto same = [](const EntryRef& e) { return json::object{{"title", e.title}, {"content", e.content}}; };
  auto new_entry = [this](const std::string& hub_key) {
    return [this, hub_key](Caller) {
      return Request{"/api/entries", json::object{{"hubKey", hub_key},
                                                  {"key", Unique("new-entry")},
                                                  {"originalLanguage", "en"},
                                                  {"title", "New entry"},
                                                  {"content", Doc({"New entry text"})}}};
    };
  };
  const json::object to_viewer{{"newOwnerId", uid("viewer")}};
  const json::object to_german{{"languageCode", "de"}};
  Run("Entries",
      {
          // Hub Viewer+ (an entry permission opens the entry only, not its hub).
          Shared("GET", "/api/entries/hubs/{A}", "/api/entries/hubs/" + hub_a_.key, std::nullopt,
                 {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/hubs/{B}", "/api/entries/hubs/" + hub_b_.key, std::nullopt,
                 {200, 200, 404, 404, 404, 401}),
          Shared("GET", "/api/entries/hubs/{A}/root-entry", "/api/entries/hubs/" + hub_a_.key + "/root-entry",
                 std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/hubs/{B}/root-entry", "/api/entries/hubs/" + hub_b_.key + "/root-entry",
                 std::nullopt, {200, 200, 404, 404, 404, 401}),
          // Entry Viewer+.
          Shared("GET", "/api/entries/{A admin's}", ea, std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{A admin's}?language=es", ea + "?language=es", std::nullopt,
                 {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{A editor's}", ee, std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{B, viewer permitted}", eb, std::nullopt, {200, 200, 200, 404, 404, 401}),
          // The permission opens that entry only: B's other entries stay 404.
          Shared("GET", "/api/entries/{B, not permitted}", "/api/entries/" + home_b_.id, std::nullopt,
                 {200, 200, 404, 404, 404, 401}),
          // Authenticated in the spec; docs/knowledge-base.md: creating needs
          // Hub Editor+, and a hub the caller cannot see is a 400 on hubKey
          // (the hub is named in the body, like any unknown key).
          Fresh("POST", "/api/entries {hubKey: A}", new_entry(hub_a_.key), {201, 201, 403, 403, 400, 401}),
          Fresh("POST", "/api/entries {hubKey: B}", new_entry(hub_b_.key), {201, 201, 400, 400, 400, 401}),
          // Entry Editor+ (same title and content: idempotent).
          Shared("PUT", "/api/entries/{A admin's}", ea, same(e_admin_), {200, 200, 403, 403, 404, 401}),
          Shared("PUT", "/api/entries/{A editor's}", ee, same(e_editor_), {200, 200, 403, 403, 404, 401}),
          Shared("PUT", "/api/entries/{B, viewer permitted}", eb, same(e_b_), {200, 200, 403, 404, 404, 401}),
          // Owner Only: for entries the entry's owner only, not a global admin.
          Fresh("DELETE", "/api/entries/{fresh A, admin's}",
                [this](Caller) { return Request{"/api/entries/" + FreshEntryA("admin").id, std::nullopt}; },
                {204, 403, 403, 403, 404, 401}),
          Fresh("DELETE", "/api/entries/{fresh A, editor's}",
                [this](Caller) { return Request{"/api/entries/" + FreshEntryA("editor").id, std::nullopt}; },
                {403, 204, 403, 403, 404, 401}),
          Fresh("DELETE", "/api/entries/{fresh B, admin's, viewer permitted}",
                [this](Caller) { return Request{"/api/entries/" + FreshEntryB().id, std::nullopt}; },
                {204, 403, 403, 404, 404, 401}),
          // Authenticated (results are filtered; the other tenant gets its own).
          Shared("GET", "/api/entries/search?q=matrix", "/api/entries/search?q=matrix", std::nullopt,
                 {200, 200, 200, 200, 200, 401}),
          Shared("GET", "/api/entries/expired", "/api/entries/expired", std::nullopt, {200, 200, 200, 200, 200, 401}),
          // Entry Editor+ (publishing twice is fine).
          Shared("POST", "/api/entries/{A admin's}/publish", ea + "/publish", std::nullopt,
                 {200, 200, 403, 403, 404, 401}),
          Shared("POST", "/api/entries/{B, viewer permitted}/publish", eb + "/publish", std::nullopt,
                 {200, 200, 403, 404, 404, 401}),
          Fresh("POST", "/api/entries/{fresh A}/transfer-ownership",
                [this, to_viewer](Caller) {
                  return Request{"/api/entries/" + FreshEntryA().id + "/transfer-ownership", to_viewer};
                },
                {200, 200, 403, 403, 404, 401}),
          Fresh("POST", "/api/entries/{fresh B}/transfer-ownership",
                [this, to_viewer](Caller) {
                  return Request{"/api/entries/" + FreshEntryB().id + "/transfer-ownership", to_viewer};
                },
                {200, 200, 403, 404, 404, 401}),
          Fresh("PATCH", "/api/entries/{fresh A}/original-language",
                [this, to_german](Caller) {
                  return Request{"/api/entries/" + FreshEntryA().id + "/original-language", to_german};
                },
                {200, 200, 403, 403, 404, 401}),
          Fresh("PATCH", "/api/entries/{fresh B}/original-language",
                [this, to_german](Caller) {
                  return Request{"/api/entries/" + FreshEntryB().id + "/original-language", to_german};
                },
                {200, 200, 403, 404, 404, 401}),
          // set-root replaces the hub's root: a fresh hub (and entry) per cell.
          Fresh("PUT", "/api/entries/{fresh entry in fresh A}/set-root",
                [this](Caller) {
                  const HubRef hub = FreshHubA();
                  return Request{"/api/entries/" + BuildEntry(hub, "admin", "page", false, false).id + "/set-root",
                                 std::nullopt};
                },
                {200, 200, 403, 403, 404, 401}),
          Fresh("PUT", "/api/entries/{fresh entry in fresh B, viewer permitted}/set-root",
                [this](Caller) {
                  const HubRef hub = FreshHubB();
                  return Request{"/api/entries/" + BuildEntry(hub, "admin", "page", true, false).id + "/set-root",
                                 std::nullopt};
                },
                {200, 200, 403, 404, 404, 401}),
      });
}

TEST_F(AccessMatrix, Translations) {
  const std::string ta = "/api/entries/" + e_admin_.id + "/translations",
                    tb = "/api/entries/" + e_b_.id + "/translations";
  auto create = [this](bool in_b) {
    return [this, in_b](Caller) {
      const EntryRef e = in_b ? FreshEntryB() : FreshEntryA();
      return Request{"/api/entries/" + e.id + "/translations/de",
                     json::object{{"title", "Eintrag"}, {"content", Doc({"Erster Absatz"}, {e.blocks[0]})}}};
    };
  };
  auto remove = [this](bool in_b) {
    return [this, in_b](Caller) {
      const EntryRef e = in_b ? FreshEntryB(true) : FreshEntryA("admin", true);
      return Request{"/api/entries/" + e.id + "/translations/es", std::nullopt};
    };
  };
  Run("Translations",
      {
          // Entry Viewer+.
          Shared("GET", "/api/entries/{A}/translations", ta, std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{B}/translations", tb, std::nullopt, {200, 200, 200, 404, 404, 401}),
          Shared("GET", "/api/entries/{A}/translations/es", ta + "/es", std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{B}/translations/es", tb + "/es", std::nullopt, {200, 200, 200, 404, 404, 401}),
          Shared("GET", "/api/entries/{A}/translations/es/status", ta + "/es/status", std::nullopt,
                 {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{B}/translations/es/status", tb + "/es/status", std::nullopt,
                 {200, 200, 200, 404, 404, 401}),
          Shared("GET", "/api/entries/{A}/translations/es/stale-blocks", ta + "/es/stale-blocks", std::nullopt,
                 {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{B}/translations/es/stale-blocks", tb + "/es/stale-blocks", std::nullopt,
                 {200, 200, 200, 404, 404, 401}),
          // Entry Editor+.
          Fresh("POST", "/api/entries/{fresh A}/translations/de", create(false), {201, 201, 403, 403, 404, 401}),
          Fresh("POST", "/api/entries/{fresh B}/translations/de", create(true), {201, 201, 403, 404, 404, 401}),
          Shared("PUT", "/api/entries/{A}/translations/es/mark-uptodate", ta + "/es/mark-uptodate", std::nullopt,
                 {200, 200, 403, 403, 404, 401}),
          Shared("PUT", "/api/entries/{B}/translations/es/mark-uptodate", tb + "/es/mark-uptodate", std::nullopt,
                 {200, 200, 403, 404, 404, 401}),
          Fresh("DELETE", "/api/entries/{fresh A}/translations/es", remove(false), {204, 204, 403, 403, 404, 401}),
          Fresh("DELETE", "/api/entries/{fresh B}/translations/es", remove(true), {204, 204, 403, 404, 404, 401}),
      });
}

TEST_F(AccessMatrix, MembershipsAndPermissions) {
  const std::string ma = "/api/hubs/" + hub_a_.id + "/memberships", mb = "/api/hubs/" + hub_b_.id + "/memberships";
  auto fresh_hub = [this](bool b) { return b ? FreshHubB() : FreshHubA(); };
  auto add_user = [this, fresh_hub](bool b) {
    return [this, fresh_hub, b](Caller) {
      return Request{"/api/hubs/" + fresh_hub(b).id + "/memberships/users",
                     json::object{{"targetUserId", uid("admin")}, {"role", "Viewer"}}};
    };
  };
  auto add_group = [this, fresh_hub](bool b) {
    return [this, fresh_hub, b](Caller) {
      return Request{"/api/hubs/" + fresh_hub(b).id + "/memberships/groups",
                     json::object{{"groupId", readers_}, {"role", "Viewer"}}};
    };
  };
  auto remove_membership = [this, fresh_hub](bool b) {
    return [this, fresh_hub, b](Caller) {
      const HubRef hub = fresh_hub(b);
      // An extra membership to remove (the admin's: it changes nobody's access).
      return Request{"/api/hubs/" + hub.id + "/memberships/" + AddHubUser(hub, "admin", "Viewer"), std::nullopt};
    };
  };
  auto fresh_entry = [this](bool b) { return b ? FreshEntryB() : FreshEntryA(); };
  auto grant_user = [this, fresh_entry](bool b) {
    return [this, fresh_entry, b](Caller) {
      return Request{"/api/entries/" + fresh_entry(b).id + "/permissions/users",
                     json::object{{"targetUserId", uid("admin")}, {"role", "Viewer"}}};
    };
  };
  auto grant_group = [this, fresh_entry](bool b) {
    return [this, fresh_entry, b](Caller) {
      return Request{"/api/entries/" + fresh_entry(b).id + "/permissions/groups",
                     json::object{{"groupId", readers_}, {"role", "Viewer"}}};
    };
  };
  auto revoke = [this, fresh_entry](bool b) {
    return [this, fresh_entry, b](Caller) {
      const EntryRef e = fresh_entry(b);
      return Request{"/api/entries/" + e.id + "/permissions/" + Grant(e, "admin", "Viewer"), std::nullopt};
    };
  };
  Run("Hub memberships and entry permissions",
      {
          // Hub Viewer+.
          Shared("GET", "/api/hubs/{A id}/memberships", ma, std::nullopt, {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/hubs/{B id}/memberships", mb, std::nullopt, {200, 200, 404, 404, 404, 401}),
          // Hub Admin.
          Fresh("POST", "/api/hubs/{fresh A}/memberships/users", add_user(false), {201, 403, 403, 403, 404, 401}),
          Fresh("POST", "/api/hubs/{fresh B}/memberships/users", add_user(true), {201, 201, 404, 404, 404, 401}),
          Fresh("POST", "/api/hubs/{fresh A}/memberships/groups", add_group(false), {201, 403, 403, 403, 404, 401}),
          Fresh("POST", "/api/hubs/{fresh B}/memberships/groups", add_group(true), {201, 201, 404, 404, 404, 401}),
          // Same role as it has: idempotent.
          Shared("PUT", "/api/hubs/{A id}/memberships/{guest's}/role",
                 ma + "/" + hub_a_.memberships.at("guest") + "/role", json::object{{"role", "Viewer"}},
                 {200, 403, 403, 403, 404, 401}),
          Shared("PUT", "/api/hubs/{B id}/memberships/{editor's}/role",
                 mb + "/" + hub_b_.memberships.at("editor") + "/role", json::object{{"role", "Admin"}},
                 {200, 200, 404, 404, 404, 401}),
          Fresh("DELETE", "/api/hubs/{fresh A}/memberships/{id}", remove_membership(false),
                {204, 403, 403, 403, 404, 401}),
          Fresh("DELETE", "/api/hubs/{fresh B}/memberships/{id}", remove_membership(true),
                {204, 204, 404, 404, 404, 401}),
          // Entry Viewer+.
          Shared("GET", "/api/entries/{A}/permissions", "/api/entries/" + e_admin_.id + "/permissions", std::nullopt,
                 {200, 200, 200, 200, 404, 401}),
          Shared("GET", "/api/entries/{B, viewer permitted}/permissions", "/api/entries/" + e_b_.id + "/permissions",
                 std::nullopt, {200, 200, 200, 404, 404, 401}),
          // Entry Editor+.
          Fresh("POST", "/api/entries/{fresh A}/permissions/users", grant_user(false), {201, 201, 403, 403, 404, 401}),
          Fresh("POST", "/api/entries/{fresh B}/permissions/users", grant_user(true), {201, 201, 403, 404, 404, 401}),
          Fresh("POST", "/api/entries/{fresh A}/permissions/groups", grant_group(false),
                {201, 201, 403, 403, 404, 401}),
          Fresh("POST", "/api/entries/{fresh B}/permissions/groups", grant_group(true),
                {201, 201, 403, 404, 404, 401}),
          Fresh("DELETE", "/api/entries/{fresh A}/permissions/{id}", revoke(false), {204, 204, 403, 403, 404, 401}),
          Fresh("DELETE", "/api/entries/{fresh B}/permissions/{id}", revoke(true), {204, 204, 403, 404, 404, 401}),
      });
}

TEST_F(AccessMatrix, GroupsAndUsers) {
  auto fresh_group = [this](bool with_viewer) {
    const std::string id = MakeGroup(Unique("fresh-group"));
    if (with_viewer)
      Must(api().Post("/api/groups/" + id + "/members", {{"userId", uid("viewer")}}, admin()), 201, "group member");
    return id;
  };
  Run("Groups and users",
      {
          // Authenticated (the other tenant lists its own groups).
          Shared("GET", "/api/groups", "/api/groups", std::nullopt, {200, 200, 200, 200, 200, 401}),
          // Global Admin.
          Fresh("POST", "/api/groups",
                [this](Caller) { return Request{"/api/groups", json::object{{"name", Unique("new-group")}}}; },
                {201, 403, 403, 403, 201, 401}),
          // Authenticated; another tenant's group is 404.
          Shared("GET", "/api/groups/{writers}/members", "/api/groups/" + writers_ + "/members", std::nullopt,
                 {200, 200, 200, 200, 404, 401}),
          // Global Admin.
          Fresh("POST", "/api/groups/{fresh}/members",
                [this, fresh_group](Caller) {
                  return Request{"/api/groups/" + fresh_group(false) + "/members",
                                 json::object{{"userId", uid("viewer")}}};
                },
                {201, 403, 403, 403, 404, 401}),
          Fresh("DELETE", "/api/groups/{fresh}/members/{viewer}",
                [this, fresh_group](Caller) {
                  return Request{"/api/groups/" + fresh_group(true) + "/members/" + uid("viewer"), std::nullopt};
                },
                {204, 403, 403, 403, 404, 401}),
          // Authenticated: about the caller, in the caller's own tenant.
          Shared("GET", "/api/users/me", "/api/users/me", std::nullopt, {200, 200, 200, 200, 200, 401}),
          Shared("GET", "/api/users", "/api/users", std::nullopt, {200, 200, 200, 200, 200, 401}),
          Shared("PUT", "/api/users/me/preferred-language", "/api/users/me/preferred-language",
                 json::object{{"languageCode", "es"}}, {200, 200, 200, 200, 200, 401}),
          Shared("DELETE", "/api/users/me/preferred-language", "/api/users/me/preferred-language", std::nullopt,
                 {204, 204, 204, 204, 204, 401}),
      });
}

}  // namespace
}  // namespace credence::test
