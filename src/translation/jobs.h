#pragma once
// The machine-translation triggers (docs/machine-translation.md, "Triggers").
//
// TriggeringEvents sits in front of the event sink the knowledge base emits
// through: when an entry is published, or saved while published, it queues
// a job (table translation_jobs) for every AlwaysTranslate language of the
// tenant other than the entry's original language, inside the action's
// transaction. TranslationJobs runs the due jobs: it claims each by a
// conditional UPDATE with an expiry (a node that died mid-job has its jobs
// retaken once the claim expires; two passes never hold one job at once), at
// most `per_tenant` jobs of a tenant at a time, translates the missing and
// stale blocks through MachineTranslationService, and retries a failure
// after 30 s, doubling, giving up after 6 attempts with last_error kept.
#include <cstdint>
#include <string>

#include "core/clock.h"
#include "identity/events.h"
#include "translation/document_translation.h"

namespace credence::storage {
class Database;
}

namespace credence::translation {

inline constexpr int kTranslationJobMaxAttempts = 6;
inline constexpr int64_t kTranslationJobFirstRetryMs = 30'000;
inline constexpr int64_t kTranslationJobClaimMs = 10 * 60'000;

class TriggeringEvents final : public identity::EventSink {
 public:
  TriggeringEvents(const Clock& clock, const identity::EventSink& next) : clock_(clock), next_(next) {}
  void Emit(storage::TenantSession& tx, std::string_view type, const boost::json::object& data) const override;
  void EmitLazy(storage::TenantSession& tx, std::string_view type,
                const std::function<boost::json::object()>& data) const override;
  bool Wants(storage::TenantSession& tx, std::string_view type) const override {
    return type == "entry.published" || type == "entry.updated" || next_.Wants(tx, type);
  }

 private:
  const Clock& clock_;
  const identity::EventSink& next_;
};

// The OnDemand read trigger (kb::EntryService::SetReadTrigger): queues a job
// for `language` when it is an enabled OnDemand language of the tenant and
// no job for it is pending; true when one is pending afterwards. A job given
// up is not queued again by reads (a change to the original or a request
// does it).
bool QueueOnDemand(storage::Database& db, const Clock& clock, const identity::Principal& caller,
                   const std::string& entry_id, const std::string& language);

struct TranslationJobsResult {
  int64_t claimed = 0;
  int64_t translated = 0;
  int64_t failed = 0;   // will be retried
  int64_t gave_up = 0;  // attempts exhausted (or the entry is gone)
};

class TranslationJobs {
 public:
  TranslationJobs(storage::Database& db, const Clock& clock, const MachineTranslationService& mt, int64_t per_tenant)
      : db_(db), clock_(clock), mt_(mt), per_tenant_(per_tenant < 1 ? 1 : per_tenant) {}
  // One pass over the due jobs. Safe to run on several nodes (and threads) at once.
  TranslationJobsResult RunOnce() const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const MachineTranslationService& mt_;
  int64_t per_tenant_;
};

}  // namespace credence::translation
