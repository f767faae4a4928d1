#pragma once
// An entry's expiry: which expiry template applies to it, its status as a
// reader sees it now (docs/lifecycle.md), and changing its custom template.
//
// Template resolution: the entry's custom template, else its hub's default
// template (when that template exists in the tenant), else the tenant's
// default template, else none. An inactive template still applies: being
// inactive only keeps it out of pickers (activeOnly listings), it does not
// detach it from the entries and hubs that use it. With no template the
// windows are 0 and 0 and the expiry period is the hub's defaultExpiryDays.
#include <optional>
#include <string>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "lifecycle/expiry_template_service.h"
#include "lifecycle/status.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

inline constexpr size_t kMaxTemplateChangeReasonLength = 1000;

// Where the template that applies to an entry comes from.
inline constexpr char kSourceEntry[] = "entry";
inline constexpr char kSourceHub[] = "hub";
inline constexpr char kSourceTenant[] = "tenant";
inline constexpr char kSourceNone[] = "none";

struct ResolvedTemplate {
  std::string source = kSourceNone;  // entry | hub | tenant | none
  std::optional<ExpiryTemplate> tmpl;
};

struct EntryExpiryConfig {
  ResolvedTemplate resolved;
  int64_t warning_days = 0;
  int64_t grace_days = 0;
  int64_t expiry_days = 0;  // the template's, or the hub's defaultExpiryDays without one
};

// The state table's windows of a resolved template (0 and 0 without one).
ExpiryWindows WindowsOf(const ResolvedTemplate& resolved);

class ExpiryService {
 public:
  ExpiryService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // Entry Viewer+ (404 when the caller cannot view the entry). While expiry
  // is paused the status stands still (isPaused).
  Result<lifecycle::ExpiryStatus> ExpiryStatus(const identity::Principal& caller, const std::string& entry_id) const;
  // Entry Viewer+.
  Result<ResolvedTemplate> EffectiveTemplate(const identity::Principal& caller, const std::string& entry_id) const;
  // Entry Viewer+.
  Result<EntryExpiryConfig> ExpiryConfig(const identity::Principal& caller, const std::string& entry_id) const;
  // Entry Editor+. `template_id` must be a template of the tenant (400 on
  // templateId otherwise); `reason` at most 1000 characters. Records the
  // change in entry_template_changes; returns the new effective template
  // (source "entry").
  Result<ResolvedTemplate> ChangeTemplate(const identity::Principal& caller, const std::string& entry_id,
                                          const std::string& template_id,
                                          const std::optional<std::string>& reason) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
