#include "plugins/manifest.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include <boost/json/array.hpp>

#include "core/text.h"
#include "notify/webhook.h"

namespace credence::plugins {
namespace json = boost::json;

const std::vector<std::string>& UiSlots() {
  static const std::vector<std::string> kSlots = {"entry.toolbar.publish", "entry.sidebar.status",
                                                  "entry.approval.dialog", "entry.delete.confirm",
                                                  "hub.admin.settings",    "tenant.admin.settings"};
  return kSlots;
}

const std::vector<std::string>& GuardedActions() {
  static const std::vector<std::string> kActions = {"Entry.Publish", "Entry.Delete", "Entry.Renew",
                                                    "Translation.MarkUpToDate", "Hub.Delete"};
  return kActions;
}

bool IsKebabCaseId(std::string_view id) {
  if (id.empty() || id.size() > 64 || id.front() == '-' || id.back() == '-') return false;
  if (!(id.front() >= 'a' && id.front() <= 'z')) return false;
  char prev = 0;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || (c == '-' && prev == '-')) return false;
    prev = c;
  }
  return true;
}

namespace {

// A numeric identifier of semver 2.0.0: digits without a leading zero.
bool IsNumericIdentifier(std::string_view s) {
  if (s.empty()) return false;
  if (s.size() > 1 && s.front() == '0') return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsDotSeparated(std::string_view s, bool prerelease) {
  if (s.empty()) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = s.find('.', start);
    const std::string_view part = s.substr(start, dot == std::string_view::npos ? s.size() - start : dot - start);
    if (part.empty()) return false;
    const bool alnum = std::all_of(part.begin(), part.end(),
                                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-'; });
    if (!alnum) return false;
    const bool numeric = std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (prerelease && numeric && !IsNumericIdentifier(part)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

bool IsSemanticVersion(std::string_view v) {
  const size_t plus = v.find('+');
  if (plus != std::string_view::npos) {
    if (!IsDotSeparated(v.substr(plus + 1), false)) return false;
    v = v.substr(0, plus);
  }
  const size_t dash = v.find('-');
  if (dash != std::string_view::npos) {
    if (!IsDotSeparated(v.substr(dash + 1), true)) return false;
    v = v.substr(0, dash);
  }
  int parts = 0;
  size_t start = 0;
  while (true) {
    const size_t dot = v.find('.', start);
    const std::string_view part = v.substr(start, dot == std::string_view::npos ? v.size() - start : dot - start);
    if (!IsNumericIdentifier(part)) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts == 3;
}

const std::vector<Manifest>& ShippedPlugins() {
  using T = SettingField::Type;
  static const std::vector<Manifest> kPlugins = {
      Manifest{
          .id = "content-rules",
          .name = "Content rules",
          .version = "1.0.0",
          .description = "Checks an entry against the tenant's and its hub's content rules before it is "
                         "published: required headings, forbidden terms, maximum lengths, required up-to-date "
                         "translations, no secret findings.",
          .category = "quality",
          .has_settings = true,
          .has_endpoints = true,
          .ui_contributions = {{"entry.sidebar.status", "ContentRulesStatus"},
                               {"hub.admin.settings", "HubContentRulesSettings"},
                               {"tenant.admin.settings", "ContentRulesSettings"}},
          .dependencies = {},
          .settings =
              {
                  {"requiredHeadings", T::kStringArray,
                   "headings (texts of heading blocks, ignoring case) every published entry must have", 0, 50, 200},
                  {"forbiddenTerms", T::kStringArray,
                   "terms (ignoring case) a published entry's title and text must not contain", 0, 200, 100},
                  {"maxTitleLength", T::kInteger, "most characters of a published entry's title (0: no limit)", 0,
                   10000},
                  {"maxTextLength", T::kInteger,
                   "most characters of a published entry's text, all blocks together (0: no limit)", 0, 10000000},
                  {"requiredTranslations", T::kStringArray,
                   "languages in which a published entry must have a translation that is UpToDate", 0, 50, 16},
                  {"noSecretFindings", T::kBoolean,
                   "a published entry may have no active secret finding from content scanning", 0, 1},
                  {"enforceStyleRules", T::kBoolean,
                   "the tenant's style rules of severity Error (avoided terms, the alternatives of preferred terms) "
                   "in the entry's original language block publishing",
                   0, 1},
              },
          .guards = {{"Entry.Publish"}},
          .events = {},
          .routes = {{"GET", "/api/plugins/rules/tenant/global"}, {"PUT", "/api/plugins/rules/tenant/global"}},
          .translations = {{"es", "Reglas de contenido",
                            "Comprueba una entrada con las reglas de contenido de la organización y de su espacio "
                            "antes de publicarla: títulos obligatorios, términos prohibidos, longitudes máximas, "
                            "traducciones al día obligatorias, ningún hallazgo de secretos."}},
      },
      Manifest{
          .id = "approval-workflow",
          .name = "Approval workflow",
          .version = "1.0.0",
          .description = "Publishing an entry needs an approval from an Editor or Admin other than its author: "
                         "request, approve, reject with a comment.",
          .category = "workflow",
          .has_settings = true,
          .has_endpoints = true,
          .ui_contributions = {{"entry.toolbar.publish", "ApprovalPublishButton"},
                               {"entry.approval.dialog", "ApprovalDialog"},
                               {"tenant.admin.settings", "ApprovalWorkflowSettings"}},
          .dependencies = {},
          .settings = {{"exemptHubs", T::kStringArray, "keys of hubs whose entries publish without approval", 0, 200,
                        100}},
          .guards = {{"Entry.Publish"}},
          .events = {"entry.deleted"},
          .routes = {{"GET", "/api/plugins/approval-workflow/entries/{entryId}/approvals"},
                     {"POST", "/api/plugins/approval-workflow/entries/{entryId}/request"},
                     {"POST", "/api/plugins/approval-workflow/approvals/{id}/approve"},
                     {"POST", "/api/plugins/approval-workflow/approvals/{id}/reject"}},
          .translations = {{"es", "Flujo de aprobación",
                            "Publicar una entrada necesita la aprobación de un Editor o Administrador distinto de su "
                            "autor: solicitar, aprobar o rechazar con un comentario."}},
      },
      Manifest{
          .id = "safe-delete",
          .name = "Safe delete",
          .version = "1.0.0",
          .description = "Deleting an entry that AI applications used recently (per the usage records) needs a "
                         "confirmation with a reason.",
          .category = "safety",
          .has_settings = true,
          .has_endpoints = false,
          .ui_contributions = {{"entry.delete.confirm", "SafeDeleteConfirm"},
                               {"tenant.admin.settings", "SafeDeleteSettings"}},
          .dependencies = {},
          .settings = {{"days", T::kInteger, "how far back usage counts, in days (default 30)", 1, 3650}},
          .guards = {{"Entry.Delete"}},
          .events = {},
          .routes = {},
          .translations = {{"es", "Borrado seguro",
                            "Eliminar una entrada que las aplicaciones de IA usaron hace poco (según los registros de "
                            "uso) necesita una confirmación con un motivo."}},
      },
      Manifest{
          .id = "script-guards",
          .name = "Guard scripts",
          .version = "1.0.0",
          .description = "The tenant's own action guards as small Lua 5.4 scripts, run in a sandbox with an "
                         "instruction budget, a memory cap and a time limit per call.",
          .category = "extensibility",
          .has_settings = true,
          .has_endpoints = true,
          .ui_contributions = {{"tenant.admin.settings", "GuardScriptsSettings"}},
          .dependencies = {},
          .settings = {{"instructionBudget", T::kInteger, "VM instructions per call (default 1000000)", 1000, 10000000},
                       {"memoryBytes", T::kInteger, "memory per call in bytes (default 8388608)", 65536, 67108864},
                       {"timeoutMs", T::kInteger, "wall-clock time per call in ms (default 50)", 1, 1000}},
          .guards = {{""}},
          .events = {},
          .routes = {{"GET", "/api/plugins/script-guards/scripts"},
                     {"POST", "/api/plugins/script-guards/scripts"},
                     {"PUT", "/api/plugins/script-guards/scripts/{id}"},
                     {"DELETE", "/api/plugins/script-guards/scripts/{id}"},
                     {"POST", "/api/plugins/script-guards/scripts/{id}/enable"},
                     {"POST", "/api/plugins/script-guards/scripts/{id}/disable"},
                     {"POST", "/api/plugins/script-guards/scripts/{id}/test"}},
          .translations = {{"es", "Scripts de guarda",
                            "Las guardas de acciones propias de la organización como pequeños scripts de Lua 5.4, "
                            "ejecutados aislados con un presupuesto de instrucciones, un límite de memoria y un "
                            "tiempo límite por llamada."}},
      },
      Manifest{
          .id = "admission-hooks",
          .name = "Admission hooks",
          .version = "1.0.0",
          .description = "The tenant's own action guards as HTTPS admission hooks: the signed guard context is "
                         "POSTed to the hook, which answers allow or deny within its timeout.",
          .category = "extensibility",
          .has_settings = false,
          .has_endpoints = true,
          .ui_contributions = {{"tenant.admin.settings", "AdmissionHooksSettings"}},
          .dependencies = {},
          .settings = {},
          .guards = {{""}},
          .events = {},
          .routes = {{"GET", "/api/plugins/admission-hooks/hooks"},
                     {"POST", "/api/plugins/admission-hooks/hooks"},
                     {"DELETE", "/api/plugins/admission-hooks/hooks/{id}"},
                     {"POST", "/api/plugins/admission-hooks/hooks/{id}/enable"},
                     {"POST", "/api/plugins/admission-hooks/hooks/{id}/disable"}},
          .translations = {{"es", "Ganchos de admisión",
                            "Las guardas de acciones propias de la organización como ganchos de admisión HTTPS: el "
                            "contexto firmado de la guarda se envía por POST al gancho, que responde permitir o "
                            "denegar dentro de su plazo."}},
      },
  };
  return kPlugins;
}

LocalizedManifestText LocalizedText(const Manifest& manifest, std::string_view language) {
  for (const auto& t : manifest.translations)
    if (t.language == language) return {t.name, t.description};
  return {manifest.name, manifest.description};
}

const Manifest* FindShipped(std::string_view id) {
  for (const auto& m : ShippedPlugins())
    if (m.id == id) return &m;
  return nullptr;
}

std::vector<std::string> ValidateRegistry(const std::vector<Manifest>& registry) {
  std::vector<std::string> problems;
  std::map<std::string, const Manifest*> by_id;
  for (const auto& m : registry) {
    const std::string who = m.id + ": ";
    if (!IsKebabCaseId(m.id)) problems.push_back(who + "id is not kebab-case");
    if (!by_id.emplace(m.id, &m).second) problems.push_back(who + "id is not unique");
    if (m.name.empty()) problems.push_back(who + "name is empty");
    if (!IsSemanticVersion(m.version)) problems.push_back(who + "version '" + m.version + "' is not semantic");
    if (m.category.empty()) problems.push_back(who + "category is empty");
    std::set<std::string> languages;
    for (const auto& t : m.translations) {
      if (t.language.empty() || t.language == "en" || !std::all_of(t.language.begin(), t.language.end(), [](char c) {
            return c >= 'a' && c <= 'z';
          }))
        problems.push_back(who + "translation language '" + t.language + "' is not a primary tag other than en");
      if (!languages.insert(t.language).second)
        problems.push_back(who + "translation language '" + t.language + "' appears twice");
      if (t.name.empty() || t.description.empty())
        problems.push_back(who + "translation '" + t.language + "' lacks a name or a description");
    }
    std::set<std::string> slots;
    for (const auto& [slot, component] : m.ui_contributions) {
      if (std::find(UiSlots().begin(), UiSlots().end(), slot) == UiSlots().end())
        problems.push_back(who + "slot '" + slot + "' is not one of the spec's");
      if (!slots.insert(slot).second) problems.push_back(who + "slot '" + slot + "' is contributed twice");
      if (component.empty()) problems.push_back(who + "slot '" + slot + "' names no component");
    }
    if (m.has_settings != !m.settings.empty()) problems.push_back(who + "hasSettings disagrees with its settings");
    if (m.has_endpoints != !m.routes.empty()) problems.push_back(who + "hasEndpoints disagrees with its routes");
    for (const auto& r : m.routes)
      if (!r.path.starts_with("/api/plugins/"))
        problems.push_back(who + "route " + r.path + " is not under /api/plugins/");
    for (const auto& e : m.events)
      if (!notify::IsWebhookEventType(e)) problems.push_back(who + "event '" + e + "' is not in the catalog");
    for (const auto& g : m.guards)
      if (!g.action.empty() &&
          std::find(GuardedActions().begin(), GuardedActions().end(), g.action) == GuardedActions().end())
        problems.push_back(who + "guard on unknown action '" + g.action + "'");
    if (m.has_settings) {
      bool settings_page = false;
      for (const auto& [slot, component] : m.ui_contributions) settings_page |= slot == "tenant.admin.settings";
      if (!settings_page) problems.push_back(who + "has settings but no tenant.admin.settings contribution");
    }
  }
  for (const auto& m : registry)
    for (const auto& d : m.dependencies)
      if (!by_id.contains(d)) problems.push_back(m.id + ": dependency '" + d + "' is not a known plugin");
  // Cycles: depth-first, colouring nodes.
  std::map<std::string, int> colour;  // 0 unseen, 1 on the stack, 2 done
  std::function<bool(const std::string&)> visit = [&](const std::string& id) {
    auto it = by_id.find(id);
    if (it == by_id.end()) return false;
    if (colour[id] == 1) return true;
    if (colour[id] == 2) return false;
    colour[id] = 1;
    for (const auto& d : it->second->dependencies)
      if (visit(d)) return true;
    colour[id] = 2;
    return false;
  };
  for (const auto& m : registry)
    if (colour[m.id] == 0 && visit(m.id)) {
      problems.push_back(m.id + ": dependency cycle");
      break;
    }
  return problems;
}

json::object SettingsJsonSchema(const Manifest& manifest) {
  json::object properties;
  for (const auto& f : manifest.settings) {
    json::object p{{"description", f.description}};
    switch (f.type) {
      case SettingField::Type::kString:
        p["type"] = "string";
        p["minLength"] = f.min;
        p["maxLength"] = f.max;
        break;
      case SettingField::Type::kInteger:
        p["type"] = "integer";
        p["minimum"] = f.min;
        p["maximum"] = f.max;
        break;
      case SettingField::Type::kBoolean:
        p["type"] = "boolean";
        break;
      case SettingField::Type::kStringArray:
        p["type"] = "array";
        p["items"] = json::object{{"type", "string"}, {"minLength", 1}, {"maxLength", f.max_item_length}};
        p["minItems"] = f.min;
        p["maxItems"] = f.max;
        break;
    }
    properties[f.name] = std::move(p);
  }
  return {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
}

Status ValidateSettings(const Manifest& manifest, const json::object& settings) {
  std::vector<FieldError> errors;
  for (const auto& [key, value] : settings) {
    const std::string field(key);
    auto it = std::find_if(manifest.settings.begin(), manifest.settings.end(),
                           [&](const SettingField& f) { return f.name == key; });
    if (it == manifest.settings.end()) {
      errors.push_back({field, "is not a setting of " + manifest.id});
      continue;
    }
    const SettingField& f = *it;
    switch (f.type) {
      case SettingField::Type::kString:
        if (!value.is_string())
          errors.push_back({field, "must be a string"});
        else if (auto n = static_cast<int64_t>(Utf8Length(value.as_string())); n < f.min || n > f.max)
          errors.push_back(
              {field, "must have " + std::to_string(f.min) + " to " + std::to_string(f.max) + " characters"});
        break;
      case SettingField::Type::kInteger:
        if (!value.is_int64() && !value.is_uint64())
          errors.push_back({field, "must be an integer"});
        else if (value.is_uint64() || value.as_int64() < f.min || value.as_int64() > f.max)
          errors.push_back({field, "must be between " + std::to_string(f.min) + " and " + std::to_string(f.max)});
        break;
      case SettingField::Type::kBoolean:
        if (!value.is_bool()) errors.push_back({field, "must be a boolean"});
        break;
      case SettingField::Type::kStringArray: {
        if (!value.is_array()) {
          errors.push_back({field, "must be an array of strings"});
          break;
        }
        const auto& a = value.as_array();
        if (static_cast<int64_t>(a.size()) < f.min || static_cast<int64_t>(a.size()) > f.max)
          errors.push_back({field, "must have " + std::to_string(f.min) + " to " + std::to_string(f.max) + " items"});
        for (size_t i = 0; i < a.size(); ++i) {
          if (!a[i].is_string() || a[i].as_string().empty() ||
              static_cast<int64_t>(Utf8Length(a[i].as_string())) > f.max_item_length)
            errors.push_back(
                {field + "[" + std::to_string(i) + "]",
                 "must be a non-empty string of at most " + std::to_string(f.max_item_length) + " characters"});
        }
        break;
      }
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

}  // namespace credence::plugins
