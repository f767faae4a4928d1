#include "trust/scanning_events.h"

#include <atomic>

#include <boost/json/object.hpp>

namespace credence::trust {
namespace {
std::atomic<const identity::EventSink*> g_sink{nullptr};
}  // namespace

void SetScanningEventSink(const identity::EventSink* sink) { g_sink.store(sink, std::memory_order_release); }

void EmitSecretDetected(storage::TenantSession& tx, std::string_view source_kind, const std::string& source_id,
                        const std::string& detector, const std::string& kind) {
  const identity::EventSink* sink = g_sink.load(std::memory_order_acquire);
  if (sink == nullptr) return;
  sink->Emit(tx, "scanning.secret.detected",
             {{"sourceKind", source_kind == "entry" ? "entry" : "connected"},
              {"sourceId", source_id},
              {"detector", detector},
              {"kind", kind}});
}

}  // namespace credence::trust
