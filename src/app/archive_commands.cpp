#include "app/archive_commands.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <variant>

#include "app/command_report.h"
#include "app/migrations.h"
#include "core/config.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "integrity/chain_heads.h"
#include "integrity/merkle_log.h"
#include "integrity/signing_key.h"
#include "platform/audit_log.h"
#include "retention/archiver.h"
#include "retention/verify_archive.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "trust/ledger.h"

namespace credence::app {
namespace fs = std::filesystem;

const char* const kArchiveUsage =
    "       credence admin archive --archive-dir DIR [--tenant ID] [--database URL] [--data-dir DIR]\n"
    "         [--chain-signing-key FILE] [--public-url URL]\n"
    "  Archives now what is past each tenant's retention (docs/retention.md): one sealed file per\n"
    "  tenant, kind and month under DIR/<tenant id>/, then deletes those records from the store\n"
    "  (once the tenant's Merkle tree holds them, docs/receipts.md). The same store, key and\n"
    "  public URL as `credence serve`. Prints a JSON summary.\n";
const char* const kVerifyArchiveUsage =
    "       credence admin verify-archive FILE... (--public-key KEY | --keys FILE)...\n"
    "  Checks archive files offline: the seal, every record's hash and link, the signed head on\n"
    "  the last record, and that each FILE continues the one before it. KEY: the raw Ed25519\n"
    "  public key, base64url (GET /.well-known/credence-chain-keys); --keys: that document saved\n"
    "  to a file (its current key is trusted, older ones through their signed retirements).\n"
    "  Prints one JSON line per file; exits 0 when every file verifies, 1 when one does not.\n";

namespace {

struct ArchiveCommandsFlags {
  std::map<std::string, std::vector<std::string>> values;
  std::vector<std::string> positional;
};

std::variant<ArchiveCommandsFlags, Failure> Parse(const std::vector<std::string>& args,
                                                  std::initializer_list<const char*> known) {
  ArchiveCommandsFlags out;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg.rfind("--", 0) != 0) {
      out.positional.push_back(arg);
      continue;
    }
    arg = arg.substr(2);
    std::string value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else {
      if (i + 1 >= args.size()) return Failure{2, "--" + arg + " needs a value"};
      value = args[++i];
    }
    bool ok = false;
    for (const char* k : known) ok = ok || arg == k;
    if (!ok) return Failure{2, "unknown flag --" + arg};
    if (value.empty()) return Failure{2, "--" + arg + " must not be empty"};
    out.values[arg].push_back(value);
  }
  return out;
}

std::string Last(const ArchiveCommandsFlags& f, const char* name) {
  auto it = f.values.find(name);
  return it == f.values.end() ? std::string() : it->second.back();
}

std::string ArchiveCommandsJsonString(const std::string& s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

int RunArchive(const ArchiveCommandsFlags& flags) {
  const std::string dir = Last(flags, "archive-dir");
  if (dir.empty()) return Report("archive", kArchiveUsage, {2, "--archive-dir is required"});
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Report("archive", kArchiveUsage, {2, "--archive-dir: '" + dir + "' is not a directory"});
  std::vector<std::string> serve_args;
  for (const char* name : {"database", "data-dir", "chain-signing-key", "public-url"})
    if (auto v = Last(flags, name); !v.empty()) serve_args.insert(serve_args.end(), {std::string("--") + name, v});
  auto config = ParseConfig(serve_args, ProcessEnv);
  if (!config) return Report("archive", kArchiveUsage, {2, config.error().detail});
  auto key = integrity::SigningKey::LoadOrCreate(config->EffectiveChainSigningKey());
  if (!key) return Report("archive", kArchiveUsage, {1, "cannot load the chain-signing key: " + key.error().detail});
  auto db = storage::OpenDatabase(config->EffectiveDatabaseUrl(), storage::DatabaseOptions{});
  const auto migrations = AllMigrations();
  storage::ApplyMigrations(*db, migrations);
  SystemClock clock;
  integrity::ChainHeads heads(*db, clock, std::make_shared<const integrity::SigningKey>(std::move(*key)),
                              {trust::LedgerChain(), platform::AuditChain()});
  heads.RegisterKey();
  platform::AuditLog audit(*db, clock);
  audit.SetChainHeads(&heads);
  integrity::MerkleLogs logs(*db, clock, heads, integrity::OriginPrefixOf(config->EffectivePublicUrl()),
                             {trust::LedgerLeaves()});
  retention::Archiver archiver(*db, clock, heads, audit, dir, &logs);
  const auto started = std::chrono::steady_clock::now();
  retention::ArchiveRun run;
  if (auto tenant = Last(flags, "tenant"); !tenant.empty())
    run = archiver.RunTenant(tenant);
  else
    run = archiver.RunOnce();
  std::string files = "[";
  for (size_t i = 0; i < run.files.size(); ++i) files += (i ? "," : "") + ArchiveCommandsJsonString(run.files[i]);
  files += "]";
  std::printf(
      "{\"tenants\":%lld,\"archives\":%lld,\"decisions\":%lld,\"usage\":%lld,\"audit\":%lld,\"failed\":%lld,"
      "\"seconds\":%s,\"files\":%s}\n",
      static_cast<long long>(run.tenants), static_cast<long long>(run.archives), static_cast<long long>(run.decisions),
      static_cast<long long>(run.usage), static_cast<long long>(run.audit), static_cast<long long>(run.failed),
      Fixed(SecondsSince(started)).c_str(), files.c_str());
  return run.failed == 0 ? 0 : 1;
}

std::variant<std::pair<std::vector<retention::TrustedKey>, std::vector<integrity::PublicKey>>, Failure> LoadKeys(
    const ArchiveCommandsFlags& flags) {
  std::vector<retention::TrustedKey> trusted;
  std::vector<integrity::PublicKey> listed;
  if (auto it = flags.values.find("public-key"); it != flags.values.end())
    for (const auto& k : it->second) {
      if (integrity::KeyIdOf(k).empty())
        return Failure{2, "--public-key: '" + k + "' is not a raw Ed25519 public key in base64url"};
      trusted.push_back({"", k});
    }
  if (auto it = flags.values.find("keys"); it != flags.values.end())
    for (const auto& path : it->second) {
      std::ifstream in(path);
      if (!in) return Failure{2, "--keys: cannot read '" + path + "'"};
      std::stringstream text;
      text << in.rdbuf();
      boost::system::error_code ec;
      auto doc = boost::json::parse(text.str(), ec);
      const auto* keys = !ec && doc.is_object() ? doc.as_object().if_contains("keys") : nullptr;
      const auto* current = !ec && doc.is_object() ? doc.as_object().if_contains("currentKeyId") : nullptr;
      if (keys == nullptr || !keys->is_array() || current == nullptr || !current->is_string())
        return Failure{2, "--keys: '" + path + "' is not the JSON of /.well-known/credence-chain-keys"};
      for (const auto& k : keys->as_array()) {
        if (!k.is_object()) continue;
        const auto& o = k.as_object();
        auto str = [&o](const char* name) -> std::optional<std::string> {
          const auto* v = o.if_contains(name);
          return v && v->is_string() ? std::optional<std::string>(std::string(v->as_string())) : std::nullopt;
        };
        integrity::PublicKey p;
        p.key_id = str("keyId").value_or("");
        p.public_key = str("publicKey").value_or("");
        if (auto at = str("retiredAt")) p.retired_at = ParseTimestamp(*at);
        p.retired_by = str("retiredBy");
        p.retirement_signature = str("retirementSignature");
        if (p.key_id == current->as_string()) trusted.push_back({p.key_id, p.public_key});
        listed.push_back(std::move(p));
      }
    }
  if (trusted.empty()) return Failure{2, "give the public key to check with: --public-key KEY or --keys FILE"};
  return std::make_pair(std::move(trusted), std::move(listed));
}

int RunVerify(const ArchiveCommandsFlags& flags) {
  if (flags.positional.empty())
    return Report("verify-archive", kVerifyArchiveUsage, {2, "name at least one archive file"});
  auto keys = LoadKeys(flags);
  if (auto* failed = std::get_if<Failure>(&keys)) return Report("verify-archive", kVerifyArchiveUsage, *failed);
  const auto& [trusted, listed] = std::get<0>(keys);
  bool all_ok = true;
  std::optional<retention::ArchiveCheck> previous;
  for (const auto& path : flags.positional) {
    std::error_code ec;
    retention::ArchiveCheck c;
    if (!fs::is_regular_file(path, ec)) {
      c.problem = "no such file";
    } else {
      c = retention::VerifyArchive(path, trusted, listed);
      // Files of one tenant and kind, named in order: each must go on from
      // the one before (nothing between them lost).
      if (c.ok && previous && previous->ok && previous->tenant_id == c.tenant_id && previous->kind == c.kind) {
        if (auto why = retention::ContinuityProblem(*previous, c); !why.empty()) {
          c.ok = false;
          c.problem = why;
        }
      }
    }
    all_ok = all_ok && c.ok;
    std::string line;
    JsonObjectWriter w(line);
    w.Str("file", path).Bool("ok", c.ok);
    if (!c.ok) w.Str("problem", c.problem);
    w.Str("tenantId", c.tenant_id).Str("kind", c.kind).Str("period", c.period).Int("records", c.records);
    if (c.from_seq) w.Int("fromSequence", *c.from_seq).Int("toSequence", *c.to_seq);
    if (!c.prev_hash.empty()) w.Str("previousHash", c.prev_hash).Str("lastHash", c.last_hash);
    w.Int("signedHeads", c.heads).Str("sealedBy", c.sealed_by);
    w.Close();
    std::printf("%s\n", line.c_str());
    previous = c;
  }
  return all_ok ? 0 : 1;
}

}  // namespace

int ArchiveNow(const std::vector<std::string>& args) {
  SetLogLevel(LogLevel::kWarn);
  auto flags = Parse(args, {"archive-dir", "tenant", "database", "data-dir", "chain-signing-key", "public-url"});
  if (auto* failed = std::get_if<Failure>(&flags)) return Report("archive", kArchiveUsage, *failed);
  if (!std::get<ArchiveCommandsFlags>(flags).positional.empty())
    return Report("archive", kArchiveUsage,
                  {2, "unexpected argument '" + std::get<ArchiveCommandsFlags>(flags).positional[0] + "'"});
  try {
    return RunArchive(std::get<ArchiveCommandsFlags>(flags));
  } catch (const std::exception& e) {
    return Report("archive", kArchiveUsage, {1, e.what()});
  }
}

int VerifyArchiveFiles(const std::vector<std::string>& args) {
  SetLogLevel(LogLevel::kWarn);
  auto flags = Parse(args, {"public-key", "keys"});
  if (auto* failed = std::get_if<Failure>(&flags)) return Report("verify-archive", kVerifyArchiveUsage, *failed);
  try {
    return RunVerify(std::get<ArchiveCommandsFlags>(flags));
  } catch (const std::exception& e) {
    return Report("verify-archive", kVerifyArchiveUsage, {1, e.what()});
  }
}

}  // namespace credence::app
