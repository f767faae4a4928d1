#include "translation/jobs.h"

#include <map>
#include <vector>

#include "core/ids.h"
#include "core/logging.h"
#include "platform/languages.h"
#include "storage/session.h"
#include "telemetry/span.h"

namespace credence::translation {
namespace {
using storage::GlobalQuery;
using storage::TenantQuery;

constexpr TenantQuery kEntryLanguageAndStatus{
    "translation.jobs.entry", "SELECT original_language, status FROM entries WHERE tenant_id = $1 AND id = $2"};

// One job per entry and language: a new trigger makes the job due again from
// scratch. A pass running it meanwhile loses its claim name (it records
// nothing) but keeps the claim's expiry, so no other pass takes the job
// before then; the job then runs again on what changed.
constexpr TenantQuery kEnqueue{
    "translation.jobs.enqueue",
    "INSERT INTO translation_jobs (tenant_id, id, entry_id, language, provider, requested_by, attempts,"
    " next_attempt_at, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, 'pending', $7, $7)"
    " ON CONFLICT (tenant_id, entry_id, language) DO UPDATE SET provider = excluded.provider,"
    " requested_by = excluded.requested_by, attempts = 0, next_attempt_at = excluded.next_attempt_at,"
    " status = 'pending', last_error = NULL, claimed_by = NULL, updated_at = excluded.updated_at"};

constexpr TenantQuery kJobStatus{
    "translation.jobs.status",
    "SELECT status FROM translation_jobs WHERE tenant_id = $1 AND entry_id = $2 AND language = $3"};

constexpr GlobalQuery kDue{
    "translation.jobs.due",
    "SELECT tenant_id, id FROM translation_jobs WHERE status = 'pending' AND next_attempt_at <= $1"
    " AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY next_attempt_at, tenant_id, id LIMIT 500"};

// Claims job $2 for pass $3 until $4 when it is still due at $5 and the
// tenant holds fewer than $6 live claims.
constexpr TenantQuery kClaim{
    "translation.jobs.claim",
    "UPDATE translation_jobs SET claimed_by = $3, claimed_until = $4 WHERE tenant_id = $1 AND id = $2"
    " AND status = 'pending' AND next_attempt_at <= $5 AND (claimed_until IS NULL OR claimed_until <= $5)"
    " AND (SELECT COUNT(*) FROM translation_jobs o WHERE o.tenant_id = $1 AND o.claimed_until > $5) < $6"
    " RETURNING entry_id, language, provider, requested_by, attempts"};

constexpr TenantQuery kDone{
    "translation.jobs.done",
    "UPDATE translation_jobs SET status = 'done', attempts = attempts + 1, last_error = NULL, claimed_by = NULL,"
    " claimed_until = NULL, updated_at = $4 WHERE tenant_id = $1 AND id = $2 AND claimed_by = $3 RETURNING id"};

constexpr TenantQuery kFailed{
    "translation.jobs.failed",
    "UPDATE translation_jobs SET status = $4, attempts = attempts + 1, last_error = $5, next_attempt_at = $6,"
    " claimed_by = NULL, claimed_until = NULL, updated_at = $7 WHERE tenant_id = $1 AND id = $2 AND claimed_by = $3"
    " RETURNING id"};

struct Claimed {
  std::string tenant_id;
  std::string id;
  std::string entry_id;
  std::string language;
  std::optional<std::string> provider;
  std::string requested_by;
  int64_t attempts = 0;
};

}  // namespace

void TriggeringEvents::Emit(storage::TenantSession& tx, std::string_view type, const boost::json::object& data) const {
  next_.Emit(tx, type, data);
  // Published, or saved while published (entry.updated carries the status).
  bool trigger = type == "entry.published";
  if (type == "entry.updated")
    if (const auto* s = data.if_contains("status"); s && s->is_string() && s->as_string() == "Published")
      trigger = true;
  if (!trigger) return;
  const auto* entry = data.if_contains("entryId");
  const auto* actor = data.if_contains("actorId");
  if (!entry || !entry->is_string()) return;
  const std::string entry_id(entry->as_string());
  const auto rows = tx.Run(kEntryLanguageAndStatus, {entry_id});
  if (rows.empty()) return;
  const std::string original = rows.front().Text(0);
  const TimeMs now = clock_.Now();
  for (const auto& l : platform::LanguagesIn(tx)) {
    if (!l.is_enabled || l.code == original || l.trigger != platform::TranslationTrigger::kAlwaysTranslate) continue;
    std::optional<std::string> provider = l.provider;
    tx.Run(kEnqueue, {NewId(), entry_id, l.code, provider,
                      actor && actor->is_string() ? std::string(actor->as_string()) : std::string(), now});
  }
}

void TriggeringEvents::EmitLazy(storage::TenantSession& tx, std::string_view type,
                                const std::function<boost::json::object()>& data) const {
  if (type == "entry.published" || type == "entry.updated")
    Emit(tx, type, data());
  else
    next_.EmitLazy(tx, type, data);
}

bool QueueOnDemand(storage::Database& db, const Clock& clock, const identity::Principal& caller,
                   const std::string& entry_id, const std::string& language) {
  storage::Session session(db, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  std::optional<platform::Language> found;
  for (auto& l : platform::LanguagesIn(tx))
    if (l.code == language) found = std::move(l);
  if (!found || !found->is_enabled || found->trigger != platform::TranslationTrigger::kOnDemand) return false;
  const auto status = tx.Run(kJobStatus, {entry_id, language});
  if (!status.empty() && status.front().Text(0) == "pending") return true;
  if (!status.empty() && status.front().Text(0) == "failed") return false;
  const TimeMs now = clock.Now();
  tx.Run(kEnqueue, {NewId(), entry_id, language, found->provider,
                    caller.user_id.empty() ? caller.key_id : caller.user_id, now});
  session.Commit();
  return true;
}

TranslationJobsResult TranslationJobs::RunOnce() const {
  TranslationJobsResult result;
  // A fresh claim name per pass: two passes of one node never mistake each
  // other's claims.
  const std::string claim = NewId();
  const TimeMs now = clock_.Now();
  std::vector<Claimed> claimed;
  std::map<std::string, int64_t> per_tenant;
  {
    storage::Session session(db_);
    for (const auto& row : session.Run(kDue, {now})) {
      const std::string tenant_id = row.Text(0);
      if (per_tenant[tenant_id] >= per_tenant_) continue;
      storage::TenantSession tenant(session, tenant_id);
      const auto got = tenant.Run(kClaim, {row.Text(1), claim, now + kTranslationJobClaimMs, now, per_tenant_});
      if (got.empty()) continue;
      const auto r = got.front();
      claimed.push_back({tenant_id, row.Text(1), r.Text(0), r.Text(1), r.OptText(2), r.Text(3), r.Int(4)});
      ++per_tenant[tenant_id];
    }
  }
  result.claimed = static_cast<int64_t>(claimed.size());
  for (const auto& job : claimed) {
    // The trigger stands for the person whose action queued the job; the
    // job only ever translates this entry into this language.
    identity::Principal as;
    as.kind = identity::PrincipalKind::kUser;
    as.tenant_id = job.tenant_id;
    as.user_id = job.requested_by;
    as.role = identity::TenantRole::kOwner;
    // A trace per job (docs/tracing.md): the provider calls are its spans.
    telemetry::Span span = telemetry::Span::Root("translation job");
    if (span.recording())
      span.SetString("credence.tenant_id", job.tenant_id).SetString("credence.translation.language", job.language);
    auto translated = mt_.TranslateEntry(as, job.entry_id, job.language, job.provider);
    if (!translated) span.SetError(translated.error().code);
    const TimeMs done = clock_.Now();
    storage::Session session(db_);
    storage::TenantSession tenant(session, job.tenant_id);
    if (translated) {
      if (!tenant.Run(kDone, {job.id, claim, done}).empty()) ++result.translated;
      continue;
    }
    const auto& error = translated.error();
    const int64_t attempt = job.attempts + 1;
    const bool give_up = attempt >= kTranslationJobMaxAttempts || error.kind == ErrorKind::kNotFound;
    const int64_t delay = kTranslationJobFirstRetryMs << (attempt - 1 < 20 ? attempt - 1 : 20);
    const std::string message = error.code.empty() ? error.detail : error.code + ": " + error.detail;
    if (tenant.Run(kFailed, {job.id, claim, give_up ? "failed" : "pending", message, done + delay, done}).empty())
      continue;
    ++(give_up ? result.gave_up : result.failed);
    LogLine(give_up ? LogLevel::kError : LogLevel::kWarn,
            give_up ? "machine translation job given up" : "machine translation job failed")
        .Str("tenant", job.tenant_id)
        .Str("entry", job.entry_id)
        .Str("language", job.language)
        .Int("attempt", attempt)
        .Str("error", message);
  }
  return result;
}

}  // namespace credence::translation
