#include "app/admin_command.h"

#include <cstdio>
#include <map>
#include <memory>

#include "app/archive_commands.h"
#include "app/backup_restore.h"
#include "app/migrate_database.h"
#include "app/migrations.h"
#include "app/secrets_commands.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/json_text.h"
#include "core/text.h"
#include "identity/tenant_service.h"
#include "platform/audit_log.h"
#include "storage/database.h"
#include "storage/migrations.h"

namespace credence::app {
namespace {

const std::string kUsage = std::string(
    "usage: credence admin create-tenant --name NAME --slug SLUG --owner-email EMAIL\n"
    "         [--owner-name NAME] [--domain DOMAIN] [--allow-all-users] [--languages en,de]\n"
    "         [--database URL] [--data-dir DIR]\n"
    "  Creates a tenant and its first Owner on this installation's database (the same\n"
    "  --database/--data-dir as `credence serve`, also read from CREDENCE_DATABASE and\n"
    "  CREDENCE_DATA_DIR). The owner signs in with OpenID Connect and is linked by\n"
    "  verified email.\n"
    "       credence admin platform-audit [--limit N] [--database URL] [--data-dir DIR]\n"
    "  Prints the platform audit chain (sign-ins that named no tenant), newest first,\n"
    "  one JSON object a line, then a line with its verification.\n") +
    kMigrateDatabaseUsage + kBackupUsage + kRestoreUsage + kArchiveUsage + kVerifyArchiveUsage + kRotateSecretsKeyUsage;

int Fail(const std::string& message) {
  std::fprintf(stderr, "credence admin: %s\n\n%s", message.c_str(), kUsage.c_str());
  return 2;
}

std::vector<std::string> SplitComma(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    std::string item = Trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string JsonString(const std::string& s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

// The store exactly as `credence serve` chooses it, migrated; 0 or an exit code.
int OpenStore(std::map<std::string, std::string>& flags, std::unique_ptr<storage::Database>& db) {
  std::vector<std::string> serve_args;
  if (!flags["database"].empty()) serve_args.insert(serve_args.end(), {"--database", flags["database"]});
  if (!flags["data-dir"].empty()) serve_args.insert(serve_args.end(), {"--data-dir", flags["data-dir"]});
  auto config = ParseConfig(serve_args, ProcessEnv);
  if (!config) return Fail(config.error().detail);
  try {
    db = storage::OpenDatabase(config->EffectiveDatabaseUrl(), storage::DatabaseOptions{});
    const auto migrations = AllMigrations();
    storage::ApplyMigrations(*db, migrations);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "credence admin: cannot open the database: %s\n", e.what());
    return 1;
  }
  return 0;
}

// The platform chain has no tenant and so no tenant admin: the operator,
// who holds the database, reads it here.
int PlatformAudit(std::map<std::string, std::string>& flags) {
  SystemClock clock;
  std::unique_ptr<storage::Database> db;
  if (int failed = OpenStore(flags, db); failed != 0) return failed;
  platform::AuditLog audit(*db, clock);
  identity::Principal operator_principal;
  operator_principal.tenant_id = identity::kPlatformTenantId;
  operator_principal.role = identity::TenantRole::kOwner;
  platform::AuditFilter filter;
  if (!flags["limit"].empty()) filter.limit = flags["limit"];
  auto page = audit.List(operator_principal, filter, platform::kMaxAuditPageSize);
  if (!page) return Fail(page.error().fields.empty() ? page.error().detail
                                                     : page.error().fields[0].field + ": " + page.error().fields[0].message);
  for (const auto& e : page->entries)
    std::printf("{\"sequence\":%lld,\"at\":%s,\"action\":%s,\"outcome\":%s,\"actor\":%s,\"clientAddress\":%s,"
                "\"details\":%s}\n",
                static_cast<long long>(e.seq), JsonString(FormatTimestamp(e.at)).c_str(), JsonString(e.action).c_str(),
                JsonString(e.outcome).c_str(), JsonString(e.actor.label).c_str(), JsonString(e.client_address).c_str(),
                e.details_json.c_str());
  auto verified = audit.Verify(operator_principal);
  if (!verified) return Fail(verified.error().detail);
  std::printf("{\"verified\":%s,\"checked\":%lld%s}\n", verified->ok() ? "true" : "false",
              static_cast<long long>(verified->records.checked),
              verified->records.ok ? "" : (",\"problem\":" + JsonString(verified->records.problem)).c_str());
  return verified->ok() ? 0 : 1;
}

}  // namespace

int RunAdminCommand(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "help") {
    std::fputs(kUsage.c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "migrate-database") return MigrateDatabase({args.begin() + 1, args.end()});
  if (args[0] == "backup") return BackupDatabase({args.begin() + 1, args.end()});
  if (args[0] == "restore") return RestoreDatabase({args.begin() + 1, args.end()});
  if (args[0] == "archive") return ArchiveNow({args.begin() + 1, args.end()});
  if (args[0] == "verify-archive") return VerifyArchiveFiles({args.begin() + 1, args.end()});
  if (args[0] == "rotate-secrets-key") return RotateSecretsKey({args.begin() + 1, args.end()});
  if (args[0] == "prune-secrets-keys") return PruneSecretsKeys({args.begin() + 1, args.end()});
  if (args[0] != "create-tenant" && args[0] != "platform-audit")
    return Fail("unknown admin command '" + args[0] + "'");
  const bool create = args[0] == "create-tenant";

  std::map<std::string, std::string> flags;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg.rfind("--", 0) != 0) return Fail("unexpected argument '" + arg + "'");
    arg = arg.substr(2);
    if (arg == "allow-all-users") {
      flags[arg] = "true";
      continue;
    }
    std::string value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else {
      if (i + 1 >= args.size()) return Fail("--" + arg + " needs a value");
      value = args[++i];
    }
    static const char* kKnown[] = {"name", "slug", "owner-email", "owner-name", "domain", "languages", "database",
                                   "data-dir", "limit"};
    bool known = false;
    for (const char* k : kKnown) known = known || arg == k;
    if (!known) return Fail("unknown flag --" + arg);
    flags[arg] = value;
  }
  if (!create) return PlatformAudit(flags);
  for (const char* required : {"name", "slug", "owner-email"})
    if (flags[required].empty()) return Fail(std::string("--") + required + " is required");
  const std::string& slug = flags["slug"];
  bool slug_ok = slug.size() <= 63 && slug.front() != '-' && slug.back() != '-';
  for (char c : slug) slug_ok = slug_ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!slug_ok) return Fail("--slug: lowercase letters, digits and inner hyphens, at most 63, got '" + slug + "'");
  const std::string& email = flags["owner-email"];
  if (email.find('@') == std::string::npos || email.find(' ') != std::string::npos)
    return Fail("--owner-email: expected an email address, got '" + email + "'");

  SystemClock clock;
  std::unique_ptr<storage::Database> db;
  if (int failed = OpenStore(flags, db); failed != 0) return failed;
  platform::AuditLog audit(*db, clock);  // the tenant.created entry names the operator
  identity::TenantService tenants(*db, clock, audit, /*dev_mode=*/false);
  identity::NewTenant request;
  request.name = flags["name"];
  request.slug = flags["slug"];
  if (!flags["domain"].empty()) request.domain = NameKey(flags["domain"]);
  request.allow_all_users = flags["allow-all-users"] == "true";
  request.enabled_languages = SplitComma(flags["languages"]);
  auto tenant = tenants.CreateWithOwner(request, email, flags["owner-name"]);
  if (!tenant) {
    std::string detail = tenant.error().detail;
    for (const auto& f : tenant.error().fields) detail += "; " + f.field + ": " + f.message;
    std::fprintf(stderr, "credence admin: %s\n", detail.c_str());
    return 1;
  }
  std::printf("{\"id\":%s,\"name\":%s,\"slug\":%s,\"owner\":%s}\n", JsonString(tenant->id).c_str(),
              JsonString(tenant->name).c_str(), JsonString(tenant->slug).c_str(),
              JsonString(NameKey(email)).c_str());
  return 0;
}

}  // namespace credence::app
