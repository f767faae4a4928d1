// TEMPORARY (branch connectors): the two ContentScanning members the
// connectors call, so they link before the lead's content_scanning.cpp
// lands. Nothing constructs a ContentScanning on this branch (the wiring
// passes null), so these never run. Delete this file and its line in
// CMakeLists.txt when merging main's implementation.
#include "trust/content_scanning.h"

namespace credence::trust {

ScanOutcome ContentScanning::ScanConnectedDocument(storage::TenantSession&, const std::string&, std::string_view,
                                                   TimeMs) const {
  return {};
}

void ContentScanning::ForgetConnectedDocument(storage::TenantSession&, const std::string&, TimeMs) const {}

}  // namespace credence::trust
