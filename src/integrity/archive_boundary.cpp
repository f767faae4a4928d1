#include "integrity/archive_boundary.h"

#include <string>

#include "storage/session.h"

namespace credence::integrity {
namespace {

constexpr storage::TenantQuery kBoundary{
    "integrity.archive_boundary",
    "SELECT seq, hash FROM chain_archive_boundaries WHERE tenant_id = $1 AND chain = $2"};
constexpr storage::TenantQuery kSetBoundary{
    "integrity.set_archive_boundary",
    "INSERT INTO chain_archive_boundaries (tenant_id, chain, seq, hash, archived_at) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (tenant_id, chain) DO UPDATE SET seq = $3, hash = $4, archived_at = $5"};

}  // namespace

std::optional<ChainHead> ArchivedThrough(storage::TenantSession& tenant, std::string_view chain) {
  auto rows = tenant.Run(kBoundary, {std::string(chain)});
  if (rows.empty()) return std::nullopt;
  return ChainHead{rows.front().Int(0), rows.front().Text(1)};
}

void SetArchivedThrough(storage::TenantSession& tx, std::string_view chain, const ChainHead& through, TimeMs at) {
  tx.Run(kSetBoundary, {std::string(chain), through.seq, through.hash, at});
}

}  // namespace credence::integrity
