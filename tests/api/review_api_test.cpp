// Reviews, review history, renewal eligibility, renewals (PUT, POST and
// bulk), pausing and resuming expiry, over real HTTP with the server's test
// clock: what renews and what is only recorded, the checklist rules, the
// blockers, who may do what, isolation between tenants, and bad input.
// Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <cctype>
#include <string>
#include <vector>

#include "core/clock.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

// Every test starts its clock here, so expiry dates are exact.
constexpr char kT0[] = "2031-03-01T00:00:00.000Z";

// `iso` moved by `days`, formatted as the server formats timestamps.
std::string Plus(const std::string& iso, double days) {
  return FormatTimestamp(*ParseTimestamp(iso) + static_cast<TimeMs>(days * static_cast<double>(kMsPerDay)));
}

json::object QuickReview() { return {{"reviewType", "QuickReview"}, {"timeSpentSeconds", 60}}; }

json::object ReviewOf(const std::string& type, const std::string& checklist_json = "") {
  json::object body{{"reviewType", type}, {"timeSpentSeconds", 300}};
  if (!checklist_json.empty()) body["checklistJson"] = checklist_json;
  return body;
}

// A tenant whose hub gives its Members (editor, viewer) the Viewer role and
// the editor Editor through a hub membership; the guest sees nothing.
struct World {
  TestTenant t;
  std::string hub_key;
  std::string hub_id;
  const std::string& admin() const { return t.token("admin"); }
  const std::string& editor() const { return t.token("editor"); }
  const std::string& viewer() const { return t.token("viewer"); }
  const std::string& guest() const { return t.token("guest"); }
};

class Reviews : public ClockedApiTest {
 protected:
  World MakeWorld(const std::string& prefix) {
    SetServerTime(api(), kT0);
    World w{CreateTenant(api(), prefix), "rev-hub", ""};
    w.hub_id = Str(MakeHub(api(), w.admin(), w.hub_key, "Viewer"), "id");
    auto m = api().Post("/api/hubs/" + w.hub_id + "/memberships/users",
                        {{"targetUserId", w.t.user_ids.at("editor")}, {"role", "Editor"}}, w.admin());
    EXPECT_EQ(m.status, 201) << m.body;
    return w;
  }

  // A published entry (unless `publish` is false) expiring in `days`.
  std::string MakeEntryExpiring(const World& w, const std::string& key, int64_t days, bool publish = true,
                                const std::string& hub_key = "") {
    auto r = api().Post("/api/entries",
                        {{"hubKey", hub_key.empty() ? w.hub_key : hub_key},
                         {"key", key},
                         {"originalLanguage", "en"},
                         {"title", "Entry " + key},
                         {"content", Doc({"Text"})},
                         {"expiryDays", days}},
                        w.admin());
    EXPECT_EQ(r.status, 201) << r.body;
    const std::string id = Str(r.Json(), "id");
    if (publish) {
      EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, w.admin()).status, 200);
    }
    return id;
  }

  std::string MakeTemplate(const World& w, json::object body) {
    auto r = api().Post("/api/expiry-templates", body, w.admin());
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }

  // A checklist of (text, required) items; its JSON (with the item ids).
  json::value MakeChecklist(const World& w, const std::vector<std::pair<std::string, bool>>& items) {
    json::array a;
    for (const auto& [text, required] : items) a.push_back(json::object{{"text", text}, {"required", required}});
    auto r = api().Post("/api/review-checklists", {{"name", "Checklist"}, {"items", std::move(a)}}, w.admin());
    EXPECT_EQ(r.status, 201) << r.body;
    return r.Json();
  }

  void UseTemplate(const World& w, const std::string& entry, const std::string& tpl) {
    auto r = api().Post("/api/entries/" + entry + "/change-template", {{"templateId", tpl}}, w.admin());
    EXPECT_EQ(r.status, 200) << r.body;
  }

  json::value ExpiryStatus(const World& w, const std::string& entry) {
    auto r = api().Get("/api/entries/" + entry + "/expiry-status", w.viewer());
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json();
  }

  json::value Eligibility(const std::string& token, const std::string& entry) {
    auto r = api().Get("/api/entries/" + entry + "/renewal-eligibility", token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json();
  }

  std::vector<std::string> Blockers(const std::string& token, const std::string& entry) {
    const auto e = Eligibility(token, entry);
    EXPECT_EQ(e.at("canRenew").as_bool(), e.at("blockers").as_array().empty()) << json::serialize(e);
    return Strings(e.at("blockers"));
  }

  Response Review(const std::string& token, const std::string& entry, const json::object& body) {
    return api().Post("/api/entries/" + entry + "/review", body, token);
  }

  json::value ReviewOk(const std::string& token, const std::string& entry, const json::object& body) {
    auto r = Review(token, entry, body);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json() : json::value(json::object{});
  }

  // Asserts a 409 renewal_blocked listing exactly `blockers`.
  static void ExpectBlocked(const Response& r, const std::vector<std::string>& blockers) {
    ExpectProblem(r, 409, "renewal_blocked");
    if (r.status == 409) {
      EXPECT_EQ(Strings(r.Json().at("blockers")), blockers) << r.body;
    }
  }
};

TEST_F(Reviews, ReviewWithoutTemplateIsRecordedNotRenewed) {
  auto w = MakeWorld("rev-plain");
  const std::string id = MakeEntryExpiring(w, "plain", 30);
  AdvanceServerDays(api(), 2);
  json::object body{{"reviewType", "FullReview"},    {"timeSpentSeconds", 900},
                    {"notes", "Checked every link"}, {"blocksChanged", 3},
                    {"contentWasUpdated", true},     {"checklistJson", "{\"anything\": true}"}};
  auto r = Review(w.editor(), id, body);
  ASSERT_EQ(r.status, 200) << r.body;
  const auto v = r.Json();
  EXPECT_EQ(Str(v, "id").size(), 36u);
  EXPECT_EQ(Str(v, "entryId"), id);
  EXPECT_EQ(Str(v, "reviewerId"), w.t.user_ids.at("editor"));
  EXPECT_EQ(Str(v, "reviewType"), "FullReview");
  EXPECT_EQ(v.at("timeSpentSeconds").as_int64(), 900);
  EXPECT_EQ(Str(v, "notes"), "Checked every link");
  EXPECT_EQ(v.at("blocksChanged").as_int64(), 3);
  EXPECT_TRUE(v.at("contentWasUpdated").as_bool());
  EXPECT_EQ(Str(v, "checklistJson"), "{\"anything\": true}");
  EXPECT_EQ(Str(v, "createdAt"), Plus(kT0, 2));
  EXPECT_FALSE(v.at("renewed").as_bool());
  EXPECT_EQ(Str(v, "expiryDate"), Plus(kT0, 30));
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));

  // Optional fields left out take their defaults.
  auto minimal = ReviewOk(w.admin(), id, QuickReview());
  EXPECT_TRUE(minimal.at("notes").is_null());
  EXPECT_EQ(minimal.at("blocksChanged").as_int64(), 0);
  EXPECT_FALSE(minimal.at("contentWasUpdated").as_bool());
  EXPECT_TRUE(minimal.at("checklistJson").is_null());
  EXPECT_FALSE(minimal.at("renewed").as_bool());

  // Without a checklist the answers are optional, but must be an object of booleans.
  for (const std::string bad : {"[true]", "{\"a\": 1}", "{nope", "true", ""}) {
    SCOPED_TRACE(bad);
    auto b = ReviewOf("QuickReview");
    b["checklistJson"] = bad;
    ExpectValidation(Review(w.editor(), id, b), "checklistJson");
  }
  EXPECT_EQ(api().Get("/api/entries/" + id + "/review-history", w.viewer()).Json().as_array().size(), 2u);
}

TEST_F(Reviews, RequiredReviewChecksTheChecklistAndRenews) {
  auto w = MakeWorld("rev-check");
  const auto checklist = MakeChecklist(w, {{"Links work", true}, {"Screenshots current", false}});
  const std::string required_item = Str(checklist.at("items").as_array()[0], "id");
  const std::string optional_item = Str(checklist.at("items").as_array()[1], "id");
  const std::string tpl = MakeTemplate(w, {{"name", "Checked"},
                                           {"expiryDays", 60},
                                           {"warningDays", 7},
                                           {"reviewRequired", true},
                                           {"reviewType", "Attestation"},
                                           {"checklistId", Str(checklist, "id")}});
  const std::string id = MakeEntryExpiring(w, "checked", 30);
  UseTemplate(w, id, tpl);
  AdvanceServerDays(api(), 5);

  auto answers = [](std::vector<std::pair<std::string, json::value>> items) {
    json::object o;
    for (auto& [k, v] : items) o[k] = v;
    return json::serialize(o);
  };
  struct Case {
    std::string name;
    std::string checklist_json;  // "" leaves checklistJson out
  };
  const std::vector<Case> cases = {
      {"missing", ""},
      {"required item unchecked", answers({{required_item, false}, {optional_item, true}})},
      {"required item left out", answers({{optional_item, true}})},
      {"unknown item", answers({{required_item, true}, {kUnknownId, true}})},
      {"not an item id", answers({{required_item, true}, {"links", true}})},
      {"not JSON", "{nope"},
      {"not an object", "[\"" + required_item + "\"]"},
      {"not booleans", answers({{required_item, "yes"}})},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto r = Review(w.editor(), id, ReviewOf("FullReview", c.checklist_json));
    ExpectValidation(r, "checklistJson");
    EXPECT_EQ(ErrorFields(r).size(), 1u) << r.body;
  }
  // The message names the item.
  auto unchecked = Review(w.editor(), id, ReviewOf("FullReview", answers({{required_item, false}})));
  EXPECT_NE(unchecked.body.find("Links work"), std::string::npos) << unchecked.body;
  auto unknown = Review(w.editor(), id, ReviewOf("FullReview", answers({{required_item, true}, {kUnknownId, true}})));
  EXPECT_NE(unknown.body.find(kUnknownId), std::string::npos) << unknown.body;
  EXPECT_TRUE(api().Get("/api/entries/" + id + "/review-history", w.viewer()).Json().as_array().empty());
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));

  // Valid answers (ids in any case; the optional item may be left out): renewed from now.
  std::string upper = required_item;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  auto ok = ReviewOk(w.editor(), id, ReviewOf("FullReview", answers({{upper, true}})));
  EXPECT_TRUE(ok.at("renewed").as_bool());
  EXPECT_EQ(Str(ok, "expiryDate"), Plus(kT0, 5 + 60));
  const auto status = ExpiryStatus(w, id);
  EXPECT_EQ(Str(status, "expiryDate"), Plus(kT0, 65));
  EXPECT_EQ(status.at("daysUntilExpiry").as_int64(), 60);
  EXPECT_EQ(Str(status, "status"), "Published");
}

TEST_F(Reviews, AWeakerReviewThanRequiredDoesNotSatisfy) {
  auto w = MakeWorld("rev-weak");
  const std::string tpl =
      MakeTemplate(w, {{"name", "Full"}, {"expiryDays", 40}, {"reviewRequired", true}, {"reviewType", "FullReview"}});
  const std::string id = MakeEntryExpiring(w, "weak", 30);
  UseTemplate(w, id, tpl);
  EXPECT_EQ(Blockers(w.editor(), id), std::vector<std::string>{"review_required"});

  for (const char* weaker : {"QuickReview", "Attestation"}) {
    SCOPED_TRACE(weaker);
    auto r = ReviewOk(w.editor(), id, ReviewOf(weaker));
    EXPECT_FALSE(r.at("renewed").as_bool());
    EXPECT_EQ(Str(r, "expiryDate"), Plus(kT0, 30));
    EXPECT_EQ(Blockers(w.editor(), id), std::vector<std::string>{"review_required"});
    ExpectBlocked(api().Post("/api/entries/" + id + "/renew", json::object{}, w.editor()), {"review_required"});
  }
  AdvanceServerDays(api(), 1);
  auto full = ReviewOk(w.editor(), id, ReviewOf("FullReview"));
  EXPECT_TRUE(full.at("renewed").as_bool());
  EXPECT_EQ(Str(full, "expiryDate"), Plus(kT0, 41));
  // The review was used up by its own renewal: the next period needs another.
  EXPECT_EQ(Blockers(w.editor(), id), std::vector<std::string>{"review_required"});

  // The weakest requirement is met by any review.
  const std::string any =
      MakeTemplate(w, {{"name", "Any"}, {"expiryDays", 20}, {"reviewRequired", true}, {"reviewType", "QuickReview"}});
  const std::string id2 = MakeEntryExpiring(w, "any", 30);
  UseTemplate(w, id2, any);
  EXPECT_TRUE(ReviewOk(w.editor(), id2, QuickReview()).at("renewed").as_bool());
}

TEST_F(Reviews, AttestationAutoRenewsOnlyInsideTheWarningWindow) {
  auto w = MakeWorld("rev-auto");
  const std::string tpl = MakeTemplate(
      w,
      {{"name", "Auto"}, {"expiryDays", 30}, {"warningDays", 7}, {"graceDays", 5}, {"autoRenewOnAttestation", true}});
  const std::string id = MakeEntryExpiring(w, "auto", 30);
  const std::string draft = MakeEntryExpiring(w, "draft", 30, /*publish=*/false);
  UseTemplate(w, id, tpl);
  UseTemplate(w, draft, tpl);

  // Published, outside the window: recorded only.
  EXPECT_FALSE(ReviewOk(w.editor(), id, ReviewOf("Attestation")).at("renewed").as_bool());

  // ExpiringSoon: an Attestation renews, other review types do not.
  AdvanceServerDays(api(), 25);
  EXPECT_EQ(Str(ExpiryStatus(w, id), "status"), "ExpiringSoon");
  EXPECT_FALSE(ReviewOk(w.editor(), id, ReviewOf("FullReview")).at("renewed").as_bool());
  EXPECT_FALSE(ReviewOk(w.editor(), id, QuickReview()).at("renewed").as_bool());
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));
  auto renewed = ReviewOk(w.editor(), id, ReviewOf("Attestation"));
  EXPECT_TRUE(renewed.at("renewed").as_bool());
  EXPECT_EQ(Str(renewed, "expiryDate"), Plus(kT0, 25 + 30));
  EXPECT_EQ(Str(ExpiryStatus(w, id), "status"), "Published");
  // A draft never is in the window.
  EXPECT_FALSE(ReviewOk(w.editor(), draft, ReviewOf("Attestation")).at("renewed").as_bool());

  // Warning (past the date, in grace) counts too; Expired does not.
  AdvanceServerDays(api(), 31);  // day 56: one day past day 55
  EXPECT_EQ(Str(ExpiryStatus(w, id), "status"), "Warning");
  auto in_grace = ReviewOk(w.editor(), id, ReviewOf("Attestation"));
  EXPECT_TRUE(in_grace.at("renewed").as_bool());
  EXPECT_EQ(Str(in_grace, "expiryDate"), Plus(kT0, 56 + 30));
  AdvanceServerDays(api(), 40);  // day 96: ten days past day 86, grace is 5
  EXPECT_EQ(Str(ExpiryStatus(w, id), "status"), "Expired");
  EXPECT_FALSE(ReviewOk(w.editor(), id, ReviewOf("Attestation")).at("renewed").as_bool());
}

TEST_F(Reviews, ReviewHistoryIsCompleteAndNewestFirst) {
  auto w = MakeWorld("rev-history");
  const std::string tpl =
      MakeTemplate(w, {{"name", "Req"}, {"expiryDays", 10}, {"reviewRequired", true}, {"reviewType", "Attestation"}});
  const std::string id = MakeEntryExpiring(w, "history", 30);
  UseTemplate(w, id, tpl);
  const std::string other = MakeEntryExpiring(w, "other", 30);

  ReviewOk(w.editor(), id, {{"reviewType", "QuickReview"}, {"timeSpentSeconds", 10}, {"notes", "first"}});
  AdvanceServerDays(api(), 1);
  ReviewOk(w.admin(), id, {{"reviewType", "Attestation"}, {"timeSpentSeconds", 20}, {"blocksChanged", 2}});
  AdvanceServerDays(api(), 1);
  ReviewOk(w.editor(), id,
           {{"reviewType", "FullReview"}, {"timeSpentSeconds", 30}, {"contentWasUpdated", true}, {"notes", "third"}});
  ReviewOk(w.editor(), other, QuickReview());

  auto r = api().Get("/api/entries/" + id + "/review-history", w.viewer());
  ASSERT_EQ(r.status, 200) << r.body;
  const auto list = r.Json().as_array();
  ASSERT_EQ(list.size(), 3u) << r.body;
  EXPECT_EQ(Str(list[0], "reviewType"), "FullReview");
  EXPECT_EQ(Str(list[0], "notes"), "third");
  EXPECT_EQ(Str(list[0], "createdAt"), Plus(kT0, 2));
  EXPECT_TRUE(list[0].at("contentWasUpdated").as_bool());
  EXPECT_TRUE(list[0].at("renewed").as_bool());
  EXPECT_EQ(Str(list[0], "expiryDate"), Plus(kT0, 12));
  EXPECT_EQ(Str(list[1], "reviewType"), "Attestation");
  EXPECT_EQ(Str(list[1], "reviewerId"), w.t.user_ids.at("admin"));
  EXPECT_EQ(list[1].at("blocksChanged").as_int64(), 2);
  EXPECT_EQ(list[1].at("timeSpentSeconds").as_int64(), 20);
  EXPECT_TRUE(list[1].at("renewed").as_bool());
  EXPECT_EQ(Str(list[1], "expiryDate"), Plus(kT0, 11));
  EXPECT_EQ(Str(list[2], "reviewType"), "QuickReview");
  EXPECT_EQ(Str(list[2], "notes"), "first");
  EXPECT_EQ(Str(list[2], "reviewerId"), w.t.user_ids.at("editor"));
  EXPECT_FALSE(list[2].at("renewed").as_bool());
  EXPECT_EQ(Str(list[2], "expiryDate"), Plus(kT0, 30));
  EXPECT_TRUE(list[2].at("checklistJson").is_null());
  for (const auto& item : list) EXPECT_EQ(Str(item, "entryId"), id);

  EXPECT_EQ(api().Get("/api/entries/" + other + "/review-history", w.viewer()).Json().as_array().size(), 1u);
  const std::string fresh = MakeEntryExpiring(w, "fresh", 30);
  auto empty = api().Get("/api/entries/" + fresh + "/review-history", w.viewer());
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_TRUE(empty.Json().as_array().empty());
}

TEST_F(Reviews, EligibilityReportsEachBlocker) {
  auto w = MakeWorld("rev-elig");
  const std::string plain = MakeEntryExpiring(w, "plain", 30);
  auto open = Eligibility(w.editor(), plain);
  EXPECT_TRUE(open.at("canRenew").as_bool());
  EXPECT_TRUE(open.at("blockers").as_array().empty());
  EXPECT_EQ(Blockers(w.admin(), plain), std::vector<std::string>{});
  // A viewer may ask, and learns that they may not.
  auto viewer = Eligibility(w.viewer(), plain);
  EXPECT_FALSE(viewer.at("canRenew").as_bool());
  EXPECT_EQ(Strings(viewer.at("blockers")), std::vector<std::string>{"insufficient_permission"});

  ASSERT_EQ(api().Post("/api/entries/" + plain + "/expiry/pause", json::object{}, w.editor()).status, 200);
  EXPECT_EQ(Blockers(w.editor(), plain), std::vector<std::string>{"expiry_paused"});

  const std::string tpl =
      MakeTemplate(w, {{"name", "Req"}, {"expiryDays", 10}, {"reviewRequired", true}, {"reviewType", "FullReview"}});
  const std::string reviewed = MakeEntryExpiring(w, "reviewed", 30);
  UseTemplate(w, reviewed, tpl);
  EXPECT_EQ(Blockers(w.editor(), reviewed), std::vector<std::string>{"review_required"});
  UseTemplate(w, plain, tpl);
  EXPECT_EQ(Blockers(w.viewer(), plain),
            (std::vector<std::string>{"insufficient_permission", "expiry_paused", "review_required"}));
  // The template as hub default applies as well.
  const std::string inherited = MakeEntryExpiring(w, "inherited", 30);
  EXPECT_EQ(Blockers(w.editor(), inherited), std::vector<std::string>{});
  ASSERT_EQ(api()
                .Put("/api/hubs/" + w.hub_key,
                     {{"name", "Hub"},
                      {"defaultExpiryDays", 90},
                      {"defaultOrgRole", "Viewer"},
                      {"defaultExpiryTemplateId", tpl}},
                     w.admin())
                .status,
            200);
  EXPECT_EQ(Blockers(w.editor(), inherited), std::vector<std::string>{"review_required"});
}

TEST_F(Reviews, RenewIsBlockedUntilAReviewCountsTowardIt) {
  auto w = MakeWorld("rev-renew");
  const std::string tpl =
      MakeTemplate(w, {{"name", "Req"}, {"expiryDays", 50}, {"reviewRequired", true}, {"reviewType", "Attestation"}});
  const std::string id = MakeEntryExpiring(w, "renew", 30);
  UseTemplate(w, id, tpl);
  const std::string renew = "/api/entries/" + id + "/renew";

  auto blocked = api().Post(renew, {{"customExpiryDays", 5}}, w.editor());
  ExpectBlocked(blocked, {"review_required"});
  // PUT cannot bypass the requirement either.
  ExpectBlocked(api().Put(renew, json::object{}, w.editor()), {"review_required"});
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));

  // A satisfying review made while expiry is paused cannot renew, so it
  // counts toward the next renewal.
  ASSERT_EQ(api().Post("/api/entries/" + id + "/expiry/pause", json::object{}, w.editor()).status, 200);
  ExpectBlocked(api().Post(renew, json::object{}, w.editor()), {"expiry_paused", "review_required"});
  AdvanceServerDays(api(), 1);
  auto review = ReviewOk(w.editor(), id, ReviewOf("FullReview"));
  EXPECT_FALSE(review.at("renewed").as_bool());
  EXPECT_EQ(Blockers(w.editor(), id), std::vector<std::string>{"expiry_paused"});
  ASSERT_EQ(api().Post("/api/entries/" + id + "/expiry/resume", json::object{}, w.editor()).status, 200);
  EXPECT_EQ(Blockers(w.editor(), id), std::vector<std::string>{});
  auto ok = api().Post(renew, {{"customExpiryDays", 5}, {"notes", "Reviewed while paused"}}, w.editor());
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(Str(ok.Json(), "expiryDate"), Plus(kT0, 1 + 5));
  // One review, one renewal.
  EXPECT_EQ(Blockers(w.editor(), id), std::vector<std::string>{"review_required"});
  ExpectBlocked(api().Put(renew, json::object{}, w.editor()), {"review_required"});

  // A review recorded before the template required one counts too.
  const std::string later = MakeEntryExpiring(w, "later", 30);
  EXPECT_FALSE(ReviewOk(w.editor(), later, ReviewOf("Attestation")).at("renewed").as_bool());
  UseTemplate(w, later, tpl);
  EXPECT_EQ(Blockers(w.editor(), later), std::vector<std::string>{});
  auto put = api().Put("/api/entries/" + later + "/renew", json::object{}, w.editor());
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(Str(put.Json(), "expiryDate"), Plus(kT0, 1 + 50));
  EXPECT_EQ(Blockers(w.editor(), later), std::vector<std::string>{"review_required"});
}

TEST_F(Reviews, ConcurrentRequestsSpendAReviewAndPauseOnce) {
  auto w = MakeWorld("rev-race");
  const std::string tpl =
      MakeTemplate(w, {{"name", "Req"}, {"expiryDays", 50}, {"reviewRequired", true}, {"reviewType", "Attestation"}});
  const std::string id = MakeEntryExpiring(w, "race", 30);
  UseTemplate(w, id, tpl);
  // One review that counts toward the next renewal (made while paused).
  ASSERT_EQ(api().Post("/api/entries/" + id + "/expiry/pause", json::object{}, w.editor()).status, 200);
  EXPECT_FALSE(ReviewOk(w.editor(), id, ReviewOf("Attestation")).at("renewed").as_bool());
  ASSERT_EQ(api().Post("/api/entries/" + id + "/expiry/resume", json::object{}, w.editor()).status, 200);

  const std::string editor = w.editor();
  auto renewals = Concurrently(
      8, [&](HttpClient& client) { return client.Post("/api/entries/" + id + "/renew", json::object{}, editor); });
  int renewed = 0;
  for (const auto& r : renewals) {
    if (r.status == 200) {
      ++renewed;
    } else {
      ExpectBlocked(r, {"review_required"});
    }
  }
  EXPECT_EQ(renewed, 1);

  auto pauses = Concurrently(8, [&](HttpClient& client) {
    return client.Post("/api/entries/" + id + "/expiry/pause", json::object{}, editor);
  });
  int paused = 0;
  for (const auto& r : pauses) {
    if (r.status == 200) {
      ++paused;
    } else {
      ExpectProblem(r, 409, "already_paused");
    }
  }
  EXPECT_EQ(paused, 1);
  auto resumes = Concurrently(8, [&](HttpClient& client) {
    return client.Post("/api/entries/" + id + "/expiry/resume", json::object{}, editor);
  });
  int resumed = 0;
  for (const auto& r : resumes) {
    if (r.status == 200) {
      ++resumed;
    } else {
      ExpectProblem(r, 409, "not_paused");
    }
  }
  EXPECT_EQ(resumed, 1);
}

TEST_F(Reviews, PostRenewTakesCustomDaysAndAnswersTheExpiryStatus) {
  auto w = MakeWorld("rev-custom");
  const std::string id = MakeEntryExpiring(w, "custom", 3);
  AdvanceServerDays(api(), 10);  // expired by now
  EXPECT_EQ(Str(ExpiryStatus(w, id), "status"), "Expired");
  auto r =
      api().Post("/api/entries/" + id + "/renew", {{"customExpiryDays", 12}, {"notes", "Still accurate"}}, w.editor());
  ASSERT_EQ(r.status, 200) << r.body;
  const auto v = r.Json();
  EXPECT_EQ(Str(v, "renewalId").size(), 36u);
  EXPECT_EQ(Str(v, "expiryDate"), Plus(kT0, 22));
  EXPECT_EQ(v.at("daysUntilExpiry").as_int64(), 12);
  EXPECT_FALSE(v.at("isInWarningPeriod").as_bool());
  EXPECT_FALSE(v.at("isPaused").as_bool());
  EXPECT_EQ(Str(v, "status"), "Published");
  auto status = ExpiryStatus(w, id);
  EXPECT_EQ(Str(status, "expiryDate"), Plus(kT0, 22));
  EXPECT_EQ(Str(status, "status"), "Published");

  // Bounds of customExpiryDays.
  EXPECT_EQ(
      Str(api().Post("/api/entries/" + id + "/renew", {{"customExpiryDays", 1}}, w.editor()).Json(), "expiryDate"),
      Plus(kT0, 11));
  EXPECT_EQ(
      Str(api().Post("/api/entries/" + id + "/renew", {{"customExpiryDays", 3650}}, w.admin()).Json(), "expiryDate"),
      Plus(kT0, 3660));
}

TEST_F(Reviews, PutRenewUsesTheConfiguredDuration) {
  auto w = MakeWorld("rev-put");
  const std::string id = MakeEntryExpiring(w, "put", 5);
  AdvanceServerDays(api(), 2);
  // No template: the hub's defaultExpiryDays (90).
  auto r = api().Put("/api/entries/" + id + "/renew", json::object{}, w.editor());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Str(r.Json(), "expiryDate"), Plus(kT0, 2 + 90));
  EXPECT_EQ(Str(r.Json(), "renewalId").size(), 36u);
  // No body at all works for both forms.
  auto bare = api().Send("PUT", "/api/entries/" + id + "/renew", "", w.editor());
  ASSERT_EQ(bare.status, 200) << bare.body;
  auto bare_post = api().Send("POST", "/api/entries/" + id + "/renew", "", w.editor());
  ASSERT_EQ(bare_post.status, 200) << bare_post.body;
  EXPECT_EQ(Str(bare_post.Json(), "expiryDate"), Plus(kT0, 92));

  // With a template: its expiryDays, for PUT and for POST without customExpiryDays.
  const std::string tpl = MakeTemplate(w, {{"name", "45 days"}, {"expiryDays", 45}, {"warningDays", 10}});
  UseTemplate(w, id, tpl);
  AdvanceServerDays(api(), 1);
  auto t = api().Put("/api/entries/" + id + "/renew", json::object{}, w.editor());
  ASSERT_EQ(t.status, 200) << t.body;
  EXPECT_EQ(Str(t.Json(), "expiryDate"), Plus(kT0, 3 + 45));
  AdvanceServerDays(api(), 1);
  auto p = api().Post("/api/entries/" + id + "/renew", {{"notes", "configured"}}, w.editor());
  ASSERT_EQ(p.status, 200) << p.body;
  EXPECT_EQ(Str(p.Json(), "expiryDate"), Plus(kT0, 4 + 45));
}

TEST_F(Reviews, PauseFreezesTheStatusAndResumeKeepsTheRemainingTime) {
  auto w = MakeWorld("rev-pause");
  const std::string tpl = MakeTemplate(w, {{"name", "Week"}, {"expiryDays", 30}, {"warningDays", 7}});
  const std::string id = MakeEntryExpiring(w, "pause", 30);
  UseTemplate(w, id, tpl);
  const std::string pause = "/api/entries/" + id + "/expiry/pause";
  const std::string resume = "/api/entries/" + id + "/expiry/resume";
  AdvanceServerDays(api(), 25);  // ExpiringSoon, 5 days left

  auto paused = api().Post(pause, {{"reason", "Waiting for the product launch"}}, w.editor());
  ASSERT_EQ(paused.status, 200) << paused.body;
  EXPECT_TRUE(paused.Json().at("isPaused").as_bool());
  EXPECT_EQ(paused.Json().at("daysUntilExpiry").as_int64(), 5);
  EXPECT_EQ(Str(paused.Json(), "status"), "ExpiringSoon");
  ExpectProblem(api().Post(pause, json::object{}, w.editor()), 409, "already_paused");

  // Time passes; the entry's clock does not.
  AdvanceServerDays(api(), 40);
  auto frozen = ExpiryStatus(w, id);
  EXPECT_TRUE(frozen.at("isPaused").as_bool());
  EXPECT_EQ(frozen.at("daysUntilExpiry").as_int64(), 5);
  EXPECT_EQ(Str(frozen, "status"), "ExpiringSoon");
  EXPECT_TRUE(frozen.at("isInWarningPeriod").as_bool());
  EXPECT_EQ(Str(frozen, "expiryDate"), Plus(kT0, 30));

  // No renewal while paused, by any route.
  ExpectBlocked(api().Post("/api/entries/" + id + "/renew", json::object{}, w.editor()), {"expiry_paused"});
  ExpectBlocked(api().Put("/api/entries/" + id + "/renew", json::object{}, w.editor()), {"expiry_paused"});
  auto bulk = api().Post("/api/notifications/bulk-renew", {{"entryIds", json::array{id}}}, w.editor());
  ASSERT_EQ(bulk.status, 200) << bulk.body;
  EXPECT_EQ(Strings(bulk.Json().at("results").as_array()[0].at("error").at("blockers")),
            std::vector<std::string>{"expiry_paused"});

  auto resumed = api().Post(resume, json::object{}, w.editor());
  ASSERT_EQ(resumed.status, 200) << resumed.body;
  EXPECT_FALSE(resumed.Json().at("isPaused").as_bool());
  EXPECT_EQ(Str(resumed.Json(), "expiryDate"), Plus(kT0, 30 + 40));
  EXPECT_EQ(resumed.Json().at("daysUntilExpiry").as_int64(), 5);
  EXPECT_EQ(Str(resumed.Json(), "status"), "ExpiringSoon");
  EXPECT_FALSE(ExpiryStatus(w, id).at("isPaused").as_bool());
  ExpectProblem(api().Post(resume, json::object{}, w.editor()), 409, "not_paused");

  // The clock runs again; pausing again without a body works too.
  AdvanceServerDays(api(), 6);
  EXPECT_EQ(Str(ExpiryStatus(w, id), "status"), "Expired");
  auto again = api().Send("POST", pause, "", w.admin());
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.Json().at("daysUntilExpiry").as_int64(), -1);
  EXPECT_EQ(Str(again.Json(), "status"), "Expired");
  auto no_time = api().Send("POST", resume, "", w.editor());
  ASSERT_EQ(no_time.status, 200) << no_time.body;
  EXPECT_EQ(Str(no_time.Json(), "expiryDate"), Plus(kT0, 70));
}

TEST_F(Reviews, BulkRenewReportsEachEntry) {
  auto w = MakeWorld("rev-bulk");
  auto other = CreateTenant(api(), "rev-bulk-other");
  MakeHub(api(), other.token("admin"), "their-hub");
  const std::string foreign = Str(MakeEntry(api(), other.token("admin"), "their-hub", "theirs", {"T"}), "id");
  // A hub where the editor is only a Viewer.
  MakeHub(api(), w.admin(), "read-hub", "Viewer");
  const std::string read_only = MakeEntryExpiring(w, "read-only", 30, true, "read-hub");
  const std::string ok1 = MakeEntryExpiring(w, "ok1", 3);
  const std::string ok2 = MakeEntryExpiring(w, "ok2", 300);
  const std::string tpl =
      MakeTemplate(w, {{"name", "Req"}, {"expiryDays", 10}, {"reviewRequired", true}, {"reviewType", "QuickReview"}});
  const std::string blocked = MakeEntryExpiring(w, "blocked", 30);
  UseTemplate(w, blocked, tpl);
  AdvanceServerDays(api(), 1);

  std::string ok2_upper = ok2;
  for (char& ch : ok2_upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  auto r = api().Post("/api/notifications/bulk-renew",
                      {{"entryIds", json::array{ok1, read_only, kUnknownId, blocked, foreign, ok2_upper}},
                       {"notes", "Quarterly sweep"}},
                      w.editor());
  ASSERT_EQ(r.status, 200) << r.body;
  const auto results = r.Json().at("results").as_array();
  ASSERT_EQ(results.size(), 6u) << r.body;
  const std::vector<std::string> order = {ok1, read_only, kUnknownId, blocked, foreign, ok2};
  for (size_t i = 0; i < results.size(); ++i) EXPECT_EQ(Str(results[i], "entryId"), order[i]) << i;

  for (size_t i : {size_t{0}, size_t{5}}) {
    EXPECT_TRUE(results[i].at("renewed").as_bool()) << r.body;
    EXPECT_TRUE(results[i].at("error").is_null()) << r.body;
    EXPECT_EQ(Str(results[i], "expiryDate"), Plus(kT0, 1 + 90)) << r.body;
  }
  EXPECT_EQ(Str(ExpiryStatus(w, ok1), "expiryDate"), Plus(kT0, 91));
  auto expect_error = [&](size_t i, int64_t status, const std::string& code) {
    SCOPED_TRACE(i);
    EXPECT_FALSE(results[i].at("renewed").as_bool());
    EXPECT_FALSE(results[i].as_object().contains("expiryDate"));
    const auto& e = results[i].at("error");
    EXPECT_EQ(e.at("status").as_int64(), status);
    EXPECT_EQ(Str(e, "code"), code);
    EXPECT_FALSE(Str(e, "detail").empty());
  };
  expect_error(1, 403, "forbidden");
  expect_error(2, 404, "not_found");
  expect_error(3, 409, "renewal_blocked");
  EXPECT_EQ(Strings(results[3].at("error").at("blockers")), std::vector<std::string>{"review_required"});
  expect_error(4, 404, "not_found");
  EXPECT_FALSE(results[1].at("error").as_object().contains("blockers"));
  // Failures changed nothing.
  EXPECT_EQ(Str(ExpiryStatus(w, read_only), "expiryDate"), Plus(kT0, 30));
  EXPECT_EQ(Str(ExpiryStatus(w, blocked), "expiryDate"), Plus(kT0, 30));
  EXPECT_EQ(Str(api().Get("/api/entries/" + foreign + "/expiry-status", other.token("admin")).Json(), "expiryDate"),
            Plus(kT0, 90));

  // customExpiryDays applies to every entry; a viewer gets 403 for each.
  auto custom = api().Post("/api/notifications/bulk-renew",
                           {{"entryIds", json::array{ok1, ok2}}, {"customExpiryDays", 7}}, w.admin());
  ASSERT_EQ(custom.status, 200) << custom.body;
  const auto custom_json = custom.Json();
  for (const auto& item : custom_json.at("results").as_array()) EXPECT_EQ(Str(item, "expiryDate"), Plus(kT0, 8));
  auto viewer = api().Post("/api/notifications/bulk-renew", {{"entryIds", json::array{ok1}}}, w.viewer());
  ASSERT_EQ(viewer.status, 200) << viewer.body;
  EXPECT_EQ(viewer.Json().at("results").as_array()[0].at("error").at("status").as_int64(), 403);
  auto guest = api().Post("/api/notifications/bulk-renew", {{"entryIds", json::array{ok1}}}, w.guest());
  ASSERT_EQ(guest.status, 200) << guest.body;
  EXPECT_EQ(guest.Json().at("results").as_array()[0].at("error").at("status").as_int64(), 404);
  ExpectProblem(api().Post("/api/notifications/bulk-renew", {{"entryIds", json::array{ok1}}}), 401,
                "missing_credentials");
}

TEST_F(Reviews, BulkRenewRefusesBadInput) {
  auto w = MakeWorld("rev-bulk-400");
  const std::string id = MakeEntryExpiring(w, "one", 30);
  std::string upper = id;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  json::array many;
  for (int i = 0; i < 101; ++i) many.emplace_back(kUnknownId);
  json::array hundred;
  for (int i = 0; i < 100; ++i) {
    std::string u = kUnknownId;
    const std::string n = std::to_string(i);
    u.replace(u.size() - n.size(), n.size(), n);
    hundred.emplace_back(u);
  }
  struct Case {
    json::object body;
    std::string field;
  };
  const std::vector<Case> cases = {
      {json::object{}, "entryIds"},
      {{{"entryIds", id}}, "entryIds"},
      {{{"entryIds", json::object{{"id", id}}}}, "entryIds"},
      {{{"entryIds", nullptr}}, "entryIds"},
      {{{"entryIds", json::array{}}}, "entryIds"},
      {{{"entryIds", many}}, "entryIds"},
      {{{"entryIds", json::array{id, "nope"}}}, "entryIds[1]"},
      {{{"entryIds", json::array{id, 7}}}, "entryIds[1]"},
      {{{"entryIds", json::array{id, upper}}}, "entryIds[1]"},
      {{{"entryIds", json::array{id}}, {"customExpiryDays", 0}}, "customExpiryDays"},
      {{{"entryIds", json::array{id}}, {"customExpiryDays", 3651}}, "customExpiryDays"},
      {{{"entryIds", json::array{id}}, {"customExpiryDays", "7"}}, "customExpiryDays"},
      {{{"entryIds", json::array{id}}, {"notes", std::string(2001, 'n')}}, "notes"},
      {{{"entryIds", json::array{id}}, {"notes", 5}}, "notes"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(json::serialize(c.body));
    ExpectValidation(api().Post("/api/notifications/bulk-renew", c.body, w.editor()), c.field);
  }
  ExpectProblem(api().Send("POST", "/api/notifications/bulk-renew", "{nope", w.editor()), 400, "malformed_json");
  ExpectProblem(api().Send("POST", "/api/notifications/bulk-renew", "", w.editor()), 400, "malformed_json");
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));
  // 100 is the limit (all unknown here: 404 each).
  auto limit = api().Post("/api/notifications/bulk-renew", {{"entryIds", hundred}}, w.editor());
  ASSERT_EQ(limit.status, 200) << limit.body;
  EXPECT_EQ(limit.Json().at("results").as_array().size(), 100u);
}

TEST_F(Reviews, ViewersMayOnlyReadAndGuestsSeeNothing) {
  auto w = MakeWorld("rev-access");
  const std::string id = MakeEntryExpiring(w, "access", 30);
  const std::string base = "/api/entries/" + id;
  // Viewer: reads, but 403 on every write.
  EXPECT_EQ(api().Get(base + "/review-history", w.viewer()).status, 200);
  EXPECT_EQ(api().Get(base + "/renewal-eligibility", w.viewer()).status, 200);
  ExpectProblem(Review(w.viewer(), id, QuickReview()), 403, "forbidden");
  ExpectProblem(api().Post(base + "/renew", json::object{}, w.viewer()), 403, "forbidden");
  ExpectProblem(api().Put(base + "/renew", json::object{}, w.viewer()), 403, "forbidden");
  ExpectProblem(api().Post(base + "/expiry/pause", json::object{}, w.viewer()), 403, "forbidden");
  ExpectProblem(api().Post(base + "/expiry/resume", json::object{}, w.viewer()), 403, "forbidden");

  // Guest without access: 404 everywhere, as for an unknown entry.
  for (const std::string& entry : {id, std::string(kUnknownId)}) {
    const std::string b = "/api/entries/" + entry;
    for (const std::string& token : {w.guest(), w.viewer()}) {
      if (entry == id && token == w.viewer()) continue;
      SCOPED_TRACE(entry);
      ExpectProblem(Review(token, entry, QuickReview()), 404, "not_found");
      ExpectProblem(api().Get(b + "/review-history", token), 404, "not_found");
      ExpectProblem(api().Get(b + "/renewal-eligibility", token), 404, "not_found");
      ExpectProblem(api().Post(b + "/renew", json::object{}, token), 404, "not_found");
      ExpectProblem(api().Put(b + "/renew", json::object{}, token), 404, "not_found");
      ExpectProblem(api().Post(b + "/expiry/pause", json::object{}, token), 404, "not_found");
      ExpectProblem(api().Post(b + "/expiry/resume", json::object{}, token), 404, "not_found");
    }
  }
  // Nothing happened.
  EXPECT_TRUE(api().Get(base + "/review-history", w.admin()).Json().as_array().empty());
  EXPECT_FALSE(ExpiryStatus(w, id).at("isPaused").as_bool());
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));
  // Unauthenticated: 401.
  ExpectProblem(api().Get(base + "/review-history"), 401, "missing_credentials");
  ExpectProblem(api().Post(base + "/review", QuickReview()), 401, "missing_credentials");
}

TEST_F(Reviews, AnotherTenantsEntryIsNotFoundOnEveryRoute) {
  auto w = MakeWorld("rev-iso");
  auto other = CreateTenant(api(), "rev-iso-other");
  const std::string id = MakeEntryExpiring(w, "iso", 30);
  ReviewOk(w.editor(), id, QuickReview());
  const std::string b = "/api/entries/" + id;
  const std::string admin = other.token("admin");
  ExpectProblem(Review(admin, id, QuickReview()), 404, "not_found");
  ExpectProblem(api().Get(b + "/review-history", admin), 404, "not_found");
  ExpectProblem(api().Get(b + "/renewal-eligibility", admin), 404, "not_found");
  ExpectProblem(api().Post(b + "/renew", {{"customExpiryDays", 9}}, admin), 404, "not_found");
  ExpectProblem(api().Put(b + "/renew", json::object{}, admin), 404, "not_found");
  ExpectProblem(api().Post(b + "/expiry/pause", json::object{}, admin), 404, "not_found");
  ExpectProblem(api().Post(b + "/expiry/resume", json::object{}, admin), 404, "not_found");
  auto bulk = api().Post("/api/notifications/bulk-renew", {{"entryIds", json::array{id}}}, admin);
  ASSERT_EQ(bulk.status, 200) << bulk.body;
  EXPECT_EQ(bulk.Json().at("results").as_array()[0].at("error").at("status").as_int64(), 404);
  // Untouched for its own tenant.
  EXPECT_EQ(api().Get(b + "/review-history", w.viewer()).Json().as_array().size(), 1u);
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));
  EXPECT_FALSE(ExpiryStatus(w, id).at("isPaused").as_bool());
}

TEST_F(Reviews, BadInputIsRefused) {
  auto w = MakeWorld("rev-400");
  const std::string id = MakeEntryExpiring(w, "bad", 30);
  const std::string editor = w.editor();
  struct Case {
    json::object body;
    std::string field;
  };
  const std::vector<Case> review_cases = {
      {{{"timeSpentSeconds", 5}}, "reviewType"},
      {{{"reviewType", nullptr}, {"timeSpentSeconds", 5}}, "reviewType"},
      {{{"reviewType", "Glance"}, {"timeSpentSeconds", 5}}, "reviewType"},
      {{{"reviewType", 1}, {"timeSpentSeconds", 5}}, "reviewType"},
      {{{"reviewType", "QuickReview"}}, "timeSpentSeconds"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", "5"}}, "timeSpentSeconds"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 1.5}}, "timeSpentSeconds"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", -1}}, "timeSpentSeconds"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 604801}}, "timeSpentSeconds"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 5}, {"notes", std::string(4001, 'n')}}, "notes"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 5}, {"notes", 3}}, "notes"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 5}, {"blocksChanged", -1}}, "blocksChanged"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 5}, {"blocksChanged", 100001}}, "blocksChanged"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 5}, {"blocksChanged", "2"}}, "blocksChanged"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 5}, {"contentWasUpdated", "yes"}}, "contentWasUpdated"},
      {{{"reviewType", "QuickReview"}, {"timeSpentSeconds", 5}, {"checklistJson", json::object{}}}, "checklistJson"},
  };
  for (const auto& c : review_cases) {
    SCOPED_TRACE(json::serialize(c.body));
    ExpectValidation(Review(editor, id, c.body), c.field);
  }
  ExpectProblem(api().Send("POST", "/api/entries/" + id + "/review", "{nope", editor), 400, "malformed_json");
  ExpectProblem(api().Send("POST", "/api/entries/" + id + "/review", "", editor), 400, "malformed_json");
  EXPECT_TRUE(api().Get("/api/entries/" + id + "/review-history", editor).Json().as_array().empty());
  // The limits themselves are fine.
  EXPECT_EQ(Review(editor, id,
                   {{"reviewType", "QuickReview"},
                    {"timeSpentSeconds", 604800},
                    {"notes", std::string(4000, 'n')},
                    {"blocksChanged", 100000}})
                .status,
            200);
  EXPECT_EQ(Review(editor, id, {{"reviewType", "Attestation"}, {"timeSpentSeconds", 0}, {"notes", nullptr}}).status,
            200);

  const std::vector<Case> renew_cases = {
      {{{"customExpiryDays", 0}}, "customExpiryDays"},
      {{{"customExpiryDays", 3651}}, "customExpiryDays"},
      {{{"customExpiryDays", -5}}, "customExpiryDays"},
      {{{"customExpiryDays", "30"}}, "customExpiryDays"},
      {{{"customExpiryDays", 2.5}}, "customExpiryDays"},
      {{{"notes", std::string(2001, 'n')}}, "notes"},
      {{{"notes", true}}, "notes"},
  };
  for (const auto& c : renew_cases) {
    SCOPED_TRACE(json::serialize(c.body));
    ExpectValidation(api().Post("/api/entries/" + id + "/renew", c.body, editor), c.field);
  }
  ExpectProblem(api().Send("POST", "/api/entries/" + id + "/renew", "[", editor), 400, "malformed_json");
  ExpectValidation(api().Send("POST", "/api/entries/" + id + "/renew", "[]", editor), "body");

  ExpectValidation(api().Post("/api/entries/" + id + "/expiry/pause", {{"reason", std::string(1001, 'r')}}, editor),
                   "reason");
  ExpectValidation(api().Post("/api/entries/" + id + "/expiry/pause", {{"reason", 12}}, editor), "reason");
  ExpectProblem(api().Send("POST", "/api/entries/" + id + "/expiry/pause", "{", editor), 400, "malformed_json");
  EXPECT_EQ(Str(ExpiryStatus(w, id), "expiryDate"), Plus(kT0, 30));
  EXPECT_FALSE(ExpiryStatus(w, id).at("isPaused").as_bool());
  EXPECT_EQ(api().Post("/api/entries/" + id + "/expiry/pause", {{"reason", std::string(1000, 'r')}}, editor).status,
            200);

  // Path parameters must be UUIDs.
  ExpectProblem(Review(editor, "nope", QuickReview()), 400, "invalid_path_parameter");
  ExpectProblem(api().Get("/api/entries/nope/review-history", editor), 400, "invalid_path_parameter");
  ExpectProblem(api().Get("/api/entries/nope/renewal-eligibility", editor), 400, "invalid_path_parameter");
  ExpectProblem(api().Post("/api/entries/nope/renew", json::object{}, editor), 400, "invalid_path_parameter");
  ExpectProblem(api().Put("/api/entries/nope/renew", json::object{}, editor), 400, "invalid_path_parameter");
  ExpectProblem(api().Post("/api/entries/nope/expiry/pause", json::object{}, editor), 400, "invalid_path_parameter");
  ExpectProblem(api().Post("/api/entries/nope/expiry/resume", json::object{}, editor), 400, "invalid_path_parameter");
}

}  // namespace
}  // namespace credence::test
