#pragma once
// scanning.secret.detected (docs/webhooks.md): content scanning tells the
// tenant's webhooks about a new secret finding, in the scan's transaction.
//
// A seam, deliberately small: content_scanning.cpp (owned by the trust
// plane's lead) calls EmitSecretDetected in one line; the sink is set once
// by app/service_set. The cleaner form, an EventSink& in ContentScanning's
// constructor like EntryService's, is left to that file's owner.
#include <string>
#include <string_view>

#include "identity/events.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

// The sink later emits go to; null (the default): nothing is emitted.
// Thread-safe; set before serving.
void SetScanningEventSink(const identity::EventSink* sink);

// Emits scanning.secret.detected with {sourceKind, sourceId, detector,
// kind}: ids and the detector's name, never the secret or its fingerprint.
void EmitSecretDetected(storage::TenantSession& tx, std::string_view source_kind, const std::string& source_id,
                        const std::string& detector, const std::string& kind);

}  // namespace credence::trust
