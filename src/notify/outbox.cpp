#include "notify/outbox.h"

// TODO(notify helper): implement.
namespace credence::notify {

int QueueForChannels(storage::TenantSession&, const OutboundMessage&, TimeMs) { return 0; }

OutboxWorker::OutboxWorker(storage::Database& db, const Clock& clock, DeliverySettings settings)
    : db_(db), clock_(clock), settings_(std::move(settings)) {}

OutboxRunResult OutboxWorker::RunOnce() const { return {}; }

}  // namespace credence::notify
