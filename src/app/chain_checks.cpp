#include "app/chain_checks.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "platform/audit_log.h"
#include "storage/database.h"
#include "storage/session.h"

namespace credence::app {

namespace {
using Clk = std::chrono::steady_clock;
double Seconds(Clk::time_point since) { return std::chrono::duration<double>(Clk::now() - since).count(); }
}  // namespace

std::shared_ptr<const integrity::SigningKey> ReadChainSigningKey(const std::string& path, std::string& error) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = "there is no key file at '" + path + "'";
    return nullptr;
  }
  std::ifstream in(path);
  std::stringstream pem;
  pem << in.rdbuf();
  if (!in) {
    error = "cannot read '" + path + "'";
    return nullptr;
  }
  auto loaded = integrity::SigningKey::FromPem(pem.str());
  if (!loaded) {
    error = "'" + path + "': " + loaded.error().detail;
    return nullptr;
  }
  return std::make_shared<const integrity::SigningKey>(std::move(*loaded));
}

// VerifyChain(from, to) links its first record to the stored hash of the
// one before, so the ranges together check every link, and the walk is
// CPU-bound (a hash and a header parse per record).
trust::VerifyResult VerifyLedger(storage::Database& db, const std::string& tenant_id) {
  int64_t last = 0;
  {
    storage::Session session(db, storage::TxMode::kRead);
    storage::TenantSession tenant(session, tenant_id);
    if (const auto head = trust::LedgerChain().head(tenant)) last = head->seq;
  }
  constexpr int64_t kRangeRecords = 100'000;
  const int64_t parts = std::clamp<int64_t>(last / kRangeRecords, 1, std::max(1U, std::thread::hardware_concurrency()));
  std::vector<trust::VerifyResult> results(static_cast<size_t>(parts));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(parts));
  std::vector<std::thread> threads;
  for (int64_t i = 0; i < parts; ++i) {
    const int64_t from = 1 + last * i / parts;
    const int64_t to = i + 1 == parts ? 0 : last * (i + 1) / parts;  // the last range: to the chain's end
    threads.emplace_back([&db, &tenant_id, &results, &errors, i, from, to] {
      try {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        results[static_cast<size_t>(i)] = trust::VerifyChain(tenant, from, to);
      } catch (...) {
        errors[static_cast<size_t>(i)] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  trust::VerifyResult out;
  for (const auto& r : results) {
    const int64_t checked = out.checked + r.checked;
    if (out.ok && !r.ok) out = r;  // the first range that fails names the record
    out.checked = checked;
  }
  return out;
}

std::vector<ChainCheck> VerifyChains(storage::Database& db, const integrity::ChainHeads& heads) {
  std::vector<ChainCheck> out;
  std::vector<std::string> ledger_tenants, audit_tenants;
  {
    storage::Session session(db);
    ledger_tenants = trust::LedgerChain().tenants(session);
    audit_tenants = platform::AuditChainTenants(session);  // the platform chain among them
  }
  const std::string audit = platform::AuditChain().name;
  for (const bool ledger : {true, false}) {
    for (const auto& tenant_id : ledger ? ledger_tenants : audit_tenants) {
      const auto start = Clk::now();
      ChainCheck c{ledger ? trust::kLedgerChain : audit, tenant_id};
      if (ledger) {
        const auto records = VerifyLedger(db, tenant_id);
        c.records = records.checked;
        c.ok = records.ok;
        c.problem = records.problem;
      } else {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        const auto records = platform::VerifyAuditChain(tenant);
        c.records = records.checked;
        c.ok = records.ok;
        c.problem = records.problem;
      }
      storage::Session session(db, storage::TxMode::kRead);
      storage::TenantSession tenant(session, tenant_id);
      const auto signed_heads = heads.Check(tenant, c.chain, 1, 0, std::nullopt);
      c.heads = signed_heads.checked;
      if (c.ok && !signed_heads.ok) {
        c.ok = false;
        c.problem =
            "signed head " + std::to_string(signed_heads.first_invalid_seq.value_or(0)) + ": " + signed_heads.problem;
      }
      std::fprintf(stderr, "checked the %s chain of tenant %s: %lld records, %lld signed heads, %s, in %.2f s\n",
                   c.chain.c_str(), tenant_id.c_str(), static_cast<long long>(c.records),
                   static_cast<long long>(c.heads), c.ok ? "verified" : "NOT verified", Seconds(start));
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace credence::app
