#pragma once
// Tenant plugin installations (docs/plugins.md): which of the plugins
// Credence ships a tenant installed, enabled and configured. Only enabled
// plugins act for a tenant (their guards, their routes). Every change is
// audited in its own transaction.
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "plugins/manifest.h"
#include "plugins/plugin_module.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::plugins {

struct Installation {
  std::string plugin_id;
  bool is_enabled = false;
  boost::json::object settings;
  TimeMs installed_at = 0;
  TimeMs updated_at = 0;
};

// The plugins a server offers, each registered with its manifest and what
// it runs (plugin_module.h), in registration order: the order guards run
// in. Built once at start-up (ShippedRegistry, shipped_plugins.h), then
// read only: thread-safe.
class Registry {
 public:
  Registry() = default;
  Registry(Registry&&) = default;
  Registry& operator=(Registry&&) = default;

  // Throws std::logic_error (a start-up error, not a runtime one) when the
  // id is taken, or a guard or event handler is missing for what the
  // manifest declares, or present for what it does not.
  void Register(PluginModule module);

  const std::vector<Manifest>& All() const { return manifests_; }
  const std::vector<PluginModule>& Modules() const { return modules_; }
  const Manifest* Find(std::string_view id) const;

 private:
  std::vector<PluginModule> modules_;
  std::vector<Manifest> manifests_;  // the modules' manifests, in order, for readers of manifests only
};

// Installations of `tx`'s tenant; the enabled ones only when `enabled_only`.
std::vector<Installation> ReadInstallations(storage::TenantSession& tx, bool enabled_only);

class PluginService {
 public:
  PluginService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                const Registry& registry)
      : db_(db), clock_(clock), audit_(audit), registry_(registry) {}

  const Registry& registry() const { return registry_; }

  // Any signed-in user of the tenant.
  Result<std::vector<Installation>> List(const identity::Principal& caller) const;
  Result<Installation> Get(const identity::Principal& caller, const std::string& plugin_id) const;
  // Global admins. 404 unknown plugin; 409 plugin_dependency_missing (with
  // missingPlugin) when a dependency is not installed and enabled; 409
  // plugin_already_installed. Installed enabled, with empty settings.
  Result<Installation> Install(const identity::Principal& caller, const std::string& plugin_id) const;
  // Global admins. 404 when not installed. Enabling needs the dependencies
  // enabled (409 plugin_dependency_missing); disabling one that an enabled
  // plugin depends on is 409 plugin_required (with missingPlugin naming
  // the dependent).
  Result<Installation> SetEnabled(const identity::Principal& caller, const std::string& plugin_id, bool enabled) const;
  // Global admins. 404 when not installed; 409 plugin_required when an
  // installed plugin depends on it.
  Status Uninstall(const identity::Principal& caller, const std::string& plugin_id) const;
  // Global admins. 400 plugin_has_no_settings for a plugin without
  // settings; 400 validation_failed naming the member.
  Result<Installation> UpdateSettings(const identity::Principal& caller, const std::string& plugin_id,
                                      const boost::json::object& settings) const;
  // At provisioning (tenant create's enabledPlugins): installs each (and
  // its dependencies first), audited as the system. 400 naming
  // enabledPlugins[i] for an unknown id; nothing is installed then.
  Status InstallAtProvisioning(const std::string& tenant_id, const std::vector<std::string>& plugin_ids) const;
  static Status CheckKnown(const Registry& registry, const std::vector<std::string>& plugin_ids);

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  const Registry& registry_;
};

}  // namespace credence::plugins
