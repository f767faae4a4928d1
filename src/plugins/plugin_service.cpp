#include "plugins/plugin_service.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "identity/authorization.h"
#include "plugins/internal/queries.h"
#include "storage/session.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

Installation FromRow(const storage::Row& r) {
  Installation i;
  i.plugin_id = r.Text(0);
  i.is_enabled = r.Bool(1);
  boost::system::error_code ec;
  json::value v = json::parse(r.TextView(2), ec);
  if (!ec && v.is_object()) i.settings = std::move(v.as_object());
  i.installed_at = r.Int(3);
  i.updated_at = r.Int(4);
  return i;
}

std::optional<Installation> Find(storage::TenantSession& tx, const std::string& plugin_id) {
  auto rows = tx.Run(internal::kGetInstallation, {plugin_id});
  if (rows.empty()) return std::nullopt;
  return FromRow(rows.front());
}

Error UnknownPlugin() { return Error::NotFound("No such plugin."); }
Error NotInstalled() { return Error::NotFound("The plugin is not installed in this tenant."); }

Error DependencyMissing(const std::string& plugin_id, const std::string& missing) {
  return Error::Conflict("plugin_dependency_missing",
                         "Plugin '" + plugin_id + "' needs '" + missing + "' installed and enabled first.")
      .With("missingPlugin", json::serialize(json::value(missing)));
}

Error Required(const std::string& plugin_id, const std::string& dependent) {
  return Error::Conflict("plugin_required",
                         "Plugin '" + dependent + "' depends on '" + plugin_id + "'; disable or uninstall it first.")
      .With("missingPlugin", json::serialize(json::value(dependent)));
}

// The first dependency of `m` not installed and enabled in the tenant.
std::optional<std::string> MissingDependency(storage::TenantSession& tx, const Manifest& m) {
  for (const auto& d : m.dependencies) {
    auto dep = Find(tx, d);
    if (!dep || !dep->is_enabled) return d;
  }
  return std::nullopt;
}

// An installed plugin (enabled when `enabled_only`) that depends on `plugin_id`.
std::optional<std::string> Dependent(storage::TenantSession& tx, const Registry& registry, const std::string& plugin_id,
                                     bool enabled_only) {
  for (const auto& i : ReadInstallations(tx, enabled_only)) {
    const Manifest* m = registry.Find(i.plugin_id);
    if (m && std::find(m->dependencies.begin(), m->dependencies.end(), plugin_id) != m->dependencies.end())
      return i.plugin_id;
  }
  return std::nullopt;
}

}  // namespace

void Registry::Register(PluginModule module) {
  const Manifest& m = module.manifest;
  if (Find(m.id)) throw std::logic_error("plugin '" + m.id + "' is registered twice");
  if (m.guards.empty() != !module.guard)
    throw std::logic_error("plugin '" + m.id +
                           "': a guard must be registered exactly when the manifest declares guards");
  if (m.events.empty() != !module.on_event)
    throw std::logic_error("plugin '" + m.id +
                           "': an event handler must be registered exactly when the manifest declares events");
  manifests_.push_back(m);
  modules_.push_back(std::move(module));
}

const Manifest* Registry::Find(std::string_view id) const {
  for (const auto& m : manifests_)
    if (m.id == id) return &m;
  return nullptr;
}

std::vector<Installation> ReadInstallations(storage::TenantSession& tx, bool enabled_only) {
  std::vector<Installation> out;
  for (const auto& row : tx.Run(enabled_only ? internal::kEnabledInstallations : internal::kListInstallations))
    out.push_back(FromRow(row));
  return out;
}

Result<std::vector<Installation>> PluginService::List(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tx(session, caller.tenant_id);
  std::vector<Installation> out;
  for (auto& i : ReadInstallations(tx, false))
    if (registry_.Find(i.plugin_id)) out.push_back(std::move(i));
  return out;
}

Result<Installation> PluginService::Get(const identity::Principal& caller, const std::string& plugin_id) const {
  CR_TRY(identity::RequireUser(caller));
  if (!registry_.Find(plugin_id)) return UnknownPlugin();
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tx(session, caller.tenant_id);
  auto i = Find(tx, plugin_id);
  if (!i) return NotInstalled();
  return *i;
}

Result<Installation> PluginService::Install(const identity::Principal& caller, const std::string& plugin_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const Manifest* m = registry_.Find(plugin_id);
  if (!m) return UnknownPlugin();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  if (Find(tx, plugin_id))
    return Error::Conflict("plugin_already_installed", "Plugin '" + plugin_id + "' is already installed.");
  if (auto missing = MissingDependency(tx, *m)) return DependencyMissing(plugin_id, *missing);
  const TimeMs now = clock_.Now();
  tx.Run(internal::kInsertInstallation, {plugin_id, now});
  audit_.Record(tx, identity::AuditOf(caller, "plugin.installed", {"plugin", plugin_id}, {{"version", m->version}}));
  session.Commit();
  return Installation{plugin_id, true, {}, now, now};
}

Result<Installation> PluginService::SetEnabled(const identity::Principal& caller, const std::string& plugin_id,
                                               bool enabled) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const Manifest* m = registry_.Find(plugin_id);
  if (!m) return UnknownPlugin();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  auto i = Find(tx, plugin_id);
  if (!i) return NotInstalled();
  if (enabled) {
    if (auto missing = MissingDependency(tx, *m)) return DependencyMissing(plugin_id, *missing);
  } else if (auto dependent = Dependent(tx, registry_, plugin_id, true)) {
    return Required(plugin_id, *dependent);
  }
  const TimeMs now = clock_.Now();
  tx.Run(internal::kSetEnabled, {plugin_id, enabled, now});
  audit_.Record(tx, identity::AuditOf(caller, enabled ? "plugin.enabled" : "plugin.disabled", {"plugin", plugin_id}));
  session.Commit();
  i->is_enabled = enabled;
  i->updated_at = now;
  return *i;
}

Status PluginService::Uninstall(const identity::Principal& caller, const std::string& plugin_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  if (!registry_.Find(plugin_id)) return UnknownPlugin();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  if (!Find(tx, plugin_id)) return NotInstalled();
  if (auto dependent = Dependent(tx, registry_, plugin_id, false)) return Required(plugin_id, *dependent);
  tx.Run(internal::kDeleteInstallation, {plugin_id});
  audit_.Record(tx, identity::AuditOf(caller, "plugin.uninstalled", {"plugin", plugin_id}));
  session.Commit();
  return Ok();
}

Result<Installation> PluginService::UpdateSettings(const identity::Principal& caller, const std::string& plugin_id,
                                                   const json::object& settings) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const Manifest* m = registry_.Find(plugin_id);
  if (!m) return UnknownPlugin();
  if (!m->has_settings)
    return Error::InvalidArgument("plugin_has_no_settings", "Plugin '" + plugin_id + "' has no settings.");
  CR_TRY(ValidateSettings(*m, settings));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  auto i = Find(tx, plugin_id);
  if (!i) return NotInstalled();
  const TimeMs now = clock_.Now();
  tx.Run(internal::kSetSettings, {plugin_id, json::serialize(settings), now});
  json::array names;
  for (const auto& [k, v] : settings) names.push_back(json::string(k));
  audit_.Record(tx, identity::AuditOf(caller, "plugin.settings_updated", {"plugin", plugin_id}, {{"fields", names}}));
  session.Commit();
  i->settings = settings;
  i->updated_at = now;
  return *i;
}

Status PluginService::CheckKnown(const Registry& registry, const std::vector<std::string>& plugin_ids) {
  std::vector<FieldError> errors;
  for (size_t k = 0; k < plugin_ids.size(); ++k)
    if (!registry.Find(plugin_ids[k]))
      errors.push_back({"enabledPlugins[" + std::to_string(k) + "]", "is not a known plugin"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

Status PluginService::InstallAtProvisioning(const std::string& tenant_id,
                                            const std::vector<std::string>& plugin_ids) const {
  CR_TRY(CheckKnown(registry_, plugin_ids));
  // The requested plugins and their dependencies, dependencies first.
  std::vector<std::string> order;
  std::function<void(const std::string&)> add = [&](const std::string& id) {
    if (std::find(order.begin(), order.end(), id) != order.end()) return;
    if (const Manifest* m = registry_.Find(id))
      for (const auto& d : m->dependencies) add(d);
    order.push_back(id);
  };
  for (const auto& id : plugin_ids) add(id);
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, tenant_id);
  const TimeMs now = clock_.Now();
  for (const auto& id : order) {
    if (Find(tx, id)) continue;
    tx.Run(internal::kInsertInstallation, {id, now});
    identity::AuditEvent event;
    event.actor = identity::SystemActor("provisioning");
    event.action = "plugin.installed";
    event.target = {"plugin", id};
    event.details = {{"version", registry_.Find(id)->version}, {"atProvisioning", true}};
    audit_.Record(tx, event);
  }
  session.Commit();
  return Ok();
}

}  // namespace credence::plugins
