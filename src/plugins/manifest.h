#pragma once
// Plugin manifests (knowledge-base.md, "Plugin endpoints", "Plugin UI
// slots"; docs/plugins.md): what a plugin Credence ships declares about
// itself, exactly as the spec lists it (id, name, version, description,
// category, hasSettings, hasEndpoints, uiContributions, dependencies), plus
// what the server needs: the schema of its settings, the action guards it
// registers, the events it handles and the routes it adds. Pure: no storage.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/object.hpp>

#include "core/result.h"

namespace credence::plugins {

// The slots a UI contribution may name (knowledge-base.md, "Plugin UI slots").
const std::vector<std::string>& UiSlots();

// One setting of a plugin: a JSON member of the settings object.
struct SettingField {
  enum class Type { kString, kInteger, kBoolean, kStringArray };
  std::string name;
  Type type = Type::kString;
  std::string description;
  int64_t min = 0;                // integers: smallest value; strings and arrays: fewest characters / items
  int64_t max = 1000000;          // integers: largest value; strings: most characters; arrays: most items
  int64_t max_item_length = 200;  // string arrays: most characters per item
};

struct GuardBinding {
  std::string action;  // e.g. "Entry.Publish"; empty: every guarded action
};

struct PluginRoute {
  std::string method;  // GET, PUT, POST, DELETE
  std::string path;    // served path, e.g. /api/plugins/rules/tenant/global
};

// A plugin's name and description in one more language than English (issue
// 26: the text the server composes follows the interface language).
struct ManifestText {
  std::string language;  // a primary language tag, lower case, e.g. "es"
  std::string name;
  std::string description;
};

struct Manifest {
  std::string id;  // kebab-case, unique
  std::string name;
  std::string version;  // semantic version
  std::string description;
  std::string category;
  bool has_settings = false;
  bool has_endpoints = false;
  std::vector<std::pair<std::string, std::string>> ui_contributions;  // slot -> component, in order
  std::vector<std::string> dependencies;                              // plugin ids
  std::vector<SettingField> settings;  // the settings schema (closed: other members are refused)
  std::vector<GuardBinding> guards;
  std::vector<std::string> events;  // event types of the webhooks' catalog it handles
  std::vector<PluginRoute> routes;
  std::vector<ManifestText> translations;  // name and description beside English, one per language
};

// The manifest's name and description in `language` (a primary language
// tag), or in English (the manifest's own) when it has no translation there.
struct LocalizedManifestText {
  std::string_view name;
  std::string_view description;
};
LocalizedManifestText LocalizedText(const Manifest& manifest, std::string_view language);

// The guarded actions (docs/plugins.md).
const std::vector<std::string>& GuardedActions();

bool IsKebabCaseId(std::string_view id);
bool IsSemanticVersion(std::string_view version);

// The plugins Credence ships, in install order (dependencies first).
const std::vector<Manifest>& ShippedPlugins();
const Manifest* FindShipped(std::string_view id);

// Every problem of a registry, as "<id>: <what>" lines; empty when it is
// valid: ids kebab-case and unique, versions semantic, slots from the
// spec's list, dependencies known, no dependency cycle, guards on guarded
// actions, settings only when hasSettings, routes only when hasEndpoints,
// translations each in a language of their own, other than English, with a
// name and a description.
std::vector<std::string> ValidateRegistry(const std::vector<Manifest>& registry);

// The settings object's JSON Schema (draft 2020-12), closed.
boost::json::object SettingsJsonSchema(const Manifest& manifest);
// `settings` checked against the manifest's schema; a validation error
// naming the member (e.g. "maxTitleLength", "forbiddenTerms[2]") per failure.
Status ValidateSettings(const Manifest& manifest, const boost::json::object& settings);

}  // namespace credence::plugins
