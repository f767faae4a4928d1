// Plugin manifests: the shipped registry is valid (ids, semantic versions,
// slots from the spec's list, dependencies resolvable, no cycles), the
// validator catches each kind of mistake, settings validate against the
// schema, and the content-rules guard decides as documented.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/clock.h"
#include "plugins/content_rules.h"
#include "plugins/manifest.h"
#include "plugins/plugin_service.h"
#include "plugins/shipped_plugins.h"

namespace credence::plugins {
namespace {

namespace json = boost::json;

bool Mentions(const std::vector<std::string>& problems, std::string_view text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(text) != std::string::npos; });
}

Manifest Minimal(std::string id, std::vector<std::string> deps = {}) {
  Manifest m;
  m.id = std::move(id);
  m.name = "N";
  m.version = "1.0.0";
  m.category = "c";
  m.dependencies = std::move(deps);
  return m;
}

TEST(PluginManifests, ShippedRegistryIsValid) {
  const SystemClock clock;
  EXPECT_EQ(ValidateRegistry(ShippedPlugins()), std::vector<std::string>{});
  EXPECT_EQ(ValidateRegistry(ShippedRegistry({clock, {}, /*dev=*/true}).All()), std::vector<std::string>{});
  EXPECT_NE(FindShipped("content-rules"), nullptr);
  EXPECT_EQ(ShippedRegistry({clock, {}, false}).Find("dev-faults"), nullptr);
}

// Every shipped manifest is registered with its module, in the manifests' order.
TEST(PluginManifests, EveryShippedPluginIsRegistered) {
  const SystemClock clock;
  const Registry registry = ShippedRegistry({clock, {}, false});
  std::vector<std::string> shipped, registered;
  for (const auto& m : ShippedPlugins()) shipped.push_back(m.id);
  for (const auto& m : registry.All()) registered.push_back(m.id);
  EXPECT_EQ(registered, shipped);
}

TEST(PluginManifests, KebabCaseIds) {
  for (const char* ok : {"a", "content-rules", "x2-y3"}) EXPECT_TRUE(IsKebabCaseId(ok)) << ok;
  for (const char* bad : {"", "-a", "a-", "a--b", "A", "a_b", "2a", "a.b"}) EXPECT_FALSE(IsKebabCaseId(bad)) << bad;
}

TEST(PluginManifests, SemanticVersions) {
  for (const char* ok : {"0.0.0", "1.2.3", "10.20.30", "1.0.0-alpha.1", "1.0.0+build.5", "1.0.0-rc.1+x"})
    EXPECT_TRUE(IsSemanticVersion(ok)) << ok;
  for (const char* bad : {"", "1", "1.2", "1.2.3.4", "01.2.3", "1.2.x", "1.0.0-", "1.0.0-01", "v1.0.0", "1.0.0+"})
    EXPECT_FALSE(IsSemanticVersion(bad)) << bad;
}

TEST(PluginManifests, ValidatorCatchesEachMistake) {
  auto bad_id = Minimal("Bad_Id");
  EXPECT_TRUE(Mentions(ValidateRegistry({bad_id}), "kebab-case"));
  EXPECT_TRUE(Mentions(ValidateRegistry({Minimal("a"), Minimal("a")}), "not unique"));
  auto bad_version = Minimal("a");
  bad_version.version = "1.0";
  EXPECT_TRUE(Mentions(ValidateRegistry({bad_version}), "not semantic"));
  auto bad_slot = Minimal("a");
  bad_slot.ui_contributions = {{"entry.footer", "X"}};
  EXPECT_TRUE(Mentions(ValidateRegistry({bad_slot}), "not one of the spec's"));
  EXPECT_TRUE(Mentions(ValidateRegistry({Minimal("a", {"missing"})}), "not a known plugin"));
  EXPECT_TRUE(Mentions(ValidateRegistry({Minimal("a", {"b"}), Minimal("b", {"c"}), Minimal("c", {"a"})}), "cycle"));
  EXPECT_TRUE(Mentions(ValidateRegistry({Minimal("a", {"a"})}), "cycle"));
  EXPECT_EQ(ValidateRegistry({Minimal("a", {"b"}), Minimal("b")}), std::vector<std::string>{});
  auto bad_guard = Minimal("a");
  bad_guard.guards = {{"Entry.Explode"}};
  EXPECT_TRUE(Mentions(ValidateRegistry({bad_guard}), "unknown action"));
  auto settings_no_flag = Minimal("a");
  settings_no_flag.settings = {{"x", SettingField::Type::kBoolean, ""}};
  EXPECT_TRUE(Mentions(ValidateRegistry({settings_no_flag}), "hasSettings"));
  auto route_outside = Minimal("a");
  route_outside.has_endpoints = true;
  route_outside.routes = {{"GET", "/api/other"}};
  EXPECT_TRUE(Mentions(ValidateRegistry({route_outside}), "not under /api/plugins/"));
  auto english_twice = Minimal("a");
  english_twice.translations = {{"en", "N", "D"}};
  EXPECT_TRUE(Mentions(ValidateRegistry({english_twice}), "other than en"));
  auto twice = Minimal("a");
  twice.translations = {{"es", "N", "D"}, {"es", "M", "E"}};
  EXPECT_TRUE(Mentions(ValidateRegistry({twice}), "appears twice"));
  auto no_name = Minimal("a");
  no_name.translations = {{"es", "", "D"}};
  EXPECT_TRUE(Mentions(ValidateRegistry({no_name}), "lacks a name"));
}

// Issue 26: plugin names and descriptions follow the interface language.
TEST(PluginManifests, EveryShippedPluginIsInSpanishToo) {
  const SystemClock clock;
  const Registry registry = ShippedRegistry({clock, {}, /*dev=*/true});
  for (const Manifest& m : registry.All()) {
    const auto es = LocalizedText(m, "es");
    EXPECT_NE(es.name, m.name) << m.id;
    EXPECT_NE(es.description, m.description) << m.id;
    EXPECT_EQ(LocalizedText(m, "en").name, m.name) << m.id;
    EXPECT_EQ(LocalizedText(m, "de").description, m.description) << m.id;
  }
}

TEST(PluginSettings, ValidatedAgainstTheSchema) {
  const Manifest& rules = *FindShipped("content-rules");
  EXPECT_TRUE(ValidateSettings(rules, json::object{}));
  EXPECT_TRUE(ValidateSettings(rules, json::object{{"forbiddenTerms", json::array{"foo"}}, {"maxTitleLength", 80}}));
  auto bad = ValidateSettings(rules, json::object{{"forbiddenTerms", json::array{"ok", 3}},
                                                  {"maxTitleLength", -1},
                                                  {"unknown", true},
                                                  {"requiredHeadings", "Summary"}});
  ASSERT_FALSE(bad);
  std::vector<std::string> fields;
  for (const auto& f : bad.error().fields) fields.push_back(f.field);
  std::sort(fields.begin(), fields.end());
  EXPECT_EQ(fields, (std::vector<std::string>{"forbiddenTerms[1]", "maxTitleLength", "requiredHeadings", "unknown"}));
  const auto schema = SettingsJsonSchema(rules);
  EXPECT_EQ(schema.at("additionalProperties"), json::value(false));
  EXPECT_TRUE(schema.at("properties").as_object().contains("maxTextLength"));
}

kb::GuardContext Publish(std::string title, std::string content) {
  return {"Entry.Publish", "t", "u", "e", {{"title", std::move(title)}, {"content", std::move(content)}}};
}

constexpr char kDoc[] =
    R"({"type":"doc","content":[{"type":"heading","attrs":{"level":2},"content":[{"type":"text","text":"Summary"}]},)"
    R"({"type":"paragraph","content":[{"type":"text","text":"Use the VPN."}]}]})";

TEST(ContentRulesGuard, AllowsAndDeniesAsDocumented) {
  const json::object none;
  EXPECT_FALSE(ContentRulesGuard(none, Publish("Title", kDoc)));
  const json::object headings{{"requiredHeadings", json::array{"summary"}}};
  EXPECT_FALSE(ContentRulesGuard(headings, Publish("Title", kDoc)));
  const json::object more{{"requiredHeadings", json::array{"Summary", "Owner"}}};
  auto d = ContentRulesGuard(more, Publish("Title", kDoc));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->reason_code, "required_heading_missing");
  EXPECT_EQ(d->metadata.at("headings"), (json::array{"Owner"}));
  const json::object terms{{"forbiddenTerms", json::array{"vpn"}}};
  d = ContentRulesGuard(terms, Publish("Title", kDoc));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->reason_code, "forbidden_term");
  const json::object title{{"maxTitleLength", 3}};
  d = ContentRulesGuard(title, Publish("Title", kDoc));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->reason_code, "title_too_long");
  const json::object text{{"maxTextLength", 10}};
  d = ContentRulesGuard(text, Publish("Title", kDoc));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->reason_code, "text_too_long");
}

TEST(ContentRules, HubRulesTightenTheTenants) {
  const json::object tenant{{"requiredHeadings", json::array{"Summary"}},
                            {"forbiddenTerms", json::array{"a"}},
                            {"maxTitleLength", 100},
                            {"maxTextLength", 0}};
  const json::object hub{{"requiredHeadings", json::array{"Owner", "Summary"}},
                         {"forbiddenTerms", json::array{"b"}},
                         {"maxTitleLength", 200},
                         {"maxTextLength", 500}};
  const auto merged = MergeRules(tenant, hub);
  EXPECT_EQ(merged.at("requiredHeadings"), (json::array{"Summary", "Owner"}));
  EXPECT_EQ(merged.at("forbiddenTerms"), (json::array{"a", "b"}));
  EXPECT_EQ(merged.at("maxTitleLength").as_int64(), 100);  // the tenant's is smaller
  EXPECT_EQ(merged.at("maxTextLength").as_int64(), 500);   // the tenant has none
  EXPECT_EQ(MergeRules(tenant, {}), tenant);
}

}  // namespace
}  // namespace credence::plugins
