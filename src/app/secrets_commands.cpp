#include "app/secrets_commands.h"

#include <cstdio>
#include <memory>
#include <variant>

#include "app/command_report.h"
#include "app/migrations.h"
#include "connectors/credential_store.h"
#include "connectors/secret_box.h"
#include "core/config.h"
#include "core/json_text.h"
#include "storage/database.h"
#include "storage/migrations.h"

namespace credence::app {

const char* const kRotateSecretsKeyUsage =
    "       credence admin rotate-secrets-key [--database URL] [--data-dir DIR] [--secrets-key-file FILE]\n"
    "  Puts a new key first in the connector secrets key file (docs/connectors.md, \"Credentials\")\n"
    "  and seals every stored connector credential again with it; the old keys stay in the file.\n"
    "       credence admin prune-secrets-keys [--database URL] [--data-dir DIR] [--secrets-key-file FILE]\n"
    "  Removes from the file the old keys no stored credential is sealed with (after every node\n"
    "  was restarted with the rotated file). Both print a JSON summary.\n";

namespace {

struct Opened {
  std::unique_ptr<storage::Database> db;
  std::string key_file;
};

std::variant<Opened, Failure> Open(const std::vector<std::string>& args) {
  std::vector<std::string> serve_args;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a != "--database" && a != "--data-dir" && a != "--secrets-key-file")
      return Failure{2, "unexpected argument '" + a + "'"};
    if (i + 1 >= args.size() || args[i + 1].empty()) return Failure{2, a + " needs a value"};
    serve_args.insert(serve_args.end(), {a, args[++i]});
  }
  auto config = ParseConfig(serve_args, ProcessEnv);
  if (!config) return Failure{2, config.error().detail};
  Opened out;
  out.key_file = config->EffectiveSecretsKeyFile();
  try {
    out.db = storage::OpenDatabase(config->EffectiveDatabaseUrl(), storage::DatabaseOptions{});
    storage::ApplyMigrations(*out.db, AllMigrations());
  } catch (const std::exception& e) {
    return Failure{1, std::string("cannot open the database: ") + e.what()};
  }
  return out;
}

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

}  // namespace

int RotateSecretsKey(const std::vector<std::string>& args) {
  auto opened = Open(args);
  if (auto* f = std::get_if<Failure>(&opened)) return Report("rotate-secrets-key", kRotateSecretsKeyUsage, *f);
  auto& [db, key_file] = std::get<Opened>(opened);
  auto added = connectors::SecretBox::AddKey(key_file);
  if (!added) return Report("rotate-secrets-key", kRotateSecretsKeyUsage, {1, added.error().detail});
  auto box = connectors::SecretBox::LoadOrCreate(key_file);
  if (!box) return Report("rotate-secrets-key", kRotateSecretsKeyUsage, {1, box.error().detail});
  const auto summary = connectors::ResealCredentials(*db, **box);
  std::string failed = "[";
  for (size_t i = 0; i < summary.failed.size(); ++i) failed += (i ? "," : "") + Json(summary.failed[i]);
  std::printf("{\"keyFile\":%s,\"newKeyId\":%s,\"resealed\":%lld,\"failed\":%s]}\n", Json(key_file).c_str(),
              Json(*added).c_str(), static_cast<long long>(summary.resealed), failed.c_str());
  return summary.failed.empty() ? 0 : 1;
}

int PruneSecretsKeys(const std::vector<std::string>& args) {
  auto opened = Open(args);
  if (auto* f = std::get_if<Failure>(&opened)) return Report("prune-secrets-keys", kRotateSecretsKeyUsage, *f);
  auto& [db, key_file] = std::get<Opened>(opened);
  const auto in_use = connectors::CredentialKeyIds(*db);
  auto removed = connectors::SecretBox::Prune(key_file, {in_use.begin(), in_use.end()});
  if (!removed) return Report("prune-secrets-keys", kRotateSecretsKeyUsage, {1, removed.error().detail});
  std::string list = "[";
  for (size_t i = 0; i < removed->size(); ++i) list += (i ? "," : "") + Json((*removed)[i]);
  std::printf("{\"keyFile\":%s,\"removed\":%s]}\n", Json(key_file).c_str(), list.c_str());
  return 0;
}

}  // namespace credence::app
