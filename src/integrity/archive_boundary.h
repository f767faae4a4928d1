#pragma once
// Where a tenant's hash chain was archived through (retention; docs/retention.md).
// Records up to and including `seq` have left the database for an archive
// file; the boundary keeps the last archived record's hash, so the chain
// that stays goes on from it: the next append links to it when the table
// holds no record, verification starts after it, and a signed head at the
// boundary still checks. Written in the transaction that deletes the
// archived records, so a reader sees either both or neither.
#include <optional>
#include <string_view>

#include "core/clock.h"
#include "integrity/chain_heads.h"

namespace credence::integrity {

std::optional<ChainHead> ArchivedThrough(storage::TenantSession& tenant, std::string_view chain);
void SetArchivedThrough(storage::TenantSession& tx, std::string_view chain, const ChainHead& through, TimeMs at);

}  // namespace credence::integrity
